// A tile dim after an absent one (usize::MAX marks absent parameters).
use tilelayout::*;

assert_layout!(Tiled<F32, Dims<3, 5>, T<2, { usize::MAX }, 2>>);

fn main() {}

// A dim after an absent one (usize::MAX marks absent parameters).
use tilelayout::*;

assert_layout!(Tiled<F32, Dims<3, { usize::MAX }, 5>>);

fn main() {}

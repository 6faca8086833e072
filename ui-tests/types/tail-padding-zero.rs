// Attrs<0, …>: the tail padding alignment must be at least 1.
use tilelayout::*;

assert_layout!(Tiled<F32, Dims<3, 5>, T<2, 2>, Descending, Attrs<0, 0, 0>>);

fn main() {}

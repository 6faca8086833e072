// MinorToMajor names dim 2 of a rank-2 shape.
use tilelayout::*;

assert_layout!(Tiled<F32, Dims<3, 5>, T<2, 2>, MinorToMajor<2, 0>>);

fn main() {}

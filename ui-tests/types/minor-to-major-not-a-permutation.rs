// MinorToMajor lists dim 1 twice.
use tilelayout::*;

assert_layout!(Tiled<F32, Dims<3, 5>, T<2, 2>, MinorToMajor<1, 1>>);

fn main() {}

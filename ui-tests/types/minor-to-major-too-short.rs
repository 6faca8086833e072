// MinorToMajor has one entry for a rank-2 shape.
use tilelayout::*;

assert_layout!(Tiled<F32, Dims<3, 5>, (), MinorToMajor<0>>);

fn main() {}

// FromXla of an invalid hand-written XLA layout type: the layout type's own
// verdict, once.
use tilelayout::*;

assert_cute!(FromXla<Tiled<F32, Dims<3, 5>, T<0, 2>>>);

fn main() {}

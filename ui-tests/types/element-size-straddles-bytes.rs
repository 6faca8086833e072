// E(6) for s4: a 6-bit element would straddle byte boundaries.
use tilelayout::*;

assert_layout!(Tiled<S4, Dims<16>, (), Descending, Attrs<1, 6, 0>>);

fn main() {}

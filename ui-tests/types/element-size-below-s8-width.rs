// E(4) is narrower than an s8 value.
use tilelayout::*;

assert_layout!(Tiled<S8, Shape<16>, (), Descending, Attrs<1, 4, 0>>);

fn main() {}

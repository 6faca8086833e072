// A hand-written CuTe layout type with a zero shape.
use tilelayout::*;

assert_cute!(Cute<(Leaf<2, 1>, Leaf<0, 2>)>);

fn main() {}

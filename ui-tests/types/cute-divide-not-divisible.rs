// A tile of 128 does not divide mode 0 (shape 12) of the layout: CuTe
// (its issue #3513) returns a 288-element layout for a dynamic 128; the
// type is a compile error naming the mode and what to change.
use tilelayout::*;

assert_cute!(ZippedDivide<cute!((_12,(_4,_8)):(_7,(_1,_30))), C<128>>);

fn main() {}

// The right inverse of a swizzled layout with a non-zero offset swizzles
// its input (L' o -offset o Sw), which no layout type represents.
use tilelayout::*;

assert_cute!(RightInverse<cute!(Sw<3,3,3> o _4 o (_8,_64):(_64,_1))>);

fn main() {}

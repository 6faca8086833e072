// T(2,2) cuts x % 3 at 2 and puts the parts at strides 4 and 1: no CuTe
// layout has these offsets; the error names the tile.
use tilelayout::*;

assert_cute!(FromXla<layout!(f32[4]{0:T(3)(2,2)})>);

fn main() {}

// T(3) cuts x % 4 (the first tile's dim) unevenly: no CuTe layout has these
// offsets; the error names the tile.
use tilelayout::*;

assert_cute!(FromXla<layout!(f32[6]{0:T(4)(3)})>);

fn main() {}

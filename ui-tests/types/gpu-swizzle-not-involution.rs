// A GPU swizzle that is not a swizzle (|S| < B): one error at this line,
// naming `Sw<3,3,2>` and the swizzle to use instead.
use tilelayout::assert_cute;
use tilelayout::gpu::{RowMajor, Swizzle, Swizzled};

assert_cute!(Swizzled<RowMajor<64, 64>, Swizzle<3, 3, 2>>);

fn main() {}

// A swizzle that permutes blocks larger than the layout it swizzles.
use tilelayout::assert_cute;
use tilelayout::gpu::{RowMajor, Swizzle, Swizzled};

assert_cute!(Swizzled<RowMajor<8, 32>, Swizzle<3, 3, 3>>);

fn main() {}

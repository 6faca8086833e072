// A GPU layout with no rows: one error at this line naming the type.
use tilelayout::assert_cute;
use tilelayout::gpu::RowMajor;

assert_cute!(RowMajor<0, 64>);

fn main() {}

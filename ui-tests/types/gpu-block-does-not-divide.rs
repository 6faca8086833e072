// A whole-shape block layout whose block does not divide the shape.
use tilelayout::assert_cute;
use tilelayout::gpu::{BlockedRowMajor, RowMajor};

assert_cute!(BlockedRowMajor<64, 60, RowMajor<8, 32>>);

fn main() {}

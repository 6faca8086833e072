// A swizzled shared tile whose row stride is not a power of two: its
// swizzle reads the row's bits at log2(RS).
use tilelayout::assert_cute;
use tilelayout::gpu::{Bytes128, SwizzledRowMajor};

assert_cute!(SwizzledRowMajor<f32, Bytes128, 8, 64, 96>);

fn main() {}

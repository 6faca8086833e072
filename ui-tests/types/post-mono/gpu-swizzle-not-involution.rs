// A GPU swizzle type that is not a swizzle (|S| < B): one error, the core's
// message naming `Sw<3,3,2>`, with a note at the line that uses it.
use tilelayout::gpu::{Layout2, RowMajor, Swizzle, Swizzled};

fn main() {
    let _ = Swizzled::<RowMajor<64, 64>, Swizzle<3, 3, 2>>::offset(1, 2);
}

// `coords::<N>` with N different from the rank: a post-monomorphization
// error, seen by `cargo build` but not by `cargo check`.
use tilelayout::{Layout, Dims, Tiled, F32, T};

type A = Tiled<F32, Dims<3, 5>, T<2, 2>>;

fn main() {
    let _ = A::coords::<1>(17);
}

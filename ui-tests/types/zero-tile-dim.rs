// A tile dim of 0, written by hand: caught at `cargo check` by `assert_layout!`.
use tilelayout::*;

assert_layout!(Tiled<F32, Dims<3, 5>, T<2, 0>>);

fn main() {}

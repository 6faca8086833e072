// An invalid hand-written type without `assert_layout!`: `cargo check`
// accepts it; `cargo build` fails where a constant of it is used.
use tilelayout::{Layout, Dims, Tiled, F32, T};

type Bad = Tiled<F32, Dims<3, 5>, T<0, 2>>;

fn main() {
    assert_eq!(Bad::SLOTS, 0);
}

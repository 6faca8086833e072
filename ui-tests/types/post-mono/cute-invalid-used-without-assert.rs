// An invalid operation type without `assert_cute!`: `cargo check` accepts
// it; `cargo build` fails where it is used.
use tilelayout::*;

type Bad = Upcast<cute!((_4,_3):(_3,_1)), 2>;

fn main() {
    let _ = Bad::offset([1, 2]);
}

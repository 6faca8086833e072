// After an error, `layout!` stands for a valid type: using it adds no
// second error (no "no associated item `SLOTS` for `()`").
use tilelayout::Layout;

type Bad = tilelayout::layout!(f32[3,5]{1,0:T(0,2)});
const SLOTS: usize = Bad::SLOTS;
type BadArray = tilelayout::layout_array!(f32[3,5]{1,0:T(2,2)E(6)});

fn main() {
    let _ = SLOTS;
    let a = BadArray::default();
    let _ = a.units().len();
}

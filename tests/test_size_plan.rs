//! Sizes of the relayout plan, pinned (as syn's `test_size`): a plan is
//! made in place without an allocator, so its size is what a caller's
//! stack (or a `static`) pays.

use tilelayout::storage::RelayoutPlan;

#[test]
#[cfg(target_pointer_width = "64")]
fn relayout_plan_size() {
    // the kept nest (1.4 KiB on 64-bit targets) and, for the element-wise
    // path, both sides (a tiling each)
    assert_eq!(std::mem::size_of::<RelayoutPlan>(), 16_648);
}

//! The sizes of the main types, pinned (as syn's `tests/test_size.rs`
//! does): a change of representation shows here, on purpose. Update a
//! number when you mean to change it, and say why in the commit.
//!
//! The values are fixed capacities (no allocator, usable in `const fn`):
//! a `Shape` holds up to 16 dims and 8 tiles of up to 16 dims; a `Tiling`
//! keeps per tile level only the dims it tiles. Views borrow their
//! [`CompiledShape`] and storage, so they are a few words; an owned
//! `TiledArray` owns its compiled shape.
#![cfg(target_pointer_width = "64")]

use std::mem::size_of;

use tilelayout::storage::{CompiledShape, RelayoutPlan, TiledArray, TiledView, TiledViewMut};
use tilelayout::value::{self, algebra};

#[test]
fn value_types() {
    assert_eq!(size_of::<value::Shape>(), 1832);
    assert_eq!(size_of::<value::XlaLayout>(), 1568);
    assert_eq!(size_of::<value::Tile>(), 136);
    assert_eq!(size_of::<value::Tiling>(), 2936);
    // internal: the index program a layout type unrolls
    assert_eq!(size_of::<value::__private::Program>(), 1032);
    assert_eq!(size_of::<algebra::CuteLayout>(), 1168);
}

#[test]
fn storage_types() {
    assert_eq!(size_of::<TiledView<'static, f32>>(), 32);
    assert_eq!(size_of::<TiledViewMut<'static, f32>>(), 32);
    assert_eq!(size_of::<CompiledShape>(), 4768);
    assert_eq!(size_of::<TiledArray<f32>>(), 4800);
    // the kept nest (1.4 KiB; what a typed copy's constant holds) and, for
    // the element-wise path, both sides (a tiling each)
    assert_eq!(size_of::<RelayoutPlan>(), 7432);
}

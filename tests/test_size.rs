//! The sizes of the main types, pinned (as syn's `tests/test_size.rs`
//! does): a change in representation shows up here, on purpose.
//!
//! 64-bit targets only; the numbers are bytes.
#![cfg(target_pointer_width = "64")]

use std::mem::size_of;

use tilelayout::storage::{RelayoutPlan, TiledArray, TiledView, TiledViewMut};
use tilelayout::value;

#[test]
fn sizes() {
    let got = [
        ("value::Shape", size_of::<value::Shape>()),
        ("value::Layout", size_of::<value::Layout>()),
        ("value::Tile", size_of::<value::Tile>()),
        ("value::Tiling", size_of::<value::Tiling>()),
        ("value::Program", size_of::<value::Program>()),
        ("algebra::Layout", size_of::<value::algebra::Layout>()),
        ("TiledView", size_of::<TiledView<'static, f32>>()),
        ("TiledViewMut", size_of::<TiledViewMut<'static, f32>>()),
        ("TiledArray", size_of::<TiledArray<f32>>()),
        ("RelayoutPlan", size_of::<RelayoutPlan>()),
    ];
    for (n, s) in got { println!("{n} {s}"); }
}

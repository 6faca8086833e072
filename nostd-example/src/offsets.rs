//! Index functions with C names, typed and hand-written side by side.
//!
//! Each takes the coordinates as separate arguments (registers on x86-64 and
//! on thumb) so that the assembly holds the index arithmetic only.
//! `.ci/check-asm` requires every `tilelayout_offset_*` function to be
//! straight-line code, and prints its instruction count next to the
//! `hand_offset_*` one. This file is also compiled into
//! `examples/index_asm.rs` (x86-64).

use tilelayout::{cute, layout, AlgebraLayout, ByMode, Layout, ZippedDivide, C};

/// `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`: the design card's TPU
/// layout.
pub type Bf16Tpu = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)});

/// `f32[3,5]{1,0:T(2,2)}`: Figure 1, five columns in 2×2 tiles.
pub type Figure1Layout = layout!(f32[3,5]{1,0:T(2,2)});

/// The slot of `(i0, i1, i2, i3)` under [`Bf16Tpu`].
#[no_mangle]
#[inline(never)]
pub extern "C" fn tilelayout_offset_bf16(i0: usize, i1: usize, i2: usize, i3: usize) -> usize {
    Bf16Tpu::offset([i0, i1, i2, i3])
}

/// [`tilelayout_offset_bf16`] written by hand.
#[no_mangle]
#[inline(never)]
pub extern "C" fn hand_offset_bf16(i0: usize, i1: usize, i2: usize, i3: usize) -> usize {
    // minor_to_major {3,2,0,1}: physical dims (i1, i0, i2, i3) = (1, 8,
    // 1280, 16384). T(8,128) tiles the last two: 160 × 128 tiles of 8×128
    // per (i1, i0); then (2,1) pairs rows inside a tile, so the 2 rows of a
    // pair are adjacent (a 32-bit word holds rows r and r+1 of one column).
    let tile = ((i1 * 8 + i0) * (1280 / 8) + i2 / 8) * (16384 / 128) + i3 / 128;
    let (r, c) = (i2 % 8, i3 % 128);
    tile * (8 * 128) + (r / 2) * (2 * 128) + c * 2 + r % 2
}

/// The slot of `(row, col)` under [`Figure1Layout`].
#[no_mangle]
#[inline(never)]
pub extern "C" fn tilelayout_offset_f32(row: usize, col: usize) -> usize {
    Figure1Layout::offset([row, col])
}

/// [`tilelayout_offset_f32`] written by hand.
#[no_mangle]
#[inline(never)]
pub extern "C" fn hand_offset_f32(row: usize, col: usize) -> usize {
    // 5 columns make 3 tiles per tile row; a tile holds 2×2 slots.
    let tile = (row / 2) * 3 + col / 2;
    tile * 4 + (row % 2) * 2 + col % 2
}

/// CuTe's `zipped_divide` of a row-major 64×128 tile by 8×32 sub-tiles, as
/// a type: `((_8,_32),(_8,_4)):((_128,_1),(_1024,_32))`, mode 0 the
/// element within a sub-tile, mode 1 the sub-tile.
pub type CuteZipped = ZippedDivide<cute!((_64,_128):(_128,_1)), ByMode<(C<8>, C<32>)>>;

/// The offset of element `t` of sub-tile `r` under [`CuteZipped`].
#[no_mangle]
#[inline(never)]
pub extern "C" fn tilelayout_offset_cute(t: usize, r: usize) -> isize {
    CuteZipped::offset([t, r])
}

/// [`tilelayout_offset_cute`] written by hand.
#[no_mangle]
#[inline(never)]
pub extern "C" fn hand_offset_cute(t: usize, r: usize) -> isize {
    // element (t % 8, t / 8) of sub-tile (r % 8, r / 8), rows 128 apart
    ((t % 8) * 128 + t / 8 + (r % 8) * 1024 + (r / 8) * 32) as isize
}

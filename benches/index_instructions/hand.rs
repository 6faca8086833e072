//! The layouts of `benches/index_instructions.rs` and the index arithmetic a
//! person would write for each. Also compiled by `tests/types_agree.rs`,
//! which checks every function here against `L::offset` on many points.

use tilelayout::layout;

/// `f32[3,5]{1,0:T(2,2)}` (the seed's Figure 1).
pub type Fig1 = layout!(f32[3,5]{1,0:T(2,2)});
/// `f32[1024,1024]{1,0:T(8,128)}`.
pub type Square = layout!(f32[1024,1024]{1,0:T(8,128)});
/// `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`: a permuted order, a size-1
/// dim and bf16 row pairs.
pub type Bf16 = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)});
/// `f32[16,24,40,136]{1,3,2,0:T(4,8)(2,4)}`: a permuted order and two tile
/// levels that both split.
pub type Permuted = layout!(f32[16,24,40,136]{1,3,2,0:T(4,8)(2,4)});

/// `f32[3,5]{1,0:T(2,2)}`: padded to 4×6, a 2×3 grid of 2×2 tiles.
#[inline(always)]
pub fn fig1([i, j]: [usize; 2]) -> usize {
    ((i / 2) * 3 + j / 2) * 4 + (i % 2) * 2 + j % 2
}

/// `f32[1024,1024]{1,0:T(8,128)}`: a 128×8 grid of 8×128 tiles.
#[inline(always)]
pub fn square([i, j]: [usize; 2]) -> usize {
    ((i / 8) * 8 + j / 128) * 1024 + (i % 8) * 128 + j % 128
}

/// `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`: physical order `[1,0,2,3]`
/// = `[1,8,1280,16384]`; 8×128 tiles on the last two (an 8×160×128 grid of
/// 1024-slot tiles), and inside a tile (2,1) puts rows 2r and 2r+1 side by
/// side.
#[inline(always)]
pub fn bf16([a, _, c, d]: [usize; 4]) -> usize {
    ((a * 160 + c / 8) * 128 + d / 128) * 1024 + (c % 8 / 2) * 256 + (d % 128) * 2 + c % 2
}

/// `f32[16,24,40,136]{1,3,2,0:T(4,8)(2,4)}`: physical order `[0,2,3,1]` =
/// `[16,40,136,24]`; 4×8 tiles on the last two (a 16×40×34×3 grid of
/// 32-slot tiles), each a 2×2 grid of 2×4 tiles. Written as a sum of
/// coordinate × stride.
#[inline(always)]
pub fn permuted([i, j, k, l]: [usize; 4]) -> usize {
    let (u, v) = (l % 4, j % 8);
    i * 130560
        + k * 3264
        + (l / 4) * 96
        + (j / 8) * 32
        + (u / 2) * 16
        + (v / 4) * 8
        + (u % 2) * 4
        + v % 4
}

/// [`permuted`] written in Horner form, tile grid first.
#[inline(always)]
pub fn permuted_horner([i, j, k, l]: [usize; 4]) -> usize {
    let (u, v) = (l % 4, j % 8);
    (((i * 40 + k) * 34 + l / 4) * 3 + j / 8) * 32
        + (u / 2) * 16
        + (v / 4) * 8
        + (u % 2) * 4
        + v % 4
}

//! How the warps of a warp layout split a tile: the one walk that copy
//! plans, `ldmatrix` plans and store plans share.
//!
//! Warp `(wr, wc)` of a warp layout `W` owns the region `(wr, wc)` of the
//! tile cut `W::ROWS × W::COLS` ways; a reuse mode that does not split an
//! axis gives every warp the whole axis (TileFusion's `warp.hpp`).

use super::matrix::Layout2;

/// Rows (columns) of a warp's region: `total / warps` when the axis is
/// split, `total` when the warps share it.
#[must_use]
pub(crate) const fn region_extent(total: usize, warps: usize, split: bool) -> usize {
    if split {
        total / warps
    } else {
        total
    }
}

/// The first row and column of warp `(wr, wc)`'s region of `extent`,
/// each axis split or shared as `split` says.
#[inline(always)]
#[must_use]
pub(crate) const fn region_origin(
    (wr, wc): (usize, usize),
    (rows, cols): (usize, usize),
    (split_rows, split_cols): (bool, bool),
) -> (usize, usize) {
    (
        if split_rows { wr * rows } else { 0 },
        if split_cols { wc * cols } else { 0 },
    )
}

/// Most warps a plan's compile-time walk covers.
pub(crate) const MAX_WARPS: usize = 64;

/// The origin of every warp's region, warp `(wr, wc)` at `wr·cols + wc`
/// of a `rows × cols` warp grid (at most [`MAX_WARPS`]; the plans check).
pub(crate) const fn origins(
    (rows, cols): (usize, usize),
    extent: (usize, usize),
    split: (bool, bool),
) -> [(usize, usize); MAX_WARPS] {
    let mut o = [(0, 0); MAX_WARPS];
    let mut w = 0;
    while w < rows * cols && w < MAX_WARPS {
        o[w] = region_origin((w / cols, w % cols), extent, split);
        w += 1;
    }
    o
}

/// The coordinates of `warp` in the warp layout `W`, or `None` if `W`
/// numbers no warp so.
#[must_use]
pub(crate) fn warp_coords<W: Layout2>(warp: usize) -> Option<(usize, usize)> {
    for wr in 0..W::ROWS {
        for wc in 0..W::COLS {
            if W::offset(wr, wc) == warp {
                return Some((wr, wc));
            }
        }
    }
    None
}

//! Block (tiled) matrix layouts: an outer layout over blocks, an inner layout
//! inside each block, every block contiguous.
//!
//! TileFusion composes a matrix layout with another one once; here a block
//! layout is itself a [`Layout2`], so it can be the inner (or outer) layout
//! of another block layout, to any depth. As a layout of the algebra it is
//! CuTe's `blocked_product(Inner, Outer)`: `((r, R/r), (c, C/c))`, the
//! block's modes first.

// reason: the results are computed at compile time only, in const fns,
// which cannot box their errors
#![allow(clippy::result_large_err)]

use core::marker::PhantomData;

use super::matrix::{Layout2, Shape2};
use super::result::{blocked_result, strided_result};
use super::sealed::Sealed;
use crate::algebra::AnyLayout;
use crate::types::cute_result::CuteType;
use crate::types::verdict::Verdict;
use crate::value::TextBuf;

/// `Outer` over blocks, `Inner` inside each block; blocks are contiguous:
/// CuTe's `blocked_product(Inner, Outer)` ([`Layout2::LAYOUT`]).
///
/// `Outer` is the layout of the *grid of blocks* (its offsets count blocks),
/// `Inner` the layout of one block. Block `b` occupies
/// `[b·Inner::COSIZE, (b+1)·Inner::COSIZE)`, so
///
/// ```text
/// offset(i, j) = Outer(i / r, j / c) · Inner::COSIZE + Inner(i % r, j % c)
///     where r × c = Inner::ROWS × Inner::COLS
/// ROWS = Outer::ROWS · r,   COLS = Outer::COLS · c
/// ```
///
/// The shape is a product, so nothing has to divide; see
/// [`BlockedRowMajor`] for the form that starts from the whole shape.
///
/// # Examples
///
/// A 4×4 grid of 2×2 column-major blocks, blocks in row-major order; and the
/// same nested one level deeper:
///
/// ```
/// use tilelayout::gpu::{Blocked, ColMajor, Layout2, RowMajor, Shape2};
/// type L = Blocked<RowMajor<4, 4>, ColMajor<2, 2>>;
/// assert_eq!((L::ROWS, L::COLS, L::COSIZE), (8, 8, 64));
/// assert_eq!(L::offset(3, 5), (1 * 4 + 2) * 4 + (1 + 1 * 2));
/// assert_eq!(L::LAYOUT.layout.to_string(), "((_2,_4),(_2,_4)):((_1,_16),(_2,_4))");
///
/// type Deep = Blocked<ColMajor<2, 2>, Blocked<RowMajor<4, 4>, ColMajor<2, 2>>>;
/// assert_eq!((Deep::ROWS, Deep::COLS), (16, 16));
/// assert_eq!(Deep::offset(8 + 3, 5), 1 * 64 + L::offset(3, 5));
/// ```
///
/// # Compile-time errors
///
/// An empty inner block is rejected (the algebra's shapes are positive):
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{Blocked, Layout2, RowMajor};
/// let _ = Blocked::<RowMajor<2, 2>, RowMajor<0, 4>>::offset(0, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Blocked<Outer, Inner>(PhantomData<(Outer, Inner)>);

impl<O, I> Sealed for Blocked<O, I> {}

impl<O: Layout2, I: Layout2> Shape2 for Blocked<O, I> {
    const ROWS: usize = O::ROWS * I::ROWS;
    const COLS: usize = O::COLS * I::COLS;
}

impl<O: Layout2, I: Layout2> CuteType for Blocked<O, I> {
    const RESULT: Result<AnyLayout, Verdict> =
        blocked_result(&O::RESULT, &I::RESULT, "Blocked<Outer, Inner>");
}

impl<O: Layout2, I: Layout2> Layout2 for Blocked<O, I> {}

// ---------------------------------------------------------------------------
// The whole-shape forms
// ---------------------------------------------------------------------------

/// The `R × C` matrix cut into blocks laid out as `Inner`, blocks in
/// row-major order: `Blocked<RowMajor<R / Inner::ROWS, C / Inner::COLS>, Inner>`.
///
/// This is how TileFusion writes a tiled shared-memory layout: the whole
/// shape plus the block. The grid shape is computed from `R`, `C` and the
/// block (a type cannot spell `R / Inner::ROWS` on stable Rust), and the
/// division must be exact.
///
/// # Examples
///
/// TileFusion's 64×64 float shared tile of 8×32 blocks:
///
/// ```
/// use tilelayout::gpu::{BlockedRowMajor, Layout2, RowMajor};
/// type L = BlockedRowMajor<64, 64, RowMajor<8, 32>>;
/// // block (1, 1) is the 4th block (index 3), then row 1, column 1 inside
/// assert_eq!(L::offset(9, 33), 3 * 256 + 33);
/// assert_eq!(L::COSIZE, 4096);
/// // nests: 64×64 of 16×16 blocks, each of 4×4 blocks
/// type N = BlockedRowMajor<64, 64, BlockedRowMajor<16, 16, RowMajor<4, 4>>>;
/// // block (1, 0) is block 4; inside it, sub-block (0, 1), then (1, 1)
/// assert_eq!(N::offset(17, 5), 4 * 256 + 1 * 16 + 1 * 4 + 1);
/// ```
///
/// # Compile-time errors
///
/// The block must divide the shape:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{BlockedRowMajor, Layout2, RowMajor};
/// // 8 rows per block do not divide 60 rows
/// let _ = BlockedRowMajor::<60, 64, RowMajor<8, 32>>::offset(0, 0);
/// ```
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{BlockedRowMajor, Layout2, RowMajor};
/// // 32 columns per block do not divide 48 columns
/// let _ = BlockedRowMajor::<64, 48, RowMajor<8, 32>>::COSIZE;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BlockedRowMajor<const R: usize, const C: usize, Inner>(PhantomData<Inner>);

/// The `R × C` matrix cut into blocks laid out as `Inner`, blocks in
/// column-major order: `Blocked<ColMajor<R / Inner::ROWS, C / Inner::COLS>, Inner>`.
///
/// The twin of [`BlockedRowMajor`]; the block must divide the shape.
///
/// ```
/// use tilelayout::gpu::{BlockedColMajor, ColMajor, Layout2};
/// type L = BlockedColMajor<64, 64, ColMajor<32, 8>>;
/// // block (1, 1) of a 2×8 grid in column-major order is block 3
/// assert_eq!(L::offset(33, 9), 3 * 256 + 1 + 1 * 32);
/// ```
///
/// # Compile-time errors
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{BlockedColMajor, ColMajor, Layout2};
/// let _ = BlockedColMajor::<64, 60, ColMajor<32, 8>>::offset(0, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BlockedColMajor<const R: usize, const C: usize, Inner>(PhantomData<Inner>);

/// Grid shape of an `R × C` matrix of `Inner` blocks, checked.
const fn grid<I: Layout2>(r: usize, c: usize, ty: &str) -> Result<(usize, usize), Verdict> {
    let (rows, cols) = (I::ROWS, I::COLS);
    let problem = if rows == 0 || cols == 0 {
        "needs a non-empty block (Inner::ROWS > 0 and Inner::COLS > 0)"
    } else if !r.is_multiple_of(rows) {
        "needs the block's rows to divide R: change R or the block"
    } else if !c.is_multiple_of(cols) {
        "needs the block's columns to divide C: change C or the block"
    } else {
        return Ok((r / rows, c / cols));
    };
    let mut t = TextBuf::<160>::new();
    t.push_str(ty);
    t.push_str("<");
    t.push_u64(r as u64);
    t.push_str(", ");
    t.push_u64(c as u64);
    t.push_str(", Inner>: ");
    t.push_str(problem);
    t.push_str(" (the block is ");
    t.push_u64(rows as u64);
    t.push_str(" × ");
    t.push_u64(cols as u64);
    t.push_str(")");
    Err(Verdict::fail(&[t.as_str()]))
}

/// The grid of a whole-shape block layout, or a compile error with its
/// verdict's message.
#[track_caller] // reason: the error points at the constant, not at this helper
const fn grid_or_stop(g: Result<(usize, usize), Verdict>) -> (usize, usize) {
    match g {
        Ok(g) => g,
        Err(v) => {
            v.check();
            (0, 0)
        }
    }
}

/// A whole-shape block layout's result: the grid of blocks (row-major
/// unless `col_major`) blocked with `I`.
const fn whole_shape<I: Layout2>(
    g: Result<(usize, usize), Verdict>,
    col_major: bool,
    what: &str,
) -> Result<AnyLayout, Verdict> {
    let (gr, gc) = match g {
        Ok(g) => g,
        Err(v) => return Err(v),
    };
    let (rs, cs) = if col_major { (1, gr) } else { (gc, 1) };
    blocked_result(&strided_result(gr, gc, rs, cs, what), &I::RESULT, what)
}

impl<const R: usize, const C: usize, I: Layout2> BlockedRowMajor<R, C, I> {
    /// Number of block rows, `R / Inner::ROWS`.
    pub const GRID_ROWS: usize = grid_or_stop(grid::<I>(R, C, "BlockedRowMajor")).0;
    /// Number of block columns, `C / Inner::COLS`.
    pub const GRID_COLS: usize = grid_or_stop(grid::<I>(R, C, "BlockedRowMajor")).1;
}

impl<const R: usize, const C: usize, I: Layout2> BlockedColMajor<R, C, I> {
    /// Number of block rows, `R / Inner::ROWS`.
    pub const GRID_ROWS: usize = grid_or_stop(grid::<I>(R, C, "BlockedColMajor")).0;
    /// Number of block columns, `C / Inner::COLS`.
    pub const GRID_COLS: usize = grid_or_stop(grid::<I>(R, C, "BlockedColMajor")).1;
}

impl<const R: usize, const C: usize, I> Sealed for BlockedRowMajor<R, C, I> {}
impl<const R: usize, const C: usize, I> Sealed for BlockedColMajor<R, C, I> {}

impl<const R: usize, const C: usize, I: Layout2> Shape2 for BlockedRowMajor<R, C, I> {
    const ROWS: usize = R;
    const COLS: usize = C;
}

impl<const R: usize, const C: usize, I: Layout2> Shape2 for BlockedColMajor<R, C, I> {
    const ROWS: usize = R;
    const COLS: usize = C;
}

impl<const R: usize, const C: usize, I: Layout2> CuteType for BlockedRowMajor<R, C, I> {
    const RESULT: Result<AnyLayout, Verdict> = whole_shape::<I>(
        grid::<I>(R, C, "BlockedRowMajor"),
        false,
        "BlockedRowMajor<R, C, Inner>",
    );
}

impl<const R: usize, const C: usize, I: Layout2> CuteType for BlockedColMajor<R, C, I> {
    const RESULT: Result<AnyLayout, Verdict> = whole_shape::<I>(
        grid::<I>(R, C, "BlockedColMajor"),
        true,
        "BlockedColMajor<R, C, Inner>",
    );
}

impl<const R: usize, const C: usize, I: Layout2> Layout2 for BlockedRowMajor<R, C, I> {}

impl<const R: usize, const C: usize, I: Layout2> Layout2 for BlockedColMajor<R, C, I> {}

#[cfg(test)]
mod tests {
    use super::super::matrix::{const_offset, ColMajor, RowMajor};
    use super::*;
    use crate::algebra::{blocked_product, CuteLayout};

    const _: () = {
        type L = BlockedRowMajor<64, 64, RowMajor<8, 32>>;
        assert!(const_offset::<L>(9, 33) == 3 * 256 + 33);
        assert!(L::GRID_ROWS == 8 && L::GRID_COLS == 2);
        type D = Blocked<ColMajor<2, 2>, Blocked<RowMajor<4, 4>, ColMajor<2, 2>>>;
        assert!(const_offset::<D>(11, 5) == 64 + (4 + 2) * 4 + 3);
    };

    #[test]
    fn compact_blocks_are_cute_blocked_products() {
        // CuTe's 02_layout_algebra.md example: a 2x5 row-major block over a
        // 3x4 column-major arrangement
        type L = Blocked<ColMajor<3, 4>, RowMajor<2, 5>>;
        let inner = CuteLayout::parse("(_2,_5):(_5,_1)").unwrap();
        let outer = CuteLayout::parse("(_3,_4):(_1,_3)").unwrap();
        assert_eq!(L::LAYOUT.layout, blocked_product(&inner, &outer).unwrap());
        assert_eq!(
            L::LAYOUT.layout.to_text().as_str(),
            "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))"
        );
    }

    #[test]
    fn blocked_equals_blocked_row_major() {
        type A = BlockedRowMajor<16, 24, ColMajor<4, 8>>;
        type B = Blocked<RowMajor<4, 3>, ColMajor<4, 8>>;
        for i in 0..16 {
            for j in 0..24 {
                assert_eq!(A::offset(i, j), B::offset(i, j));
            }
        }
    }
}

//! Block (tiled) matrix layouts: an outer layout over blocks, an inner layout
//! inside each block, every block contiguous.
//!
//! TileFusion composes a matrix layout with another one once; here a block
//! layout is itself a [`Layout2`], so it can be the inner (or outer) layout
//! of another block layout, to any depth. The nesting is recursion through
//! types, so the offset function is still straight-line code.

use core::marker::PhantomData;

use super::matrix::{gcd, Layout2, LayoutExpr, Shape2};
use super::sealed::Sealed;

/// `Outer` over blocks, `Inner` inside each block; blocks are contiguous.
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
///
/// type Deep = Blocked<ColMajor<2, 2>, Blocked<RowMajor<4, 4>, ColMajor<2, 2>>>;
/// assert_eq!((Deep::ROWS, Deep::COLS), (16, 16));
/// assert_eq!(Deep::offset(8 + 3, 5), 1 * 64 + L::offset(3, 5));
/// ```
///
/// # Compile-time errors
///
/// An empty inner block is rejected (there would be nothing to divide by):
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{Blocked, Layout2, RowMajor};
/// let _ = Blocked::<RowMajor<2, 2>, RowMajor<0, 4>>::offset(0, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Blocked<Outer, Inner>(PhantomData<(Outer, Inner)>);

impl<O: Layout2, I: Layout2> Blocked<O, I> {
    const CHECK: () = assert!(
        I::ROWS > 0 && I::COLS > 0,
        "Blocked<Outer, Inner> requires a non-empty Inner layout (Inner::ROWS > 0 and Inner::COLS > 0)"
    );
}

impl<O, I> Sealed for Blocked<O, I> {}

impl<O: Layout2, I: Layout2> Shape2 for Blocked<O, I> {
    const ROWS: usize = O::ROWS * I::ROWS;
    const COLS: usize = O::COLS * I::COLS;
}

impl<O: Layout2, I: Layout2> Layout2 for Blocked<O, I> {
    const COSIZE: usize = O::COSIZE * I::COSIZE;
    // Runs stay inside one block row; a run starts at
    // outer·Inner::COSIZE + inner_start, aligned when n | Inner::COSIZE.
    const ROW_RUN: usize = gcd(I::ROW_RUN, I::COSIZE);
    const COL_RUN: usize = gcd(I::COL_RUN, I::COSIZE);
    const EXPR: LayoutExpr = LayoutExpr::Blocked {
        outer: &O::EXPR,
        inner: &I::EXPR,
    };

    #[inline(always)]
    fn offset(i: usize, j: usize) -> usize {
        let () = Self::CHECK;
        O::offset(i / I::ROWS, j / I::COLS) * I::COSIZE + I::offset(i % I::ROWS, j % I::COLS)
    }
}

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
const fn grid<I: Layout2>(r: usize, c: usize) -> (usize, usize) {
    assert!(
        I::ROWS > 0 && I::COLS > 0,
        "a block layout requires a non-empty Inner layout (Inner::ROWS > 0 and Inner::COLS > 0)"
    );
    assert!(
        r.is_multiple_of(I::ROWS),
        "BlockedRowMajor/BlockedColMajor<R, C, Inner> requires Inner::ROWS to divide R: change R or the block"
    );
    assert!(
        c.is_multiple_of(I::COLS),
        "BlockedRowMajor/BlockedColMajor<R, C, Inner> requires Inner::COLS to divide C: change C or the block"
    );
    (r / I::ROWS, c / I::COLS)
}

impl<const R: usize, const C: usize, I: Layout2> BlockedRowMajor<R, C, I> {
    /// Number of block rows, `R / Inner::ROWS`.
    pub const GRID_ROWS: usize = grid::<I>(R, C).0;
    /// Number of block columns, `C / Inner::COLS`.
    pub const GRID_COLS: usize = grid::<I>(R, C).1;
}

impl<const R: usize, const C: usize, I: Layout2> BlockedColMajor<R, C, I> {
    /// Number of block rows, `R / Inner::ROWS`.
    pub const GRID_ROWS: usize = grid::<I>(R, C).0;
    /// Number of block columns, `C / Inner::COLS`.
    pub const GRID_COLS: usize = grid::<I>(R, C).1;
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

impl<const R: usize, const C: usize, I: Layout2> Layout2 for BlockedRowMajor<R, C, I> {
    const COSIZE: usize = Self::GRID_ROWS * Self::GRID_COLS * I::COSIZE;
    const ROW_RUN: usize = gcd(I::ROW_RUN, I::COSIZE);
    const COL_RUN: usize = gcd(I::COL_RUN, I::COSIZE);
    const EXPR: LayoutExpr = LayoutExpr::Blocked {
        outer: &LayoutExpr::Strided {
            rows: Self::GRID_ROWS,
            cols: Self::GRID_COLS,
            row_stride: Self::GRID_COLS,
            col_stride: 1,
        },
        inner: &I::EXPR,
    };

    #[inline(always)]
    fn offset(i: usize, j: usize) -> usize {
        debug_assert!(i < R && j < C, "BlockedRowMajor: (i, j) out of range");
        ((i / I::ROWS) * Self::GRID_COLS + j / I::COLS) * I::COSIZE
            + I::offset(i % I::ROWS, j % I::COLS)
    }
}

impl<const R: usize, const C: usize, I: Layout2> Layout2 for BlockedColMajor<R, C, I> {
    const COSIZE: usize = Self::GRID_ROWS * Self::GRID_COLS * I::COSIZE;
    const ROW_RUN: usize = gcd(I::ROW_RUN, I::COSIZE);
    const COL_RUN: usize = gcd(I::COL_RUN, I::COSIZE);
    const EXPR: LayoutExpr = LayoutExpr::Blocked {
        outer: &LayoutExpr::Strided {
            rows: Self::GRID_ROWS,
            cols: Self::GRID_COLS,
            row_stride: 1,
            col_stride: Self::GRID_ROWS,
        },
        inner: &I::EXPR,
    };

    #[inline(always)]
    fn offset(i: usize, j: usize) -> usize {
        debug_assert!(i < R && j < C, "BlockedColMajor: (i, j) out of range");
        (i / I::ROWS + (j / I::COLS) * Self::GRID_ROWS) * I::COSIZE
            + I::offset(i % I::ROWS, j % I::COLS)
    }
}

#[cfg(test)]
mod tests {
    use super::super::matrix::{const_offset, ColMajor, RowMajor};
    use super::*;

    const _: () = {
        type L = BlockedRowMajor<64, 64, RowMajor<8, 32>>;
        assert!(const_offset::<L>(9, 33) == 3 * 256 + 33);
        assert!(L::GRID_ROWS == 8 && L::GRID_COLS == 2);
        type D = Blocked<ColMajor<2, 2>, Blocked<RowMajor<4, 4>, ColMajor<2, 2>>>;
        assert!(const_offset::<D>(11, 5) == 64 + (4 + 2) * 4 + 3);
    };

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

//! Matrix layouts: `(i, j) → i·RS + j·CS`.
//!
//! This file defines the two traits every GPU layout implements ([`Shape2`]
//! and [`Layout2`]), the value-level twin of a layout ([`LayoutExpr`], used by
//! [`const_offset`]), and the strided layouts themselves: [`MatrixLayout`],
//! [`RowMajor`] and [`ColMajor`] (TileFusion's `MatrixLayout`, CuTe's
//! `(R,C):(RS,CS)`).

use core::marker::PhantomData;

use super::reg_tile::base_tile_offset;
use super::sealed::Sealed;
use super::swizzle::{source_mask, swizzle};

// ---------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------

/// A 2-D shape known at compile time: `ROWS × COLS`.
///
/// Every layout is a shape; [`TileShape`] is a shape without a layout (the
/// sub-tile shape of a [`TileIterator`](super::TileIterator)).
///
/// ```
/// use tilelayout::gpu::{RowMajor, Shape2, TileShape};
/// assert_eq!(<TileShape<16, 32> as Shape2>::SIZE, 512);
/// assert_eq!(<RowMajor<3, 5> as Shape2>::COLS, 5);
/// ```
pub trait Shape2 {
    /// Number of rows.
    const ROWS: usize;
    /// Number of columns.
    const COLS: usize;
    /// Number of elements, `ROWS · COLS`.
    const SIZE: usize = Self::ROWS * Self::COLS;
}

/// A bare `R × C` shape, TileFusion's `TileShape<kRows, kCols>`.
///
/// ```
/// use tilelayout::gpu::{Shape2, TileShape};
/// assert_eq!((TileShape::<64, 32>::ROWS, TileShape::<64, 32>::COLS), (64, 32));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TileShape<const R: usize, const C: usize>;

impl<const R: usize, const C: usize> Shape2 for TileShape<R, C> {
    const ROWS: usize = R;
    const COLS: usize = C;
}

// ---------------------------------------------------------------------------
// The layout trait
// ---------------------------------------------------------------------------

/// A 2-D layout: a function from coordinates `(i, j)`, `i < ROWS`,
/// `j < COLS`, to an offset `< COSIZE`.
///
/// Everything is a type: the offset function takes no `self`, its parameters
/// are const generics or associated consts of the layout, and it is
/// `#[inline(always)]`, so with constant `(i, j)` it folds to a constant and
/// in a loop it becomes the arithmetic one would write by hand.
///
/// The trait is sealed: the implementations are [`MatrixLayout`],
/// [`Blocked`](super::Blocked), [`BlockedRowMajor`](super::BlockedRowMajor),
/// [`BlockedColMajor`](super::BlockedColMajor),
/// [`Swizzled`](super::Swizzled) and the register base tiles; each one
/// describes itself as a [`LayoutExpr`] (its value-level twin), which is what
/// makes [`const_offset`] possible, so a layout outside this set could not
/// keep that promise.
///
/// # Invariants
///
/// For `i < ROWS` and `j < COLS`:
/// 1. `offset(i, j) < COSIZE`;
/// 2. `offset(i, j) == EXPR.offset(i, j)` (and so `== const_offset::<Self>(i, j)`);
/// 3. for `n = ROW_RUN` (which divides `COLS`) and `j % n == 0`:
///    `offset(i, j + t) == offset(i, j) + t` for `t < n`, and
///    `offset(i, j) % n == 0` — aligned runs of `n` elements of a row are
///    contiguous and aligned in memory (what a vectorised copy needs);
/// 4. the same for columns with `COL_RUN`.
///
/// The integration tests check these for every layout they instantiate.
///
/// # Examples
///
/// ```
/// use tilelayout::gpu::{ColMajor, Layout2, RowMajor};
/// assert_eq!(RowMajor::<64, 64>::offset(2, 3), 2 * 64 + 3);
/// assert_eq!(ColMajor::<64, 64>::offset(2, 3), 2 + 3 * 64);
/// assert_eq!(RowMajor::<3, 5>::COSIZE, 15);
/// ```
pub trait Layout2: Shape2 + Sealed {
    /// The span of offsets: every offset is `< COSIZE` (CuTe's `cosize`).
    ///
    /// For strided and blocked layouts this is exactly the largest offset
    /// plus one (0 for an empty layout); a swizzle keeps the `COSIZE` of the
    /// layout it is applied to, since it permutes `[0, COSIZE)`.
    const COSIZE: usize;
    /// Aligned runs of this many elements along a row are contiguous and
    /// aligned in memory (invariant 3); 1 when nothing better is known.
    const ROW_RUN: usize;
    /// Aligned runs of this many elements along a column are contiguous and
    /// aligned in memory (invariant 4); 1 when nothing better is known.
    const COL_RUN: usize;
    /// The layout as a value, for const evaluation ([`const_offset`]).
    const EXPR: LayoutExpr;
    /// Returns the offset of element `(i, j)`.
    ///
    /// `i < ROWS` and `j < COLS` is a precondition (checked with
    /// `debug_assert!`); outside it the result is unspecified but never UB.
    fn offset(i: usize, j: usize) -> usize;
}

/// Returns `L`'s offset of `(i, j)` in a `const` context.
///
/// This is the `const fn` form of [`Layout2::offset`] (trait methods cannot be
/// `const` on stable Rust): it evaluates the layout's [`LayoutExpr`]. Both
/// agree on every coordinate (tested).
///
/// ```
/// use tilelayout::gpu::{const_offset, BlockedRowMajor, RowMajor};
/// // element (9, 33) of a 64×64 matrix of 8×32 row-major blocks:
/// // block (1, 1) is block 3 → 3·256, then 1·32 + 1 inside it.
/// const X: usize = const_offset::<BlockedRowMajor<64, 64, RowMajor<8, 32>>>(9, 33);
/// assert_eq!(X, 3 * 256 + 33);
/// ```
#[must_use]
pub const fn const_offset<L: Layout2>(i: usize, j: usize) -> usize {
    L::EXPR.offset(i, j)
}

// ---------------------------------------------------------------------------
// The value-level twin
// ---------------------------------------------------------------------------

/// A layout as a value: the expression tree a layout type stands for.
///
/// Each [`Layout2`] has one as [`Layout2::EXPR`]; nesting in types becomes
/// nesting through `&'static` references here. It is evaluated by `const fn`s
/// ([`offset`](Self::offset), [`cosize`](Self::cosize), …) so layouts can be
/// used in `const` items, and it is printable (`Debug`) for diagnostics.
///
/// There are no invariants beyond those of the layout types that build it;
/// a hand-built value is evaluated as written.
///
/// ```
/// use tilelayout::gpu::{Layout2, LayoutExpr, RowMajor};
/// assert_eq!(
///     RowMajor::<3, 5>::EXPR,
///     LayoutExpr::Strided { rows: 3, cols: 5, row_stride: 5, col_stride: 1 }
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LayoutExpr {
    /// `(i, j) → i·row_stride + j·col_stride` ([`MatrixLayout`]).
    Strided {
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        cols: usize,
        /// Distance between consecutive rows.
        row_stride: usize,
        /// Distance between consecutive columns.
        col_stride: usize,
    },
    /// `outer(i / r, j / c) · cosize(inner) + inner(i % r, j % c)` where
    /// `r × c` is the inner shape ([`Blocked`](super::Blocked)).
    Blocked {
        /// Layout of the grid of blocks.
        outer: &'static LayoutExpr,
        /// Layout inside one block.
        inner: &'static LayoutExpr,
    },
    /// `Swizzle<bits, base, shift>` applied to `layout`'s offsets
    /// ([`Swizzled`](super::Swizzled)).
    Swizzled {
        /// The layout whose offsets are swizzled.
        layout: &'static LayoutExpr,
        /// `B`: number of bits XORed.
        bits: u32,
        /// `M`: number of low bits kept.
        base: u32,
        /// `S`: distance between the source and the target bits (negative:
        /// the source bits are below the targets).
        shift: i32,
    },
    /// A strided `layout` whose contiguous coordinate is swizzled by the
    /// other one: row-major `(i, j) → layout(i, j ^ ((i mod 2^bits) << base))`,
    /// column-major (`col_major`) `(i, j) → layout(i ^ ((j mod 2^bits) << base), j)`
    /// ([`SwizzledRowMajor`](super::SwizzledRowMajor),
    /// [`SwizzledColMajor`](super::SwizzledColMajor)).
    CoordSwizzled {
        /// The strided layout.
        layout: &'static LayoutExpr,
        /// `B`: number of bits XORed.
        bits: u32,
        /// `M`: number of low bits kept.
        base: u32,
        /// `true` when the rows are the contiguous coordinate.
        col_major: bool,
    },
    /// The 16×16 register base tile: `(i, j) → lane·8 + slot`
    /// ([`BaseTileRowMajor`](super::BaseTileRowMajor), or its transpose).
    BaseTile {
        /// `true` for the column-major tiles
        /// ([`BaseTileColMajor`](super::BaseTileColMajor),
        /// [`AccTileColMajor`](super::AccTileColMajor)).
        col_major: bool,
        /// `true` for the accumulator tiles
        /// ([`AccTileRowMajor`](super::AccTileRowMajor),
        /// [`AccTileColMajor`](super::AccTileColMajor)).
        accumulator: bool,
    },
}

impl LayoutExpr {
    /// Returns the number of rows.
    #[must_use]
    pub const fn rows(&self) -> usize {
        match *self {
            Self::Strided { rows, .. } => rows,
            Self::Blocked { outer, inner } => outer.rows() * inner.rows(),
            Self::Swizzled { layout, .. } | Self::CoordSwizzled { layout, .. } => layout.rows(),
            Self::BaseTile { .. } => 16,
        }
    }

    /// Returns the number of columns.
    #[must_use]
    pub const fn cols(&self) -> usize {
        match *self {
            Self::Strided { cols, .. } => cols,
            Self::Blocked { outer, inner } => outer.cols() * inner.cols(),
            Self::Swizzled { layout, .. } | Self::CoordSwizzled { layout, .. } => layout.cols(),
            Self::BaseTile { .. } => 16,
        }
    }

    /// Returns the span of offsets ([`Layout2::COSIZE`]).
    #[must_use]
    pub const fn cosize(&self) -> usize {
        match *self {
            Self::Strided {
                rows,
                cols,
                row_stride,
                col_stride,
            } => strided_cosize(rows, cols, row_stride, col_stride),
            Self::Blocked { outer, inner } => outer.cosize() * inner.cosize(),
            Self::Swizzled { layout, .. } | Self::CoordSwizzled { layout, .. } => layout.cosize(),
            Self::BaseTile { .. } => 256,
        }
    }

    /// Returns the offset of `(i, j)`; the same as the type's
    /// [`Layout2::offset`].
    #[must_use]
    pub const fn offset(&self, i: usize, j: usize) -> usize {
        match *self {
            Self::Strided {
                row_stride,
                col_stride,
                ..
            } => i * row_stride + j * col_stride,
            Self::Blocked { outer, inner } => {
                let (r, c) = (inner.rows(), inner.cols());
                outer.offset(i / r, j / c) * inner.cosize() + inner.offset(i % r, j % c)
            }
            Self::Swizzled {
                layout,
                bits,
                base,
                shift,
            } => swizzle(layout.offset(i, j), source_mask(bits, base, shift), shift),
            Self::CoordSwizzled {
                layout,
                bits,
                base,
                col_major,
            } => {
                let mask = (1usize << bits) - 1;
                if col_major {
                    layout.offset(i ^ ((j & mask) << base), j)
                } else {
                    layout.offset(i, j ^ ((i & mask) << base))
                }
            }
            Self::BaseTile {
                col_major,
                accumulator,
            } => base_tile_offset(col_major, accumulator, i, j),
        }
    }
}

/// Lane holding element `(i, j)` of a row-major 16×16 base tile.
#[inline(always)]
pub(crate) const fn base_tile_lane(i: usize, j: usize) -> usize {
    (i % 8) * 4 + (j % 8) / 2
}

/// Slot holding element `(i, j)` of a row-major 16×16 base tile.
#[inline(always)]
pub(crate) const fn base_tile_slot(i: usize, j: usize) -> usize {
    j % 2 + 2 * (i / 8) + 4 * (j / 8)
}

/// Exact cosize of `(rows, cols):(row_stride, col_stride)`.
pub(crate) const fn strided_cosize(
    rows: usize,
    cols: usize,
    row_stride: usize,
    col_stride: usize,
) -> usize {
    if rows == 0 || cols == 0 {
        0
    } else {
        (rows - 1) * row_stride + (cols - 1) * col_stride + 1
    }
}

/// Greatest common divisor; `gcd(0, b) = b`.
pub(crate) const fn gcd(a: usize, b: usize) -> usize {
    let (mut a, mut b) = (a, b);
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

// ---------------------------------------------------------------------------
// Strided layouts
// ---------------------------------------------------------------------------

/// The strided layout `(R, C):(RS, CS)`: `(i, j) → i·RS + j·CS`.
///
/// TileFusion's `MatrixLayout<Rows, Cols, RowStride, ColStride>`. Any strides
/// are admitted (0 broadcasts; overlapping strides alias elements): the type
/// has no invariants of its own. [`RowMajor`] and [`ColMajor`] are the two
/// common cases; a row stride larger than `C` is a row-major view into a
/// wider matrix (TileFusion's `RowMajor<kTM, kK, kK>`).
///
/// ```
/// use tilelayout::gpu::{Layout2, MatrixLayout};
/// // rows 100 elements apart, as in a sub-tile of a 100-wide matrix
/// type L = MatrixLayout<4, 8, 100, 1>;
/// assert_eq!(L::offset(3, 7), 307);
/// assert_eq!(L::COSIZE, 308);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MatrixLayout<const R: usize, const C: usize, const RS: usize, const CS: usize>;

/// Row-major `R × C`: `MatrixLayout<R, C, C, 1>`, `(i, j) → i·C + j`.
///
/// ```
/// use tilelayout::gpu::{Layout2, RowMajor};
/// assert_eq!(RowMajor::<64, 64>::offset(1, 2), 66);
/// ```
pub type RowMajor<const R: usize, const C: usize> = MatrixLayout<R, C, C, 1>;

/// Column-major `R × C`: `MatrixLayout<R, C, 1, R>`, `(i, j) → i + j·R`.
///
/// ```
/// use tilelayout::gpu::{ColMajor, Layout2};
/// assert_eq!(ColMajor::<64, 64>::offset(1, 2), 129);
/// ```
pub type ColMajor<const R: usize, const C: usize> = MatrixLayout<R, C, 1, R>;

impl<const R: usize, const C: usize, const RS: usize, const CS: usize> Sealed
    for MatrixLayout<R, C, RS, CS>
{
}

impl<const R: usize, const C: usize, const RS: usize, const CS: usize> Shape2
    for MatrixLayout<R, C, RS, CS>
{
    const ROWS: usize = R;
    const COLS: usize = C;
}

impl<const R: usize, const C: usize, const RS: usize, const CS: usize> Layout2
    for MatrixLayout<R, C, RS, CS>
{
    const COSIZE: usize = strided_cosize(R, C, RS, CS);
    // A row is contiguous when CS = 1 (or it has one element); runs start at
    // i·RS + j, aligned to n when n divides RS and j (and n divides C).
    const ROW_RUN: usize = if C == 1 || CS != 1 {
        1
    } else if R == 1 {
        C
    } else {
        gcd(C, RS)
    };
    const COL_RUN: usize = if R == 1 || RS != 1 {
        1
    } else if C == 1 {
        R
    } else {
        gcd(R, CS)
    };
    const EXPR: LayoutExpr = LayoutExpr::Strided {
        rows: R,
        cols: C,
        row_stride: RS,
        col_stride: CS,
    };

    #[inline(always)]
    fn offset(i: usize, j: usize) -> usize {
        debug_assert!(i < R && j < C, "MatrixLayout: (i, j) out of range");
        i * RS + j * CS
    }
}

impl<const R: usize, const C: usize, const RS: usize, const CS: usize> MatrixLayout<R, C, RS, CS> {
    /// The row stride `RS`.
    pub const ROW_STRIDE: usize = RS;
    /// The column stride `CS`.
    pub const COL_STRIDE: usize = CS;
}

/// A zero-sized value standing for a layout type, for code that prefers
/// values to turbofish (`layout_of::<L>().offset(i, j)`).
///
/// ```
/// use tilelayout::gpu::{layout_of, RowMajor};
/// let l = layout_of::<RowMajor<4, 4>>();
/// assert_eq!(l.offset(3, 1), 13);
/// ```
#[must_use]
pub const fn layout_of<L: Layout2>() -> LayoutValue<L> {
    LayoutValue(PhantomData)
}

/// A value of a layout type (see [`layout_of`]); calling it is
/// [`LayoutValue::offset`].
#[derive(Debug)]
pub struct LayoutValue<L>(PhantomData<L>);

impl<L> Clone for LayoutValue<L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L> Copy for LayoutValue<L> {}

impl<L: Layout2> LayoutValue<L> {
    /// Returns `L::offset(i, j)`.
    #[inline(always)]
    #[must_use]
    pub fn offset(self, i: usize, j: usize) -> usize {
        L::offset(i, j)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // `const_offset` and the expression evaluators are const-evaluable.
    const _: () = {
        assert!(const_offset::<RowMajor<3, 5>>(2, 3) == 13);
        assert!(const_offset::<ColMajor<3, 5>>(2, 3) == 11);
        assert!(gcd(12, 18) == 6 && gcd(0, 7) == 7 && gcd(7, 0) == 7);
        assert!(swizzle(0b10_0000_0000, source_mask(3, 3, 3), 3) == 0b10_0000_0000);
        assert!(swizzle(0b01_0000_0000, source_mask(3, 3, 3), 3) == 0b01_0010_0000);
        assert!(swizzle(0b0_0100_0000, source_mask(3, 3, 3), 3) == 0b0_0100_1000);
    };

    #[test]
    fn runs_of_strided_layouts() {
        assert_eq!(RowMajor::<8, 32>::ROW_RUN, 32);
        assert_eq!(RowMajor::<8, 32>::COL_RUN, 1);
        assert_eq!(ColMajor::<8, 32>::COL_RUN, 8);
        assert_eq!(MatrixLayout::<4, 8, 100, 1>::ROW_RUN, 4);
        assert_eq!(RowMajor::<1, 6>::ROW_RUN, 6);
    }
}

//! Matrix layouts: `(i, j) → i·RS + j·CS`.
//!
//! This file defines the two traits every GPU layout implements ([`Shape2`]
//! and [`Layout2`], whose semantics is a layout of the algebra), the
//! contiguity of a layout ([`vector_run`]), and the strided layouts
//! themselves: [`MatrixLayout`], [`RowMajor`] and [`ColMajor`]
//! (TileFusion's `MatrixLayout`, CuTe's `(R,C):(RS,CS)`).

use core::marker::PhantomData;

use super::result::{composed, name, strided_result};
use super::sealed::Sealed;
use crate::algebra::{
    max_common_vector, AnyLayout, ComposedLayout, CuteLayout, Int, IntTuple, Swizzle,
};
use crate::types::cute_index::{flat, flat_offset, Flat};
use crate::types::cute_result::{composed_or_stop, ok, CuteType};
use crate::types::verdict::Verdict;

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
/// `j < COLS`, to an offset `< COSIZE`, given as a layout of the algebra.
///
/// Every GPU layout *is* a CuTe layout of rank 2 (mode 0 the rows, mode 1
/// the columns), possibly swizzled: [`LAYOUT`](Self::LAYOUT) is the core's
/// [`ComposedLayout`] `Sw<B,M,S> o _0 o (shape):(stride)` (the identity
/// swizzle `Sw<0,4,3>` when there is none), built by the core's `const fn`s
/// (`blocked_product` for block layouts, a composition with a swizzle for
/// swizzled ones). [`offset`](Self::offset) is derived from it: the
/// flattened modes (as [`AlgebraLayout`](crate::AlgebraLayout) folds them)
/// then one application of the core's swizzle, `#[inline(always)]` with
/// every parameter a constant, so with constant `(i, j)` it folds to a
/// constant and in a loop it becomes the arithmetic one would write by hand.
///
/// Every layout is a [`CuteType`]: its [`RESULT`](CuteType::RESULT) is the
/// layout or the verdict of the check that failed, computed without
/// panicking, and [`LAYOUT`](Self::LAYOUT) is derived from it; so
/// [`assert_cute!`](crate::assert_cute) checks a GPU layout at
/// `cargo check`, and GPU layouts are operands of the CuTe operation
/// types.
///
/// The trait is sealed: the implementations are [`MatrixLayout`],
/// [`Blocked`](super::Blocked), [`BlockedRowMajor`](super::BlockedRowMajor),
/// [`BlockedColMajor`](super::BlockedColMajor),
/// [`Swizzled`](super::Swizzled), the swizzled shared tiles and the register
/// base tiles.
///
/// # Invariants
///
/// For `i < ROWS` and `j < COLS`:
/// 1. `offset(i, j) < COSIZE`;
/// 2. `offset(i, j) == LAYOUT(i, j)` as the core evaluates it (and so
///    `== const_offset::<Self>(i, j)`);
/// 3. `LAYOUT` has rank 2 and its modes have sizes `ROWS` and `COLS`.
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
/// assert_eq!(RowMajor::<3, 5>::LAYOUT.to_string(), "Sw<0,4,3> o _0 o (_3,_5):(_5,_1)");
/// ```
pub trait Layout2: Shape2 + Sealed + CuteType {
    /// The layout as a value of the algebra: `Sw<B,M,S> o _0 o layout`,
    /// `layout` of rank 2 with modes of sizes `ROWS` and `COLS` (the
    /// type's [`CuteType::RESULT`]; a compile error with its verdict's
    /// message when a check failed).
    const LAYOUT: ComposedLayout = composed_or_stop(&<Self as CuteType>::RESULT);

    /// The span of offsets: every offset is `< COSIZE` (CuTe's `cosize` of
    /// the unswizzled layout; a swizzle permutes `[0, COSIZE)`).
    const COSIZE: usize = ok(Self::LAYOUT.layout.cosize(), "a GPU layout's cosize").value as usize;

    /// The swizzle and the flattened modes of the type's layout (what
    /// [`offset`](Self::offset) folds); computed without panicking (an
    /// invalid type's are never read: `offset` checks its verdict first).
    #[doc(hidden)] // reason: an implementation constant of the trait
    const FLAT: (Swizzle, Flat) = match composed(&<Self as CuteType>::RESULT) {
        Ok(l) => (l.swizzle, flat(&l.layout)),
        Err(_) => (Swizzle::NONE, flat(&CuteLayout::EMPTY)),
    };

    /// Returns the offset of element `(i, j)`.
    ///
    /// `i < ROWS` and `j < COLS` is a precondition (checked with
    /// `debug_assert!`); outside it the result is unspecified but never UB.
    /// An invalid type fails to build here, once, with its
    /// [`VERDICT`](CuteType::VERDICT)'s message
    /// ([`assert_cute!`](crate::assert_cute) reports it at `cargo check`).
    #[inline(always)]
    fn offset(i: usize, j: usize) -> usize {
        debug_assert!(
            i < Self::ROWS && j < Self::COLS,
            "GPU layout: (i, j) out of range"
        );
        let (sw, f) = const {
            <Self as CuteType>::VERDICT.check();
            check_shape(&Self::FLAT.1, Self::ROWS, Self::COLS);
            (Self::FLAT.0, &Self::FLAT.1)
        };
        sw.apply(flat_offset(f, &[i, j])) as usize
    }
}

/// Checks that the flattened modes `f` are a rank-2 layout of
/// `rows × cols` (the promise of a [`Layout2`] implementation).
const fn check_shape(f: &Flat, rows: usize, cols: usize) {
    assert!(
        f.rank == 2 && mode_size(f, 0) == rows as i64 && mode_size(f, 1) == cols as i64,
        "a GPU layout's LAYOUT must have rank 2 and modes of ROWS and COLS elements"
    );
}

/// The number of elements of top-level mode `m` of `f`.
const fn mode_size(f: &Flat, m: usize) -> i64 {
    let mut n = 1i64;
    let mut k = f.mode_start[m];
    while k < f.mode_start[m + 1] {
        n = n.saturating_mul(f.shape[k]);
        k += 1;
    }
    n
}

/// Returns `L`'s offset of `(i, j)` in a `const` context.
///
/// This is the `const fn` form of [`Layout2::offset`] (trait methods cannot be
/// `const` on stable Rust): the same fold of the same constants.
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
    L::LAYOUT.swizzle.apply(flat_offset(&L::FLAT.1, &[i, j])) as usize
}

/// The contiguous run of a layout along its rows (`mode` 1) or columns
/// (`mode` 0): the largest `n` such that, for `j % n == 0`, elements
/// `(i, j) .. (i, j + n)` are at consecutive offsets starting at a multiple
/// of `n` — what a vectorised copy needs.
///
/// Computed on the algebra: the contiguous prefix of the mode is CuTe's
/// [`max_common_vector`] of the mode and the compact layout of its shape;
/// the run is the largest divisor of it that divides every other stride (so
/// runs start aligned), capped at `2^M` under a swizzle (which keeps the
/// low `M` bits).
///
/// ```
/// use tilelayout::gpu::{vector_run, Bytes128, ColMajor, Layout2, MatrixLayout, RowMajor, SwizzledRowMajor};
/// assert_eq!(vector_run(&RowMajor::<8, 32>::LAYOUT, 1), 32);
/// assert_eq!(vector_run(&ColMajor::<8, 32>::LAYOUT, 1), 1);
/// // rows 36 apart: runs of 4 start at multiples of 4, runs of 8 would not
/// assert_eq!(vector_run(&MatrixLayout::<64, 32, 36, 1>::LAYOUT, 1), 4);
/// // a swizzle of 16-byte chunks keeps 16 bytes together
/// assert_eq!(vector_run(&SwizzledRowMajor::<f32, Bytes128, 64, 64>::LAYOUT, 1), 4);
/// ```
#[must_use]
pub const fn vector_run(layout: &ComposedLayout, mode: usize) -> usize {
    let l = &layout.layout;
    let m = ok(l.mode(mode), "vector_run");
    let compact = ok(CuteLayout::column_major(*m.shape()), "vector_run");
    let prefix = ok(max_common_vector(&m, &compact), "vector_run").value;
    // the leaf of the prefix: the first leaf of the mode, when it is the
    // contiguous one (stride 1)
    let first = l.shape().mode_leaf_start(mode);
    let mut n = prefix;
    while n > 1 {
        let mut fits = true;
        let mut k = 0;
        while k < l.shape().leaf_count() {
            let s = match l.shape().leaf(k) {
                Some(s) => s.value,
                None => 1,
            };
            let d = match l.stride().leaf(k) {
                Some(d) => d.value,
                None => 0,
            };
            // leaves inside the prefix step by less than n; every other
            // stride must keep runs aligned
            let inside = k >= first && k < first + prefix_leaves(l, first, prefix);
            if s > 1 && !inside && d % n != 0 {
                fits = false;
            }
            k += 1;
        }
        if fits && prefix % n == 0 {
            break;
        }
        n -= 1;
    }
    let bits = layout.swizzle.bits();
    if bits > 0 {
        let kept = 1i64 << layout.swizzle.base();
        while n > 1 && (n > kept || kept % n != 0) {
            n -= 1;
        }
    }
    n as usize
}

/// The number of leaves from `first` on whose shapes multiply to `prefix`
/// (the leaves the contiguous prefix of a mode spans; coalesced by
/// `max_common_vector`, they are consecutive).
const fn prefix_leaves(l: &CuteLayout, first: usize, prefix: i64) -> usize {
    let mut covered = 1i64;
    let mut k = first;
    while covered < prefix && k < l.shape().leaf_count() {
        covered *= match l.shape().leaf(k) {
            Some(s) => s.value,
            None => 1,
        };
        k += 1;
    }
    k - first
}

/// `(r, c):(rs, cs)` as a value of the algebra, unswizzled.
pub(crate) const fn strided(r: usize, c: usize, rs: usize, cs: usize) -> CuteLayout {
    let shape = ok(
        IntTuple::tuple(&[
            IntTuple::int(Int::fixed(r as i64)),
            IntTuple::int(Int::fixed(c as i64)),
        ]),
        "a strided GPU layout",
    );
    let stride = ok(
        IntTuple::tuple(&[
            IntTuple::int(Int::fixed(rs as i64)),
            IntTuple::int(Int::fixed(cs as i64)),
        ]),
        "a strided GPU layout",
    );
    ok(CuteLayout::new(shape, stride), "a strided GPU layout")
}

// ---------------------------------------------------------------------------
// Strided layouts
// ---------------------------------------------------------------------------

/// The strided layout `(R, C):(RS, CS)`: `(i, j) → i·RS + j·CS`.
///
/// TileFusion's `MatrixLayout<Rows, Cols, RowStride, ColStride>`, CuTe's
/// `(R,C):(RS,CS)` ([`Layout2::LAYOUT`]). Any strides are admitted (0
/// broadcasts; overlapping strides alias elements); `R` and `C` must be
/// positive, as the algebra's shapes are (a compile-time error otherwise). [`RowMajor`] and [`ColMajor`] are the two
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

impl<const R: usize, const C: usize, const RS: usize, const CS: usize> CuteType
    for MatrixLayout<R, C, RS, CS>
{
    const RESULT: Result<AnyLayout, Verdict> =
        strided_result(R, C, RS, CS, name("MatrixLayout", &[R, C, RS, CS]).as_str());
}

impl<const R: usize, const C: usize, const RS: usize, const CS: usize> Layout2
    for MatrixLayout<R, C, RS, CS>
{
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

    // `const_offset` is const-evaluable.
    const _: () = {
        assert!(const_offset::<RowMajor<3, 5>>(2, 3) == 13);
        assert!(const_offset::<ColMajor<3, 5>>(2, 3) == 11);
    };

    #[test]
    fn runs_of_strided_layouts() {
        let run = |l: &ComposedLayout, m| vector_run(l, m);
        assert_eq!(run(&RowMajor::<8, 32>::LAYOUT, 1), 32);
        assert_eq!(run(&RowMajor::<8, 32>::LAYOUT, 0), 1);
        assert_eq!(run(&ColMajor::<8, 32>::LAYOUT, 0), 8);
        assert_eq!(run(&MatrixLayout::<4, 8, 100, 1>::LAYOUT, 1), 4);
        assert_eq!(run(&RowMajor::<1, 6>::LAYOUT, 1), 6);
        assert_eq!(run(&RowMajor::<3, 5>::LAYOUT, 1), 5);
    }
}

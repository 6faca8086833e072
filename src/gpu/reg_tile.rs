//! Register tiles: the 16×16 base tile a warp feeds to the tensor cores, and
//! `RegTile`, one thread's registers for a grid of base tiles.
//!
//! The lane/slot map is documented on [`BaseTile`]. As a [`Layout2`] a base
//! tile maps `(i, j)` to `lane·8 + slot` (a bijection onto `[0, 256)`), so
//! `Blocked<L, BaseTileRowMajor>` is the warp-wide register layout of a
//! [`RegTile`] with outer layout `L`.

use core::marker::PhantomData;

use super::matrix::{base_tile_lane, base_tile_slot, Layout2, LayoutExpr, Shape2};
use super::sealed::Sealed;
use super::tile::{Storage, StorageMut};

/// Number of lanes (threads) in a warp.
pub const LANES: usize = 32;

/// Number of elements each lane holds of one 16×16 base tile.
pub const SLOTS: usize = 8;

/// A 16×16 register base tile: which lane and slot hold each element.
///
/// The base tile is the operand of two `mma.m16n8k16`: 256 elements held by
/// the 32 lanes of a warp, 8 per lane. In the row-major base tile lane `l`
/// holds
///
/// ```text
///  slots 0, 1: row l/4,     columns 2(l%4), 2(l%4)+1
///  slots 2, 3: row l/4 + 8, the same columns
///  slots 4, 5: row l/4,     the same columns + 8
///  slots 6, 7: row l/4 + 8, the same columns + 8
/// ```
///
/// and the column-major base tile is the transpose.
///
/// Implemented by [`BaseTileRowMajor`] and [`BaseTileColMajor`]. As a
/// [`Layout2`] it maps `(i, j)` to `lane·8 + slot`.
pub trait BaseTile: Layout2 {
    /// `true` for the column-major (transposed) base tile.
    const COL_MAJOR: bool;

    /// Returns `(lane, slot)` holding element `(i, j)`, `i, j < 16`.
    fn lane_slot(i: usize, j: usize) -> (usize, usize);

    /// Returns the element `(i, j)` held by `lane` in `slot`, `lane < 32`,
    /// `slot < 8`.
    fn element(lane: usize, slot: usize) -> (usize, usize);
}

/// The row-major base tile (TileFusion's `BaseTileRowMajor`): lane `l` holds
/// row `l/4` (and `l/4 + 8`), columns `2(l%4)`, `2(l%4)+1` (and `+ 8`).
///
/// ```
/// use tilelayout::gpu::{BaseTile, BaseTileRowMajor};
/// assert_eq!(BaseTileRowMajor::lane_slot(0, 1), (0, 1));
/// assert_eq!(BaseTileRowMajor::lane_slot(9, 3), (5, 3)); // 8 rows down: slots 2–3
/// assert_eq!(BaseTileRowMajor::lane_slot(1, 10), (5, 4)); // 8 columns right: slots 4–5
/// assert_eq!(BaseTileRowMajor::element(31, 7), (15, 15));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BaseTileRowMajor;

/// The column-major base tile (TileFusion's `BaseTileColMajor`): the
/// transpose of [`BaseTileRowMajor`]; lane `l` holds column `l/4`, rows
/// `2(l%4)`, `2(l%4)+1`.
///
/// This is the layout of the `B` operand of `mma.m16n8k16` (`K × N`).
///
/// ```
/// use tilelayout::gpu::{BaseTile, BaseTileColMajor, BaseTileRowMajor};
/// assert_eq!(BaseTileColMajor::lane_slot(3, 9), BaseTileRowMajor::lane_slot(9, 3));
/// assert_eq!(BaseTileColMajor::element(5, 3), (3, 9));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BaseTileColMajor;

impl Sealed for BaseTileRowMajor {}
impl Sealed for BaseTileColMajor {}

impl Shape2 for BaseTileRowMajor {
    const ROWS: usize = 16;
    const COLS: usize = 16;
}
impl Shape2 for BaseTileColMajor {
    const ROWS: usize = 16;
    const COLS: usize = 16;
}

impl Layout2 for BaseTileRowMajor {
    const COSIZE: usize = 256;
    // slots 2k, 2k+1 are columns 2c, 2c+1 of one row
    const ROW_RUN: usize = 2;
    const COL_RUN: usize = 1;
    const EXPR: LayoutExpr = LayoutExpr::BaseTile { col_major: false };

    #[inline(always)]
    fn offset(i: usize, j: usize) -> usize {
        debug_assert!(i < 16 && j < 16, "BaseTileRowMajor: (i, j) out of range");
        base_tile_lane(i, j) * SLOTS + base_tile_slot(i, j)
    }
}

impl Layout2 for BaseTileColMajor {
    const COSIZE: usize = 256;
    const ROW_RUN: usize = 1;
    const COL_RUN: usize = 2;
    const EXPR: LayoutExpr = LayoutExpr::BaseTile { col_major: true };

    #[inline(always)]
    fn offset(i: usize, j: usize) -> usize {
        debug_assert!(i < 16 && j < 16, "BaseTileColMajor: (i, j) out of range");
        base_tile_lane(j, i) * SLOTS + base_tile_slot(j, i)
    }
}

/// Element `(i, j)` of the row-major base tile held by `(lane, slot)`.
#[inline(always)]
const fn row_major_element(lane: usize, slot: usize) -> (usize, usize) {
    (
        lane / 4 + 8 * ((slot / 2) % 2),
        2 * (lane % 4) + slot % 2 + 8 * (slot / 4),
    )
}

impl BaseTile for BaseTileRowMajor {
    const COL_MAJOR: bool = false;

    #[inline(always)]
    fn lane_slot(i: usize, j: usize) -> (usize, usize) {
        (base_tile_lane(i, j), base_tile_slot(i, j))
    }

    #[inline(always)]
    fn element(lane: usize, slot: usize) -> (usize, usize) {
        debug_assert!(lane < LANES && slot < SLOTS);
        row_major_element(lane, slot)
    }
}

impl BaseTile for BaseTileColMajor {
    const COL_MAJOR: bool = true;

    #[inline(always)]
    fn lane_slot(i: usize, j: usize) -> (usize, usize) {
        (base_tile_lane(j, i), base_tile_slot(j, i))
    }

    #[inline(always)]
    fn element(lane: usize, slot: usize) -> (usize, usize) {
        debug_assert!(lane < LANES && slot < SLOTS);
        let (i, j) = row_major_element(lane, slot);
        (j, i)
    }
}

/// One thread's registers for a grid of 16×16 base tiles `B` laid out by `L`
/// (TileFusion's `RegTile<BaseTile, RowMajor<a, b>>`).
///
/// A warp holds a `16·L::ROWS × 16·L::COLS` tile: 32 `RegTile`s, one per
/// lane. Thread storage `D` (typically `[T; N]`) holds
/// [`REGS`](Self::REGS)` = 8·L::COSIZE` registers; base tile `(bi, bj)`
/// occupies registers `8·L(bi, bj) .. 8·L(bi, bj) + 8`, slot by slot.
///
/// # Invariants
///
/// The storage holds at least `REGS` elements (checked by
/// [`new`](Self::new)).
///
/// # Examples
///
/// ```
/// use tilelayout::gpu::{BaseTileRowMajor, RegTile, RowMajor};
/// type Reg = RegTile<[f32; 48], BaseTileRowMajor, RowMajor<2, 3>>;
/// assert_eq!((Reg::ROWS, Reg::COLS, Reg::REGS), (32, 48, 48));
/// // element (17, 35) of the warp's tile: base tile (1, 2) = 5, (1, 3) inside
/// assert_eq!(Reg::owner(17, 35), (5, 5 * 8 + 1));
/// assert_eq!(Reg::element(5, 1, 2, 1), (17, 35));
///
/// let mut r = Reg::new([0.0; 48]);
/// r.set(1, 2, 1, 2.5);
/// assert_eq!(r.get(1, 2, 1), 2.5);
/// assert_eq!(r.regs()[41], 2.5);
/// ```
///
/// # Compile-time errors
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{BaseTileRowMajor, RegTile, RowMajor};
/// // 2×3 base tiles need 48 registers per thread
/// let _ = RegTile::<[f32; 40], BaseTileRowMajor, RowMajor<2, 3>>::filled(0.0);
/// ```
pub struct RegTile<D, B, L> {
    regs: D,
    _marker: PhantomData<fn() -> (B, L)>,
}

impl<D: Clone, B, L> Clone for RegTile<D, B, L> {
    fn clone(&self) -> Self {
        Self {
            regs: self.regs.clone(),
            _marker: PhantomData,
        }
    }
}

impl<D: Copy, B, L> Copy for RegTile<D, B, L> {}

impl<D: core::fmt::Debug, B: BaseTile, L: Layout2> core::fmt::Debug for RegTile<D, B, L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RegTile")
            .field("col_major", &B::COL_MAJOR)
            .field("layout", &L::EXPR)
            .field("regs", &self.regs)
            .finish()
    }
}

impl<D, B: BaseTile, L: Layout2> RegTile<D, B, L> {
    /// Rows of the warp's tile, `16·L::ROWS`.
    pub const ROWS: usize = 16 * L::ROWS;
    /// Columns of the warp's tile, `16·L::COLS`.
    pub const COLS: usize = 16 * L::COLS;
    /// Registers per thread, `8·L::COSIZE`.
    pub const REGS: usize = SLOTS * L::COSIZE;

    /// Returns the register index of `slot` of base tile `(bi, bj)`.
    #[inline(always)]
    #[must_use]
    pub fn reg(bi: usize, bj: usize, slot: usize) -> usize {
        debug_assert!(slot < SLOTS, "RegTile: slot out of range");
        L::offset(bi, bj) * SLOTS + slot
    }

    /// Returns `(lane, register)` holding element `(i, j)` of the warp's
    /// tile.
    #[inline(always)]
    #[must_use]
    pub fn owner(i: usize, j: usize) -> (usize, usize) {
        debug_assert!(
            i < Self::ROWS && j < Self::COLS,
            "RegTile: (i, j) out of range"
        );
        let (lane, slot) = B::lane_slot(i % 16, j % 16);
        (lane, Self::reg(i / 16, j / 16, slot))
    }

    /// Returns the element of the warp's tile that `lane` holds in `slot` of
    /// base tile `(bi, bj)`.
    #[inline(always)]
    #[must_use]
    pub fn element(lane: usize, bi: usize, bj: usize, slot: usize) -> (usize, usize) {
        let (i, j) = B::element(lane, slot);
        (bi * 16 + i, bj * 16 + j)
    }

    /// Returns the registers.
    pub fn into_inner(self) -> D {
        self.regs
    }
}

impl<D: Storage, B: BaseTile, L: Layout2> RegTile<D, B, L> {
    /// Returns the register tile over `regs`.
    ///
    /// # Panics
    ///
    /// If `regs` holds fewer than [`REGS`](Self::REGS) elements.
    #[track_caller]
    pub fn new(regs: D) -> Self {
        assert!(
            regs.as_slice().len() >= Self::REGS,
            "RegTile storage is shorter than 8 · L::COSIZE registers"
        );
        Self {
            regs,
            _marker: PhantomData,
        }
    }

    /// Returns the registers.
    pub fn regs(&self) -> &[D::Elem] {
        self.regs.as_slice()
    }

    /// Returns `slot` of base tile `(bi, bj)`.
    #[inline(always)]
    #[must_use]
    pub fn get(&self, bi: usize, bj: usize, slot: usize) -> D::Elem {
        self.regs.as_slice()[Self::reg(bi, bj, slot)]
    }
}

impl<D: StorageMut, B: BaseTile, L: Layout2> RegTile<D, B, L> {
    /// Returns the registers, mutably.
    pub fn regs_mut(&mut self) -> &mut [D::Elem] {
        self.regs.as_mut_slice()
    }

    /// Sets `slot` of base tile `(bi, bj)` to `value`.
    #[inline(always)]
    pub fn set(&mut self, bi: usize, bj: usize, slot: usize, value: D::Elem) {
        self.regs.as_mut_slice()[Self::reg(bi, bj, slot)] = value;
    }
}

impl<T: Copy, const N: usize, B: BaseTile, L: Layout2> RegTile<[T; N], B, L> {
    const EXACT: () = assert!(
        N == SLOTS * L::COSIZE,
        "RegTile<[T; N], B, L> requires N == 8 * L::COSIZE registers (8 per base tile)"
    );

    /// Returns a register tile whose registers all hold `value`; `N` must be
    /// exactly [`REGS`](Self::REGS) (checked at compile time).
    #[must_use]
    pub fn filled(value: T) -> Self {
        let () = Self::EXACT;
        Self {
            regs: [value; N],
            _marker: PhantomData,
        }
    }
}

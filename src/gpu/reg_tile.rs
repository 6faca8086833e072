//! Register tiles: the 16×16 base tiles a warp feeds to the tensor cores
//! (operands) and gets back from them (accumulators), and `RegTile`, one
//! thread's registers for a grid of base tiles.
//!
//! The lane/slot maps are documented on [`BaseTile`]. As a [`Layout2`] a base
//! tile maps `(i, j)` to `lane·8 + slot` (a bijection onto `[0, 256)`, a
//! layout of the algebra from (m, n) to (thread, value)), so
//! `Blocked<L, BaseTileRowMajor>` is the warp-wide register layout of a
//! [`RegTile`] with outer layout `L`.

use core::marker::PhantomData;

use super::matrix::{Layout2, Shape2};
use super::product::padded_product;
use super::sealed::Sealed;
use super::tile::{Storage, StorageMut};
use crate::algebra::{composition, right_inverse, AnyLayout, CuteLayout, Int};
use crate::types::cute_index::{flat, flat_offset, Flat};
use crate::types::cute_result::{ok, CuteType};
use crate::types::verdict::Verdict;

/// Number of lanes (threads) in a warp (`gpu::WARP_SIZE`; not the 128 lanes
/// of a TPU vector register, [`tpu::LANES`](crate::tpu::LANES)).
pub const WARP_SIZE: usize = 32;

/// Number of registers ("slots" of the fragment) each lane holds of one
/// 16×16 base tile (not a layout's storage slots,
/// [`CuteLayout::SLOTS`](crate::Layout::SLOTS)).
pub const FRAGMENT_SLOTS: usize = 8;

/// A 16×16 register base tile: which lane and slot hold each element.
///
/// A base tile is 256 elements held by the 32 lanes of a warp, 8 per lane,
/// as two `mma.m16n8k16` see them. Lane `l` has a group `g = l/4` and a
/// thread-in-group `t = l%4`. In the row-major tiles lane `l` holds
///
/// ```text
///  slots 0, 1: row g,     columns 2t, 2t+1
///  slots 2, 3: row g + 8, the same columns
///  slots 4, 5: row g,     the same columns + 8
///  slots 6, 7: row g + 8, the same columns + 8
/// ```
///
/// In the column-major tiles lane `l` holds column `g`, rows `2t, 2t+1`,
/// and the two kinds differ in the order of the other three pairs:
///
/// | slots | operand ([`BaseTileColMajor`]) | accumulator ([`AccTileColMajor`]) |
/// |-------|--------------------------------|-----------------------------------|
/// | 2, 3  | the same rows, column `g + 8`  | rows `+ 8`, column `g`            |
/// | 4, 5  | rows `+ 8`, column `g`         | the same rows, column `g + 8`     |
///
/// This is the PTX fragment layout of `mma.m16n8k16` and the order
/// TileFusion keeps: the `A` operand (`M × K`, row-major) is `a0..a7` of PTX;
/// a column-major `B` operand (`K × N`) holds the two `n8` halves' `b0, b1` in
/// slots 0–1 and 2–3 and their `b2, b3` (`k + 8`) in 4–5 and 6–7, the order
/// `ldmatrix.x4` returns them and TileFusion's `mma` passes them
/// (`B[0], B[2]` for columns `0..8`, `B[1], B[3]` for `8..16`); the
/// accumulator is `c0..c3` of the two `n8` halves. CuTe's
/// `SM80_16x8x16` atoms agree per `n8` half (its `BLayout` of one atom is
/// slots 0, 1, 4, 5 here). TileFusion's global→register loads use the
/// operand order and its register→shared store of a GEMM's result the
/// accumulator order (`tests/gpu_reg_tile.rs` checks all four maps against
/// TileFusion's code and CuTe's `ALayout`/`BLayout`/`CLayout`).
///
/// Implemented by [`BaseTileRowMajor`], [`BaseTileColMajor`] (operands, see
/// [`Operand`](super::Operand)) and [`AccTileRowMajor`], [`AccTileColMajor`]
/// (accumulators). As a [`Layout2`] it maps `(i, j)` to `lane·8 + slot`:
///
/// | tile | layout (rows, columns) → `lane·8 + slot` |
/// |------|------------------------------------------|
/// | row-major operand and accumulator | `((8,2),(2,4,2)):((32,2),(1,8,4))` |
/// | column-major operand | `((2,4,2),(8,2)):((1,8,4),(32,2))` |
/// | column-major accumulator | `((2,4,2),(8,2)):((1,8,2),(32,4))` |
///
/// [`element`](Self::element) is the same layout's right inverse (CuTe's
/// `right_inverse`), from `lane·8 + slot` back to `i + 16·j`, seen as a
/// layout over `(slot, lane)` and split into the row part and the column
/// part of its strides (they never carry into each other: the tile is a
/// bijection of bit fields, checked at compile time), so that it folds to
/// the shifts and masks one would write by hand.
pub trait BaseTile: Layout2 {
    /// `true` for the column-major base tiles.
    const COL_MAJOR: bool;
    /// `true` for the accumulator base tiles.
    const ACCUMULATOR: bool;

    /// The right inverse of the layout over `(slot, lane)`: the row and
    /// the column of the element held there (for
    /// [`element`](Self::element)).
    #[doc(hidden)] // reason: an implementation constant of the trait
    const ELEMENT_OF: (Flat, Flat) = element_layouts(&Self::LAYOUT.layout);

    /// The layout split into its lane part (`offset / 8`) and its slot
    /// part (`offset mod 8`) (for [`lane_slot`](Self::lane_slot)).
    #[doc(hidden)] // reason: an implementation constant of the trait
    const LANE_SLOT_OF: (Flat, Flat) = owner_layouts(
        &Self::LAYOUT.layout,
        &ok(CuteLayout::parse("(_1,_1):(_0,_0)"), "a base tile"),
    );

    /// Returns `(lane, slot)` holding element `(i, j)`, `i, j < 16`.
    #[inline(always)]
    fn lane_slot(i: usize, j: usize) -> (usize, usize) {
        let of = const { &Self::LANE_SLOT_OF };
        (
            flat_offset(&of.0, &[i, j]) as usize,
            flat_offset(&of.1, &[i, j]) as usize,
        )
    }

    /// Returns the element `(i, j)` held by `lane` in `slot`, `lane < 32`,
    /// `slot < 8`.
    #[inline(always)]
    fn element(lane: usize, slot: usize) -> (usize, usize) {
        debug_assert!(lane < WARP_SIZE && slot < FRAGMENT_SLOTS);
        base_tile_element(const { &Self::ELEMENT_OF }, lane, slot)
    }
}

/// The row-major operand base tile (TileFusion's `BaseTileRowMajor`, the
/// `A` operand of `mma.m16n8k16`): lane `l` holds row `l/4` (and `l/4 + 8`),
/// columns `2(l%4)`, `2(l%4)+1` (and `+ 8`).
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

/// The column-major operand base tile (TileFusion's `BaseTileColMajor`, the
/// `B` operand of `mma.m16n8k16`, `K × N`): the transpose of
/// [`BaseTileRowMajor`]; lane `l` holds column `l/4`, rows `2(l%4)`,
/// `2(l%4)+1`, then column `+ 8` in slots 2–3 and rows `+ 8` in slots 4–5.
///
/// ```
/// use tilelayout::gpu::{BaseTile, BaseTileColMajor, BaseTileRowMajor};
/// assert_eq!(BaseTileColMajor::lane_slot(3, 9), BaseTileRowMajor::lane_slot(9, 3));
/// assert_eq!(BaseTileColMajor::element(5, 3), (3, 9));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BaseTileColMajor;

/// The row-major accumulator base tile (the `C`/`D` fragment of two
/// `mma.m16n8k16`, as TileFusion's register→shared storer writes it): the
/// same map as [`BaseTileRowMajor`], a distinct type so that an operand and
/// an accumulator are not confused.
///
/// ```
/// use tilelayout::gpu::{AccTileRowMajor, BaseTile, BaseTileRowMajor};
/// assert_eq!(AccTileRowMajor::lane_slot(9, 3), BaseTileRowMajor::lane_slot(9, 3));
/// assert_eq!(AccTileRowMajor::lane_slot(8, 0), (0, 2)); // c2 of the first n8 half
/// assert_eq!(AccTileRowMajor::lane_slot(0, 8), (0, 4)); // c0 of the second
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AccTileRowMajor;

/// The column-major accumulator base tile (TileFusion's register→shared
/// storer for a column-major tile): lane `l` holds column `l/4`, rows
/// `2(l%4)`, `2(l%4)+1`; rows `+ 8` in slots 2–3, column `+ 8` in slots 4–5
/// (the operand [`BaseTileColMajor`] has them the other way round).
///
/// ```
/// use tilelayout::gpu::{AccTileColMajor, BaseTile, BaseTileColMajor};
/// assert_eq!(AccTileColMajor::lane_slot(8, 0), (0, 2));
/// assert_eq!(BaseTileColMajor::lane_slot(8, 0), (0, 4));
/// assert_eq!(AccTileColMajor::element(5, 4), (2, 9));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AccTileColMajor;

impl Sealed for BaseTileRowMajor {}
impl Sealed for BaseTileColMajor {}
impl Sealed for AccTileRowMajor {}
impl Sealed for AccTileColMajor {}

/// The element `(i, j)` that `lane` holds in `slot`, from
/// [`BaseTile::ELEMENT_OF`] (also in `const` contexts).
#[inline(always)]
pub(crate) const fn base_tile_element(
    of: &(Flat, Flat),
    lane: usize,
    slot: usize,
) -> (usize, usize) {
    (
        flat_offset(&of.0, &[slot, lane]) as usize,
        flat_offset(&of.1, &[slot, lane]) as usize,
    )
}

/// `right_inverse(l)` over `(slot, lane)`, split into the layout of the
/// row (`idx mod 16`: the strides below 16) and of the column (`idx / 16`:
/// the strides from 16 on, divided by 16); checked on all 256 points.
const fn element_layouts(l: &CuteLayout) -> (Flat, Flat) {
    let inv = ok(right_inverse(l), "a base tile's inverse");
    let by_lane = ok(
        CuteLayout::parse("(_8,_32):(_1,_8)"),
        "a base tile's inverse",
    );
    let two = ok(composition(&inv, &by_lane), "a base tile's inverse");
    let (mut rows, mut cols) = (*two.stride(), *two.stride());
    let mut k = 0;
    while k < two.stride().leaf_count() {
        if let Some(d) = two.stride().leaf(k) {
            let (r, c) = if d.value < 16 {
                (d.value, 0)
            } else {
                (0, d.value / 16)
            };
            rows = rows.with_leaf(k, Int::fixed(r));
            cols = cols.with_leaf(k, Int::fixed(c));
        }
        k += 1;
    }
    let whole = flat(&two);
    let rows = flat(&ok(
        CuteLayout::new(*two.shape(), rows),
        "a base tile's inverse",
    ));
    let cols = flat(&ok(
        CuteLayout::new(*two.shape(), cols),
        "a base tile's inverse",
    ));
    let mut x = 0;
    while x < 256 {
        let at = [x % 8, x / 8];
        let (i, j) = (flat_offset(&rows, &at), flat_offset(&cols, &at));
        assert!(
            i < 16 && j < 16 && i + 16 * j == flat_offset(&whole, &at),
            "a base tile's inverse must split into a row part and a column part"
        );
        x += 1;
    }
    (rows, cols)
}

/// `(i, j) → lane` and `(i, j) → register` of a grid `outer` of base
/// tiles `base` (see [`RegTile::owner`]); the split of `base` into lane and
/// slot is checked on all 256 points.
const fn owner_layouts(base: &CuteLayout, outer: &CuteLayout) -> (Flat, Flat) {
    let (mut lanes, mut slots) = (*base.stride(), *base.stride());
    let mut k = 0;
    while k < base.stride().leaf_count() {
        if let Some(d) = base.stride().leaf(k) {
            let per = FRAGMENT_SLOTS as i64;
            let (l, s) = if d.value < per {
                (0, d.value)
            } else {
                (d.value / per, 0)
            };
            lanes = lanes.with_leaf(k, Int::fixed(l));
            slots = slots.with_leaf(k, Int::fixed(s));
        }
        k += 1;
    }
    let lanes = ok(CuteLayout::new(*base.shape(), lanes), "a register tile");
    let slots = ok(CuteLayout::new(*base.shape(), slots), "a register tile");
    let (fb, fl, fs) = (flat(base), flat(&lanes), flat(&slots));
    let mut x = 0;
    while x < 256 {
        let at = [x % 16, x / 16];
        let (l, s) = (flat_offset(&fl, &at), flat_offset(&fs, &at));
        assert!(
            l < WARP_SIZE as i64
                && s < FRAGMENT_SLOTS as i64
                && l * FRAGMENT_SLOTS as i64 + s == flat_offset(&fb, &at),
            "a base tile must split into a lane part and a slot part"
        );
        x += 1;
    }
    (
        flat(&padded_product(outer, &lanes, 0)),
        flat(&padded_product(outer, &slots, FRAGMENT_SLOTS as i64)),
    )
}

/// A base tile's layout from its text (the table on [`BaseTile`]; a
/// constant of the crate, valid).
const fn base_tile(text: &str) -> CuteLayout {
    ok(CuteLayout::parse(text), "a base tile")
}

// Follows microsoft/TileFusion@ddc570d96e2fcda2bceb518dab6878d5ee5daba7: include/cell/copy/global_to_register.hpp (operand slots),
// include/cell/copy/shared_to_register.hpp (RegToSharedStorerImpl:
// accumulator slots), include/cell/compute/gemm.hpp (mma register use); and
// NVIDIA/cutlass@7107b05535f8977f5ecb9d01ee203205b1fd9bc4: include/cute/atom/mma_traits_sm80.hpp (SM80_16x8x16 A/B/CLayout).
macro_rules! impl_base_tile {
    ($ty:ident, $col_major:literal, $acc:literal, $layout:literal) => {
        impl Shape2 for $ty {
            const ROWS: usize = 16;
            const COLS: usize = 16;
        }

        impl CuteType for $ty {
            const RESULT: Result<AnyLayout, Verdict> = Ok(AnyLayout::Plain(base_tile($layout)));
        }

        impl Layout2 for $ty {}

        impl BaseTile for $ty {
            const COL_MAJOR: bool = $col_major;
            const ACCUMULATOR: bool = $acc;
        }
    };
}

impl_base_tile!(
    BaseTileRowMajor,
    false,
    false,
    "((_8,_2),(_2,_4,_2)):((_32,_2),(_1,_8,_4))"
);
impl_base_tile!(
    BaseTileColMajor,
    true,
    false,
    "((_2,_4,_2),(_8,_2)):((_1,_8,_4),(_32,_2))"
);
impl_base_tile!(
    AccTileRowMajor,
    false,
    true,
    "((_8,_2),(_2,_4,_2)):((_32,_2),(_1,_8,_4))"
);
impl_base_tile!(
    AccTileColMajor,
    true,
    true,
    "((_2,_4,_2),(_8,_2)):((_1,_8,_2),(_32,_4))"
);

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
            .field("accumulator", &B::ACCUMULATOR)
            .field("layout", &format_args!("{}", L::LAYOUT))
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
    pub const REGS: usize = FRAGMENT_SLOTS * L::COSIZE;

    /// The warp tile's `(i, j) → lane` and `(i, j) → register` layouts (for
    /// [`owner`](Self::owner)): the base tile's layout split into its lane
    /// part (`offset / 8`) and slot part (`offset mod 8`), each blocked over
    /// `L` — the lane ignoring the base tile, the register `8·L(bi, bj)`
    /// further on.
    const OWNER: (Flat, Flat) = owner_layouts(&B::LAYOUT.layout, &L::LAYOUT.layout);

    /// Returns the register index of `slot` of base tile `(bi, bj)`.
    #[inline(always)]
    #[must_use]
    pub fn reg(bi: usize, bj: usize, slot: usize) -> usize {
        debug_assert!(slot < FRAGMENT_SLOTS, "RegTile: slot out of range");
        L::offset(bi, bj) * FRAGMENT_SLOTS + slot
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
        let owner = const { &Self::OWNER };
        (
            flat_offset(&owner.0, &[i, j]) as usize,
            flat_offset(&owner.1, &[i, j]) as usize,
        )
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
        N == FRAGMENT_SLOTS * L::COSIZE,
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

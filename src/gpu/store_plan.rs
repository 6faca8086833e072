//! The register→shared store of an accumulator: which lane writes which
//! pieces of a warp's register tile where, and at what bank-conflict degree.
//!
//! An `mma.m16n8k16` accumulator holds two consecutive elements per pair of
//! slots (`c0, c1` / `c2, c3` of each `n8` half): a lane stores them with one
//! 4-byte (`f16`) or 8-byte (`f32`) shared-memory access, a *piece*.
//! TileFusion's `RegToSharedStorer` does so piece by piece, base tile by base
//! tile; this plan says where each piece goes.

use core::marker::PhantomData;
use core::mem::size_of;

use super::banks::access_degree;
use super::matrix::{vector_run, Layout2};
use super::reg_tile::{base_tile_element, BaseTile, RegTile, FRAGMENT_SLOTS, WARP_SIZE};
use super::tile::Storage;
use super::warp_region::{origins, region_extent, warp_coords, MAX_WARPS};
use super::warp_reuse::{Cont, WarpReuse};
use crate::types::cute_index::flat;

/// Pieces a lane stores per base tile: slots `2k, 2k + 1` for `k < 4`.
pub const PIECES: usize = FRAGMENT_SLOTS / 2;

/// How the warps of `W` store their accumulator register tiles — grids `L`
/// of base tiles `B` of elements `T` — into a shared tile laid out by `S`,
/// sharing it as `R` says (TileFusion's `RegToSharedStorer`).
///
/// Warp `(wr, wc)` writes its region of the shared tile (`16·L::ROWS ×
/// 16·L::COLS`, split among the warps as its [`CopyPlan`](super::CopyPlan)
/// splits it). For base tile `(i, j)` lane `l`
/// writes [`PIECES`] pieces: piece `k` is slots `2k, 2k + 1`, two elements
/// adjacent along a row (row-major accumulator) or a column (column-major),
/// which must be contiguous in `S` (checked at compile time).
///
/// [`CONFLICTS`](Self::CONFLICTS) is the bank-conflict degree of the
/// stores, counted at compile time: for each warp, base tile and piece, the
/// 32 lanes' `2·size_of::<T>()`-byte accesses as shared memory serves them
/// (128 bytes per wavefront; 1: conflict-free).
///
/// # Examples
///
/// A 2×2-warp GEMM writing its `f32` accumulators (each warp 2×2 base
/// tiles) into a 64×64 row-major shared tile:
///
/// ```
/// use tilelayout::gpu::{AccTileRowMajor, RowMajor, StorePlan};
/// type P = StorePlan<RowMajor<64, 64>, AccTileRowMajor, RowMajor<2, 2>, RowMajor<2, 2>, f32>;
/// // warp 3 = (1, 1) writes rows 32.., columns 32..; lane 5 (group 1,
/// // thread 1) writes piece 0 of base tile (0, 1) at row 33, columns 50, 51
/// assert_eq!(P::piece_at(1, 1, 5, 0, 1, 0), (33, 50));
/// assert_eq!(P::address(3, 5, 0, 1, 0), Some(33 * 64 + 50));
/// // rows are 256 bytes apart: a half-warp's 8-byte pieces are 4 rows of
/// // 32 bytes in the same 8 banks
/// assert_eq!(P::CONFLICTS, 4);
/// ```
///
/// # Compile-time errors
///
/// Only accumulators are stored this way:
///
/// ```compile_fail,E0277
/// use tilelayout::gpu::{BaseTileRowMajor, RowMajor, StorePlan};
/// type P = StorePlan<RowMajor<16, 16>, BaseTileRowMajor, RowMajor<1, 1>, RowMajor<1, 1>, f32>;
/// let _ = P::CONFLICTS;
/// ```
pub struct StorePlan<S, B, L, W, T, R = Cont>(Phantom<(S, B, L, W, T, R)>);

/// A marker that owns nothing and is `Send + Sync` whatever `T` is.
type Phantom<T> = PhantomData<fn() -> T>;

impl<S, B, L, W, T, R> core::fmt::Debug for StorePlan<S, B, L, W, T, R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("StorePlan")
    }
}

/// An accumulator base tile: what an `mma` leaves in registers and a
/// [`StorePlan`] writes out.
pub trait Accumulator: BaseTile {}

impl Accumulator for super::AccTileRowMajor {}
impl Accumulator for super::AccTileColMajor {}

impl<S, B, L, W, T, R> StorePlan<S, B, L, W, T, R>
where
    S: Layout2,
    B: Accumulator,
    L: Layout2,
    W: Layout2,
    T: Copy,
    R: WarpReuse,
{
    /// Rows of a warp's region.
    pub const REGION_ROWS: usize = region_extent(S::ROWS, W::ROWS, R::SPLIT_ROWS);
    /// Columns of a warp's region.
    pub const REGION_COLS: usize = region_extent(S::COLS, W::COLS, R::SPLIT_COLS);

    /// The origin of each warp's region, warp `(wr, wc)` at `wr·W::COLS + wc`
    /// (at most 64 warps).
    const ORIGINS: [(usize, usize); MAX_WARPS] = origins(
        (W::ROWS, W::COLS),
        (Self::REGION_ROWS, Self::REGION_COLS),
        (R::SPLIT_ROWS, R::SPLIT_COLS),
    );

    /// Bytes of one piece (two elements).
    pub const PIECE_BYTES: usize = 2 * size_of::<T>();

    const CHECK: () = {
        assert!(
            S::ROWS.is_multiple_of(W::ROWS) && S::COLS.is_multiple_of(W::COLS),
            "StorePlan requires the warp layout W to divide the shared tile"
        );
        assert!(
            W::ROWS * W::COLS <= MAX_WARPS,
            "StorePlan supports at most 64 warps"
        );
        assert!(
            Self::REGION_ROWS == 16 * L::ROWS && Self::REGION_COLS == 16 * L::COLS,
            "StorePlan requires the register tile (16·L::ROWS × 16·L::COLS) to be exactly a warp's region of the shared tile"
        );
        let run = vector_run(&S::LAYOUT, if B::COL_MAJOR { 0 } else { 1 });
        assert!(
            run.is_multiple_of(2),
            "StorePlan requires each piece (two elements along the accumulator's rows, or columns if column-major) to be contiguous and aligned in the shared tile"
        );
        assert!(
            matches!(Self::PIECE_BYTES, 4 | 8 | 16),
            "StorePlan requires 2-, 4- or 8-byte elements (pieces of 4, 8 or 16 bytes)"
        );
    };

    /// Returns the shared-tile coordinates of the first element of piece
    /// `k` that `lane` of warp `(wr, wc)` stores for base tile `(i, j)`.
    #[inline(always)]
    #[must_use]
    pub fn piece_at(
        wr: usize,
        wc: usize,
        lane: usize,
        i: usize,
        j: usize,
        k: usize,
    ) -> (usize, usize) {
        let () = Self::CHECK;
        let (r0, c0) = Self::ORIGINS[wr * W::COLS + wc];
        let (r, c) = B::element(lane, 2 * k);
        (r0 + 16 * i + r, c0 + 16 * j + c)
    }

    /// Returns the shared-memory element offset of piece `k` that `lane` of
    /// `warp` stores for base tile `(i, j)`, or `None` if `warp` is not a
    /// warp of `W`.
    #[must_use]
    pub fn address(warp: usize, lane: usize, i: usize, j: usize, k: usize) -> Option<usize> {
        let (wr, wc) = warp_coords::<W>(warp)?;
        let (r, c) = Self::piece_at(wr, wc, lane, i, j, k);
        Some(S::offset(r, c))
    }

    /// The bank-conflict degree of the stores (1: conflict-free).
    pub const CONFLICTS: usize = {
        let () = Self::CHECK;
        let f = flat(&S::LAYOUT.layout);
        let mut worst = 0;
        let mut w = 0;
        while w < W::ROWS * W::COLS {
            let (r0, c0) = Self::ORIGINS[w];
            let mut t = 0;
            while t < L::ROWS * L::COLS * PIECES {
                let (i, j, k) = (t / PIECES / L::COLS, t / PIECES % L::COLS, t % PIECES);
                let mut at = [(0, 0); WARP_SIZE];
                let mut lane = 0;
                while lane < WARP_SIZE {
                    let (r, c) = element_of::<B>(lane, 2 * k);
                    at[lane] = (r0 + 16 * i + r, c0 + 16 * j + c);
                    lane += 1;
                }
                let d = access_degree(&S::LAYOUT, &f, &at, size_of::<T>(), Self::PIECE_BYTES);
                if d > worst {
                    worst = d;
                }
                t += 1;
            }
            w += 1;
        }
        worst
    };

    /// Stores warp `warp`'s accumulators `regs` (one [`RegTile`] per lane)
    /// into `shared`, piece by piece, base tile by base tile, as the plan
    /// says; returns `false` (writing nothing) if `warp` is not a warp of
    /// `W`.
    ///
    /// # Panics
    ///
    /// If `shared` is shorter than `S::COSIZE` elements.
    #[track_caller]
    pub fn run<D: Storage<Elem = T>>(
        warp: usize,
        regs: &[RegTile<D, B, L>; WARP_SIZE],
        shared: &mut [T],
    ) -> bool {
        let Some((wr, wc)) = warp_coords::<W>(warp) else {
            return false;
        };
        let shared = &mut shared[..S::COSIZE];
        for i in 0..L::ROWS {
            for j in 0..L::COLS {
                for k in 0..PIECES {
                    for (lane, r) in regs.iter().enumerate() {
                        let (row, col) = Self::piece_at(wr, wc, lane, i, j, k);
                        let at = S::offset(row, col);
                        shared[at] = r.get(i, j, 2 * k);
                        shared[at + 1] = r.get(i, j, 2 * k + 1);
                    }
                }
            }
        }
        true
    }
}

/// [`BaseTile::element`] in a `const` context: the same fold of the
/// layout's right inverse.
const fn element_of<B: BaseTile>(lane: usize, slot: usize) -> (usize, usize) {
    base_tile_element(&B::ELEMENT_OF, lane, slot)
}

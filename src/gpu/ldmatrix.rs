//! `ldmatrix.x4`: the shared-memory row each lane hands the instruction, per
//! operand base tile of a warp's register tile.
//!
//! `ldmatrix.sync.aligned.x4.m8n8.shared.b16` loads four 8×8 matrices of
//! 16-bit elements; lanes `8q .. 8q + 8` give the addresses of the 8 rows
//! (16 bytes each) of matrix `q`, and lane `l` receives, in register `q`,
//! elements `2(l%4), 2(l%4)+1` of row `l/4` of matrix `q`. TileFusion's
//! shared→register loader (`SharedToRegLoader`) arranges the lanes 16×2
//! column-major so that the four matrices of a 16×16 operand tile come back
//! in the slot order of [`BaseTileRowMajor`] / [`BaseTileColMajor`].

use core::marker::PhantomData;

use super::banks::access_degree;
use super::ldmatrix_sim::{ldmatrix, LdMatrixError};
use super::matrix::Layout2;
use super::reg_tile::RegTile;
use super::reg_tile::{BaseTile, BaseTileColMajor, BaseTileRowMajor, WARP_SIZE};
use super::tile::StorageMut;
use super::warp_region::{origins, region_extent, region_origin, warp_coords, MAX_WARPS};
use super::warp_reuse::{Cont, WarpReuse};
use crate::types::cute_index::flat;

/// Bytes of an `ldmatrix` element (`.b16`).
const B16: usize = 2;

/// An operand base tile: one a warp loads with `ldmatrix.x4` and feeds to
/// `mma` as `A` or `B` (the accumulator tiles are not operands).
pub trait Operand: BaseTile {
    /// Returns the base-tile coordinates of the first element of the 16-byte
    /// row lane `lane` gives `ldmatrix.x4`; the row's 8 elements run along
    /// the tile's row (row-major) or column (column-major).
    ///
    /// Row-major: lane `l` gives row `l % 16`, columns `8·(l / 16) ..`;
    /// column-major: column `l % 16`, rows `8·(l / 16) ..`.
    fn ldmatrix_row(lane: usize) -> (usize, usize);
}

// Follows microsoft/TileFusion@ddc570d96e2fcda2bceb518dab6878d5ee5daba7: include/cell/copy/copy_atom.hpp (LoadMatBase lane
// layout), include/cell/copy/shared_to_register.hpp (SharedToRegLoaderImpl).
/// [`Operand::ldmatrix_row`] as a `const fn` of the orientation.
#[inline(always)]
const fn ldmatrix_row_of(col_major: bool, lane: usize) -> (usize, usize) {
    let (line, half) = (lane % 16, (lane / 16) * 8);
    if col_major {
        (half, line)
    } else {
        (line, half)
    }
}

impl Operand for BaseTileRowMajor {
    #[inline(always)]
    fn ldmatrix_row(lane: usize) -> (usize, usize) {
        debug_assert!(lane < WARP_SIZE);
        ldmatrix_row_of(false, lane)
    }
}

impl Operand for BaseTileColMajor {
    #[inline(always)]
    fn ldmatrix_row(lane: usize) -> (usize, usize) {
        debug_assert!(lane < WARP_SIZE);
        ldmatrix_row_of(true, lane)
    }
}

/// The `ldmatrix.x4` addresses of a warp loading its register tile — a
/// grid `L` of operand base tiles `B` — from a shared tile laid out by `S`,
/// warps arranged by `W` and sharing the tile as `R` says (TileFusion's
/// `SharedToRegLoader<RegTile<B, L>, W, R>`).
///
/// Warp `(wr, wc)` reads the region of the shared tile its
/// [`CopyPlan`](super::CopyPlan) with the same `W` and `R` would: `16·L::ROWS
/// × 16·L::COLS` elements at [`region_origin`](Self::region_origin). For
/// base tile `(i, j)` lane `l` gives the offset of its row
/// ([`Operand::ldmatrix_row`]); [`issue`](Self::issue) is TileFusion's order
/// of the `ldmatrix` calls.
///
/// [`CONFLICTS`](Self::CONFLICTS) is the shared-memory bank conflict degree
/// of the loads (1: conflict-free), counted at compile time.
///
/// # Examples
///
/// Operand `A` of a GEMM: a 64×64 half tile, 2×2 warps that share rows:
///
/// ```
/// use half::f16;
/// use tilelayout::gpu::{BaseTileRowMajor, Bytes128, LdMatrix, RowMajor, RowReuseCont, SwizzledRowMajor};
/// type Plain = LdMatrix<RowMajor<64, 64>, BaseTileRowMajor, RowMajor<2, 4>, RowMajor<2, 2>, RowReuseCont>;
/// type Swz = LdMatrix<
///     SwizzledRowMajor<f16, Bytes128, 64, 64>, BaseTileRowMajor, RowMajor<2, 4>, RowMajor<2, 2>, RowReuseCont,
/// >;
/// // warp 3 = (1, 1) reads rows 32..64, all columns; lane 17 of base tile
/// // (0, 1) gives row 32 + 1, columns 16 + 8 ..
/// assert_eq!(Plain::address(3, 17, 0, 1), 33 * 64 + 24);
/// // rows 128 bytes long: every matrix's 8 rows fall in the same banks
/// assert_eq!(Plain::CONFLICTS, 8);
/// assert_eq!(Swz::CONFLICTS, 1);
/// ```
///
/// # Compile-time errors
///
/// The register tiles must cover the warp's region:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{BaseTileRowMajor, Cont, LdMatrix, RowMajor};
/// type P = LdMatrix<RowMajor<64, 64>, BaseTileRowMajor, RowMajor<2, 2>, RowMajor<1, 1>, Cont>;
/// let _ = P::address(0, 0, 0, 0);
/// ```
pub struct LdMatrix<S, B, L, W, R = Cont>(Phantom<(S, B, L, W, R)>);

/// A marker that owns nothing and is `Send + Sync` whatever `T` is.
type Phantom<T> = PhantomData<fn() -> T>;

impl<S, B, L, W, R> core::fmt::Debug for LdMatrix<S, B, L, W, R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("LdMatrix")
    }
}

impl<S: Layout2, B: Operand, L: Layout2, W: Layout2, R: WarpReuse> LdMatrix<S, B, L, W, R> {
    /// Rows of a warp's region.
    pub const REGION_ROWS: usize = region_extent(S::ROWS, W::ROWS, R::SPLIT_ROWS);
    /// Columns of a warp's region.
    pub const REGION_COLS: usize = region_extent(S::COLS, W::COLS, R::SPLIT_COLS);

    const CHECK: () = {
        assert!(
            S::ROWS.is_multiple_of(W::ROWS) && S::COLS.is_multiple_of(W::COLS),
            "LdMatrix requires the warp layout W to divide the shared tile"
        );
        assert!(
            Self::REGION_ROWS == 16 * L::ROWS && Self::REGION_COLS == 16 * L::COLS,
            "LdMatrix requires the register tile (16·L::ROWS × 16·L::COLS) to be exactly a warp's region of the shared tile"
        );
    };

    /// Number of `ldmatrix.x4` a warp issues: one per base tile.
    pub const ISSUES: usize = {
        let () = Self::CHECK;
        L::ROWS * L::COLS
    };

    /// Returns the base tile `(i, j)` filled by the `k`-th `ldmatrix`:
    /// row by row for row-major operands, column by column for
    /// column-major ones (TileFusion's loop order).
    #[inline(always)]
    #[must_use]
    pub fn issue(k: usize) -> (usize, usize) {
        if B::COL_MAJOR {
            (k % L::ROWS, k / L::ROWS)
        } else {
            (k / L::COLS, k % L::COLS)
        }
    }

    /// Returns the first row and column of warp `(wr, wc)`'s region.
    #[inline(always)]
    #[must_use]
    pub fn region_origin(wr: usize, wc: usize) -> (usize, usize) {
        region_origin(
            (wr, wc),
            (Self::REGION_ROWS, Self::REGION_COLS),
            (R::SPLIT_ROWS, R::SPLIT_COLS),
        )
    }

    /// Returns the shared-tile coordinates of the row `lane` of warp
    /// `(wr, wc)` gives `ldmatrix` for base tile `(i, j)`.
    #[inline(always)]
    #[must_use]
    pub fn row_at(wr: usize, wc: usize, lane: usize, i: usize, j: usize) -> (usize, usize) {
        let () = Self::CHECK;
        let (r0, c0) = Self::region_origin(wr, wc);
        let (r, c) = B::ldmatrix_row(lane);
        (r0 + 16 * i + r, c0 + 16 * j + c)
    }

    /// Returns the shared-memory offset (in elements) of the row `lane` of
    /// warp `warp` gives `ldmatrix` for base tile `(i, j)`.
    ///
    /// # Panics
    ///
    /// If `warp` is not a warp of `W`.
    #[track_caller]
    #[must_use]
    pub fn address(warp: usize, lane: usize, i: usize, j: usize) -> usize {
        let Some((wr, wc)) = warp_coords::<W>(warp) else {
            panic!("LdMatrix: warp {warp} is not a warp of the warp layout")
        };
        let (r, c) = Self::row_at(wr, wc, lane, i, j);
        S::offset(r, c)
    }

    /// Runs warp `(wr, wc)`'s loads on the CPU as the hardware would: for
    /// each base tile, in [`issue`](Self::issue) order, every lane gives
    /// [`ldmatrix`] its row's offset in `shared` and receives four
    /// registers of two elements, which become slots `2q, 2q + 1` of that
    /// base tile in its [`RegTile`].
    ///
    /// # Errors
    ///
    /// A row outside `shared` (shorter than the layout) or not 16-byte
    /// aligned, as [`ldmatrix`] reports it.
    pub fn run<T: Copy, D: StorageMut<Elem = T>>(
        (wr, wc): (usize, usize),
        shared: &[T],
        regs: &mut [RegTile<D, B, L>; WARP_SIZE],
    ) -> Result<(), LdMatrixError> {
        let () = Self::CHECK;
        for k in 0..Self::ISSUES {
            let (i, j) = Self::issue(k);
            let rows: [usize; WARP_SIZE] = core::array::from_fn(|lane| {
                let (r, c) = Self::row_at(wr, wc, lane, i, j);
                S::offset(r, c)
            });
            let got = ldmatrix::<T, 4>(shared, &rows, false)?;
            for (lane, r) in regs.iter_mut().enumerate() {
                for (q, pair) in got[lane].iter().enumerate() {
                    r.set(i, j, 2 * q, pair[0]);
                    r.set(i, j, 2 * q + 1, pair[1]);
                }
            }
        }
        Ok(())
    }

    /// The bank conflict degree of the loads: the most wavefronts one of the
    /// 8×8 matrices of an `ldmatrix.x4` needs (1: conflict-free), over every
    /// warp and base tile, for 16-bit elements.
    pub const CONFLICTS: usize = {
        let () = Self::CHECK;
        assert!(
            W::ROWS * W::COLS <= MAX_WARPS,
            "LdMatrix supports at most 64 warps"
        );
        let starts = origins(
            (W::ROWS, W::COLS),
            (Self::REGION_ROWS, Self::REGION_COLS),
            (R::SPLIT_ROWS, R::SPLIT_COLS),
        );
        let f = flat(&S::LAYOUT.layout);
        let mut worst = 0;
        let mut w = 0;
        while w < W::ROWS * W::COLS {
            let (r0, c0) = starts[w];
            let mut t = 0;
            while t < L::ROWS * L::COLS {
                let (i, j) = (t / L::COLS, t % L::COLS);
                let mut at = [(0, 0); WARP_SIZE];
                let mut lane = 0;
                while lane < WARP_SIZE {
                    let (r, c) = ldmatrix_row_of(B::COL_MAJOR, lane);
                    at[lane] = (r0 + 16 * i + r, c0 + 16 * j + c);
                    lane += 1;
                }
                // each 8×8 matrix: 8 lanes' 16-byte rows of .b16
                let d = access_degree(&S::LAYOUT, &f, &at, B16, 16);
                if d > worst {
                    worst = d;
                }
                t += 1;
            }
            w += 1;
        }
        worst
    };
}

//! A CPU SGEMM written with the GPU tile types, and its hand-indexed twin.
//!
//! [`sgemm`] is the shape of a TileFusion GEMM kernel, run on the CPU: for
//! each 64×64 block of `C` (one thread block), it walks `K` in steps of 32;
//! each step copies a 64×32 tile of `A` and a 32×64 tile of `B` from global
//! memory into swizzled "shared" buffers (4 warps, 128-bit vectors), loads
//! them into 16×16 register base tiles (warp layouts 2×1 for `A`, 1×2 for
//! `B`), and emulates the tensor-core MMA on the register tiles of 4 warps
//! (2×2, 32×32 of `C` each); finally the warps store `C` back.
//!
//! [`sgemm_hand_indexed`] is the same kernel, step for step, with the index
//! arithmetic written out by hand; it exists to measure what the types cost
//! (`benches/gpu_sgemm.rs`) and as a second implementation to test against.
//!
//! Shapes are const generics (as in TileFusion, where kernels are compiled per
//! shape); `M` and `N` must be multiples of 64 and `K` of 32, checked at
//! compile time by the tile iterators.

use super::copy_plan::copy;
use super::matrix::{Layout2, RowMajor, Shape2};
use super::reg_tile::{
    AccTileRowMajor, BaseTile, BaseTileColMajor, BaseTileRowMajor, RegTile, FRAGMENT_SLOTS,
    WARP_SIZE,
};
use super::shared::{Bytes128, SwizzledRowMajor};
use super::tile::{GlobalTile, SharedTile, Storage, StorageMut};

/// Rows of `C` per thread block.
pub const BLOCK_M: usize = 64;
/// Columns of `C` per thread block.
pub const BLOCK_N: usize = 64;
/// Depth of one step along `K`.
pub const BLOCK_K: usize = 32;

/// One lane's registers for a warp's 32×32 `A` tile (2×2 base tiles).
type RegA = RegTile<[f32; 32], BaseTileRowMajor, RowMajor<2, 2>>;
/// One lane's registers for a warp's 32×32 `B` tile (`K × N`, column-major
/// base tiles: the `B` operand of `mma.m16n8k16`).
type RegB = RegTile<[f32; 32], BaseTileColMajor, RowMajor<2, 2>>;
/// One lane's registers for a warp's 32×32 `C` tile.
type RegC = RegTile<[f32; 32], AccTileRowMajor, RowMajor<2, 2>>;

/// The swizzled shared layout of the `A` tile.
type SharedA = SwizzledRowMajor<f32, Bytes128, BLOCK_M, BLOCK_K>;
/// The swizzled shared layout of the `B` tile.
type SharedB = SwizzledRowMajor<f32, Bytes128, BLOCK_K, BLOCK_N>;

/// Emulates one warp-wide 16×16×16 tensor-core MMA (two `mma.m16n8k16`):
/// base tile `c` of the warp's `C` registers += base tile `a` of `A` times
/// base tile `b` of `B`.
///
/// Each argument is the registers of the 32 lanes of one warp and the
/// `(row, col)` of a base tile in their [`RegTile`]. The emulation gathers the
/// three base tiles through their lane/slot maps, multiplies (row by row,
/// `k` ascending), and scatters `C` back.
///
/// ```
/// use tilelayout::gpu::{mma, BaseTile, BaseTileColMajor, BaseTileRowMajor, RegTile, RowMajor};
/// type A = RegTile<[f32; 8], BaseTileRowMajor, RowMajor<1, 1>>;
/// type B = RegTile<[f32; 8], BaseTileColMajor, RowMajor<1, 1>>;
/// // A = identity, B(k, n) = k + n
/// let a: [A; 32] = core::array::from_fn(|lane| {
///     A::new(core::array::from_fn(|s| {
///         let (i, j) = BaseTileRowMajor::element(lane, s);
///         if i == j { 1.0 } else { 0.0 }
///     }))
/// });
/// let b: [B; 32] = core::array::from_fn(|lane| {
///     B::new(core::array::from_fn(|s| {
///         let (k, n) = BaseTileColMajor::element(lane, s);
///         (k + n) as f32
///     }))
/// });
/// let mut c = [A::filled(0.0); 32];
/// mma(&mut c, (0, 0), &a, (0, 0), &b, (0, 0));
/// let (lane, reg) = A::owner(3, 5);
/// assert_eq!(c[lane].get(0, 0, reg), 8.0);
/// ```
#[allow(clippy::too_many_arguments)] // reason: three (registers, base tile) pairs, as in mma(d, a, b, c)
#[inline(always)]
pub fn mma<DC, BC, LC, DA, BA, LA, DB, BB, LB>(
    c: &mut [RegTile<DC, BC, LC>; WARP_SIZE],
    (ci, cj): (usize, usize),
    a: &[RegTile<DA, BA, LA>; WARP_SIZE],
    (ai, ak): (usize, usize),
    b: &[RegTile<DB, BB, LB>; WARP_SIZE],
    (bk, bj): (usize, usize),
) where
    DC: StorageMut<Elem = f32>,
    DA: Storage<Elem = f32>,
    DB: Storage<Elem = f32>,
    BC: BaseTile,
    BA: BaseTile,
    BB: BaseTile,
    LC: Layout2,
    LA: Layout2,
    LB: Layout2,
{
    let mut da = [[0.0f32; 16]; 16];
    let mut db = [[0.0f32; 16]; 16];
    let mut dc = [[0.0f32; 16]; 16];
    for lane in 0..WARP_SIZE {
        for slot in 0..FRAGMENT_SLOTS {
            let (i, j) = BA::element(lane, slot);
            da[i][j] = a[lane].get(ai, ak, slot);
            let (i, j) = BB::element(lane, slot);
            db[i][j] = b[lane].get(bk, bj, slot);
            let (i, j) = BC::element(lane, slot);
            dc[i][j] = c[lane].get(ci, cj, slot);
        }
    }
    dense_mma(&mut dc, &da, &db);
    for (lane, regs) in c.iter_mut().enumerate() {
        for slot in 0..FRAGMENT_SLOTS {
            let (i, j) = BC::element(lane, slot);
            regs.set(ci, cj, slot, dc[i][j]);
        }
    }
}

/// `c += a · b` for 16×16 row-major arrays, rows of `c` accumulated with `k`
/// ascending.
#[inline(always)]
fn dense_mma(c: &mut [[f32; 16]; 16], a: &[[f32; 16]; 16], b: &[[f32; 16]; 16]) {
    for (ci, ai) in c.iter_mut().zip(a) {
        for (x, bk) in ai.iter().zip(b) {
            for (cij, bkj) in ci.iter_mut().zip(bk) {
                *cij += x * bkj;
            }
        }
    }
}

/// `C = A · B` for row-major `A` (`M × K`), `B` (`K × N`), `C` (`M × N`),
/// written with the tile types.
///
/// # Panics
///
/// If a slice is shorter than its matrix.
///
/// # Compile-time errors
///
/// `M` and `N` must be multiples of 64 and `K` of 32:
///
/// ```compile_fail,E0080
/// let a = vec![0.0f32; 100 * 64];
/// let b = vec![0.0f32; 64 * 64];
/// let mut c = vec![0.0f32; 100 * 64];
/// tilelayout::gpu::sgemm::<100, 64, 64>(&a, &b, &mut c);
/// ```
///
/// # Examples
///
/// ```
/// let (m, n, k) = (64, 128, 96);
/// let a: Vec<f32> = (0..m * k).map(|x| (x % 7) as f32).collect();
/// let b: Vec<f32> = (0..k * n).map(|x| (x % 5) as f32).collect();
/// let mut c = vec![0.0f32; m * n];
/// tilelayout::gpu::sgemm::<64, 128, 96>(&a, &b, &mut c);
/// let c_3_5: f32 = (0..k).map(|p| a[3 * k + p] * b[p * n + 5]).sum();
/// assert_eq!(c[3 * n + 5], c_3_5);
/// ```
pub fn sgemm<const M: usize, const N: usize, const K: usize>(a: &[f32], b: &[f32], c: &mut [f32]) {
    let a = GlobalTile::<_, RowMajor<M, K>>::new(a).tiles::<BLOCK_M, BLOCK_K>();
    let b = GlobalTile::<_, RowMajor<K, N>>::new(b).tiles::<BLOCK_K, BLOCK_N>();
    let mut c = GlobalTile::<_, RowMajor<M, N>>::new(c).tiles::<BLOCK_M, BLOCK_N>();

    let mut sa_buf = [0.0f32; BLOCK_M * BLOCK_K];
    let mut sb_buf = [0.0f32; BLOCK_K * BLOCK_N];
    // registers: A per warp row, B per warp column (shared by the warps of a
    // row/column, as TileFusion's warp reuse does), C per warp
    let mut ra = [[RegA::filled(0.0); WARP_SIZE]; 2];
    let mut rb = [[RegB::filled(0.0); WARP_SIZE]; 2];
    let mut rc = [[RegC::filled(0.0); WARP_SIZE]; 4];
    type Warps = RowMajor<2, 2>;

    for bi in 0..a.rows() {
        for bj in 0..b.cols() {
            for regs in rc.iter_mut().flatten() {
                regs.regs_mut().fill(0.0);
            }
            for kt in 0..a.cols() {
                let (ga, gb) = (a.get(bi, kt), b.get(kt, bj));
                let mut sa = SharedTile::<_, SharedA>::new(&mut sa_buf);
                let mut sb = SharedTile::<_, SharedB>::new(&mut sb_buf);
                copy::<Warps, _, _>(&ga, &mut sa);
                copy::<Warps, _, _>(&gb, &mut sb);
                copy::<RowMajor<2, 1>, _, _>(&sa, &mut ra);
                copy::<RowMajor<1, 2>, _, _>(&sb, &mut rb);
                for (wr, a_regs) in ra.iter().enumerate().take(Warps::ROWS) {
                    for (wc, b_regs) in rb.iter().enumerate().take(Warps::COLS) {
                        let c_regs = &mut rc[Warps::offset(wr, wc)];
                        for ci in 0..2 {
                            for cj in 0..2 {
                                for kk in 0..2 {
                                    mma(c_regs, (ci, cj), a_regs, (ci, kk), b_regs, (kk, cj));
                                }
                            }
                        }
                    }
                }
            }
            copy::<Warps, _, _>(&rc, &mut c.get_mut(bi, bj));
        }
    }
}

// ---------------------------------------------------------------------------
// The same kernel, indexed by hand
// ---------------------------------------------------------------------------

/// `Swizzle<3, 2, 3>`, by hand.
/// The swizzled `f32` shared tile at 128 bytes, row stride `stride`: chunk
/// `col / 4` of row `r` is stored at chunk `(col / 4) ^ (r % 8)`.
#[inline(always)]
fn swz(r: usize, col: usize, stride: usize) -> usize {
    r * stride + (col ^ ((r % 8) << 2))
}

#[inline(always)]
fn owner_row(i: usize, j: usize) -> (usize, usize) {
    let (a, b) = (i % 16, j % 16);
    let lane = (a % 8) * 4 + (b % 8) / 2;
    let slot = b % 2 + 2 * (a / 8) + 4 * (b / 8);
    (lane, ((i / 16) * 2 + j / 16) * 8 + slot)
}

/// Lane and register of element `(i, j)` of a 32×32 warp tile of 2×2
/// column-major base tiles, by hand.
#[inline(always)]
fn owner_col(i: usize, j: usize) -> (usize, usize) {
    let (a, b) = (i % 16, j % 16);
    let lane = (b % 8) * 4 + (a % 8) / 2;
    let slot = a % 2 + 2 * (b / 8) + 4 * (a / 8);
    (lane, ((i / 16) * 2 + j / 16) * 8 + slot)
}

/// [`mma`] for raw registers, by hand.
#[inline(always)]
fn mma_hand(
    c: &mut [[f32; 32]; WARP_SIZE],
    (ci, cj): (usize, usize),
    a: &[[f32; 32]; WARP_SIZE],
    (ai, ak): (usize, usize),
    b: &[[f32; 32]; WARP_SIZE],
    (bk, bj): (usize, usize),
) {
    let mut da = [[0.0f32; 16]; 16];
    let mut db = [[0.0f32; 16]; 16];
    let mut dc = [[0.0f32; 16]; 16];
    for lane in 0..WARP_SIZE {
        for slot in 0..FRAGMENT_SLOTS {
            let i = lane / 4 + 8 * ((slot / 2) % 2);
            let j = 2 * (lane % 4) + slot % 2 + 8 * (slot / 4);
            da[i][j] = a[lane][(ai * 2 + ak) * 8 + slot];
            db[j][i] = b[lane][(bk * 2 + bj) * 8 + slot];
            dc[i][j] = c[lane][(ci * 2 + cj) * 8 + slot];
        }
    }
    dense_mma(&mut dc, &da, &db);
    for (lane, regs) in c.iter_mut().enumerate() {
        for slot in 0..FRAGMENT_SLOTS {
            let i = lane / 4 + 8 * ((slot / 2) % 2);
            let j = 2 * (lane % 4) + slot % 2 + 8 * (slot / 4);
            regs[(ci * 2 + cj) * 8 + slot] = dc[i][j];
        }
    }
}

/// [`sgemm`] with the index arithmetic written by hand: the same copies (the
/// same vectors in the same order — vector `t = step · 32 + lane` of a
/// warp's region, walked line by line as the copy plans' executor does —
/// and the same swizzle), the same register layout and the same MMA order,
/// so it computes bit-identical results.
///
/// # Panics
///
/// If a slice is shorter than its matrix, or `M`, `N` are not multiples of
/// 64 or `K` of 32.
pub fn sgemm_hand_indexed<const M: usize, const N: usize, const K: usize>(
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
) {
    assert!(M.is_multiple_of(64) && N.is_multiple_of(64) && K.is_multiple_of(32));
    assert!(a.len() >= M * K && b.len() >= K * N && c.len() >= M * N);
    let mut sa = [0.0f32; 64 * 32];
    let mut sb = [0.0f32; 32 * 64];
    let mut ra = [[[0.0f32; 32]; WARP_SIZE]; 2];
    let mut rb = [[[0.0f32; 32]; WARP_SIZE]; 2];
    let mut rc = [[[0.0f32; 32]; WARP_SIZE]; 4];

    for bi in 0..M / 64 {
        for bj in 0..N / 64 {
            for regs in rc.iter_mut().flatten() {
                regs.fill(0.0);
            }
            for kt in 0..K / 32 {
                // global → shared, A: 2×2 warps of 32×16, 4 vectors a row
                for wr in 0..2 {
                    for wc in 0..2 {
                        for line in 0..32 {
                            for k in 0..4 {
                                let (r, col) = (wr * 32 + line, wc * 16 + k * 4);
                                let src = (bi * 64 + r) * K + kt * 32 + col;
                                let dst = swz(r, col, 32);
                                sa[dst..dst + 4].copy_from_slice(&a[src..src + 4]);
                            }
                        }
                    }
                }
                // global → shared, B: 2×2 warps of 16×32, 8 vectors a row
                for wr in 0..2 {
                    for wc in 0..2 {
                        for line in 0..16 {
                            for k in 0..8 {
                                let (r, col) = (wr * 16 + line, wc * 32 + k * 4);
                                let src = (kt * 32 + r) * N + bj * 64 + col;
                                let dst = swz(r, col, 64);
                                sb[dst..dst + 4].copy_from_slice(&b[src..src + 4]);
                            }
                        }
                    }
                }
                // shared → registers, A: 2×1 warps of 32×32
                for (wr, regs) in ra.iter_mut().enumerate() {
                    for line in 0..32 {
                        for k in 0..8 {
                            let (r, col) = (wr * 32 + line, k * 4);
                            let src = swz(r, col, 32);
                            for (u, v) in sa[src..src + 4].iter().enumerate() {
                                let (l, reg) = owner_row(r % 32, col + u);
                                regs[l][reg] = *v;
                            }
                        }
                    }
                }
                // shared → registers, B: 1×2 warps of 32×32
                for (wc, regs) in rb.iter_mut().enumerate() {
                    for line in 0..32 {
                        for k in 0..8 {
                            let (r, col) = (line, wc * 32 + k * 4);
                            let src = swz(r, col, 64);
                            for (u, v) in sb[src..src + 4].iter().enumerate() {
                                let (l, reg) = owner_col(r, col % 32 + u);
                                regs[l][reg] = *v;
                            }
                        }
                    }
                }
                // MMA
                for (wr, a_regs) in ra.iter().enumerate() {
                    for (wc, b_regs) in rb.iter().enumerate() {
                        let c_regs = &mut rc[wr * 2 + wc];
                        for ci in 0..2 {
                            for cj in 0..2 {
                                for kk in 0..2 {
                                    mma_hand(c_regs, (ci, cj), a_regs, (ci, kk), b_regs, (kk, cj));
                                }
                            }
                        }
                    }
                }
            }
            // registers → global, C: 2×2 warps of 32×32
            for wr in 0..2 {
                for wc in 0..2 {
                    let regs = &rc[wr * 2 + wc];
                    for line in 0..32 {
                        for k in 0..8 {
                            let (r, col) = (wr * 32 + line, wc * 32 + k * 4);
                            let mut buf = [0.0f32; 16];
                            for (u, v) in buf[..4].iter_mut().enumerate() {
                                let (l, reg) = owner_row(r % 32, col % 32 + u);
                                *v = regs[l][reg];
                            }
                            let dst = (bi * 64 + r) * N + bj * 64 + col;
                            c[dst..dst + 4].copy_from_slice(&buf[..4]);
                        }
                    }
                }
            }
        }
    }
}

//! Copy plans: every element of the tile is moved exactly once (once per
//! sharing warp with a reuse mode), by a lane of the warp whose region holds
//! it, in 128-bit vectors that are contiguous in both memory tiles; the
//! executor moves real data between global, swizzled shared and register
//! tiles, in the plan's order. (The lane maps themselves are compared with
//! TileFusion's loader in `gpu_tilefusion.rs`.) Under Miri (interpreted), a
//! sample: a few lanes of each step (`LANES`), coordinates at
//! `gpu_common::coords`, and some cases natively only.

mod gpu_common;

use core::mem::size_of;

use gpu_common::{coords, lanes, Lcg};
use half::f16;
use tilelayout::gpu::{
    copy, Axis, BaseTileColMajor, BaseTileRowMajor, BlockedRowMajor, Bytes128, Bytes64, ColMajor,
    ColReuseCont, CopyDest, CopyEndpoint, CopyPlan, CopySource, GlobalTile, Layout2, RegTile,
    RowMajor, RowReuseCont, Shape2, SharedTile, SwizzledColMajor, SwizzledRowMajor, TileShape,
    Vector, WARP_SIZE,
};

/// Checks the plan's postcondition: each element of the `ROWS × COLS` tile
/// is in exactly one vector (natively; under Miri, the sampled lanes'
/// vectors are checked one by one); the vector belongs to the warp whose region
/// holds it; vectors are 16 bytes along `AXIS`; consecutive lanes of a step
/// take consecutive vectors of a line (row vectors) or consecutive columns
/// (column vectors) except where they wrap. Returns the number of vectors
/// (counted natively).
fn check_plan<S, D, W>() -> usize
where
    S: CopyEndpoint,
    D: CopyEndpoint<Elem = S::Elem>,
    W: Layout2,
{
    type P<S, D, W> = CopyPlan<S, D, W>;
    let (rows, cols) = (P::<S, D, W>::ROWS, P::<S, D, W>::COLS);
    let (rr, rc) = (P::<S, D, W>::REGION_ROWS, P::<S, D, W>::REGION_COLS);
    let len = P::<S, D, W>::VECTOR;
    assert_eq!(len * size_of::<S::Elem>(), 16);
    assert_eq!(P::<S, D, W>::WARPS, W::ROWS * W::COLS);
    assert_eq!((rr * W::ROWS, rc * W::COLS), (rows, cols));
    let mut moved = vec![0u32; rows * cols];
    let mut vectors = 0;
    for warp in 0..P::<S, D, W>::WARPS {
        let (wr, wc) = P::<S, D, W>::warp_coords(warp);
        assert_eq!(W::offset(wr, wc), warp);
        // lanes along the fastest-varying position of a base tile
        let minor = match P::<S, D, W>::AXIS {
            Axis::Row => P::<S, D, W>::BASE_COLS / len,
            Axis::Col => P::<S, D, W>::BASE_COLS,
        };
        for step in 0..P::<S, D, W>::STEPS + 1 {
            let mut prev: Option<Vector> = None;
            let mut last = None;
            for lane in lanes() {
                // (neighbours only: the sample skips lanes under Miri)
                if last.is_some_and(|l| l + 1 != lane) {
                    prev = None;
                }
                last = Some(lane);
                let Some(v) = P::<S, D, W>::vector(warp, lane, step) else {
                    assert!(
                        lane == WARP_SIZE || step == P::<S, D, W>::STEPS,
                        "an idle lane"
                    );
                    prev = None;
                    continue;
                };
                assert!(lane < WARP_SIZE && step < P::<S, D, W>::STEPS);
                assert_eq!(P::<S, D, W>::vector_at(wr, wc, lane, step), Some(v));
                assert_eq!((v.len, v.axis), (len, P::<S, D, W>::AXIS));
                vectors += 1;
                for t in 0..v.len {
                    let (i, j) = v.element(t);
                    // inside this warp's region
                    assert_eq!((i / rr, j / rc), (wr, wc), "vector {v:?} of warp {warp}");
                    moved[i * cols + j] += 1;
                }
                // the next lane continues along the line (row vectors) or
                // takes the next column (column vectors)
                if let Some(p) = prev {
                    let next = match v.axis {
                        Axis::Row => (p.row, p.col + len),
                        Axis::Col => (p.row, p.col + 1),
                    };
                    assert!(
                        (v.row, v.col) == next || lane % minor == 0,
                        "{p:?} then {v:?}"
                    );
                }
                prev = Some(v);
            }
        }
    }
    assert!(moved.iter().all(|&m| m <= 1), "some element moved twice");
    if !cfg!(miri) {
        assert!(
            moved.iter().all(|&m| m == 1),
            "some element not moved exactly once"
        );
        assert_eq!(vectors * len, rows * cols);
        assert_eq!(vectors, P::<S, D, W>::VECTORS * P::<S, D, W>::WARPS);
    }
    P::<S, D, W>::VECTORS * P::<S, D, W>::WARPS
}

type G<T, L, V = L> = GlobalTile<&'static [T], L, V>;
type S<T, L> = SharedTile<&'static mut [T], L>;
type Regs<T, const N: usize, B, L, const WARPS: usize> =
    [[RegTile<[T; N], B, L>; WARP_SIZE]; WARPS];

#[test]
fn plans_cover_every_element_once() {
    // global → swizzled shared, the four formats, several warp layouts
    check_plan::<
        G<f32, RowMajor<64, 64>>,
        S<f32, SwizzledRowMajor<f32, Bytes128, 64, 64>>,
        RowMajor<2, 2>,
    >();
    if cfg!(miri) {
        // the same planner on other types: natively only (under Miri the
        // executor tests run plans of the other kinds)
        return;
    }
    check_plan::<
        G<f32, RowMajor<64, 64>>,
        S<f32, SwizzledRowMajor<f32, Bytes64, 64, 64>>,
        ColMajor<2, 2>,
    >();
    check_plan::<
        G<f16, RowMajor<64, 64>>,
        S<f16, SwizzledRowMajor<f16, Bytes128, 64, 64>>,
        RowMajor<4, 1>,
    >();
    check_plan::<
        G<f16, RowMajor<32, 64>>,
        S<f16, SwizzledRowMajor<f16, Bytes64, 32, 64>>,
        RowMajor<1, 2>,
    >();
    check_plan::<
        G<f16, RowMajor<64, 64>>,
        S<f16, SwizzledRowMajor<f16, Bytes128, 64, 64>>,
        RowMajor<2, 4>,
    >();
    // a sub-tile of a wider global matrix
    check_plan::<
        G<f32, RowMajor<128, 256>, TileShape<64, 32>>,
        S<f32, SwizzledRowMajor<f32, Bytes128, 64, 32>>,
        RowMajor<2, 2>,
    >();
    // column-major tiles move along columns
    assert_eq!(
        CopyPlan::<
            G<f32, ColMajor<64, 64>>,
            S<f32, SwizzledColMajor<f32, Bytes128, 64, 64>>,
            RowMajor<2, 2>,
        >::AXIS,
        Axis::Col
    );
    check_plan::<
        G<f32, ColMajor<64, 64>>,
        S<f32, SwizzledColMajor<f32, Bytes128, 64, 64>>,
        RowMajor<2, 2>,
    >();
    // other element sizes: 16 bytes of u8 and of f64
    check_plan::<G<u8, RowMajor<32, 64>>, S<u8, RowMajor<32, 64>>, RowMajor<2, 2>>();
    check_plan::<
        G<f64, RowMajor<16, 16>>,
        S<f64, BlockedRowMajor<16, 16, RowMajor<4, 4>>>,
        RowMajor<1, 1>,
    >();
    // 16×16 floats, one warp: two 8×16 base tiles
    assert_eq!(
        check_plan::<G<f32, RowMajor<16, 16>>, S<f32, RowMajor<16, 16>>, RowMajor<1, 1>>(),
        64
    );
    assert_eq!(
        CopyPlan::<G<f32, RowMajor<16, 16>>, S<f32, RowMajor<16, 16>>, RowMajor<1, 1>>::STEPS,
        2
    );
    // tall and thin
    check_plan::<G<f32, RowMajor<128, 8>>, S<f32, RowMajor<128, 8>>, ColMajor<4, 1>>();
    // shared → registers and registers → global
    check_plan::<
        S<f32, SwizzledRowMajor<f32, Bytes128, 64, 32>>,
        Regs<f32, 32, BaseTileRowMajor, RowMajor<2, 2>, 2>,
        RowMajor<2, 1>,
    >();
    check_plan::<
        S<f16, SwizzledRowMajor<f16, Bytes128, 32, 64>>,
        Regs<f16, 32, BaseTileColMajor, RowMajor<2, 2>, 2>,
        RowMajor<1, 2>,
    >();
    check_plan::<
        Regs<f32, 32, BaseTileRowMajor, RowMajor<2, 2>, 4>,
        G<f32, RowMajor<64, 64>>,
        RowMajor<2, 2>,
    >();
    // registers to registers: no memory side, rows by default
    check_plan::<
        Regs<f32, 8, BaseTileRowMajor, RowMajor<1, 1>, 1>,
        Regs<f32, 8, BaseTileColMajor, RowMajor<1, 1>, 1>,
        RowMajor<1, 1>,
    >();
}

#[test]
fn memory_vectors_are_contiguous_in_both_tiles() {
    fn check<T: Copy + Default + 'static, LS: Layout2, LD: Layout2, W: Layout2>() {
        type P<T, LS, LD, W> = CopyPlan<G<T, LS>, S<T, LD>, W>;
        let warps = P::<T, LS, LD, W>::WARPS;
        for warp in 0..warps {
            for step in 0..P::<T, LS, LD, W>::STEPS {
                for lane in lanes() {
                    let Some(v) = P::<T, LS, LD, W>::vector(warp, lane, step) else {
                        continue;
                    };
                    for l in [
                        <LS as Layout2>::offset as fn(usize, usize) -> usize,
                        LD::offset,
                    ] {
                        let first = l(v.row, v.col);
                        assert_eq!(first % v.len, 0);
                        for t in 0..v.len {
                            let (i, j) = v.element(t);
                            assert_eq!(l(i, j), first + t);
                        }
                    }
                }
            }
        }
    }
    check::<f32, RowMajor<64, 64>, SwizzledRowMajor<f32, Bytes128, 64, 64>, RowMajor<2, 2>>();
    check::<f16, RowMajor<64, 64>, SwizzledRowMajor<f16, Bytes128, 64, 64>, RowMajor<4, 1>>();
    check::<f16, ColMajor<64, 64>, SwizzledColMajor<f16, Bytes64, 64, 64>, RowMajor<2, 2>>();
}

/// Random f16 values that survive a round trip exactly.
fn random_f16(n: usize, seed: u64) -> Vec<f16> {
    let mut rng = Lcg(seed);
    (0..n).map(|_| f16::from_f32(rng.next_f32())).collect()
}

#[cfg_attr(miri, ignore = "12,288 moves; its Miri twin is the small tile")]
#[test]
fn executor_moves_data_global_shared_registers_and_back() {
    type RegA = RegTile<[f16; 32], BaseTileRowMajor, RowMajor<2, 2>>;
    type Swz = SwizzledRowMajor<f16, Bytes128, 64, 64>;
    // a 128×128 global matrix; we move its tile (1, 0) of 64×64
    let src = random_f16(128 * 128, 7);
    let tiles = GlobalTile::<_, RowMajor<128, 128>>::new(&src[..]).tiles::<64, 64>();
    let g = tiles.get(1, 0);

    // global → shared (4 warps, 2×2)
    let mut sbuf = vec![f16::ZERO; 64 * 64];
    let mut s = SharedTile::<_, Swz>::new(&mut sbuf[..]);
    copy::<RowMajor<2, 2>, _, _>(&g, &mut s);
    for (i, j) in coords(64, 64) {
        assert_eq!(s.get(i, j), src[(64 + i) * 128 + j]);
        assert_eq!(s.storage()[Swz::offset(i, j)], src[(64 + i) * 128 + j]);
    }

    // shared → registers: 4 warps in 2×2, each a 32×32 register tile
    let mut regs = [[RegA::filled(f16::ZERO); WARP_SIZE]; 4];
    copy::<RowMajor<2, 2>, _, _>(&s, &mut regs);
    for (warp, lanes) in regs.iter().enumerate() {
        let (wr, wc) = (warp / 2, warp % 2);
        for lane in gpu_common::lanes().into_iter().filter(|&l| l < WARP_SIZE) {
            let r = &lanes[lane];
            for bi in 0..2 {
                for bj in 0..2 {
                    for slot in 0..8 {
                        let (i, j) = RegA::element(lane, bi, bj, slot);
                        let want = src[(64 + wr * 32 + i) * 128 + wc * 32 + j];
                        assert_eq!(r.get(bi, bj, slot), want, "warp {warp} lane {lane}");
                    }
                }
            }
        }
    }

    // registers → global, into tile (0, 1) of a fresh matrix
    let mut out = vec![f16::ZERO; 128 * 128];
    let mut out_tiles = GlobalTile::<_, RowMajor<128, 128>>::new(&mut out[..]).tiles::<64, 64>();
    copy::<RowMajor<2, 2>, _, _>(&regs, &mut out_tiles.get_mut(0, 1));
    for (i, j) in coords(128, 128) {
        let want = if i < 64 && j >= 64 {
            src[(64 + i) * 128 + j - 64]
        } else {
            f16::ZERO
        };
        assert_eq!(out[i * 128 + j], want, "({i}, {j})");
    }
}

/// The moves of `executor_moves_data_global_shared_registers_and_back` on
/// one warp's 16 × 16 tile, small enough to run whole under Miri: global →
/// shared → registers → global.
#[test]
fn executor_moves_a_small_tile_global_shared_registers_and_back() {
    type Reg = RegTile<[f32; 8], BaseTileRowMajor, RowMajor<1, 1>>;
    type W = RowMajor<1, 1>;
    let src: Vec<f32> = (0..16 * 16).map(|x| x as f32).collect();
    let g = GlobalTile::<_, RowMajor<16, 16>>::new(&src[..]);
    let mut sbuf = vec![-1.0f32; 16 * 16];
    let mut s = SharedTile::<_, RowMajor<16, 16>>::new(&mut sbuf[..]);
    copy::<W, _, _>(&g, &mut s);
    assert_eq!(sbuf, src);
    let s = SharedTile::<_, RowMajor<16, 16>>::new(&sbuf[..]);
    let mut regs = [[Reg::filled(-1.0); WARP_SIZE]; 1];
    copy::<W, _, _>(&s, &mut regs);
    for (lane, r) in regs[0].iter().enumerate() {
        for slot in 0..8 {
            let (i, j) = Reg::element(lane, 0, 0, slot);
            assert_eq!(r.get(0, 0, slot), (i * 16 + j) as f32, "lane {lane}");
        }
    }
    let mut out = vec![-1.0f32; 16 * 16];
    copy::<W, _, _>(
        &regs,
        &mut GlobalTile::<_, RowMajor<16, 16>>::new(&mut out[..]),
    );
    assert_eq!(out, src);
}

#[test]
fn executor_transposes_between_base_tile_kinds() {
    // registers → registers: a row-major base tile into a column-major one
    // is the same matrix, held by other lanes
    type Row = RegTile<[u32; 8], BaseTileRowMajor, RowMajor<1, 1>>;
    type Col = RegTile<[u32; 8], BaseTileColMajor, RowMajor<1, 1>>;
    let a: [[Row; WARP_SIZE]; 1] = [core::array::from_fn(|lane| {
        Row::new(core::array::from_fn(|s| {
            let (i, j) = Row::element(lane, 0, 0, s);
            (i * 16 + j) as u32
        }))
    })];
    let mut b = [[Col::filled(0); WARP_SIZE]; 1];
    copy::<RowMajor<1, 1>, _, _>(&a, &mut b);
    for (lane, regs) in b[0].iter().enumerate() {
        for s in 0..8 {
            let (i, j) = Col::element(lane, 0, 0, s);
            assert_eq!(regs.get(0, 0, s), (i * 16 + j) as u32);
        }
    }
}

#[test]
fn plans_run_between_any_endpoints() {
    // the trait methods, directly: a global vector read and a shared write
    let src: Vec<f32> = (0..64).map(|x| x as f32).collect();
    let g = GlobalTile::<_, RowMajor<8, 8>>::new(&src[..]);
    let v = Vector {
        row: 2,
        col: 4,
        len: 4,
        axis: Axis::Row,
    };
    let mut staging = [0.0; 16];
    let vals = g.load(0, &v, &mut staging).to_vec();
    assert_eq!(vals, [20.0, 21.0, 22.0, 23.0]);
    let mut buf = [0.0f32; 64];
    let mut s = SharedTile::<_, ColMajor<8, 8>>::new(&mut buf[..]);
    let w = Vector {
        row: 4,
        col: 2,
        len: 4,
        axis: Axis::Col,
    };
    s.write_vector(0, &w, &vals);
    assert_eq!(&buf[2 * 8 + 4..2 * 8 + 8], &[20.0, 21.0, 22.0, 23.0]);
    assert_eq!(
        <GlobalTile<&[f32], RowMajor<8, 8>> as CopyEndpoint>::WARPS,
        None
    );
    assert_eq!(<TileShape<8, 8> as Shape2>::ROWS, 8);
}

#[test]
#[should_panic(expected = "warp out of range")]
fn plans_reject_unknown_warps() {
    let _ = CopyPlan::<G<f32, RowMajor<32, 32>>, S<f32, RowMajor<32, 32>>, RowMajor<2, 2>>::vector(
        4, 0, 0,
    );
}

/// A memory-like endpoint of `R × C` `u32` that records the vectors a plan
/// moves: as a source it hands out the vector's index in its log, as a
/// destination it logs `(warp, vector)`. `RUN` is its row run; its column
/// run is 4 (a vector of `u32`), so with `RUN = 1` the plan takes columns.
struct Recorder<const R: usize, const C: usize, const RUN: usize> {
    log: std::cell::RefCell<Vec<(usize, Vector)>>,
}

impl<const R: usize, const C: usize, const RUN: usize> Recorder<R, C, RUN> {
    fn new() -> Self {
        Self {
            log: std::cell::RefCell::new(Vec::new()),
        }
    }
}

impl<const R: usize, const C: usize, const RUN: usize> CopyEndpoint for Recorder<R, C, RUN> {
    type Elem = u32;
    const ROWS: usize = R;
    const COLS: usize = C;
    const WARPS: Option<usize> = None;
    const ROW_RUN: usize = RUN;
    const COL_RUN: usize = 4;
}

impl<const R: usize, const C: usize, const RUN: usize> CopySource for Recorder<R, C, RUN> {
    fn read(&self, _warp: usize, i: usize, j: usize) -> u32 {
        (i * C + j) as u32
    }

    fn load<'a>(&'a self, warp: usize, v: &Vector, staging: &'a mut [u32; 16]) -> &'a [u32] {
        let mut log = self.log.borrow_mut();
        staging[..v.len].fill(log.len() as u32);
        log.push((warp, *v));
        &staging[..v.len]
    }
}

impl<const R: usize, const C: usize, const RUN: usize> CopyDest for Recorder<R, C, RUN> {
    fn write_vector(&mut self, warp: usize, v: &Vector, src: &[u32]) {
        let log = self.log.get_mut();
        // the source's vector `src[0]` arrives as this destination's next one
        assert_eq!(src.len(), v.len);
        assert!(src.iter().all(|&s| s as usize == log.len()));
        log.push((warp, *v));
    }
}

/// The order the plan documents: warps by their coordinates in the warp
/// grid (row by row), then step by step, lane by lane.
#[allow(clippy::type_complexity)] // reason: generic test helper
fn documented_order<S, D, W>() -> Vec<(usize, Vector)>
where
    S: CopyEndpoint,
    D: CopyEndpoint<Elem = S::Elem>,
    W: Layout2,
{
    type P<S, D, W> = CopyPlan<S, D, W>;
    let mut order = Vec::new();
    for wr in 0..W::ROWS {
        for wc in 0..W::COLS {
            let warp = W::offset(wr, wc);
            for step in 0..P::<S, D, W>::STEPS {
                for lane in 0..WARP_SIZE {
                    if let Some(v) = P::<S, D, W>::vector(warp, lane, step) {
                        order.push((warp, v));
                    }
                }
            }
        }
    }
    order
}

fn check_run_order<const R: usize, const C: usize, const RUN: usize, W: Layout2>() {
    type Rec<const R: usize, const C: usize, const RUN: usize> = Recorder<R, C, RUN>;
    let src = Rec::<R, C, RUN>::new();
    let mut dst = Rec::<R, C, RUN>::new();
    CopyPlan::<Rec<R, C, RUN>, Rec<R, C, RUN>, W>::run(&src, &mut dst);
    let want = documented_order::<Rec<R, C, RUN>, Rec<R, C, RUN>, W>();
    assert!(!want.is_empty());
    assert_eq!(src.log.into_inner(), want, "loads");
    assert_eq!(dst.log.into_inner(), want, "writes");
}

#[test]
fn executor_moves_the_plans_vectors_warp_by_warp_step_by_step_lane_by_lane() {
    // rows: several steps a warp, 4 and 8 vectors a line
    check_run_order::<64, 32, 4, RowMajor<2, 2>>();
    // columns (a run of 1 along rows is refused, so columns are taken)
    check_run_order::<64, 8, 1, RowMajor<1, 2>>();
    if cfg!(miri) {
        return; // the same executor on other shapes: natively only
    }
    check_run_order::<32, 64, 4, ColMajor<2, 2>>();
    // several base tiles across a region (lines capped at 128 bytes)
    check_run_order::<8, 128, 4, RowMajor<1, 1>>();
    check_run_order::<16, 16, 4, RowMajor<1, 1>>();
    check_run_order::<64, 64, 1, RowMajor<2, 1>>();
}

/// With a reuse mode, the warps sharing rows (columns) move the same
/// elements: each element is moved once per sharing warp, and every warp's
/// register tile ends up with its whole band.
#[cfg_attr(miri, ignore = "the reuse modes' plans run under Miri in gpu_ldmatrix")]
#[test]
fn reuse_modes_share_bands() {
    type Swz = SwizzledRowMajor<f16, Bytes128, 64, 64>;
    type RegA = RegTile<[f16; 64], BaseTileRowMajor, RowMajor<2, 4>>;
    type RegB = RegTile<[f16; 64], BaseTileColMajor, RowMajor<4, 2>>;
    type PA<'a> =
        CopyPlan<SharedTile<&'a [f16], Swz>, [[RegA; WARP_SIZE]; 4], RowMajor<2, 2>, RowReuseCont>;
    type PB<'a> =
        CopyPlan<SharedTile<&'a [f16], Swz>, [[RegB; WARP_SIZE]; 4], RowMajor<2, 2>, ColReuseCont>;
    assert_eq!((PA::REGION_ROWS, PA::REGION_COLS), (32, 64));
    assert_eq!((PB::REGION_ROWS, PB::REGION_COLS), (64, 32));
    // both regions are those of TileFusion's warp offsets
    assert_eq!(PA::region_origin(1, 1), (32, 0));
    assert_eq!(PB::region_origin(1, 1), (0, 32));
    // the base tile is still the even split's (32 columns = 64 bytes a line)
    assert_eq!((PA::BASE_ROWS, PA::BASE_COLS), (8, 32));

    let src = random_f16(64 * 64, 11);
    let mut buf = vec![f16::ZERO; 64 * 64];
    let mut s = SharedTile::<_, Swz>::new(&mut buf[..]);
    for i in 0..64 {
        for j in 0..64 {
            s.set(i, j, src[i * 64 + j]);
        }
    }
    let s = SharedTile::<_, Swz>::new(&buf[..]);
    let mut a = [[RegA::filled(f16::ZERO); WARP_SIZE]; 4];
    let mut b = [[RegB::filled(f16::ZERO); WARP_SIZE]; 4];
    PA::run(&s, &mut a);
    PB::run(&s, &mut b);
    let mut moved = vec![0u32; 64 * 64];
    for warp in 0..4 {
        let (wr, wc) = (warp / 2, warp % 2);
        for lane in lanes().into_iter().filter(|&l| l < WARP_SIZE) {
            for bi in 0..2 {
                for bj in 0..4 {
                    for slot in 0..8 {
                        let (i, j) = RegA::element(lane, bi, bj, slot);
                        assert_eq!(a[warp][lane].get(bi, bj, slot), src[(32 * wr + i) * 64 + j]);
                    }
                }
            }
            for bi in 0..4 {
                for bj in 0..2 {
                    for slot in 0..8 {
                        let (i, j) = RegB::element(lane, bi, bj, slot);
                        assert_eq!(b[warp][lane].get(bi, bj, slot), src[i * 64 + 32 * wc + j]);
                    }
                }
            }
            for step in 0..PA::STEPS {
                let v = PA::vector(warp, lane, step).expect("a vector");
                for t in 0..v.len {
                    let (i, j) = v.element(t);
                    moved[i * 64 + j] += 1;
                }
            }
        }
    }
    // each element by the two warps of its row band (under Miri, of the
    // sampled lanes: at most by those two)
    assert!(moved.iter().all(|&m| m == 2 || cfg!(miri) && m < 2));
}

/// The conflict degree of the plans' shared-memory side, counted by the
/// types, against a count written here from the bank model: 8 lanes at a
/// time, 16-byte accesses, 8 groups of 4 banks.
#[cfg_attr(miri, ignore = "counts the vectors of every lane: natively only")]
#[test]
fn shared_conflicts() {
    fn count<T: 'static + Copy + Default, L: Layout2, D: Layout2, W: Layout2>() -> usize {
        type P<T, L, D, W> = CopyPlan<G<T, L>, S<T, D>, W>;
        let mut worst = 0;
        for warp in 0..P::<T, L, D, W>::WARPS {
            for step in 0..P::<T, L, D, W>::STEPS {
                for phase in 0..4 {
                    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); 8];
                    for lane in 8 * phase..8 * phase + 8 {
                        let v = P::<T, L, D, W>::vector(warp, lane, step).unwrap();
                        let addr = D::offset(v.row, v.col) * size_of::<T>() / 16;
                        if !groups[addr % 8].contains(&addr) {
                            groups[addr % 8].push(addr);
                        }
                    }
                    worst = worst.max(groups.iter().map(Vec::len).max().unwrap());
                }
            }
        }
        assert_eq!(P::<T, L, D, W>::SHARED_CONFLICTS, Some(worst));
        worst
    }
    // row-major: 8 lanes cover 128 contiguous bytes, swizzled or not
    assert_eq!(
        count::<f32, RowMajor<64, 64>, RowMajor<64, 64>, RowMajor<2, 2>>(),
        1
    );
    assert_eq!(
        count::<f32, RowMajor<64, 64>, SwizzledRowMajor<f32, Bytes128, 64, 64>, RowMajor<2, 2>>(),
        1
    );
    // column-major f32: lanes 0–3 take columns 0–3 (256 bytes apart, the
    // same banks), lanes 4–7 the next 16 bytes of them
    assert_eq!(
        count::<f32, ColMajor<64, 64>, ColMajor<64, 64>, RowMajor<1, 1>>(),
        4
    );
    // … which the swizzle spreads, but TileFusion's lane order (4 columns,
    // then the next 16 bytes of the same columns) still pairs them up
    assert_eq!(
        count::<f32, ColMajor<64, 64>, SwizzledColMajor<f32, Bytes128, 64, 64>, RowMajor<1, 1>>(),
        2
    );
    assert_eq!(
        count::<f16, ColMajor<64, 64>, SwizzledColMajor<f16, Bytes64, 64, 64>, RowMajor<1, 1>>(),
        2
    );
    // no shared side
    assert_eq!(CopyPlan::<G<f32, RowMajor<8, 32>>, G<f32, RowMajor<8, 32>>, RowMajor<1, 1>>::SHARED_CONFLICTS, None);
}

//! `ldmatrix` simulated on the CPU against CuTe's copy traits (their
//! `DstLayout` evaluated by the core's algebra) and the PTX ISA's
//! `mma.m16n8k16` operand fragments; and `LdMatrix` plans run through it.
//!
//! CuTe's traits are NVIDIA/cutlass@474c1fd42eaaa652df47ecf3040f2e4118471e11
//! `include/cute/atom/copy_traits_sm75.hpp`: `DstLayout` maps (thread,
//! bit of the thread's registers) to a bit of the rows the lanes gave,
//! concatenated in lane order (128 bits a row).

mod gpu_common;

use gpu_common::{lanes, proptest_config};
use half::f16;
use proptest::prelude::*;
use tilelayout::algebra::CuteLayout;
use tilelayout::gpu::{
    ldmatrix, BaseTileColMajor, BaseTileRowMajor, Bytes128, ColMajor, ColReuseCont, LdMatrix,
    LdMatrixError, RegTile, RowMajor, RowReuseCont, SharedTile, SwizzledColMajor, SwizzledRowMajor,
    WARP_SIZE,
};

/// `(X, .trans, CuTe's DstLayout)` of the six `ldmatrix` copy atoms.
const ATOMS: [(usize, bool, &str); 6] = [
    (1, false, "(_32,_32):(_32,_1)"),              // SM75_U32x1_LDSM_N
    (2, false, "(_32,(_32,_2)):(_32,(_1,_1024))"), // SM75_U32x2_LDSM_N
    (4, false, "(_32,(_32,_4)):(_32,(_1,_1024))"), // SM75_U32x4_LDSM_N
    (1, true, "((_4,_8),(_16,_2)):((_256,_16),(_1,_128))"), // SM75_U16x2_LDSM_T
    (
        2,
        true,
        "((_4,_8),(_16,_2,_2)):((_256,_16),(_1,_128,_1024))",
    ), // SM75_U16x4_LDSM_T
    (
        4,
        true,
        "((_4,_8),(_16,_2,_4)):((_256,_16),(_1,_128,_1024))",
    ), // SM75_U16x8_LDSM_T
];

/// Runs `ldmatrix.x{X}` and returns `regs[lane][q][h]` as vectors.
fn run<const X: usize>(shared: &[u16], rows: &[usize; 32], trans: bool) -> Vec<Vec<[u16; 2]>> {
    ldmatrix::<u16, X>(shared, rows, trans)
        .unwrap()
        .iter()
        .map(|l| l.to_vec())
        .collect()
}

/// Checks every lane, register and half of one atom: element `h` of
/// register `q` of thread `t` is bits `16h .. 16h + 16` of value `q`, i.e.
/// CuTe's `DstLayout(t, 16h + 32q)`, a bit of row `bit / 128` (the row
/// lane `bit / 128` gave), element `(bit % 128) / 16` of it.
fn check_atom(x: usize, trans: bool, dst: &str, shared: &[u16], rows: &[usize; 32]) {
    let dst = CuteLayout::parse(dst).unwrap();
    let got = match x {
        1 => run::<1>(shared, rows, trans),
        2 => run::<2>(shared, rows, trans),
        _ => run::<4>(shared, rows, trans),
    };
    assert_eq!(got.len(), WARP_SIZE);
    for (t, regs) in got.iter().enumerate() {
        assert_eq!(regs.len(), x);
        for (q, reg) in regs.iter().enumerate() {
            for (h, &value) in reg.iter().enumerate() {
                let bit = dst.call((t + 32 * (16 * h + 32 * q)) as i64).unwrap() as usize;
                let want = shared[rows[bit / 128] + (bit % 128) / 16];
                assert_eq!(value, want, "x{x} trans {trans}: lane {t} reg {q}.{h}");
            }
        }
    }
}

proptest! {
    // (one case under Miri: each evaluates CuTe's layouts 896 times)
    #![proptest_config(proptest_config(256, 1))]
    #[test]
    fn simulator_is_cutes_copy_atoms(perm in Just((0..64usize).collect::<Vec<_>>()).prop_shuffle()) {
        // 32 distinct rows of 8 among 64, anywhere in shared memory
        let shared: Vec<u16> = (0..512).collect();
        let rows: [usize; 32] = core::array::from_fn(|l| 8 * perm[l]);
        for (x, trans, dst) in ATOMS {
            check_atom(x, trans, dst, &shared, &rows);
        }
    }
}

#[test]
fn bad_addresses_are_errors() {
    let shared = [0u16; 64];
    let mut rows = [0usize; 32];
    rows[3] = 12;
    assert_eq!(
        ldmatrix::<u16, 1>(&shared, &rows, false).unwrap_err(),
        LdMatrixError::Misaligned { lane: 3, start: 12 }
    );
    rows[3] = 0;
    rows[9] = 64;
    // lane 9 is ignored by .x1, read by .x2
    assert!(ldmatrix::<u16, 1>(&shared, &rows, false).is_ok());
    let e = ldmatrix::<u16, 2>(&shared, &rows, false).unwrap_err();
    assert_eq!(
        e,
        LdMatrixError::OutOfBounds {
            lane: 9,
            start: 64,
            len: 64
        }
    );
    assert!(e.to_string().contains("lane 9"));
    rows[9] = usize::MAX - 7;
    assert!(matches!(
        ldmatrix::<u16, 2>(&shared, &rows, false),
        Err(LdMatrixError::OutOfBounds { lane: 9, .. })
    ));
}

/// The PTX ISA's `mma.m16n8k16` `A` fragment (row-major 16×16): the
/// element lane `l` holds in slot `s` (`a0 .. a7`).
fn ptx_a(lane: usize, slot: usize) -> (usize, usize) {
    let (g, t) = (lane / 4, lane % 4);
    (g + 8 * ((slot / 2) % 2), 2 * t + slot % 2 + 8 * (slot / 4))
}

/// The column-major operand (`B`, K × N) of TileFusion's order: the
/// transpose of the row-major map (column `g`, rows `2t, 2t+1`; column + 8
/// in slots 2–3, rows + 8 in slots 4–5).
fn ptx_b(lane: usize, slot: usize) -> (usize, usize) {
    let (i, j) = ptx_a(lane, slot);
    (j, i)
}

type RegA = RegTile<[u16; 64], BaseTileRowMajor, RowMajor<2, 4>>;
type RegB = RegTile<[u16; 64], BaseTileColMajor, RowMajor<4, 2>>;

/// Shared tile of layout `S` holding `code(i, j) = i·64 + j`.
/// (`u16` codes: the 16-bit payload `ldmatrix` moves, exact up to 4095.)
fn filled<S: tilelayout::gpu::Layout2>() -> Vec<u16> {
    let mut buf = vec![0u16; S::COSIZE];
    let mut s = SharedTile::<_, S>::new(&mut buf[..]);
    for i in 0..64 {
        for j in 0..64 {
            s.set(i, j, (i * 64 + j) as u16);
        }
    }
    buf
}

/// The warps of the 2 × 2 grid the plans run (under Miri the last one; the
/// registers checked are those of `gpu_common::lanes`).
fn warps() -> Vec<(usize, usize)> {
    if cfg!(miri) {
        vec![(1, 1)]
    } else {
        vec![(0, 0), (0, 1), (1, 0), (1, 1)]
    }
}

fn run_a<S: tilelayout::gpu::Layout2>() {
    type P<S> = LdMatrix<S, BaseTileRowMajor, RowMajor<2, 4>, RowMajor<2, 2>, RowReuseCont>;
    let buf = filled::<S>();
    for (wr, wc) in warps() {
        let mut regs = [RegA::filled(0); WARP_SIZE];
        P::<S>::run((wr, wc), &buf, &mut regs).unwrap();
        for lane in lanes().into_iter().filter(|&l| l < WARP_SIZE) {
            let r = &regs[lane];
            for bi in 0..2 {
                for bj in 0..4 {
                    for slot in 0..8 {
                        let (i, j) = ptx_a(lane, slot);
                        let (i, j) = (32 * wr + 16 * bi + i, 16 * bj + j);
                        assert_eq!(r.get(bi, bj, slot) as usize, i * 64 + j);
                    }
                }
            }
        }
    }
}

fn run_b<S: tilelayout::gpu::Layout2>() {
    type P<S> = LdMatrix<S, BaseTileColMajor, RowMajor<4, 2>, RowMajor<2, 2>, ColReuseCont>;
    let buf = filled::<S>();
    for (wr, wc) in warps() {
        let mut regs = [RegB::filled(0); WARP_SIZE];
        P::<S>::run((wr, wc), &buf, &mut regs).unwrap();
        for lane in lanes().into_iter().filter(|&l| l < WARP_SIZE) {
            let r = &regs[lane];
            for bi in 0..4 {
                for bj in 0..2 {
                    for slot in 0..8 {
                        let (i, j) = ptx_b(lane, slot);
                        let (i, j) = (16 * bi + i, 32 * wc + 16 * bj + j);
                        assert_eq!(r.get(bi, bj, slot) as usize, i * 64 + j);
                    }
                }
            }
        }
    }
}

// (under Miri the swizzled layouts only: the plain ones run the same code)
#[test]
fn operand_a_plans_load_the_ptx_fragment() {
    run_a::<SwizzledRowMajor<f16, Bytes128, 64, 64>>();
    if !cfg!(miri) {
        run_a::<RowMajor<64, 64>>();
    }
}

#[test]
fn operand_b_plans_load_the_ptx_fragment() {
    run_b::<SwizzledColMajor<f16, Bytes128, 64, 64>>();
    if !cfg!(miri) {
        run_b::<ColMajor<64, 64>>();
    }
}

#[test]
fn a_short_shared_buffer_is_an_error() {
    type P =
        LdMatrix<RowMajor<64, 64>, BaseTileRowMajor, RowMajor<2, 4>, RowMajor<2, 2>, RowReuseCont>;
    let buf = vec![0u16; 64 * 40];
    let mut regs = [RegA::filled(0); WARP_SIZE];
    assert!(matches!(
        P::run((1, 0), &buf, &mut regs),
        Err(LdMatrixError::OutOfBounds { .. })
    ));
}

//! Accumulator store plans against the PTX ISA's `mma.m16n8k16` `C`
//! fragment: run them, every element lands once where the shared layout
//! says; and their conflict degree against a brute-force count. Under Miri
//! (interpreted), one warp's stores, checked at `gpu_common::coords`; the
//! brute-force count runs natively.

mod gpu_common;

use std::collections::{HashMap, HashSet};

use gpu_common::coords;
use tilelayout::gpu::{
    AccTileColMajor, AccTileRowMajor, ColMajor, Layout2, MatrixLayout, RegTile, RowMajor,
    StorePlan, PIECES, WARP_SIZE,
};

/// The PTX `C` fragment of two `n8` halves (row-major 16×16): `c0 .. c3`
/// of the first half in slots 0–3, of the second in 4–7.
fn ptx_c(lane: usize, slot: usize) -> (usize, usize) {
    let (g, t) = (lane / 4, lane % 4);
    (g + 8 * ((slot / 2) % 2), 2 * t + slot % 2 + 8 * (slot / 4))
}

/// TileFusion's column-major accumulator: column `g`, rows `2t, 2t+1`;
/// rows + 8 in slots 2–3, column + 8 in slots 4–5.
fn tf_c_col(lane: usize, slot: usize) -> (usize, usize) {
    let (g, t) = (lane / 4, lane % 4);
    (2 * t + slot % 2 + 8 * ((slot / 2) % 2), g + 8 * (slot / 4))
}

/// Brute-force bank-conflict degree: lanes in groups of `128 / bytes`,
/// the most distinct 4-byte words one of the 32 banks receives.
fn degree(addrs: &[usize], bytes: usize) -> usize {
    let mut worst = 0;
    for group in addrs.chunks(128 / bytes) {
        let mut banks: HashMap<usize, HashSet<usize>> = HashMap::new();
        for &a in group {
            for w in 0..bytes / 4 {
                let word = a / 4 + w;
                banks.entry(word % 32).or_default().insert(word);
            }
        }
        worst = worst.max(banks.values().map(HashSet::len).max().unwrap_or(0));
    }
    worst
}

type Warps = RowMajor<2, 2>;

fn check<S: Layout2, B: tilelayout::gpu::Accumulator>(spec: fn(usize, usize) -> (usize, usize)) {
    type Regs<B> = [RegTile<[f32; 32], B, RowMajor<2, 2>>; WARP_SIZE];
    type P<S, B> = StorePlan<S, B, RowMajor<2, 2>, Warps, f32>;
    let mut shared = vec![f32::NAN; S::COSIZE];
    // (under Miri the last warp's stores; the others' slots must stay NaN)
    let warps = if cfg!(miri) { 3..4 } else { 0..4 };
    for warp in warps.clone() {
        let (wr, wc) = (warp / 2, warp % 2);
        let regs: Regs<B> = core::array::from_fn(|lane| {
            let mut r = RegTile::filled(0.0);
            for bi in 0..2 {
                for bj in 0..2 {
                    for slot in 0..8 {
                        let (i, j) = spec(lane, slot);
                        let (i, j) = (32 * wr + 16 * bi + i, 32 * wc + 16 * bj + j);
                        r.set(bi, bj, slot, (i * 64 + j) as f32);
                    }
                }
            }
            r
        });
        assert!(P::<S, B>::run(warp, &regs, &mut shared));
    }
    for (i, j) in coords(64, 64) {
        let got = shared[S::offset(i, j)];
        if warps.contains(&(i / 32 * 2 + j / 32)) {
            assert_eq!(got, (i * 64 + j) as f32, "({i}, {j})");
        } else {
            assert!(got.is_nan(), "({i}, {j}) written by another warp");
        }
    }
    assert_eq!(P::<S, B>::address(4, 0, 0, 0, 0), None);
    if cfg!(miri) {
        return; // every lane's addresses: natively only
    }
    // the conflict degree, counted here from the plan's addresses
    let mut worst = 0;
    for warp in 0..4 {
        for bi in 0..2 {
            for bj in 0..2 {
                for k in 0..PIECES {
                    let addrs: Vec<usize> = (0..WARP_SIZE)
                        .map(|l| P::<S, B>::address(warp, l, bi, bj, k).unwrap() * 4)
                        .collect();
                    worst = worst.max(degree(&addrs, 8));
                }
            }
        }
    }
    assert_eq!(P::<S, B>::CONFLICTS, worst);
}

#[test]
fn row_major_accumulators() {
    check::<MatrixLayout<64, 64, 68, 1>, AccTileRowMajor>(ptx_c);
    if !cfg!(miri) {
        // (the same stores without padding: natively only)
        check::<RowMajor<64, 64>, AccTileRowMajor>(ptx_c);
    }
    assert_eq!(
        StorePlan::<RowMajor<64, 64>, AccTileRowMajor, RowMajor<2, 2>, Warps, f32>::CONFLICTS,
        4
    );
    // rows padded by 16 bytes: the 4 rows of a half-warp shift by 4 banks
    assert_eq!(
        StorePlan::<MatrixLayout<64, 64, 68, 1>, AccTileRowMajor, RowMajor<2, 2>, Warps, f32>::CONFLICTS,
        2
    );
}

#[test]
fn col_major_accumulators() {
    check::<ColMajor<64, 64>, AccTileColMajor>(tf_c_col);
}

#[test]
fn a_warp_outside_the_layout_writes_nothing() {
    type P = StorePlan<RowMajor<64, 64>, AccTileRowMajor, RowMajor<2, 2>, Warps, f32>;
    let regs = [RegTile::<[f32; 32], AccTileRowMajor, RowMajor<2, 2>>::filled(1.0); WARP_SIZE];
    let mut shared = vec![0.0f32; 64 * 64];
    assert!(!P::run(7, &regs, &mut shared));
    assert!(shared.iter().all(|&x| x == 0.0));
}

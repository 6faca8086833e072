//! The typed CPU SGEMM against a naive GEMM, on sizes drawn at random from
//! the instantiated set (shapes are const generics, as in TileFusion) and
//! random data; and the hand-indexed twin against the typed kernel, bit for
//! bit. Under Miri (interpreted) only the plan-order and length checks: the
//! smallest product is 2 × 131,072 multiply-adds, minutes interpreted (the
//! tiles and copy plans the kernels use run under Miri in the other gpu
//! suites).

mod gpu_common;

use gpu_common::Lcg;
use proptest::prelude::*;
use tilelayout::gpu::{sgemm, sgemm_hand_indexed, BLOCK_K, BLOCK_M, BLOCK_N};

type Kernel = fn(&[f32], &[f32], &mut [f32]);

/// `(M, N, K, typed, hand-indexed)` for every instantiated size: multiples
/// of the 64×64×32 block, square and not, one block and several.
const SIZES: &[(usize, usize, usize, Kernel, Kernel)] = &[
    (
        64,
        64,
        32,
        sgemm::<64, 64, 32>,
        sgemm_hand_indexed::<64, 64, 32>,
    ),
    (
        64,
        64,
        64,
        sgemm::<64, 64, 64>,
        sgemm_hand_indexed::<64, 64, 64>,
    ),
    (
        64,
        128,
        96,
        sgemm::<64, 128, 96>,
        sgemm_hand_indexed::<64, 128, 96>,
    ),
    (
        128,
        64,
        32,
        sgemm::<128, 64, 32>,
        sgemm_hand_indexed::<128, 64, 32>,
    ),
    (
        192,
        64,
        160,
        sgemm::<192, 64, 160>,
        sgemm_hand_indexed::<192, 64, 160>,
    ),
    (
        64,
        192,
        64,
        sgemm::<64, 192, 64>,
        sgemm_hand_indexed::<64, 192, 64>,
    ),
    (
        128,
        128,
        128,
        sgemm::<128, 128, 128>,
        sgemm_hand_indexed::<128, 128, 128>,
    ),
    (
        256,
        64,
        32,
        sgemm::<256, 64, 32>,
        sgemm_hand_indexed::<256, 64, 32>,
    ),
    (
        64,
        320,
        224,
        sgemm::<64, 320, 224>,
        sgemm_hand_indexed::<64, 320, 224>,
    ),
    (
        128,
        192,
        96,
        sgemm::<128, 192, 96>,
        sgemm_hand_indexed::<128, 192, 96>,
    ),
];

fn random(n: usize, rng: &mut Lcg) -> Vec<f32> {
    (0..n).map(|_| rng.next_f32()).collect()
}

/// The naive GEMM, accumulated in f64.
fn naive(m: usize, n: usize, k: usize, a: &[f32], b: &[f32]) -> Vec<f64> {
    let mut c = vec![0.0f64; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k)
                .map(|p| f64::from(a[i * k + p]) * f64::from(b[p * n + j]))
                .sum();
        }
    }
    c
}

/// Runs size `index` on data from `seed` and checks both kernels.
fn check(index: usize, seed: u64) {
    let (m, n, k, typed, hand) = SIZES[index];
    let mut rng = Lcg(seed);
    let a = random(m * k, &mut rng);
    let b = random(k * n, &mut rng);
    // C is overwritten, not accumulated: start from garbage
    let mut c = random(m * n, &mut rng);
    let mut c_hand = random(m * n, &mut rng);
    typed(&a, &b, &mut c);
    hand(&a, &b, &mut c_hand);
    let want = naive(m, n, k, &a, &b);
    // |a|, |b| < 1: each product < 1, so k·2^-24 bounds the f32 rounding
    let tol = k as f64 * f64::from(f32::EPSILON);
    for (idx, (&got, &w)) in c.iter().zip(&want).enumerate() {
        assert!(
            (f64::from(got) - w).abs() <= tol,
            "{m}x{n}x{k} seed {seed}: C[{}, {}] = {got}, want {w}",
            idx / n,
            idx % n
        );
    }
    assert!(
        c == c_hand,
        "{m}x{n}x{k}: typed and hand-indexed kernels differ"
    );
}

#[cfg_attr(miri, ignore = "minutes interpreted; natively only")]
#[test]
fn every_size_once() {
    for i in 0..SIZES.len() {
        check(i, 1000 + i as u64);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    #[cfg_attr(miri, ignore = "minutes interpreted; natively only")]
    #[test]
    fn random_sizes_and_data(index in 0..SIZES.len(), seed in any::<u64>()) {
        check(index, seed);
    }
}

#[cfg_attr(miri, ignore = "minutes interpreted; natively only")]
#[test]
fn known_product() {
    // A = I (64×64 identity, padded to K = 64), B(k, n) = k − n
    const N: usize = 128;
    let mut a = vec![0.0f32; 64 * 64];
    for i in 0..64 {
        a[i * 64 + i] = 1.0;
    }
    let b: Vec<f32> = (0..64 * N)
        .map(|x| (x / N) as f32 - (x % N) as f32)
        .collect();
    let mut c = vec![f32::NAN; 64 * N];
    sgemm::<64, N, 64>(&a, &b, &mut c);
    assert_eq!(c, b);
    assert_eq!((BLOCK_M, BLOCK_N, BLOCK_K), (64, 64, 32));
}

#[test]
#[should_panic]
fn short_inputs_panic() {
    let a = vec![0.0f32; 64 * 32 - 1];
    let b = vec![0.0f32; 32 * 64];
    let mut c = vec![0.0f32; 64 * 64];
    sgemm::<64, 64, 32>(&a, &b, &mut c);
}

/// The hand-indexed kernel walks the vectors of the typed kernel's plans in
/// the same order: its loops (warp row, warp column, line, vector in the
/// line, as written in `sgemm_hand_indexed`) give the sequence the plans'
/// executor runs (warp by warp, step by step, lane by lane).
#[test]
fn hand_indexed_loops_follow_the_plans() {
    use tilelayout::gpu::{
        AccTileRowMajor, BaseTileColMajor, BaseTileRowMajor, Bytes128, CopyPlan, GlobalTile,
        Layout2, RegTile, RowMajor, SharedTile, SwizzledRowMajor, WARP_SIZE,
    };
    fn plan_order<S, D, W>() -> Vec<(usize, usize)>
    where
        S: tilelayout::gpu::CopyEndpoint,
        D: tilelayout::gpu::CopyEndpoint<Elem = S::Elem>,
        W: Layout2,
    {
        type P<S, D, W> = CopyPlan<S, D, W>;
        let mut out = Vec::new();
        for wr in 0..W::ROWS {
            for wc in 0..W::COLS {
                for step in 0..P::<S, D, W>::STEPS {
                    for lane in 0..WARP_SIZE {
                        let v = P::<S, D, W>::vector_at(wr, wc, lane, step).unwrap();
                        out.push((v.row, v.col));
                    }
                }
            }
        }
        out
    }
    fn hand(warps: (usize, usize), region: (usize, usize)) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for wr in 0..warps.0 {
            for wc in 0..warps.1 {
                for line in 0..region.0 {
                    for k in 0..region.1 / 4 {
                        out.push((wr * region.0 + line, wc * region.1 + k * 4));
                    }
                }
            }
        }
        out
    }
    type G<'a, const R: usize, const C: usize> = GlobalTile<&'a [f32], RowMajor<R, C>>;
    type S<'a, const R: usize, const C: usize> =
        SharedTile<&'a [f32], SwizzledRowMajor<f32, Bytes128, R, C>>;
    type Regs<B> = [[RegTile<[f32; 32], B, RowMajor<2, 2>>; WARP_SIZE]; 2];
    type RegsC = [[RegTile<[f32; 32], AccTileRowMajor, RowMajor<2, 2>>; WARP_SIZE]; 4];
    // global → shared, A (64×32) and B (32×64), 2×2 warps
    assert_eq!(
        plan_order::<G<64, 32>, S<64, 32>, RowMajor<2, 2>>(),
        hand((2, 2), (32, 16))
    );
    assert_eq!(
        plan_order::<G<32, 64>, S<32, 64>, RowMajor<2, 2>>(),
        hand((2, 2), (16, 32))
    );
    // shared → registers: A by 2×1 warps, B by 1×2
    assert_eq!(
        plan_order::<S<64, 32>, Regs<BaseTileRowMajor>, RowMajor<2, 1>>(),
        hand((2, 1), (32, 32))
    );
    assert_eq!(
        plan_order::<S<32, 64>, Regs<BaseTileColMajor>, RowMajor<1, 2>>(),
        hand((1, 2), (32, 32))
    );
    // registers → global, C by 2×2 warps
    assert_eq!(
        plan_order::<RegsC, G<64, 64>, RowMajor<2, 2>>(),
        hand((2, 2), (32, 32))
    );
}

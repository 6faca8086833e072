//! GFLOP/s of the typed CPU SGEMM (`tilelayout::gpu::sgemm`), the same kernel
//! indexed by hand (`sgemm_hand_indexed`), and `matrixmultiply::sgemm` for
//! context. The goal is typed / hand-written = 1: the types should cost
//! nothing. Run with `cargo bench --bench gpu_sgemm`.

use std::hint::black_box;
use std::time::Instant;

use tilelayout::gpu::{sgemm, sgemm_hand_indexed};

/// Runs per measurement; the median is reported.
const RUNS: usize = 9;

/// Deterministic pseudo-random matrix entries in [-1, 1).
fn random(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

/// Returns the median time in seconds of `RUNS` calls of `f` (after one
/// warm-up call).
fn median_secs(mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[RUNS / 2]
}

fn bench<const M: usize, const N: usize, const K: usize>() {
    let a = random(M * K, 1);
    let b = random(K * N, 2);
    let mut c_typed = vec![0.0f32; M * N];
    let mut c_hand = vec![0.0f32; M * N];
    let mut c_mm = vec![0.0f32; M * N];

    let typed = median_secs(|| sgemm::<M, N, K>(black_box(&a), black_box(&b), &mut c_typed));
    let hand =
        median_secs(|| sgemm_hand_indexed::<M, N, K>(black_box(&a), black_box(&b), &mut c_hand));
    let mm = median_secs(|| mm_sgemm(M, N, K, black_box(&a), black_box(&b), &mut c_mm));

    assert_eq!(c_typed, c_hand, "typed and hand-indexed kernels disagree");
    let max_err = c_typed
        .iter()
        .zip(&c_mm)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, f32::max);
    assert!(
        max_err < 1e-3 * K as f32,
        "typed kernel disagrees with matrixmultiply"
    );

    let flop = 2.0 * (M * N * K) as f64;
    let gflops = |t: f64| flop / t / 1e9;
    println!(
        "sgemm {M}x{N}x{K}: typed {:6.2} GFLOP/s | hand-indexed {:6.2} GFLOP/s | matrixmultiply {:6.2} GFLOP/s | typed/hand {:.3} | typed/matrixmultiply {:.3}",
        gflops(typed),
        gflops(hand),
        gflops(mm),
        hand / typed,
        mm / typed,
    );
}

/// `C = A·B` for row-major matrices with `matrixmultiply`.
fn mm_sgemm(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n);
    // SAFETY:
    // - `a` holds m·k elements at row stride k, column stride 1 (asserted);
    // - `b` holds k·n elements at row stride n, column stride 1 (asserted);
    // - `c` holds m·n elements at row stride n, column stride 1 (asserted),
    //   and is a unique borrow, so nothing else aliases it.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            k as isize,
            1,
            b.as_ptr(),
            n as isize,
            1,
            0.0,
            c.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}

fn main() {
    bench::<256, 256, 256>();
    bench::<512, 512, 512>();
}

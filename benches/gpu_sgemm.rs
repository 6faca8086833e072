//! GFLOP/s of the typed CPU SGEMM (`tilelayout::gpu::sgemm`), the same kernel
//! indexed by hand (`sgemm_hand_indexed`), and `matrixmultiply::sgemm` for
//! context. The goal is typed / hand-written = 1: the types should cost
//! nothing. Run with `cargo bench --bench gpu_sgemm`.

use std::hint::black_box;
use std::time::Instant;

use tilelayout::gpu::{sgemm, sgemm_hand_indexed};

/// Runs per measurement; the median is reported.
const RUNS: usize = 15;

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

/// Returns the median times in seconds of `RUNS` calls of each of `fs`,
/// after one warm-up call each. The calls are interleaved (round `r` calls
/// every kernel once), so a busy machine slows all kernels alike.
fn median_secs<const K: usize>(fs: &mut [&mut dyn FnMut(); K]) -> [f64; K] {
    for f in fs.iter_mut() {
        f();
    }
    let mut t = [[0.0f64; K]; RUNS];
    for round in t.iter_mut() {
        for (slot, f) in round.iter_mut().zip(fs.iter_mut()) {
            let start = Instant::now();
            f();
            *slot = start.elapsed().as_secs_f64();
        }
    }
    let t: [[f64; RUNS]; K] = core::array::from_fn(|k| core::array::from_fn(|r| t[r][k]));
    t.map(|mut ts| {
        ts.sort_by(f64::total_cmp);
        ts[RUNS / 2]
    })
}

fn bench<const M: usize, const N: usize, const K: usize>() {
    let a = random(M * K, 1);
    let b = random(K * N, 2);
    let mut c_typed = vec![0.0f32; M * N];
    let mut c_hand = vec![0.0f32; M * N];
    let mut c_mm = vec![0.0f32; M * N];

    let [typed, hand, mm] = median_secs(&mut [
        &mut || sgemm::<M, N, K>(black_box(&a), black_box(&b), &mut c_typed),
        &mut || sgemm_hand_indexed::<M, N, K>(black_box(&a), black_box(&b), &mut c_hand),
        &mut || mm_sgemm(M, N, K, black_box(&a), black_box(&b), &mut c_mm),
    ]);

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

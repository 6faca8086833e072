//! A CPU SGEMM written with tilelayout's GPU tile types.
//!
//! Run with `cargo run --release --example gpu_sgemm`. It multiplies two
//! random 256×256 matrices with `tilelayout::gpu::sgemm` (global tiles →
//! swizzled shared tiles → 16×16 register base tiles → emulated tensor-core
//! MMA → global), checks the result against a naive GEMM, and prints where
//! one element travelled.

use std::time::Instant;

use tilelayout::gpu::{
    sgemm, BaseTileRowMajor, Bytes128, Layout2, RegTile, RowMajor, SwizzledRowMajor,
};

const M: usize = 256;
const N: usize = 256;
const K: usize = 256;

fn main() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    };
    let a: Vec<f32> = (0..M * K).map(|_| next()).collect();
    let b: Vec<f32> = (0..K * N).map(|_| next()).collect();
    let mut c = vec![0.0f32; M * N];

    let start = Instant::now();
    sgemm::<M, N, K>(&a, &b, &mut c);
    let secs = start.elapsed().as_secs_f64();

    let mut max_err = 0.0f64;
    for i in 0..M {
        for j in 0..N {
            let want: f64 = (0..K)
                .map(|p| f64::from(a[i * K + p]) * f64::from(b[p * N + j]))
                .sum();
            max_err = max_err.max((f64::from(c[i * N + j]) - want).abs());
        }
    }
    println!(
        "sgemm {M}x{N}x{K}: {:.2} ms, {:.2} GFLOP/s, max |error| vs naive = {max_err:.2e}",
        secs * 1e3,
        2.0 * (M * N * K) as f64 / secs / 1e9
    );
    assert!(
        max_err < 1e-3,
        "the typed kernel disagrees with the naive GEMM"
    );

    // Where element (9, 37) of a 64×32 tile of A lives on its way.
    type Shared = SwizzledRowMajor<f32, Bytes128, 64, 32>;
    type Reg = RegTile<[f32; 32], BaseTileRowMajor, RowMajor<2, 2>>;
    let (i, j) = (9, 37 % 32);
    let (lane, reg) = Reg::owner(i % 32, j);
    println!(
        "A tile element ({i}, {j}): shared slot {} (row-major would be {}), then warp {} lane {lane} register {reg}",
        Shared::offset(i, j),
        RowMajor::<64, 32>::offset(i, j),
        i / 32,
    );
}

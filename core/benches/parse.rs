//! Throughput of parse + validate + sizes over every shape of
//! `tests/data/real_shapes_dev.tsv`.
//!
//! `cargo bench -p tilelayout-core --bench parse`: passes over all shapes
//! for about 1.5 s, prints the median pass as shapes/s and MB/s of text.
//! Without `--bench` (as `cargo test --all-targets` runs it) it makes one
//! pass as a smoke check.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};
use tilelayout_core::parse_shape;

/// One pass: parse, validate and size every shape; returns a checksum so
/// the work cannot be optimized away.
fn pass(shapes: &[String]) -> u64 {
    let mut sum = 0u64;
    for text in shapes {
        let s = parse_shape(black_box(text)).expect("real shapes parse");
        s.validate().expect("real shapes are valid");
        let z = s.sizes().expect("real shapes have sizes");
        sum = sum.wrapping_add(z.bytes ^ z.xla_bytes);
    }
    sum
}

fn main() {
    let shapes: Vec<String> = common::rows("real_shapes_dev.tsv")
        .into_iter()
        .map(|(_, c)| c[0].clone())
        .collect();
    let bytes: usize = shapes.iter().map(String::len).sum();
    let benching = std::env::args().any(|a| a == "--bench");
    if !benching {
        black_box(pass(&shapes));
        println!(
            "parse bench: smoke pass over {} shapes ok (run `cargo bench` to measure)",
            shapes.len()
        );
        return;
    }
    // Warm up, then time passes until the budget is spent.
    for _ in 0..10 {
        black_box(pass(&shapes));
    }
    let budget = Duration::from_millis(1500);
    let start = Instant::now();
    let mut runs = Vec::new();
    while start.elapsed() < budget || runs.len() < 11 {
        let t = Instant::now();
        black_box(pass(&shapes));
        runs.push(t.elapsed());
    }
    runs.sort();
    let median = runs[runs.len() / 2].as_secs_f64();
    let (lo, hi) = (
        runs[runs.len() / 10].as_secs_f64(),
        runs[runs.len() * 9 / 10].as_secs_f64(),
    );
    println!(
        "parse+validate+sizes: {} shapes ({} bytes) per pass, {} passes; median {:.1} µs/pass (p10 {:.1}, p90 {:.1})",
        shapes.len(),
        bytes,
        runs.len(),
        median * 1e6,
        lo * 1e6,
        hi * 1e6
    );
    println!(
        "  {:.2} M shapes/s, {:.1} MB/s of shape text",
        shapes.len() as f64 / median / 1e6,
        bytes as f64 / median / 1e6
    );
}

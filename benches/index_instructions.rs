//! Instruction counts of `Layout::offset` against hand-written index
//! arithmetic, measured with callgrind through gungraun (the successor of
//! iai-callgrind). The target is equal counts: the unrolled index program
//! must fold to the arithmetic a person would write.
//!
//! Run with the runner installed at the library's version:
//! ```text
//! cargo install gungraun-runner --version 0.20.0 --locked
//! cargo bench --bench index_instructions
//! ```
//!
//! The `sgemm` group counts the whole GPU-tile SGEMM (`tilelayout::gpu::sgemm`,
//! 256³) against its hand-indexed twin: the tile types (views, iterators,
//! swizzled shared tiles, copy plans, register tiles) against the same
//! kernel with the index arithmetic written out.
//!
//! The layouts and the hand-written functions are in
//! `index_instructions/hand.rs`, which `tests/types_agree.rs` also compiles
//! to check every hand-written function against `L::offset` on many points.

use gungraun::main;

#[path = "index_instructions/hand.rs"]
mod hand;

/// The benchmarks (private: the items gungraun's macros generate have no docs).
mod bench {
    use std::hint::black_box;

    use gungraun::{library_benchmark, library_benchmark_group};
    use tilelayout::Layout;

    use crate::hand::{self, Bf16, Fig1, Permuted, Square};

    #[library_benchmark]
    #[bench::point([2, 3])]
    fn fig1_typed(index: [usize; 2]) -> usize {
        black_box(Fig1::offset(black_box(index)))
    }

    #[library_benchmark]
    #[bench::point([2, 3])]
    fn fig1_hand(index: [usize; 2]) -> usize {
        black_box(hand::fig1(black_box(index)))
    }

    #[library_benchmark]
    #[bench::point([517, 301])]
    fn square_typed(index: [usize; 2]) -> usize {
        black_box(Square::offset(black_box(index)))
    }

    #[library_benchmark]
    #[bench::point([517, 301])]
    fn square_hand(index: [usize; 2]) -> usize {
        black_box(hand::square(black_box(index)))
    }

    #[library_benchmark]
    #[bench::point([5, 0, 1000, 9999])]
    fn bf16_typed(index: [usize; 4]) -> usize {
        black_box(Bf16::offset(black_box(index)))
    }

    #[library_benchmark]
    #[bench::point([5, 0, 1000, 9999])]
    fn bf16_hand(index: [usize; 4]) -> usize {
        black_box(hand::bf16(black_box(index)))
    }

    #[library_benchmark]
    #[bench::point([11, 19, 27, 101])]
    fn permuted_typed(index: [usize; 4]) -> usize {
        black_box(Permuted::offset(black_box(index)))
    }

    #[library_benchmark]
    #[bench::point([11, 19, 27, 101])]
    fn permuted_hand(index: [usize; 4]) -> usize {
        black_box(hand::permuted(black_box(index)))
    }

    #[library_benchmark]
    #[bench::point([11, 19, 27, 101])]
    fn permuted_hand_horner(index: [usize; 4]) -> usize {
        black_box(hand::permuted_horner(black_box(index)))
    }

    library_benchmark_group!(
        name = offset,
        benchmarks = [
            fig1_typed,
            fig1_hand,
            square_typed,
            square_hand,
            bf16_typed,
            bf16_hand,
            permuted_typed,
            permuted_hand,
            permuted_hand_horner
        ]
    );
}

/// The SGEMM benchmarks.
mod gemm {
    use std::hint::black_box;

    use gungraun::{library_benchmark, library_benchmark_group};

    /// `A`, `B` (n × n, small integers: exact sums) and a zero `C`.
    fn inputs(n: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
        let a = (0..n * n).map(|x| (x % 7) as f32).collect();
        let b = (0..n * n).map(|x| (x % 5) as f32).collect();
        (a, b, vec![0.0; n * n])
    }

    #[library_benchmark]
    #[bench::n256(args = (256), setup = inputs)]
    fn sgemm_typed((a, b, mut c): (Vec<f32>, Vec<f32>, Vec<f32>)) -> Vec<f32> {
        tilelayout::gpu::sgemm::<256, 256, 256>(black_box(&a), black_box(&b), &mut c);
        c
    }

    #[library_benchmark]
    #[bench::n256(args = (256), setup = inputs)]
    fn sgemm_hand((a, b, mut c): (Vec<f32>, Vec<f32>, Vec<f32>)) -> Vec<f32> {
        tilelayout::gpu::sgemm_hand_indexed::<256, 256, 256>(black_box(&a), black_box(&b), &mut c);
        c
    }

    library_benchmark_group!(name = sgemm, benchmarks = [sgemm_typed, sgemm_hand]);
}

use bench::offset;
use gemm::sgemm;

main!(library_benchmark_groups = offset, sgemm);

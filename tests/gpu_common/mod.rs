//! Checks shared by the `gpu_*` integration tests: the `Layout2` invariants,
//! written against the definitions, not against the library's code.

#![allow(dead_code)] // reason: each test crate uses a different subset

pub mod vectors;

use tilelayout::algebra::{Int, IntTuple};
use tilelayout::gpu::{const_offset, vector_run, Layout2, Shape2};

/// The core's own evaluation of `L::LAYOUT` at `(i, j)` (its `crd2idx`,
/// not the folded code of `offset`).
pub fn core_offset<L: Layout2>(i: usize, j: usize) -> usize {
    let c = IntTuple::tuple(&[
        IntTuple::int(Int::dynamic(i as i64)),
        IntTuple::int(Int::dynamic(j as i64)),
    ])
    .unwrap();
    L::LAYOUT.crd2idx(&c).unwrap() as usize
}

/// Checks invariants 1–3 of `Layout2` for every coordinate of `L` (the
/// core evaluates `L::LAYOUT` itself), and its contiguous runs.
#[track_caller]
pub fn check_layout<L: Layout2>() {
    let (rows, cols) = (L::ROWS, L::COLS);
    let l = &L::LAYOUT.layout;
    assert_eq!(l.rank(), 2, "LAYOUT rank");
    assert_eq!(
        l.mode(0).unwrap().size().unwrap().value,
        rows as i64,
        "LAYOUT rows"
    );
    assert_eq!(
        l.mode(1).unwrap().size().unwrap().value,
        cols as i64,
        "LAYOUT cols"
    );
    assert_eq!(l.cosize().unwrap().value, L::COSIZE as i64, "LAYOUT cosize");
    for i in 0..rows {
        for j in 0..cols {
            let o = L::offset(i, j);
            assert!(
                o < L::COSIZE,
                "offset({i}, {j}) = {o} >= COSIZE {}",
                L::COSIZE
            );
            assert_eq!(core_offset::<L>(i, j), o, "LAYOUT({i}, {j})");
            assert_eq!(const_offset::<L>(i, j), o, "const_offset({i}, {j})");
        }
    }
    check_runs::<L>();
}

/// Checks the contiguity `vector_run` claims: aligned runs of its row
/// (column) run are contiguous and start at a multiple of the run.
#[track_caller]
pub fn check_runs<L: Layout2>() {
    let n = vector_run(&L::LAYOUT, 1);
    assert!(
        n >= 1 && L::COLS % n == 0,
        "ROW_RUN {n} must divide COLS {}",
        L::COLS
    );
    for i in 0..L::ROWS {
        for j in (0..L::COLS).step_by(n) {
            let first = L::offset(i, j);
            assert_eq!(first % n, 0, "row run at ({i}, {j}) not aligned to {n}");
            for t in 0..n {
                assert_eq!(L::offset(i, j + t), first + t, "row run at ({i}, {j})");
            }
        }
    }
    let n = vector_run(&L::LAYOUT, 0);
    assert!(
        n >= 1 && L::ROWS % n == 0,
        "COL_RUN {n} must divide ROWS {}",
        L::ROWS
    );
    for j in 0..L::COLS {
        for i in (0..L::ROWS).step_by(n) {
            let first = L::offset(i, j);
            assert_eq!(first % n, 0, "column run at ({i}, {j}) not aligned to {n}");
            for t in 0..n {
                assert_eq!(L::offset(i + t, j), first + t, "column run at ({i}, {j})");
            }
        }
    }
}

/// Checks that `L` is a bijection from its coordinates onto `[0, COSIZE)`.
#[track_caller]
pub fn check_bijection<L: Layout2>() {
    assert_eq!(
        L::COSIZE,
        L::ROWS * L::COLS,
        "a bijection needs COSIZE = ROWS * COLS"
    );
    let mut seen = vec![false; L::COSIZE];
    for i in 0..L::ROWS {
        for j in 0..L::COLS {
            let o = L::offset(i, j);
            assert!(!seen[o], "offset {o} hit twice (at ({i}, {j}))");
            seen[o] = true;
        }
    }
    assert!(seen.iter().all(|&s| s));
}

/// Checks `L::offset(i, j) == f(i, j)` everywhere.
#[track_caller]
pub fn check_against<L: Layout2>(f: impl Fn(usize, usize) -> usize) {
    for i in 0..L::ROWS {
        for j in 0..L::COLS {
            assert_eq!(L::offset(i, j), f(i, j), "offset({i}, {j})");
        }
    }
}

/// Checks that `COSIZE` is exactly the largest offset plus one.
#[track_caller]
pub fn check_exact_cosize<L: Layout2>() {
    let mut max = None;
    for i in 0..L::ROWS {
        for j in 0..L::COLS {
            max = max.max(Some(L::offset(i, j)));
        }
    }
    assert_eq!(max.map_or(0, |m| m + 1), L::COSIZE);
}

/// The number of elements of a shape.
pub fn size<S: Shape2>() -> usize {
    S::ROWS * S::COLS
}

/// Deterministic pseudo-random numbers (a 64-bit LCG), for test data.
pub struct Lcg(pub u64);

impl Lcg {
    /// Returns the next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }

    /// Returns a float in [-1, 1).
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 29) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }
}

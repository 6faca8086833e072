//! Checks shared by the `gpu_*` integration tests: the `Layout2` invariants,
//! written against the definitions, not against the library's code.
//!
//! Under Miri (`.ci/run` runs the gpu suites interpreted) a coordinate costs
//! milliseconds, so the checks visit a deterministic sample of each tile
//! ([`coords`]) and the tests a sample of their configurations ([`sample`]);
//! natively, everything.

#![allow(dead_code)] // reason: each test crate uses a different subset

pub mod vectors;

use tilelayout::algebra::{Int, IntTuple};
use tilelayout::gpu::{const_offset, vector_run, Layout2, Shape2, WARP_SIZE};

/// How many coordinates of a tile a check visits under Miri (about: the
/// sample also takes the tile's last element).
pub const MIRI_COORDS: usize = 32;

/// The coordinates `(i, j)` of a `rows × cols` tile a check visits, in
/// row-major order: natively all of them; under Miri about [`MIRI_COORDS`].
pub fn coords(rows: usize, cols: usize) -> Vec<(usize, usize)> {
    coords_within(rows, cols, MIRI_COORDS)
}

/// The coordinates of a `rows × cols` tile in row-major order: natively all;
/// under Miri, when there are more than `budget`, every `k`-th one from the
/// first, `k` about `rows · cols / budget` and prime to `cols` (so that the
/// sample walks down the rows in distinct columns, up to `cols` of them,
/// meeting different blocks and swizzle chunks), and the last one.
pub fn coords_within(rows: usize, cols: usize, budget: usize) -> Vec<(usize, usize)> {
    let n = rows * cols;
    if !cfg!(miri) || n <= budget {
        return (0..rows)
            .flat_map(|i| (0..cols).map(move |j| (i, j)))
            .collect();
    }
    let mut k = n.div_ceil(budget.max(1));
    while gcd(k, cols) != 1 {
        k += 1;
    }
    // (a plain loop: interpreted, iterator adapters and sorting cost more
    // than the checks)
    let mut out = Vec::with_capacity(budget + 2);
    let mut t = 0;
    while t < n {
        out.push((t / cols, t % cols));
        t += k;
    }
    if !(n - 1).is_multiple_of(k) {
        out.push((rows - 1, cols - 1));
    }
    out
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The lanes of a warp (and the one past the last, `WARP_SIZE`) whose
/// vectors, registers or addresses a check visits: all natively; under Miri
/// the first two, those around the first 8-lane phase, the last, and the
/// one past it. (Filter `< WARP_SIZE` where only real lanes make sense.)
pub fn lanes() -> Vec<usize> {
    if cfg!(miri) {
        vec![0, 1, 7, 8, WARP_SIZE - 1, WARP_SIZE]
    } else {
        (0..=WARP_SIZE).collect()
    }
}

/// The items of a list of configurations a test runs: natively all; under
/// Miri every `k`-th, starting with the first, for a sample of about `miri`
/// (the first and the last when `miri` is 2 or more).
pub fn sample<T: Copy>(items: &[T], miri: usize) -> Vec<T> {
    if !cfg!(miri) || items.len() <= miri {
        return items.to_vec();
    }
    let k = items.len().div_ceil(miri.max(1));
    let mut out: Vec<T> = items.iter().copied().step_by(k).collect();
    if miri >= 2 && !(items.len() - 1).is_multiple_of(k) {
        out.push(items[items.len() - 1]);
    }
    out
}

/// Proptest's configuration for `cases` cases natively; under Miri
/// (interpreted) `miri` cases and no regression file (Miri isolates the
/// file system; the file's cases run natively).
pub fn proptest_config(cases: u32, miri: u32) -> proptest::test_runner::Config {
    if cfg!(miri) {
        proptest::test_runner::Config {
            cases: miri,
            failure_persistence: None,
            ..proptest::test_runner::Config::default()
        }
    } else {
        proptest::test_runner::Config::with_cases(cases)
    }
}

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

/// Checks invariants 1–3 of `Layout2` at every coordinate of `L` (under
/// Miri at those of [`coords`]; the core evaluates `L::LAYOUT` itself), and
/// its contiguous runs.
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
    for (i, j) in coords(rows, cols) {
        let o = L::offset(i, j);
        assert!(
            o < L::COSIZE,
            "offset({i}, {j}) = {o} >= COSIZE {}",
            L::COSIZE
        );
        assert_eq!(core_offset::<L>(i, j), o, "LAYOUT({i}, {j})");
        assert_eq!(const_offset::<L>(i, j), o, "const_offset({i}, {j})");
    }
    check_runs::<L>();
}

/// Checks the contiguity `vector_run` claims: aligned runs of its row
/// (column) run are contiguous and start at a multiple of the run (every
/// run; under Miri the runs of a sample, [`coords`] of the grid of runs).
#[track_caller]
pub fn check_runs<L: Layout2>() {
    let n = vector_run(&L::LAYOUT, 1);
    assert!(
        n >= 1 && L::COLS % n == 0,
        "ROW_RUN {n} must divide COLS {}",
        L::COLS
    );
    // (under Miri about as many elements as `coords` visits)
    let runs = (MIRI_COORDS / n).max(1);
    for (i, run) in coords_within(L::ROWS, L::COLS / n, runs) {
        let j = run * n;
        let first = L::offset(i, j);
        assert_eq!(first % n, 0, "row run at ({i}, {j}) not aligned to {n}");
        for t in 0..n {
            assert_eq!(L::offset(i, j + t), first + t, "row run at ({i}, {j})");
        }
    }
    let n = vector_run(&L::LAYOUT, 0);
    assert!(
        n >= 1 && L::ROWS % n == 0,
        "COL_RUN {n} must divide ROWS {}",
        L::ROWS
    );
    let runs = (MIRI_COORDS / n).max(1);
    for (run, j) in coords_within(L::ROWS / n, L::COLS, runs) {
        let i = run * n;
        let first = L::offset(i, j);
        assert_eq!(first % n, 0, "column run at ({i}, {j}) not aligned to {n}");
        for t in 0..n {
            assert_eq!(L::offset(i + t, j), first + t, "column run at ({i}, {j})");
        }
    }
}

/// Checks that `L` is a bijection from its coordinates onto `[0, COSIZE)`
/// (under Miri: that the sampled coordinates have distinct offsets below
/// `COSIZE`; that every offset is hit needs every coordinate).
#[track_caller]
pub fn check_bijection<L: Layout2>() {
    assert_eq!(
        L::COSIZE,
        L::ROWS * L::COLS,
        "a bijection needs COSIZE = ROWS * COLS"
    );
    let mut seen = vec![false; L::COSIZE];
    let visited = coords(L::ROWS, L::COLS);
    for &(i, j) in &visited {
        let o = L::offset(i, j);
        assert!(!seen[o], "offset {o} hit twice (at ({i}, {j}))");
        seen[o] = true;
    }
    if visited.len() == L::COSIZE {
        assert!(seen.iter().all(|&s| s));
    }
}

/// Checks `L::offset(i, j) == f(i, j)` everywhere (under Miri: at
/// [`coords`]).
#[track_caller]
pub fn check_against<L: Layout2>(f: impl Fn(usize, usize) -> usize) {
    for (i, j) in coords(L::ROWS, L::COLS) {
        assert_eq!(L::offset(i, j), f(i, j), "offset({i}, {j})");
    }
}

/// Checks that `COSIZE` is exactly the largest offset plus one (under Miri
/// the largest offset of [`coords`], which holds the last element: the
/// layouts this is used on, with non-negative strides and no swizzle, peak
/// there).
#[track_caller]
pub fn check_exact_cosize<L: Layout2>() {
    let max = coords(L::ROWS, L::COLS)
        .into_iter()
        .map(|(i, j)| L::offset(i, j))
        .max();
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

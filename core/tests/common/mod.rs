//! Shared helpers for the data-driven tests.
#![allow(dead_code)] // reason: each test file uses a different subset

use std::path::PathBuf;
use tilelayout_core::Shape;

/// The repository's `tests/data` (see its README for the sources).
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data")
}

/// One row of a TSV file: (line number, columns).
pub fn rows(file: &str) -> Vec<(usize, Vec<String>)> {
    let text = std::fs::read_to_string(data_dir().join(file)).expect("read data file");
    text.lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.split('\t').map(str::to_owned).collect()))
        .collect()
}

/// The one known case where printing does not read back: an array of
/// nonzero rank whose layout was written with no `minor_to_major` and no
/// attributes (`s32[8]{:}`, invalid). XLA prints it as `s32[8]{}`, as we do, and XLA's
/// parser (like ours) does not read `{}` after a shape as a layout.
pub fn prints_unreadable(s: &Shape) -> bool {
    s.element_type().is_array_type()
        && s.rank() > 0
        && s.layout().minor_to_major().is_empty()
        && !s.layout().has_attributes()
}

/// Every permutation of `0..n`.
pub fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

/// Every list of `rank` values taken from `values` (the last fastest).
pub fn tuples<T: Copy>(rank: usize, values: &[T]) -> Vec<Vec<T>> {
    let mut out = vec![vec![]];
    for _ in 0..rank {
        out = out
            .into_iter()
            .flat_map(|d| {
                values.iter().map(move |&x| {
                    let mut e = d.clone();
                    e.push(x);
                    e
                })
            })
            .collect();
    }
    out
}

//! The fuzz targets' checks on every committed input: the seed corpora
//! (`fuzz/seeds/<target>/`) and every input that once crashed a target
//! (`fuzz/regressions/<target>/`, kept as regression tests). `cargo fuzz`
//! runs the same checks on inputs it generates (`.ci/fuzz-smoke`).

// Each check file stands alone in its fuzz target, so both bring the shared
// `fuzz/checks/coords.rs`; here, where they meet, it is loaded twice.
#![allow(clippy::duplicate_mod)]

#[path = "../fuzz/checks/relayout.rs"]
mod relayout;
#[path = "../fuzz/checks/runtime.rs"]
mod runtime;

use std::path::Path;

/// Runs `check` on every file of `fuzz/seeds/<target>` and
/// `fuzz/regressions/<target>`; returns how many.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut n = 0;
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        let mut files: Vec<_> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
            .collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).unwrap();
            let r = std::panic::catch_unwind(|| check(&data));
            assert!(
                r.is_ok(),
                "{} failed (input {:?})",
                f.display(),
                String::from_utf8_lossy(&data)
            );
            n += 1;
        }
    }
    n
}

#[test]
fn relayout_corpus() {
    assert!(replay("relayout", relayout::check) >= 30);
}

/// The hand-written seeds decode to the layouts they are named for (the
/// first two are the planner overflows issue 16 reports).
#[test]
fn relayout_seeds_mean_what_they_say() {
    use tilelayout::storage::ArrayLayout;
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/relayout");
    for (name, want) in [
        ("empty-huge-tile", "u8[0]{0:T(9223372036854775807)(8,1)}"),
        (
            "pred-empty-huge-tiles",
            "pred[0]{0:T(9223372036854775807)(8,4294967296)(2,1)E(1)}",
        ),
        ("f32-tiled-8x8", "f32[9,9]{1,0:T(8,8)}"),
    ] {
        let case = relayout::decode(&std::fs::read(seeds.join(name)).unwrap()).unwrap();
        let ArrayLayout::Tiled(s) = case.src else {
            panic!("{name}: source not tiled")
        };
        assert_eq!(s.to_string(), want, "{name}");
        assert!(matches!(case.dst, ArrayLayout::Strided(_)), "{name}");
    }
}

#[test]
fn runtime_corpus() {
    assert!(replay("runtime", runtime::check) >= 25);
}

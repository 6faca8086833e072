//! Compile-fail and compile-pass cases for `layout!` and the layout types,
//! in `ui-tests/`, driven by trybuild.
//!
//! - `cargo check` run: `ui-tests/macro/` (errors `layout!` emits as
//!   `compile_error!`) and `ui-tests/types/` (invalid hand-written types
//!   under `assert_layout!`, which must fail without a build).
//! - `cargo build` run: `ui-tests/pass/` (built and run; their presence
//!   makes trybuild build instead of check) and `ui-tests/types/post-mono/`
//!   (post-monomorphization errors: a wrong index rank, an invalid type whose
//!   constant is used without `assert_layout!`; `cargo check` accepts them).
//!
//! The `.stderr` snapshots are blessed with the toolchain pinned in
//! `rust-toolchain.toml` (`.ci/ui-bless`); on any other toolchain the cases
//! are skipped with a notice, because rustc's wording and the quoted library
//! source of post-monomorphization errors differ between versions.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The toolchain the snapshots are blessed with (`rust-toolchain.toml`).
const PINNED: &str = "rustc 1.95.";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `Some(version)` when the toolchain that runs the cases is not the pinned
/// one. Cargo sets `RUSTC` for trybuild's builds the same way it is seen
/// here: through rustup's `RUSTUP_TOOLCHAIN` or the toolchain file.
fn other_toolchain() -> Option<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .arg("--version")
        .current_dir(root())
        .output();
    let version = match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_owned(),
        Ok(o) => panic!(
            "`rustc --version` failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => panic!("cannot run `rustc --version`: {e}"),
    };
    if version.starts_with(PINNED) {
        None
    } else {
        Some(version)
    }
}

/// Panics unless `/dev/null` is the null device. On some machines it is a
/// regular file: trybuild then caches a rustc probe that read garbage from
/// it, and every compile-fail case reports "compiled successfully" from then
/// on (DESIGN-NOTES.md, "Compile errors").
#[cfg(unix)]
fn require_dev_null() {
    use std::os::unix::fs::FileTypeExt;
    let meta = std::fs::metadata("/dev/null");
    assert!(
        meta.as_ref().is_ok_and(|m| m.file_type().is_char_device()),
        "/dev/null is not the null device ({meta:?}); trybuild's cached rustc probe \
         under target/tests/trybuild would be poisoned and every compile-fail case \
         would \"compile\". Fix, as root: \
         `rm -f /dev/null && mknod -m 666 /dev/null c 1 3 && rm -rf target/tests/trybuild` \
         (.ci/run does the first two)"
    );
}

#[cfg(not(unix))]
fn require_dev_null() {}

/// Returns `false` (after a notice) when the cases must be skipped.
fn pinned_toolchain() -> bool {
    if let Some(version) = other_toolchain() {
        // Written to the stderr handle, not with `eprintln!`, so that the
        // test harness does not capture it.
        let _ = writeln!(
            std::io::stderr(),
            "notice: skipping the UI tests: they are blessed with {PINNED}x \
             (rust-toolchain.toml), this is {version}"
        );
        return false;
    }
    require_dev_null();
    drop_failed_rustc_probe();
    true
}

/// Deletes cargo's cached rustc probe in trybuild's target dir if it
/// recorded a failure (left by a run with a bad `/dev/null`): cargo would
/// keep reusing it. Cargo re-probes when the file is gone.
fn drop_failed_rustc_probe() {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let info = target.join("tests/trybuild/.rustc_info.json");
    if let Ok(text) = std::fs::read_to_string(&info) {
        if text.contains("\"success\":false") {
            let _ = writeln!(
                std::io::stderr(),
                "notice: deleting a failed cached rustc probe: {}",
                info.display()
            );
            std::fs::remove_file(&info).unwrap_or_else(|e| panic!("{}: {e}", info.display()));
        }
    }
}

/// Without a pass case, trybuild only runs `cargo check`: these errors must
/// show there.
#[test]
fn check_mode_macro_and_assert_layout_errors() {
    if !pinned_toolchain() {
        return;
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("ui-tests/macro/*.rs");
    t.compile_fail("ui-tests/types/*.rs");
}

#[test]
fn build_mode_pass_cases_and_post_mono_errors() {
    if !pinned_toolchain() {
        return;
    }
    let t = trybuild::TestCases::new();
    // A pass case in the same `TestCases` makes trybuild build, not check:
    // the post-monomorphization cases need it.
    t.pass("ui-tests/pass/*.rs");
    t.compile_fail("ui-tests/types/post-mono/*.rs");
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Every `.stderr` snapshot has its case beside it (a renamed or deleted
/// case must take its snapshot along), and every compile-fail case has one.
#[test]
fn no_orphan_or_missing_stderr() {
    let mut all = Vec::new();
    files(&root().join("ui-tests"), &mut all);
    let mut problems = Vec::new();
    for path in &all {
        match path.extension().and_then(|e| e.to_str()) {
            Some("stderr") if !path.with_extension("rs").is_file() => {
                problems.push(format!(
                    "orphan snapshot (no .rs beside it): {}",
                    path.display()
                ));
            }
            Some("rs") => {
                let pass = path.parent().is_some_and(|d| d.ends_with("pass"));
                let has = path.with_extension("stderr").is_file();
                if pass && has {
                    problems.push(format!("pass case with a .stderr: {}", path.display()));
                } else if !pass && !has {
                    problems.push(format!(
                        "compile-fail case without a .stderr: {}",
                        path.display()
                    ));
                }
            }
            Some("stderr") => {}
            _ => problems.push(format!("unexpected file in ui-tests: {}", path.display())),
        }
    }
    assert!(all.len() > 24, "ui-tests/ has only {} files", all.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

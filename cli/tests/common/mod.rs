//! What the command-line tests share: running the built binary, reading
//! its output and exit code, and the repository's test data.
// Each test binary uses a part of this module.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Runs the binary with `args` and `stdin`.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilelayout"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tilelayout");
    let mut pipe = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    // write from a thread: the child may answer before reading everything
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait for tilelayout");
    writer.join().expect("writer thread");
    out
}

/// The exit code (a signal or panic would show as something else than
/// 0, 1 or 2).
#[track_caller]
pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// The JSON lines of a `--json` run.
#[track_caller]
pub fn json_lines(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// The single JSON object of a one-input `--json` run, with its exit code.
#[track_caller]
pub fn one(args: &[&str]) -> (Value, i32) {
    let o = run(args, b"");
    let mut v = json_lines(&o);
    assert_eq!(v.len(), 1, "{}", stdout(&o));
    assert!(
        o.stderr.is_empty(),
        "--json writes errors in the objects: {}",
        stderr(&o)
    );
    (v.remove(0), code(&o))
}

/// The repository's `tests/data` (see its README for the sources).
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data")
}

/// Rows of a TSV data file (header skipped): (line number, columns).
pub fn rows(file: &str) -> Vec<(usize, Vec<String>)> {
    let text = std::fs::read_to_string(data_dir().join(file)).expect("read data file");
    text.lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.split('\t').map(str::to_owned).collect()))
        .collect()
}

//! `tilelayout dump` on the real TPU v6e dumps in `tests/data`: the
//! report's text and JSON against golden files, the JSON and CSV fields,
//! directories, standard input, and text that is not a dump.
//!
//! Golden files are in `cli/tests/golden/`; after a deliberate change,
//! regenerate them with `BLESS=1 cargo test -p tilelayout-cli --test dump`
//! and review the diff.

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

mod common;
use common::*;

fn dumps(file: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/dumps/tpu_v6e");
    dir.join(file).to_string_lossy().into_owned()
}

const MULTIPLY: &str = "module_0035.jit_multiply.cl_772339112.after_optimizations";

#[track_caller]
fn stdout_ok(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).expect("UTF-8")
}

#[track_caller]
fn golden(name: &str, have: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, have).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(have, want, "{name} differs (BLESS=1 to regenerate)");
}

#[test]
fn text_report_of_a_small_module_is_golden() {
    let ba = dumps(&format!("{MULTIPLY}-buffer-assignment.txt"));
    golden(
        "dump_multiply_ba.txt",
        &stdout_ok(&run(&["dump", &ba], b"")),
    );
    let hlo = dumps(&format!("{MULTIPLY}.txt"));
    golden(
        "dump_multiply_hlo.txt",
        &stdout_ok(&run(&["dump", &hlo], b"")),
    );
}

#[test]
fn json_report_of_a_small_module_is_golden() {
    let ba = dumps(&format!("{MULTIPLY}-buffer-assignment.txt"));
    golden(
        "dump_multiply_ba.jsonl",
        &stdout_ok(&run(&["dump", "--json", &ba], b"")),
    );
}

/// The field names scripts rely on, in every record kind.
const RECORD_FIELDS: [&str; 14] = [
    "module",
    "computation",
    "name",
    "allocation",
    "kind",
    "memory_space",
    "shape",
    "size",
    "bytes",
    "unpadded_bytes",
    "padding_bytes",
    "expansion",
    "cause",
    "agrees",
];

#[test]
fn json_fields_are_stable() {
    let o = run(
        &[
            "dump",
            "--json",
            &dumps(""),
            &dumps(&format!("{MULTIPLY}.txt")),
        ],
        b"",
    );
    let lines: Vec<Value> = stdout_ok(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut kinds = std::collections::BTreeMap::new();
    for v in &lines {
        let record = v["record"].as_str().unwrap().to_string();
        *kinds.entry(record.clone()).or_insert(0) += 1;
        let obj = v.as_object().unwrap();
        if record == "summary" {
            assert_eq!(v["schema"], 1);
            for f in [
                "module",
                "values",
                "arrays",
                "agreeing",
                "disagreeing",
                "compiler_total_bytes",
                "total_bytes",
                "by_memory_space",
                "by_kind",
                "top",
            ] {
                assert!(obj.contains_key(f), "summary lacks {f}: {v}");
            }
        } else {
            for f in RECORD_FIELDS {
                assert!(obj.contains_key(f), "{record} lacks {f}: {v}");
            }
        }
    }
    // 12 modules from the directory (values), 1 from the module text
    assert_eq!(kinds["summary"], 13);
    assert_eq!(kinds["value"], 128);
    assert_eq!(kinds["instruction"], 4);
    // every array value agrees with the compiler
    for v in lines
        .iter()
        .filter(|v| v["record"] == "value" && !v["bytes"].is_null())
    {
        assert_eq!(v["agrees"], true, "{v}");
        assert_eq!(v["bytes"], v["size"], "{v}");
    }
}

/// One CSV row's cells (RFC 4180 quoting: `"…"`, `""` inside).
fn csv_cells(row: &str) -> Vec<String> {
    let (mut cells, mut cell, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => cells.push(std::mem::take(&mut cell)),
            (c, _) => cell.push(c),
        }
    }
    cells.push(cell);
    cells
}

#[test]
fn csv_has_the_json_columns() {
    let ba = dumps(&format!("{MULTIPLY}-buffer-assignment.txt"));
    let csv = stdout_ok(&run(&["dump", "--csv", &ba], b""));
    let mut rows = csv.lines();
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    for f in RECORD_FIELDS {
        assert!(header.contains(&f), "CSV lacks {f}");
    }
    assert_eq!(header[0], "record");
    let json = stdout_ok(&run(&["dump", "--json", &ba], b""));
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for (row, line) in rows.zip(json.lines()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let cells = csv_cells(row);
        assert_eq!(cells.len(), header.len(), "{row}");
        assert_eq!(cells[col("record")], v["record"].as_str().unwrap());
        assert_eq!(cells[col("module")], v["module"].as_str().unwrap());
        if v["record"] != "summary" {
            assert_eq!(cells[col("name")], v["name"].as_str().unwrap());
            assert_eq!(cells[col("shape")], v["shape"].as_str().unwrap());
            assert_eq!(cells[col("bytes")], v["bytes"].to_string());
            assert_eq!(cells[col("size")], v["size"].to_string());
        }
    }
}

#[test]
fn standard_input_and_top() {
    let text = std::fs::read(dumps(&format!("{MULTIPLY}-buffer-assignment.txt"))).unwrap();
    let o = run(&["dump", "--top", "1", "-"], &text);
    let out = stdout_ok(&o);
    assert!(out.contains("most padded:\n    1. "), "{out}");
    assert!(!out.contains("    2. "), "{out}");
}

#[test]
fn text_that_is_not_a_dump_is_rejected() {
    let o = run(
        &["dump", "-"],
        b"garbage\n\x00\xff\nallocation 1: size x:\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no buffer assignment"));
    // a damaged allocation line inside a buffer assignment is counted
    let o = run(
        &["dump", "--json", "-"],
        b"BufferAssignment:\nallocation 1: size x:\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(String::from_utf8_lossy(&o.stdout).trim()).unwrap();
    assert_eq!(v["malformed_lines"], 1);
    assert!(v["first_problem"]
        .as_str()
        .unwrap()
        .starts_with("line 2: expected `allocation N"));
    // a missing path is an I/O error: status 2, named
    let o = run(&["dump", "/nonexistent/dump"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/dump"));
}

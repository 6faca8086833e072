//! Throughput of the dump report: every dump file of `tests/data`
//! (TPU v6e buffer assignments, module texts, memory reports, and the two
//! MaxText modules) concatenated and repeated to at least 10 MB, read a
//! line at a time by one `Reader` on one thread, records built and
//! summaries made.
//!
//! `cargo bench --bench dump` prints MB/s (median of several passes).
//! Without `--bench` (as `cargo test --all-targets` runs it) it makes one
//! pass over the files once, as a smoke check.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use tilelayout::dump::{Item, Options, Reader};

const TARGET_BYTES: usize = 10 << 20;

fn files() -> Vec<PathBuf> {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files = Vec::new();
    for dir in ["dumps/tpu_v6e", "hlo"] {
        let mut in_dir: Vec<PathBuf> = std::fs::read_dir(data.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        in_dir.sort();
        files.extend(in_dir);
    }
    files
}

/// One pass: returns (records, summaries) so the work is used.
fn pass(text: &str) -> (u64, u64) {
    let mut reader = Reader::new(Some("bench".into()), Options::default());
    let (mut records, mut summaries) = (0u64, 0u64);
    let mut emit = |i: Item| match i {
        Item::Record(r) => records += r.bytes.unwrap_or(0) & 1 | 1,
        Item::Summary(_) => summaries += 1,
    };
    for line in text.split('\n') {
        reader.line(line, &mut emit);
    }
    reader.finish(&mut emit);
    (records, summaries)
}

fn main() {
    let mut one = String::new();
    for f in files() {
        one.push_str(&std::fs::read_to_string(f).unwrap());
        if !one.ends_with('\n') {
            one.push('\n');
        }
    }
    let benching = std::env::args().any(|a| a == "--bench");
    if !benching {
        let (records, summaries) = black_box(pass(&one));
        assert!(records > 1000 && summaries > 20, "{records} {summaries}");
        println!(
            "dump bench: smoke pass over {} bytes ok (run `cargo bench --bench dump` to measure)",
            one.len()
        );
        return;
    }
    let mut text = String::with_capacity(TARGET_BYTES + one.len());
    while text.len() < TARGET_BYTES {
        text.push_str(&one);
    }
    black_box(pass(&text));
    let mut runs = Vec::new();
    for _ in 0..7 {
        let t = Instant::now();
        black_box(pass(&text));
        runs.push(t.elapsed().as_secs_f64());
    }
    runs.sort_by(f64::total_cmp);
    let mb = text.len() as f64 / 1e6;
    println!(
        "dump: {:.1} MB of dump text, median {:.1} ms = {:.0} MB/s (fastest {:.0}, slowest {:.0}; one thread)",
        mb,
        runs[3] * 1e3,
        mb / runs[3],
        mb / runs[0],
        mb / runs[6]
    );
}

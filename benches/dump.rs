//! Throughput of the dump report: every dump file of `tests/data`
//! (TPU v6e buffer assignments, module texts, memory reports, and the two
//! MaxText modules) concatenated and repeated to at least 10 MB, read a
//! line at a time by one `Reader` on one thread, records built and
//! summaries made.
//!
//! `cargo bench --bench dump` prints MB/s (median of several passes), by
//! the wall clock and by the thread's CPU time (on Linux, from
//! `/proc/thread-self/schedstat`): on a machine shared with other work the
//! wall clock measures the sharing, the CPU time the reader.
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
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    for _ in 0..7 {
        let (t, c) = (Instant::now(), cpu_seconds());
        black_box(pass(&text));
        wall.push(t.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (c, cpu_seconds()) {
            cpu.push(b - a);
        }
    }
    wall.sort_by(f64::total_cmp);
    cpu.sort_by(f64::total_cmp);
    let mb = text.len() as f64 / 1e6;
    println!(
        "dump: {:.1} MB of dump text on one thread; wall clock: median {:.0} MB/s (fastest {:.0}, slowest {:.0})",
        mb,
        mb / wall[3],
        mb / wall[0],
        mb / wall[6]
    );
    if cpu.len() == 7 {
        println!(
            "dump: CPU time: median {:.0} MB/s (fastest {:.0}, slowest {:.0})",
            mb / cpu[3],
            mb / cpu[0],
            mb / cpu[6]
        );
    }
}

/// This thread's CPU time so far (Linux), in seconds.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

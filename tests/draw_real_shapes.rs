//! Every real compiled-program shape in the data draws within the limits
//! of a picture: 50 ms and 1 MB, in text and in SVG.

use tilelayout::draw::Picture;

/// Every real compiled-program shape draws, in text and SVG, within 50 ms
/// and 1 MB each. The time is the least of three runs, so that a busy
/// machine's preemptions do not count (the slowest shape takes about 5 ms).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a time limit is for release builds: `cargo test --release --test draw_real_shapes` (CI runs it)"
)]
fn real_shapes_draw_small_and_fast() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let data = std::fs::read_to_string(dir.join("real_shapes_dev.tsv")).expect("real shapes");
    let mut worst = (std::time::Duration::ZERO, String::new());
    let mut count = 0;
    for line in data.lines().skip(1) {
        let text = line.split('\t').next().unwrap();
        let mut took = std::time::Duration::MAX;
        let (mut t, mut s) = (String::new(), String::new());
        for _ in 0..3 {
            let start = std::time::Instant::now();
            let p = Picture::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            (t, s) = (p.text(), p.svg());
            took = took.min(start.elapsed());
        }
        assert!(
            t.len() <= 1 << 20 && s.len() <= 1 << 20,
            "{text}: {} and {} bytes",
            t.len(),
            s.len()
        );
        if took > worst.0 {
            worst = (took, text.to_owned());
        }
        count += 1;
    }
    assert!(count > 400);
    eprintln!("slowest: {:?} for {}", worst.0, worst.1);
    assert!(worst.0.as_millis() <= 50, "{:?} for {}", worst.0, worst.1);
}

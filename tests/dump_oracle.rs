//! The dump report against the TPU compiler's own numbers: every array
//! value of every buffer assignment in `tests/data/dumps/tpu_v6e/` must get
//! exactly the `size=` the compiler wrote, and every module's allocations
//! must add up to its `Total bytes used`. Plus: the HLO module texts read
//! without a malformed line, and no text makes the reader panic.

use std::path::PathBuf;

use proptest::prelude::*;
use tilelayout::dump::{
    read_paths, read_stream, AllocationKind, Item, Options, Reader, Record, RecordKind, Summary,
};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path)
}

fn items_of(paths: &[PathBuf]) -> (Vec<Record>, Vec<Summary>) {
    let (mut records, mut summaries) = (Vec::new(), Vec::new());
    read_paths(paths, Options::default(), &mut |i| match i {
        Item::Record(r) => records.push(r),
        Item::Summary(s) => summaries.push(s),
    })
    .unwrap();
    (records, summaries)
}

#[test]
fn every_array_value_agrees_with_the_compiler() {
    let (records, summaries) = items_of(&[data("dumps/tpu_v6e")]);
    // the directory holds 12 modules, each with a buffer assignment
    assert_eq!(summaries.len(), 12);
    assert!(records.iter().all(|r| r.kind == RecordKind::Value));
    let arrays: Vec<&Record> = records.iter().filter(|r| r.bytes.is_some()).collect();
    let tuples = records.len() - arrays.len();
    for r in &arrays {
        assert_eq!(
            r.agrees,
            Some(true),
            "{} {}: {} ours {:?} compiler {:?}",
            r.module,
            r.name,
            r.shape,
            r.bytes,
            r.size
        );
    }
    // tuples are not arrays: their size is not ours to check
    for r in records.iter().filter(|r| r.bytes.is_none()) {
        assert!(r.shape.starts_with('('), "{}: {}", r.name, r.shape);
        assert_eq!(r.agrees, None);
    }
    // the counts, so that a reader that skips values cannot pass
    assert_eq!((arrays.len(), tuples), (110, 18));
    // thread-local scalars without a layout: one 4 KiB register each
    let registers = arrays
        .iter()
        .filter(|r| r.shape == "u32[]" && r.allocation_kind == Some(AllocationKind::ThreadLocal))
        .count();
    assert_eq!(registers, 9);
    for s in &summaries {
        assert_eq!(s.disagreeing, 0, "{}", s.module);
        assert_eq!(s.malformed_lines, 0, "{}: {:?}", s.module, s.first_problem);
        assert!(s.compiler_total_bytes.is_some(), "{}", s.module);
        assert_eq!(s.total_bytes, s.compiler_total_bytes, "{}", s.module);
    }
}

#[test]
fn mini_attention_in_detail() {
    let file = "dumps/tpu_v6e/module_0051.jit_mini_attention.cl_772339112.after_optimizations-buffer-assignment.txt";
    let (records, summaries) = items_of(&[data(file)]);
    let s = &summaries[0];
    assert_eq!(
        s.module,
        "module_0051.jit_mini_attention.cl_772339112.after_optimizations"
    );
    assert_eq!(
        (s.compiler_total_bytes, s.total_bytes),
        (Some(172580), Some(172580))
    );
    assert_eq!((s.values, s.arrays, s.agreeing), (25, 22, 22));
    let space = |k: &str| s.by_memory_space.iter().find(|t| t.key == k).unwrap();
    // HBM: allocations 0–12 and 14; VMEM (color 1): allocation 15
    assert_eq!(
        (space("1").allocations, space("1").allocation_bytes),
        (1, 69632)
    );
    assert_eq!(space("1").values, 7);
    let kind = |k: &str| s.by_kind.iter().find(|t| t.key == k).unwrap();
    assert_eq!(
        (
            kind("thread-local").allocations,
            kind("thread-local").allocation_bytes
        ),
        (9, 4608)
    );
    assert_eq!(kind("parameter").allocations, 3);
    let top = &records[s.top[0]];
    // the most padded: w1, f32[64,64] with its 64 columns in 128 lanes
    assert_eq!(
        (top.name.as_str(), top.shape.as_str()),
        ("Arg_1.2", "f32[64,64]{1,0:T(8,128)}")
    );
    assert_eq!(top.padding_bytes, Some(16384));
    assert_eq!(
        top.cause.as_deref(),
        Some("T(8,128) pads dim 1 from 64 to 128: 2×")
    );
    // no order of a square array does better
    assert_eq!(top.alternative, None);
    let f16 = records
        .iter()
        .find(|r| r.name == "add_sqrt_fusion")
        .unwrap();
    assert_eq!(
        (f16.shape.as_str(), f16.padding_bytes),
        ("f32[16]{0:T(128)S(1)}", Some(448))
    );
    assert_eq!(
        f16.cause.as_deref(),
        Some("T(128) pads dim 0 from 16 to 128: 8×")
    );
    let w2 = records.iter().find(|r| r.name == "Arg_2.3").unwrap();
    assert_eq!((w2.allocation, w2.parameter), (Some(2), Some(2)));
    assert_eq!(
        (w2.bytes, w2.unpadded_bytes, w2.padding_bytes),
        (Some(16384), Some(8192), Some(8192))
    );
    assert_eq!(
        w2.cause.as_deref(),
        Some("T(8,128) pads dim 0 from 64 to 128: 2×")
    );
    assert_eq!(w2.expansion, Some(2.0));
}

#[test]
fn module_texts_read_cleanly() {
    // excerpts of modules (no ENTRY): every computation but the fusion
    // bodies is reported
    let files = [
        data("hlo/maxtext_llama3_8b_train_step.hlo.txt"),
        data("hlo/maxtext_qwen3_1.7b_train_step.hlo.txt"),
    ];
    let (records, summaries) = items_of(&files);
    assert_eq!(summaries.len(), 2);
    for s in &summaries {
        assert_eq!(s.malformed_lines, 0, "{}: {:?}", s.module, s.first_problem);
        assert!(s.values > 300, "{}: {}", s.module, s.values);
    }
    // module → the computations named by `calls=` (fusion and async bodies)
    let mut bodies = std::collections::BTreeMap::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let module = f.file_stem().unwrap().to_string_lossy().into_owned();
        let names: std::collections::BTreeSet<String> = text
            .split("calls=%")
            .skip(1)
            .map(|part| part.split([',', ' ', '\n']).next().unwrap().to_string())
            .collect();
        assert!(names.len() > 50);
        bodies.insert(module, names);
    }
    for r in &records {
        assert_eq!(r.kind, RecordKind::Instruction);
        assert!(
            r.bytes.is_some(),
            "{} {}: {} {:?}",
            r.module,
            r.name,
            r.shape,
            r.cause
        );
        // fusion bodies own no buffers
        let c = r.computation.as_deref().unwrap();
        assert!(
            !bodies[&r.module].contains(c),
            "{} {c} {}",
            r.module,
            r.name
        );
    }
}

#[test]
fn a_directory_without_buffer_assignments_uses_module_texts_and_reports() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dump-modules-only");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let from = data("dumps/tpu_v6e");
    for suffix in [
        "after_optimizations.txt",
        "after_optimizations-memory-usage-report.txt",
    ] {
        let name = format!("module_0051.jit_mini_attention.cl_772339112.{suffix}");
        std::fs::copy(from.join(&name), dir.join(&name)).unwrap();
    }
    let (records, summaries) = items_of(&[dir]);
    assert_eq!(summaries.len(), 1);
    assert_eq!(summaries[0].compiler_total_bytes, Some(172580));
    assert_eq!(summaries[0].total_bytes, None);
    // the entry's and the reducers' instructions, not the fusion bodies'
    let names: Vec<&str> = records.iter().map(|r| r.name.as_str()).collect();
    assert!(
        names.contains(&"Arg_1.2") && names.contains(&"copy-start{0}"),
        "{names:?}"
    );
    assert!(!names.contains(&"divide.5"), "{names:?}");
}

fn all_dump_text() -> Vec<u8> {
    let mut all = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(data("dumps/tpu_v6e"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files.iter().take(9) {
        all.extend(std::fs::read(f).unwrap());
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Real dump text cut anywhere and with bytes changed: the reader
    /// reports (perhaps malformed lines), never panics.
    #[test]
    fn truncated_or_damaged_text_never_panics(
        cut in 0usize..40_000,
        edits in proptest::collection::vec((0usize..40_000, any::<u8>()), 0..20),
    ) {
        let mut text = all_dump_text();
        text.truncate(cut.min(text.len()));
        for (at, b) in edits {
            if !text.is_empty() {
                let n = text.len();
                text[at % n] = b;
            }
        }
        let mut reader = Reader::new(None, Options { top: 3 });
        let mut n = 0;
        read_stream(&text[..], &mut reader, &mut |_| n += 1).unwrap();
    }

    /// Lines made of the formats' own pieces in any order.
    #[test]
    fn garbage_lines_never_panic(lines in proptest::collection::vec(
        "(BufferAssignment:|HloModule m|allocation [0-9]{1,3}: size [0-9]{1,25}(, (color 1|thread-local|parameter 0|constant|output shape is \\|\\(f32\\[2\\]\\)\\|))*:| value: <[0-9]{1,3} [a-z.{}0-9]{0,6} @[0-9]> \\(size=[0-9]{1,25},offset=[0-9]{1,3}\\): [a-z0-9\\[\\]{}:,()TS]{0,30}|  (ROOT )?%[a-z]{1,3} = [a-z0-9\\[\\]{}:,()TS/*=]{0,30} [a-z-]{0,8}\\(.{0,10}|ENTRY %e \\(\\) -> f32\\[\\] \\{|\\}|Total bytes used: [0-9]{0,25}|.{0,40})",
        0..40,
    )) {
        let mut reader = Reader::new(Some("m".into()), Options { top: 5 });
        let mut out = Vec::new();
        for l in &lines {
            reader.line(l, &mut |i| out.push(i));
        }
        reader.finish(&mut |i| out.push(i));
    }
}

/// Allocation sizes whose sum passes `u64::MAX` (a proptest case of
/// `garbage_lines_never_panic`) saturate instead of overflowing.
#[test]
fn allocation_sizes_past_u64_saturate() {
    let mut reader = Reader::new(Some("m".into()), Options { top: 5 });
    let mut out = Vec::new();
    for l in [
        "BufferAssignment:",
        "allocation 0: size 9000000000000000000, color 1:",
        "allocation 0: size 9500000000000000000, color 1:",
    ] {
        reader.line(l, &mut |i| out.push(i));
    }
    reader.finish(&mut |i| out.push(i));
    assert!(!out.is_empty());
}

/// Files concatenated into one stream give the same records and summaries
/// as the files read one by one (each header starts a module).
#[test]
fn concatenated_files_read_as_the_files() {
    let dir = data("dumps/tpu_v6e");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with("memory-usage-report.txt"))
        .collect();
    files.sort();
    let mut text = Vec::new();
    let mut separately = Vec::new();
    for f in &files {
        text.extend(std::fs::read(f).unwrap());
        let mut reader = Reader::new(Some("m".into()), Options::default());
        read_stream(std::fs::File::open(f).unwrap(), &mut reader, &mut |i| {
            separately.push(i)
        })
        .unwrap();
    }
    let mut together = Vec::new();
    let mut reader = Reader::new(Some("m".into()), Options::default());
    read_stream(&text[..], &mut reader, &mut |i| together.push(i)).unwrap();
    assert_eq!(together.len(), separately.len());
    for (a, b) in together.iter().zip(&separately) {
        match (a, b) {
            (Item::Record(a), Item::Record(b)) => assert_eq!(a, b),
            (Item::Summary(a), Item::Summary(b)) => {
                // line numbers of problems differ; there are none
                assert_eq!(a, b);
            }
            _ => panic!("{a:?} vs {b:?}"),
        }
    }
    // 12 buffer assignments and 12 module texts
    let summaries = together
        .iter()
        .filter(|i| matches!(i, Item::Summary(_)))
        .count();
    assert_eq!(summaries, 24);
}

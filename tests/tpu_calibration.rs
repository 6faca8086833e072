//! Calibrates the TPU policy on real compiler output: every array with a
//! layout in `tests/data/real_shapes_dev.tsv` and in the two HLO dumps in
//! `tests/data/hlo/`. Prints the agreement rate per source and overall,
//! the excluded categories with their counts, the evidence per rule, and
//! up to 30 disagreeing rows; fails below 98 % of the rows not excluded.
//!
//! Agreement means the policy's tiles and `E(n)` equal the data's, given
//! the data's element type, dims and `minor_to_major`. Other attributes
//! (`S(n)`, `L`) are not predicted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use tilelayout::tpu::{tpu_choice_for, TpuError};
use tilelayout::value::{parse_shape_with, ParseOptions, PrimitiveType, Shape};

const TARGET_PERCENT: f64 = 98.0;
const HLO_DUMPS: [&str; 2] = [
    "maxtext_llama3_8b_train_step.hlo.txt",
    "maxtext_qwen3_1.7b_train_step.hlo.txt",
];

/// The repository's `tests/data` (see its README for the sources).
fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Why a row is left out of the rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Excluded {
    /// Inside a custom call's `operand_layout_constraints={…}`: a
    /// `minor_to_major` the kernel demands, not a layout the compiler chose.
    OperandConstraint,
    /// Memory space other than 0 (HBM) or 1 (VMEM): the tiles depend on the
    /// space (`s32[]{:S(2)}` is untiled), not on the shape.
    MemorySpace,
    /// Dynamic dims: the policy needs static dims.
    DynamicDims,
    /// An element type the policy has no format for.
    UnsupportedType,
}

impl Excluded {
    const ALL: [Excluded; 4] = [
        Excluded::OperandConstraint,
        Excluded::MemorySpace,
        Excluded::DynamicDims,
        Excluded::UnsupportedType,
    ];

    fn describe(self) -> &'static str {
        match self {
            Excluded::OperandConstraint => {
                "custom-call operand_layout_constraints (minor_to_major only, not chosen)"
            }
            Excluded::MemorySpace => "memory space S(n) other than 0/1 (tiles depend on the space)",
            Excluded::DynamicDims => "dynamic dims",
            Excluded::UnsupportedType => "element type without a TPU format",
        }
    }
}

/// One array with a layout found in a source.
struct Row {
    line: usize,
    text: String,
    in_constraint: bool,
}

/// Every `TYPE[DIMS]{LAYOUT}` in `line`, with whether it sits inside an
/// `operand_layout_constraints={…}` list. Shapes without `{…}` are skipped
/// (they carry no layout); their count is returned.
fn arrays_in_line(line: &str) -> (Vec<(String, bool)>, usize) {
    let b = line.as_bytes();
    let mut constraint_ranges = Vec::new();
    let key = "operand_layout_constraints={";
    let mut from = 0;
    while let Some(k) = line[from..].find(key) {
        let open = from + k + key.len() - 1;
        let mut depth = 0usize;
        let mut close = b.len();
        for (j, &c) in b.iter().enumerate().skip(open) {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = j;
                        break;
                    }
                }
                _ => {}
            }
        }
        constraint_ranges.push(open..close);
        from = close.min(b.len());
    }
    let mut out = Vec::new();
    let mut without_layout = 0;
    for (i, &c) in b.iter().enumerate() {
        if c != b'[' {
            continue;
        }
        let mut j = i;
        while j > 0 && b[j - 1].is_ascii_alphanumeric() {
            j -= 1;
        }
        if j == i || (j > 0 && (b[j - 1] == b'_' || b[j - 1] == b'.' || b[j - 1] == b'%')) {
            continue;
        }
        match PrimitiveType::from_name(&line[j..i], true) {
            Some(t) if t.is_array_type() => {}
            _ => continue,
        }
        let Some(rb) = line[i..].find(']').map(|k| i + k) else {
            continue;
        };
        if b.get(rb + 1) != Some(&b'{') {
            without_layout += 1;
            continue;
        }
        let Some(cb) = line[rb..].find('}').map(|k| rb + k) else {
            continue;
        };
        let inside = constraint_ranges.iter().any(|r| r.contains(&j));
        out.push((line[j..=cb].to_owned(), inside));
    }
    (out, without_layout)
}

struct Source {
    name: String,
    rows: Vec<Row>,
    without_layout: usize,
}

fn load_sources() -> Vec<Source> {
    let dir = data_dir();
    let mut sources = Vec::new();
    let real =
        std::fs::read_to_string(dir.join("real_shapes_dev.tsv")).expect("read real_shapes_dev.tsv");
    let rows = real
        .lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| Row {
            line: i + 1,
            text: l.split('\t').next().unwrap().to_owned(),
            in_constraint: false,
        })
        .collect();
    sources.push(Source {
        name: "real_shapes_dev.tsv".into(),
        rows,
        without_layout: 0,
    });
    for dump in HLO_DUMPS {
        let text = std::fs::read_to_string(dir.join("hlo").join(dump)).expect("read HLO dump");
        let mut rows = Vec::new();
        let mut without_layout = 0;
        for (i, line) in text.lines().enumerate() {
            let (found, skipped) = arrays_in_line(line);
            without_layout += skipped;
            rows.extend(found.into_iter().map(|(text, in_constraint)| Row {
                line: i + 1,
                text,
                in_constraint,
            }));
        }
        sources.push(Source {
            name: format!("hlo/{dump}"),
            rows,
            without_layout,
        });
    }
    sources
}

fn width_name(t: PrimitiveType) -> String {
    if t == PrimitiveType::Pred {
        "8-bit".into()
    } else {
        format!("{}-bit", t.bit_width())
    }
}

fn tiles_text(s: &Shape) -> String {
    let text = s.to_string();
    match text.find(':') {
        Some(k) => {
            let attrs = &text[k + 1..text.len() - 1];
            // Drop `S(n)`: not predicted.
            match attrs.find("S(") {
                Some(s) => attrs[..s].to_owned(),
                None => attrs.to_owned(),
            }
        }
        None => String::new(),
    }
}

#[derive(Default)]
struct Tally {
    agree: usize,
    disagree: usize,
    excluded: BTreeMap<Excluded, usize>,
    excluded_agree: BTreeMap<Excluded, usize>,
}

impl Tally {
    fn rate(&self) -> f64 {
        100.0 * self.agree as f64 / (self.agree + self.disagree).max(1) as f64
    }
}

#[test]
fn policy_agrees_with_the_tpu_compiler() {
    let sources = load_sources();
    let mut overall = Tally::default();
    let mut per_source = Vec::new();
    let mut disagreements = Vec::new();
    // (width, rule, tiles) → (rows, distinct shapes)
    let mut evidence: BTreeMap<(String, &str, String), (usize, BTreeSet<String>)> = BTreeMap::new();
    let mut distinct_agree = BTreeSet::new();
    let mut distinct_disagree = BTreeSet::new();

    for src in &sources {
        let mut tally = Tally::default();
        assert!(
            !src.rows.is_empty(),
            "{}: no arrays with a layout found",
            src.name
        );
        for row in &src.rows {
            let (shape, _) = parse_shape_with(&row.text, ParseOptions { strict: true })
                .unwrap_or_else(|e| {
                    panic!(
                        "{}:{}: `{}` does not parse: {e}",
                        src.name, row.line, row.text
                    )
                });
            let choice = tpu_choice_for(&shape);
            let predicted = choice.as_ref().ok().map(|c| c.shape);
            let agrees = predicted.is_some_and(|p| {
                p.layout().tiles() == shape.layout().tiles()
                    && p.layout().element_size_in_bits == shape.layout().element_size_in_bits
            });
            let exclusion = if row.in_constraint {
                Some(Excluded::OperandConstraint)
            } else if !matches!(shape.layout().memory_space, 0 | 1) {
                Some(Excluded::MemorySpace)
            } else if !shape.is_static() {
                Some(Excluded::DynamicDims)
            } else if matches!(choice, Err(TpuError::UnsupportedType { .. })) {
                Some(Excluded::UnsupportedType)
            } else {
                None
            };
            if let Some(x) = exclusion {
                *tally.excluded.entry(x).or_default() += 1;
                if agrees {
                    *tally.excluded_agree.entry(x).or_default() += 1;
                }
                continue;
            }
            let choice =
                choice.unwrap_or_else(|e| panic!("{}:{}: `{}`: {e}", src.name, row.line, row.text));
            if agrees {
                tally.agree += 1;
                distinct_agree.insert(row.text.clone());
                let e = evidence
                    .entry((
                        width_name(shape.element_type()),
                        choice.rule.name(),
                        tiles_text(&choice.shape),
                    ))
                    .or_default();
                e.0 += 1;
                e.1.insert(row.text.clone());
            } else {
                tally.disagree += 1;
                distinct_disagree.insert(row.text.clone());
                disagreements.push(format!(
                    "{}:{}: data {}  policy {} ({})",
                    src.name,
                    row.line,
                    row.text,
                    choice.shape,
                    choice.rule.name()
                ));
            }
        }
        overall.agree += tally.agree;
        overall.disagree += tally.disagree;
        for (k, v) in &tally.excluded {
            *overall.excluded.entry(*k).or_default() += v;
        }
        for (k, v) in &tally.excluded_agree {
            *overall.excluded_agree.entry(*k).or_default() += v;
        }
        per_source.push((src.name.clone(), src.rows.len(), src.without_layout, tally));
    }

    println!(
        "TPU policy calibration (agreement = same tiles and E(n) given dims and minor_to_major)"
    );
    for (name, total, without_layout, t) in &per_source {
        println!(
            "  {name}: {} / {} agree = {:.2}% ({total} arrays with a layout; {without_layout} shapes without a layout skipped)",
            t.agree,
            t.agree + t.disagree,
            t.rate()
        );
        for x in Excluded::ALL {
            let n = t.excluded.get(&x).copied().unwrap_or(0);
            let a = t.excluded_agree.get(&x).copied().unwrap_or(0);
            println!(
                "      excluded {:>4}  {} (policy would match {a})",
                n,
                x.describe()
            );
        }
    }
    println!(
        "  overall: {} / {} agree = {:.2}%; distinct shapes {} agree, {} disagree",
        overall.agree,
        overall.agree + overall.disagree,
        overall.rate(),
        distinct_agree.len(),
        distinct_disagree.len()
    );
    for x in Excluded::ALL {
        let n = overall.excluded.get(&x).copied().unwrap_or(0);
        let a = overall.excluded_agree.get(&x).copied().unwrap_or(0);
        println!(
            "      excluded {:>4}  {} (policy would match {a})",
            n,
            x.describe()
        );
    }
    println!("evidence per rule (agreeing rows, distinct shapes):");
    for ((width, rule, tiles), (rows, distinct)) in &evidence {
        let example = distinct.iter().next().map(String::as_str).unwrap_or("");
        println!(
            "  {width:>6} {rule:<18} {tiles:<22} {rows:>5} rows {:>3} distinct  e.g. {example}",
            distinct.len()
        );
    }
    println!("disagreements ({} rows, first 30):", disagreements.len());
    for d in disagreements.iter().take(30) {
        println!("  {d}");
    }

    let total_rows: usize = sources.iter().map(|s| s.rows.len()).sum();
    let excluded_rows: usize = overall.excluded.values().sum();
    assert!(
        excluded_rows * 20 <= total_rows,
        "{excluded_rows} of {total_rows} rows excluded: more than 5%, the exclusions hide too much"
    );
    for (name, _, _, t) in &per_source {
        assert!(t.agree + t.disagree > 0, "{name}: no rows compared");
        assert!(
            t.rate() >= TARGET_PERCENT,
            "{name}: agreement {:.2}% below {TARGET_PERCENT}%",
            t.rate()
        );
    }
    assert!(
        overall.rate() >= TARGET_PERCENT,
        "overall agreement {:.2}% below {TARGET_PERCENT}%",
        overall.rate()
    );
}

#[test]
fn scanner_finds_tuple_elements_and_constraints() {
    let line = "%x = (f32[2]{0:T(128)}, /*index=1*/bf16[]{:T(256)}) custom-call(%a), \
                operand_layout_constraints={s8[1,1,1]{2,1,0}, f32[3]}, metadata={op_name=\"a[0]\"}";
    let (found, skipped) = arrays_in_line(line);
    let texts: Vec<_> = found.iter().map(|(t, c)| (t.as_str(), *c)).collect();
    assert_eq!(
        texts,
        [
            ("f32[2]{0:T(128)}", false),
            ("bf16[]{:T(256)}", false),
            ("s8[1,1,1]{2,1,0}", true)
        ]
    );
    assert_eq!(skipped, 1);
}

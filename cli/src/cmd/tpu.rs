//! `tilelayout tpu TYPE[DIMS][{MINOR_TO_MAJOR}]`: the layout XLA's TPU
//! compiler would give the array, its bytes and its padding;
//! `tilelayout tpu --check SHAPE_WITH_LAYOUT`: whether a layout is that one.

use serde::Serialize;
use tilelayout::tpu::{check_layout, tpu_layout_for_text, LayoutCheck, TpuAnswer};
use tilelayout::value::{parse_shape_with, XlaLayout};

use super::{Failure, OPTIONS};
use crate::io::{ErrorFields, Inputs, Output, Problem};

/// Arguments of `tpu`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Arrays without tiles: `bf16[1024,1024]`, `f32[3,5]{0,1}` (only a
    /// `minor_to_major` may be given); `-` reads one a line from stdin, a
    /// file path one a line from the file (first TSV field; blank lines and
    /// `#` comments skipped).
    #[arg(value_name = "SHAPE", required = true)]
    pub shapes: Vec<String>,
    /// Check shapes with layouts (`bf16[2,1024]{1,0:T(2,128)(2,1)}`)
    /// against the policy instead: whether the tiles, `E(n)` and the rest
    /// are the policy's for the same dims and `minor_to_major` (the memory
    /// space `S(n)` is not compared).
    #[arg(long)]
    pub check: bool,
}

/// Runs `tpu`.
///
/// # Errors
/// I/O errors only; bad shapes are reported per input.
pub fn run(args: &Args, out: &mut Output) -> Result<(), Failure> {
    if args.check {
        return run_check(args, out);
    }
    let mut inputs = Inputs::new(&args.shapes, 1);
    while let Some(input) = inputs.next_input()? {
        let result: Result<TpuAnswer, Problem> = match &input.defect {
            Some(p) => Err(p.clone()),
            None => tpu_layout_for_text(&input.text).map_err(|e| {
                let s = e.span();
                let span = if s.is_none() {
                    0..0
                } else {
                    s.start as usize..s.end as usize
                };
                Problem::new(e.message().as_str(), span)
            }),
        };
        let (answer, problem) = match result {
            Ok(a) => (Some(a), None),
            Err(p) => (None, Some(p)),
        };
        let text = match &answer {
            Some(a) if !out.json() => summary(a),
            _ => String::new(),
        };
        let record = Record {
            input: &input.text,
            ok: problem.is_none(),
            layout: answer.as_ref().map(|a| a.shape.to_string()),
            rule: answer.as_ref().map(|a| a.rule.name()),
            bytes: answer.as_ref().map(|a| a.report.bytes),
            xla_bytes: answer.as_ref().map(|a| a.report.xla_bytes),
            unpadded_bytes: answer.as_ref().map(|a| a.report.unpadded_bytes),
            padding_bytes: answer.as_ref().map(|a| a.report.padding_bytes),
            padding_percent: answer.as_ref().map(|a| a.report.padding_percent),
            error: ErrorFields::of(problem.as_ref()),
        };
        out.record(&input, problem.is_none(), &record, &text)?;
        if let Some(p) = &problem {
            out.diagnose(&input, &input.text, p)?;
        }
    }
    Ok(())
}

fn summary(a: &TpuAnswer) -> String {
    let r = &a.report;
    format!(
        "{}\n  rule            {}\n  bytes           {}\n  xla_bytes       {}\n  unpadded bytes  {}\n  padding         {} bytes ({:.2}%)",
        a.shape,
        a.rule.name(),
        r.bytes,
        r.xla_bytes,
        r.unpadded_bytes,
        r.padding_bytes,
        r.padding_percent
    )
}

/// The JSON object of one input.
#[derive(Serialize)]
pub struct Record<'a> {
    /// The input text.
    pub input: &'a str,
    /// A layout was chosen.
    pub ok: bool,
    /// The full canonical shape text with the chosen layout.
    pub layout: Option<String>,
    /// Which policy rule chose it (`scalar`, `rank-1`, …).
    pub rule: Option<&'static str>,
    /// Exact bytes of the chosen layout.
    pub bytes: Option<u64>,
    /// XLA's `ArraySize` bytes.
    pub xla_bytes: Option<u64>,
    /// Bytes of the elements alone.
    pub unpadded_bytes: Option<u64>,
    /// `bytes - unpadded_bytes`.
    pub padding_bytes: Option<u64>,
    /// Padding as a percentage of `bytes`.
    pub padding_percent: Option<f64>,
    /// The error, if any.
    #[serde(flatten)]
    pub error: ErrorFields,
}

/// Runs `tpu --check`.
fn run_check(args: &Args, out: &mut Output) -> Result<(), Failure> {
    let mut inputs = Inputs::new(&args.shapes, 1);
    while let Some(input) = inputs.next_input()? {
        let result: Result<LayoutCheck, Problem> = match &input.defect {
            Some(p) => Err(p.clone()),
            None => check_text(&input.text),
        };
        let (check, problem) = match result {
            Ok(c) => (Some(c), None),
            Err(p) => (None, Some(p)),
        };
        let differences = check
            .as_ref()
            .map(|c| differences(&input.text, c))
            .unwrap_or_default();
        let text = match &check {
            Some(c) if !out.json() => {
                if c.matches() {
                    format!(
                        "{}: the policy's layout (rule {})",
                        input.text,
                        c.policy.rule.name()
                    )
                } else {
                    format!(
                        "{}: not the policy's layout\n  policy  {} (rule {})\n  {}",
                        input.text,
                        c.policy.shape,
                        c.policy.rule.name(),
                        differences.join("\n  ")
                    )
                }
            }
            _ => String::new(),
        };
        let record = CheckRecord {
            input: &input.text,
            ok: problem.is_none(),
            matches: check.as_ref().map(LayoutCheck::matches),
            policy: check.as_ref().map(|c| c.policy.shape.to_string()),
            rule: check.as_ref().map(|c| c.policy.rule.name()),
            differences: check.as_ref().map(|_| differences.clone()),
            error: ErrorFields::of(problem.as_ref()),
        };
        out.record(&input, problem.is_none(), &record, &text)?;
        if let Some(p) = &problem {
            out.diagnose(&input, &input.text, p)?;
        }
    }
    Ok(())
}

fn check_text(text: &str) -> Result<LayoutCheck, Problem> {
    let (shape, spans) = parse_shape_with(text, OPTIONS).map_err(|e| Problem::from_core(&e))?;
    shape
        .validate()
        .map_err(|e| Problem::from_core(&spans.locate(e)))?;
    check_layout(&shape).map_err(|e| {
        let e = match e {
            tilelayout::tpu::TpuError::Core(c) => tilelayout::tpu::TpuError::Core(spans.locate(c)),
            tilelayout::tpu::TpuError::UnsupportedType { ty, .. } => {
                tilelayout::tpu::TpuError::UnsupportedType {
                    ty,
                    span: spans.element_type,
                }
            }
            e => e,
        };
        let s = e.span();
        let span = if s.is_none() {
            0..0
        } else {
            s.start as usize..s.end as usize
        };
        Problem::new(e.message().as_str(), span)
    })
}

/// `T(8,128)(2,1)`, or `no tiles`.
fn tiles_text(l: &XlaLayout) -> String {
    if l.tile_count() == 0 {
        return "no tiles".into();
    }
    let mut t = String::from("T");
    for tile in l.tiles() {
        t.push_str(&tile.to_string());
    }
    t
}

/// One sentence per difference.
fn differences(text: &str, c: &LayoutCheck) -> Vec<String> {
    let given = match parse_shape_with(text, OPTIONS) {
        Ok((s, _)) => *s.layout(),
        Err(_) => return Vec::new(),
    };
    let policy = c.policy.shape.layout();
    let mut d = Vec::new();
    if c.tiles_differ {
        d.push(format!(
            "tiles: {} given, the policy gives {}",
            tiles_text(&given),
            tiles_text(policy)
        ));
    }
    if c.element_size_differs {
        d.push(format!(
            "element size: E({}) given, the policy gives E({}) (0: the type's own)",
            given.element_size_in_bits, policy.element_size_in_bits
        ));
    }
    if c.other_differs {
        d.push(format!(
            "other attributes: {given} given, the policy's layout is {policy}"
        ));
    }
    d
}

/// The JSON object of one `--check` input.
#[derive(Serialize)]
pub struct CheckRecord<'a> {
    /// The input text.
    pub input: &'a str,
    /// The input was checked (it parsed and the policy covers its type).
    pub ok: bool,
    /// The layout is the policy's (memory space aside).
    pub matches: Option<bool>,
    /// The shape with the policy's layout (and the input's memory space).
    pub policy: Option<String>,
    /// The policy rule (`scalar`, `rank-1`, …).
    pub rule: Option<&'static str>,
    /// What differs, one sentence each (empty when it matches).
    pub differences: Option<Vec<String>>,
    /// The error, if any.
    #[serde(flatten)]
    pub error: ErrorFields,
}

//! `tilelayout tpu TYPE[DIMS][{MINOR_TO_MAJOR}]`: the layout XLA's TPU
//! compiler would give the array, its bytes and its padding (SPEC §6).

use serde::Serialize;
use tilelayout::tpu::{tpu_layout_for_text, TpuAnswer};

use super::Failure;
use crate::io::{ErrorFields, Inputs, Output, Problem};

/// Arguments of `tpu`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Arrays without tiles: `bf16[1024,1024]`, `f32[3,5]{0,1}` (only a
    /// `minor_to_major` may be given); `-` reads one a line from stdin.
    #[arg(value_name = "SHAPE", required = true)]
    pub shapes: Vec<String>,
}

/// Runs `tpu`.
///
/// # Errors
/// I/O errors only; bad shapes are reported per input.
pub fn run(args: &Args, out: &mut Output) -> Result<(), Failure> {
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

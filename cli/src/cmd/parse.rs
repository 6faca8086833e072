//! `tilelayout parse SHAPE…`: canonical text, validity, physical and
//! expanded dims, and sizes.

use std::fmt::Write as _;

use serde::Serialize;
use tilelayout::value::{
    canonicalize, parse_layout_with, parse_shape_with, walk, write_tile, ErrorKind, Event, Shape,
    Sizes, TextBuf, Tiling,
};

use super::{Failure, OPTIONS};
use crate::io::{ErrorFields, Input, Inputs, Output, Problem};

/// Arguments of `parse`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Shapes in XLA's text, `bf16[8,1280]{1,0:T(8,128)(2,1)}` (also tuples
    /// and `F32`); `-` reads one a line from stdin, a file path one a line
    /// from the file (first TSV field; blank lines and `#` comments skipped).
    #[arg(value_name = "SHAPE", required = true)]
    pub shapes: Vec<String>,
}

/// Runs `parse`.
///
/// # Errors
/// I/O errors only; bad shapes are reported per input.
pub fn run(args: &Args, out: &mut Output) -> Result<(), Failure> {
    let mut inputs = Inputs::new(&args.shapes, 1);
    while let Some(input) = inputs.next_input()? {
        let a = match &input.defect {
            Some(p) => Analysis::unparsed(p.clone()),
            None => analyze(&input.text),
        };
        let ok = a.problem.is_none();
        let text = if out.json() {
            String::new()
        } else {
            a.summary()
        };
        out.record(&input, ok, &Record::new(&input, &a), &text)?;
        if let Some(p) = &a.problem {
            out.diagnose(&input, &input.text, p)?;
        }
    }
    Ok(())
}

/// What kind of shape the text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// `f32[3,5]{1,0}`, also `token[]` and `opaque[]`.
    Array,
    /// `(f32[], s8[4])`.
    Tuple,
    /// `b(f32[4])`.
    Buffer,
    /// A layout on its own, `{1,0:T(8,128)(2,1)}`.
    Layout,
}

/// A layout on its own: its canonical text and the rules that do not need
/// the dims (no sizes: they need a shape).
fn analyze_layout(text: &str) -> Analysis {
    match parse_layout_with(text) {
        Err(e) => Analysis::unparsed(Problem::from_core(&e)),
        Ok((layout, spans)) => Analysis {
            canonical: Some(layout.to_string()),
            kind: Some(Kind::Layout),
            problem: layout
                .validate()
                .err()
                .map(|e| Problem::from_core(&spans.locate(e))),
            tiling: None,
            no_sizes: Some("a layout without a shape"),
            at_bound: None,
        },
    }
}

/// Everything `parse` says about one input.
#[derive(Debug)]
pub struct Analysis {
    /// XLA's printing (also when invalid), `None` if it did not parse.
    pub canonical: Option<String>,
    /// Array, tuple or buffer (`None` if it did not parse).
    pub kind: Option<Kind>,
    /// Why it is rejected (syntax or validity), if it is.
    pub problem: Option<Problem>,
    /// The dims and tiling of a valid static array.
    pub tiling: Option<Tiled>,
    /// Why sizes are not defined for a valid shape (tuple, unbounded
    /// dynamic dims, `token`).
    pub no_sizes: Option<&'static str>,
    /// For bounded dynamic dims (`<=N`): the shape at its bounds, whose
    /// dims and sizes `tiling` holds (what XLA reserves for it).
    pub at_bound: Option<String>,
}

/// Dims and sizes of a valid static array.
#[derive(Debug)]
pub struct Tiled {
    /// Physical dims (most major first).
    pub physical: Vec<u64>,
    /// Each tile in its text, with the expanded dims after it.
    pub levels: Vec<(String, Vec<u64>)>,
    /// The final expanded dims.
    pub expanded: Vec<u64>,
    /// Sizes.
    pub sizes: Sizes,
}

impl Analysis {
    fn unparsed(problem: Problem) -> Analysis {
        Analysis {
            canonical: None,
            kind: None,
            problem: Some(problem),
            tiling: None,
            no_sizes: None,
            at_bound: None,
        }
    }

    /// The readable form: canonical text, then one fact a line.
    pub fn summary(&self) -> String {
        let Some(canonical) = &self.canonical else {
            return String::new();
        };
        let mut rows: Vec<(String, String)> = Vec::new();
        let valid = if self.problem.is_none() {
            "yes"
        } else {
            "no (see the error)"
        };
        rows.push(("valid".into(), valid.into()));
        match self.kind {
            Some(Kind::Tuple) => rows.push(("kind".into(), "tuple".into())),
            Some(Kind::Buffer) => rows.push(("kind".into(), "buffer".into())),
            _ => {}
        }
        if let Some(t) = &self.tiling {
            if let Some(b) = &self.at_bound {
                rows.push(("sizes".into(), format!("at the bound, {b}")));
            }
            rows.push(("physical dims".into(), dims_text(&t.physical)));
            for (tile, dims) in &t.levels {
                rows.push((format!("after T{tile}"), dims_text(dims)));
            }
            let s = &t.sizes;
            rows.push(("elements".into(), s.elements.to_string()));
            rows.push(("slots".into(), s.slots.to_string()));
            rows.push(("bytes".into(), s.bytes.to_string()));
            rows.push(("xla_bytes".into(), s.xla_bytes.to_string()));
            rows.push((
                "padding".into(),
                format!("{} bytes ({:.2}%)", s.padding_bytes(), s.padding_percent()),
            ));
        } else if let Some(why) = self.no_sizes {
            rows.push(("sizes".into(), format!("not defined ({why})")));
        }
        let width = rows
            .iter()
            .map(|(k, _)| k.chars().count())
            .max()
            .unwrap_or(0);
        let mut text = format!("{canonical}\n");
        for (k, v) in rows {
            let _ = writeln!(text, "  {k:<width$}  {v}");
        }
        text
    }
}

fn dims_text(d: &[u64]) -> String {
    let inner: Vec<String> = d.iter().map(u64::to_string).collect();
    format!("[{}]", inner.join(","))
}

/// Parses, prints, validates and sizes `text`.
pub fn analyze(text: &str) -> Analysis {
    if text.trim_start().starts_with('{') {
        return analyze_layout(text);
    }
    let mut canonical = String::new();
    if let Err(e) = canonicalize(text, OPTIONS, &mut canonical) {
        return Analysis::unparsed(Problem::from_core(&e));
    }
    let mut a = Analysis {
        canonical: Some(canonical),
        kind: None,
        problem: None,
        tiling: None,
        no_sizes: None,
        at_bound: None,
    };
    match parse_shape_with(text, OPTIONS) {
        Ok((shape, spans)) => {
            a.kind = Some(Kind::Array);
            if let Err(e) = shape.validate() {
                a.problem = Some(Problem::from_core(&spans.locate(e)));
                return a;
            }
            match tiled(&shape) {
                Ok(t) => a.tiling = Some(t),
                Err(e) => match e.kind {
                    // `<=N` dims: XLA sizes the array at its bounds
                    ErrorKind::DynamicShape => match shape.at_bound() {
                        Ok(b) => match tiled(&b) {
                            Ok(t) => {
                                a.tiling = Some(t);
                                a.at_bound = Some(b.to_string());
                            }
                            Err(e) => a.problem = Some(Problem::from_core(&spans.locate(e))),
                        },
                        Err(_) => a.no_sizes = Some("unbounded dynamic dims"),
                    },
                    ErrorKind::NotAnArray => a.no_sizes = Some("not an array type"),
                    _ => a.problem = Some(Problem::from_core(&spans.locate(e))),
                },
            }
        }
        Err(_) => {
            // a tuple or buffer: valid when every array in it is
            let mut first = true;
            let mut problem = None;
            let walked = walk(text, OPTIONS, |e| {
                match e {
                    Event::TupleStart { .. } if first => a.kind = Some(Kind::Tuple),
                    Event::BufferStart { .. } if first => a.kind = Some(Kind::Buffer),
                    Event::Array { shape, spans, .. } if problem.is_none() => {
                        if let Err(e) = shape.validate() {
                            problem = Some(Problem::from_core(&spans.locate(e)));
                        }
                    }
                    _ => {}
                }
                first = false;
            });
            if let Err(e) = walked {
                problem = Some(Problem::from_core(&e));
            }
            a.problem = problem;
            if a.problem.is_none() {
                a.no_sizes = Some(if a.kind == Some(Kind::Buffer) {
                    "a buffer"
                } else {
                    "a tuple"
                });
            }
        }
    }
    a
}

fn tiled(shape: &Shape) -> Result<Tiled, tilelayout::value::Error> {
    let t: Tiling = shape.tiling()?;
    let sizes = shape.sizes()?;
    let tiles = shape.layout().tiles();
    let levels = (0..t.level_count())
        .filter_map(|l| {
            let mut text = TextBuf::<512>::new();
            write_tile(&mut text, tiles.get(l)?);
            Some((
                text.as_str().to_owned(),
                t.dims_after_level(l)?.as_slice().to_vec(),
            ))
        })
        .collect();
    Ok(Tiled {
        physical: t.physical_dims().as_slice().to_vec(),
        levels,
        expanded: t.expanded_dims().to_vec(),
        sizes,
    })
}

/// The JSON object of one input.
#[derive(Serialize)]
pub struct Record<'a> {
    /// The input as given.
    pub input: &'a str,
    /// Parsed and valid.
    pub ok: bool,
    /// XLA's printing, also when invalid; null if it did not parse.
    pub canonical: Option<&'a str>,
    /// The error, if any.
    #[serde(flatten)]
    pub error: ErrorFields,
    /// `array`, `tuple` or `buffer`; null if it did not parse.
    pub kind: Option<Kind>,
    /// Whether the sizes and dims are those at the bounds of `<=N` dims
    /// (what XLA reserves for a bounded dynamic array; `M(n)`'s metadata
    /// is not included).
    pub at_bound: bool,
    /// Product of the dims.
    pub elements: Option<u64>,
    /// Exact slots (every tile level pads), rounded up to `L`.
    pub slots: Option<u64>,
    /// Exact bytes.
    pub bytes: Option<u64>,
    /// XLA's `ShapeUtil::ArraySize`.
    pub xla_bytes: Option<u64>,
    /// Bytes of the elements alone.
    pub unpadded_bytes: Option<u64>,
    /// `bytes - unpadded_bytes`.
    pub padding_bytes: Option<u64>,
    /// Padding as a percentage of `bytes`.
    pub padding_percent: Option<f64>,
    /// Physical dims, most major first.
    pub physical_dims: Option<&'a [u64]>,
    /// Expanded dims after the last tile.
    pub expanded_dims: Option<&'a [u64]>,
}

impl<'a> Record<'a> {
    /// The record of `input` analysed as `a`.
    pub fn new(input: &'a Input, a: &'a Analysis) -> Record<'a> {
        let t = a.tiling.as_ref();
        let s = t.map(|t| &t.sizes);
        Record {
            input: &input.text,
            ok: a.problem.is_none(),
            canonical: a.canonical.as_deref(),
            error: ErrorFields::of(a.problem.as_ref()),
            kind: a.kind,
            at_bound: a.at_bound.is_some(),
            elements: s.map(|s| s.elements),
            slots: s.map(|s| s.slots),
            bytes: s.map(|s| s.bytes),
            xla_bytes: s.map(|s| s.xla_bytes),
            unpadded_bytes: s.map(|s| s.unpadded_bytes),
            padding_bytes: s.map(Sizes::padding_bytes),
            padding_percent: s.map(Sizes::padding_percent),
            physical_dims: t.map(|t| t.physical.as_slice()),
            expanded_dims: t.map(|t| t.expanded.as_slice()),
        }
    }
}

//! `tilelayout cute OP ARGS…`: CuTe's layout algebra on layouts written in
//! CuTe's notation, and XLA layouts as CuTe layouts.
//!
//! Operations are named as CuTe's functions; the first argument is a
//! layout (`(_2,(_3,_4)):(_12,(_4,_1))`, or swizzled,
//! `Sw<3,4,3> o _0 o (8,64):(64,1)`). Besides CuTe's: `layout L` evaluates
//! `L` itself, `from-xla SHAPE` gives an XLA layout as a CuTe layout (its
//! offsets over the logical elements, the first dim fastest), and
//! `to-xla L [TYPE]` the XLA shape whose tiling is `L`, when there is one.
//! `-` as OP reads one `OP<TAB>ARG[<TAB>ARG]` line at a time from stdin.

use std::ops::Range;

use serde::Serialize;
use tilelayout::algebra::{AlgebraError, AnyLayout, ComposedLayout, Int, IntTuple, Layout};
use tilelayout::value::{lower, parse_shape_with, to_xla, Lowered, PrimitiveType};

use super::{Failure, OPTIONS};
use crate::io::{ErrorFields, Input, Inputs, Output, Problem};

/// Most offsets listed in `--json`.
pub const MAX_OFFSETS: usize = 1024;

/// The operations this build evaluates, with their arguments.
pub const OPS: &[(&str, &str)] = &[
    ("layout", "L"),
    ("crd2idx", "L COORD"),
    ("idx2crd", "L INDEX"),
    ("from-xla", "SHAPE"),
    ("to-xla", "L [TYPE]"),
];

/// Arguments of `cute`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The operation (`layout`, `crd2idx`, `idx2crd`, `from-xla`,
    /// `to-xla`), or `-` to read `OP<TAB>ARG[<TAB>ARG]` lines from stdin.
    #[arg(value_name = "OP")]
    pub op: String,
    /// The operation's arguments in CuTe's notation (an XLA shape for
    /// `from-xla`).
    #[arg(value_name = "ARG")]
    pub args: Vec<String>,
}

/// One evaluation: its input text and where the op and each argument sit
/// in it.
struct Call {
    input: Input,
    op: Range<usize>,
    args: Vec<Range<usize>>,
}

impl Call {
    /// A line `OP<TAB>ARG[<TAB>ARG]`.
    fn from_line(input: Input) -> Call {
        let mut parts = Vec::new();
        let mut start = 0;
        for (i, b) in input.text.bytes().enumerate() {
            if b == b'\t' {
                parts.push(start..i);
                start = i + 1;
            }
        }
        parts.push(start..input.text.len());
        let op = parts.remove(0);
        Call {
            input,
            op,
            args: parts,
        }
    }

    /// The command-line arguments, shown joined by tabs as a line would be.
    fn from_args(op: &str, args: &[String]) -> Call {
        let mut text = op.to_owned();
        let mut ranges = Vec::new();
        for a in args {
            text.push('\t');
            ranges.push(text.len()..text.len() + a.len());
            text.push_str(a);
        }
        Call {
            input: Input {
                text,
                origin: crate::io::Origin::Arg(1),
                defect: None,
            },
            op: 0..op.len(),
            args: ranges,
        }
    }

    fn arg(&self, i: usize) -> &str {
        &self.input.text[self.args[i].clone()]
    }
}

/// What an operation gives.
enum Value {
    Layout(Layout),
    Composed(ComposedLayout),
    Int(Int),
    Tuple(IntTuple),
    /// `from-xla`: the layout and its offsets over the logical elements.
    FromXla(Layout, Vec<i64>),
    /// `to-xla`: the XLA shape and the layout it came from.
    Xla(String, Layout),
}

/// Runs `cute`.
///
/// # Errors
/// Usage and I/O errors; bad inputs are reported per input.
pub fn run(args: &Args, out: &mut Output) -> Result<(), Failure> {
    if args.op == "-" {
        if !args.args.is_empty() {
            return Err(Failure::Usage(
                "`-` as OP reads `OP<TAB>ARG…` lines from stdin and takes no arguments".into(),
            ));
        }
        let mut lines = Inputs::stdin();
        while let Some(input) = lines.next_input()? {
            answer(Call::from_line(input), out)?;
        }
        return Ok(());
    }
    answer(Call::from_args(&args.op, &args.args), out)?;
    Ok(())
}

fn answer(call: Call, out: &mut Output) -> std::io::Result<()> {
    let result = match &call.input.defect {
        Some(p) => Err(p.clone()),
        None => evaluate(&call),
    };
    let (value, problem) = match result {
        Ok(v) => (Some(v), None),
        Err(p) => (None, Some(p)),
    };
    let record = match &value {
        Some(v) => Record::of(&call.input.text, v),
        None => Record {
            input: &call.input.text,
            ok: false,
            result: None,
            size: None,
            cosize: None,
            offsets: None,
            error: ErrorFields::default(),
        },
    };
    let record = Record {
        error: ErrorFields::of(problem.as_ref()),
        ..record
    };
    let text = record.result.clone().unwrap_or_default();
    out.record(&call.input, problem.is_none(), &record, &text)?;
    if let Some(p) = &problem {
        out.diagnose(&call.input, &call.input.text, p)?;
    }
    Ok(())
}

/// The JSON object of one evaluation.
#[derive(Serialize)]
pub struct Record<'a> {
    /// The input, `OP<TAB>ARG…`.
    pub input: &'a str,
    /// The operation succeeded.
    pub ok: bool,
    /// The result in CuTe's notation (an XLA shape for `to-xla`).
    pub result: Option<String>,
    /// CuTe's `size` of a layout result.
    pub size: Option<i64>,
    /// CuTe's `cosize` of a layout result.
    pub cosize: Option<i64>,
    /// The layout's value at `0, 1, …` (at most [`MAX_OFFSETS`]); for
    /// `from-xla`, at the logical elements, the first dim fastest.
    pub offsets: Option<Vec<i64>>,
    /// The error, if any.
    #[serde(flatten)]
    pub error: ErrorFields,
}

impl<'a> Record<'a> {
    fn of(input: &'a str, v: &Value) -> Record<'a> {
        let mut r = Record {
            input,
            ok: true,
            result: None,
            size: None,
            cosize: None,
            offsets: None,
            error: ErrorFields::default(),
        };
        let (size, cosize, offsets) = match v {
            Value::Layout(l) => summary(l, |i| l.call(i)),
            Value::Composed(c) => {
                let (size, _, offsets) = summary(&c.layout, |i| c.call(i));
                (size, composed_cosize(c, size), offsets)
            }
            Value::FromXla(l, offsets) => {
                let (size, cosize, _) = summary(l, |_| Ok(0));
                (size, cosize, offsets.clone())
            }
            Value::Xla(shape, l) => {
                let (size, cosize, _) = summary(l, |_| Ok(0));
                r.result = Some(shape.clone());
                r.size = size;
                r.cosize = cosize;
                return r;
            }
            Value::Int(i) => {
                r.result = Some(IntTuple::int(*i).to_string());
                return r;
            }
            Value::Tuple(t) => {
                r.result = Some(t.to_string());
                return r;
            }
        };
        r.result = Some(match v {
            Value::Composed(c) => c.to_string(),
            Value::Layout(l) | Value::FromXla(l, _) => l.to_string(),
            _ => String::new(),
        });
        r.size = size;
        r.cosize = cosize;
        r.offsets = Some(offsets);
        r
    }
}

/// Most offsets evaluated to find a swizzled layout's cosize.
const MAX_COSIZE_SCAN: i64 = 1 << 20;

/// One past the largest offset of a swizzled layout (the swizzle moves
/// offsets, so the inner layout's cosize is not it); `None` past
/// [`MAX_COSIZE_SCAN`] coordinates.
fn composed_cosize(c: &ComposedLayout, size: Option<i64>) -> Option<i64> {
    let size = size.filter(|&s| s <= MAX_COSIZE_SCAN)?;
    let mut most = -1;
    for i in 0..size {
        most = most.max(c.call(i).ok()?);
    }
    Some(most + 1)
}

/// Size, cosize and the first offsets of a layout.
/// (`None` when they overflow).
fn summary(
    l: &Layout,
    call: impl Fn(i64) -> Result<i64, AlgebraError>,
) -> (Option<i64>, Option<i64>, Vec<i64>) {
    let size = l.size().ok().map(|s| s.value);
    let cosize = l.cosize().ok().map(|s| s.value);
    let n = size.unwrap_or(0).clamp(0, MAX_OFFSETS as i64);
    let offsets = (0..n).map_while(|i| call(i).ok()).collect();
    (size, cosize, offsets)
}

/// An algebra error located in argument `i` of `call`.
fn located(call: &Call, i: usize, e: &AlgebraError) -> Problem {
    let base = call.args[i].start;
    if e.span.is_none() {
        return Problem::new(e.message().as_str(), call.args[i].clone());
    }
    let start = e.span.start as usize;
    Problem::new(
        e.message().as_str(),
        base + start..base + (e.span.end as usize).max(start),
    )
}

/// Argument `i` or an error saying what is missing.
fn need<'c>(call: &'c Call, i: usize, what: &str) -> Result<&'c str, Problem> {
    if i < call.args.len() {
        Ok(call.arg(i))
    } else {
        let end = call.input.text.len();
        Err(Problem::new(
            format!(
                "`{}` takes {what} as argument {}",
                &call.input.text[call.op.clone()],
                i + 1
            ),
            end..end,
        ))
    }
}

fn evaluate(call: &Call) -> Result<Value, Problem> {
    let op = &call.input.text[call.op.clone()];
    let Some(&(_, usage)) = OPS.iter().find(|(n, _)| *n == op) else {
        let names: Vec<&str> = OPS.iter().map(|(n, _)| *n).collect();
        return Err(Problem::new(
            format!(
                "unknown operation `{op}`; this build has {}",
                names.join(", ")
            ),
            call.op.clone(),
        ));
    };
    let most = usage.split(' ').count();
    if call.args.len() > most {
        return Err(Problem::new(
            format!("too many arguments: `{op} {usage}`"),
            call.args[most].start..call.input.text.len(),
        ));
    }
    match op {
        "from-xla" => from_xla(call, need(call, 0, "an XLA shape")?),
        "to-xla" => {
            let l = plain_layout(call, 0)?;
            let ty = match call.args.get(1) {
                None => PrimitiveType::F32,
                Some(r) => {
                    let t = &call.input.text[r.clone()];
                    PrimitiveType::from_name(t, OPTIONS.strict).ok_or_else(|| {
                        Problem::new(format!("`{t}` is not an XLA element type"), r.clone())
                    })?
                }
            };
            match to_xla(&l, ty) {
                Some(s) => Ok(Value::Xla(s.to_string(), l)),
                None => Err(Problem::new(
                    "no XLA tiling (with at most one tile, rank at most 5) has this layout",
                    call.args[0].clone(),
                )),
            }
        }
        _ => {
            let text = need(call, 0, "a layout")?;
            let any = AnyLayout::parse(text).map_err(|e| located(call, 0, &e))?;
            match op {
                "layout" => Ok(match any {
                    AnyLayout::Plain(l) => Value::Layout(l),
                    AnyLayout::Swizzled(c) => Value::Composed(c),
                }),
                "crd2idx" => {
                    let c = IntTuple::parse(need(call, 1, "a coordinate")?)
                        .map_err(|e| located(call, 1, &e))?;
                    let r = match any {
                        AnyLayout::Plain(l) => l.crd2idx(&c),
                        AnyLayout::Swizzled(s) => s.crd2idx(&c).map(Int::dynamic),
                    };
                    r.map(Value::Int).map_err(|e| located(call, 1, &e))
                }
                _ => {
                    // idx2crd: CuTe splits by the shape alone
                    let i = IntTuple::parse(need(call, 1, "an index")?)
                        .map_err(|e| located(call, 1, &e))?;
                    let Some(i) = i.as_int() else {
                        return Err(Problem::new(
                            "idx2crd takes an integer index, not a tuple",
                            call.args[1].clone(),
                        ));
                    };
                    let l = match any {
                        AnyLayout::Plain(l) => l,
                        AnyLayout::Swizzled(c) => c.layout,
                    };
                    l.idx2crd(i)
                        .map(Value::Tuple)
                        .map_err(|e| located(call, 1, &e))
                }
            }
        }
    }
}

fn plain_layout(call: &Call, i: usize) -> Result<Layout, Problem> {
    let text = need(call, i, "a layout")?;
    Layout::parse(text).map_err(|e| located(call, i, &e))
}

fn from_xla(call: &Call, text: &str) -> Result<Value, Problem> {
    let at = call.args[0].start;
    let (shape, spans) =
        parse_shape_with(text, OPTIONS).map_err(|e| Problem::from_core(&e).shifted(at))?;
    let lowered = lower(&shape).map_err(|e| match e {
        tilelayout::value::LowerError::Shape(e) => Problem::from_core(&spans.locate(e)).shifted(at),
        tilelayout::value::LowerError::Algebra(e) => {
            Problem::new(e.message().as_str(), call.args[0].clone())
        }
    })?;
    match lowered {
        Lowered::Affine(a) => {
            let l = *a.layout();
            // the logical elements, the first dim fastest (CuTe's order)
            let bounds = a.bounds();
            let elements: u64 = bounds.iter().product();
            let n = elements.min(MAX_OFFSETS as u64);
            let mut offsets = Vec::with_capacity(n as usize);
            let mut c = vec![0u64; bounds.len()];
            for _ in 0..n {
                let o = a
                    .offset(&c)
                    .map_err(|e| Problem::new(e.message().as_str(), call.args[0].clone()))?;
                offsets.push(o as i64);
                for (d, x) in c.iter_mut().enumerate() {
                    *x += 1;
                    if *x < bounds[d] {
                        break;
                    }
                    *x = 0;
                }
            }
            Ok(Value::FromXla(l, offsets))
        }
        Lowered::NotAffine(n) => Err(Problem::new(
            n.describe().as_str(),
            tile_span(&spans, n.level()).map_or(call.args[0].clone(), |r| r.start + at..r.end + at),
        )),
    }
}

fn tile_span(spans: &tilelayout::value::Spans, level: usize) -> Option<Range<usize>> {
    let s = spans.tiles.get(level)?;
    (!s.is_none()).then_some(s.start as usize..s.end as usize)
}

//! `tilelayout cute OP ARGS…`: CuTe's layout algebra on layouts written in
//! CuTe's notation, and XLA layouts as CuTe layouts.
//!
//! Operations are named as CuTe's functions; the first argument is a
//! layout (`(_2,(_3,_4)):(_12,(_4,_1))`, or swizzled,
//! `Sw<3,4,3> o _0 o (8,64):(64,1)`; `composition` also takes a bare
//! swizzle `Sw<3,3,3>` on either side, or a swizzled layout on the right).
//! Tilers may nest (`(_2,(_3:_2,_4))`), and `tile_to_shape` takes CuTe's
//! mode order as a third argument (`Step<_2,_1>`). Besides CuTe's: `layout L` evaluates
//! `L` itself, `from-xla SHAPE` gives an XLA layout as a CuTe layout (its
//! offsets over the logical elements, the first dim fastest), and
//! `to-xla L [TYPE]` the XLA shape whose tiling is `L`, when there is one.
//! `-` as OP reads one `OP<TAB>ARG[<TAB>ARG]` line at a time from stdin.

use std::ops::Range;

use serde::Serialize;
use tilelayout::algebra::{
    self, AlgebraError, AlgebraErrorKind, AnyLayout, ComposedLayout, CuteLayout, Int, IntTuple, Op,
    Swizzle, SwizzledInput,
};
use tilelayout::value::{lower, parse_shape_with, to_xla, Lowered, PrimitiveType};

use super::{Failure, OPTIONS};
use crate::io::{ErrorFields, Input, Inputs, Output, Problem};

/// Most offsets listed in `--json`.
pub const MAX_OFFSETS: usize = 1024;

/// The operations this command evaluates, with their arguments: every
/// operation of the core's algebra (by CuTe's function names, evaluated
/// by [`algebra::evaluate`]) and the XLA bridges `from-xla`/`to-xla`.
pub const OPS: &[(&str, &str)] = &[
    ("layout", "L"),
    ("coalesce", "L [PROFILE]"),
    ("filter", "L"),
    ("composition", "L TILER"),
    ("complement", "L [SHAPE]"),
    ("logical_divide", "L TILER"),
    ("zipped_divide", "L TILER"),
    ("tiled_divide", "L TILER"),
    ("flat_divide", "L TILER"),
    ("logical_product", "L TILER"),
    ("zipped_product", "L TILER"),
    ("tiled_product", "L TILER"),
    ("blocked_product", "L B"),
    ("raked_product", "L B"),
    ("tile_to_shape", "L SHAPE [ORDER]"),
    ("right_inverse", "L"),
    ("left_inverse", "L"),
    ("max_common_vector", "L B"),
    ("max_common_layout", "L B"),
    ("upcast", "L N"),
    ("downcast", "L N"),
    ("crd2idx", "L COORD"),
    ("idx2crd", "L INDEX"),
    ("from-xla", "SHAPE"),
    ("to-xla", "L [TYPE]"),
];

/// Arguments of `cute`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The operation: CuTe's function name (`coalesce`, `composition`,
    /// `logical_divide`, `blocked_product`, `right_inverse`, `upcast`, …),
    /// `layout`, `crd2idx`, `idx2crd`, `from-xla` or `to-xla`; or `-` to
    /// read `OP<TAB>ARG[<TAB>ARG]` lines from stdin.
    #[arg(value_name = "OP")]
    pub op: String,
    /// The operation's arguments in CuTe's notation: a layout (or a
    /// swizzle `Sw<B,M,S>` for `composition`), then a tiler (nested ones
    /// too: `(_2,(_3:_2,_4))`), layout, swizzle, shape, profile
    /// (`Step<_1,_1>`), cast factor, coordinate or index, and for
    /// `tile_to_shape` an optional mode order (`Step<_2,_1>`); an XLA
    /// shape for `from-xla`.
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
    Layout(CuteLayout),
    Composed(ComposedLayout),
    /// A layout applied after a swizzle (an inverse of a swizzled layout).
    SwizzledInput(SwizzledInput),
    Int(Int),
    Tuple(IntTuple),
    /// `from-xla`: the layout and its offsets over the logical elements.
    FromXla(CuteLayout, Vec<i64>),
    /// `to-xla`: the XLA shape and the layout it came from.
    Xla(String, CuteLayout),
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
        let mut lines = Inputs::stdin_lines();
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
                (size, scanned_cosize(size, |i| c.call(i)), offsets)
            }
            Value::SwizzledInput(c) => {
                // the swizzle moves the outer layout's inputs: scan as for
                // a swizzled layout
                let (size, _, offsets) = summary(&c.layout, |i| c.call(i));
                (size, scanned_cosize(size, |i| c.call(i)), offsets)
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
            Value::SwizzledInput(c) => c.to_string(),
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

/// One past the largest offset of a layout with a swizzle (the swizzle
/// moves offsets, so the inner layout's cosize is not it); `None` past
/// [`MAX_COSIZE_SCAN`] coordinates.
fn scanned_cosize(
    size: Option<i64>,
    call: impl Fn(i64) -> Result<i64, AlgebraError>,
) -> Option<i64> {
    let size = size.filter(|&s| s <= MAX_COSIZE_SCAN)?;
    let mut most = -1;
    for i in 0..size {
        most = most.max(call(i).ok()?);
    }
    Some(most + 1)
}

/// Size, cosize and the first offsets of a layout.
/// (`None` when they overflow).
fn summary(
    l: &CuteLayout,
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
        _ => algebra_op(call, op, usage),
    }
}

/// An operation of the algebra, evaluated by the core's one dispatcher.
fn algebra_op(call: &Call, name: &str, usage: &str) -> Result<Value, Problem> {
    let Some(op) = Op::from_name(name) else {
        return Err(Problem::new(
            format!("`{name}` is not an operation of this build's algebra"),
            call.op.clone(),
        ));
    };
    let (required, _) = op.arity();
    for (i, what) in usage.split(' ').enumerate().take(required) {
        need(call, i, &argument_name(what))?;
    }
    let mut args: Vec<String> = (0..call.args.len())
        .map(|i| call.arg(i).to_owned())
        .collect();
    // CuTe's Step<…> types: coalesce's profile, tile_to_shape's order
    let step_arg = match op {
        Op::Coalesce => Some(1),
        Op::TileToShape => Some(2),
        _ => None,
    };
    if let Some(p) = step_arg.and_then(|i| args.get_mut(i)) {
        *p = step_as_tuple(p);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match algebra::evaluate(op, &args) {
        Ok(algebra::Value::Layout(l)) => Ok(Value::Layout(l)),
        Ok(algebra::Value::Composed(c)) => Ok(Value::Composed(c)),
        Ok(algebra::Value::SwizzledInput(c)) => Ok(Value::SwizzledInput(c)),
        Ok(algebra::Value::Int(i)) => Ok(Value::Int(i)),
        Ok(algebra::Value::Tuple(t)) => Ok(Value::Tuple(t)),
        Ok(other) => Err(Problem::new(
            format!("`{name}` gave `{other}`, a kind of value this command cannot print yet"),
            call.op.clone(),
        )),
        Err(e) => Err(locate(call, &e)),
    }
}

/// CuTe's profile type `Step<_1,_1>` is the tuple `(_1,_1)`: rewritten
/// in place, each byte where it was (the parser skips the blanks), so
/// that error positions stay those of the text as typed.
fn step_as_tuple(text: &str) -> String {
    match text.strip_prefix("Step<").and_then(|t| t.strip_suffix('>')) {
        Some(inner) => format!("    ({inner})"),
        None => text.to_owned(),
    }
}

/// What the argument placeholder `what` of [`OPS`] stands for, as a
/// person would say it.
fn argument_name(what: &str) -> String {
    match what.trim_matches(['[', ']']) {
        "L" | "B" => "a layout".into(),
        "TILER" => "a layout or a tiler".into(),
        "SHAPE" => "a shape".into(),
        "ORDER" => "a mode order such as Step<_2,_1>".into(),
        "COORD" => "a coordinate".into(),
        "INDEX" => "an index".into(),
        "N" => "a factor".into(),
        other => format!("`{other}`"),
    }
}

/// Locates an error of [`algebra::evaluate`]: a text error belongs to the
/// first argument when that one does not parse alone (as a layout, or a
/// swizzle for `composition`), else to the last one given (the second, or
/// `tile_to_shape`'s order when the shape parses); an error about the
/// values (a failed precondition, which names the mode) covers the
/// arguments.
fn locate(call: &Call, e: &AlgebraError) -> Problem {
    let first = call.arg(0);
    let first_fails = AnyLayout::parse(first).is_err() && Swizzle::parse(first).is_err();
    if first_fails || call.args.len() < 2 {
        if first_fails || !e.span.is_none() {
            return located(call, 0, e);
        }
    } else if !e.span.is_none() {
        let third = call.args.len() > 2 && IntTuple::parse(call.arg(1)).is_ok();
        return located(call, if third { 2 } else { 1 }, e);
    }
    let all = call.args[0].start..call.args[call.args.len() - 1].end;
    let message = e.message();
    let message = match e.kind {
        AlgebraErrorKind::UnexpectedEnd { .. } | AlgebraErrorKind::Unsupported { .. } => {
            format!("{}: {}", call_usage(call), message.as_str())
        }
        _ => message.as_str().to_owned(),
    };
    Problem::new(message, all)
}

/// `op ARGS…` of the call's operation, for messages.
fn call_usage(call: &Call) -> String {
    let op = &call.input.text[call.op.clone()];
    match OPS.iter().find(|(n, _)| *n == op) {
        Some((_, usage)) => format!("`{op} {usage}`"),
        None => format!("`{op}`"),
    }
}

fn plain_layout(call: &Call, i: usize) -> Result<CuteLayout, Problem> {
    let text = need(call, i, "a layout")?;
    CuteLayout::parse(text).map_err(|e| located(call, i, &e))
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

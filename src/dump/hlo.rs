//! One line of an HLO module's text (what `--xla_dump_to` writes as
//! `*.after_optimizations.txt` and the like).
//!
//! ```text
//! HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[16,64]{1,0:T(8,128)})->f32[16]{0:T(128)}}
//!
//! %fused_computation (param_0: f32[16,64]) -> f32[16] {
//!   %param_0 = f32[16,64]{1,0:T(8,128)} parameter(0)
//!   …
//! }
//!
//! ENTRY %main (Arg_0.1: f32[16,64]) -> f32[16] {
//!   %Arg_0.1 = f32[16,64]{1,0:T(8,128)} parameter(0), metadata={op_name="x"}
//!   ROOT %fusion = f32[16]{0:T(128)} fusion(%Arg_0.1), kind=kLoop, calls=%fused_computation
//! }
//! ```
//!
//! Only what sizes need is read: names, the result shape, the opcode and a
//! fusion's `calls=`; operands, attributes, metadata and the header's
//! attributes (`input_output_alias`, `entry_computation_layout` with its
//! `/*index=N*/` comments, …) are skipped without being parsed.

/// What one line of an HLO module holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// `HloModule NAME, …`: a module starts.
    Module {
        /// The module's name.
        name: &'a str,
    },
    /// `[ENTRY ]%NAME (PARAMS) -> RESULT {`: a computation starts.
    Computation {
        /// Its name, without `%`.
        name: &'a str,
        /// The entry computation (the program itself).
        entry: bool,
    },
    /// `}`: the computation ends.
    End,
    /// `  [ROOT ]%NAME = SHAPE OPCODE(…)…`: an instruction.
    Instruction(Instruction<'a>),
    /// Anything else: blank lines, comments, the trailing tables.
    Other,
    /// A line that starts like an instruction but whose shape or opcode
    /// cannot be found; the text says what was expected.
    Malformed(&'static str),
}

/// An instruction line, split into the parts sizes need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instruction<'a> {
    /// Its name, without `%`.
    pub name: &'a str,
    /// The result shape with its layout (an array or a tuple), as written.
    pub shape: &'a str,
    /// `fusion`, `parameter`, `get-tuple-element`, …
    pub opcode: &'a str,
    /// For `fusion` and `async-start`: the computation they run
    /// (`calls=%NAME`), which owns no buffers of its own (the fusion's, or
    /// the async op's result tuple, hold them).
    pub calls: Option<&'a str>,
    /// The text after the shape: opcode, operands, attributes (see
    /// [`called_computations`]).
    pub rest: &'a str,
}

/// The attributes that name computations an instruction runs:
/// reducers and scatter/sort comparators (`to_apply`), loops (`body`,
/// `condition`), conditionals, calls, async ops, fusions (`calls`).
const CALLERS: [&str; 8] = [
    "to_apply",
    "body",
    "condition",
    "true_computation",
    "false_computation",
    "branch_computations",
    "called_computations",
    "calls",
];

/// Calls `f(attribute, computation)` for every computation `rest` (an
/// instruction's text after its shape) names in a calling attribute
/// (`to_apply=%r`, `branch_computations={%a, %b}`; the `%` is optional, as
/// in newer dumps). One pass over the `=` signs of the line.
fn for_each_call<'a>(rest: &'a str, mut f: impl FnMut(&'a str, &'a str)) {
    let b = rest.as_bytes();
    let mut from = 0;
    while let Some(i) = rest[from..].find('=') {
        let eq = from + i;
        from = eq + 1;
        let start = b[..eq]
            .iter()
            .rposition(|&c| c == b' ' || c == b',')
            .map_or(0, |p| p + 1);
        let key = &rest[start..eq];
        if !CALLERS.contains(&key) {
            continue;
        }
        let text = &rest[eq + 1..];
        let (text, end) = match text.strip_prefix('{') {
            Some(t) => (t, t.find('}')),
            None => (text, text.find([',', ' ', ')'])),
        };
        for name in text[..end.unwrap_or(text.len())].split(',') {
            let name = name.trim();
            let name = name.strip_prefix('%').unwrap_or(name);
            if !name.is_empty() {
                f(key, name);
            }
        }
    }
}

/// Whether `opcode`'s `calls=` names a body that owns no buffers: a
/// fusion's fused computation, an async op's wrapped computation.
pub fn runs_body(opcode: &str) -> bool {
    matches!(opcode, "fusion" | "async-start")
}

/// Every computation `rest` (an instruction's text after its shape) names
/// in a calling attribute, except the `calls=` of a fusion or async op
/// (`body`: see [`runs_body`]).
///
/// ```
/// use tilelayout::dump::hlo::called_computations;
/// let mut names = Vec::new();
/// called_computations("while(%t), condition=%cond, body=%body.1", false, |n| names.push(n));
/// called_computations("conditional(%p), branch_computations={%a, %b}", false, |n| names.push(n));
/// names.sort();
/// assert_eq!(names, ["a", "b", "body.1", "cond"]);
/// ```
pub fn called_computations<'a>(rest: &'a str, body: bool, mut f: impl FnMut(&'a str)) {
    for_each_call(rest, |key, name| {
        if !(body && key == "calls") {
            f(name)
        }
    });
}

/// Reads one line (without its `\n`).
///
/// # Examples
/// ```
/// use tilelayout::dump::hlo::{parse_line, Line};
/// let Line::Instruction(i) = parse_line(
///     "  ROOT %fusion = f32[16,32]{1,0:T(8,128)} fusion(%a, %b), kind=kOutput, calls=%fused_computation, metadata={op_name=\"x\"}",
/// ) else { panic!() };
/// assert_eq!((i.name, i.shape, i.opcode), ("fusion", "f32[16,32]{1,0:T(8,128)}", "fusion"));
/// assert_eq!(i.calls, Some("fused_computation"));
/// let Line::Instruction(t) = parse_line(
///     "  %copy-start = (f32[64,64]{1,0:T(8,128)S(1)}, /*index=1*/f32[64,64]{1,0:T(8,128)}, u32[]{:S(2)}) copy-start(%Arg_1.2)",
/// ) else { panic!() };
/// assert_eq!(t.opcode, "copy-start");
/// assert!(t.shape.ends_with("u32[]{:S(2)})"));
/// assert_eq!(parse_line("ENTRY %main.2 (Arg_0.1: s32[]) -> s32[] {"), Line::Computation { name: "main.2", entry: true });
/// ```
pub fn parse_line(line: &str) -> Line<'_> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let b = line.as_bytes();
    match b.first() {
        None => Line::Other,
        Some(b' ') | Some(b'\t') => instruction(line.trim_start()),
        Some(b'}') if line.trim_end() == "}" => Line::End,
        _ => {
            if let Some(rest) = line.strip_prefix("HloModule ") {
                let name = rest.split([',', ' ']).next().unwrap_or("");
                return Line::Module { name };
            }
            if !line.trim_end().ends_with('{') || line.starts_with("//") {
                return Line::Other;
            }
            let (entry, rest) = match line.strip_prefix("ENTRY ") {
                Some(r) => (true, r),
                None => (false, line),
            };
            let name = rest.split([' ', '(']).next().unwrap_or("");
            let name = name.strip_prefix('%').unwrap_or(name);
            if name.is_empty() {
                return Line::Other;
            }
            Line::Computation { name, entry }
        }
    }
}

fn instruction(line: &str) -> Line<'_> {
    let line = line.strip_prefix("ROOT ").unwrap_or(line);
    let Some((name, rest)) = line.split_once(" = ") else {
        return Line::Other;
    };
    let name = name.strip_prefix('%').unwrap_or(name);
    if name.is_empty() || name.contains(' ') {
        return Line::Other;
    }
    let Some(end) = shape_end(rest) else {
        return Line::Malformed("expected a shape after `=`: `f32[16]{0:T(128)}` or `(…)`");
    };
    let shape = &rest[..end];
    let rest = rest[end..].trim_start();
    let Some(open) = rest.find('(') else {
        return Line::Malformed("expected an opcode and `(` after the shape");
    };
    let opcode = &rest[..open];
    if opcode.is_empty() || opcode.contains(' ') {
        return Line::Malformed("expected an opcode and `(` after the shape");
    }
    let mut calls = None;
    if runs_body(opcode) {
        for_each_call(rest, |key, name| {
            if key == "calls" && calls.is_none() {
                calls = Some(name);
            }
        });
    }
    Line::Instruction(Instruction {
        name,
        shape,
        opcode,
        calls,
        rest,
    })
}

/// Where the shape at the start of `s` ends: a tuple's matching `)`
/// (skipping `/*…*/` comments), or an array's `]` and its `{…}` layout.
fn shape_end(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.first() == Some(&b'(') {
        let mut depth = 0usize;
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    i += 2 + s[i + 2..].find("*/")? + 1;
                }
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                // an array's layout may not hold parens we must count:
                // `T(8,128)` opens and closes inside `{…}`
                _ => {}
            }
            i += 1;
        }
        return None;
    }
    let close = s.find(']')?;
    if s[..close].contains([' ', '(']) {
        return None;
    }
    let after = close + 1;
    if b.get(after) == Some(&b'{') {
        let end = s[after..].find('}')?;
        return Some(after + end + 1);
    }
    Some(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_ends() {
        assert_eq!(
            parse_line("HloModule jit_train_step, is_scheduled=true, input_output_alias={ {0}: (0, {}, may-alias) }"),
            Line::Module { name: "jit_train_step" }
        );
        assert_eq!(parse_line("}"), Line::End);
        assert_eq!(
            parse_line("%fused_computation.1 (param_0.21: f32[16]) -> f32[16,64] {"),
            Line::Computation {
                name: "fused_computation.1",
                entry: false
            }
        );
        assert_eq!(parse_line(""), Line::Other);
    }

    #[test]
    fn shapes_without_layout_and_without_percent() {
        let Line::Instruction(i) = parse_line("  add.1 = u32[] add(lhs, rhs)") else {
            panic!()
        };
        assert_eq!((i.name, i.shape, i.opcode), ("add.1", "u32[]", "add"));
        let Line::Instruction(i) =
            parse_line("  %gte = f32[8]{0:T(128)} get-tuple-element(%t), index=0")
        else {
            panic!()
        };
        assert_eq!(i.opcode, "get-tuple-element");
    }

    #[test]
    fn calls_with_and_without_percent() {
        let Line::Instruction(i) = parse_line(
            "  fusion.1 = f32[8]{0:T(128)} fusion(p), kind=kLoop, calls=fused_computation.2, metadata={op_name=\"a=b\"}",
        ) else {
            panic!()
        };
        assert_eq!(i.calls, Some("fused_computation.2"));
        let mut names = alloc::vec::Vec::new();
        called_computations(i.rest, runs_body(i.opcode), |n| names.push(n));
        assert!(
            names.is_empty(),
            "a fusion's body is not a called computation"
        );
        let mut names = alloc::vec::Vec::new();
        called_computations(
            "reduce(a, b), dimensions={1}, to_apply=region_0, metadata={op_name=\"to_apply=x\"}",
            false,
            |n| names.push(n),
        );
        // `op_name="to_apply=x"` is preceded by `"`, not a separator
        assert_eq!(names, ["region_0"]);
        let mut names = alloc::vec::Vec::new();
        called_computations("call(x), to_apply=%c, calls=%d", false, |n| names.push(n));
        assert_eq!(names, ["c", "d"]);
    }

    #[test]
    fn broken_instructions_are_malformed() {
        assert!(matches!(
            parse_line("  %x = f32[8 add(%y)"),
            Line::Malformed(_)
        ));
        assert!(matches!(
            parse_line("  %x = (f32[8] add(%y)"),
            Line::Malformed(_)
        ));
        assert!(matches!(parse_line("  %x = f32[8]{0"), Line::Malformed(_)));
        assert!(matches!(parse_line("  %x = f32[8]"), Line::Malformed(_)));
    }
}

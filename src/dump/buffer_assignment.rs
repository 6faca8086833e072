//! One line of a `*-buffer-assignment.txt` (what XLA's
//! `BufferAssignment::ToString` writes): allocation headers, the values
//! placed in them, and the `Total bytes used` line.
//!
//! ```text
//! BufferAssignment:
//! allocation 1: size 32768, parameter 1, shape |f32[64,64]| at ShapeIndex {}:
//!  value: <69 Arg_1.2 @0> (size=32768,offset=0): f32[64,64]{1,0:T(8,128)}
//! allocation 13: size 4, color 2, preallocated-temp:
//!
//! Total bytes used: 172580 (168.5KiB)
//!
//! Used values:
//! …
//! ```
//!
//! Everything after `Total bytes used` (the used values, the live ranges)
//! repeats what the allocations said and is skipped by the caller.

/// How an allocation is used, from the words of its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AllocationKind {
    /// `parameter k`: an entry parameter (the number is in
    /// [`Allocation::parameter`]).
    Parameter,
    /// `output shape is |…|` (with or without `maybe-live-out`): the
    /// program's result.
    Output,
    /// `maybe-live-out` alone: may outlive the program (part of the output).
    MaybeLiveOut,
    /// `thread-local`: scalars of reducer computations, in registers.
    ThreadLocal,
    /// `preallocated-temp`: the scratch the compiler packs temporaries in.
    PreallocatedTemp,
    /// `constant`: a literal of the program.
    Constant,
    /// None of the words above: an ordinary temporary.
    Temp,
}

impl AllocationKind {
    /// The stable name: `parameter`, `output`, `maybe-live-out`,
    /// `thread-local`, `preallocated-temp`, `constant`, `temp`.
    pub const fn name(self) -> &'static str {
        match self {
            AllocationKind::Parameter => "parameter",
            AllocationKind::Output => "output",
            AllocationKind::MaybeLiveOut => "maybe-live-out",
            AllocationKind::ThreadLocal => "thread-local",
            AllocationKind::PreallocatedTemp => "preallocated-temp",
            AllocationKind::Constant => "constant",
            AllocationKind::Temp => "temp",
        }
    }
}

/// An `allocation N: size S, …:` header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// `N`.
    pub index: u64,
    /// `S`, in bytes.
    pub size: u64,
    /// What the header says the allocation is for.
    pub kind: AllocationKind,
    /// `k` of `parameter k`.
    pub parameter: Option<u64>,
    /// `n` of `color n` (0 when absent: HBM on TPU).
    pub color: u64,
}

/// A ` value: <ID NAME @COLOR> (size=S,offset=O): SHAPE` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value<'a> {
    /// The value's number in the buffer assignment.
    pub id: u64,
    /// The instruction, with the tuple index when not the whole result
    /// (`copy-start.1{0}`).
    pub name: &'a str,
    /// The memory color after `@` (the memory space).
    pub color: u64,
    /// Bytes the compiler gave the value.
    pub size: u64,
    /// Where it starts in its allocation.
    pub offset: u64,
    /// The shape with its layout, as written.
    pub shape: &'a str,
}

/// What one line of a buffer assignment holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// `BufferAssignment:`: a new buffer assignment starts.
    Start,
    /// An allocation header.
    Allocation(Allocation),
    /// A value of the last allocation.
    Value(Value<'a>),
    /// `Total bytes used: N …`.
    Total(u64),
    /// `Used values:`: the allocations are over; the rest repeats them.
    UsedValues,
    /// Anything else (blank lines, the tables after `Used values:`).
    Other,
    /// A line that starts like an allocation or a value but does not
    /// follow the format; the text says what was expected.
    Malformed(&'static str),
}

/// Reads one line (without its `\n`).
///
/// # Examples
/// ```
/// use tilelayout::dump::buffer_assignment::{parse_line, AllocationKind, Line};
/// let Line::Allocation(a) = parse_line("allocation 13: size 4, color 2, preallocated-temp:") else { panic!() };
/// assert_eq!((a.index, a.size, a.color, a.kind), (13, 4, 2, AllocationKind::PreallocatedTemp));
/// let Line::Value(v) = parse_line(" value: <66 copy-start.1{0} @1> (size=16384,offset=53248): f32[64,32]{0,1:T(8,128)S(1)}") else { panic!() };
/// assert_eq!((v.name, v.color, v.size, v.offset), ("copy-start.1{0}", 1, 16384, 53248));
/// assert_eq!(v.shape, "f32[64,32]{0,1:T(8,128)S(1)}");
/// assert_eq!(parse_line("Total bytes used: 172580 (168.5KiB)"), Line::Total(172580));
/// ```
pub fn parse_line(line: &str) -> Line<'_> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if let Some(rest) = line.strip_prefix(" value: ") {
        return match value(rest) {
            Some(v) => Line::Value(v),
            None => Line::Malformed(
                "expected ` value: <ID NAME @COLOR> (size=BYTES,offset=BYTES): SHAPE`",
            ),
        };
    }
    if let Some(rest) = line.strip_prefix("allocation ") {
        return match allocation(rest) {
            Some(a) => Line::Allocation(a),
            None => Line::Malformed("expected `allocation N: size BYTES, …:`"),
        };
    }
    if let Some(rest) = line.strip_prefix("Total bytes used: ") {
        return match number(rest.split(' ').next().unwrap_or("")) {
            Some(n) => Line::Total(n),
            None => Line::Malformed("expected `Total bytes used: BYTES`"),
        };
    }
    match line {
        "BufferAssignment:" => Line::Start,
        "Used values:" => Line::UsedValues,
        _ => Line::Other,
    }
}

/// A decimal `u64`, digits only.
pub(crate) fn number(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `N: size S, word, word …:` after `allocation `.
fn allocation(rest: &str) -> Option<Allocation> {
    let (index, rest) = rest.split_once(": size ")?;
    let index = number(index)?;
    let rest = rest.strip_suffix(':')?;
    let (size, mut words) = match rest.split_once(", ") {
        Some((s, w)) => (s, w),
        None => (rest, ""),
    };
    let size = number(size)?;
    let mut a = Allocation {
        index,
        size,
        kind: AllocationKind::Temp,
        parameter: None,
        color: 0,
    };
    let (mut output, mut live_out) = (false, false);
    while !words.is_empty() {
        // a word ends at `, ` outside `|…|` (shapes hold commas)
        let mut in_bars = false;
        let mut end = words.len();
        let b = words.as_bytes();
        for i in 0..b.len() {
            match b[i] {
                b'|' => in_bars = !in_bars,
                b',' if !in_bars && b.get(i + 1) == Some(&b' ') => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        let word = &words[..end];
        words = words.get(end + 2..).unwrap_or("");
        if let Some(k) = word.strip_prefix("parameter ") {
            a.parameter = Some(number(k)?);
        } else if let Some(c) = word.strip_prefix("color ") {
            a.color = number(c)?;
        } else if word.starts_with("output shape is |") {
            output = true;
        } else {
            match word {
                "maybe-live-out" => live_out = true,
                "thread-local" => a.kind = AllocationKind::ThreadLocal,
                "preallocated-temp" => a.kind = AllocationKind::PreallocatedTemp,
                "constant" => a.kind = AllocationKind::Constant,
                // `shape |…| at ShapeIndex {…}` of a parameter, and words
                // newer compilers may add: not needed for sizes
                _ => {}
            }
        }
    }
    if a.parameter.is_some() {
        a.kind = AllocationKind::Parameter;
    } else if output {
        a.kind = AllocationKind::Output;
    } else if live_out && a.kind == AllocationKind::Temp {
        a.kind = AllocationKind::MaybeLiveOut;
    }
    Some(a)
}

/// `<ID NAME @COLOR> (size=S,offset=O): SHAPE` after ` value: `.
fn value(rest: &str) -> Option<Value<'_>> {
    let rest = rest.strip_prefix('<')?;
    let (head, rest) = rest.split_once("> (size=")?;
    let (id, head) = head.split_once(' ')?;
    let (name, color) = head.rsplit_once(" @")?;
    let (size, rest) = rest.split_once(",offset=")?;
    let (offset, shape) = rest.split_once("): ")?;
    Some(Value {
        id: number(id)?,
        name,
        color: number(color)?,
        size: number(size)?,
        offset: number(offset)?,
        shape,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocation_words() {
        let Line::Allocation(a) = parse_line(
            "allocation 1: size 32768, parameter 1, shape |f32[64,64]| at ShapeIndex {}:",
        ) else {
            panic!()
        };
        assert_eq!(
            (a.kind, a.parameter, a.color),
            (AllocationKind::Parameter, Some(1), 0)
        );
        let Line::Allocation(a) = parse_line(
            "allocation 5: size 32, output shape is |(u32[2], u32[2], u32[2])|, maybe-live-out:",
        ) else {
            panic!()
        };
        assert_eq!((a.size, a.kind), (32, AllocationKind::Output));
        let Line::Allocation(a) = parse_line("allocation 3: size 512, maybe-live-out:") else {
            panic!()
        };
        assert_eq!(a.kind, AllocationKind::MaybeLiveOut);
        let Line::Allocation(a) = parse_line("allocation 0: size 512, constant:") else {
            panic!()
        };
        assert_eq!(a.kind, AllocationKind::Constant);
        let Line::Allocation(a) = parse_line("allocation 9: size 4096, thread-local:") else {
            panic!()
        };
        assert_eq!(a.kind, AllocationKind::ThreadLocal);
    }

    #[test]
    fn malformed_lines_are_named() {
        for l in [
            "allocation x: size 4:",
            "allocation 1: size 99999999999999999999999:",
            " value: <1 a @0> (size=4,offset=0)",
            " value: <1 a> (size=4,offset=0): f32[]",
            "Total bytes used: lots",
        ] {
            assert!(matches!(parse_line(l), Line::Malformed(_)), "{l}");
        }
        assert_eq!(parse_line(""), Line::Other);
        assert_eq!(parse_line("Used values:"), Line::UsedValues);
    }

    #[test]
    fn tuple_values_keep_their_shape_text() {
        let Line::Value(v) = parse_line(" value: <65 copy-start.1{} @0> (size=32,offset=32768): (f32[64,32]{0,1:T(8,128)S(1)}, f32[64,32]{0,1:T(8,128)}, u32[]{:S(2)})") else { panic!() };
        assert_eq!(v.name, "copy-start.1{}");
        assert!(v.shape.starts_with('(') && v.shape.ends_with(')'));
    }
}

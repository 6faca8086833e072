//! Tuples `(…)` and buffers `b(…)`: walked with an explicit stack (no
//! recursion, so deep nesting is an error, never a stack overflow), and
//! printed as XLA prints them.

use crate::error::{Error, ErrorKind};
use crate::parse::{tri, ParseOptions, Parser};
use crate::shape::{Shape, Spans};
use crate::text::TextBuf;
use crate::MAX_NESTING;

/// One step of a walk over shape text (see [`walk`]).
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// `(`: a tuple starts. `index` is its position in the enclosing tuple.
    TupleStart {
        /// Position in the enclosing tuple (0 at top level).
        index: u32,
    },
    /// `)`: the innermost tuple ends.
    TupleEnd,
    /// `b(`: a buffer starts.
    BufferStart {
        /// Position in the enclosing tuple (0 at top level).
        index: u32,
    },
    /// `)`: the innermost buffer ends.
    BufferEnd,
    /// An array shape.
    Array {
        /// Position in the enclosing tuple (0 at top level).
        index: u32,
        /// The array.
        shape: &'a Shape,
        /// Where its parts are in the text.
        spans: &'a Spans,
    },
}

/// Walks any shape text (array, tuple, buffer), calling `f` for each event in
/// order. The whole text is parsed; `f` may see events before an error
/// further on is found (use [`canonicalize`] for all-or-nothing output).
///
/// # Errors
/// The first syntax error; [`ErrorKind::TooDeep`] beyond
/// [`MAX_NESTING`] levels.
///
/// # Examples
/// ```
/// use tilelayout::value::{walk, Event};
/// let mut arrays = 0;
/// walk("(f32[2], b(s8[4]{0}), ())", Default::default(), |e| {
///     if let Event::Array { .. } = e { arrays += 1 }
/// }).unwrap();
/// assert_eq!(arrays, 2);
/// ```
pub fn walk<F: FnMut(Event<'_>)>(text: &str, opts: ParseOptions, mut f: F) -> Result<(), Error> {
    let mut p = Parser::new(text.as_bytes(), opts);
    // frame kinds: true = buffer, false = tuple; counts: elements so far
    let mut is_buffer = [false; MAX_NESTING];
    let mut count = [0u32; MAX_NESTING];
    let mut depth = 0usize;
    'shape: loop {
        tri!(p.skip_ws());
        let index = if depth > 0 { count[depth - 1] } else { 0 };
        let start = p.pos;
        let opens = if p.peek() == Some(b'(') {
            p.pos += 1;
            Some(false)
        } else {
            let sp = tri!(p.ident());
            if p.slice(sp) == b"b" && tri!(p.at(b'(')) {
                p.pos += 1;
                Some(true)
            } else {
                let (shape, spans) = tri!(p.array_after_type(sp));
                f(Event::Array {
                    index,
                    shape: &shape,
                    spans: &spans,
                });
                None
            }
        };
        if let Some(buffer) = opens {
            if depth == MAX_NESTING {
                return Err(Error::at(ErrorKind::TooDeep, start, p.pos));
            }
            is_buffer[depth] = buffer;
            count[depth] = 0;
            depth += 1;
            if buffer {
                f(Event::BufferStart { index });
                continue 'shape;
            }
            f(Event::TupleStart { index });
            if !tri!(p.at(b')')) {
                continue 'shape;
            }
        }
        // after a complete shape (or an empty tuple's `(`)
        loop {
            if depth == 0 {
                tri!(p.end());
                return Ok(());
            }
            tri!(p.skip_ws());
            if is_buffer[depth - 1] {
                tri!(p.expect(b')', "`)` at the end of the buffer shape"));
                depth -= 1;
                f(Event::BufferEnd);
                continue;
            }
            match p.peek() {
                Some(b')') => {
                    p.pos += 1;
                    depth -= 1;
                    f(Event::TupleEnd);
                }
                Some(b',') => {
                    p.pos += 1;
                    count[depth - 1] += 1;
                    continue 'shape;
                }
                _ => return Err(p.unexpected("`,` or `)` in the tuple")),
            }
        }
    }
}

/// Parses any shape text and writes XLA's canonical printing of it to `out`:
/// tuples joined by `, ` with `/*index=N*/` before every fifth element.
/// Nothing is written if the text does not parse. Validity is not checked.
///
/// # Errors
/// The first syntax error; then nothing was written. (Errors of the writer
/// itself are ignored: `String` and `TextBuf`-like sinks do not fail.)
///
/// # Examples
/// ```
/// let mut s = String::new();
/// tilelayout::value::canonicalize("(f32[1572864],s8[5120,1024])", Default::default(), &mut s).unwrap();
/// assert_eq!(s, "(f32[1572864]{0}, s8[5120,1024]{1,0})");
/// ```
pub fn canonicalize<W: core::fmt::Write>(
    text: &str,
    opts: ParseOptions,
    out: &mut W,
) -> Result<(), Error> {
    tri!(walk(text, opts, |_| {}));
    let _ = walk(text, opts, |e| {
        let sep = |out: &mut W, index: u32| {
            if index > 0 {
                let _ = out.write_str(", ");
                if index.is_multiple_of(5) {
                    let mut t = TextBuf::<32>::new();
                    t.push_str("/*index=");
                    t.push_u64(index as u64);
                    t.push_str("*/");
                    let _ = out.write_str(t.as_str());
                }
            }
        };
        match e {
            Event::TupleStart { index } => {
                sep(out, index);
                let _ = out.write_str("(");
            }
            Event::BufferStart { index } => {
                sep(out, index);
                let _ = out.write_str("b(");
            }
            Event::TupleEnd | Event::BufferEnd => {
                let _ = out.write_str(")");
            }
            Event::Array { index, shape, .. } => {
                sep(out, index);
                let _ = write!(out, "{shape}");
            }
        }
    });
    Ok(())
}

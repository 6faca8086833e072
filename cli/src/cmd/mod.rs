//! The subcommands, one file each, and what they share: reading an array
//! shape into a tiling, splitting `SHAPE@…` queries, reading integers.

pub mod coords;
pub mod cute;
pub mod draw;
pub mod dump;
pub mod index;
pub mod parse;
pub mod tpu;

use std::io;
use std::ops::Range;

use tilelayout::value::{canonicalize, parse_shape_with, Error, ErrorKind, ParseOptions, Tiling};

use crate::io::{Input, Inputs, Problem};

/// The core's default parse: accepts `F32` as well as `f32`.
pub const OPTIONS: ParseOptions = ParseOptions { strict: false };

/// What went wrong running a subcommand (not with one input).
#[derive(Debug)]
pub enum Failure {
    /// Reading or writing failed.
    Io(io::Error),
    /// The arguments do not fit the subcommand (exit status 2).
    Usage(String),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

/// Parses an array shape and compiles its tiling (which validates it).
///
/// # Errors
/// Syntax and validity errors located in `text`; a tuple or buffer shape,
/// a dynamic shape, `token` or `opaque`: they have no index math.
pub fn tiling_of(text: &str) -> Result<Tiling, Problem> {
    match parse_shape_with(text, OPTIONS) {
        Ok((shape, spans)) => shape
            .tiling()
            .map_err(|e| Problem::from_core(&spans.locate(e))),
        Err(_) => {
            let mut sink = String::new();
            match canonicalize(text, OPTIONS, &mut sink) {
                // it parses, as a tuple or buffer
                Ok(()) => Err(Problem::new(
                    Error::new(ErrorKind::NotAnArray).message().as_str(),
                    0..text.len(),
                )),
                // the general parser's error: right for arrays and tuples
                Err(e) => Err(Problem::from_core(&e)),
            }
        }
    }
}

/// The tiling of the last shape seen, so that many queries on one shape
/// (`coords SHAPE -` over a stream of slots) parse it once.
#[derive(Default)]
pub struct TilingCache {
    last: Option<(String, Result<Tiling, Problem>)>,
}

impl TilingCache {
    /// [`tiling_of`] `text`, from the cache when it is the last text asked.
    pub fn get(&mut self, text: &str) -> &Result<Tiling, Problem> {
        if !matches!(&self.last, Some((t, _)) if t == text) {
            self.last = None;
        }
        let (_, r) = self
            .last
            .get_or_insert_with(|| (text.to_owned(), tiling_of(text)));
        r
    }
}

/// A query on a shape: `SHAPE@ITEM`, as one text with the two ranges.
#[derive(Clone, Debug)]
pub struct Query {
    /// The input as it is shown and reported: `SHAPE@ITEM`.
    pub input: Input,
    /// The shape part of `input.text`.
    pub shape: Range<usize>,
    /// The item part (index or slot) of `input.text`.
    pub item: Range<usize>,
}

impl Query {
    /// The shape text.
    pub fn shape(&self) -> &str {
        &self.input.text[self.shape.clone()]
    }

    /// The item text.
    pub fn item(&self) -> &str {
        &self.input.text[self.item.clone()]
    }

    /// A query from a standard-input line `SHAPE@ITEM` (split at the last
    /// `@`: shape text has none outside comments).
    ///
    /// # Errors
    /// The line has no `@`.
    pub fn split(input: Input) -> Result<Query, (Input, Problem)> {
        match input.text.rfind('@') {
            Some(at) => {
                let len = input.text.len();
                Ok(Query {
                    input,
                    shape: 0..at,
                    item: at + 1..len,
                })
            }
            None => {
                let len = input.text.len();
                Err((
                    input,
                    Problem::new("expected `SHAPE@…`: the line has no `@`", len..len),
                ))
            }
        }
    }

    /// A query from a shape argument and an item input.
    pub fn join(shape: &str, item: Input) -> Query {
        let text = format!("{shape}@{}", item.text);
        let at = shape.len();
        let defect = item.defect.map(|p| p.shifted(at + 1));
        let len = text.len();
        Query {
            input: Input {
                text,
                origin: item.origin,
                defect,
            },
            shape: 0..at,
            item: at + 1..len,
        }
    }
}

/// Where the queries of `index`/`coords` come from: `-` alone (lines
/// `SHAPE@ITEM`), or a shape and items (each an argument or `-` for lines).
pub enum Queries<'a> {
    /// Lines `SHAPE@ITEM` from standard input.
    Lines(Inputs<'a>),
    /// One shape, items from the arguments (or stdin lines for `-`).
    Items {
        /// The shape argument.
        shape: &'a str,
        /// The items.
        items: Inputs<'a>,
    },
}

impl<'a> Queries<'a> {
    /// The queries for `shape` and `items` as given on the command line.
    ///
    /// # Errors
    /// [`Failure::Usage`] for a shape without items, or `-` (or a file)
    /// with items; [`Failure::Io`] if the file cannot be opened.
    pub fn new(shape: &'a str, items: &'a [String], what: &str) -> Result<Queries<'a>, Failure> {
        if crate::io::names_file(shape) && items.is_empty() {
            return Ok(Queries::Lines(Inputs::file(shape)?));
        }
        if shape == "-" {
            if !items.is_empty() {
                return Err(Failure::Usage(format!(
                    "`-` as SHAPE reads `SHAPE@{what}` lines from stdin and takes no {what} arguments"
                )));
            }
            return Ok(Queries::Lines(Inputs::stdin()));
        }
        if items.is_empty() {
            return Err(Failure::Usage(format!(
                "give at least one {what} after SHAPE (or `-` to read them from stdin), or `-` alone to read `SHAPE@{what}` lines"
            )));
        }
        Ok(Queries::Items {
            shape,
            items: Inputs::new(items, 2),
        })
    }

    /// The next query: `Err` for a line that is not a query.
    ///
    /// # Errors
    /// Reading standard input failed.
    #[allow(clippy::type_complexity)] // reason: a one-off pair, named by its use
    pub fn next_query(&mut self) -> io::Result<Option<Result<Query, (Input, Problem)>>> {
        Ok(match self {
            Queries::Lines(lines) => lines.next_input()?.map(Query::split),
            Queries::Items { shape, items } => {
                items.next_input()?.map(|i| Ok(Query::join(shape, i)))
            }
        })
    }
}

/// Reads a non-negative decimal integer spanning all of `text` (which sits
/// at `base` in the input), allowing white space around it.
///
/// # Errors
/// Not an integer, or above `u64::MAX`.
pub fn read_u64(text: &str, base: usize, what: &str) -> Result<u64, Problem> {
    let start = text.len() - text.trim_start().len();
    let end = text.trim_end().len().max(start);
    let digits = &text[start..end];
    let span = base + start..base + end;
    if digits.is_empty() {
        return Err(Problem::new(
            format!("expected {what}, a non-negative integer"),
            span,
        ));
    }
    let mut v: u64 = 0;
    for (i, b) in digits.bytes().enumerate() {
        if !b.is_ascii_digit() {
            let at = base + start + i;
            let c = digits[i..].chars().next().unwrap_or('?');
            let shown = if c.is_control() {
                "a control character".to_owned()
            } else {
                format!("`{c}`")
            };
            return Err(Problem::new(
                format!("expected {what}, a non-negative integer, found {shown}"),
                at..at + c.len_utf8(),
            ));
        }
        v = match v
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(b - b'0')))
        {
            Some(v) => v,
            None => {
                return Err(Problem::new(
                    format!("{what} too large; at most {}", u64::MAX),
                    span,
                ))
            }
        };
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_exact_and_bounded() {
        assert_eq!(read_u64(" 18446744073709551615 ", 0, "n"), Ok(u64::MAX));
        assert_eq!(
            read_u64("18446744073709551616", 3, "n").unwrap_err().span,
            3..23
        );
        assert_eq!(read_u64("1x", 0, "n").unwrap_err().span, 1..2);
        assert_eq!(read_u64("+1", 0, "n").unwrap_err().span, 0..1);
        assert_eq!(read_u64("  ", 5, "n").unwrap_err().span, 7..7);
    }

    #[test]
    fn tuples_have_no_tiling() {
        let p = tiling_of("(f32[2], s8[4])").unwrap_err();
        assert_eq!(p.span, 0..15);
        assert!(p.message.contains("tuples"), "{}", p.message);
        // a broken tuple reports the real syntax error, not "expected a type"
        let p = tiling_of("(f32[2], s8[4]").unwrap_err();
        assert_eq!(p.span.start, 14);
    }
}

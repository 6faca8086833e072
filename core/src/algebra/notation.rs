//! CuTe's notation, parsed and printed exactly as CuTe's `operator<<`
//! prints it (NVIDIA/cutlass `include/cute/numeric/integral_constant.hpp`,
//! `include/cute/util/print.hpp`, `include/cute/layout.hpp`,
//! `include/cute/swizzle.hpp`, `include/cute/layout_composed.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4):
//!
//! ```text
//! int      ::= '_' ['-'] DIGITS      static (CuTe's Int<N>, printed _N)
//!            | ['-'] DIGITS          dynamic (a runtime int)
//! inttuple ::= int | '(' [inttuple (',' inttuple)*] ')'
//! layout   ::= inttuple ':' inttuple
//! swizzle  ::= 'Sw<' ['-']DIGITS ',' ['-']DIGITS ',' ['-']DIGITS '>'
//! composed ::= swizzle 'o' int 'o' layout
//! tiler    ::= layout | int | '(' [mode (',' mode)*] ')'
//! mode     ::= layout | int | '(' [mode (',' mode)*] ')'
//! ```
//! White space between tokens is accepted; the printer writes none except
//! the ` o ` of a composed layout. A one-mode tuple keeps its parentheses:
//! `(_4):(_1)` and `_4:_1` are different values, as in CuTe.

use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::layout::CuteLayout;
use super::print::{write_composed, write_int_tuple, write_layout, write_tiler};
use super::swizzle::{ComposedLayout, Swizzle};
use super::tiler::Tiler;
use super::tuple::{tri, IntTuple};
use super::{MAX_DEPTH, MAX_TEXT};
use crate::TextBuf;

/// A layout in CuTe's notation, plain or swizzled, as [`AnyLayout::parse`]
/// finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyLayout {
    /// `shape:stride`.
    Plain(CuteLayout),
    /// `Sw<B,M,S> o offset o shape:stride`.
    Swizzled(ComposedLayout),
}

const fn unexpected(b: &[u8], pos: usize, expected: &'static str) -> AlgebraError {
    if pos >= b.len() {
        AlgebraError::at(AlgebraErrorKind::UnexpectedEnd { expected }, pos, pos)
    } else {
        let c = b[pos];
        let found = if c < 0x80 { c } else { 0 };
        AlgebraError::at(
            AlgebraErrorKind::Unexpected { expected, found },
            pos,
            pos + 1,
        )
    }
}

const fn skip_ws(b: &[u8], mut pos: usize) -> usize {
    while pos < b.len() && b[pos].is_ascii_whitespace() {
        pos += 1;
    }
    pos
}

/// Parses `['-'] DIGITS` at `pos`; returns the value and the end.
const fn parse_signed(
    b: &[u8],
    start: usize,
    expected: &'static str,
) -> Result<(i64, usize), AlgebraError> {
    let mut pos = start;
    let neg = pos < b.len() && b[pos] == b'-';
    if neg {
        pos += 1;
    }
    if pos >= b.len() || !b[pos].is_ascii_digit() {
        return Err(unexpected(b, pos, expected));
    }
    // accumulate the magnitude as u64 (2^63 is allowed when negative)
    let mut mag: u64 = 0;
    let mut too_large = false;
    while pos < b.len() && b[pos].is_ascii_digit() {
        let d = (b[pos] - b'0') as u64;
        match mag.checked_mul(10) {
            Some(m) => match m.checked_add(d) {
                Some(v) => mag = v,
                None => too_large = true,
            },
            None => too_large = true,
        }
        pos += 1;
    }
    let limit = if neg { 1u64 << 63 } else { (1u64 << 63) - 1 };
    if too_large || mag > limit {
        return Err(AlgebraError::at(
            AlgebraErrorKind::IntegerTooLarge,
            start,
            pos,
        ));
    }
    let v = if neg {
        if mag == 1u64 << 63 {
            i64::MIN
        } else {
            -(mag as i64)
        }
    } else {
        mag as i64
    };
    Ok((v, pos))
}

const EXPECT_INT: &str = "an integer (`_4` static, `4` dynamic)";
const EXPECT_TUPLE: &str = "an integer or `(`";

/// Parses one CuTe integer at `pos` (white space skipped).
const fn parse_int_at(b: &[u8], pos: usize) -> Result<(Int, usize), AlgebraError> {
    let pos = skip_ws(b, pos);
    if pos < b.len() && b[pos] == b'_' {
        let (v, end) = tri!(parse_signed(b, pos + 1, EXPECT_INT));
        Ok((Int::fixed(v), end))
    } else {
        let (v, end) = tri!(parse_signed(b, pos, EXPECT_INT));
        Ok((Int::dynamic(v), end))
    }
}

/// Parses one IntTuple at `pos`; `depth` tuples are open around it.
const fn parse_tuple_at(
    b: &[u8],
    pos: usize,
    depth: usize,
) -> Result<(IntTuple, usize), AlgebraError> {
    let pos = skip_ws(b, pos);
    if pos >= b.len() || b[pos] != b'(' {
        if pos < b.len() && (b[pos] == b'_' || b[pos] == b'-' || b[pos].is_ascii_digit()) {
            let (i, end) = tri!(parse_int_at(b, pos));
            return Ok((IntTuple::int(i), end));
        }
        return Err(unexpected(b, pos, EXPECT_TUPLE));
    }
    if depth + 1 > MAX_DEPTH {
        return Err(AlgebraError::at(AlgebraErrorKind::TooDeep, pos, pos + 1));
    }
    let mut t = IntTuple::EMPTY;
    let mut p = skip_ws(b, pos + 1);
    if p < b.len() && b[p] == b')' {
        return Ok((t, p + 1));
    }
    loop {
        let child_start = skip_ws(b, p);
        let (c, end) = tri!(parse_tuple_at(b, child_start, depth + 1));
        t = match t.push(&c) {
            Ok(t) => t,
            Err(e) => return Err(AlgebraError::at(e.kind, child_start, end)),
        };
        p = skip_ws(b, end);
        if p < b.len() && b[p] == b',' {
            p += 1;
        } else if p < b.len() && b[p] == b')' {
            return Ok((t, p + 1));
        } else {
            return Err(unexpected(b, p, "`,` or `)`"));
        }
    }
}

/// Byte span of the `k`-th integer in `b[start..end]` (for errors about a
/// parsed shape's values).
const fn int_span(b: &[u8], start: usize, end: usize, k: usize) -> (usize, usize) {
    let mut p = start;
    let mut n = 0;
    while p < end {
        let c = b[p];
        if c == b'_' || c == b'-' || c.is_ascii_digit() {
            let s = p;
            while p < end && (b[p] == b'_' || b[p] == b'-' || b[p].is_ascii_digit()) {
                p += 1;
            }
            if n == k {
                return (s, p);
            }
            n += 1;
        } else {
            p += 1;
        }
    }
    (start, end)
}

const fn parse_layout_at(b: &[u8], pos: usize) -> Result<(CuteLayout, usize), AlgebraError> {
    let s0 = skip_ws(b, pos);
    let (shape, s1) = tri!(parse_tuple_at(b, s0, 0));
    let p = skip_ws(b, s1);
    if p >= b.len() || b[p] != b':' {
        return Err(unexpected(b, p, "`:` between shape and stride"));
    }
    let d0 = skip_ws(b, p + 1);
    let (stride, d1) = tri!(parse_tuple_at(b, d0, 0));
    match CuteLayout::new(shape, stride) {
        Ok(l) => Ok((l, d1)),
        Err(e) => match e.kind {
            AlgebraErrorKind::ShapeNotPositive { mode, .. } => {
                let (a, z) = int_span(b, s0, s1, mode as usize);
                Err(AlgebraError::at(e.kind, a, z))
            }
            _ => Err(AlgebraError::at(e.kind, d0, d1)),
        },
    }
}

const fn expect_byte(
    b: &[u8],
    pos: usize,
    c: u8,
    what: &'static str,
) -> Result<usize, AlgebraError> {
    let pos = skip_ws(b, pos);
    if pos < b.len() && b[pos] == c {
        Ok(pos + 1)
    } else {
        Err(unexpected(b, pos, what))
    }
}

const EXPECT_PARAM: &str = "a swizzle parameter (an integer)";

const fn parse_swizzle_at(b: &[u8], pos: usize) -> Result<(Swizzle, usize), AlgebraError> {
    let start = skip_ws(b, pos);
    let mut p = start;
    let lit = b"Sw<";
    let mut k = 0;
    while k < 3 {
        if p >= b.len() || b[p] != lit[k] {
            return Err(unexpected(b, p, "`Sw<`"));
        }
        p += 1;
        k += 1;
    }
    let (bb, p) = tri!(parse_signed(b, skip_ws(b, p), EXPECT_PARAM));
    let p = tri!(expect_byte(b, p, b',', "`,`"));
    let (mm, p) = tri!(parse_signed(b, skip_ws(b, p), EXPECT_PARAM));
    let p = tri!(expect_byte(b, p, b',', "`,`"));
    let (ss, p) = tri!(parse_signed(b, skip_ws(b, p), EXPECT_PARAM));
    let p = tri!(expect_byte(b, p, b'>', "`>`"));
    if bb < i32::MIN as i64
        || bb > i32::MAX as i64
        || mm < i32::MIN as i64
        || mm > i32::MAX as i64
        || ss < i32::MIN as i64
        || ss > i32::MAX as i64
    {
        return Err(AlgebraError::at(AlgebraErrorKind::SwizzleParams, start, p));
    }
    match Swizzle::new(bb as i32, mm as i32, ss as i32) {
        Ok(s) => Ok((s, p)),
        Err(e) => Err(AlgebraError::at(e.kind, start, p)),
    }
}

const fn expect_o(b: &[u8], pos: usize) -> Result<usize, AlgebraError> {
    let p = skip_ws(b, pos);
    if p < b.len() && b[p] == b'o' {
        Ok(p + 1)
    } else {
        Err(unexpected(b, p, "` o ` (composition)"))
    }
}

const fn parse_composed_at(b: &[u8], pos: usize) -> Result<(ComposedLayout, usize), AlgebraError> {
    let (sw, p) = tri!(parse_swizzle_at(b, pos));
    let p = tri!(expect_o(b, p));
    let (off, p) = tri!(parse_int_at(b, p));
    let p = tri!(expect_o(b, p));
    let (l, p) = tri!(parse_layout_at(b, p));
    Ok((ComposedLayout::new(sw, off, l), p))
}

const fn finish<T: Copy>(b: &[u8], r: Result<(T, usize), AlgebraError>) -> Result<T, AlgebraError> {
    match r {
        Ok((v, end)) => {
            let p = skip_ws(b, end);
            if p < b.len() {
                Err(AlgebraError::at(
                    AlgebraErrorKind::TrailingInput,
                    p,
                    b.len(),
                ))
            } else {
                Ok(v)
            }
        }
        Err(e) => Err(e),
    }
}

impl IntTuple {
    /// Parses an IntTuple in CuTe's notation: `_4`, `4`, `(_2,(3,_4))`.
    ///
    /// # Errors
    /// Syntax and capacity errors with the byte range of the offending
    /// text.
    pub const fn parse(text: &str) -> Result<IntTuple, AlgebraError> {
        let b = text.as_bytes();
        finish(b, parse_tuple_at(b, 0, 0))
    }

    /// Prints as CuTe does, into a buffer of [`MAX_TEXT`] bytes (always
    /// enough for [`super::MAX_NODES`] nodes).
    pub const fn to_text(&self) -> TextBuf<MAX_TEXT> {
        let mut t = TextBuf::new();
        write_int_tuple(&mut t, self);
        t
    }
}

impl CuteLayout {
    /// Parses a layout in CuTe's notation: `(_2,(_3,_4)):(_12,(_4,_1))`.
    ///
    /// # Errors
    /// Syntax and capacity errors with the byte range of the offending
    /// text; [`AlgebraErrorKind::NotCongruent`] over the stride,
    /// [`AlgebraErrorKind::ShapeNotPositive`] over the integer.
    pub const fn parse(text: &str) -> Result<CuteLayout, AlgebraError> {
        let b = text.as_bytes();
        finish(b, parse_layout_at(b, 0))
    }

    /// Prints as CuTe does (`shape:stride`).
    pub const fn to_text(&self) -> TextBuf<MAX_TEXT> {
        let mut t = TextBuf::new();
        write_layout(&mut t, self);
        t
    }
}

impl Swizzle {
    /// Parses `Sw<B,M,S>`.
    ///
    /// # Errors
    /// Syntax errors; [`AlgebraErrorKind::SwizzleParams`] over the whole
    /// swizzle.
    pub const fn parse(text: &str) -> Result<Swizzle, AlgebraError> {
        let b = text.as_bytes();
        finish(b, parse_swizzle_at(b, 0))
    }
}

impl ComposedLayout {
    /// Parses `Sw<B,M,S> o offset o shape:stride`.
    ///
    /// # Errors
    /// As [`Swizzle::parse`] and [`CuteLayout::parse`].
    pub const fn parse(text: &str) -> Result<ComposedLayout, AlgebraError> {
        let b = text.as_bytes();
        finish(b, parse_composed_at(b, 0))
    }

    /// Prints as CuTe does (`Sw<3,4,3> o _0 o (8,64):(64,1)`).
    pub const fn to_text(&self) -> TextBuf<MAX_TEXT> {
        let mut t = TextBuf::new();
        write_composed(&mut t, self);
        t
    }
}

/// Parses one mode of a by-mode tiler at `pos`: a layout, an integer,
/// or a tuple of modes again; `depth` tuples are open around it.
const fn parse_tiler_mode_at(
    b: &[u8],
    pos: usize,
    depth: usize,
) -> Result<(Tiler, usize), AlgebraError> {
    let m0 = skip_ws(b, pos);
    // a layout (`_4:_2`, `(_2,_4):(_1,_8)`) first
    let as_layout = parse_layout_at(b, m0);
    if let Ok((l, end)) = as_layout {
        return Ok((Tiler::layout(l), end));
    }
    if m0 < b.len() && b[m0] == b'(' {
        let nested = parse_tiler_modes_at(b, m0, depth);
        return match (nested, as_layout) {
            (Ok(t), _) => Ok(t),
            (Err(e2), Err(e1)) => {
                // the reading that got further explains the text best
                if e1.span.start > e2.span.start && !e1.span.is_none() {
                    Err(e1)
                } else {
                    Err(e2)
                }
            }
            (Err(e2), Ok(_)) => Err(e2),
        };
    }
    let (n, end) = tri!(parse_int_at(b, m0));
    let q = skip_ws(b, end);
    if q < b.len() && b[q] == b':' {
        // an integer shape with a bad stride: the layout's error
        return match as_layout {
            Err(e) => Err(e),
            Ok((l, e)) => Ok((Tiler::layout(l), e)),
        };
    }
    match Tiler::int(n) {
        Ok(t) => Ok((t, end)),
        Err(e) => Err(AlgebraError::at(e.kind, m0, end)),
    }
}

/// Parses a by-mode tiler `( mode, … )` at `pos`.
const fn parse_tiler_modes_at(
    b: &[u8],
    pos: usize,
    depth: usize,
) -> Result<(Tiler, usize), AlgebraError> {
    let open = skip_ws(b, pos);
    let p = tri!(expect_byte(b, pos, b'(', "`(`"));
    if depth + 1 > MAX_DEPTH {
        return Err(AlgebraError::at(AlgebraErrorKind::TooDeep, open, open + 1));
    }
    let mut t = Tiler::EMPTY;
    let mut p = skip_ws(b, p);
    if p < b.len() && b[p] == b')' {
        return Ok((t, p + 1));
    }
    loop {
        let m0 = skip_ws(b, p);
        let (m, end) = tri!(parse_tiler_mode_at(b, m0, depth + 1));
        t = match t.push_tiler(&m) {
            Ok(t) => t,
            Err(e) => return Err(AlgebraError::at(e.kind, m0, end)),
        };
        p = skip_ws(b, end);
        if p < b.len() && b[p] == b',' {
            p += 1;
        } else if p < b.len() && b[p] == b')' {
            return Ok((t, p + 1));
        } else {
            return Err(unexpected(b, p, "`,` or `)`"));
        }
    }
}

impl Tiler {
    /// Parses a tiler: a layout (`(_2,_4):(_1,_2)`), an integer (`_4`,
    /// meaning `_4:_1`) or a by-mode tuple of layouts, integers and
    /// tuples of them (`(_2:_1,_4)`, `(_4,_8)`, `(_2,(_3:_2,_4))`).
    ///
    /// # Errors
    /// Syntax errors with the byte range; when neither a layout nor a
    /// by-mode tuple fits, the error of the reading that got further.
    pub const fn parse(text: &str) -> Result<Tiler, AlgebraError> {
        let b = text.as_bytes();
        let as_layout = finish(b, parse_layout_at(b, 0));
        let e1 = match as_layout {
            Ok(l) => return Ok(Tiler::layout(l)),
            Err(e) => e,
        };
        let p = skip_ws(b, 0);
        let e2 = if p < b.len() && b[p] == b'(' {
            match finish(b, parse_tiler_modes_at(b, p, 0)) {
                Ok(t) => return Ok(t),
                Err(e) => e,
            }
        } else {
            match finish(b, parse_int_at(b, p)) {
                Ok(n) => return Tiler::int(n),
                Err(e) => e,
            }
        };
        if e2.span.start >= e1.span.start || e1.span.is_none() {
            Err(e2)
        } else {
            Err(e1)
        }
    }

    /// Prints as CuTe does (`(_2:_1,_4)`, `_4`, `(_2,_4):(_1,_2)`).
    pub const fn to_text(&self) -> TextBuf<MAX_TEXT> {
        let mut t = TextBuf::new();
        write_tiler(&mut t, self);
        t
    }
}

impl AnyLayout {
    /// Parses a plain or a swizzled layout (a leading `Sw<` decides).
    ///
    /// # Errors
    /// As [`CuteLayout::parse`] and [`ComposedLayout::parse`].
    pub const fn parse(text: &str) -> Result<AnyLayout, AlgebraError> {
        let b = text.as_bytes();
        let p = skip_ws(b, 0);
        if p < b.len() && b[p] == b'S' {
            match ComposedLayout::parse(text) {
                Ok(c) => Ok(AnyLayout::Swizzled(c)),
                Err(e) => Err(e),
            }
        } else {
            match CuteLayout::parse(text) {
                Ok(l) => Ok(AnyLayout::Plain(l)),
                Err(e) => Err(e),
            }
        }
    }

    /// Prints as CuTe does.
    pub const fn to_text(&self) -> TextBuf<MAX_TEXT> {
        match self {
            AnyLayout::Plain(l) => l.to_text(),
            AnyLayout::Swizzled(c) => c.to_text(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::string::ToString;

    #[test]
    fn round_trip_docs_examples() {
        for s in [
            "(_2,(_3,_4)):(_12,(_4,_1))",
            "(_9,(_4,_8)):(_59,(_13,_1))",
            "_4:_1",
            "(_4):(_1)",
            "():()",
            "(8,64):(64,1)",
            "((_2,3),(4,_1)):((_1,-2),(_-6,_0))",
        ] {
            assert_eq!(CuteLayout::parse(s).unwrap().to_string(), s);
        }
        let c = "Sw<3,4,3> o _0 o (8,64):(64,1)";
        assert_eq!(ComposedLayout::parse(c).unwrap().to_string(), c);
        let n = "Sw<2,0,-2> o _0 o (_4,_4):(_4,_1)";
        assert_eq!(AnyLayout::parse(n).unwrap().to_string(), n);
    }

    #[test]
    fn errors_point_at_bytes() {
        let e = CuteLayout::parse("(_2,_3:(_1,_2)").unwrap_err();
        assert_eq!(e.span.start, 6);
        let e = CuteLayout::parse("(_2,_3):(_1,_2").unwrap_err();
        assert!(matches!(e.kind, AlgebraErrorKind::UnexpectedEnd { .. }));
        assert_eq!(e.span.start, 14);
        let e = CuteLayout::parse("(_2,_0):(_1,_2)").unwrap_err();
        assert_eq!((e.span.start, e.span.end), (4, 6));
        let e = CuteLayout::parse("(_2,_3):_1").unwrap_err();
        assert_eq!(e.kind, AlgebraErrorKind::NotCongruent);
        let e = CuteLayout::parse("99999999999999999999:1").unwrap_err();
        assert_eq!(e.kind, AlgebraErrorKind::IntegerTooLarge);
        assert_eq!((e.span.start, e.span.end), (0, 20));
        let e = ComposedLayout::parse("Sw<3,4,2> o _0 o 8:1").unwrap_err();
        assert_eq!(e.kind, AlgebraErrorKind::SwizzleParams);
        let e = CuteLayout::parse("4:1 x").unwrap_err();
        assert_eq!(e.kind, AlgebraErrorKind::TrailingInput);
        assert_eq!(e.span.start, 4);
    }

    const _: () = {
        let l = match CuteLayout::parse("(_2,(_3,_4)):(_12,(_4,_1))") {
            Ok(l) => l,
            Err(_) => panic!("parse"),
        };
        let t = l.to_text();
        assert!(t.len() == 26);
    };
}

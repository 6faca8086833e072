//! The parser for XLA's shape-with-layout text, in `const fn`.
//!
//! It accepts what XLA's text parser accepts (also values that validation
//! later rejects, since XLA prints those), with three differences, all
//! ours: uppercase type names (`F32`, as XLA's docs write) unless the parse
//! is strict; integers above `i64::MAX` are errors; `S(n)` outside 8 bits is
//! an error. It never panics and never recurses (tuples are walked with an
//! explicit stack in [`crate::tuple`]).

use crate::error::{Attr, Error, ErrorKind, Span};
use crate::shape::{Dim, Shape, Spans, SplitConfig, Tile, TileDim, XlaLayout};
use crate::PrimitiveType;

/// Parse options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Accept only what XLA's own parser accepts: lowercase type names.
    pub strict: bool,
}

macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}
pub(crate) use tri;

pub(crate) struct Parser<'a> {
    pub(crate) s: &'a [u8],
    pub(crate) pos: usize,
    strict: bool,
}

const ATTR_ORDER: [Attr; 10] = [
    Attr::DimLevelTypes,
    Attr::Tiles,
    Attr::TailPadding,
    Attr::IndexType,
    Attr::PointerType,
    Attr::ElementSize,
    Attr::MemorySpace,
    Attr::SplitConfigs,
    Attr::PhysicalShape,
    Attr::DynamicMetadata,
];

impl<'a> Parser<'a> {
    pub(crate) const fn new(s: &'a [u8], opts: ParseOptions) -> Parser<'a> {
        Parser {
            s,
            pos: 0,
            strict: opts.strict,
        }
    }

    pub(crate) const fn peek(&self) -> Option<u8> {
        if self.pos < self.s.len() {
            Some(self.s[self.pos])
        } else {
            None
        }
    }

    const fn peek_at(&self, k: usize) -> Option<u8> {
        if self.pos + k < self.s.len() {
            Some(self.s[self.pos + k])
        } else {
            None
        }
    }

    /// Skips white space and `/* … */` comments.
    pub(crate) const fn skip_ws(&mut self) -> Result<(), Error> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') if matches!(self.peek_at(1), Some(b'*')) => {
                    let start = self.pos;
                    self.pos += 2;
                    loop {
                        match self.peek() {
                            None => {
                                return Err(Error::at(
                                    ErrorKind::UnterminatedComment,
                                    start,
                                    start + 2,
                                ))
                            }
                            Some(b'*') if matches!(self.peek_at(1), Some(b'/')) => {
                                self.pos += 2;
                                break;
                            }
                            _ => self.pos += 1,
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// The error for "`expected` belongs here" at the current position.
    pub(crate) const fn unexpected(&self, expected: &'static str) -> Error {
        match self.peek() {
            None => Error::at(ErrorKind::UnexpectedEnd { expected }, self.pos, self.pos),
            Some(c) => {
                let found = if c.is_ascii() { c } else { 0 };
                // a span over one whole UTF-8 character
                let mut end = self.pos + 1;
                while end < self.s.len() && (self.s[end] & 0xC0) == 0x80 {
                    end += 1;
                }
                Error::at(ErrorKind::Unexpected { expected, found }, self.pos, end)
            }
        }
    }

    /// Skips white space, then consumes `c` or fails with `expected`.
    pub(crate) const fn expect(&mut self, c: u8, expected: &'static str) -> Result<usize, Error> {
        tri!(self.skip_ws());
        match self.peek() {
            Some(x) if x == c => {
                self.pos += 1;
                Ok(self.pos - 1)
            }
            _ => Err(self.unexpected(expected)),
        }
    }

    /// Whether the next non-space byte is `c` (consumes nothing but space).
    pub(crate) const fn at(&mut self, c: u8) -> Result<bool, Error> {
        tri!(self.skip_ws());
        Ok(matches!(self.peek(), Some(x) if x == c))
    }

    /// An integer: `-`? digits, at most `i64::MAX` in magnitude. Returns the
    /// value and its span. `signed` allows the minus sign.
    const fn integer(
        &mut self,
        signed: bool,
        expected: &'static str,
    ) -> Result<(i64, Span), Error> {
        tri!(self.skip_ws());
        let start = self.pos;
        let negative = matches!(self.peek(), Some(b'-'));
        if negative {
            if !signed {
                return Err(Error::at(ErrorKind::Negative, start, start + 1));
            }
            self.pos += 1;
        }
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos = start + negative as usize;
            return Err(self.unexpected(expected));
        }
        let mut v: u64 = 0;
        let mut too_large = false;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            self.pos += 1;
            match v.checked_mul(10) {
                Some(x) => match x.checked_add((c - b'0') as u64) {
                    Some(y) if y <= i64::MAX as u64 => v = y,
                    _ => too_large = true,
                },
                None => too_large = true,
            }
        }
        if too_large {
            return Err(Error::at(ErrorKind::IntegerTooLarge, start, self.pos));
        }
        let v = v as i64;
        Ok((if negative { -v } else { v }, Span::new(start, self.pos)))
    }

    const fn natural(&mut self, expected: &'static str) -> Result<(u64, Span), Error> {
        match self.integer(false, expected) {
            Ok((v, s)) => Ok((v as u64, s)),
            Err(e) => Err(e),
        }
    }

    /// `[A-Za-z0-9_]+` at the current position (after white space).
    pub(crate) const fn ident(&mut self) -> Result<Span, Error> {
        tri!(self.skip_ws());
        let start = self.pos;
        while let Some(b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_') = self.peek() {
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.unexpected("an element type such as f32"));
        }
        Ok(Span::new(start, self.pos))
    }

    pub(crate) const fn slice(&self, span: Span) -> &'a [u8] {
        let (_, tail) = self.s.split_at(span.start as usize);
        tail.split_at((span.end - span.start) as usize).0
    }

    const fn element_type(&self, span: Span) -> Result<PrimitiveType, Error> {
        let name = self.slice(span);
        match PrimitiveType::from_bytes(name, self.strict) {
            Some(t) => Ok(t),
            None => {
                let kind = if self.strict && PrimitiveType::from_bytes(name, false).is_some() {
                    ErrorKind::UppercaseType
                } else {
                    ErrorKind::UnknownType
                };
                Err(Error::at(kind, span.start as usize, span.end as usize))
            }
        }
    }

    /// An array shape whose type name was already read as `type_span`:
    /// `[dims]` and an optional layout.
    pub(crate) const fn array_after_type(
        &mut self,
        type_span: Span,
    ) -> Result<(Shape, Spans), Error> {
        let ty = tri!(self.element_type(type_span));
        let mut shape = Shape::empty(ty);
        let mut spans = Spans::NONE;
        spans.element_type = type_span;
        tri!(self.expect(b'[', "`[` after the element type"));
        if !tri!(self.at(b']')) {
            loop {
                tri!(self.skip_ws());
                let start = self.pos;
                let dim = match self.peek() {
                    Some(b'?') => {
                        self.pos += 1;
                        Dim::Unbounded
                    }
                    Some(b'<') if matches!(self.peek_at(1), Some(b'=')) => {
                        self.pos += 2;
                        Dim::Bounded(tri!(self.natural("an integer bound after `<=`")).0)
                    }
                    _ => Dim::Static(tri!(self.natural("a dim: an integer, `<=N` or `?`")).0),
                };
                if !shape.push_dim(dim) {
                    return Err(Error::at(ErrorKind::TooManyDims, start, self.pos));
                }
                spans.dims[shape.rank() - 1] = Span::new(start, self.pos);
                tri!(self.skip_ws());
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b']') => break,
                    _ => return Err(self.unexpected("`,` or `]`")),
                }
            }
        }
        tri!(self.expect(b']', "`]`"));
        // A layout follows only if `{` is followed by an integer, `-` or `:`
        // (XLA's parser leaves `{}` and `{,` alone, and so do we).
        tri!(self.skip_ws());
        let save = self.pos;
        let mut layout_follows = false;
        if matches!(self.peek(), Some(b'{')) {
            self.pos += 1;
            tri!(self.skip_ws());
            layout_follows = matches!(self.peek(), Some(b'0'..=b'9' | b'-' | b':'));
            self.pos = save;
        }
        if layout_follows {
            let layout = tri!(self.layout(&mut spans));
            shape.set_layout(layout, true);
        } else {
            shape.set_layout(XlaLayout::descending(shape.rank()), false);
        }
        spans.all = Span::new(type_span.start as usize, self.pos);
        Ok((shape, spans))
    }

    /// `{ minor_to_major [: attrs] }`.
    pub(crate) const fn layout(&mut self, spans: &mut Spans) -> Result<XlaLayout, Error> {
        let open = tri!(self.expect(b'{', "`{` to start a layout"));
        let mut l = XlaLayout::EMPTY;
        tri!(self.skip_ws());
        if matches!(self.peek(), Some(b'0'..=b'9' | b'-')) {
            loop {
                let (v, sp) = tri!(self.integer(true, "a dim number"));
                if !l.push_minor_to_major(v) {
                    return Err(Error::at(
                        ErrorKind::TooManyDims,
                        sp.start as usize,
                        sp.end as usize,
                    ));
                }
                spans.minor_to_major[l.minor_to_major().len() - 1] = sp;
                tri!(self.skip_ws());
                if matches!(self.peek(), Some(b',')) {
                    self.pos += 1;
                } else {
                    break;
                }
            }
        }
        if tri!(self.at(b':')) {
            self.pos += 1;
            tri!(self.attributes(&mut l, spans));
        }
        tri!(self.expect(b'}', "`,`, `:` or `}` in the layout"));
        spans.layout = Span::new(open, self.pos);
        Ok(l)
    }

    const fn attributes(&mut self, l: &mut XlaLayout, spans: &mut Spans) -> Result<(), Error> {
        let mut next = 0usize; // index into ATTR_ORDER of the first still allowed
        loop {
            tri!(self.skip_ws());
            let start = self.pos;
            let attr = match self.peek() {
                Some(b'D') => Attr::DimLevelTypes,
                Some(b'T') => Attr::Tiles,
                Some(b'L') => Attr::TailPadding,
                Some(b'#') => Attr::IndexType,
                Some(b'*') => Attr::PointerType,
                Some(b'E') => Attr::ElementSize,
                Some(b'S') if matches!(self.peek_at(1), Some(b'C')) => Attr::SplitConfigs,
                Some(b'S') => Attr::MemorySpace,
                Some(b'P') => Attr::PhysicalShape,
                Some(b'M') => Attr::DynamicMetadata,
                Some(b'}') | None => return Ok(()),
                _ => return Err(self.unexpected("a layout attribute (T, L, E, S, SC, M) or `}`")),
            };
            let mut idx = 0;
            while ATTR_ORDER[idx] as u8 != attr as u8 {
                idx += 1;
            }
            let len = if matches!(attr, Attr::SplitConfigs) {
                2
            } else {
                1
            };
            if idx < next {
                return Err(Error::at(
                    ErrorKind::AttributeOrder { found: attr },
                    start,
                    start + len,
                ));
            }
            next = idx + 1;
            self.pos += len;
            match attr {
                Attr::DimLevelTypes => tri!(self.dim_level_types()),
                Attr::Tiles => tri!(self.tiles(l, spans)),
                Attr::TailPadding => {
                    tri!(self.expect(b'(', "`(` after L"));
                    l.tail_padding_alignment_in_elements = tri!(self.natural("an integer")).0;
                    tri!(self.expect(b')', "`)`"));
                    spans.attrs[0] = Span::new(start, self.pos);
                }
                Attr::IndexType | Attr::PointerType => {
                    tri!(self.expect(b'(', "`(` and an element type"));
                    let sp = tri!(self.ident());
                    let t = tri!(self.element_type(sp));
                    if !t.is_unsigned_integer() {
                        return Err(Error::at(
                            ErrorKind::SparseType,
                            sp.start as usize,
                            sp.end as usize,
                        ));
                    }
                    tri!(self.expect(b')', "`)`"));
                    if matches!(attr, Attr::IndexType) {
                        l.index_primitive_type = Some(t);
                        spans.attrs[1] = Span::new(start, self.pos);
                    } else {
                        l.pointer_primitive_type = Some(t);
                        spans.attrs[2] = Span::new(start, self.pos);
                    }
                }
                Attr::ElementSize => {
                    tri!(self.expect(b'(', "`(` after E"));
                    l.element_size_in_bits = tri!(self.natural("an integer")).0;
                    tri!(self.expect(b')', "`)`"));
                    spans.attrs[3] = Span::new(start, self.pos);
                }
                Attr::MemorySpace => {
                    tri!(self.expect(b'(', "`(` after S"));
                    let (v, sp) = tri!(self.integer(true, "an integer"));
                    if v < i8::MIN as i64 || v > i8::MAX as i64 {
                        return Err(Error::at(
                            ErrorKind::MemorySpaceRange,
                            sp.start as usize,
                            sp.end as usize,
                        ));
                    }
                    l.memory_space = v as i8;
                    tri!(self.expect(b')', "`)`"));
                    spans.attrs[4] = Span::new(start, self.pos);
                }
                Attr::SplitConfigs => tri!(self.split_configs(l, spans)),
                Attr::PhysicalShape => {
                    return Err(Error::at(ErrorKind::Obsolete { attr }, start, start + 1));
                }
                Attr::DynamicMetadata => {
                    tri!(self.expect(b'(', "`(` after M"));
                    l.dynamic_shape_metadata_prefix_bytes = tri!(self.natural("an integer")).0;
                    tri!(self.expect(b')', "`)`"));
                    spans.attrs[5] = Span::new(start, self.pos);
                }
            }
        }
    }

    /// `D(D,C,…)`: obsolete dim level types, accepted and dropped as XLA does.
    const fn dim_level_types(&mut self) -> Result<(), Error> {
        tri!(self.expect(b'(', "`(` after D"));
        if tri!(self.at(b')')) {
            self.pos += 1;
            return Ok(());
        }
        loop {
            tri!(self.skip_ws());
            match self.peek() {
                Some(b'D' | b'C' | b'S' | b'H') => self.pos += 1,
                _ => return Err(self.unexpected("a dim level type: D, C, S or H")),
            }
            while let Some(b'+' | b'~') = self.peek() {
                self.pos += 1;
            }
            tri!(self.skip_ws());
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b')') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.unexpected("`,` or `)`")),
            }
        }
    }

    /// `T(…)(…)…` with the `T` already consumed.
    const fn tiles(&mut self, l: &mut XlaLayout, spans: &mut Spans) -> Result<(), Error> {
        if !tri!(self.at(b'(')) {
            return Err(self.unexpected("`(` to start a tile after T"));
        }
        while tri!(self.at(b'(')) {
            let start = self.pos;
            self.pos += 1;
            let ti = l.tile_count();
            if ti >= crate::MAX_TILES {
                return Err(Error::at(ErrorKind::TooManyTiles, start, start + 1));
            }
            let mut tile = Tile::EMPTY;
            if !tri!(self.at(b')')) {
                loop {
                    tri!(self.skip_ws());
                    let ds = self.pos;
                    let d = if matches!(self.peek(), Some(b'*')) {
                        self.pos += 1;
                        TileDim::Combine
                    } else {
                        TileDim::Size(tri!(self.natural("a tile dim: a positive integer or `*`")).0)
                    };
                    if !tile.push(d) {
                        return Err(Error::at(ErrorKind::TileTooLong, ds, self.pos));
                    }
                    spans.tile_dims[ti][tile.rank() - 1] = Span::new(ds, self.pos);
                    tri!(self.skip_ws());
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b')') => break,
                        _ => return Err(self.unexpected("`,` or `)` in the tile")),
                    }
                }
            }
            tri!(self.expect(b')', "`)`"));
            let _ = l.push_tile(tile);
            spans.tiles[ti] = Span::new(start, self.pos);
        }
        Ok(())
    }

    /// `SC(d:i,j)(…)…` with the `SC` already consumed.
    const fn split_configs(&mut self, l: &mut XlaLayout, spans: &mut Spans) -> Result<(), Error> {
        if !tri!(self.at(b'(')) {
            return Err(self.unexpected("`(` to start a split config after SC"));
        }
        while tri!(self.at(b'(')) {
            let start = self.pos;
            self.pos += 1;
            let (d, _) = tri!(self.natural("a physical dim number"));
            let mut sc = SplitConfig::new(d);
            tri!(self.expect(b':', "`:` after the split dim"));
            if !tri!(self.at(b')')) {
                loop {
                    let (v, sp) = tri!(self.natural("a split index"));
                    if !sc.push(v) {
                        return Err(Error::at(
                            ErrorKind::TooManySplits,
                            sp.start as usize,
                            sp.end as usize,
                        ));
                    }
                    tri!(self.skip_ws());
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b')') => break,
                        _ => return Err(self.unexpected("`,` or `)` in the split config")),
                    }
                }
            }
            tri!(self.expect(b')', "`)`"));
            let i = l.split_configs().len();
            if !l.push_split_config(sc) {
                return Err(Error::at(ErrorKind::TooManySplits, start, self.pos));
            }
            spans.split_configs[i] = Span::new(start, self.pos);
        }
        Ok(())
    }

    pub(crate) const fn end(&mut self) -> Result<(), Error> {
        tri!(self.skip_ws());
        if self.pos < self.s.len() {
            return Err(Error::at(ErrorKind::TrailingInput, self.pos, self.s.len()));
        }
        Ok(())
    }
}

/// Parses an array shape, `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`,
/// with the default options. Does not validate: see [`Shape::validate`] and
/// [`parse_valid_shape`].
///
/// # Errors
/// A syntax error with the byte range of the problem; [`ErrorKind::NotAnArray`]
/// for tuples and buffers (see [`crate::canonicalize`] for those).
///
/// # Examples
/// ```
/// use tilelayout::value::{parse_shape, ErrorKind};
/// assert!(parse_shape("f32[3,5]{1,0:T(2,2)}").is_ok());
/// let e = parse_shape("f32[3,5]{1,0:T(2;2)}").unwrap_err();
/// assert_eq!(e.span.start, 16);
/// assert_eq!(e.to_string(), "expected `,` or `)` in the tile, found `;` at byte 16");
/// ```
pub const fn parse_shape(text: &str) -> Result<Shape, Error> {
    match parse_shape_with(text, ParseOptions { strict: false }) {
        Ok((s, _)) => Ok(s),
        Err(e) => Err(e),
    }
}

/// Parses an array shape and returns where each part was in the text.
pub const fn parse_shape_with(text: &str, opts: ParseOptions) -> Result<(Shape, Spans), Error> {
    let mut p = Parser::new(text.as_bytes(), opts);
    tri!(p.skip_ws());
    if matches!(p.peek(), Some(b'(')) {
        return Err(Error::at(ErrorKind::NotAnArray, p.pos, p.pos + 1));
    }
    let sp = tri!(p.ident());
    if matches!(p.slice(sp), b"b") && tri!(p.at(b'(')) {
        return Err(Error::at(
            ErrorKind::NotAnArray,
            sp.start as usize,
            p.pos + 1,
        ));
    }
    let r = tri!(p.array_after_type(sp));
    tri!(p.end());
    Ok(r)
}

/// Parses and validates an array shape; a validation error carries the byte
/// range of the offending part of the text.
///
/// # Examples
/// ```
/// use tilelayout::value::{parse_valid_shape, ErrorKind};
/// let e = parse_valid_shape("f32[3,5]{1,1}").unwrap_err();
/// assert_eq!(e.kind, ErrorKind::MinorToMajorRepeat { position: 1, value: 1 });
/// assert_eq!((e.span.start, e.span.end), (11, 12));
/// ```
pub const fn parse_valid_shape(text: &str) -> Result<Shape, Error> {
    let (shape, spans) = tri!(parse_shape_with(text, ParseOptions { strict: false }));
    match shape.validate() {
        Ok(()) => Ok(shape),
        Err(e) => Err(spans.locate(e)),
    }
}

/// Parses a layout on its own, `{1,0:T(8,128)(2,1)}` (a real exchange
/// format). `{}` is the empty layout (of a scalar).
///
/// # Examples
/// ```
/// let l = tilelayout::value::parse_layout("{3,2,1,0:L(100)}").unwrap();
/// assert_eq!(l.tail_padding_alignment_in_elements, 100);
/// ```
pub const fn parse_layout(text: &str) -> Result<XlaLayout, Error> {
    match parse_layout_with(text) {
        Ok((l, _)) => Ok(l),
        Err(e) => Err(e),
    }
}

/// Parses a layout on its own and returns where each part was in the text
/// (for [`Spans::locate`] on errors of [`XlaLayout::validate`]).
pub const fn parse_layout_with(text: &str) -> Result<(XlaLayout, Spans), Error> {
    let mut p = Parser::new(text.as_bytes(), ParseOptions { strict: false });
    let mut spans = Spans::NONE;
    let l = tri!(p.layout(&mut spans));
    tri!(p.end());
    spans.all = Span::new(0, text.len());
    Ok((l, spans))
}

/// Parses one tile, `(8,128)` or `(2,*,128)`.
pub const fn parse_tile(text: &str) -> Result<Tile, Error> {
    let mut p = Parser::new(text.as_bytes(), ParseOptions { strict: false });
    let mut l = XlaLayout::EMPTY;
    let mut spans = Spans::NONE;
    tri!(p.tiles(&mut l, &mut spans));
    tri!(p.end());
    if l.tile_count() != 1 {
        return Err(Error::at(
            ErrorKind::TrailingInput,
            spans.tiles[1].start as usize,
            text.len(),
        ));
    }
    Ok(l.tiles()[0])
}

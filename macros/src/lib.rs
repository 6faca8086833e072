//! Procedural macros for `tilelayout`. Use them through the `tilelayout`
//! crate (`tilelayout::layout!`), where they are documented.
//!
//! The macro turns XLA text into the layout type a person would write,
//! after parsing and validating it with `tilelayout-core`, the one
//! implementation of the grammar and rules. It holds no parser of its own.
#![forbid(unsafe_code)]

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use tilelayout_core as core_;

mod cute;

/// Expands `cute!`: input is `$crate ; <CuTe layout as tokens or a string>`.
#[proc_macro]
pub fn cute_impl(input: TokenStream) -> TokenStream {
    cute::expand(input)
}

/// Most dims, tiles and tile dims of a layout type (the library's
/// `MAX_TYPE_RANK`).
const MAX_TYPE_RANK: usize = 8;

/// Expands `layout!`: input is `$crate ; <XLA text as tokens or a string>`.
#[proc_macro]
pub fn layout_impl(input: TokenStream) -> TokenStream {
    let (krate, rest) = split_crate(input);
    match expand(&krate, &rest) {
        Ok(ts) => ts,
        Err(e) => stand_in(&krate, e, "Layout"),
    }
}

/// After an error, a type that still stands for a layout (array), so that a
/// use of it (`Bad::SLOTS`) adds no second, confusing error (as thiserror's
/// fallback impl does): `<[(); { compile_error!{…} 0 }] as
/// $crate::__private::StandIn>::Layout`. The error is reported while the
/// macro expands; the projection names a valid layout type whatever the
/// array length.
fn stand_in(krate: &TokenStream, error: TokenStream, assoc: &str) -> TokenStream {
    let mut block = error;
    block.extend([TokenTree::Literal(Literal::usize_unsuffixed(0))]);
    let mut array = TokenStream::from(TokenTree::Group(Group::new(
        Delimiter::Parenthesis,
        TokenStream::new(),
    )));
    array.extend([
        TokenTree::Punct(Punct::new(';', Spacing::Alone)),
        TokenTree::Group(Group::new(Delimiter::Brace, block)),
    ]);
    let mut ts = TokenStream::from(TokenTree::Punct(Punct::new('<', Spacing::Alone)));
    ts.extend([
        TokenTree::Group(Group::new(Delimiter::Bracket, array)),
        TokenTree::Ident(Ident::new("as", Span::call_site())),
    ]);
    ts.extend(path(krate, "__private"));
    ts.extend([
        TokenTree::Punct(Punct::new(':', Spacing::Joint)),
        TokenTree::Punct(Punct::new(':', Spacing::Alone)),
        TokenTree::Ident(Ident::new("StandIn", Span::call_site())),
        TokenTree::Punct(Punct::new('>', Spacing::Alone)),
        TokenTree::Punct(Punct::new(':', Spacing::Joint)),
        TokenTree::Punct(Punct::new(':', Spacing::Alone)),
        TokenTree::Ident(Ident::new(assoc, Span::call_site())),
    ]);
    ts
}

/// Splits the input of the `*_impl` macros, `$crate ; <XLA text>`, into the
/// crate path (kept as tokens: a `$crate` must not round-trip through a
/// string) and the text's tokens.
fn split_crate(input: TokenStream) -> (TokenStream, Vec<TokenTree>) {
    let mut tokens = input.into_iter();
    let mut krate = TokenStream::new();
    for t in tokens.by_ref() {
        if let TokenTree::Punct(p) = &t {
            if p.as_char() == ';' {
                break;
            }
        }
        krate.extend([t]);
    }
    (krate, tokens.collect())
}

/// The shape of text that [`expand`] already accepted (for the sizes the
/// storage macros emit).
fn accepted_shape(tokens: &[TokenTree]) -> Option<core_::Shape> {
    let src = Source::from_tokens(tokens).ok()?;
    core_::parse_shape(&src.text).ok()
}

/// The text assembled from tokens, with the span of every piece.
struct Source {
    text: String,
    /// (start byte, end byte, span)
    pieces: Vec<(usize, usize, Span)>,
    /// Set for the string-literal form: errors name the byte offset.
    literal: Option<Span>,
}

impl Source {
    fn from_tokens(tokens: &[TokenTree]) -> Result<Source, TokenStream> {
        Source::from_tokens_or(
            tokens,
            "expected a shape with its layout, e.g. layout!(f32[3,5]{1,0:T(2,2)})",
        )
    }

    /// [`Source::from_tokens`], with `empty` as the error for no tokens.
    fn from_tokens_or(tokens: &[TokenTree], empty: &str) -> Result<Source, TokenStream> {
        if let [TokenTree::Literal(lit)] = tokens {
            let repr = lit.to_string();
            if repr.starts_with('"') || repr.starts_with('r') {
                return Ok(Source {
                    text: unquote(&repr, lit.span())?,
                    pieces: Vec::new(),
                    literal: Some(lit.span()),
                });
            }
        }
        let mut s = Source {
            text: String::new(),
            pieces: Vec::new(),
            literal: None,
        };
        let mut word_before = false;
        s.push_all(tokens.iter().cloned(), &mut word_before);
        if s.text.is_empty() {
            return Err(error(Span::call_site(), Span::call_site(), empty));
        }
        Ok(s)
    }

    fn push(&mut self, text: &str, span: Span) {
        let start = self.text.len();
        self.text.push_str(text);
        self.pieces.push((start, self.text.len(), span));
    }

    fn push_all(&mut self, tokens: impl Iterator<Item = TokenTree>, word_before: &mut bool) {
        for t in tokens {
            match t {
                TokenTree::Group(g) => {
                    let (open, close) = match g.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::None => ("", ""),
                    };
                    self.push(open, g.span_open());
                    *word_before = false;
                    self.push_all(g.stream().into_iter(), word_before);
                    self.push(close, g.span_close());
                    *word_before = false;
                }
                TokenTree::Ident(i) => {
                    if *word_before {
                        self.text.push(' ');
                    }
                    self.push(&i.to_string(), i.span());
                    *word_before = true;
                }
                TokenTree::Literal(l) => {
                    if *word_before {
                        self.text.push(' ');
                    }
                    self.push(&l.to_string(), l.span());
                    *word_before = true;
                }
                TokenTree::Punct(p) => {
                    self.push(&p.as_char().to_string(), p.span());
                    *word_before = false;
                }
            }
        }
    }

    /// The spans of the first and last token that bytes `start..end` touch.
    fn spans(&self, start: usize, end: usize) -> (Span, Span) {
        if let Some(l) = self.literal {
            return (l, l);
        }
        let first = self
            .pieces
            .iter()
            .find(|p| p.1 > start)
            .or(self.pieces.last())
            .map_or(Span::call_site(), |p| p.2);
        let last_byte = end.max(start + 1) - 1;
        let last = self
            .pieces
            .iter()
            .rev()
            .find(|p| p.0 <= last_byte)
            .map_or(first, |p| p.2);
        (first, last)
    }

    fn fail(&self, e: core_::Error) -> TokenStream {
        let (a, b) = self.spans(e.span.start as usize, e.span.end as usize);
        let msg = if self.literal.is_some() {
            e.describe().to_string()
        } else {
            e.message().to_string()
        };
        error(a, b, &msg)
    }

    fn fail_msg(&self, start: usize, end: usize, msg: &str) -> TokenStream {
        let (a, b) = self.spans(start, end);
        if self.literal.is_some() {
            return error(a, b, &format!("{msg} at byte {start}"));
        }
        error(a, b, msg)
    }
}

/// The value of a plain or raw string literal without escapes.
fn unquote(repr: &str, span: Span) -> Result<String, TokenStream> {
    let body = if let Some(raw) = repr.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        &raw[hashes + 1..raw.len() - hashes - 1]
    } else {
        let body = &repr[1..repr.len() - 1];
        if body.contains('\\') {
            return Err(error(
                span,
                span,
                "escapes are not supported in layout text; write the text plainly",
            ));
        }
        body
    };
    Ok(body.to_owned())
}

/// `::core::compile_error!{"msg"}` spanning `start..end` (syn's trick: the
/// leading tokens carry the start span, the message group the end span).
fn error(start: Span, end: Span, msg: &str) -> TokenStream {
    let mut ts = Vec::new();
    let colons = |ts: &mut Vec<TokenTree>| {
        let mut a = Punct::new(':', Spacing::Joint);
        a.set_span(start);
        let mut b = Punct::new(':', Spacing::Alone);
        b.set_span(start);
        ts.push(TokenTree::Punct(a));
        ts.push(TokenTree::Punct(b));
    };
    colons(&mut ts);
    ts.push(TokenTree::Ident(Ident::new("core", start)));
    colons(&mut ts);
    ts.push(TokenTree::Ident(Ident::new("compile_error", start)));
    let mut bang = Punct::new('!', Spacing::Alone);
    bang.set_span(start);
    ts.push(TokenTree::Punct(bang));
    let mut lit = Literal::string(msg);
    lit.set_span(end);
    let mut g = Group::new(Delimiter::Brace, TokenStream::from(TokenTree::Literal(lit)));
    g.set_span(end);
    ts.push(TokenTree::Group(g));
    ts.into_iter().collect()
}

fn expand(krate: &TokenStream, tokens: &[TokenTree]) -> Result<TokenStream, TokenStream> {
    let src = Source::from_tokens(tokens)?;
    let (shape, spans) = core_::parse_shape_with(&src.text, core_::ParseOptions::default())
        .map_err(|e| src.fail(e))?;
    let all = (spans.all.start as usize, spans.all.end as usize);
    if let Err(e) = shape.validate() {
        return Err(src.fail(spans.locate(e)));
    }
    let layout = shape.layout();
    let ty = shape.element_type();
    if !ty.is_array_type() {
        return Err(src.fail_msg(all.0, all.1, "token and opaque have no layout type"));
    }
    if let Err(e) = core_::check_element_size(layout.element_size_in_bits) {
        let e = core_::Error {
            kind: e.kind,
            span: spans.attrs[3],
        };
        return Err(src.fail(e));
    }
    if !shape.is_static() {
        let d = shape
            .dims()
            .iter()
            .position(|d| d.size().is_none())
            .unwrap_or(0);
        let sp = spans.dims[d];
        return Err(src.fail_msg(
            sp.start as usize,
            sp.end as usize,
            "layout types need static dims; `<=N` and `?` are dynamic",
        ));
    }
    if shape.rank() > MAX_TYPE_RANK {
        let sp = spans.dims[MAX_TYPE_RANK];
        return Err(src.fail_msg(
            sp.start as usize,
            sp.end as usize,
            &format!(
                "rank {} is above the layout types' maximum of {MAX_TYPE_RANK}",
                shape.rank()
            ),
        ));
    }
    // (at most 8 tiles: the core's own limit, `MAX_TILES`, is 8 too)
    for (i, t) in layout.tiles().iter().enumerate() {
        if t.rank() > MAX_TYPE_RANK {
            let sp = spans.tiles[i];
            return Err(src.fail_msg(
                sp.start as usize,
                sp.end as usize,
                "layout types take tiles of at most 8 dims",
            ));
        }
    }
    if !layout.split_configs().is_empty() {
        let sp = spans.split_configs[0];
        return Err(src.fail_msg(
            sp.start as usize,
            sp.end as usize,
            "split configs SC(…) are not represented in layout types; remove them",
        ));
    }
    if layout.dynamic_shape_metadata_prefix_bytes != 0 {
        let sp = spans.attrs[5];
        return Err(src.fail_msg(
            sp.start as usize,
            sp.end as usize,
            "M(…) is for dynamic shapes, which layout types do not have; remove it",
        ));
    }
    if let Err(e) = shape.sizes() {
        return Err(src.fail(spans.locate(e)));
    }
    Ok(emit(krate, &shape))
}

fn path(krate: &TokenStream, name: &str) -> TokenStream {
    let mut ts = krate.clone();
    ts.extend([
        TokenTree::Punct(Punct::new(':', Spacing::Joint)),
        TokenTree::Punct(Punct::new(':', Spacing::Alone)),
        TokenTree::Ident(Ident::new(name, Span::call_site())),
    ]);
    ts
}

/// `path<args…>`
fn generic(krate: &TokenStream, name: &str, args: Vec<TokenStream>) -> TokenStream {
    let mut ts = path(krate, name);
    ts.extend([TokenTree::Punct(Punct::new('<', Spacing::Alone))]);
    for (i, a) in args.into_iter().enumerate() {
        if i > 0 {
            ts.extend([TokenTree::Punct(Punct::new(',', Spacing::Alone))]);
        }
        ts.extend(a);
    }
    ts.extend([TokenTree::Punct(Punct::new('>', Spacing::Alone))]);
    ts
}

fn num(n: u64) -> TokenStream {
    TokenStream::from(TokenTree::Literal(Literal::u64_unsuffixed(n)))
}

/// A `usize` const parameter. The macro runs on the host and cannot see
/// the target's width: a value past `u32::MAX` (which a 32-bit target's
/// `usize` does not hold; the core's `Shape::check_pointer_width` rule) is
/// written `{ $crate::__private::usize_param(n) }`, which is `n` where it
/// fits and otherwise one error at the macro's line saying so (a bare
/// literal would wrap to `usize::MAX`, the marker of an absent parameter).
fn usize_param(krate: &TokenStream, n: u64) -> TokenStream {
    if n <= u64::from(u32::MAX) {
        return num(n);
    }
    let mut call = path(krate, "__private");
    call.extend([
        TokenTree::Punct(Punct::new(':', Spacing::Joint)),
        TokenTree::Punct(Punct::new(':', Spacing::Alone)),
        TokenTree::Ident(Ident::new("usize_param", Span::call_site())),
        TokenTree::Group(Group::new(Delimiter::Parenthesis, num(n))),
    ]);
    TokenStream::from(TokenTree::Group(Group::new(Delimiter::Brace, call)))
}

/// The type-level spelling of the shape: what a person writes by hand,
/// with parameters that have their default left out.
fn emit(krate: &TokenStream, shape: &core_::Shape) -> TokenStream {
    let layout = shape.layout();
    let ty = shape.element_type();
    let marker = match ty {
        core_::PrimitiveType::Pred => "Pred".to_owned(),
        t => t.name().to_uppercase(),
    };
    let dims: Vec<TokenStream> = shape
        .dims()
        .iter()
        .map(|d| usize_param(krate, d.size().unwrap_or(0)))
        .collect();
    let mut args = vec![path(krate, &marker), generic(krate, "Dims", dims)];
    let tiles: Vec<TokenStream> = layout
        .tiles()
        .iter()
        .map(|t| {
            let dims = (0..t.rank())
                .map(|j| match t.dim(j) {
                    core_::TileDim::Size(n) => usize_param(krate, n),
                    core_::TileDim::Combine => TokenStream::from(TokenTree::Group(Group::new(
                        Delimiter::Brace,
                        path(krate, "COMBINE"),
                    ))),
                })
                .collect();
            generic(krate, "T", dims)
        })
        .collect();
    let default_order =
        *layout.minor_to_major() == *core_::XlaLayout::descending(shape.rank()).minor_to_major();
    let default_attrs = layout.tail_padding_alignment_in_elements == 1
        && layout.element_size_in_bits == 0
        && layout.memory_space == 0;
    let tiles_ts = match tiles.len() {
        1 => tiles.into_iter().next().unwrap_or_default(),
        _ => {
            let mut inner = TokenStream::new();
            for t in tiles {
                inner.extend(t);
                inner.extend([TokenTree::Punct(Punct::new(',', Spacing::Alone))]);
            }
            TokenStream::from(TokenTree::Group(Group::new(Delimiter::Parenthesis, inner)))
        }
    };
    if layout.tile_count() > 0 || !default_order || !default_attrs {
        args.push(tiles_ts);
    }
    if !default_order || !default_attrs {
        if default_order {
            args.push(path(krate, "Descending"));
        } else {
            let m = layout
                .minor_to_major()
                .iter()
                .map(|&v| num(v as u64))
                .collect();
            args.push(generic(krate, "MinorToMajor", m));
        }
    }
    if !default_attrs {
        let s = layout.memory_space;
        let mut s_ts = TokenStream::new();
        if s < 0 {
            s_ts.extend([TokenTree::Punct(Punct::new('-', Spacing::Alone))]);
        }
        s_ts.extend(num(s.unsigned_abs() as u64));
        let s_arg = TokenStream::from(TokenTree::Group(Group::new(Delimiter::Brace, s_ts)));
        args.push(generic(
            krate,
            "Attrs",
            vec![
                usize_param(krate, layout.tail_padding_alignment_in_elements),
                usize_param(krate, layout.element_size_in_bits),
                s_arg,
            ],
        ));
    }
    generic(krate, "Tiled", args)
}

/// Expands `layout_slots!`: the typenum type of a layout's slot count
/// (input `$crate ; <XLA text>`), for `GenericArray` storage.
#[proc_macro]
pub fn layout_slots_impl(input: TokenStream) -> TokenStream {
    let (krate, rest) = split_crate(input);
    // Same checks as `layout!`: the storage is only for a valid layout type.
    if let Err(e) = expand(&krate, &rest) {
        return e;
    }
    let slots = accepted_shape(&rest)
        .and_then(|s| s.sizes().ok())
        .map_or(0, |s| s.slots);
    typenum(&krate, slots)
}

/// `typenum::UInt<…UInt<UTerm, B1>…, Bk>` for `n` (most significant bit
/// innermost), or `UTerm` for 0.
fn typenum(krate: &TokenStream, n: u64) -> TokenStream {
    let tn = |name: &str| {
        let mut ts = path(krate, "generic");
        for seg in ["typenum", name] {
            ts.extend([
                TokenTree::Punct(Punct::new(':', Spacing::Joint)),
                TokenTree::Punct(Punct::new(':', Spacing::Alone)),
                TokenTree::Ident(Ident::new(seg, Span::call_site())),
            ]);
        }
        ts
    };
    let mut ty = tn("UTerm");
    if n == 0 {
        return ty;
    }
    let bits = 64 - n.leading_zeros();
    for i in (0..bits).rev() {
        let bit = if (n >> i) & 1 == 1 { "B1" } else { "B0" };
        let mut args = ty;
        args.extend([TokenTree::Punct(Punct::new(',', Spacing::Alone))]);
        args.extend(tn(bit));
        let mut t = tn("UInt");
        t.extend([TokenTree::Punct(Punct::new('<', Spacing::Alone))]);
        t.extend(args);
        t.extend([TokenTree::Punct(Punct::new('>', Spacing::Alone))]);
        ty = t;
    }
    ty
}

/// Expands `layout_array!`: `TypedArray<layout type, storage units>` (input
/// `$crate ; <XLA text>`).
#[proc_macro]
pub fn layout_array_impl(input: TokenStream) -> TokenStream {
    let (krate, rest) = split_crate(input);
    let ty = match expand(&krate, &rest) {
        Ok(ty) => ty,
        Err(e) => return stand_in(&krate, e, "Array"),
    };
    // Units: the bytes over the unit's size, which is the type's byte
    // width (`u8` for sub-byte types and `pred`, whatever `E(n)` says): the
    // library's `TypedStorage::UNITS`, which `TypedArray` checks.
    let units = accepted_shape(&rest)
        .and_then(|s| {
            let unit = s.element_type().byte_width().max(1) as u64;
            s.sizes().ok().map(|z| z.bytes / unit)
        })
        .unwrap_or(0);
    let mut storage = path(&krate, "storage");
    storage.extend([
        TokenTree::Punct(Punct::new(':', Spacing::Joint)),
        TokenTree::Punct(Punct::new(':', Spacing::Alone)),
        TokenTree::Ident(Ident::new("TypedArray", Span::call_site())),
        TokenTree::Punct(Punct::new('<', Spacing::Alone)),
    ]);
    storage.extend(ty);
    storage.extend([TokenTree::Punct(Punct::new(',', Spacing::Alone))]);
    storage.extend(usize_param(&krate, units));
    storage.extend([TokenTree::Punct(Punct::new('>', Spacing::Alone))]);
    storage
}

//! `cute!`: CuTe's notation, parsed by the core's algebra parser, as the
//! nested [`Cute`](../tilelayout/struct.Cute.html) type a person would
//! write: `(8,(2,4)):(1,(8,16))` becomes
//! `Cute<(Leaf<8, 1, false, false>, (Leaf<2, 8, false, false>, Leaf<4, 16, false, false>))>`,
//! and a swizzled `Sw<3,4,3> o _0 o (8,64):(64,1)` as
//! `CuteComposed<3, 4, 3, 0, Cute<…>>`.

use proc_macro::{Delimiter, Group, Punct, Spacing, TokenStream, TokenTree};
use tilelayout_core::algebra::{AnyLayout, IntTuple};

use super::{error, generic, split_crate, Source};

/// Most modes of one tuple in a layout type (the tuple impls of `Modes`).
const MAX_TUPLE: usize = 8;

/// Expands `cute!`: input is `$crate ; <CuTe layout as tokens or a
/// string>`.
pub fn expand(input: TokenStream) -> TokenStream {
    let (krate, rest) = split_crate(input);
    match expand_tokens(&krate, &rest) {
        Ok(ts) | Err(ts) => ts,
    }
}

fn expand_tokens(krate: &TokenStream, tokens: &[TokenTree]) -> Result<TokenStream, TokenStream> {
    let src = Source::from_tokens_or(
        tokens,
        "expected a CuTe layout, e.g. cute!((8,(2,4)):(1,(8,16)))",
    )?;
    let fail = |start: usize, end: usize, msg: &str| {
        let (a, b) = src.spans(start, end);
        if src.literal.is_some() {
            error(a, b, &format!("{msg} at byte {start}"))
        } else {
            error(a, b, msg)
        }
    };
    let (layout, swizzle) = match AnyLayout::parse(&src.text) {
        Ok(AnyLayout::Plain(l)) => (l, None),
        Ok(AnyLayout::Swizzled(c)) => (c.layout, Some((c.swizzle, c.offset.value))),
        Err(e) => {
            let (s, t) = if e.span.is_none() {
                (0, src.text.len())
            } else {
                (e.span.start as usize, e.span.end as usize)
            };
            return Err(fail(s, t, e.message().as_str()));
        }
    };
    let modes = emit(krate, layout.shape(), layout.stride())
        .map_err(|rank| fail(0, src.text.len(), &too_wide(rank)))?;
    let plain = generic(krate, "Cute", vec![modes]);
    Ok(match swizzle {
        None => plain,
        // `Sw<B,M,S> o O o L`: the swizzle was checked by the parser
        Some((sw, offset)) => generic(
            krate,
            "CuteComposed",
            vec![
                int(sw.bits() as i64),
                int(sw.base() as i64),
                int(sw.shift() as i64),
                int(offset),
                plain,
            ],
        ),
    })
}

fn too_wide(rank: usize) -> String {
    format!("a tuple of {rank} modes; layout types take at most {MAX_TUPLE} modes per tuple (nest them)")
}

/// The mode type of congruent `shape` and `stride`; `Err(rank)` for a
/// tuple wider than [`MAX_TUPLE`].
fn emit(krate: &TokenStream, shape: &IntTuple, stride: &IntTuple) -> Result<TokenStream, usize> {
    if let (Some(s), Some(d)) = (shape.as_int(), stride.as_int()) {
        let mut args = vec![int(s.value), int(d.value)];
        if !s.is_static || !d.is_static {
            args.push(boolean(s.is_static));
            args.push(boolean(d.is_static));
        }
        return Ok(generic(krate, "Leaf", args));
    }
    let r = shape.rank();
    if r > MAX_TUPLE {
        return Err(r);
    }
    let mut inner = TokenStream::new();
    for i in 0..r {
        // congruent by construction (the parser checked)
        let (Ok(s), Ok(d)) = (shape.mode(i), stride.mode(i)) else {
            return Err(r);
        };
        inner.extend(emit(krate, &s, &d)?);
        inner.extend([TokenTree::Punct(Punct::new(',', Spacing::Alone))]);
    }
    Ok(TokenStream::from(TokenTree::Group(Group::new(
        Delimiter::Parenthesis,
        inner,
    ))))
}

/// An `i64` const argument (braced when negative).
fn int(v: i64) -> TokenStream {
    let lit = TokenStream::from(TokenTree::Literal(proc_macro::Literal::i64_unsuffixed(
        v.unsigned_abs() as i64,
    )));
    if v >= 0 {
        return lit;
    }
    let mut inner = TokenStream::from(TokenTree::Punct(Punct::new('-', Spacing::Alone)));
    if v == i64::MIN {
        // |i64::MIN| does not fit i64: write it as an expression
        inner.extend("9223372036854775807 - 1".parse::<TokenStream>());
    } else {
        inner.extend(lit);
    }
    TokenStream::from(TokenTree::Group(Group::new(Delimiter::Brace, inner)))
}

fn boolean(b: bool) -> TokenStream {
    TokenStream::from(TokenTree::Ident(proc_macro::Ident::new(
        if b { "true" } else { "false" },
        proc_macro::Span::call_site(),
    )))
}

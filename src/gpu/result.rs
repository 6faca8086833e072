//! What a GPU layout type carries besides its shape: its layout, or the
//! [`Verdict`] of the first check that failed, computed without panicking
//! ([`CuteType::RESULT`](crate::CuteType::RESULT), the same result the CuTe
//! layout types carry). The helpers here build that result for the GPU
//! layout families: strided, swizzled and block layouts, named in the
//! user's words (`MatrixLayout<0, 4, 4, 1>`, `Sw<3,3,2>`).

// reason: the results are computed at compile time only, in const fns,
// which cannot box their errors
#![allow(clippy::result_large_err)]

use crate::algebra::{AnyLayout, ComposedLayout, CuteLayout, Int, IntTuple, Swizzle};
use crate::types::cute_result::finish;
use crate::types::verdict::Verdict;
use crate::value::TextBuf;

/// Room for a GPU type's name with its numbers.
pub(crate) type Name = TextBuf<128>;

/// `ty<p0, p1, …>`, the type as the user wrote it.
pub(crate) const fn name(ty: &str, params: &[usize]) -> Name {
    let mut t = Name::new();
    t.push_str(ty);
    t.push_str("<");
    let mut k = 0;
    while k < params.len() {
        if k > 0 {
            t.push_str(", ");
        }
        t.push_u64(params[k] as u64);
        k += 1;
    }
    t.push_str(">");
    t
}

const fn leaf(x: usize) -> IntTuple {
    IntTuple::int(Int::fixed(x as i64))
}

/// `(r, c):(rs, cs)` as a value of the algebra, or the verdict naming the
/// type `what` (a zero extent: the algebra's shapes are positive).
pub(crate) const fn strided_result(
    r: usize,
    c: usize,
    rs: usize,
    cs: usize,
    what: &str,
) -> Result<AnyLayout, Verdict> {
    let shape = match IntTuple::tuple(&[leaf(r), leaf(c)]) {
        Ok(s) => s,
        Err(e) => return finish(Err(e), what, ""),
    };
    let stride = match IntTuple::tuple(&[leaf(rs), leaf(cs)]) {
        Ok(s) => s,
        Err(e) => return finish(Err(e), what, ""),
    };
    if r == 0 || c == 0 {
        return Err(Verdict::fail(&[
            what,
            ": a GPU layout has at least one row and one column; use positive ROWS and COLS",
        ]));
    }
    match CuteLayout::new(shape, stride) {
        Ok(l) => finish(Ok(AnyLayout::Plain(l)), what, ""),
        Err(e) => finish(Err(e), what, ""),
    }
}

/// A GPU layout's result as the composed layout every
/// [`Layout2`](super::Layout2) is (a plain one with CuTe's "no swizzle"), or its
/// verdict.
pub(crate) const fn composed(r: &Result<AnyLayout, Verdict>) -> Result<ComposedLayout, Verdict> {
    match r {
        Ok(AnyLayout::Swizzled(c)) => Ok(*c),
        Ok(AnyLayout::Plain(l)) => Ok(ComposedLayout::new(Swizzle::NONE, Int::fixed(0), *l)),
        Err(v) => Err(*v),
    }
}

/// The size of the aligned blocks a swizzle permutes, `2^(M+|S|+B)`.
pub(crate) const fn span(sw: &Swizzle) -> usize {
    1usize << (sw.base() as u32 + sw.shift().unsigned_abs() + sw.bits() as u32)
}

/// `Swizzled<L, Sw>`'s result: `Sw o _0 o L`, when `L` is unswizzled and
/// its cosize a non-zero multiple of the swizzle's block.
pub(crate) const fn swizzled_result(
    l: &Result<AnyLayout, Verdict>,
    sw: &Result<Swizzle, Verdict>,
) -> Result<AnyLayout, Verdict> {
    let sw = match sw {
        Ok(sw) => *sw,
        Err(v) => return Err(*v),
    };
    let inner = match composed(l) {
        Ok(c) => c,
        Err(v) => return Err(v),
    };
    let text = inner.layout.to_text();
    if inner.swizzle.bits() != 0 {
        return Err(Verdict::fail(&[
            "Swizzled<L, Sw>: L is already swizzled (L = ",
            inner.to_text().as_str(),
            "); a swizzle of a swizzle is not a composed layout: swizzle the unswizzled layout",
        ]));
    }
    let cosize = match inner.layout.cosize() {
        Ok(n) => n.value as usize,
        Err(_) => 0,
    };
    let block = span(&sw);
    if cosize == 0 || !cosize.is_multiple_of(block) {
        let mut t = TextBuf::<160>::new();
        t.push_str("Swizzled<L, Sw>: the swizzle permutes aligned blocks of ");
        t.push_u64(block as u64);
        t.push_str(" offsets (2^(M+|S|+B)) but L spans ");
        t.push_u64(cosize as u64);
        return Err(Verdict::fail(&[
            t.as_str(),
            " (L = ",
            text.as_str(),
            "); use a tile whose span is a multiple of the block, or a smaller swizzle",
        ]));
    }
    Ok(AnyLayout::Swizzled(ComposedLayout::new(
        sw,
        Int::fixed(0),
        inner.layout,
    )))
}

/// A block layout's result from its operands' (`what` names the type):
/// the outer layout unswizzled, a swizzled inner one spanning whole
/// swizzle blocks.
pub(crate) const fn blocked_result(
    outer: &Result<AnyLayout, Verdict>,
    inner: &Result<AnyLayout, Verdict>,
    what: &str,
) -> Result<AnyLayout, Verdict> {
    let (o, i) = match (composed(outer), composed(inner)) {
        (Err(v), _) | (_, Err(v)) => return Err(v),
        (Ok(o), Ok(i)) => (o, i),
    };
    if o.swizzle.bits() != 0 {
        return Err(Verdict::fail(&[
            what,
            ": the outer layout is swizzled (Outer = ",
            o.to_text().as_str(),
            "); swizzle the block layout instead",
        ]));
    }
    let cosize = match i.layout.cosize() {
        Ok(n) => n.value as usize,
        Err(_) => 0,
    };
    if i.swizzle.bits() != 0 && !cosize.is_multiple_of(span(&i.swizzle)) {
        return Err(Verdict::fail(&[
            what,
            ": a swizzled Inner must span whole swizzle blocks, cosize a multiple of 2^(M+|S|+B) (Inner = ",
            i.to_text().as_str(),
            ")",
        ]));
    }
    let l = super::product::blocked(&o, &i);
    let r = if l.swizzle.bits() == 0 {
        Ok(AnyLayout::Plain(l.layout))
    } else {
        Ok(AnyLayout::Swizzled(l))
    };
    finish(r, what, "")
}

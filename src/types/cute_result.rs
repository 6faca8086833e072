//! [`CuteType`]: what every CuTe layout type carries, its layout (plain or
//! swizzled) or the [`Verdict`] of the first check that failed, computed
//! without panicking; and the helpers that turn the core's results into
//! it. The one panic of a failed type is [`Verdict::check`], in
//! [`assert_cute!`](crate::assert_cute)'s `const` at the user's line, or
//! where a constant of the type is used.

// reason: the results are computed at compile time only, in const fns,
// which cannot box their errors
#![allow(clippy::result_large_err)]

use super::verdict::Verdict;
use crate::algebra::{AlgebraError, AnyLayout, ComposedLayout, CuteLayout as Value, Int, Swizzle};

/// A plain layout result as an [`AnyLayout`] result.
pub(crate) const fn plain(r: Result<Value, AlgebraError>) -> Result<AnyLayout, AlgebraError> {
    match r {
        Ok(l) => Ok(AnyLayout::Plain(l)),
        Err(e) => Err(e),
    }
}

/// A swizzled layout result as an [`AnyLayout`] result.
pub(crate) const fn swizzled(
    r: Result<ComposedLayout, AlgebraError>,
) -> Result<AnyLayout, AlgebraError> {
    match r {
        Ok(l) => Ok(AnyLayout::Swizzled(l)),
        Err(e) => Err(e),
    }
}

/// The verdict "WHAT: MESSAGE (OPERANDS)" for an algebra error of the
/// operation `what` (the operands as CuTe prints them, or empty).
pub(crate) const fn failed(what: &str, operands: &str, e: &AlgebraError) -> Verdict {
    let open = if operands.is_empty() { "" } else { " (" };
    let close = if operands.is_empty() { "" } else { ")" };
    Verdict::fail(&[what, ": ", e.describe().as_str(), open, operands, close])
}

/// The verdict on an operation the algebra defines for plain layouts only,
/// given the swizzled layout `a`.
pub(crate) const fn not_swizzled(what: &str, a: &ComposedLayout) -> Verdict {
    Verdict::fail(&[
        what,
        ": not defined for a swizzled layout (Sw<B,M,S> o offset o layout); \
         apply it to the inner layout (A = ",
        a.to_text().as_str(),
        ")",
    ])
}

/// The result of an operation, checked for everything the traits'
/// constants compute from it (size, cosize), so that they never fail on a
/// good result; an error becomes the verdict naming `what`.
pub(crate) const fn finish(
    r: Result<AnyLayout, AlgebraError>,
    what: &str,
    operands: &str,
) -> Result<AnyLayout, Verdict> {
    let l = match r {
        Ok(l) => l,
        Err(e) => return Err(failed(what, operands, &e)),
    };
    let inner = match &l {
        AnyLayout::Plain(p) => p,
        AnyLayout::Swizzled(c) => &c.layout,
    };
    if let Err(e) = inner.size() {
        return Err(failed(what, operands, &e));
    }
    if let Err(e) = inner.cosize() {
        return Err(failed(what, operands, &e));
    }
    Ok(l)
}

/// The plain layout of an operand's result, or the verdict (its own, or
/// that a swizzled layout is no operand here).
pub(crate) const fn plain_operand(r: &Result<AnyLayout, Verdict>) -> Result<Value, Verdict> {
    match r {
        Ok(AnyLayout::Plain(l)) => Ok(*l),
        Ok(AnyLayout::Swizzled(c)) => Err(not_swizzled("a plain layout operand", c)),
        Err(v) => Err(*v),
    }
}

/// The plain layout of a good result, or the build stops with the
/// verdict's message (where a constant of an invalid type is used).
#[track_caller] // reason: the error points at the constant, not at this helper
pub(crate) const fn plain_or_stop(r: &Result<AnyLayout, Verdict>) -> Value {
    match r {
        Ok(AnyLayout::Plain(l)) => *l,
        // a type is an `AlgebraLayout` only when its result is plain
        Ok(AnyLayout::Swizzled(c)) => {
            not_swizzled("AlgebraLayout", c).check();
            Value::EMPTY
        }
        Err(v) => {
            v.check();
            Value::EMPTY
        }
    }
}

/// The swizzled layout of a good result (a plain result `L` as
/// `Sw<0,4,3> o _0 o L`, CuTe's "no swizzle": the same function), or the build stops with the
/// verdict's message.
#[track_caller] // reason: the error points at the constant, not at this helper
pub(crate) const fn composed_or_stop(r: &Result<AnyLayout, Verdict>) -> ComposedLayout {
    match r {
        Ok(AnyLayout::Swizzled(c)) => *c,
        Ok(AnyLayout::Plain(l)) => ComposedLayout::new(Swizzle::NONE, Int::fixed(0), *l),
        Err(v) => {
            v.check();
            ComposedLayout::new(Swizzle::NONE, Int::fixed(0), Value::EMPTY)
        }
    }
}

/// `size(l)` of a layout [`finish`] accepted (so it does not fail).
pub(crate) const fn size_of_layout(l: &Value) -> usize {
    match l.size() {
        Ok(n) => n.value as usize,
        Err(_) => 0,
    }
}

/// `cosize(l)` of a layout [`finish`] accepted (so it does not fail).
pub(crate) const fn cosize_of_layout(l: &Value) -> usize {
    match l.cosize() {
        Ok(n) => n.value as usize,
        Err(_) => 0,
    }
}

/// What every CuTe layout type is: its layout, plain (an
/// [`AlgebraLayout`](crate::AlgebraLayout)) or swizzled (a [`ComposedAlgebraLayout`](crate::ComposedAlgebraLayout)), computed
/// by the core without panicking, or the [`Verdict`] of the first check
/// that failed. [`assert_cute!`](crate::assert_cute) turns a failed
/// verdict into one error at its own line.
///
/// ```
/// use tilelayout::{cute, CuteType, Get};
/// assert!(<Get<cute!((_2,_3):(_1,_2)), 1>>::VERDICT.is_ok());
/// let bad = <Get<cute!((_2,_3):(_1,_2)), 5>>::VERDICT;
/// assert_eq!(
///     bad.message(),
///     Some("Get<_, 5>: mode 5 of a layout of rank 2; use a mode below 2 (A = (_2,_3):(_1,_2))"),
/// );
/// ```
pub trait CuteType: 'static + Sized {
    /// The layout, or the verdict of the check that failed (the first,
    /// innermost operation that failed names itself).
    const RESULT: Result<AnyLayout, Verdict>;
    /// Whether every compile-time check of the type passed.
    const VERDICT: Verdict = match Self::RESULT {
        Ok(_) => Verdict::OK,
        Err(v) => v,
    };
}

/// Unwraps an algebra result in a const: the error becomes a compile error
/// naming `what` and the core's message (for the GPU types' constants,
/// which are built from valid parameters).
#[track_caller] // reason: the error points at the constant, not at this helper
pub(crate) const fn ok<T: Copy>(r: Result<T, AlgebraError>, what: &str) -> T {
    match r {
        Ok(v) => v,
        Err(e) => {
            failed(what, "", &e).check();
            panic!("unreachable: a failed verdict stops the build")
        }
    }
}

//! Composition with a swizzle as types: CuTe's `composition(Sw, L)`
//! ([`SwizzleComposition`]), `composition(L, Sw)` ([`CompositionSwizzle`])
//! and `composition(L, Sw o _0 o B)` ([`CompositionComposed`]), whose
//! results are the core's [`swizzle_composition`],
//! [`composition_swizzle`] and [`composition_composed`] on the operands'
//! constants. They are [`ComposedAlgebraLayout`]s: `offset` folds to the
//! inner layout's straight-line code and one swizzle.
//!
//! ```
//! use tilelayout::{cute, ComposedAlgebraLayout, CompositionSwizzle, Sw};
//! // a row-major 8x8 tile read through Sw<2,0,3>: the swizzle moves to the
//! // left of the layout as Sw<2,0,-3> (CuTe's make_swizzle)
//! type A = CompositionSwizzle<cute!((_8,_8):(_8,_1)), Sw<2, 0, 3>>;
//! assert_eq!(A::TEXT, "Sw<2,0,-3> o _0 o (_8,_8):(_8,_1)");
//! // (1, 1): the layout gives 9 = 0b01_001, and Sw<2,0,-3> XORs bits 0-1
//! // into bits 3-4: 0b00_001
//! assert_eq!(A::offset([1, 1]), 1);
//! ```
//!
//! [`swizzle_composition`]: crate::algebra::swizzle_composition
//! [`composition_swizzle`]: crate::algebra::composition_swizzle
//! [`composition_composed`]: crate::algebra::composition_composed

use core::marker::PhantomData;

use super::cute::AlgebraLayout;
use super::cute_composed::{swizzle_verdict, ComposedAlgebraLayout};
use super::cute_ops::op_result;
use super::cute_result::{plain_operand, CuteType};
use super::verdict::Verdict;
use crate::algebra::{
    composition_composed, composition_swizzle, swizzle_composition, AlgebraError, AlgebraErrorKind,
    AnyLayout, Swizzle,
};

/// CuTe's `Swizzle<B, M, S>` as an operand, printed `Sw<B,M,S>`: `B`
/// bits from bit `M + max(S, 0)` XORed into bits `M` upward (any sign of
/// `S`; `|S| >= B`, checked by the core's [`Swizzle::new`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sw<const B: i32, const M: i32, const S: i32>;

/// A swizzle operand: [`Sw`].
pub trait SwizzleOperand: 'static {
    /// The swizzle, or the verdict that its parameters are out of range.
    const SWIZZLE: Result<Swizzle, Verdict>;
}

impl<const B: i32, const M: i32, const S: i32> SwizzleOperand for Sw<B, M, S> {
    const SWIZZLE: Result<Swizzle, Verdict> = swizzle_verdict(B, M, S);
}

/// CuTe's `composition(Sw, L)`: the swizzled layout `Sw o _0 o L`
/// (`L` itself for a swizzle of no bits, which prints as `L`).
///
/// ```
/// use tilelayout::{cute, ComposedAlgebraLayout, Sw, SwizzleComposition};
/// type A = SwizzleComposition<Sw<3, 3, 3>, cute!((_8,_64):(_64,_1))>;
/// assert_eq!(A::TEXT, "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
/// assert_eq!(A::offset([1, 0]), 64 ^ 8);
/// ```
pub struct SwizzleComposition<W, L>(PhantomData<(W, L)>);

impl<W: SwizzleOperand, L: CuteType> CuteType for SwizzleComposition<W, L> {
    const RESULT: Result<AnyLayout, Verdict> = match (&W::SWIZZLE, plain_operand(&L::RESULT)) {
        (&Err(v), _) | (_, Err(v)) => Err(v),
        (Ok(sw), Ok(l)) => op_result(
            Ok(swizzle_composition(sw, &l)),
            "SwizzleComposition<W, L>",
            &AnyLayout::Plain(l),
            "W",
            sw_text(sw).as_str(),
        ),
    };
}
impl<W: SwizzleOperand, L: AlgebraLayout> ComposedAlgebraLayout for SwizzleComposition<W, L> {}

/// CuTe's `composition(L, Sw)`: `Sw' o _0 o L` with `Sw'` the swizzle of
/// `L(yyy)` and `L(zzz)`, so that `L(Sw(i)) == Sw'(L(i))`. The core
/// checks the result on every index and refuses it when the swizzle does
/// not pass through `L` (CuTe says its rule "works in simple cases").
pub struct CompositionSwizzle<L, W>(PhantomData<(L, W)>);

impl<L: CuteType, W: SwizzleOperand> CuteType for CompositionSwizzle<L, W> {
    const RESULT: Result<AnyLayout, Verdict> = match (plain_operand(&L::RESULT), &W::SWIZZLE) {
        (Err(v), _) | (_, &Err(v)) => Err(v),
        (Ok(l), Ok(sw)) => op_result(
            composition_swizzle(&l, sw),
            "CompositionSwizzle<L, W>",
            &AnyLayout::Plain(l),
            "W",
            sw_text(sw).as_str(),
        ),
    };
}
impl<L: AlgebraLayout, W: SwizzleOperand> ComposedAlgebraLayout for CompositionSwizzle<L, W> {}

/// CuTe's `composition(L, Sw o _0 o B)`: `Sw' o _0 o (L o B)`, checked on
/// every index as [`CompositionSwizzle`] is; `B`'s offset must be `_0`.
///
/// ```
/// use tilelayout::{cute, ComposedAlgebraLayout, CompositionComposed};
/// type A = CompositionComposed<cute!((_8,_8):(_1,_8)), cute!(Sw<2,0,3> o _0 o _32:_1)>;
/// assert_eq!(A::TEXT, "Sw<2,0,3> o _0 o _32:_1");
/// ```
pub struct CompositionComposed<L, B>(PhantomData<(L, B)>);

impl<L: CuteType, B: CuteType> CuteType for CompositionComposed<L, B> {
    const RESULT: Result<AnyLayout, Verdict> = match (plain_operand(&L::RESULT), &B::RESULT) {
        (Err(v), _) | (_, &Err(v)) => Err(v),
        (Ok(l), Ok(b)) => op_result(
            match b {
                AnyLayout::Swizzled(c) => composition_composed(&l, c),
                AnyLayout::Plain(_) => Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
                    what: "a plain right operand here (use Composition<L, B>)",
                })),
            },
            "CompositionComposed<L, B>",
            &AnyLayout::Plain(l),
            "B",
            b.to_text().as_str(),
        ),
    };
}
impl<L: AlgebraLayout, B: ComposedAlgebraLayout> ComposedAlgebraLayout
    for CompositionComposed<L, B>
{
}

/// `Sw<B,M,S>` as CuTe prints it.
const fn sw_text(sw: &Swizzle) -> crate::value::TextBuf<48> {
    let mut t = crate::value::TextBuf::new();
    t.push_str("Sw<");
    t.push_i64(sw.bits() as i64);
    t.push_str(",");
    t.push_i64(sw.base() as i64);
    t.push_str(",");
    t.push_i64(sw.shift() as i64);
    t.push_str(">");
    t
}

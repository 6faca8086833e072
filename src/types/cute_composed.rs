//! CuTe's swizzled layouts as types: [`CuteComposed`] (what
//! [`cute!`](crate::cute!) writes for `Sw<B,M,S> o O o layout`) and the
//! trait [`ComposedAlgebraLayout`], the twin of
//! [`AlgebraLayout`] for swizzled layouts; the
//! swizzle check every swizzle type of the crate uses.

// reason: the results are computed at compile time only, in const fns,
// which cannot box their errors
#![allow(clippy::result_large_err)]

use core::marker::PhantomData;

use super::cute::AlgebraLayout;
use super::cute_index::{check_rank, flat, flat_index, flat_offset, Flat};
use super::cute_result::{composed_or_stop, failed, not_swizzled, size_of_layout, CuteType};
use super::verdict::Verdict;
use crate::algebra::{AnyLayout, ComposedLayout, CuteLayout as Value, Int, Swizzle, MAX_TEXT};
use crate::value::TextBuf;

/// Returns CuTe's `Swizzle<B, M, S>`, or the verdict naming it as the
/// user wrote it (`Sw<3,3,2>: swizzle Sw<B,M,S> needs …`), checked by the
/// core's [`Swizzle::new`]: every swizzle type of the crate
/// ([`CuteComposed`], [`gpu::Swizzle`](crate::gpu::Swizzle)) is checked
/// here.
pub(crate) const fn swizzle_verdict(b: i32, m: i32, s: i32) -> Result<Swizzle, Verdict> {
    match Swizzle::new(b, m, s) {
        Ok(sw) => Ok(sw),
        Err(e) => {
            let mut t = TextBuf::<48>::new();
            t.push_str("Sw<");
            t.push_i64(b as i64);
            t.push_str(",");
            t.push_i64(m as i64);
            t.push_str(",");
            t.push_i64(s as i64);
            t.push_str(">");
            Err(failed(t.as_str(), "", &e))
        }
    }
}

/// A swizzled CuTe layout as a type, CuTe's
/// `ComposedLayout<Swizzle<B,M,S>, Offset, Layout>`: `i ↦ Sw(O + L(i))`.
/// Written by [`cute!`](crate::cute!) from `Sw<B,M,S> o O o layout`.
///
/// ```
/// use tilelayout::{cute, ComposedAlgebraLayout};
/// type A = cute!(Sw<3,4,3> o _0 o (8,64):(64,1));
/// assert_eq!(A::TEXT, "Sw<3,4,3> o _0 o (8,64):(64,1)");
/// // row 2: bit 7 (in the YYY bits) flips bit 4
/// assert_eq!(A::offset([2, 0]), 128 ^ 16);
/// assert_eq!(A::index(2), 128 ^ 16);
/// ```
///
/// # Compile-time errors
///
/// `|S| < B` is not a swizzle (CuTe's `static_assert`): written with
/// `cute!` it is a compile error at the swizzle's tokens; written as a type
/// it is an error when the type is used:
///
/// ```compile_fail,E0080
/// use tilelayout::{ComposedAlgebraLayout, CuteComposed, Cute, Leaf};
/// type A = CuteComposed<3, 3, 2, 0, Cute<Leaf<512, 1>>>;
/// let _ = A::offset([5]);
/// ```
pub struct CuteComposed<const B: i32, const M: i32, const S: i32, const O: i64, L>(PhantomData<L>);

impl<const B: i32, const M: i32, const S: i32, const O: i64, L: CuteType> CuteType
    for CuteComposed<B, M, S, O, L>
{
    const RESULT: Result<AnyLayout, Verdict> = match (swizzle_verdict(B, M, S), &L::RESULT) {
        (Err(v), _) | (_, &Err(v)) => Err(v),
        (Ok(sw), Ok(AnyLayout::Plain(l))) => Ok(AnyLayout::Swizzled(ComposedLayout::new(
            sw,
            Int::fixed(O),
            *l,
        ))),
        (Ok(_), Ok(AnyLayout::Swizzled(c))) => Err(not_swizzled("CuteComposed<B, M, S, O, L>", c)),
    };
}
impl<const B: i32, const M: i32, const S: i32, const O: i64, L: AlgebraLayout> ComposedAlgebraLayout
    for CuteComposed<B, M, S, O, L>
{
}

/// Holder for a composed layout type's text (a plain result prints as
/// the plain layout, as the core prints it).
struct ComposedText<L>(PhantomData<L>);

impl<L: ComposedAlgebraLayout> ComposedText<L> {
    const BUF: TextBuf<MAX_TEXT> = match &L::RESULT {
        Ok(AnyLayout::Plain(l)) => l.to_text(),
        _ => L::LAYOUT.to_text(),
    };
}

/// The twin of [`AlgebraLayout`] for CuTe's swizzled layouts
/// (`Sw<B,M,S> o offset o layout`): constants computed by the core, and
/// index functions that fold to the inner layout's straight-line code plus
/// one application of the core's [`Swizzle::apply`].
///
/// Implemented by [`CuteComposed`] (what [`cute!`](crate::cute!) writes)
/// and the operation types on and into swizzled layouts; the GPU's
/// swizzled shared tiles
/// ([`SwizzledRowMajor`](crate::gpu::SwizzledRowMajor)) fold the same way.
/// An operation whose result happens to be plain (composing with a swizzle
/// of no bits) is `Sw<0,4,3> o _0 o L` here, CuTe's "no swizzle", and its
/// `TEXT` prints `L` as the core does.
pub trait ComposedAlgebraLayout: CuteType {
    /// The layout value.
    const LAYOUT: ComposedLayout = composed_or_stop(&Self::RESULT);
    /// CuTe's `size` (the inner layout's).
    const SIZE: usize = size_of_layout(&Self::LAYOUT.layout);
    /// CuTe's `rank` (the inner layout's).
    const RANK: usize = Self::LAYOUT.rank();
    /// CuTe's text of the layout.
    const TEXT: &'static str = {
        let buf: &'static TextBuf<MAX_TEXT> = &ComposedText::<Self>::BUF;
        buf.as_str()
    };
    /// The flattened modes of the inner layout.
    #[doc(hidden)]
    const FLAT: Flat = match &Self::RESULT {
        Ok(AnyLayout::Plain(l)) => flat(l),
        Ok(AnyLayout::Swizzled(c)) => flat(&c.layout),
        // never read: the index functions check the verdict first
        Err(_) => flat(&Value::EMPTY),
    };
    /// The swizzle and the offset (for the index functions).
    #[doc(hidden)]
    const SWIZZLE_OFFSET: (Swizzle, i64) = match &Self::RESULT {
        Ok(AnyLayout::Swizzled(c)) => (c.swizzle, c.offset.value),
        _ => (Swizzle::NONE, 0),
    };
    /// Evaluating this checks the layout (its swizzle and size): the build
    /// fails here with the verdict's message.
    const VALID: () = {
        let _ = Self::LAYOUT;
    };

    /// CuTe's `layout(i)` for a 1-D coordinate: `Sw(O + L(i))`.
    #[inline(always)]
    fn index(i: usize) -> isize {
        let (f, (sw, o)) = const {
            Self::VERDICT.check();
            (&Self::FLAT, Self::SWIZZLE_OFFSET)
        };
        sw.apply(o.wrapping_add(flat_index(f, i))) as isize
    }

    /// CuTe's `layout(c0, c1, …)`: one integer coordinate per mode.
    #[inline(always)]
    fn offset<const N: usize>(coord: [usize; N]) -> isize {
        let (f, (sw, o)) = const {
            Self::VERDICT.check();
            check_rank(Self::FLAT.rank, N);
            (&Self::FLAT, Self::SWIZZLE_OFFSET)
        };
        sw.apply(o.wrapping_add(flat_offset(f, &coord))) as isize
    }
}

//! CuTe's layouts as types: [`cute!`](crate::cute!) writes
//! `(8,(2,4)):(1,(8,16))` as a type whose every constant (the layout
//! value, size, cosize, text) is computed by the core's `const fn`s, and
//! structural operation types ([`Flatten`], [`Get`], [`Append`],
//! [`FromXla`]) whose constants are the core's operations on their
//! operands' constants. Every constant derives from the type's
//! [`CuteType::RESULT`], computed without panicking; a failed precondition
//! is a compile error naming the mode; use
//! [`assert_cute!`](crate::assert_cute) to see it at `cargo check`.
//!
//! The XLA [`Layout`](crate::Layout) trait does not fit these types (it
//! needs an element type, an XLA shape and a tiling); [`AlgebraLayout`]
//! is its twin with the same shape: constants, an `offset` over one
//! coordinate per mode, and `idx2crd`.
//!
//! ```
//! use tilelayout::{cute, AlgebraLayout};
//! type A = cute!((8,(2,4)):(1,(8,16)));
//! assert_eq!(A::TEXT, "(8,(2,4)):(1,(8,16))");
//! assert_eq!((A::SIZE, A::COSIZE, A::RANK, A::DEPTH), (64, 64, 2, 2));
//! // coordinate (3, 5): 5 splits colexicographically into (1, 2)
//! assert_eq!(A::offset([3, 5]), 3 + 8 + 32);
//! assert_eq!(A::index(3 + 8 * 5), 3 + 8 + 32);
//! assert_eq!(A::idx2crd(43), [3, 5]);
//! ```

// reason: the results are computed at compile time only, in const fns,
// which cannot box their errors
#![allow(clippy::result_large_err)]

use core::marker::PhantomData;

use super::cute_index::{check_rank, flat, flat_index, flat_offset, Flat};
use super::cute_result::{
    cosize_of_layout, failed, finish, not_swizzled, plain, plain_or_stop, size_of_layout, CuteType,
};
use super::verdict::Verdict;
use crate::algebra::{AlgebraError, AnyLayout, CuteLayout as Value, Int, IntTuple, MAX_TEXT};
use crate::value::{lower, LowerError, Lowered, TextBuf};

/// One integer mode `shape:stride` of a layout type, with CuTe's binding
/// times (static `_8` by default; `false` prints it dynamic, `8`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Leaf<
    const SHAPE: i64,
    const STRIDE: i64,
    const STATIC_SHAPE: bool = true,
    const STATIC_STRIDE: bool = true,
>;

/// A mode of a layout type: a [`Leaf`], or a tuple of modes (up to 8;
/// `()` is the empty tuple).
pub trait Modes: 'static {
    /// The shape, or the capacity error of building it.
    const SHAPE: Result<IntTuple, AlgebraError>;
    /// The stride (congruent to the shape), or the capacity error.
    const STRIDE: Result<IntTuple, AlgebraError>;
}

const fn int(v: i64, is_static: bool) -> Int {
    if is_static {
        Int::fixed(v)
    } else {
        Int::dynamic(v)
    }
}

impl<const S: i64, const D: i64, const SS: bool, const DS: bool> Modes for Leaf<S, D, SS, DS> {
    const SHAPE: Result<IntTuple, AlgebraError> = Ok(IntTuple::int(int(S, SS)));
    const STRIDE: Result<IntTuple, AlgebraError> = Ok(IntTuple::int(int(D, DS)));
}

impl Modes for () {
    const SHAPE: Result<IntTuple, AlgebraError> = Ok(IntTuple::EMPTY);
    const STRIDE: Result<IntTuple, AlgebraError> = Ok(IntTuple::EMPTY);
}

/// The tuple of `parts`, or the first error among them or of the tuple.
pub(crate) const fn tuple_of<const N: usize>(
    parts: [Result<IntTuple, AlgebraError>; N],
) -> Result<IntTuple, AlgebraError> {
    let mut ok = [IntTuple::EMPTY; N];
    let mut i = 0;
    while i < N {
        ok[i] = match parts[i] {
            Ok(t) => t,
            Err(e) => return Err(e),
        };
        i += 1;
    }
    IntTuple::tuple(&ok)
}

macro_rules! tuple_modes {
    ($($m:ident)+) => {
        impl<$($m: Modes),+> Modes for ($($m,)+) {
            const SHAPE: Result<IntTuple, AlgebraError> = tuple_of([$($m::SHAPE),+]);
            const STRIDE: Result<IntTuple, AlgebraError> = tuple_of([$($m::STRIDE),+]);
        }
    };
}
tuple_modes!(A);
tuple_modes!(A B);
tuple_modes!(A B C);
tuple_modes!(A B C D);
tuple_modes!(A B C D E);
tuple_modes!(A B C D E F);
tuple_modes!(A B C D E F G);
tuple_modes!(A B C D E F G H);

/// A CuTe layout as a type: `Cute<(Leaf<8, 1>, (Leaf<2, 8>, Leaf<4, 16>))>`
/// is `(_8,(_2,_4)):(_1,(_8,_16))`. Written by [`cute!`](crate::cute!).
pub struct Cute<M>(PhantomData<M>);

impl<M: Modes> CuteType for Cute<M> {
    const RESULT: Result<AnyLayout, Verdict> = {
        let r = match (M::SHAPE, M::STRIDE) {
            (Ok(shape), Ok(stride)) => Value::new(shape, stride),
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        match r {
            Ok(l) => finish(Ok(AnyLayout::Plain(l)), "Cute<…>", ""),
            Err(e) => Err(failed("Cute<…>", "", &e)),
        }
    };
}
impl<M: Modes> AlgebraLayout for Cute<M> {}

/// CuTe's `flatten(A)`.
pub struct Flatten<A>(PhantomData<A>);

impl<A: CuteType> CuteType for Flatten<A> {
    const RESULT: Result<AnyLayout, Verdict> = match A::RESULT {
        Ok(AnyLayout::Plain(a)) => Ok(AnyLayout::Plain(a.flatten())),
        Ok(AnyLayout::Swizzled(a)) => Err(not_swizzled("Flatten<A>", &a)),
        Err(v) => Err(v),
    };
}
impl<A: AlgebraLayout> AlgebraLayout for Flatten<A> {}

/// CuTe's `layout<I>(A)`: mode `I` of `A`.
pub struct Get<A, const I: usize>(PhantomData<A>);

impl<A: CuteType, const I: usize> CuteType for Get<A, I> {
    const RESULT: Result<AnyLayout, Verdict> = match A::RESULT {
        Ok(AnyLayout::Plain(a)) => match a.mode(I) {
            Ok(l) => Ok(AnyLayout::Plain(l)),
            Err(_) => {
                let mut t = TextBuf::<160>::new();
                t.push_str("Get<_, ");
                t.push_u64(I as u64);
                t.push_str(">: mode ");
                t.push_u64(I as u64);
                t.push_str(" of a layout of rank ");
                t.push_u64(a.rank() as u64);
                t.push_str("; use a mode below ");
                t.push_u64(a.rank() as u64);
                Err(Verdict::fail(&[
                    t.as_str(),
                    " (A = ",
                    a.to_text().as_str(),
                    ")",
                ]))
            }
        },
        Ok(AnyLayout::Swizzled(a)) => Err(not_swizzled("Get<A, I>", &a)),
        Err(v) => Err(v),
    };
}
impl<A: AlgebraLayout, const I: usize> AlgebraLayout for Get<A, I> {}

/// CuTe's `append(A, B)`: `B` as the last mode of `A`.
pub struct Append<A, B>(PhantomData<(A, B)>);

impl<A: CuteType, B: CuteType> CuteType for Append<A, B> {
    const RESULT: Result<AnyLayout, Verdict> = match (&A::RESULT, &B::RESULT) {
        (Err(v), _) | (_, Err(v)) => Err(*v),
        (Ok(AnyLayout::Plain(a)), Ok(AnyLayout::Plain(b))) => {
            finish(plain(a.append(b)), "Append<A, B>", a.to_text().as_str())
        }
        (Ok(AnyLayout::Swizzled(c)), _) | (_, Ok(AnyLayout::Swizzled(c))) => {
            Err(not_swizzled("Append<A, B>", c))
        }
    };
}
impl<A: AlgebraLayout, B: AlgebraLayout> AlgebraLayout for Append<A, B> {}

/// An XLA layout type's tiling as a CuTe layout (one mode per dim, over
/// the padded tile grid; see [`crate::value::lower`]). A tiling that is not
/// affine is a compile error saying which tile.
///
/// ```
/// use tilelayout::{layout, AlgebraLayout, FromXla, Layout};
/// type X = layout!(f32[3,5]{1,0:T(2,2)});
/// type C = FromXla<X>;
/// assert_eq!(C::TEXT, "((_2,_2),(_2,_3)):((_2,_12),(_1,_4))");
/// assert_eq!(C::offset([2, 3]), X::offset([2, 3]) as isize);
/// ```
pub struct FromXla<L>(PhantomData<L>);

/// `L::SHAPE`, read only once `L`'s verdict is known to be good (a
/// constant named in a const item is evaluated even on a path not taken;
/// one named in a function, only when the function is called).
const fn xla_shape<L: crate::Layout>() -> crate::value::Shape {
    L::SHAPE
}

/// "FromXla<TEXT>: MESSAGE" for a valid `L` (its text, read as
/// [`xla_shape`] is).
const fn xla_failed<L: crate::Layout>(message: &str, then: &str) -> Verdict {
    Verdict::fail(&["FromXla<", L::TEXT, ">: ", message, then])
}

impl<L: crate::Layout> CuteType for FromXla<L> {
    const RESULT: Result<AnyLayout, Verdict> = if !L::VERDICT.is_ok() {
        Err(L::VERDICT)
    } else {
        match lower(&xla_shape::<L>()) {
            Ok(Lowered::Affine(a)) => finish(Ok(AnyLayout::Plain(*a.layout())), "FromXla<…>", ""),
            Ok(Lowered::NotAffine(n)) => Err(xla_failed::<L>(
                n.describe().as_str(),
                "; use the layout type's own offset instead",
            )),
            Err(LowerError::Shape(e)) => Err(xla_failed::<L>(e.describe().as_str(), "")),
            Err(LowerError::Algebra(e)) => Err(xla_failed::<L>(e.describe().as_str(), "")),
        }
    };
}
impl<L: crate::Layout> AlgebraLayout for FromXla<L> {}

/// Holder for a layout type's text, so that a `&'static` to it can be
/// formed.
struct Text<L>(PhantomData<L>);

impl<L: AlgebraLayout> Text<L> {
    const BUF: TextBuf<MAX_TEXT> = L::LAYOUT.to_text();
}

/// A CuTe layout as a type: every property a compile-time constant
/// computed by the core, and index functions that fold to constants for
/// constant arguments.
///
/// Implemented by [`Cute`] (what [`cute!`](crate::cute!) writes) and the
/// operation types whose result is a plain layout. Every constant reads
/// [`CuteType::RESULT`]: for a type whose check failed, each fails the
/// build with the verdict's message where it is used (use
/// [`assert_cute!`](crate::assert_cute) to see it at `cargo check`, at
/// your line).
pub trait AlgebraLayout: CuteType {
    /// The layout value.
    const LAYOUT: Value = plain_or_stop(&Self::RESULT);
    /// CuTe's `size`.
    const SIZE: usize = size_of_layout(&Self::LAYOUT);
    /// CuTe's `cosize`.
    const COSIZE: usize = cosize_of_layout(&Self::LAYOUT);
    /// CuTe's `rank`.
    const RANK: usize = Self::LAYOUT.rank();
    /// CuTe's `depth`.
    const DEPTH: usize = Self::LAYOUT.depth();
    /// CuTe's text of the layout.
    const TEXT: &'static str = {
        let buf: &'static TextBuf<MAX_TEXT> = &Text::<Self>::BUF;
        buf.as_str()
    };
    /// The flattened modes (for the index functions).
    #[doc(hidden)]
    const FLAT: Flat = match &Self::RESULT {
        Ok(AnyLayout::Plain(l)) => flat(l),
        // never read: the index functions check the verdict first
        _ => flat(&Value::EMPTY),
    };
    /// Evaluating this checks the layout: the build fails here with the
    /// verdict's message (see [`assert_cute!`](crate::assert_cute) for the
    /// same at `cargo check`).
    const VALID: () = {
        let _ = Self::LAYOUT;
    };

    /// CuTe's `layout(i)`: the offset of the 1-D coordinate `i`
    /// (colexicographic, the first mode fastest).
    #[inline(always)]
    fn index(i: usize) -> isize {
        let f = const {
            Self::VERDICT.check();
            &Self::FLAT
        };
        flat_index(f, i) as isize
    }

    /// CuTe's `layout(c0, c1, …)`: one integer coordinate per mode, each
    /// split colexicographically within its mode.
    #[inline(always)]
    fn offset<const N: usize>(coord: [usize; N]) -> isize {
        // one constant checks everything: an invalid type or a wrong rank
        // is one error here, with a note at the caller
        let f = const {
            Self::VERDICT.check();
            check_rank(Self::FLAT.rank, N);
            &Self::FLAT
        };
        flat_offset(f, &coord) as isize
    }

    /// CuTe's `idx2crd(i, shape)` at the top level: one coordinate per
    /// mode (the last takes the quotient unbounded).
    #[inline(always)]
    fn idx2crd<const N: usize>(i: usize) -> [usize; N] {
        let f = const {
            Self::VERDICT.check();
            check_rank(Self::FLAT.rank, N);
            &Self::FLAT
        };
        let mut out = [0usize; N];
        let mut m = 0;
        while m < N {
            let (a, b) = (f.mode_start[m], f.mode_start[m + 1]);
            let below = f.below[a] as usize;
            let mut size = 1usize;
            let mut k = a;
            while k < b {
                size *= f.shape[k] as usize;
                k += 1;
            }
            out[m] = if m + 1 == N {
                i / below
            } else {
                (i / below) % size
            };
            m += 1;
        }
        out
    }
}

//! CuTe's layouts as types: [`cute!`](crate::cute!) writes
//! `(8,(2,4)):(1,(8,16))` as a type whose every constant (the layout
//! value, size, cosize, text) is computed by the core's `const fn`s, and
//! operation types ([`Flatten`], [`Get`], [`Append`], [`FromXla`]) whose
//! constants are the core's operations on their operands' constants. A
//! failed precondition is a compile error naming the mode; use
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

use super::verdict::Verdict;
use crate::algebra::{
    AlgebraError, AnyLayout, ComposedLayout, CuteLayout as Value, Int, IntTuple, Swizzle,
    MAX_NODES, MAX_TEXT,
};
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

// ---------------------------------------------------------------------------
// Results and verdicts
// ---------------------------------------------------------------------------

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
const fn plain_or_stop(r: &Result<AnyLayout, Verdict>) -> Value {
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
const fn composed_or_stop(r: &Result<AnyLayout, Verdict>) -> ComposedLayout {
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
const fn size_of_layout(l: &Value) -> usize {
    match l.size() {
        Ok(n) => n.value as usize,
        Err(_) => 0,
    }
}

/// `cosize(l)` of a layout [`finish`] accepted (so it does not fail).
const fn cosize_of_layout(l: &Value) -> usize {
    match l.cosize() {
        Ok(n) => n.value as usize,
        Err(_) => 0,
    }
}

/// What every CuTe layout type is: its layout, plain (an
/// [`AlgebraLayout`]) or swizzled (a [`ComposedAlgebraLayout`]), computed
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

/// The flattened integer modes and the colexicographic divisor of each:
/// what [`AlgebraLayout::index`] computes with.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)] // reason: an implementation constant of the trait
pub struct Flat {
    n: usize,
    shape: [i64; MAX_NODES],
    stride: [i64; MAX_NODES],
    below: [i64; MAX_NODES],
    /// First flattened mode of each top-level mode, and one past the last.
    mode_start: [usize; MAX_NODES + 1],
    rank: usize,
}

/// Returns the flattened modes of `l` (what the index functions fold).
pub(crate) const fn flat(l: &Value) -> Flat {
    let mut f = Flat {
        n: l.shape().leaf_count(),
        shape: [1; MAX_NODES],
        stride: [0; MAX_NODES],
        below: [1; MAX_NODES],
        mode_start: [0; MAX_NODES + 1],
        rank: l.rank(),
    };
    let mut below = 1i64;
    let mut k = 0;
    while k < f.n {
        let s = match l.shape().leaf(k) {
            Some(s) => s.value,
            None => 1,
        };
        f.shape[k] = s;
        f.stride[k] = match l.stride().leaf(k) {
            Some(d) => d.value,
            None => 0,
        };
        f.below[k] = below;
        // the product of the shapes is the size, which `finish` checked
        below = below.saturating_mul(s);
        k += 1;
    }
    let mut m = 0;
    while m < f.rank {
        f.mode_start[m] = l.shape().mode_leaf_start(m);
        m += 1;
    }
    f.mode_start[f.rank] = f.n;
    f
}

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

/// The offset of the 1-D coordinate `i` under the flattened modes `f`
/// (CuTe's `layout(i)`): one division and remainder by a constant per
/// integer mode, which fold to straight-line code when `f` is a constant.
#[inline(always)]
pub(crate) const fn flat_index(f: &Flat, i: usize) -> i64 {
    // unsigned: coordinates and shapes are not negative, and unsigned
    // division by a constant needs no rounding fix-up
    let i = i as u64;
    let mut acc = 0i64;
    let mut k = 0;
    while k < f.n {
        let c = if k + 1 == f.n {
            i / f.below[k] as u64
        } else {
            (i / f.below[k] as u64) % f.shape[k] as u64
        };
        acc = acc.wrapping_add((c as i64).wrapping_mul(f.stride[k]));
        k += 1;
    }
    acc
}

/// The offset of `coord`, one integer per top-level mode, each split
/// colexicographically within its mode (CuTe's `layout(c0, c1, …)`); the
/// same folding as [`flat_index`]. `coord` has at most the layout's rank
/// modes (checked by the callers).
#[inline(always)]
pub(crate) const fn flat_offset(f: &Flat, coord: &[usize]) -> i64 {
    let mut acc = 0i64;
    let mut m = 0;
    while m < coord.len() {
        let x = coord[m] as u64;
        let (a, b) = (f.mode_start[m], f.mode_start[m + 1]);
        let mut k = a;
        while k < b {
            let below = (f.below[k] / f.below[a]) as u64;
            let c = if k + 1 == b {
                x / below
            } else {
                (x / below) % f.shape[k] as u64
            };
            acc = acc.wrapping_add((c as i64).wrapping_mul(f.stride[k]));
            k += 1;
        }
        m += 1;
    }
    acc
}

#[track_caller] // reason: the error points at the `const` block, not at this helper
pub(crate) const fn check_rank(rank: usize, n: usize) {
    if rank != n {
        let mut t = TextBuf::<96>::new();
        t.push_str("coordinate has ");
        t.push_u64(n as u64);
        t.push_str(" modes but the layout has rank ");
        t.push_u64(rank as u64);
        panic!("{}", t.as_str());
    }
}

// ---------------------------------------------------------------------------
// Swizzled (composed) layouts
// ---------------------------------------------------------------------------

/// Returns CuTe's `Swizzle<B, M, S>`, or the verdict naming it as the
/// user wrote it (`Sw<3,3,2>: swizzle Sw<B,M,S> needs …`), checked by the
/// core's [`Swizzle::new`].
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

/// Returns CuTe's `Swizzle<B, M, S>`, or stops the build with the
/// message of [`swizzle_verdict`].
///
/// Every swizzle type of the crate ([`CuteComposed`],
/// [`gpu::Swizzle`](crate::gpu::Swizzle)) is checked by the core's
/// [`Swizzle::new`].
#[track_caller] // reason: the error points at the constant, not at this helper
pub(crate) const fn swizzle_or_stop(b: i32, m: i32, s: i32) -> Swizzle {
    match swizzle_verdict(b, m, s) {
        Ok(sw) => sw,
        Err(v) => {
            v.check();
            Swizzle::NONE
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

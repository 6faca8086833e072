//! CuTe's layout algebra as types: `LogicalDivide<A, Tiler>`,
//! `Composition<A, B>`, `BlockedProduct<A, B>`, `RightInverse<A>`, … are
//! [`AlgebraLayout`]s whose `LAYOUT` is the core's `const fn` of the same
//! name applied to the operands' constants (no second implementation), so
//! every constant and index function of the result folds at compile time.
//!
//! One mechanism serves every operation: an operand is a layout type (any
//! [`AlgebraLayout`]), a tiler ([`TilerOperand`]: a layout, a static
//! integer [`C`], or a by-mode [`ByMode`] tuple of them), a shape
//! ([`ShapeOperand`]: [`C`] or a tuple of shapes) or a `const` integer; the
//! result is the core's `Result`, carried without panicking through every
//! operation type as [`CuteType::RESULT`]: a failed precondition becomes a
//! [`Verdict`] that names the operation type, the mode and what to change
//! (the core's message) and prints the operands, and
//! [`assert_cute!`](crate::assert_cute) reports it as one error at its own
//! line, at `cargo check`. [`MaxCommonVector`], whose result is an
//! integer, is read through its `VALUE`.
//!
//! An operation that CuTe also defines on swizzled layouts (`Sw<B,M,S> o
//! offset o L`: coalesce, composition with a tiler, the divides and
//! products, `tile_to_shape`, the casts, the inverses) is a
//! [`ComposedAlgebraLayout`] when its left operand is one (the core's
//! [`ComposedLayout`](crate::algebra::ComposedLayout) methods); the
//! complement of a swizzled layout is its inner layout's, a plain layout.
//!
//! ```
//! use tilelayout::{cute, AlgebraLayout, ByMode, LogicalDivide, C};
//! type A = cute!((_4,_2,_3):(_2,_1,_8));
//! type D = LogicalDivide<A, cute!(_4:_2)>;
//! assert_eq!(D::TEXT, "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
//! // a by-mode tiler: mode 0 by 2 elements, mode 1 by 2
//! type M = LogicalDivide<cute!((_4,_6):(_1,_4)), ByMode<(C<2>, C<2>)>>;
//! assert_eq!(M::TEXT, "((_2,_2),(_2,_3)):((_1,_2),(_4,_8))");
//! assert_eq!(M::offset([3, 5]), 1 + 2 + 4 + 16);
//! ```

// reason: the results are computed at compile time only, in const fns,
// which cannot box their errors
#![allow(clippy::result_large_err)]

use core::marker::PhantomData;

use super::cute::AlgebraLayout;
use super::cute_composed::ComposedAlgebraLayout;
use super::cute_result::{finish, plain, plain_operand, swizzled, CuteType};
use super::verdict::Verdict;
use crate::algebra::{
    self, AlgebraError, AlgebraErrorKind, AnyLayout, CuteLayout as Value, Int, IntTuple,
    SwizzledInverse, Tiler, MAX_TEXT,
};
use crate::value::TextBuf;

/// CuTe's static integer `_N` (`C<N>` in CuTe) as an operand: a tiler
/// `N:_1`, one mode of a [`ByMode`] tiler, or a shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct C<const N: i64>;

/// `C<N>` as text.
const fn c_name(n: i64) -> TextBuf<32> {
    let mut t = TextBuf::new();
    t.push_str("C<");
    t.push_i64(n);
    t.push_str(">");
    t
}

/// CuTe's by-mode tiler `make_tile(T0, T1, …)`: mode `i` of the left
/// layout is tiled by `Ti`, a layout type or a [`C`] (up to 8 modes).
pub struct ByMode<T>(PhantomData<T>);

/// The right operand of composition, the divides and the products: a
/// layout type, a [`C`] or a [`ByMode`] tiler.
pub trait TilerOperand: 'static {
    /// The tiler, or the verdict on building it.
    const TILER: Result<Tiler, Verdict>;
}

impl<L: AlgebraLayout> TilerOperand for L {
    const TILER: Result<Tiler, Verdict> = match plain_operand(&L::RESULT) {
        Ok(l) => Ok(Tiler::layout(l)),
        Err(v) => Err(v),
    };
}

impl<const N: i64> TilerOperand for C<N> {
    const TILER: Result<Tiler, Verdict> = match Tiler::int(Int::fixed(N)) {
        Ok(t) => Ok(t),
        Err(e) => Err(operand_failed(c_name(N).as_str(), " as a tiler", &e)),
    };
}

impl<T: TilerModes> TilerOperand for ByMode<T> {
    const TILER: Result<Tiler, Verdict> = T::TILER;
}

/// One mode of a [`ByMode`] tiler: a layout type or a [`C`].
pub trait TilerMode: 'static {
    /// The mode as a layout (`N:_1` for `C<N>`), or the verdict on it.
    const MODE: Result<Value, Verdict>;
    /// Whether the mode is an integer (CuTe composes by `N:_1` then too,
    /// but prints and divides it as the integer).
    const IS_INT: bool;
}

impl<L: AlgebraLayout> TilerMode for L {
    const MODE: Result<Value, Verdict> = plain_operand(&L::RESULT);
    const IS_INT: bool = false;
}

impl<const N: i64> TilerMode for C<N> {
    const MODE: Result<Value, Verdict> = match Value::column_major(IntTuple::int(Int::fixed(N))) {
        Ok(l) => Ok(l),
        Err(e) => Err(operand_failed(c_name(N).as_str(), " as a tiler mode", &e)),
    };
    const IS_INT: bool = true;
}

/// The tuple of modes of a [`ByMode`] tiler.
pub trait TilerModes: 'static {
    /// The by-mode tiler of these modes, or the verdict on building it.
    const TILER: Result<Tiler, Verdict>;
}

/// `tiler` with one more mode.
const fn push_mode(
    tiler: Result<Tiler, Verdict>,
    mode: &Result<Value, Verdict>,
    is_int: bool,
) -> Result<Tiler, Verdict> {
    let (t, mode) = match (tiler, mode) {
        (Ok(t), Ok(m)) => (t, m),
        (Err(v), _) | (_, &Err(v)) => return Err(v),
    };
    let r = match (is_int, mode.shape().as_int()) {
        (true, Some(n)) => t.push_int(n),
        _ => t.push(mode),
    };
    match r {
        Ok(t) => Ok(t),
        Err(e) => Err(operand_failed("ByMode<…>", "", &e)),
    }
}

/// A shape operand (`tile_to_shape`'s target and order, `complement`'s
/// cotarget, `coalesce`'s profile): a [`C`] or a tuple of shape operands.
pub trait ShapeOperand: 'static {
    /// The shape, or the verdict on building it.
    const SHAPE: Result<IntTuple, Verdict>;
}

impl<const N: i64> ShapeOperand for C<N> {
    const SHAPE: Result<IntTuple, Verdict> = Ok(IntTuple::int(Int::fixed(N)));
}

/// The tuple of `parts`, or the first verdict among them or on the tuple.
const fn shape_tuple<const N: usize>(
    parts: [Result<IntTuple, Verdict>; N],
) -> Result<IntTuple, Verdict> {
    let mut ok = [IntTuple::EMPTY; N];
    let mut i = 0;
    while i < N {
        ok[i] = match parts[i] {
            Ok(t) => t,
            Err(v) => return Err(v),
        };
        i += 1;
    }
    match IntTuple::tuple(&ok) {
        Ok(t) => Ok(t),
        Err(e) => Err(operand_failed("a shape operand", "", &e)),
    }
}

macro_rules! tuple_operands {
    ($($m:ident)+) => {
        impl<$($m: TilerMode),+> TilerModes for ($($m,)+) {
            const TILER: Result<Tiler, Verdict> = {
                let t = Ok(Tiler::EMPTY);
                $(let t = push_mode(t, &$m::MODE, $m::IS_INT);)+
                t
            };
        }
        impl<$($m: ShapeOperand),+> ShapeOperand for ($($m,)+) {
            const SHAPE: Result<IntTuple, Verdict> = shape_tuple([$($m::SHAPE),+]);
        }
    };
}
tuple_operands!(A);
tuple_operands!(A B);
tuple_operands!(A B C2);
tuple_operands!(A B C2 D);
tuple_operands!(A B C2 D E);
tuple_operands!(A B C2 D E F);
tuple_operands!(A B C2 D E F G);
tuple_operands!(A B C2 D E F G H);

/// The verdict on building an operand: "WHAT AS: MESSAGE".
const fn operand_failed(what: &str, role: &str, e: &AlgebraError) -> Verdict {
    Verdict::fail(&[what, role, ": ", e.describe().as_str()])
}

/// An operation's result: the core's, checked by [`finish`]; an error
/// becomes the verdict naming the operation, the core's message (the mode
/// and what to change) and the operands as CuTe prints them.
pub(crate) const fn op_result(
    r: Result<AnyLayout, AlgebraError>,
    op: &str,
    a: &AnyLayout,
    b_name: &str,
    b: &str,
) -> Result<AnyLayout, Verdict> {
    let mut operands = TextBuf::<{ 2 * MAX_TEXT + 16 }>::new();
    operands.push_str("A = ");
    operands.push_str(a.to_text().as_str());
    if !b.is_empty() {
        operands.push_str(", ");
        operands.push_str(b_name);
        operands.push_str(" = ");
        operands.push_str(b);
    }
    match r {
        Ok(l) => finish(Ok(l), op, operands.as_str()),
        Err(e) => {
            // the hint, unless the kind's own message says what to change
            let own = AlgebraError::new(e.kind).message();
            let hint = if contains(own.as_str().as_bytes(), b"; ") {
                ""
            } else {
                hint(&e.kind)
            };
            Err(Verdict::fail(&[
                op,
                ": ",
                e.describe().as_str(),
                hint,
                " (",
                operands.as_str(),
                ")",
            ]))
        }
    }
}

/// What to change, for the core's messages that do not say it.
const fn hint(kind: &AlgebraErrorKind) -> &'static str {
    match kind {
        AlgebraErrorKind::StrideDivisibility { .. } | AlgebraErrorKind::StrideWraps { .. } => {
            "; make B's stride a divisor of that mode's shape or a multiple of it"
        }
        AlgebraErrorKind::CastDivisibility { .. } => {
            "; use a factor that divides the stride or a multiple of it"
        }
        AlgebraErrorKind::NonInjective { .. } => {
            "; give that mode a stride that does not overlap the others"
        }
        AlgebraErrorKind::TargetDivisibility { .. } => {
            "; make the target's mode a multiple of the block's"
        }
        _ => "",
    }
}

/// Whether `hay` contains `needle`.
const fn contains(hay: &[u8], needle: &[u8]) -> bool {
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        let mut j = 0;
        while j < needle.len() && hay[i + j] == needle[j] {
            j += 1;
        }
        if j == needle.len() {
            return true;
        }
        i += 1;
    }
    false
}

/// The error of an operation the algebra defines on plain layouts only.
const PLAIN_ONLY: AlgebraError = AlgebraError::new(AlgebraErrorKind::Unsupported {
    what: "this operation on a swizzled layout (apply it to the inner layout)",
});

/// A swizzled layout's inverse as an [`AnyLayout`]: `Sw' o _0 o L'`, or
/// an error for `L' o -offset o Sw` (a swizzle of the input), which has
/// no layout type.
const fn swizzled_inverse(
    r: Result<SwizzledInverse, AlgebraError>,
) -> Result<AnyLayout, AlgebraError> {
    match r {
        Ok(SwizzledInverse::Composed(c)) => Ok(AnyLayout::Swizzled(c)),
        Ok(SwizzledInverse::Input(_)) => Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
            what: "an inverse that swizzles its input (L' o -offset o Sw; give the swizzled \
                   layout a zero offset so that the inverse is Sw' o _0 o L')",
        })),
        Err(e) => Err(e),
    }
}

/// [`algebra::filter_zeros`], which cannot fail, as the other operations.
const fn filter_zeros(l: &Value) -> Result<Value, AlgebraError> {
    Ok(algebra::filter_zeros(l))
}

/// The kind impls of an operation type: `both` (a plain result for a plain
/// operand, a swizzled one for a swizzled operand), `plain` (plain
/// operands only) or `any` (a plain result for either).
macro_rules! kinds {
    (both, $name:ident<A $(, $p:ident: $b:path)*>) => {
        impl<A: AlgebraLayout $(, $p: $b)*> AlgebraLayout for $name<A $(, $p)*> {}
        impl<A: ComposedAlgebraLayout $(, $p: $b)*> ComposedAlgebraLayout for $name<A $(, $p)*> {}
    };
    (plain, $name:ident<A $(, $p:ident: $b:path)*>) => {
        impl<A: AlgebraLayout $(, $p: $b)*> AlgebraLayout for $name<A $(, $p)*> {}
    };
    (any, $name:ident<A $(, $p:ident: $b:path)*>) => {
        impl<A: CuteType $(, $p: $b)*> AlgebraLayout for $name<A $(, $p)*> {}
    };
}

/// Operation types of one layout: `Name<A>` is `f(&A)` for a plain `A`,
/// `$swizzled` (with `$c` the composed layout) for a swizzled one.
macro_rules! unary {
    ($($(#[$doc:meta])* $kind:ident $name:ident = $f:path, |$c:ident| $swizzled:expr;)+) => {$(
        $(#[$doc])*
        pub struct $name<A>(PhantomData<A>);

        impl<A: CuteType> CuteType for $name<A> {
            const RESULT: Result<AnyLayout, Verdict> = match &A::RESULT {
                Err(v) => Err(*v),
                Ok(x) => op_result(
                    match x {
                        AnyLayout::Plain(a) => plain($f(a)),
                        AnyLayout::Swizzled($c) => $swizzled,
                    },
                    concat!(stringify!($name), "<A>"),
                    x,
                    "",
                    "",
                ),
            };
        }
        kinds!($kind, $name<A>);
    )+};
}

/// Operation types of a layout and an operand: `Name<A, B>` is
/// `f(&A, &B::CONST)` for a plain `A`, `B` bounded by `$bound`;
/// `$swizzled` (with `$c` the composed layout, `$b` the operand) for a
/// swizzled one.
macro_rules! binary {
    ($($(#[$doc:meta])* $kind:ident $name:ident<$bound:ident::$cst:ident> = $f:path,
        |$c:ident, $b:ident| $swizzled:expr;)+) => {$(
        $(#[$doc])*
        pub struct $name<A, B>(PhantomData<(A, B)>);

        impl<A: CuteType, B: $bound> CuteType for $name<A, B> {
            const RESULT: Result<AnyLayout, Verdict> = match (&A::RESULT, &B::$cst) {
                (Err(v), _) | (_, Err(v)) => Err(*v),
                (Ok(x), Ok($b)) => op_result(
                    match x {
                        AnyLayout::Plain(a) => plain($f(a, $b)),
                        AnyLayout::Swizzled($c) => $swizzled,
                    },
                    concat!(stringify!($name), "<A, B>"),
                    x,
                    "B",
                    $b.to_text().as_str(),
                ),
            };
        }
        kinds!($kind, $name<A, B: $bound>);
    )+};
}

/// A layout operand of [`BlockedProduct`], [`RakedProduct`] and
/// [`MaxCommonLayout`]: a plain layout type.
pub trait PlainOperand: 'static {
    /// The layout, or the verdict on it.
    const PLAIN: Result<Value, Verdict>;
}

impl<L: AlgebraLayout> PlainOperand for L {
    const PLAIN: Result<Value, Verdict> = plain_operand(&L::RESULT);
}

unary! {
    /// CuTe's `coalesce(A)`: the fewest modes with the same function.
    both Coalesce = algebra::coalesce, |c| swizzled(c.coalesce());
    /// CuTe's `filter(A)`: stride-0 and size-1 modes removed, coalesced.
    plain Filter = algebra::filter, |_c| Err(PLAIN_ONLY);
    /// CuTe's `filter_zeros(A)`: every mode of a static `_0` stride gets
    /// shape `_1`.
    plain FilterZeros = filter_zeros, |_c| Err(PLAIN_ONLY);
    /// CuTe's `complement(A)`: the layout of the offsets `A` misses up to
    /// its cosize (of a swizzled layout: its inner layout's complement).
    any Complement = algebra::complement_self, |c| plain(c.complement());
    /// CuTe's `right_inverse(A)`: `A(R(i)) == i` on the largest prefix.
    both RightInverse = algebra::right_inverse, |c| swizzled_inverse(c.right_inverse());
    /// CuTe's `left_inverse(A)`: `R(A(i)) == i` (`A` injective).
    both LeftInverse = algebra::left_inverse, |c| swizzled_inverse(c.left_inverse());
}

binary! {
    /// CuTe's `composition(A, B)`: `A(B(i))`; `B` a layout, a [`C`] or a
    /// [`ByMode`] tiler.
    both Composition<TilerOperand::TILER> = algebra::composition_tiler,
        |c, b| swizzled(c.composition(b));
    /// CuTe's `logical_divide(A, Tiler)`: `((tile),(rest))` per tiled mode.
    both LogicalDivide<TilerOperand::TILER> = algebra::logical_divide,
        |c, b| swizzled(c.logical_divide(b));
    /// CuTe's `zipped_divide(A, Tiler)`: `((tiles),(rests))`.
    both ZippedDivide<TilerOperand::TILER> = algebra::zipped_divide,
        |c, b| swizzled(c.zipped_divide(b));
    /// CuTe's `tiled_divide(A, Tiler)`: `((tiles),rest0,rest1,…)`.
    both TiledDivide<TilerOperand::TILER> = algebra::tiled_divide,
        |c, b| swizzled(c.tiled_divide(b));
    /// CuTe's `flat_divide(A, Tiler)`: `(tile0,tile1,…,rest0,rest1,…)`.
    both FlatDivide<TilerOperand::TILER> = algebra::flat_divide,
        |c, b| swizzled(c.flat_divide(b));
    /// CuTe's `logical_product(A, Tiler)`: `(A, complement(A) o B)`.
    both LogicalProduct<TilerOperand::TILER> = algebra::logical_product,
        |c, b| swizzled(c.logical_product(b));
    /// CuTe's `zipped_product(A, Tiler)`.
    both ZippedProduct<TilerOperand::TILER> = algebra::zipped_product,
        |c, b| swizzled(c.zipped_product(b));
    /// CuTe's `tiled_product(A, Tiler)`.
    both TiledProduct<TilerOperand::TILER> = algebra::tiled_product,
        |c, b| swizzled(c.tiled_product(b));
    /// CuTe's `blocked_product(A, B)`: `B` copies of the block `A`, mode by
    /// mode, block-major.
    both BlockedProduct<PlainOperand::PLAIN> = algebra::blocked_product,
        |c, b| swizzled(c.blocked_product(b));
    /// CuTe's `raked_product(A, B)`: the copies of `A` interleaved.
    both RakedProduct<PlainOperand::PLAIN> = algebra::raked_product,
        |c, b| swizzled(c.raked_product(b));
    /// CuTe's `max_common_layout(A, B)`: the largest layout `A` and `B`
    /// both map contiguously.
    plain MaxCommonLayout<PlainOperand::PLAIN> = algebra::max_common_layout,
        |_c, _b| Err(PLAIN_ONLY);
    /// CuTe's `coalesce(A, profile)`: coalesced within each mode of the
    /// profile (`(C<1>, C<1>)` is CuTe's `Step<_1,_1>`).
    both CoalesceBy<ShapeOperand::SHAPE> = algebra::coalesce_by,
        |c, b| swizzled(c.coalesce_by(b));
    /// CuTe's `complement(A, cotarget)` (of a swizzled layout: its inner
    /// layout's).
    any ComplementTo<ShapeOperand::SHAPE> = algebra::complement,
        |c, b| plain(c.complement_to(b));
    /// CuTe's `tile_to_shape(A, shape)`: copies of the block `A` filling
    /// the shape.
    both TileToShape<ShapeOperand::SHAPE> = algebra::tile_to_shape,
        |c, b| swizzled(c.tile_to_shape(b));
}

/// CuTe's `tile_to_shape(A, shape, order)`: as [`TileToShape`], the
/// copies of the block laid out in the order of the modes that `Order`
/// gives (`(C<2>, C<1>)` is CuTe's `Step<_2,_1>`: the copies repeat along
/// mode 1 first).
///
/// ```
/// use tilelayout::{cute, AlgebraLayout, TileToShapeOrdered, C};
/// type T = TileToShapeOrdered<cute!((_2,_2):(_1,_2)), (C<4>, C<6>), (C<2>, C<1>)>;
/// assert_eq!(T::TEXT, "((_2,_2),(_2,_3)):((_1,_12),(_2,_4))");
/// assert_eq!(T::offset([2, 0]), 12); // the second copy down mode 0
/// ```
pub struct TileToShapeOrdered<A, S, O>(PhantomData<(A, S, O)>);

impl<A: CuteType, S: ShapeOperand, O: ShapeOperand> CuteType for TileToShapeOrdered<A, S, O> {
    const RESULT: Result<AnyLayout, Verdict> = match (&A::RESULT, &S::SHAPE, &O::SHAPE) {
        (Err(v), _, _) | (_, Err(v), _) | (_, _, Err(v)) => Err(*v),
        (Ok(x), Ok(s), Ok(o)) => {
            let mut b = TextBuf::<{ 2 * MAX_TEXT + 16 }>::new();
            b.push_str(s.to_text().as_str());
            b.push_str(", Order = ");
            b.push_str(o.to_text().as_str());
            op_result(
                match x {
                    AnyLayout::Plain(a) => plain(algebra::tile_to_shape_ordered(a, s, o)),
                    AnyLayout::Swizzled(c) => swizzled(c.tile_to_shape_ordered(s, o)),
                },
                "TileToShapeOrdered<A, S, O>",
                x,
                "S",
                b.as_str(),
            )
        }
    };
}
kinds!(both, TileToShapeOrdered<A, S: ShapeOperand, O: ShapeOperand>);

/// CuTe's `upcast<N>(A)`: the layout of `N`-element groups (elements `N`
/// times wider; of a swizzled layout, the swizzle rescaled too).
pub struct Upcast<A, const N: i64>(PhantomData<A>);

impl<A: CuteType, const N: i64> CuteType for Upcast<A, N> {
    const RESULT: Result<AnyLayout, Verdict> = match &A::RESULT {
        Err(v) => Err(*v),
        Ok(x) => op_result(
            match x {
                AnyLayout::Plain(a) => plain(algebra::upcast(a, N)),
                AnyLayout::Swizzled(c) => swizzled(c.upcast(N)),
            },
            "Upcast<A, N>",
            x,
            "N",
            IntTuple::int(Int::dynamic(N)).to_text().as_str(),
        ),
    };
}
impl<A: AlgebraLayout, const N: i64> AlgebraLayout for Upcast<A, N> {}
impl<A: ComposedAlgebraLayout, const N: i64> ComposedAlgebraLayout for Upcast<A, N> {}

/// CuTe's `downcast<N>(A)`: each element split into `N` (elements `N`
/// times narrower; of a swizzled layout, the swizzle rescaled too).
pub struct Downcast<A, const N: i64>(PhantomData<A>);

impl<A: CuteType, const N: i64> CuteType for Downcast<A, N> {
    const RESULT: Result<AnyLayout, Verdict> = match &A::RESULT {
        Err(v) => Err(*v),
        Ok(x) => op_result(
            match x {
                AnyLayout::Plain(a) => plain(algebra::downcast(a, N)),
                AnyLayout::Swizzled(c) => swizzled(c.downcast(N)),
            },
            "Downcast<A, N>",
            x,
            "N",
            IntTuple::int(Int::dynamic(N)).to_text().as_str(),
        ),
    };
}
impl<A: AlgebraLayout, const N: i64> AlgebraLayout for Downcast<A, N> {}
impl<A: ComposedAlgebraLayout, const N: i64> ComposedAlgebraLayout for Downcast<A, N> {}

/// CuTe's `max_common_vector(A, B)`: the number of elements that `A` and
/// `B` both map to consecutive offsets from 0, an integer (so this type is
/// not a layout: read [`MaxCommonVector::VALUE`]).
///
/// ```
/// use tilelayout::{cute, MaxCommonVector};
/// type V = MaxCommonVector<cute!((_4,_8):(_1,_4)), cute!((_4,_8):(_1,_4))>;
/// assert_eq!(V::VALUE, 32);
/// ```
pub struct MaxCommonVector<A, B>(PhantomData<(A, B)>);

impl<A: CuteType, B: PlainOperand> MaxCommonVector<A, B> {
    /// The common vector length, or the verdict (computed without
    /// panicking).
    pub const RESULT: Result<usize, Verdict> = match (plain_operand(&A::RESULT), &B::PLAIN) {
        (Err(v), _) | (_, &Err(v)) => Err(v),
        (Ok(a), Ok(b)) => match algebra::max_common_vector(&a, b) {
            Ok(n) => Ok(n.value as usize),
            Err(e) => match op_result(
                Err(e),
                "MaxCommonVector<A, B>",
                &AnyLayout::Plain(a),
                "B",
                b.to_text().as_str(),
            ) {
                Err(v) => Err(v),
                Ok(_) => Err(Verdict::fail(&["MaxCommonVector<A, B>"])),
            },
        },
    };
    /// Whether the operands and the operation passed their checks.
    pub const VERDICT: Verdict = match Self::RESULT {
        Ok(_) => Verdict::OK,
        Err(v) => v,
    };
    /// The common vector length, computed by the core at compile time.
    pub const VALUE: usize = match Self::RESULT {
        Ok(n) => n,
        Err(v) => {
            v.check();
            0
        }
    };
}

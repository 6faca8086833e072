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
//! result is the core's `Result`, and a failed precondition becomes a
//! compile error that names the operation type, the mode and what to
//! change (the core's message) and prints the operands. Use
//! [`assert_cute!`](crate::assert_cute) to see it at `cargo check`.
//! [`MaxCommonVector`], whose result is an integer, is read through its
//! `VALUE`.
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

use core::marker::PhantomData;

use super::cute::AlgebraLayout;
use crate::algebra::{
    self, AlgebraError, AlgebraErrorKind, CuteLayout as Value, Int, IntTuple, Tiler, MAX_TEXT,
};
use crate::value::TextBuf;

/// CuTe's static integer `_N` (`C<N>` in CuTe) as an operand: a tiler
/// `N:_1`, one mode of a [`ByMode`] tiler, or a shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct C<const N: i64>;

/// CuTe's by-mode tiler `make_tile(T0, T1, …)`: mode `i` of the left
/// layout is tiled by `Ti`, a layout type or a [`C`] (up to 8 modes).
pub struct ByMode<T>(PhantomData<T>);

/// The right operand of composition, the divides and the products: a
/// layout type, a [`C`] or a [`ByMode`] tiler.
pub trait TilerOperand: 'static {
    /// The tiler.
    const TILER: Tiler;
}

impl<L: AlgebraLayout> TilerOperand for L {
    const TILER: Tiler = Tiler::layout(L::LAYOUT);
}

impl<const N: i64> TilerOperand for C<N> {
    const TILER: Tiler = ok_operand(Tiler::int(Int::fixed(N)), "C<N> as a tiler");
}

impl<T: TilerModes> TilerOperand for ByMode<T> {
    const TILER: Tiler = ok_operand(T::TILER, "ByMode<…>");
}

/// One mode of a [`ByMode`] tiler: a layout type or a [`C`].
pub trait TilerMode: 'static {
    /// The mode as a layout (`N:_1` for `C<N>`).
    const MODE: Value;
    /// Whether the mode is an integer (CuTe composes by `N:_1` then too,
    /// but prints and divides it as the integer).
    const IS_INT: bool;
}

impl<L: AlgebraLayout> TilerMode for L {
    const MODE: Value = L::LAYOUT;
    const IS_INT: bool = false;
}

impl<const N: i64> TilerMode for C<N> {
    const MODE: Value = ok_operand(
        Value::column_major(IntTuple::int(Int::fixed(N))),
        "C<N> as a tiler mode",
    );
    const IS_INT: bool = true;
}

/// The tuple of modes of a [`ByMode`] tiler.
pub trait TilerModes: 'static {
    /// The by-mode tiler of these modes.
    const TILER: Result<Tiler, AlgebraError>;
}

/// `tiler` with one more mode.
const fn push_mode(
    tiler: Result<Tiler, AlgebraError>,
    mode: &Value,
    is_int: bool,
) -> Result<Tiler, AlgebraError> {
    let t = match tiler {
        Ok(t) => t,
        Err(e) => return Err(e),
    };
    match (is_int, mode.shape().as_int()) {
        (true, Some(n)) => t.push_int(n),
        _ => t.push(mode),
    }
}

/// A shape operand (`tile_to_shape`'s target, `complement`'s cotarget,
/// `coalesce`'s profile): a [`C`] or a tuple of shape operands.
pub trait ShapeOperand: 'static {
    /// The shape.
    const SHAPE: IntTuple;
}

impl<const N: i64> ShapeOperand for C<N> {
    const SHAPE: IntTuple = IntTuple::int(Int::fixed(N));
}

macro_rules! tuple_operands {
    ($($m:ident)+) => {
        impl<$($m: TilerMode),+> TilerModes for ($($m,)+) {
            const TILER: Result<Tiler, AlgebraError> = {
                let t = Ok(Tiler::EMPTY);
                $(let t = push_mode(t, &$m::MODE, $m::IS_INT);)+
                t
            };
        }
        impl<$($m: ShapeOperand),+> ShapeOperand for ($($m,)+) {
            const SHAPE: IntTuple =
                ok_operand(IntTuple::tuple(&[$($m::SHAPE),+]), "a shape operand");
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

/// Unwraps an operand's construction in a const.
#[track_caller] // reason: the error points at the constant, not at this helper
const fn ok_operand<T: Copy>(r: Result<T, AlgebraError>, what: &str) -> T {
    match r {
        Ok(v) => v,
        Err(e) => {
            let mut t = TextBuf::<320>::new();
            t.push_str(what);
            t.push_str(": ");
            t.push_str(e.describe().as_str());
            panic!("{}", t.as_str())
        }
    }
}

/// Unwraps an operation's result in a const: the error is a compile error
/// naming the operation, the core's message (the mode and what to
/// change) and the operands as CuTe prints them.
#[track_caller] // reason: the error points at the constant, not at this helper
const fn ok_op(
    r: Result<Value, AlgebraError>,
    op: &str,
    a: &Value,
    b_name: &str,
    b: &str,
) -> Value {
    match r {
        Ok(v) => v,
        Err(e) => {
            let mut t = TextBuf::<{ 2 * MAX_TEXT + 512 }>::new();
            t.push_str(op);
            t.push_str(": ");
            t.push_str(e.describe().as_str());
            // the hint, unless the kind's own message says what to change
            let own = AlgebraError::new(e.kind).message();
            if !contains(own.as_str().as_bytes(), b"; ") {
                t.push_str(hint(&e.kind));
            }
            t.push_str(" (A = ");
            t.push_str(a.to_text().as_str());
            if !b.is_empty() {
                t.push_str(", ");
                t.push_str(b_name);
                t.push_str(" = ");
                t.push_str(b);
            }
            t.push_str(")");
            panic!("{}", t.as_str())
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

/// Operation types of one layout: `Name<A>` is `f(&A::LAYOUT)`.
macro_rules! unary {
    ($($(#[$doc:meta])* $name:ident = $f:path;)+) => {$(
        $(#[$doc])*
        pub struct $name<A>(PhantomData<A>);

        impl<A: AlgebraLayout> AlgebraLayout for $name<A> {
            const LAYOUT: Value = ok_op($f(&A::LAYOUT), concat!(stringify!($name), "<A>"), &A::LAYOUT, "", "");
        }
    )+};
}

/// Operation types of a layout and an operand: `Name<A, B>` is
/// `f(&A::LAYOUT, &B::CONST)`, `B` bounded by `$bound`.
macro_rules! binary {
    ($($(#[$doc:meta])* $name:ident<$bound:ident::$c:ident> = $f:path;)+) => {$(
        $(#[$doc])*
        pub struct $name<A, B>(PhantomData<(A, B)>);

        impl<A: AlgebraLayout, B: $bound> AlgebraLayout for $name<A, B> {
            const LAYOUT: Value = ok_op(
                $f(&A::LAYOUT, &B::$c),
                concat!(stringify!($name), "<A, B>"),
                &A::LAYOUT,
                "B",
                B::$c.to_text().as_str(),
            );
        }
    )+};
}

unary! {
    /// CuTe's `coalesce(A)`: the fewest modes with the same function.
    Coalesce = algebra::coalesce;
    /// CuTe's `filter(A)`: stride-0 and size-1 modes removed, coalesced.
    Filter = algebra::filter;
    /// CuTe's `complement(A)`: the layout of the offsets `A` misses up to
    /// its cosize.
    Complement = algebra::complement_self;
    /// CuTe's `right_inverse(A)`: `A(R(i)) == i` on the largest prefix.
    RightInverse = algebra::right_inverse;
    /// CuTe's `left_inverse(A)`: `R(A(i)) == i` (`A` injective).
    LeftInverse = algebra::left_inverse;
}

binary! {
    /// CuTe's `composition(A, B)`: `A(B(i))`; `B` a layout, a [`C`] or a
    /// [`ByMode`] tiler.
    Composition<TilerOperand::TILER> = algebra::composition_tiler;
    /// CuTe's `logical_divide(A, Tiler)`: `((tile),(rest))` per tiled mode.
    LogicalDivide<TilerOperand::TILER> = algebra::logical_divide;
    /// CuTe's `zipped_divide(A, Tiler)`: `((tiles),(rests))`.
    ZippedDivide<TilerOperand::TILER> = algebra::zipped_divide;
    /// CuTe's `tiled_divide(A, Tiler)`: `((tiles),rest0,rest1,…)`.
    TiledDivide<TilerOperand::TILER> = algebra::tiled_divide;
    /// CuTe's `flat_divide(A, Tiler)`: `(tile0,tile1,…,rest0,rest1,…)`.
    FlatDivide<TilerOperand::TILER> = algebra::flat_divide;
    /// CuTe's `logical_product(A, Tiler)`: `(A, complement(A) o B)`.
    LogicalProduct<TilerOperand::TILER> = algebra::logical_product;
    /// CuTe's `zipped_product(A, Tiler)`.
    ZippedProduct<TilerOperand::TILER> = algebra::zipped_product;
    /// CuTe's `tiled_product(A, Tiler)`.
    TiledProduct<TilerOperand::TILER> = algebra::tiled_product;
    /// CuTe's `blocked_product(A, B)`: `B` copies of the block `A`, mode by
    /// mode, block-major.
    BlockedProduct<AlgebraLayout::LAYOUT> = algebra::blocked_product;
    /// CuTe's `raked_product(A, B)`: the copies of `A` interleaved.
    RakedProduct<AlgebraLayout::LAYOUT> = algebra::raked_product;
    /// CuTe's `max_common_layout(A, B)`: the largest layout `A` and `B`
    /// both map contiguously.
    MaxCommonLayout<AlgebraLayout::LAYOUT> = algebra::max_common_layout;
    /// CuTe's `coalesce(A, profile)`: coalesced within each mode of the
    /// profile (`(C<1>, C<1>)` is CuTe's `Step<_1,_1>`).
    CoalesceBy<ShapeOperand::SHAPE> = algebra::coalesce_by;
    /// CuTe's `complement(A, cotarget)`.
    ComplementTo<ShapeOperand::SHAPE> = algebra::complement;
    /// CuTe's `tile_to_shape(A, shape)`: copies of the block `A` filling
    /// the shape.
    TileToShape<ShapeOperand::SHAPE> = algebra::tile_to_shape;
}

/// CuTe's `upcast<N>(A)`: the layout of `N`-element groups (elements `N`
/// times wider).
pub struct Upcast<A, const N: i64>(PhantomData<A>);

impl<A: AlgebraLayout, const N: i64> AlgebraLayout for Upcast<A, N> {
    const LAYOUT: Value = ok_op(
        algebra::upcast(&A::LAYOUT, N),
        "Upcast<A, N>",
        &A::LAYOUT,
        "N",
        IntTuple::int(Int::dynamic(N)).to_text().as_str(),
    );
}

/// CuTe's `downcast<N>(A)`: each element split into `N` (elements `N`
/// times narrower).
pub struct Downcast<A, const N: i64>(PhantomData<A>);

impl<A: AlgebraLayout, const N: i64> AlgebraLayout for Downcast<A, N> {
    const LAYOUT: Value = ok_op(
        algebra::downcast(&A::LAYOUT, N),
        "Downcast<A, N>",
        &A::LAYOUT,
        "N",
        IntTuple::int(Int::dynamic(N)).to_text().as_str(),
    );
}

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

impl<A: AlgebraLayout, B: AlgebraLayout> MaxCommonVector<A, B> {
    /// The common vector length, computed by the core at compile time.
    pub const VALUE: usize = match algebra::max_common_vector(&A::LAYOUT, &B::LAYOUT) {
        Ok(n) => n.value as usize,
        Err(e) => {
            ok_op(Err(e), "MaxCommonVector<A, B>", &A::LAYOUT, "B", B::TEXT);
            0
        }
    };
}

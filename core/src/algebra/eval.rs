//! Evaluating an operation named as in CuTe on arguments in CuTe's
//! notation: one dispatcher for the command line and the test vectors.

use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::layout::CuteLayout;
use super::notation::AnyLayout;
use super::swizzle::{ComposedLayout, Swizzle, SwizzledInput, SwizzledInverse};
use super::tiler::Tiler;
use super::tuple::{tri, IntTuple};
use super::*;

/// The operations [`evaluate`] knows, by CuTe's function names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Op {
    /// `layout L`: `L` itself.
    Layout,
    /// `coalesce L [profile]`.
    Coalesce,
    /// `filter L`.
    Filter,
    /// `composition L tiler`, `composition L B` with `B` swizzled,
    /// `composition L Sw<B,M,S>` and `composition Sw<B,M,S> L`.
    Composition,
    /// `complement L [cotarget]`.
    Complement,
    /// `logical_divide L tiler`.
    LogicalDivide,
    /// `zipped_divide L tiler`.
    ZippedDivide,
    /// `tiled_divide L tiler`.
    TiledDivide,
    /// `flat_divide L tiler`.
    FlatDivide,
    /// `logical_product L tiler`.
    LogicalProduct,
    /// `zipped_product L tiler`.
    ZippedProduct,
    /// `tiled_product L tiler`.
    TiledProduct,
    /// `blocked_product L L`.
    BlockedProduct,
    /// `raked_product L L`.
    RakedProduct,
    /// `tile_to_shape L shape [order]`.
    TileToShape,
    /// `right_inverse L`.
    RightInverse,
    /// `left_inverse L`.
    LeftInverse,
    /// `max_common_vector L L`.
    MaxCommonVector,
    /// `max_common_layout L L`.
    MaxCommonLayout,
    /// `upcast L n`.
    Upcast,
    /// `downcast L n`.
    Downcast,
    /// `crd2idx L coord`.
    Crd2Idx,
    /// `idx2crd L index`.
    Idx2Crd,
}

impl Op {
    /// Every operation, in the order of the module docs.
    pub const ALL: [Op; 23] = [
        Op::Layout,
        Op::Coalesce,
        Op::Filter,
        Op::Composition,
        Op::Complement,
        Op::LogicalDivide,
        Op::ZippedDivide,
        Op::TiledDivide,
        Op::FlatDivide,
        Op::LogicalProduct,
        Op::ZippedProduct,
        Op::TiledProduct,
        Op::BlockedProduct,
        Op::RakedProduct,
        Op::TileToShape,
        Op::RightInverse,
        Op::LeftInverse,
        Op::MaxCommonVector,
        Op::MaxCommonLayout,
        Op::Upcast,
        Op::Downcast,
        Op::Crd2Idx,
        Op::Idx2Crd,
    ];

    /// CuTe's name of the operation.
    pub const fn name(self) -> &'static str {
        match self {
            Op::Layout => "layout",
            Op::Coalesce => "coalesce",
            Op::Filter => "filter",
            Op::Composition => "composition",
            Op::Complement => "complement",
            Op::LogicalDivide => "logical_divide",
            Op::ZippedDivide => "zipped_divide",
            Op::TiledDivide => "tiled_divide",
            Op::FlatDivide => "flat_divide",
            Op::LogicalProduct => "logical_product",
            Op::ZippedProduct => "zipped_product",
            Op::TiledProduct => "tiled_product",
            Op::BlockedProduct => "blocked_product",
            Op::RakedProduct => "raked_product",
            Op::TileToShape => "tile_to_shape",
            Op::RightInverse => "right_inverse",
            Op::LeftInverse => "left_inverse",
            Op::MaxCommonVector => "max_common_vector",
            Op::MaxCommonLayout => "max_common_layout",
            Op::Upcast => "upcast",
            Op::Downcast => "downcast",
            Op::Crd2Idx => "crd2idx",
            Op::Idx2Crd => "idx2crd",
        }
    }

    /// The operation named `name`, if any.
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|o| o.name() == name)
    }

    /// How many arguments the operation takes: (required, optional).
    pub const fn arity(self) -> (usize, usize) {
        match self {
            Op::Layout | Op::Filter | Op::RightInverse | Op::LeftInverse => (1, 0),
            Op::Coalesce | Op::Complement => (1, 1),
            Op::TileToShape => (2, 1),
            _ => (2, 0),
        }
    }
}

/// The result of [`evaluate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Value {
    /// A layout.
    Layout(CuteLayout),
    /// A swizzled layout.
    Composed(ComposedLayout),
    /// A layout applied after a swizzle (an inverse of a swizzled layout).
    SwizzledInput(SwizzledInput),
    /// An integer (`max_common_vector`, `crd2idx`).
    Int(Int),
    /// A coordinate (`idx2crd`).
    Tuple(IntTuple),
}

impl Value {
    /// The function `i ↦ index` of a layout value, for `i < size`.
    ///
    /// # Errors
    /// Overflow; [`AlgebraErrorKind::Unsupported`] for values that are
    /// not layouts.
    pub fn call(&self, i: i64) -> Result<i64, AlgebraError> {
        match self {
            Value::Layout(l) => l.call(i),
            Value::Composed(c) => c.call(i),
            Value::SwizzledInput(c) => c.call(i),
            _ => Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
                what: "offsets of a value that is not a layout",
            })),
        }
    }
}

impl core::fmt::Display for Value {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Value::Layout(l) => l.fmt(f),
            Value::Composed(c) => c.fmt(f),
            Value::SwizzledInput(c) => c.fmt(f),
            Value::Int(i) => IntTuple::int(*i).fmt(f),
            Value::Tuple(t) => t.fmt(f),
        }
    }
}

fn arg<'a>(args: &[&'a str], i: usize) -> Result<&'a str, AlgebraError> {
    args.get(i)
        .copied()
        .ok_or(AlgebraError::new(AlgebraErrorKind::UnexpectedEnd {
            expected: "another argument",
        }))
}

fn factor(text: &str) -> Result<i64, AlgebraError> {
    let t = tri!(IntTuple::parse(text));
    match t.as_int() {
        Some(i) => Ok(i.value),
        None => Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
            what: "a cast factor that is not an integer",
        })),
    }
}

/// Applies a layout operation to the inner layout of a swizzled layout
/// (CuTe's `ComposedLayout` overloads do this for coalesce, composition,
/// the divides and the products).
fn on_layout(
    a: AnyLayout,
    f: impl Fn(&CuteLayout) -> Result<CuteLayout, AlgebraError>,
) -> Result<Value, AlgebraError> {
    match a {
        AnyLayout::Plain(l) => Ok(Value::Layout(f(&l)?)),
        AnyLayout::Swizzled(c) => Ok(Value::Composed(ComposedLayout::new(
            c.swizzle,
            c.offset,
            f(&c.layout)?,
        ))),
    }
}

fn any(a: AnyLayout) -> Value {
    match a {
        AnyLayout::Plain(l) => Value::Layout(l),
        AnyLayout::Swizzled(c) => Value::Composed(c),
    }
}

fn inverse_value(v: SwizzledInverse) -> Value {
    match v {
        SwizzledInverse::Composed(c) => Value::Composed(c),
        SwizzledInverse::Input(c) => Value::SwizzledInput(c),
    }
}

fn plain(a: AnyLayout, what: &'static str) -> Result<CuteLayout, AlgebraError> {
    match a {
        AnyLayout::Plain(l) => Ok(l),
        AnyLayout::Swizzled(_) => Err(AlgebraError::new(AlgebraErrorKind::Unsupported { what })),
    }
}

/// Evaluates `op` on arguments in CuTe's notation: the first is a layout
/// (plain or swizzled; a bare swizzle `Sw<B,M,S>` for `composition`), the
/// second depends on the operation (a tiler, a layout, a swizzle or a
/// swizzled layout for `composition`, a shape, a profile, a factor, a
/// coordinate or an index), the third is `tile_to_shape`'s mode order
/// (CuTe's `Step<_2,_1>` written `(_2,_1)`).
///
/// # Examples
/// ```
/// use tilelayout::algebra::{evaluate, Op};
/// let v = evaluate(Op::LogicalDivide, &["(_4,_2,_3):(_2,_1,_8)", "_4:_2"])?;
/// assert_eq!(v.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// Parse errors of an argument (positions within that argument), a
/// missing argument, and the operation's own errors.
pub fn evaluate(op: Op, args: &[&str]) -> Result<Value, AlgebraError> {
    if op == Op::Composition {
        if let Ok(sw) = Swizzle::parse(arg(args, 0)?) {
            // CuTe's composition(Swizzle, Layout)
            let l = CuteLayout::parse(arg(args, 1)?)?;
            return Ok(any(swizzle_composition(&sw, &l)));
        }
    }
    let a = AnyLayout::parse(arg(args, 0)?)?;
    let b = args.get(1).copied();
    match op {
        Op::Layout => Ok(any(a)),
        Op::Coalesce => match b {
            None => on_layout(a, coalesce),
            Some(p) => {
                let p = IntTuple::parse(p)?;
                on_layout(a, |l| coalesce_by(l, &p))
            }
        },
        Op::Filter => Ok(Value::Layout(filter(&plain(
            a,
            "filter of a swizzled layout (CuTe has none)",
        )?)?)),
        Op::Composition => {
            let text = arg(args, 1)?;
            if let AnyLayout::Plain(l) = a {
                if let Ok(sw) = Swizzle::parse(text) {
                    return Ok(any(composition_swizzle(&l, &sw)?));
                }
                if let Ok(c) = ComposedLayout::parse(text) {
                    return Ok(any(composition_composed(&l, &c)?));
                }
            }
            let t = Tiler::parse(text)?;
            on_layout(a, |l| composition_tiler(l, &t))
        }
        Op::Complement => Ok(Value::Layout(match (a, b) {
            (AnyLayout::Plain(l), None) => complement_self(&l)?,
            (AnyLayout::Plain(l), Some(t)) => complement(&l, &IntTuple::parse(t)?)?,
            (AnyLayout::Swizzled(c), None) => c.complement()?,
            (AnyLayout::Swizzled(c), Some(t)) => c.complement_to(&IntTuple::parse(t)?)?,
        })),
        Op::LogicalDivide | Op::ZippedDivide | Op::TiledDivide | Op::FlatDivide => {
            let t = Tiler::parse(arg(args, 1)?)?;
            let f = match op {
                Op::LogicalDivide => logical_divide,
                Op::ZippedDivide => zipped_divide,
                Op::TiledDivide => tiled_divide,
                _ => flat_divide,
            };
            on_layout(a, |l| f(l, &t))
        }
        Op::LogicalProduct | Op::ZippedProduct | Op::TiledProduct => {
            let t = Tiler::parse(arg(args, 1)?)?;
            let f = match op {
                Op::LogicalProduct => logical_product,
                Op::ZippedProduct => zipped_product,
                _ => tiled_product,
            };
            on_layout(a, |l| f(l, &t))
        }
        Op::BlockedProduct | Op::RakedProduct => {
            let t = CuteLayout::parse(arg(args, 1)?)?;
            let f = if op == Op::BlockedProduct {
                blocked_product
            } else {
                raked_product
            };
            on_layout(a, |l| f(l, &t))
        }
        Op::TileToShape => {
            let s = IntTuple::parse(arg(args, 1)?)?;
            match args.get(2) {
                None => on_layout(a, |l| tile_to_shape(l, &s)),
                Some(o) => {
                    let o = IntTuple::parse(o)?;
                    on_layout(a, |l| tile_to_shape_ordered(l, &s, &o))
                }
            }
        }
        Op::RightInverse => match a {
            AnyLayout::Plain(l) => Ok(Value::Layout(right_inverse(&l)?)),
            AnyLayout::Swizzled(c) => Ok(inverse_value(c.right_inverse()?)),
        },
        Op::LeftInverse => match a {
            AnyLayout::Plain(l) => Ok(Value::Layout(left_inverse(&l)?)),
            AnyLayout::Swizzled(c) => Ok(inverse_value(c.left_inverse()?)),
        },
        Op::MaxCommonVector | Op::MaxCommonLayout => {
            let x = plain(a, "max_common_* of a swizzled layout")?;
            let y = CuteLayout::parse(arg(args, 1)?)?;
            if op == Op::MaxCommonVector {
                Ok(Value::Int(max_common_vector(&x, &y)?))
            } else {
                Ok(Value::Layout(max_common_layout(&x, &y)?))
            }
        }
        Op::Upcast | Op::Downcast => {
            let n = factor(arg(args, 1)?)?;
            Ok(match (a, op) {
                (AnyLayout::Plain(x), Op::Upcast) => Value::Layout(upcast(&x, n)?),
                (AnyLayout::Plain(x), _) => Value::Layout(downcast(&x, n)?),
                (AnyLayout::Swizzled(c), Op::Upcast) => Value::Composed(c.upcast(n)?),
                (AnyLayout::Swizzled(c), _) => Value::Composed(c.downcast(n)?),
            })
        }
        Op::Crd2Idx => {
            let c = IntTuple::parse(arg(args, 1)?)?;
            match a {
                AnyLayout::Plain(l) => Ok(Value::Int(l.crd2idx(&c)?)),
                AnyLayout::Swizzled(s) => Ok(Value::Int(Int::dynamic(s.crd2idx(&c)?))),
            }
        }
        Op::Idx2Crd => {
            let i = IntTuple::parse(arg(args, 1)?)?;
            let i = match i.as_int() {
                Some(i) => i,
                None => {
                    return Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
                        what: "idx2crd of an index that is not an integer",
                    }))
                }
            };
            let l = match a {
                AnyLayout::Plain(l) => l,
                AnyLayout::Swizzled(c) => c.layout,
            };
            Ok(Value::Tuple(l.idx2crd(i)?))
        }
    }
}

//! The algebra on swizzled layouts `Sw<B,M,S> o offset o L`, and
//! composition with a swizzle (NVIDIA/cutlass
//! `include/cute/layout_composed.hpp`, `include/cute/swizzle_layout.hpp`,
//! `include/cute/swizzle.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4).
//!
//! As in CuTe, coalesce, the divides, the products and `tile_to_shape`
//! apply to the inner layout and keep the swizzle and the offset;
//! `complement` is the inner layout's; `upcast`/`downcast` rescale all
//! three parts (the swizzle's `M` by `log2 n`). Composing a layout with a
//! swizzle carries the swizzle to the left through the layout (CuTe's
//! `make_swizzle<A(yyy), A(zzz)>`); CuTe says this "works in simple
//! cases", so the result is checked on every index here and refused when
//! it is not the composition.

use super::coalesce::{coalesce, coalesce_by};
use super::complement::complement;
use super::composition::composition;
use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::layout::CuteLayout;
use super::notation::AnyLayout;
use super::swizzle::{ComposedLayout, Swizzle};
use super::tiler::Tiler;
use super::tuple::{tri, IntTuple};
use super::{cast, divide, product};

/// Most indices [`composition_swizzle`] and [`composition_composed`]
/// evaluate to check their result.
pub const MAX_SWIZZLE_CHECK: i64 = 1 << 16;

const fn unsupported(what: &'static str) -> AlgebraError {
    AlgebraError::new(AlgebraErrorKind::Unsupported { what })
}

/// `log2 n` for a power of two `n >= 1` (CuTe's static assert "N must be
/// a power of two" on swizzle casts).
const fn log2_exact(n: i64) -> Result<i32, AlgebraError> {
    if n < 1 || n & (n - 1) != 0 {
        return Err(unsupported(
            "casting a swizzle by a factor that is not a power of two",
        ));
    }
    Ok(n.trailing_zeros() as i32)
}

impl Swizzle {
    /// CuTe's `upcast<n>(Sw<B,M,S>)`: the swizzle on elements `n` times
    /// wider, `Sw<B, M − log2 n, S>`; when that `M` is negative, the bits
    /// below the element are lost: `Sw<max(B + M', 0), 0, S>`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Unsupported`] unless `n` is a power of two.
    pub const fn upcast(&self, n: i64) -> Result<Swizzle, AlgebraError> {
        let m = self.base() - tri!(log2_exact(n));
        if m >= 0 {
            return Swizzle::new(self.bits(), m, self.shift());
        }
        let b = self.bits() + m;
        Swizzle::new(if b > 0 { b } else { 0 }, 0, self.shift())
    }

    /// CuTe's `downcast<n>(Sw<B,M,S>)`: `Sw<B, M + log2 n, S>`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Unsupported`] unless `n` is a power of two;
    /// [`AlgebraErrorKind::SwizzleParams`] past 62 bits.
    pub const fn downcast(&self, n: i64) -> Result<Swizzle, AlgebraError> {
        let m = self.base() + tri!(log2_exact(n));
        Swizzle::new(self.bits(), m, self.shift())
    }
}

/// Defines `ComposedLayout` methods that apply a layout operation to the
/// inner layout and keep the swizzle and the offset.
macro_rules! on_inner {
    ($($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) = $f:path;)*) => {
        impl ComposedLayout {
            $(
                $(#[$doc])*
                pub const fn $name(&self, $($arg: $ty),*) -> Result<ComposedLayout, AlgebraError> {
                    let l = tri!($f(&self.layout, $($arg),*));
                    Ok(ComposedLayout::new(self.swizzle, self.offset, l))
                }
            )*
        }
    };
}

on_inner! {
    /// CuTe's `coalesce(Sw o off o L)`: `Sw o off o coalesce(L)`.
    ///
    /// # Errors
    /// As [`super::coalesce`].
    coalesce() = coalesce;
    /// CuTe's `coalesce(Sw o off o L, profile)`.
    ///
    /// # Errors
    /// As [`super::coalesce_by`].
    coalesce_by(profile: &IntTuple) = coalesce_by;
    /// CuTe's `logical_divide(Sw o off o L, tiler)`: `Sw o off o
    /// logical_divide(L, tiler)`.
    ///
    /// # Errors
    /// As [`super::logical_divide`].
    logical_divide(tiler: &Tiler) = divide::logical_divide;
    /// CuTe's `zipped_divide` of a swizzled layout.
    ///
    /// # Errors
    /// As [`super::zipped_divide`].
    zipped_divide(tiler: &Tiler) = divide::zipped_divide;
    /// CuTe's `tiled_divide` of a swizzled layout.
    ///
    /// # Errors
    /// As [`super::tiled_divide`].
    tiled_divide(tiler: &Tiler) = divide::tiled_divide;
    /// CuTe's `flat_divide` of a swizzled layout.
    ///
    /// # Errors
    /// As [`super::flat_divide`].
    flat_divide(tiler: &Tiler) = divide::flat_divide;
    /// CuTe's `logical_product` of a swizzled layout.
    ///
    /// # Errors
    /// As [`super::logical_product`].
    logical_product(tiler: &Tiler) = product::logical_product;
    /// CuTe's `zipped_product` of a swizzled layout.
    ///
    /// # Errors
    /// As [`super::zipped_product`].
    zipped_product(tiler: &Tiler) = product::zipped_product;
    /// CuTe's `tiled_product` of a swizzled layout.
    ///
    /// # Errors
    /// As [`super::tiled_product`].
    tiled_product(tiler: &Tiler) = product::tiled_product;
    /// CuTe's `blocked_product` of a swizzled layout.
    ///
    /// # Errors
    /// As [`super::blocked_product`].
    blocked_product(tiler: &CuteLayout) = product::blocked_product;
    /// CuTe's `raked_product` of a swizzled layout.
    ///
    /// # Errors
    /// As [`super::raked_product`].
    raked_product(tiler: &CuteLayout) = product::raked_product;
    /// CuTe's `tile_to_shape` of a swizzled layout.
    ///
    /// # Errors
    /// As [`super::tile_to_shape`].
    tile_to_shape(target: &IntTuple) = product::tile_to_shape;
    /// CuTe's `tile_to_shape(Sw o off o L, target, order)`.
    ///
    /// # Errors
    /// As [`super::tile_to_shape_ordered`].
    tile_to_shape_ordered(target: &IntTuple, order: &IntTuple) = product::tile_to_shape_ordered;
}

impl ComposedLayout {
    /// CuTe's `complement(Sw o off o L)`: the complement of the inner
    /// layout within the swizzled layout's cosize, which CuTe defines as
    /// the inner layout's (the swizzle and the offset do not enter; the
    /// cosize is taken before filtering, so its binding time can differ
    /// from [`super::complement_self`] of `L`).
    ///
    /// # Examples
    /// ```
    /// use tilelayout::algebra::ComposedLayout;
    /// let c = ComposedLayout::parse("Sw<2,0,2> o _0 o (_4,2):(_1,_0)")?;
    /// assert_eq!(c.complement()?.to_text().as_str(), "_1:_0");
    /// # Ok::<(), tilelayout::algebra::AlgebraError>(())
    /// ```
    ///
    /// # Errors
    /// As [`super::complement`].
    pub const fn complement(&self) -> Result<CuteLayout, AlgebraError> {
        let c = tri!(self.layout.cosize());
        complement(&self.layout, &IntTuple::int(c))
    }

    /// CuTe's `complement(Sw o off o L, cotarget)`: `complement(L,
    /// cotarget)`.
    ///
    /// # Errors
    /// As [`super::complement`].
    pub const fn complement_to(&self, cotarget: &IntTuple) -> Result<CuteLayout, AlgebraError> {
        complement(&self.layout, cotarget)
    }

    /// CuTe's `upcast<n>(Sw o off o L)`: `upcast<n>(Sw) o off/n o
    /// upcast<n>(L)`, e.g. `Sw<3,3,3> o _0 o (_8,_64):(_64,_1)` over
    /// 16-bit elements is `Sw<3,2,3> o _0 o (_8,_32):(_32,_1)` over 32-bit
    /// ones.
    ///
    /// # Examples
    /// ```
    /// use tilelayout::algebra::ComposedLayout;
    /// let c = ComposedLayout::parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")?;
    /// assert_eq!(c.upcast(2)?.to_text().as_str(), "Sw<3,2,3> o _0 o (_8,_32):(_32,_1)");
    /// # Ok::<(), tilelayout::algebra::AlgebraError>(())
    /// ```
    ///
    /// # Errors
    /// As [`super::upcast`] and [`Swizzle::upcast`];
    /// [`AlgebraErrorKind::Unsupported`] for a dynamic offset (CuTe
    /// casts only static offsets) or one `n` does not divide (CuTe's
    /// `safe_div`).
    pub const fn upcast(&self, n: i64) -> Result<ComposedLayout, AlgebraError> {
        let sw = tri!(self.swizzle.upcast(n));
        if !self.offset.is_static || self.offset.value % n != 0 {
            return Err(unsupported(
                "upcast of a swizzled layout whose offset is dynamic or not a multiple of the factor",
            ));
        }
        let off = tri!(self.offset.div(Int::fixed(n)));
        let l = tri!(cast::upcast(&self.layout, n));
        Ok(ComposedLayout::new(sw, off, l))
    }

    /// CuTe's `downcast<n>(Sw o off o L)`: `downcast<n>(Sw) o off·n o
    /// downcast<n>(L)`.
    ///
    /// # Errors
    /// As [`super::downcast`] and [`Swizzle::downcast`];
    /// [`AlgebraErrorKind::Unsupported`] for a dynamic offset.
    pub const fn downcast(&self, n: i64) -> Result<ComposedLayout, AlgebraError> {
        let sw = tri!(self.swizzle.downcast(n));
        if !self.offset.is_static {
            return Err(unsupported(
                "downcast of a swizzled layout whose offset is dynamic",
            ));
        }
        let off = tri!(self.offset.mul(Int::fixed(n)));
        let l = tri!(cast::downcast(&self.layout, n));
        Ok(ComposedLayout::new(sw, off, l))
    }
}

/// `sw o _0 o layout`, or `layout` itself for a swizzle of no bits (CuTe's
/// identity case).
const fn swizzled(sw: Swizzle, layout: CuteLayout) -> AnyLayout {
    if sw.bits() == 0 {
        AnyLayout::Plain(layout)
    } else {
        AnyLayout::Swizzled(ComposedLayout::new(sw, Int::fixed(0), layout))
    }
}

/// CuTe's `composition(Swizzle, CuteLayout)`: the swizzled layout `sw o _0 o
/// layout`; a swizzle of no bits (`Sw<0,M,S>`) is the identity and gives
/// `layout`.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{swizzle_composition, CuteLayout, Swizzle};
/// let l = CuteLayout::parse("(_8,_64):(_64,_1)")?;
/// let r = swizzle_composition(&Swizzle::new(3, 3, 3)?, &l);
/// assert_eq!(r.to_text().as_str(), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
pub const fn swizzle_composition(sw: &Swizzle, layout: &CuteLayout) -> AnyLayout {
    swizzled(*sw, *layout)
}

/// CuTe's `make_swizzle<Y, Z>()`: the swizzle whose masks are `y` (the
/// bits read) and `z` (the bits changed).
pub(crate) const fn make_swizzle(y: i64, z: i64) -> Result<Swizzle, AlgebraError> {
    let wrong = unsupported("the swizzle's bits do not map to a swizzle through the layout");
    if y < 0 || z < 0 || y.count_ones() != z.count_ones() {
        return Err(wrong);
    }
    if y == 0 {
        return Swizzle::new(0, 0, 0);
    }
    let ty = y.trailing_zeros() as i32;
    let tz = z.trailing_zeros() as i32;
    let m = if ty < tz { ty } else { tz };
    let r = match Swizzle::new(y.count_ones() as i32, m, ty - tz) {
        Ok(r) => r,
        Err(_) => return Err(wrong),
    };
    if (r.yyy_mask() | r.zzz_mask()) != (y | z) {
        return Err(wrong);
    }
    Ok(r)
}

/// The swizzle `Sw'` with `a ∘ sw = Sw' ∘ a` as CuTe computes it: `a` at
/// the masks, which must be static.
const fn carried(a: &CuteLayout, sw: &Swizzle) -> Result<Swizzle, AlgebraError> {
    if sw.bits() == 0 {
        return Ok(*sw);
    }
    let y = tri!(a.crd2idx(&IntTuple::fixed(sw.yyy_mask())));
    let z = tri!(a.crd2idx(&IntTuple::fixed(sw.zzz_mask())));
    if !y.is_static || !z.is_static {
        return Err(unsupported(
            "composing a layout with a swizzle needs the layout static at the swizzle's bits (CuTe computes the new swizzle at compile time)",
        ));
    }
    make_swizzle(y.value, z.value)
}

/// Checks `result(i) == a(sw(inner(i)))` for every `i < size(inner)`.
const fn check_carried(
    result: &AnyLayout,
    a: &CuteLayout,
    sw: &Swizzle,
    inner: &CuteLayout,
) -> Result<(), AlgebraError> {
    let n = tri!(inner.size()).value;
    if n > MAX_SWIZZLE_CHECK {
        return Err(unsupported(
            "composing a layout with a swizzle over more than 65536 indices (the result is checked index by index)",
        ));
    }
    let mut i = 0;
    while i < n {
        let want = tri!(a.call(sw.apply(tri!(inner.call(i)))));
        let got = match result {
            AnyLayout::Plain(l) => tri!(l.call(i)),
            AnyLayout::Swizzled(c) => tri!(c.call(i)),
        };
        if got != want {
            return Err(unsupported(
                "composing this layout with this swizzle: the swizzle does not pass through the layout (CuTe's result would be wrong)",
            ));
        }
        i += 1;
    }
    Ok(())
}

/// CuTe's `composition(Layout a, Swizzle sw)`: `Sw' o _0 o a` where `Sw'`
/// is the swizzle of `a(yyy)` and `a(zzz)` (CuTe's `make_swizzle`), so
/// that `a(sw(i)) == Sw'(a(i))`.
///
/// * Pre: `a` is static at the swizzle's masks (CuTe computes `Sw'` at
///   compile time).
/// * Post (checked, ours: CuTe says this "works in simple cases"): for
///   all `i < size(a)`, `result(i) == a(sw(i))`.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{composition_swizzle, CuteLayout, Swizzle};
/// let a = CuteLayout::parse("(_8,_8):(_8,_1)")?;
/// let r = composition_swizzle(&a, &Swizzle::new(2, 0, 3)?)?;
/// assert_eq!(r.to_text().as_str(), "Sw<2,0,-3> o _0 o (_8,_8):(_8,_1)");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// [`AlgebraErrorKind::Unsupported`] when the swizzle's bits do not map
/// to a swizzle, `a` is dynamic there, or the check fails; overflow.
pub const fn composition_swizzle(a: &CuteLayout, sw: &Swizzle) -> Result<AnyLayout, AlgebraError> {
    let s = tri!(carried(a, sw));
    let r = swizzled(s, *a);
    let id = tri!(CuteLayout::column_major(IntTuple::int(tri!(a.size()))));
    tri!(check_carried(&r, a, sw, &id));
    Ok(r)
}

/// CuTe's `composition(Layout a, ComposedLayout b)` with `b = sw o _0 o
/// L`: `composition(composition(a, sw), L)`, i.e. `Sw' o _0 o (a ∘ L)`.
///
/// * Pre: `b`'s offset is a static `_0` (CuTe's "Require offset == 0");
///   as [`composition_swizzle`] and [`super::composition`].
/// * Post (checked): for all `i < size(L)`, `result(i) == a(b(i))`.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{composition_composed, ComposedLayout, CuteLayout};
/// let a = CuteLayout::parse("(_8,_8):(_1,_8)")?;
/// let b = ComposedLayout::parse("Sw<2,0,3> o _0 o _32:_1")?;
/// let r = composition_composed(&a, &b)?;
/// assert_eq!(r.to_text().as_str(), "Sw<2,0,3> o _0 o _32:_1");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// As [`composition_swizzle`] and [`super::composition`];
/// [`AlgebraErrorKind::Unsupported`] for another offset.
pub const fn composition_composed(
    a: &CuteLayout,
    b: &ComposedLayout,
) -> Result<AnyLayout, AlgebraError> {
    if !b.offset.is_constant(0) {
        return Err(unsupported(
            "composing a layout with a swizzled layout whose offset is not _0 (CuTe requires _0)",
        ));
    }
    let s = tri!(carried(a, &b.swizzle));
    let inner = tri!(composition(a, &b.layout));
    let r = swizzled(s, inner);
    tri!(check_carried(&r, a, &b.swizzle, &b.layout));
    Ok(r)
}

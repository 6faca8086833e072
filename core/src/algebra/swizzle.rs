//! The swizzle functor and the composed layout `Sw<B,M,S> o offset o
//! layout` (NVIDIA/cutlass `include/cute/swizzle.hpp`,
//! `include/cute/layout_composed.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4).
//!
//! ```text
//! 0bxxxxxxxxxxxxxxxYYYxxxxxxxZZZxxxx
//!                               ^--^ M: least-significant bits kept
//!                  ^-^       ^-^     B: bits in the mask
//!                    ^---------^     S: distance from YYY to ZZZ
//!                                    (S > 0: YYY above ZZZ; S < 0 below)
//! result: ZZZ ^= YYY, everything else unchanged
//! ```

use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::layout::CuteLayout;
use super::tuple::{tri, IntTuple};

/// CuTe's `Swizzle<B,M,S>`: `offset ^ ((offset & yyy_mask) >> S)` (a
/// negative `S` shifts left).
///
/// Invariant: `B >= 0`, `M >= 0`, `|S| >= B` (CuTe's static asserts) and
/// both masks within bit 62 (ours, so they fit `i64`); checked by
/// [`Swizzle::new`].
///
/// # Examples
/// ```
/// use tilelayout::algebra::Swizzle;
/// let sw = Swizzle::new(3, 4, 3)?; // Sw<3,4,3>
/// assert_eq!(sw.apply(0b0000001_0000000), 0b0000001_0010000);
/// assert_eq!(sw.apply(sw.apply(1234)), 1234); // an involution
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    bits: i32,
    base: i32,
    shift: i32,
}

impl Swizzle {
    /// `Sw<B,M,S>`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::SwizzleParams`].
    pub const fn new(bits: i32, base: i32, shift: i32) -> Result<Swizzle, AlgebraError> {
        let ok = bits >= 0
            && base >= 0
            && bits <= 62
            && base <= 62
            && shift > -63
            && shift < 63
            && shift.unsigned_abs() >= bits as u32;
        if !ok {
            return Err(AlgebraError::new(AlgebraErrorKind::SwizzleParams));
        }
        let hi = base as i64
            + bits as i64
            + if shift > 0 {
                shift as i64
            } else {
                -(shift as i64)
            };
        if hi > 62 {
            return Err(AlgebraError::new(AlgebraErrorKind::SwizzleParams));
        }
        Ok(Swizzle { bits, base, shift })
    }

    /// The identity swizzle CuTe uses for "no swizzle", `Sw<0,4,3>`.
    pub const NONE: Swizzle = Swizzle {
        bits: 0,
        base: 4,
        shift: 3,
    };

    /// `B`, the number of bits swizzled.
    pub const fn bits(&self) -> i32 {
        self.bits
    }

    /// `M`, the number of least-significant bits kept.
    pub const fn base(&self) -> i32 {
        self.base
    }

    /// `S`, the shift from the YYY mask to the ZZZ mask.
    pub const fn shift(&self) -> i32 {
        self.shift
    }

    /// The mask of `B` ones.
    #[inline]
    const fn bit_msk(&self) -> i64 {
        (1i64 << self.bits) - 1
    }

    /// CuTe's `yyy_msk`: the bits read, `bit_msk << (M + max(0,S))`.
    #[inline]
    pub const fn yyy_mask(&self) -> i64 {
        let s = if self.shift > 0 { self.shift } else { 0 };
        self.bit_msk() << (self.base + s)
    }

    /// CuTe's `zzz_msk`: the bits changed, `bit_msk << (M - min(0,S))`.
    pub const fn zzz_mask(&self) -> i64 {
        let s = if self.shift < 0 { -self.shift } else { 0 };
        self.bit_msk() << (self.base + s)
    }

    /// CuTe's `Swizzle::apply`: `offset ^ shiftr(offset & yyy, S)`.
    ///
    /// `#[inline]`: the layout types apply a constant swizzle in their
    /// index functions, which must fold across the crate boundary.
    #[inline]
    pub const fn apply(&self, offset: i64) -> i64 {
        let y = offset & self.yyy_mask();
        let moved = if self.shift >= 0 {
            y >> self.shift
        } else {
            y << (-self.shift)
        };
        offset ^ moved
    }
}

/// CuTe's `ComposedLayout<Swizzle, Offset, CuteLayout>` with an integer
/// offset: `i ↦ swizzle(offset + layout(i))`, printed
/// `Sw<3,4,3> o _0 o (8,64):(64,1)`.
///
/// Invariant: none beyond its parts'.
///
/// # Examples
/// ```
/// use tilelayout::algebra::ComposedLayout;
/// let c = ComposedLayout::parse("Sw<3,4,3> o _0 o (8,64):(64,1)")?;
/// assert_eq!(c.call(1)?, 64); // row 1: bit 6 is below YYY, unchanged
/// assert_eq!(c.call(2)?, 128 ^ 16); // row 2: bit 7 (in YYY) flips bit 4
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComposedLayout {
    /// The outer function, `layout_a` in CuTe.
    pub swizzle: Swizzle,
    /// The offset added before the swizzle.
    pub offset: Int,
    /// The inner layout, `layout_b` in CuTe.
    pub layout: CuteLayout,
}

impl ComposedLayout {
    /// `swizzle o offset o layout`.
    pub const fn new(swizzle: Swizzle, offset: Int, layout: CuteLayout) -> ComposedLayout {
        ComposedLayout {
            swizzle,
            offset,
            layout,
        }
    }

    /// The index of the 1-D coordinate `i`: `swizzle(offset + layout(i))`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn call(&self, i: i64) -> Result<i64, AlgebraError> {
        let v = tri!(self.layout.call(i));
        match v.checked_add(self.offset.value) {
            Some(x) => Ok(self.swizzle.apply(x)),
            None => Err(AlgebraError::new(AlgebraErrorKind::Overflow)),
        }
    }

    /// The index of a coordinate: `swizzle(offset + layout(coord))`.
    ///
    /// # Errors
    /// As [`CuteLayout::crd2idx`].
    pub const fn crd2idx(&self, coord: &IntTuple) -> Result<i64, AlgebraError> {
        let v = tri!(self.layout.crd2idx(coord));
        match v.value.checked_add(self.offset.value) {
            Some(x) => Ok(self.swizzle.apply(x)),
            None => Err(AlgebraError::new(AlgebraErrorKind::Overflow)),
        }
    }

    /// CuTe's `size`: the inner layout's.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn size(&self) -> Result<Int, AlgebraError> {
        self.layout.size()
    }

    /// CuTe's `rank`: the inner layout's.
    pub const fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// CuTe's `depth`: the inner layout's.
    pub const fn depth(&self) -> usize {
        self.layout.depth()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzle_masks() {
        let s = Swizzle::new(3, 4, 3).unwrap();
        assert_eq!(s.yyy_mask(), 0b111_0000000);
        assert_eq!(s.zzz_mask(), 0b111_0000);
        let n = Swizzle::new(2, 0, -2).unwrap();
        assert_eq!(n.yyy_mask(), 0b11);
        assert_eq!(n.zzz_mask(), 0b1100);
        assert_eq!(n.apply(0b0001), 0b0101);
        assert!(Swizzle::new(3, 0, 2).is_err());
        assert!(Swizzle::new(-1, 0, 2).is_err());
        assert!(Swizzle::new(30, 30, 30).is_err());
    }

    #[test]
    fn involution_when_shift_at_least_bits() {
        for b in 0..4 {
            for m in 0..4 {
                for s in [-6, -4, -3, 3, 4, 6] {
                    let Ok(sw) = Swizzle::new(b, m, s) else {
                        continue;
                    };
                    for x in 0..4096 {
                        assert_eq!(sw.apply(sw.apply(x)), x);
                    }
                }
            }
        }
    }
}

/// CuTe's `ComposedLayout<CuteLayout, Offset, Swizzle>`, `i ↦ layout(offset +
/// swizzle(i))`: what inverting a swizzled layout gives, printed
/// `(8,64):(64,1) o _0 o Sw<3,4,3>` as CuTe prints it.
///
/// Invariant: none beyond its parts'.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwizzledInput {
    /// The outer layout, `layout_a` in CuTe.
    pub layout: CuteLayout,
    /// The offset added to the swizzled index.
    pub offset: Int,
    /// The inner function, `layout_b` in CuTe.
    pub swizzle: Swizzle,
}

impl SwizzledInput {
    /// The index of `i`: `layout(offset + swizzle(i))`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn call(&self, i: i64) -> Result<i64, AlgebraError> {
        match self.swizzle.apply(i).checked_add(self.offset.value) {
            Some(x) => self.layout.call(x),
            None => Err(AlgebraError::new(AlgebraErrorKind::Overflow)),
        }
    }

    /// The size of the domain: the outer layout's.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn size(&self) -> Result<Int, AlgebraError> {
        self.layout.size()
    }
}

impl ComposedLayout {
    /// CuTe's `composition(ComposedLayout, tiler)`: the swizzle and offset
    /// stay, the inner layout is composed with the tiler.
    ///
    /// # Examples
    /// ```
    /// use tilelayout::algebra::{ComposedLayout, Tiler};
    /// let c = ComposedLayout::parse("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")?;
    /// let r = c.composition(&Tiler::parse("(_8,_8)")?)?;
    /// assert_eq!(r.to_text().as_str(), "Sw<3,4,3> o _0 o (_8,_8):(_64,_1)");
    /// # Ok::<(), tilelayout::algebra::AlgebraError>(())
    /// ```
    ///
    /// # Errors
    /// As [`super::composition_tiler`].
    pub const fn composition(&self, tiler: &super::Tiler) -> Result<ComposedLayout, AlgebraError> {
        let l = tri!(super::composition_tiler(&self.layout, tiler));
        Ok(ComposedLayout::new(self.swizzle, self.offset, l))
    }

    /// CuTe's `right_inverse(ComposedLayout<Swizzle,…>)`. With a static
    /// zero offset the swizzle is carried through to the left, as CuTe's
    /// `composition(CuteLayout, Swizzle)` does: `R = Sw' o _0 o L'` with `L'`
    /// the right inverse of the inner layout and `Sw'` the swizzle whose
    /// masks are `L'(yyy)` and `L'(zzz)` (CuTe's `make_swizzle`); with
    /// another offset, `L' o -offset o Sw`.
    ///
    /// * Post: for all `i < size(R)`, `self(R(i)) == i`.
    ///
    /// # Examples
    /// ```
    /// use tilelayout::algebra::{ComposedLayout, SwizzledInverse};
    /// let c = ComposedLayout::parse("Sw<2,0,2> o _0 o (_4,_4):(_4,_1)")?;
    /// let r = c.right_inverse()?;
    /// assert_eq!(r.to_string(), "Sw<2,0,-2> o _0 o (_4,_4):(_4,_1)");
    /// for i in 0..16 {
    ///     assert_eq!(c.call(r.call(i)?)?, i);
    /// }
    /// # Ok::<(), tilelayout::algebra::AlgebraError>(())
    /// ```
    ///
    /// # Errors
    /// As [`super::right_inverse`]; [`AlgebraErrorKind::Unsupported`] when
    /// the swizzle's masks do not map to a swizzle (CuTe's static assert
    /// "Something went wrong").
    pub const fn right_inverse(&self) -> Result<SwizzledInverse, AlgebraError> {
        let l = tri!(super::right_inverse(&self.layout));
        self.carry_swizzle(l)
    }

    /// CuTe's `left_inverse(ComposedLayout<Swizzle,…>)`, as
    /// [`ComposedLayout::right_inverse`] with the left inverse of the
    /// inner layout.
    ///
    /// * Post: for all `i < size(self)`, `R(self(i)) == i` when the inner
    ///   layout is injective.
    ///
    /// # Errors
    /// As [`super::left_inverse`] and [`ComposedLayout::right_inverse`].
    pub const fn left_inverse(&self) -> Result<SwizzledInverse, AlgebraError> {
        let l = tri!(super::left_inverse(&self.layout));
        self.carry_swizzle(l)
    }

    const fn carry_swizzle(&self, inv: CuteLayout) -> Result<SwizzledInverse, AlgebraError> {
        if self.offset.is_constant(0) {
            let sw = tri!(swizzle_through(&inv, &self.swizzle));
            return Ok(SwizzledInverse::Composed(ComposedLayout::new(
                sw,
                Int::fixed(0),
                inv,
            )));
        }
        let off = tri!(Int::fixed(0).sub(self.offset));
        Ok(SwizzledInverse::Input(SwizzledInput {
            layout: inv,
            offset: Int {
                value: off.value,
                is_static: self.offset.is_static,
            },
            swizzle: self.swizzle,
        }))
    }
}

/// CuTe's `composition(Layout a, Swizzle b)` for the swizzle part: the
/// swizzle `make_swizzle<a(yyy), a(zzz)>` (NVIDIA/cutlass
/// `include/cute/swizzle_layout.hpp`, `swizzle.hpp`).
const fn swizzle_through(a: &CuteLayout, sw: &Swizzle) -> Result<Swizzle, AlgebraError> {
    if sw.bits == 0 {
        return Ok(*sw);
    }
    // ours: CuTe evaluates the inverse at the masks even past its domain
    // and then returns a layout that is not an inverse
    // (Sw<2,1,2> o _0 o (_2,_8):(_8,_1)); we refuse
    let n = tri!(a.size()).value;
    if sw.yyy_mask() >= n || sw.zzz_mask() >= n {
        return Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
            what: "inverting a swizzle that reads bits past the layout's codomain",
        }));
    }
    let y = tri!(a.call(sw.yyy_mask()));
    let z = tri!(a.call(sw.zzz_mask()));
    if y <= 0 || z <= 0 {
        return Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
            what: "the swizzle's bits do not map to bits through the inverse layout",
        }));
    }
    super::composed::make_swizzle(y, z)
}

/// What inverting a swizzled layout gives (see
/// [`ComposedLayout::right_inverse`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwizzledInverse {
    /// `Sw' o _0 o L'` (a zero offset).
    Composed(ComposedLayout),
    /// `L' o -offset o Sw`.
    Input(SwizzledInput),
}

impl SwizzledInverse {
    /// The index of `i`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn call(&self, i: i64) -> Result<i64, AlgebraError> {
        match self {
            SwizzledInverse::Composed(c) => c.call(i),
            SwizzledInverse::Input(c) => c.call(i),
        }
    }

    /// The size of the domain.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn size(&self) -> Result<Int, AlgebraError> {
        match self {
            SwizzledInverse::Composed(c) => c.size(),
            SwizzledInverse::Input(c) => c.size(),
        }
    }
}

impl core::fmt::Display for SwizzledInverse {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SwizzledInverse::Composed(c) => c.fmt(f),
            SwizzledInverse::Input(c) => c.fmt(f),
        }
    }
}

//! `upcast` and `downcast`: the same memory seen as elements `n` times
//! wider or narrower (NVIDIA/cutlass `include/cute/layout.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4).

use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::layout::CuteLayout;
use super::tuple::{tri, IntTuple};

/// Rebuilds `layout` with each integer mode `(s, d)` mapped by `f`,
/// keeping the nesting (CuTe's `transform_layout` on shape and stride).
const fn map_modes(layout: &CuteLayout, n: Int, up: bool) -> Result<CuteLayout, AlgebraError> {
    let mut shape = *layout.shape();
    let mut stride = *layout.stride();
    let k_max = shape.leaf_count();
    let mut k = 0;
    while k < k_max {
        let (s, d) = layout.leaf_mode(k);
        let (s2, d2) = if up {
            tri!(upcast_mode(k, s, d, n))
        } else {
            tri!(downcast_mode(s, d, n))
        };
        shape = shape.with_leaf(k, s2);
        stride = stride.with_leaf(k, d2);
        k += 1;
    }
    CuteLayout::new(shape, stride)
}

const fn upcast_mode(k: usize, s: Int, d: Int, n: Int) -> Result<(Int, Int), AlgebraError> {
    if d.is_constant(0) {
        return Ok((s, d));
    }
    if d.is_static {
        let ad = tri!(d.abs());
        if ad.value % n.value != 0 && n.value % ad.value != 0 {
            return Err(AlgebraError::new(AlgebraErrorKind::CastDivisibility {
                mode: k as u32,
                stride: d.value,
                factor: n.value,
            }));
        }
        let shape = tri!(s.ceil_div(tri!(n.ceil_div(ad))));
        let stride = tri!(d.signum().mul(tri!(ad.ceil_div(n))));
        return Ok((shape, stride));
    }
    // ours: CuTe assumes a dynamic stride is a multiple of n; we check it
    if d.value % n.value != 0 {
        return Err(AlgebraError::new(AlgebraErrorKind::CastDivisibility {
            mode: k as u32,
            stride: d.value,
            factor: n.value,
        }));
    }
    Ok((s, tri!(d.div(n))))
}

const fn downcast_mode(s: Int, d: Int, n: Int) -> Result<(Int, Int), AlgebraError> {
    if d.is_constant(1) || d.is_constant(-1) {
        Ok((tri!(s.mul(n)), d))
    } else {
        Ok((s, tri!(d.mul(n))))
    }
}

/// CuTe's `upcast<n>(layout)`: the layout over elements `n` times wider.
/// A static stride-`d` mode with `d < n` shrinks its shape by `n / d`
/// and gets stride ±1; every other stride is divided by `n`.
///
/// * Pre: each static stride and `n` divide one another (CuTe's
///   static assert); each dynamic stride is a multiple of `n` (CuTe
///   assumes it; checked here).
///
/// # Examples
/// ```
/// use tilelayout::algebra::{upcast, CuteLayout};
/// // 16 bf16 in a row of 8 x u32
/// let l = CuteLayout::parse("(_4,_16):(_16,_1)")?;
/// assert_eq!(upcast(&l, 2)?.to_text().as_str(), "(_4,_8):(_8,_1)");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// [`AlgebraErrorKind::CastDivisibility`] naming the mode;
/// [`AlgebraErrorKind::DivisionByZero`] for `n < 1`.
pub const fn upcast(layout: &CuteLayout, n: i64) -> Result<CuteLayout, AlgebraError> {
    if n < 1 {
        return Err(AlgebraError::new(AlgebraErrorKind::DivisionByZero));
    }
    map_modes(layout, Int::fixed(n), true)
}

/// Whether some stride integer is the static `_1`.
const fn has_int1(stride: &IntTuple) -> bool {
    let mut k = 0;
    while k < stride.leaf_count() {
        if let Some(d) = stride.leaf(k) {
            if d.is_constant(1) {
                return true;
            }
        }
        k += 1;
    }
    false
}

/// CuTe's `downcast<n>(layout)`: the layout over elements `n` times
/// narrower. The stride-±1 modes grow their shape by `n`; every other
/// stride is multiplied by `n`.
///
/// * Pre: some stride is a static `_1` (CuTe: "Downcast requires
///   adjacent elements").
///
/// # Examples
/// ```
/// use tilelayout::algebra::{downcast, CuteLayout};
/// let l = CuteLayout::parse("(_4,_8):(_8,_1)")?;
/// assert_eq!(downcast(&l, 2)?.to_text().as_str(), "(_4,_16):(_16,_1)");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// [`AlgebraErrorKind::NotAdjacent`]; [`AlgebraErrorKind::DivisionByZero`]
/// for `n < 1`; overflow.
pub const fn downcast(layout: &CuteLayout, n: i64) -> Result<CuteLayout, AlgebraError> {
    if n < 1 {
        return Err(AlgebraError::new(AlgebraErrorKind::DivisionByZero));
    }
    if !has_int1(layout.stride()) {
        return Err(AlgebraError::new(AlgebraErrorKind::NotAdjacent));
    }
    map_modes(layout, Int::fixed(n), false)
}

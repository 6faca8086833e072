//! `coalesce` and `filter`: simplify a layout without changing it as a
//! function on its domain (NVIDIA/cutlass `include/cute/layout.hpp`,
//! `bw_coalesce`, `coalesce`, `filter_zeros`, `filter`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4).
//!
//! CuTe's rules, applied from the last mode to the first (`front` is the
//! front of the result so far, `s:d` the next mode):
//!
//! ```text
//! front        s:d        →
//! s0:d0        _1:d1      skip the mode (a static 1)
//! _1:d0        s1:d1      replace the front with s1:d1
//! s0:s1*d1     s1:d1      merge into s1*s0:d1 (static shapes and strides)
//! s0:d0        s1:d1      prepend s1:d1
//! ```

use super::error::AlgebraError;
use super::int::Int;
use super::layout::CuteLayout;
use super::tuple::{tri, IntTuple};

/// CuTe's `bw_coalesce` over the flattened modes, starting from
/// `init_shape:init_stride` as the front.
const fn bw_coalesce(
    flat: &CuteLayout,
    init_shape: Int,
    init_stride: Int,
) -> Result<CuteLayout, AlgebraError> {
    let n = flat.shape().leaf_count();
    // the result, kept reversed (front last) while folding
    let mut rs = [Int::fixed(0); super::MAX_NODES];
    let mut rd = [Int::fixed(0); super::MAX_NODES];
    rs[0] = init_shape;
    rd[0] = init_stride;
    let mut len = 1;
    let mut i = n.saturating_sub(1);
    while i > 0 {
        i -= 1;
        let (s, d) = flat.leaf_mode(i);
        let fs = rs[len - 1];
        let fd = rd[len - 1];
        if s.is_constant(1) {
            // skip
        } else if len == 1 && fs.is_constant(1) {
            rs[0] = s;
            rd[0] = d;
        } else if fs.is_static && {
            let p = tri!(s.mul(d));
            p.is_static && fd.is_static && p.value == fd.value
        } {
            rs[len - 1] = tri!(s.mul(fs));
            rd[len - 1] = d;
        } else {
            rs[len] = s;
            rd[len] = d;
            len += 1;
        }
    }
    if len == 1 {
        if rs[0].is_constant(1) {
            return Ok(CuteLayout::TRIVIAL);
        }
        return CuteLayout::new(IntTuple::int(rs[0]), IntTuple::int(rd[0]));
    }
    let mut shape = IntTuple::EMPTY;
    let mut stride = IntTuple::EMPTY;
    let mut k = len;
    while k > 0 {
        k -= 1;
        tri!(shape.push_int_in(rs[k]));
        tri!(stride.push_int_in(rd[k]));
    }
    CuteLayout::new(shape, stride)
}

/// CuTe's `coalesce(layout)`: flattens the layout and merges modes that
/// are one contiguous run, keeping the function on its domain.
///
/// * Post 1: `size(result) == size(layout)`.
/// * Post 2: `depth(result) <= 1`.
/// * Post 3: for all `0 <= i < size(layout)`, `layout(i) == result(i)`.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{coalesce, CuteLayout};
/// let l = CuteLayout::parse("(_2,(_1,_6)):(_1,(_6,_2))")?;
/// assert_eq!(coalesce(&l)?.to_text().as_str(), "_12:_1");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// [`super::AlgebraErrorKind::Overflow`].
pub const fn coalesce(layout: &CuteLayout) -> Result<CuteLayout, AlgebraError> {
    let flat = layout.flatten();
    let n = flat.shape().leaf_count();
    if n == 0 {
        // ours: CuTe does not compile coalesce of an empty layout
        return Ok(CuteLayout::TRIVIAL);
    }
    let (s, d) = flat.leaf_mode(n - 1);
    bw_coalesce(&flat, s, d)
}

/// CuTe's `detail::coalesce_x`: like [`coalesce`] but also keeps the
/// function outside the domain (a trailing static 1 becomes `_2`, as in
/// CuTe), used as composition's left operand.
pub(crate) const fn coalesce_x(layout: &CuteLayout) -> Result<CuteLayout, AlgebraError> {
    let flat = layout.flatten();
    let n = flat.shape().leaf_count();
    if n == 0 {
        return Ok(CuteLayout::TRIVIAL);
    }
    let (s, d) = flat.leaf_mode(n - 1);
    if s.is_constant(1) {
        bw_coalesce(&flat, Int::fixed(2), d)
    } else {
        bw_coalesce(&flat, s, d)
    }
}

/// CuTe's `coalesce(layout, trg_profile)`: coalesces each mode of the
/// layout at the terminals of the profile (e.g. `(_1,_1)` coalesces modes
/// 0 and 1 separately and keeps the rank; an integer profile coalesces
/// the whole layout). Modes past the profile's rank are kept as they are.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{coalesce_by, IntTuple, CuteLayout};
/// // From CuTe's 02_layout_algebra.md
/// let l = CuteLayout::parse("(_2,(_1,_6)):(_1,(_6,_2))")?;
/// let p = IntTuple::parse("(_1,_1)")?;
/// assert_eq!(coalesce_by(&l, &p)?.to_text().as_str(), "(_2,_6):(_1,_2)");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// [`super::AlgebraErrorKind::RankMismatch`] when the profile has more
/// modes than the layout; overflow.
pub const fn coalesce_by(
    layout: &CuteLayout,
    profile: &IntTuple,
) -> Result<CuteLayout, AlgebraError> {
    if profile.is_int() {
        return coalesce(layout);
    }
    let r = layout.rank();
    let pr = profile.rank();
    if pr > r {
        return Err(AlgebraError::new(super::AlgebraErrorKind::RankMismatch {
            expected: r as u32,
            found: pr as u32,
        }));
    }
    let mut out = CuteLayout::EMPTY;
    let mut i = 0;
    while i < r {
        let m = tri!(layout.mode(i));
        let m = if i < pr {
            tri!(coalesce_by(&m, &tri!(profile.mode(i))))
        } else {
            m
        };
        tri!(out.append_in(&m));
        i += 1;
    }
    Ok(out)
}

/// CuTe's `filter_zeros(layout)`: every mode with a static-0 stride gets
/// shape `_1`.
pub const fn filter_zeros(layout: &CuteLayout) -> CuteLayout {
    let mut shape = *layout.shape();
    let n = shape.leaf_count();
    let mut k = 0;
    while k < n {
        let (_, d) = layout.leaf_mode(k);
        if d.is_constant(0) {
            shape = shape.with_leaf(k, Int::fixed(1));
        }
        k += 1;
    }
    CuteLayout::from_parts(shape, *layout.stride())
}

/// CuTe's `filter(layout)`: removes the static-0 strides and the size-1
/// modes, then coalesces (`_1:_0` if nothing is left).
///
/// # Examples
/// ```
/// use tilelayout::algebra::{filter, CuteLayout};
/// let l = CuteLayout::parse("(_4,_2,_3):(_1,_0,_4)")?;
/// assert_eq!(filter(&l)?.to_text().as_str(), "_12:_1");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// Overflow.
pub const fn filter(layout: &CuteLayout) -> Result<CuteLayout, AlgebraError> {
    coalesce(&filter_zeros(layout))
}

/// CuTe's `coalesce(shape)`: flattens a shape and multiplies neighbouring
/// integers of the same binding time (`(_2,_4,3,5,_2)` → `(_8,15,_2)`).
///
/// # Errors
/// Overflow, capacity.
pub const fn coalesce_shape(shape: &IntTuple) -> Result<IntTuple, AlgebraError> {
    let flat = shape.flatten();
    if flat.is_int() {
        return Ok(flat);
    }
    let n = flat.leaf_count();
    if n == 0 {
        return Ok(flat);
    }
    let mut vals = [Int::fixed(0); super::MAX_NODES];
    let mut len = 0;
    let mut k = 0;
    while k < n {
        let a = match flat.leaf(k) {
            Some(a) => a,
            None => Int::fixed(1),
        };
        if len > 0 && vals[len - 1].is_static == a.is_static {
            vals[len - 1] = tri!(vals[len - 1].mul(a));
        } else {
            vals[len] = a;
            len += 1;
        }
        k += 1;
    }
    if len == 1 {
        // CuTe's fold_first leaves a single integer unwrapped
        return Ok(IntTuple::int(vals[0]));
    }
    let mut out = IntTuple::EMPTY;
    let mut j = 0;
    while j < len {
        tri!(out.push_int_in(vals[j]));
        j += 1;
    }
    Ok(out)
}

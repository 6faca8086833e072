//! `complement`: the layout of the "rest", the ordered layout whose image
//! fills the holes of a layout and repeats it up to a cotarget
//! (NVIDIA/cutlass `include/cute/layout.hpp`, `detail::complement`,
//! commit 7107b05535f8977f5ecb9d01ee203205b1fd9bc4).

use super::coalesce::{coalesce, coalesce_shape, filter};
use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::layout::{compact_left, CuteLayout};
use super::tuple::{tri, IntTuple};
use super::MAX_NODES;

/// CuTe's `ceil_div(cotarget, n)` for a shape and an integer: folds the
/// division across the modes (`ceil_div((4,5,6), 40)` is `(1,1,3)`).
pub(crate) const fn ceil_div_shape(a: &IntTuple, b: Int) -> Result<IntTuple, AlgebraError> {
    if let Some(x) = a.as_int() {
        return Ok(IntTuple::int(tri!(x.ceil_div(b))));
    }
    let mut out = IntTuple::EMPTY;
    let mut rest = b;
    let mut i = 0;
    while i < a.rank() {
        let m = tri!(a.mode(i));
        let ai = tri!(m.size());
        let q = if m.is_int() {
            IntTuple::int(tri!(ai.ceil_div(rest)))
        } else {
            tri!(ceil_div_shape(&m, rest))
        };
        tri!(out.push_in(&q));
        rest = tri!(rest.ceil_div(ai));
        i += 1;
    }
    Ok(out)
}

/// The shape of the rest mode: the repetitions of a layout spanning
/// `span` (its inner modes' cosize) needed to reach `size(cotarget)`.
///
/// CuTe takes `coalesce(ceil_div(cotarget, span))`, folding the division
/// across the cotarget's modes. When the cotarget stays a tuple (e.g. the
/// shape `(_8,_2)` of `coalesce((_8,_2):(1,_8))`, whose dynamic stride
/// blocks the merge) and `span` neither divides nor is a multiple of the
/// leading extents, that fold undercounts: `ceil_div((_8,_2), _12)` is
/// `(_1,_1)` where 16 elements need 2 repetitions, and the complement
/// stops covering the cotarget. CuTe returns that short layout; here the
/// fold's shape is kept when it covers and replaced by the plain
/// `ceil_div(size(cotarget), span)` when it does not (what CuTe computes
/// for the same layout with static strides, whose cotarget coalesces to
/// one integer).
const fn rest_shape(cotarget: &IntTuple, span: Int) -> Result<IntTuple, AlgebraError> {
    let folded = tri!(coalesce_shape(&tri!(ceil_div_shape(cotarget, span))));
    let need = tri!(cotarget.size());
    let reach = tri!(tri!(folded.size()).mul(span));
    if reach.value >= need.value {
        return Ok(folded);
    }
    Ok(IntTuple::int(tri!(need.ceil_div(span))))
}

/// CuTe's `complement(layout, cotarget)`: the layout `R` of the
/// repetitions of `layout` within `size(cotarget)`.
///
/// * Pre: the (filtered) layout is injective with positive strides; a
///   layout of rank > 1 after filtering has static strides (CuTe's
///   static assert "Dynamic-stride complement only for rank-1 layouts").
/// * Post 1: `cosize(make_layout(layout, R)) >= size(cotarget)`.
/// * Post 2: `cosize(R) >= round_up(size(cotarget), cosize(layout))`.
/// * Post 3: for all `1 <= i < size(R)`, `R(i-1) < R(i)` (ordered).
/// * Post 4: for all `1 <= i < size(R)` and `j < size(layout)`,
///   `R(i) != layout(j)` (disjoint).
///
/// # Examples
/// From CuTe's `02_layout_algebra.md`:
/// ```
/// use tilelayout::algebra::{complement, IntTuple, CuteLayout};
/// let c = |l: &str| complement(&CuteLayout::parse(l)?, &IntTuple::fixed(24));
/// assert_eq!(c("_4:_1")?.to_text().as_str(), "_6:_4");
/// assert_eq!(c("_6:_4")?.to_text().as_str(), "_4:_1");
/// assert_eq!(c("(_4,_6):(_1,_4)")?.to_text().as_str(), "_1:_0");
/// assert_eq!(c("_4:_2")?.to_text().as_str(), "(_2,_3):(_1,_8)");
/// assert_eq!(c("(_2,_4):(_1,_6)")?.to_text().as_str(), "_3:_2");
/// assert_eq!(c("(_2,_2):(_1,_6)")?.to_text().as_str(), "(_3,_2):(_2,_12)");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// [`AlgebraErrorKind::NonInjective`] naming the mode of the filtered
/// layout; [`AlgebraErrorKind::Unsupported`] for negative strides or
/// dynamic strides at rank > 1; overflow.
pub const fn complement(
    layout: &CuteLayout,
    cotarget: &IntTuple,
) -> Result<CuteLayout, AlgebraError> {
    let f = tri!(filter(layout));
    complement_filtered(&f, cotarget)
}

/// CuTe's `complement(layout)`: the complement within the layout's own
/// cosize (after filtering).
///
/// # Errors
/// As [`complement`].
pub const fn complement_self(layout: &CuteLayout) -> Result<CuteLayout, AlgebraError> {
    let f = tri!(filter(layout));
    let c = tri!(f.cosize());
    complement_filtered(&f, &IntTuple::int(c))
}

const fn complement_filtered(
    f: &CuteLayout,
    cotarget: &IntTuple,
) -> Result<CuteLayout, AlgebraError> {
    let r = f.shape().leaf_count();
    if let Some(d) = f.stride().as_int() {
        if d.is_constant(0) {
            // irreducible rank-1 stride-0 layout
            return CuteLayout::column_major(tri!(coalesce_shape(cotarget)));
        }
    }
    let mut shape = [Int::fixed(0); MAX_NODES];
    let mut stride = [Int::fixed(0); MAX_NODES];
    let mut k = 0;
    while k < r {
        let (s, d) = f.leaf_mode(k);
        if d.value < 0 {
            return Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
                what: "complement of a layout with negative strides",
            }));
        }
        if r > 1 && !d.is_static {
            return Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
                what:
                    "complement of a layout with dynamic strides and rank > 1 (CuTe refuses it too)",
            }));
        }
        shape[k] = s;
        stride[k] = d;
        k += 1;
    }
    let mut res_s = [Int::fixed(0); MAX_NODES];
    let mut res_d = [Int::fixed(0); MAX_NODES];
    res_d[0] = Int::fixed(1);
    let mut len = r; // modes still in shape/stride
    let mut i = 0;
    while i + 1 < r {
        // the first smallest stride
        let mut min_idx = 0;
        let mut j = 1;
        while j < len {
            if stride[j].value < stride[min_idx].value {
                min_idx = j;
            }
            j += 1;
        }
        // CuTe's min over a tuple is static only if every element is
        let mut min_stride = stride[0];
        let mut j = 1;
        while j < len {
            min_stride = min_stride.min(stride[j]);
            j += 1;
        }
        let new_shape = tri!(min_stride.div(res_d[i]));
        if new_shape.value == 0 {
            return Err(AlgebraError::new(AlgebraErrorKind::NonInjective {
                mode: min_idx as u32,
            }));
        }
        let new_stride = tri!(min_stride.mul(shape[min_idx]));
        // remove min_idx
        let mut j = min_idx;
        while j + 1 < len {
            shape[j] = shape[j + 1];
            stride[j] = stride[j + 1];
            j += 1;
        }
        len -= 1;
        res_s[i] = new_shape;
        res_d[i + 1] = new_stride;
        i += 1;
    }
    // the last mode
    let new_shape = tri!(stride[0].div(res_d[r - 1]));
    if new_shape.value == 0 {
        return Err(AlgebraError::new(AlgebraErrorKind::NonInjective {
            mode: 0,
        }));
    }
    res_s[r - 1] = new_shape;
    let new_stride = tri!(stride[0].mul(shape[0]));
    let rest_shape = tri!(rest_shape(cotarget, new_stride));
    let (rest_stride, _) = tri!(compact_left(&rest_shape, new_stride));
    let mut rs = IntTuple::EMPTY;
    let mut rd = IntTuple::EMPTY;
    let mut k = 0;
    while k < r {
        tri!(rs.push_int_in(res_s[k]));
        tri!(rd.push_int_in(res_d[k]));
        k += 1;
    }
    let s = tri!(IntTuple::tuple(&[rs, rest_shape]));
    let d = tri!(IntTuple::tuple(&[rd, rest_stride]));
    let l = tri!(CuteLayout::new(s, d));
    coalesce(&l)
}

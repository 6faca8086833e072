//! Inverses and common vectors: `right_inverse`, `left_inverse`,
//! `max_common_layout`, `max_common_vector` (NVIDIA/cutlass
//! `include/cute/layout.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4).

use super::coalesce::coalesce;
use super::composition::{composition, cute_accepts};
use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::layout::CuteLayout;
use super::tuple::{tri, IntTuple};
use super::MAX_NODES;

/// The coalesced layout's modes with the exclusive prefix products of the
/// shape, and the mode order sorted by stride (stable).
struct Sorted {
    shape: [Int; MAX_NODES],
    stride: [Int; MAX_NODES],
    preprod: [Int; MAX_NODES],
    order: [usize; MAX_NODES],
    n: usize,
}

const fn sorted_modes(layout: &CuteLayout, only_static: bool) -> Result<Sorted, AlgebraError> {
    let c = tri!(coalesce(layout));
    let n = c.shape().leaf_count();
    let mut st = Sorted {
        shape: [Int::fixed(0); MAX_NODES],
        stride: [Int::fixed(0); MAX_NODES],
        preprod: [Int::fixed(1); MAX_NODES],
        order: [0; MAX_NODES],
        n: 0,
    };
    let mut k = 0;
    let mut p = Int::fixed(1);
    while k < n {
        let (s, d) = c.leaf_mode(k);
        st.shape[k] = s;
        st.stride[k] = d;
        st.preprod[k] = p;
        p = tri!(p.mul(s));
        if !only_static || d.is_static {
            st.order[st.n] = k;
            st.n += 1;
        }
        k += 1;
    }
    // stable insertion sort of `order` by stride value
    let mut i = 1;
    while i < st.n {
        let mut j = i;
        while j > 0 && st.stride[st.order[j - 1]].value > st.stride[st.order[j]].value {
            let t = st.order[j - 1];
            st.order[j - 1] = st.order[j];
            st.order[j] = t;
            j -= 1;
        }
        i += 1;
    }
    Ok(st)
}

/// CuTe's `right_inverse(layout)`: a layout `R` with `layout(R(i)) == i`
/// for all `i < size(R)`, as large as the layout's static strides allow
/// (dynamic strides are left out, as in CuTe).
///
/// * Post: for all `i < size(R)`, `layout(R(i)) == i`.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{right_inverse, CuteLayout};
/// let l = CuteLayout::parse("(_4,_2):(_2,_1)")?;
/// assert_eq!(right_inverse(&l)?.to_text().as_str(), "(_2,_4):(_4,_1)");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// Overflow.
pub const fn right_inverse(layout: &CuteLayout) -> Result<CuteLayout, AlgebraError> {
    let st = tri!(sorted_modes(layout, true));
    let mut rs = tri!(IntTuple::EMPTY.push_int(Int::fixed(1)));
    let mut rd = tri!(IntTuple::EMPTY.push_int(Int::fixed(0)));
    let mut curr = Int::fixed(1);
    let mut k = 0;
    while k < st.n {
        let i = st.order[k];
        let istride = st.stride[i];
        if curr.is_static && istride.value == curr.value {
            tri!(rs.push_int_in(st.shape[i]));
            tri!(rd.push_int_in(st.preprod[i]));
            curr = tri!(st.shape[i].mul(istride));
        }
        k += 1;
    }
    coalesce(&tri!(CuteLayout::new(rs, rd)))
}

/// CuTe's `left_inverse(layout)`: a layout `L` with `L(layout(i)) == i`
/// for all `i < size(layout)` when the layout is injective.
///
/// * Pre: static strides (CuTe: "Left inverse requires static strides"),
///   non-negative (ours), and each stride divisible by the size of the
///   modes before it in stride order (CuTe's "Left inverse divisibility
///   condition"), always checked.
/// * Post: for all `i < size(layout)`, `layout(L(layout(i))) == layout(i)`.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{left_inverse, CuteLayout};
/// let l = CuteLayout::parse("(_4,_2):(_2,_1)")?;
/// assert_eq!(left_inverse(&l)?.to_text().as_str(), "(_2,_4):(_4,_1)");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// [`AlgebraErrorKind::NonInjective`] when the divisibility fails;
/// [`AlgebraErrorKind::Unsupported`] for dynamic or negative strides.
pub const fn left_inverse(layout: &CuteLayout) -> Result<CuteLayout, AlgebraError> {
    let st = tri!(sorted_modes(layout, false));
    let mut k = 0;
    while k < st.n {
        let d = st.stride[k];
        if !d.is_static {
            return Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
                what: "left_inverse of a layout with dynamic strides (CuTe refuses it too)",
            }));
        }
        if d.value < 0 {
            return Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
                what: "left_inverse of a layout with negative strides",
            }));
        }
        k += 1;
    }
    let mut rs = IntTuple::EMPTY;
    let mut rd = tri!(IntTuple::EMPTY.push_int(Int::fixed(0)));
    let mut size = Int::fixed(1);
    let mut k = 0;
    while k < st.n {
        let i = st.order[k];
        let istride = st.stride[i];
        if !istride.is_constant(0) {
            if istride.value % size.value != 0 {
                return Err(AlgebraError::new(AlgebraErrorKind::NonInjective {
                    mode: i as u32,
                }));
            }
            let s = tri!(istride.div(size));
            tri!(rs.push_int_in(s));
            tri!(rd.push_int_in(st.preprod[i]));
            size = tri!(size.mul(s));
        }
        k += 1;
    }
    let last = if st.n > 0 {
        st.shape[st.order[st.n - 1]]
    } else {
        Int::fixed(1)
    };
    // ours: CuTe takes the last mode in stride order as the final extent;
    // a (dynamic) size-1 mode tied there gives a layout that is not a
    // left inverse (`(_1,(_16),(1)):(1,(_1),(_1))` gives `1:_16`)
    if last.value == 1 && st.n > 1 {
        let mut k = 0;
        while k + 1 < st.n {
            let i = st.order[k];
            if st.shape[i].value > 1 && st.stride[i].value != 0 {
                return Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
                    what: "left_inverse when a size-1 mode sorts last by stride (CuTe's result is wrong)",
                }));
            }
            k += 1;
        }
    }
    tri!(rs.push_int_in(last));
    coalesce(&tri!(CuteLayout::new(rs, rd)))
}

/// The common layout of `a` and `right_inverse(b)`, coalesced, and
/// whether its first mode is a static stride-1 vector.
///
/// Ours: when `a ∘ b⁻¹` fails only our stricter conditions (CuTe's weak
/// ones pass, CuTe composes and gets a wrong layout whose first mode is
/// not a stride-1 vector), only the first element is known to
/// correspond: `(_, _1:_0, false)`, which is what CuTe answers then. The
/// same when CuTe's own divisibility conditions fail on dynamic values
/// (CuTe does not check them then); where CuTe asserts them (static
/// values) they are errors, as in CuTe.
const fn common(
    a: &CuteLayout,
    b: &CuteLayout,
) -> Result<(CuteLayout, CuteLayout, bool), AlgebraError> {
    let inv_b = tri!(right_inverse(b));
    let ab = match composition(a, &inv_b) {
        Ok(l) => l,
        Err(e) => match e.kind {
            AlgebraErrorKind::StrideDivisibility { .. }
            | AlgebraErrorKind::StrideWraps { .. }
            | AlgebraErrorKind::ShapeDivisibility { .. }
            | AlgebraErrorKind::ModesCarry { .. } => {
                // CuTe's verdict: its static assert, or a layout whose
                // first mode is not the identity
                tri!(cute_accepts(a, &inv_b));
                return Ok((inv_b, CuteLayout::TRIVIAL, false));
            }
            _ => return Err(e),
        },
    };
    let c = tri!(coalesce(&ab));
    let m0 = tri!(c.mode(0));
    let ok = match (m0.shape().as_int(), m0.stride().as_int()) {
        (Some(s), Some(d)) => s.is_static && d.is_constant(1),
        _ => false,
    };
    Ok((inv_b, m0, ok))
}

/// CuTe's `max_common_vector(a, b)`: the largest `N` such that the first
/// `N` elements of `b`'s codomain are contiguous and in the same order in
/// `a` (static, as in CuTe; `_1` when nothing is known).
///
/// * Post: for all `0 <= n < N`, `a(b⁻¹(n)) == n`.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{max_common_vector, CuteLayout};
/// let a = CuteLayout::parse("(_4,_8):(_1,_4)")?;
/// let b = CuteLayout::parse("(_4,_8):(_1,_4)")?;
/// assert_eq!(max_common_vector(&a, &b)?.value, 32);
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// CuTe's divisibility conditions on `a ∘ right_inverse(b)`; overflow.
pub const fn max_common_vector(a: &CuteLayout, b: &CuteLayout) -> Result<Int, AlgebraError> {
    let (_, m0, ok) = tri!(common(a, b));
    if ok {
        match m0.shape().as_int() {
            Some(s) => Ok(s),
            None => Ok(Int::fixed(1)),
        }
    } else {
        Ok(Int::fixed(1))
    }
}

/// CuTe's `max_common_layout(a, b)`: the layout `R` of the elements that
/// correspond contiguously in `a` and `b` (`_1:_0` when none do).
///
/// * Post: for all `0 <= i < size(R)`, `a(R(i)) == i` and `b(R(i)) == i`.
///
/// # Errors
/// As [`max_common_vector`].
pub const fn max_common_layout(a: &CuteLayout, b: &CuteLayout) -> Result<CuteLayout, AlgebraError> {
    let (inv_b, m0, ok) = tri!(common(a, b));
    if ok {
        composition(&inv_b, &m0)
    } else {
        Ok(CuteLayout::TRIVIAL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_inverse_refuses_dynamic_strides() {
        let l = CuteLayout::parse("(4,2):(2,1)").unwrap();
        assert!(matches!(
            left_inverse(&l).unwrap_err().kind,
            AlgebraErrorKind::Unsupported { .. }
        ));
    }
}

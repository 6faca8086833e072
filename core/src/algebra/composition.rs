//! `composition`: `(A ∘ B)(c) = A(B(c))` (NVIDIA/cutlass
//! `include/cute/layout.hpp`, `composition_impl`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4).
//!
//! CuTe distributes over the right operand's modes, then for an integer
//! mode `s:d` walks the flattened left operand: each left mode `m_i` of
//! shape `S_i` consumes the right stride (`ceil(S_i / d)` elements of it
//! are reached, the stride left over is `ceil(d / S_i)`) and the right
//! shape (`min(ceil(S_i/d), s)` of it is placed in mode `i`, the rest
//! `s / that` goes on). Two divisibility conditions make this exact:
//! the *stride* condition (`d % S_i == 0` or `d < S_i`) and the *shape*
//! condition (`s % min(…) == 0`). CuTe checks them only when both sides
//! are static (its issue #3513: a dynamic tiler silently shrinks a layout);
//! here they are always checked and a failure names the left mode. Ours,
//! beyond CuTe: the stride condition in its strong form whenever the
//! selection wraps past a mode (`d < S_i` needs `S_i % d == 0` then), the
//! form CuTe keeps commented out; without it CuTe returns layouts that
//! are not `A ∘ B` even for static operands.

use super::coalesce::coalesce_x;
use super::error::{in_mode, AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::layout::CuteLayout;
use super::tiler::Tiler;
use super::tuple::{tri, IntTuple};
use super::MAX_NODES;

/// `composition_impl` for a flat left operand `ls:ld` (an integer or a
/// flat tuple) and a right operand `rs:rd`.
///
/// `strict`: check every condition on values (ours); otherwise only what
/// CuTe asserts (its weak conditions, when both operands are static).
const fn composition_impl(
    ls: &IntTuple,
    ld: &IntTuple,
    rs: &IntTuple,
    rd: &IntTuple,
    strict: bool,
) -> Result<CuteLayout, AlgebraError> {
    if !rs.is_int() {
        // right-distributivity over the right operand's modes
        let mut out = CuteLayout::EMPTY;
        let mut i = 0;
        while i < rs.rank() {
            let m = tri!(in_mode(
                composition_impl(ls, ld, &tri!(rs.mode(i)), &tri!(rd.mode(i)), strict),
                i
            ));
            tri!(out.append_in(&m));
            i += 1;
        }
        return Ok(out);
    }
    let (rshape, rstride) = match (rs.as_int(), rd.as_int()) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err(AlgebraError::new(AlgebraErrorKind::NotCongruent)),
    };
    // a static-0 stride: the result is the right operand; ours: a dynamic
    // 0 too (CuTe would divide by it)
    if rstride.value == 0 {
        return CuteLayout::new(*rs, *rd);
    }
    if let Some(d) = ld.as_int() {
        return CuteLayout::new(*rs, IntTuple::int(tri!(rstride.mul(d))));
    }
    let r = ls.rank();
    if r == 0 {
        return Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
            what: "composition with an empty left layout",
        }));
    }
    let mut res_s = [Int::fixed(0); MAX_NODES];
    let mut res_d = [Int::fixed(0); MAX_NODES];
    let mut n = 0;
    let mut rest_shape = rshape;
    let mut rest_stride = rstride;
    let mut i = 0;
    while i + 1 < r {
        let cs = match ls.leaf(i) {
            Some(v) => v,
            None => Int::fixed(1),
        };
        let cd = match ld.leaf(i) {
            Some(v) => v,
            None => Int::fixed(0),
        };
        // stride divisibility: rest_stride % cs == 0 or rest_stride < cs
        let ok = rest_stride.value < cs.value || rest_stride.value % cs.value == 0;
        if !ok && (strict || (cs.is_static && rest_stride.is_static)) {
            return Err(AlgebraError::new(AlgebraErrorKind::StrideDivisibility {
                mode: i as u32,
                shape: cs.value,
                stride: rest_stride.value,
            }));
        }
        let abs_stride = tri!(rest_stride.abs());
        let next_shape = tri!(cs.ceil_div(abs_stride));
        let next_stride = tri!(tri!(abs_stride.ceil_div(cs)).mul(rest_stride.signum()));
        if next_shape.is_constant(1) || rest_shape.is_constant(1) {
            rest_stride = next_stride;
        } else {
            let new_shape = next_shape.min(rest_shape);
            // ours, CuTe's "strong" stride condition (commented out in
            // layout.hpp): a stride below the mode that does not divide it
            // must not wrap past the mode, or the result is not A o B
            // (CuTe returns (_2,_2):(_16,_1) for (_6,_4):(_4,_1) o _4:_4)
            if strict
                && abs_stride.value < cs.value
                && cs.value % abs_stride.value != 0
                && new_shape.value < rest_shape.value
            {
                return Err(AlgebraError::new(AlgebraErrorKind::StrideWraps {
                    mode: i as u32,
                    shape: cs.value,
                    stride: rest_stride.value,
                }));
            }
            // shape divisibility: rest_shape % new_shape == 0
            if rest_shape.value % new_shape.value != 0
                && (strict || (new_shape.is_static && rest_shape.is_static))
            {
                return Err(AlgebraError::new(AlgebraErrorKind::ShapeDivisibility {
                    mode: i as u32,
                    shape: rest_shape.value,
                    divisor: new_shape.value,
                }));
            }
            res_s[n] = new_shape;
            res_d[n] = tri!(rest_stride.mul(cd));
            n += 1;
            rest_shape = tri!(rest_shape.div(new_shape));
            rest_stride = next_stride;
        }
        i += 1;
    }
    let last_d = match ld.leaf(r - 1) {
        Some(v) => v,
        None => Int::fixed(0),
    };
    if n == 0 {
        return CuteLayout::new(
            IntTuple::int(rest_shape),
            IntTuple::int(tri!(rest_stride.mul(last_d))),
        );
    }
    if rest_shape.is_constant(1) {
        if n == 1 {
            return CuteLayout::new(IntTuple::int(res_s[0]), IntTuple::int(res_d[0]));
        }
    } else {
        res_s[n] = rest_shape;
        res_d[n] = tri!(rest_stride.mul(last_d));
        n += 1;
    }
    let mut s = IntTuple::EMPTY;
    let mut d = IntTuple::EMPTY;
    let mut k = 0;
    while k < n {
        tri!(s.push_int_in(res_s[k]));
        tri!(d.push_int_in(res_d[k]));
        k += 1;
    }
    CuteLayout::new(s, d)
}

/// CuTe's `composition(lhs, rhs)` of two layouts: `result(c) ==
/// lhs(rhs(c))` for every coordinate `c` of `rhs`.
///
/// * Pre 1 (stride divisibility) and Pre 2 (shape divisibility), see the
///   module docs; always checked.
/// * Post 1: `compatible(rhs, result)` (the result has `rhs`'s modes).
/// * Post 2: for all `c` in the domain of `rhs`, `result(c) == lhs(rhs(c))`.
///
/// # Examples
/// From CuTe's `02_layout_algebra.md` (static, then dynamic: CuTe keeps
/// dynamic size-1 modes it cannot prove are 1):
/// ```
/// use tilelayout::algebra::{composition, CuteLayout};
/// let a = CuteLayout::parse("(_10,_2):(_16,_4)")?;
/// let b = CuteLayout::parse("(_5,_4):(_1,_5)")?;
/// assert_eq!(composition(&a, &b)?.to_text().as_str(), "(_5,(_2,_2)):(_16,(_80,_4))");
/// let a = CuteLayout::parse("(10,2):(16,4)")?;
/// let b = CuteLayout::parse("(5,4):(1,5)")?;
/// assert_eq!(composition(&a, &b)?.to_text().as_str(), "((5,1),(2,2)):((16,4),(80,4))");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// [`AlgebraErrorKind::StrideDivisibility`],
/// [`AlgebraErrorKind::ShapeDivisibility`] naming the left mode; overflow;
/// capacity.
pub const fn composition(lhs: &CuteLayout, rhs: &CuteLayout) -> Result<CuteLayout, AlgebraError> {
    let flat = tri!(coalesce_x(lhs));
    let r = tri!(composition_impl(
        flat.shape(),
        flat.stride(),
        rhs.shape(),
        rhs.stride(),
        true
    ));
    tri!(check_no_carry(lhs, rhs));
    Ok(r)
}

/// Whether CuTe itself would refuse `composition(lhs, rhs)`: its weak
/// divisibility conditions, asserted only when both operands of a check
/// are static. `Ok` when CuTe computes a layout (right or wrong).
pub(crate) const fn cute_accepts(lhs: &CuteLayout, rhs: &CuteLayout) -> Result<(), AlgebraError> {
    let flat = tri!(coalesce_x(lhs));
    match composition_impl(
        flat.shape(),
        flat.stride(),
        rhs.shape(),
        rhs.stride(),
        false,
    ) {
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Ours: CuTe composes each mode of `rhs` separately and adds the results,
/// which is `lhs ∘ rhs` only if the modes' offsets, written in `lhs`'s
/// mixed radix, add without a carry (CuTe returns `(_2,_2):(_2,_4)` for
/// `(_3,_2):(_2,_1) ∘ (_2,_2):(_1,_2)`, whose index 3 should be 1). This
/// checks, for the left layout with its modes merged by value, that the
/// largest digits the right layout's modes put in each mode but the last
/// sum below that mode's shape.
const fn check_no_carry(lhs: &CuteLayout, rhs: &CuteLayout) -> Result<(), AlgebraError> {
    let nr = rhs.shape().leaf_count();
    if nr < 2 {
        return Ok(());
    }
    // the left layout's digits: flat modes merged by value, size 1 dropped
    let nl = lhs.shape().leaf_count();
    let mut sh = [0i64; MAX_NODES];
    let mut st = [0i64; MAX_NODES];
    let mut n = 0;
    let mut k = 0;
    while k < nl {
        let (s, d) = lhs.leaf_mode(k);
        if s.value != 1 {
            let merge = n > 0
                && match sh[n - 1].checked_mul(st[n - 1]) {
                    Some(p) => p == d.value,
                    None => false,
                };
            if merge {
                sh[n - 1] = match sh[n - 1].checked_mul(s.value) {
                    Some(v) => v,
                    None => return Err(AlgebraError::new(AlgebraErrorKind::Overflow)),
                };
            } else {
                sh[n] = s.value;
                st[n] = d.value;
                n += 1;
            }
        }
        k += 1;
    }
    if n < 2 {
        return Ok(());
    }
    let mut used = [0i64; MAX_NODES];
    let mut m = 0;
    while m < nr {
        let (s, d) = rhs.leaf_mode(m);
        let mut rest_shape = s.value;
        let mut rest_stride = d.value.unsigned_abs() as i64;
        let mut k = 0;
        while k + 1 < n && rest_shape > 1 && rest_stride != 0 {
            let dim = sh[k];
            if rest_stride >= dim {
                rest_stride = (rest_stride + dim - 1) / dim;
            } else {
                let reach = (dim + rest_stride - 1) / rest_stride;
                let c = if reach < rest_shape {
                    reach
                } else {
                    rest_shape
                };
                used[k] = match rest_stride.checked_mul(c - 1) {
                    Some(v) => match used[k].checked_add(v) {
                        Some(u) => u,
                        None => return Err(AlgebraError::new(AlgebraErrorKind::Overflow)),
                    },
                    None => return Err(AlgebraError::new(AlgebraErrorKind::Overflow)),
                };
                rest_shape = (rest_shape + c - 1) / c;
                rest_stride = 1;
            }
            k += 1;
        }
        m += 1;
    }
    let mut k = 0;
    while k + 1 < n {
        if used[k] >= sh[k] {
            return Err(AlgebraError::new(AlgebraErrorKind::ModesCarry {
                mode: k as u32,
                shape: sh[k],
            }));
        }
        k += 1;
    }
    Ok(())
}

/// CuTe's `composition(lhs, tiler)`: a single-layout tiler composes as
/// [`composition`]; a by-mode tiler composes mode `i` of `lhs` with mode
/// `i` of the tiler (by mode again where that is a tuple of tilers) and
/// *drops* the modes of `lhs` past the tiler's rank, as CuTe does.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{composition_tiler, CuteLayout, Tiler};
/// // From CuTe's 02_layout_algebra.md
/// let a = CuteLayout::parse("(12,(4,8)):(59,(13,1))")?;
/// let t = Tiler::parse("(_3:_4,_8:_2)")?;
/// assert_eq!(composition_tiler(&a, &t)?.to_text().as_str(), "(_3,(2,4)):(236,(26,1))");
/// let t = Tiler::parse("(_3,_8)")?;
/// assert_eq!(composition_tiler(&a, &t)?.to_text().as_str(), "(_3,(4,2)):(59,(13,1))");
/// // a nested tiler: mode 1 of the layout is tiled by mode again
/// let t = Tiler::parse("(_3,(_2,_4:_2))")?;
/// assert_eq!(composition_tiler(&a, &t)?.to_text().as_str(), "(_3,(_2,_4)):(59,(13,2))");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// As [`composition`]; [`AlgebraErrorKind::RankMismatch`] when the tiler
/// has more modes than `lhs`.
pub const fn composition_tiler(
    lhs: &CuteLayout,
    tiler: &Tiler,
) -> Result<CuteLayout, AlgebraError> {
    if !tiler.is_by_mode() {
        let t = tri!(tiler.composition_mode(0));
        return composition(lhs, &t);
    }
    let r = tiler.rank();
    if r > lhs.rank() {
        return Err(AlgebraError::new(AlgebraErrorKind::RankMismatch {
            expected: lhs.rank() as u32,
            found: r as u32,
        }));
    }
    let mut out = CuteLayout::EMPTY;
    let mut i = 0;
    while i < r {
        let l = tri!(lhs.mode(i));
        let m = if tiler.mode_is_tuple(i) {
            composition_tiler(&l, &tri!(tiler.sub(i)))
        } else {
            match tiler.composition_mode(i) {
                Ok(t) => composition(&l, &t),
                Err(e) => Err(e),
            }
        };
        let m = tri!(in_mode(m, i));
        tri!(out.append_in(&m));
        i += 1;
    }
    Ok(out)
}

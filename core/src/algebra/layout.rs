//! The layout: a pair of congruent IntTuples (shape, stride), a function
//! from coordinates to indices (NVIDIA/cutlass `include/cute/layout.hpp`,
//! `include/cute/stride.hpp`, commit 7107b05535f8977f5ecb9d01ee203205b1fd9bc4).
//!
//! A coordinate may be an integer (a 1-D index into the layout's domain,
//! split colexicographically: the first mode fastest) or a tuple congruent
//! to (a prefix of the nesting of) the shape.

use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::tuple::{tri, IntTuple, NodeView};

/// A CuTe layout `shape:stride`, e.g. `(_2,(_3,_4)):(_12,(_4,_1))`.
///
/// Invariant: `shape` and `stride` are congruent and every shape integer
/// is positive (checked by [`CuteLayout::new`]; every operation keeps it).
///
/// # Examples
/// ```
/// use tilelayout::algebra::CuteLayout;
/// let l = CuteLayout::parse("(_2,(_3,_4)):(_12,(_4,_1))")?;
/// assert_eq!(l.size()?.value, 24);
/// assert_eq!(l.cosize()?.value, 24);
/// // index 7 is the coordinate (1,(0,1)) (first mode fastest)
/// assert_eq!(l.call(7)?, 12 + 1);
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CuteLayout {
    shape: IntTuple,
    stride: IntTuple,
}

impl CuteLayout {
    /// The layout `shape:stride`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::NotCongruent`],
    /// [`AlgebraErrorKind::ShapeNotPositive`].
    pub const fn new(shape: IntTuple, stride: IntTuple) -> Result<CuteLayout, AlgebraError> {
        if !shape.congruent(&stride) {
            return Err(AlgebraError::new(AlgebraErrorKind::NotCongruent));
        }
        if let Some((k, value)) = shape.first_below_one() {
            return Err(AlgebraError::new(AlgebraErrorKind::ShapeNotPositive {
                mode: k as u32,
                value,
            }));
        }
        Ok(CuteLayout { shape, stride })
    }

    /// CuTe's `CuteLayout<_1,_0>`, the trivial layout `_1:_0`.
    pub const TRIVIAL: CuteLayout = CuteLayout {
        shape: IntTuple::fixed(1),
        stride: IntTuple::fixed(0),
    };

    /// The empty layout `():()` (rank 0, size 1).
    pub const EMPTY: CuteLayout = CuteLayout {
        shape: IntTuple::EMPTY,
        stride: IntTuple::EMPTY,
    };

    /// Builds a layout from parts the caller has checked (internal).
    pub(crate) const fn from_parts(shape: IntTuple, stride: IntTuple) -> CuteLayout {
        CuteLayout { shape, stride }
    }

    /// CuTe's `make_layout(shape)`: the compact column-major layout
    /// (`LayoutLeft`), strides the exclusive prefix products starting at
    /// `_1`, e.g. `(_2,3,_4)` → `(_2,3,_4):(_1,_2,6)`.
    ///
    /// # Errors
    /// As [`CuteLayout::new`], and [`AlgebraErrorKind::Overflow`].
    pub const fn column_major(shape: IntTuple) -> Result<CuteLayout, AlgebraError> {
        let stride = tri!(compact_left(&shape, Int::fixed(1)));
        CuteLayout::new(shape, stride.0)
    }

    /// The shape.
    pub const fn shape(&self) -> &IntTuple {
        &self.shape
    }

    /// The stride.
    pub const fn stride(&self) -> &IntTuple {
        &self.stride
    }

    /// CuTe's `size`: the number of coordinates (product of the shape).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn size(&self) -> Result<Int, AlgebraError> {
        self.shape.size()
    }

    /// CuTe's `rank`.
    pub const fn rank(&self) -> usize {
        self.shape.rank()
    }

    /// CuTe's `depth`.
    pub const fn depth(&self) -> usize {
        self.shape.depth()
    }

    /// CuTe's `cosize`: one past the largest index,
    /// `1 + Σ (s_i − 1)·|d_i|` over the integers, with CuTe's binding
    /// times (`_0` times anything is `_0`).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn cosize(&self) -> Result<Int, AlgebraError> {
        let mut acc = Int::fixed(0);
        let n = self.shape.leaf_count();
        let mut k = 0;
        while k < n {
            let (s, d) = self.leaf_mode(k);
            let m1 = tri!(s.sub(Int::fixed(1)));
            let ad = tri!(d.abs());
            acc = tri!(acc.add(tri!(m1.mul(ad))));
            k += 1;
        }
        acc.add(Int::fixed(1))
    }

    /// Shape and stride of the `k`-th integer mode of the flattened layout.
    pub(crate) const fn leaf_mode(&self, k: usize) -> (Int, Int) {
        let s = match self.shape.leaf(k) {
            Some(s) => s,
            None => Int::fixed(1),
        };
        let d = match self.stride.leaf(k) {
            Some(d) => d,
            None => Int::fixed(0),
        };
        (s, d)
    }

    /// CuTe's `layout<i>` / `get<i>`: mode `i` as a layout.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::ModeOutOfRange`].
    pub const fn mode(&self, i: usize) -> Result<CuteLayout, AlgebraError> {
        let s = tri!(self.shape.mode(i));
        let d = tri!(self.stride.mode(i));
        Ok(CuteLayout {
            shape: s,
            stride: d,
        })
    }

    /// CuTe's `flatten`: the same function with the modes flattened.
    pub const fn flatten(&self) -> CuteLayout {
        CuteLayout {
            shape: self.shape.flatten(),
            stride: self.stride.flatten(),
        }
    }

    /// CuTe's `make_layout(l0, l1, …)`: the layout whose modes are the
    /// given layouts.
    ///
    /// # Errors
    /// Capacity errors.
    pub const fn concat(modes: &[CuteLayout]) -> Result<CuteLayout, AlgebraError> {
        let mut s = IntTuple::EMPTY;
        let mut d = IntTuple::EMPTY;
        let mut i = 0;
        while i < modes.len() {
            tri!(s.push_in(&modes[i].shape));
            tri!(d.push_in(&modes[i].stride));
            i += 1;
        }
        Ok(CuteLayout {
            shape: s,
            stride: d,
        })
    }

    /// CuTe's `append(layout, x)`: `x` as the last mode (an integer layout
    /// is wrapped first).
    ///
    /// # Errors
    /// Capacity errors.
    pub const fn append(&self, x: &CuteLayout) -> Result<CuteLayout, AlgebraError> {
        let mut l = *self;
        tri!(l.append_in(x));
        Ok(l)
    }

    /// [`CuteLayout::append`] in place (no copy of the layout); on an error
    /// the layout is unchanged (shape and stride are congruent, so the
    /// stride fits wherever the shape did).
    ///
    /// # Errors
    /// Capacity errors.
    pub const fn append_in(&mut self, x: &CuteLayout) -> Result<(), AlgebraError> {
        tri!(self.shape.push_in(&x.shape));
        self.stride.push_in(&x.stride)
    }

    /// CuTe's `crd2idx(coord, layout)`: the index of a coordinate. An
    /// integer coordinate over a tuple mode is split colexicographically
    /// (the last mode takes the quotient unbounded, as CuTe does); a tuple
    /// coordinate must match the shape's modes.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::RankMismatch`] when a tuple coordinate does not
    /// fit the shape; [`AlgebraErrorKind::Overflow`].
    pub const fn crd2idx(&self, coord: &IntTuple) -> Result<Int, AlgebraError> {
        crd_at(coord, 0, &self.shape, &self.stride, 0)
    }

    /// The index of the 1-D coordinate `i` (CuTe's `layout(i)`).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn call(&self, i: i64) -> Result<i64, AlgebraError> {
        match idx_at(Int::dynamic(i), &self.shape, &self.stride, 0) {
            Ok(v) => Ok(v.value),
            Err(e) => Err(e),
        }
    }

    /// CuTe's `idx2crd(i, shape)`: the hierarchical coordinate of the 1-D
    /// index `i`, colexicographic (first mode fastest; the last mode of
    /// each tuple takes the quotient unbounded, as in CuTe).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`], capacity errors.
    pub const fn idx2crd(&self, i: Int) -> Result<IntTuple, AlgebraError> {
        idx2crd(i, &self.shape)
    }
}

/// CuTe's `crd2idx(coord, shape, stride)` (`include/cute/stride.hpp`).
///
/// # Errors
/// [`AlgebraErrorKind::RankMismatch`], [`AlgebraErrorKind::Overflow`].
pub const fn crd2idx(
    coord: &IntTuple,
    shape: &IntTuple,
    stride: &IntTuple,
) -> Result<Int, AlgebraError> {
    if !shape.congruent(stride) {
        return Err(AlgebraError::new(AlgebraErrorKind::NotCongruent));
    }
    crd_at(coord, 0, shape, stride, 0)
}

/// `crd2idx` of the coordinate subtree at `cp` over the layout subtree at
/// `p` (shape and stride are congruent: the same positions), walking the
/// trees in place.
const fn crd_at(
    coord: &IntTuple,
    cp: usize,
    shape: &IntTuple,
    stride: &IntTuple,
    p: usize,
) -> Result<Int, AlgebraError> {
    let (arity, shape_is_leaf) = match shape.at(p) {
        NodeView::Tuple { arity, .. } => (arity, false),
        NodeView::Leaf(_) => (1, true),
    };
    match coord.at(cp) {
        NodeView::Leaf(c) => idx_at(c, shape, stride, p),
        NodeView::Tuple { arity: cr, .. } => {
            // a tuple coordinate: the shape must be a tuple of its rank
            if shape_is_leaf || cr != arity {
                return Err(AlgebraError::new(AlgebraErrorKind::RankMismatch {
                    expected: arity as u32,
                    found: cr as u32,
                }));
            }
            let mut acc = Int::fixed(0);
            let mut c = cp + 1;
            let mut s = p + 1;
            let mut i = 0;
            while i < arity {
                acc = tri!(acc.add(tri!(crd_at(coord, c, shape, stride, s))));
                c += span_of(coord, c);
                s += span_of(shape, s);
                i += 1;
            }
            Ok(acc)
        }
    }
}

const fn span_of(t: &IntTuple, p: usize) -> usize {
    match t.at(p) {
        NodeView::Tuple { span, .. } => span,
        NodeView::Leaf(_) => 1,
    }
}

/// `crd2idx` of an integer coordinate over the layout subtree at `p`:
/// divmod by each mode's size, the last mode unbounded, as CuTe does.
const fn idx_at(
    c: Int,
    shape: &IntTuple,
    stride: &IntTuple,
    p: usize,
) -> Result<Int, AlgebraError> {
    let arity = match shape.at(p) {
        NodeView::Tuple { arity, .. } => arity,
        NodeView::Leaf(_) => {
            return match stride.at(p) {
                NodeView::Leaf(d) => c.mul(d),
                NodeView::Tuple { .. } => Err(AlgebraError::new(AlgebraErrorKind::NotCongruent)),
            }
        }
    };
    if arity == 0 {
        return Ok(Int::fixed(0));
    }
    let mut acc = Int::fixed(0);
    let mut rest = c;
    let mut s = p + 1;
    let mut i = 0;
    while i < arity {
        if i + 1 == arity {
            acc = tri!(acc.add(tri!(idx_at(rest, shape, stride, s))));
        } else if rest.is_constant(0) {
            acc = tri!(acc.add(tri!(idx_at(Int::fixed(0), shape, stride, s))));
        } else {
            let size = tri!(shape.size_at(s));
            let m = tri!(rest.rem(size));
            rest = tri!(rest.div(size));
            acc = tri!(acc.add(tri!(idx_at(m, shape, stride, s))));
        }
        s += span_of(shape, s);
        i += 1;
    }
    Ok(acc)
}

/// CuTe's `idx2crd(i, shape)` (`include/cute/stride.hpp`): splits a 1-D
/// index into a coordinate congruent to `shape`.
///
/// # Errors
/// [`AlgebraErrorKind::Overflow`], capacity errors.
pub const fn idx2crd(i: Int, shape: &IntTuple) -> Result<IntTuple, AlgebraError> {
    if shape.is_int() {
        return Ok(IntTuple::int(i));
    }
    let r = shape.rank();
    let mut out = IntTuple::EMPTY;
    let mut rest = i;
    let mut k = 0;
    while k < r {
        let s = tri!(shape.mode(k));
        if k + 1 == r {
            tri!(out.push_in(&tri!(idx2crd(rest, &s))));
        } else {
            let p = tri!(s.size());
            let m = tri!(rest.rem(p));
            rest = tri!(rest.div(p));
            tri!(out.push_in(&tri!(idx2crd(m, &s))));
        }
        k += 1;
    }
    Ok(out)
}

/// CuTe's `compact_major<LayoutLeft>(shape, current)`: column-major
/// strides starting at `current`; returns the strides and the product
/// `current * size(shape)`.
pub(crate) const fn compact_left(
    shape: &IntTuple,
    current: Int,
) -> Result<(IntTuple, Int), AlgebraError> {
    if let Some(s) = shape.as_int() {
        // CuTe: a static-1 mode gets stride _0
        if s.is_constant(1) {
            return Ok((IntTuple::fixed(0), current));
        }
        return Ok((IntTuple::int(current), tri!(current.mul(s))));
    }
    let mut out = IntTuple::EMPTY;
    let mut cur = current;
    let mut k = 0;
    while k < shape.rank() {
        let m = tri!(shape.mode(k));
        let (d, next) = tri!(compact_left(&m, cur));
        tri!(out.push_in(&d));
        cur = next;
        k += 1;
    }
    Ok((out, cur))
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::string::ToString;

    #[test]
    fn column_major_matches_cute() {
        let s = IntTuple::parse("(_2,3,_4)").unwrap();
        assert_eq!(
            CuteLayout::column_major(s).unwrap().to_string(),
            "(_2,3,_4):(_1,_2,6)"
        );
        let s = IntTuple::parse("(_2,_1,(_4,_1))").unwrap();
        assert_eq!(
            CuteLayout::column_major(s).unwrap().to_string(),
            "(_2,_1,(_4,_1)):(_1,_0,(_2,_0))"
        );
    }

    #[test]
    fn empty_coordinates() {
        // a scalar (rank 0): the empty coordinate is index 0
        assert_eq!(
            CuteLayout::EMPTY.crd2idx(&IntTuple::EMPTY).unwrap(),
            Int::fixed(0)
        );
        assert_eq!(CuteLayout::EMPTY.call(0).unwrap(), 0);
        // an integer mode takes no tuple coordinate
        let l = CuteLayout::parse("_4:_1").unwrap();
        assert!(l.crd2idx(&IntTuple::EMPTY).is_err());
        assert!(CuteLayout::EMPTY
            .crd2idx(&IntTuple::parse("(1)").unwrap())
            .is_err());
    }

    #[test]
    fn crd2idx_and_idx2crd_are_colexicographic() {
        let l = CuteLayout::parse("(_2,(_3,_4)):(_12,(_4,_1))").unwrap();
        for i in 0..24 {
            let c = l.idx2crd(Int::dynamic(i)).unwrap();
            // (c0, (c1, c2)) with c0 fastest
            let (c0, c1, c2) = (i % 2, (i / 2) % 3, i / 6);
            assert_eq!(c.to_string(), std::format!("({},({},{}))", c0, c1, c2));
            let want = c0 * 12 + c1 * 4 + c2;
            assert_eq!(l.crd2idx(&c).unwrap().value, want);
            assert_eq!(l.call(i).unwrap(), want);
        }
        // a coordinate that does not fit the shape's modes
        let bad = IntTuple::parse("(1,2,3)").unwrap();
        assert!(l.crd2idx(&bad).is_err());
        assert_eq!(l.cosize().unwrap(), Int::fixed(24));
    }
}

//! CuTe's algorithms on one IntTuple (NVIDIA/cutlass
//! `include/cute/int_tuple.hpp`, `algorithm/tuple_algorithms.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4): building a tuple from modes,
//! `take`, `flatten`, `unwrap`/`wrap`, `size` (CuTe's `product`),
//! `is_static` and the congruence tests. The representation is in
//! `tuple.rs`.

use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::tuple::{node_int, tri, IntTuple, TAG_DYNAMIC, TAG_TUPLE};

impl IntTuple {
    /// The tuple of the given modes, in order (always a tuple, even of one
    /// mode).
    ///
    /// # Errors
    /// As [`IntTuple::push`].
    pub const fn tuple(modes: &[IntTuple]) -> Result<IntTuple, AlgebraError> {
        let mut t = IntTuple::EMPTY;
        let mut i = 0;
        while i < modes.len() {
            tri!(t.push_in(&modes[i]));
            i += 1;
        }
        Ok(t)
    }

    /// The modes `start..end` of a tuple as a tuple (CuTe's `take`).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::ModeOutOfRange`].
    pub const fn take(&self, start: usize, end: usize) -> Result<IntTuple, AlgebraError> {
        let mut t = IntTuple::EMPTY;
        let mut i = start;
        while i < end {
            let m = tri!(self.mode(i));
            tri!(t.push_in(&m));
            i += 1;
        }
        Ok(t)
    }

    /// The same tree with mode `i` replaced by `m`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::ModeOutOfRange`], capacity errors.
    pub const fn replace_mode(&self, i: usize, m: &IntTuple) -> Result<IntTuple, AlgebraError> {
        if self.is_int() {
            if i == 0 {
                return Ok(*m);
            }
            return Err(AlgebraError::new(AlgebraErrorKind::ModeOutOfRange {
                mode: i as u32,
                rank: 1,
            }));
        }
        let r = self.rank();
        if i >= r {
            return Err(AlgebraError::new(AlgebraErrorKind::ModeOutOfRange {
                mode: i as u32,
                rank: r as u32,
            }));
        }
        let mut t = IntTuple::EMPTY;
        let mut k = 0;
        while k < r {
            if k == i {
                tri!(t.push_in(m));
            } else {
                let c = tri!(self.mode(k));
                tri!(t.push_in(&c));
            }
            k += 1;
        }
        Ok(t)
    }

    /// CuTe's `flatten`: an integer stays an integer; a tuple becomes the
    /// tuple of its integers.
    pub const fn flatten(&self) -> IntTuple {
        if self.is_int() {
            return *self;
        }
        let mut t = IntTuple::EMPTY;
        let mut i = 0;
        while i < self.len as usize {
            if self.tags[i] != TAG_TUPLE {
                let l = t.len as usize;
                t.vals[l] = self.vals[i];
                t.tags[l] = self.tags[i];
                t.len += 1;
                let mut root = t.node(0);
                root.arity += 1;
                root.span += 1;
                t.set(0, root);
            }
            i += 1;
        }
        t
    }

    /// CuTe's `unwrap`-once: a tuple of one mode becomes that mode.
    pub const fn unwrap_single(&self) -> IntTuple {
        if !self.is_int() && self.node(0).arity == 1 {
            match self.mode(0) {
                Ok(m) => m,
                Err(_) => *self,
            }
        } else {
            *self
        }
    }

    /// CuTe's `unwrap`: strips every tuple of one mode around the value.
    pub const fn unwrap(&self) -> IntTuple {
        let mut t = *self;
        while !t.is_int() && t.node(0).arity == 1 {
            t = t.unwrap_single();
        }
        t
    }

    /// CuTe's `wrap`: an integer becomes a one-mode tuple, a tuple stays.
    pub const fn wrap(&self) -> IntTuple {
        if self.is_int() {
            match IntTuple::EMPTY.push(self) {
                Ok(t) => t,
                Err(_) => *self,
            }
        } else {
            *self
        }
    }

    /// CuTe's `product` (the `size` of a shape): the product of all
    /// integers; `()` has size `_1`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn size(&self) -> Result<Int, AlgebraError> {
        let mut p = Int::fixed(1);
        let mut i = 0;
        while i < self.len as usize {
            let n = self.node(i);
            if n.tag != TAG_TUPLE {
                p = tri!(p.mul(node_int(n)));
            }
            i += 1;
        }
        Ok(p)
    }

    /// The first integer below 1 (preorder index among the integers, and
    /// its value), if any: what [`super::CuteLayout::new`] refuses in a shape.
    pub(crate) const fn first_below_one(&self) -> Option<(usize, i64)> {
        let mut k = 0;
        let mut i = 0;
        while i < self.len as usize {
            if self.tags[i] != TAG_TUPLE {
                if self.vals[i] < 1 {
                    return Some((k, self.vals[i]));
                }
                k += 1;
            }
            i += 1;
        }
        None
    }

    /// Whether every integer is static (CuTe's `is_static`).
    pub const fn is_static(&self) -> bool {
        let mut i = 0;
        while i < self.len as usize {
            if self.node(i).tag == TAG_DYNAMIC {
                return false;
            }
            i += 1;
        }
        true
    }

    /// CuTe's `congruent`: the same tree, integers anywhere.
    pub const fn congruent(&self, other: &IntTuple) -> bool {
        if self.len != other.len {
            return false;
        }
        let mut i = 0;
        while i < self.len as usize {
            let a = self.node(i);
            let b = other.node(i);
            if (a.tag == TAG_TUPLE) != (b.tag == TAG_TUPLE) || a.arity != b.arity {
                return false;
            }
            i += 1;
        }
        true
    }

    /// CuTe's `weakly_congruent(self, other)`: `self`'s tree is a prefix
    /// of `other`'s (an integer of `self` may stand for a whole subtree).
    pub const fn weakly_congruent(&self, other: &IntTuple) -> bool {
        wc(self, 0, other, 0)
    }
}

const fn wc(a: &IntTuple, pa: usize, b: &IntTuple, pb: usize) -> bool {
    let na = a.node(pa);
    let nb = b.node(pb);
    if na.tag != TAG_TUPLE {
        return true;
    }
    if nb.tag != TAG_TUPLE || na.arity != nb.arity {
        return false;
    }
    let mut ca = pa + 1;
    let mut cb = pb + 1;
    let mut k = 0;
    while k < na.arity as usize {
        if !wc(a, ca, b, cb) {
            return false;
        }
        ca += a.node(ca).span as usize;
        cb += b.node(cb).span as usize;
        k += 1;
    }
    true
}

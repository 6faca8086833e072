//! The hierarchical integer tuple: "an IntTuple is an integer or a tuple of
//! IntTuples" (NVIDIA/cutlass `include/cute/int_tuple.hpp`). Shapes,
//! strides and coordinates are all IntTuples.
//!
//! Each integer carries CuTe's binding time: *static* (`_4`, a
//! compile-time `Int<4>` in CuTe) or *dynamic* (`4`, a runtime `int`).
//! The value is the same; the flag decides how results print and follows
//! CuTe's propagation rules ([`Int::mul`] and friends).
//!
//! Representation: the nodes of the tree in preorder in a fixed array of
//! [`MAX_NODES`]; a tuple node stores its number of children and the
//! number of nodes of its subtree, so a child is found by skipping whole
//! subtrees. Unused nodes are kept zeroed so that equality is structural.

use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::{MAX_DEPTH, MAX_NODES};

macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}
pub(crate) use tri;

const TAG_DYNAMIC: u8 = 0;
const TAG_STATIC: u8 = 1;
const TAG_TUPLE: u8 = 2;

/// One node in preorder: a leaf integer, or a tuple with `arity` children
/// whose subtree holds `span` nodes (itself included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Node {
    value: i64,
    tag: u8,
    arity: u8,
    span: u8,
}

const ZERO_NODE: Node = Node {
    value: 0,
    tag: 0,
    arity: 0,
    span: 0,
};

/// A hierarchical integer tuple of at most [`MAX_NODES`] nodes (integers
/// plus tuples) nested at most [`MAX_DEPTH`] deep: `_4`, `(_2,3)`,
/// `((_2,_3),(4,_1))`, `()`.
///
/// Invariant: the nodes `0..len` form one tree in preorder and the nodes
/// past `len` are zero. Every constructor keeps it.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{IntTuple, Int};
/// let t = IntTuple::parse("(_2,(3,_4))")?;
/// assert_eq!(t.rank(), 2);
/// assert_eq!(t.depth(), 2);
/// assert_eq!(t.size()?, Int::dynamic(24));
/// assert_eq!(t.leaf(2), Some(Int::fixed(4)));
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct IntTuple {
    nodes: [Node; MAX_NODES],
    len: u8,
}

impl IntTuple {
    /// The empty tuple `()`.
    pub const EMPTY: IntTuple = {
        let mut nodes = [ZERO_NODE; MAX_NODES];
        nodes[0] = Node {
            value: 0,
            tag: TAG_TUPLE,
            arity: 0,
            span: 1,
        };
        IntTuple { nodes, len: 1 }
    };

    /// A single integer (not wrapped in a tuple).
    pub const fn int(i: Int) -> IntTuple {
        let mut nodes = [ZERO_NODE; MAX_NODES];
        nodes[0] = Node {
            value: i.value,
            tag: if i.is_static { TAG_STATIC } else { TAG_DYNAMIC },
            arity: 0,
            span: 1,
        };
        IntTuple { nodes, len: 1 }
    }

    /// A static integer `_v`.
    pub const fn fixed(v: i64) -> IntTuple {
        IntTuple::int(Int::fixed(v))
    }

    /// A dynamic integer `v`.
    pub const fn dynamic(v: i64) -> IntTuple {
        IntTuple::int(Int::dynamic(v))
    }

    /// Structural equality (values, binding times and nesting), usable in
    /// `const fn`.
    pub const fn same(&self, other: &IntTuple) -> bool {
        if self.len != other.len {
            return false;
        }
        let mut i = 0;
        while i < self.len as usize {
            let a = self.nodes[i];
            let b = other.nodes[i];
            if a.value != b.value || a.tag != b.tag || a.arity != b.arity || a.span != b.span {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Whether this is a single integer (CuTe's `is_integral`).
    pub const fn is_int(&self) -> bool {
        self.nodes[0].tag != TAG_TUPLE
    }

    /// The integer, if this is one.
    pub const fn as_int(&self) -> Option<Int> {
        if self.is_int() {
            Some(node_int(self.nodes[0]))
        } else {
            None
        }
    }

    /// Number of nodes (integers and tuples).
    pub const fn node_count(&self) -> usize {
        self.len as usize
    }

    /// CuTe's `rank`: 1 for an integer, the number of modes of a tuple.
    pub const fn rank(&self) -> usize {
        if self.is_int() {
            1
        } else {
            self.nodes[0].arity as usize
        }
    }

    /// CuTe's `depth`: 0 for an integer, 1 + the deepest mode for a tuple.
    pub const fn depth(&self) -> usize {
        self.depth_at(0)
    }

    const fn depth_at(&self, p: usize) -> usize {
        let n = self.nodes[p];
        if n.tag != TAG_TUPLE {
            return 0;
        }
        let mut best = 0;
        let mut c = p + 1;
        let mut k = 0;
        while k < n.arity as usize {
            let d = self.depth_at(c);
            if d > best {
                best = d;
            }
            c += self.nodes[c].span as usize;
            k += 1;
        }
        best + 1
    }

    /// Number of integers (the leaves, CuTe's `rank(flatten(t))` for a
    /// tuple).
    pub const fn leaf_count(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < self.len as usize {
            if self.nodes[i].tag != TAG_TUPLE {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// The `k`-th integer in preorder (colexicographic modes read left to
    /// right), or `None` past the end.
    pub const fn leaf(&self, k: usize) -> Option<Int> {
        let mut n = 0;
        let mut i = 0;
        while i < self.len as usize {
            if self.nodes[i].tag != TAG_TUPLE {
                if n == k {
                    return Some(node_int(self.nodes[i]));
                }
                n += 1;
            }
            i += 1;
        }
        None
    }

    /// The same tree with the `k`-th integer replaced (no-op past the end).
    pub const fn with_leaf(mut self, k: usize, v: Int) -> IntTuple {
        let mut n = 0;
        let mut i = 0;
        while i < self.len as usize {
            if self.nodes[i].tag != TAG_TUPLE {
                if n == k {
                    self.nodes[i].value = v.value;
                    self.nodes[i].tag = if v.is_static { TAG_STATIC } else { TAG_DYNAMIC };
                    return self;
                }
                n += 1;
            }
            i += 1;
        }
        self
    }

    /// The node at preorder position `p`: its integer (for a leaf) and its
    /// number of children (for a tuple). Internal traversal for the
    /// printer.
    pub(crate) const fn node_at(&self, p: usize) -> (Option<Int>, usize) {
        let n = self.nodes[p];
        if n.tag == TAG_TUPLE {
            (None, n.arity as usize)
        } else {
            (Some(node_int(n)), 0)
        }
    }

    /// Node position of mode `i` of the root tuple.
    const fn child_pos(&self, i: usize) -> usize {
        let mut p = 1;
        let mut k = 0;
        while k < i {
            p += self.nodes[p].span as usize;
            k += 1;
        }
        p
    }

    /// Number of leaves before node position `p`.
    const fn leaves_before(&self, p: usize) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < p {
            if self.nodes[i].tag != TAG_TUPLE {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// Index of the first integer of mode `i` among all integers.
    pub const fn mode_leaf_start(&self, i: usize) -> usize {
        if self.is_int() {
            return 0;
        }
        self.leaves_before(self.child_pos(i))
    }

    /// CuTe's `get<i>`: mode `i` of a tuple; an integer's only mode is
    /// itself (`get<0>(4) == 4`).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::ModeOutOfRange`] when `i >= rank()`.
    pub const fn mode(&self, i: usize) -> Result<IntTuple, AlgebraError> {
        if self.is_int() {
            if i == 0 {
                return Ok(*self);
            }
        } else if i < self.nodes[0].arity as usize {
            let p = self.child_pos(i);
            let span = self.nodes[p].span as usize;
            let mut nodes = [ZERO_NODE; MAX_NODES];
            let mut k = 0;
            while k < span {
                nodes[k] = self.nodes[p + k];
                k += 1;
            }
            return Ok(IntTuple {
                nodes,
                len: span as u8,
            });
        }
        Err(AlgebraError::new(AlgebraErrorKind::ModeOutOfRange {
            mode: i as u32,
            rank: self.rank() as u32,
        }))
    }

    /// Appends `child` as the last mode of this tuple (an integer is first
    /// wrapped: CuTe's `append(4, x)` is `(4,x)`).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::TooManyNodes`], [`AlgebraErrorKind::TooDeep`].
    pub const fn push(self, child: &IntTuple) -> Result<IntTuple, AlgebraError> {
        let mut t = if self.is_int() {
            tri!(IntTuple::EMPTY.push(&self))
        } else {
            self
        };
        let total = t.len as usize + child.len as usize;
        if total > MAX_NODES {
            return Err(AlgebraError::new(AlgebraErrorKind::TooManyNodes));
        }
        if t.nodes[0].arity as usize >= MAX_NODES {
            return Err(AlgebraError::new(AlgebraErrorKind::TooManyNodes));
        }
        if child.depth() + 1 > MAX_DEPTH {
            return Err(AlgebraError::new(AlgebraErrorKind::TooDeep));
        }
        let mut k = 0;
        while k < child.len as usize {
            t.nodes[t.len as usize + k] = child.nodes[k];
            k += 1;
        }
        t.len = total as u8;
        t.nodes[0].arity += 1;
        t.nodes[0].span = total as u8;
        Ok(t)
    }

    /// Appends an integer as the last mode.
    ///
    /// # Errors
    /// As [`IntTuple::push`].
    pub const fn push_int(self, i: Int) -> Result<IntTuple, AlgebraError> {
        self.push(&IntTuple::int(i))
    }

    /// The tuple of the given modes, in order (always a tuple, even of one
    /// mode).
    ///
    /// # Errors
    /// As [`IntTuple::push`].
    pub const fn tuple(modes: &[IntTuple]) -> Result<IntTuple, AlgebraError> {
        let mut t = IntTuple::EMPTY;
        let mut i = 0;
        while i < modes.len() {
            t = tri!(t.push(&modes[i]));
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
            t = tri!(t.push(&m));
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
                t = tri!(t.push(m));
            } else {
                let c = tri!(self.mode(k));
                t = tri!(t.push(&c));
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
            let n = self.nodes[i];
            if n.tag != TAG_TUPLE {
                let l = t.len as usize;
                t.nodes[l] = n;
                t.len += 1;
                t.nodes[0].arity += 1;
                t.nodes[0].span += 1;
            }
            i += 1;
        }
        t
    }

    /// CuTe's `unwrap`-once: a tuple of one mode becomes that mode.
    pub const fn unwrap_single(&self) -> IntTuple {
        if !self.is_int() && self.nodes[0].arity == 1 {
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
        while !t.is_int() && t.nodes[0].arity == 1 {
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
            let n = self.nodes[i];
            if n.tag != TAG_TUPLE {
                p = tri!(p.mul(node_int(n)));
            }
            i += 1;
        }
        Ok(p)
    }

    /// Whether every integer is static (CuTe's `is_static`).
    pub const fn is_static(&self) -> bool {
        let mut i = 0;
        while i < self.len as usize {
            if self.nodes[i].tag == TAG_DYNAMIC {
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
            let a = self.nodes[i];
            let b = other.nodes[i];
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
    let na = a.nodes[pa];
    let nb = b.nodes[pb];
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
        ca += a.nodes[ca].span as usize;
        cb += b.nodes[cb].span as usize;
        k += 1;
    }
    true
}

const fn node_int(n: Node) -> Int {
    Int {
        value: n.value,
        is_static: n.tag == TAG_STATIC,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_and_query() {
        let t = IntTuple::EMPTY
            .push_int(Int::fixed(2))
            .unwrap()
            .push(&IntTuple::tuple(&[IntTuple::dynamic(3), IntTuple::fixed(4)]).unwrap())
            .unwrap();
        assert_eq!(t.rank(), 2);
        assert_eq!(t.depth(), 2);
        assert_eq!(t.leaf_count(), 3);
        assert_eq!(t.size().unwrap(), Int::dynamic(24));
        assert_eq!(t.mode(1).unwrap().rank(), 2);
        assert_eq!(t.mode_leaf_start(1), 1);
        assert_eq!(t.flatten().rank(), 3);
        assert_eq!(IntTuple::fixed(3).depth(), 0);
        assert_eq!(IntTuple::EMPTY.depth(), 1);
        assert!(t.mode(2).is_err());
    }

    #[test]
    fn static_propagation() {
        let z = Int::fixed(0);
        let d = Int::dynamic(5);
        assert_eq!(z.mul(d).unwrap(), Int::fixed(0));
        assert_eq!(d.mul(Int::fixed(2)).unwrap(), Int::dynamic(10));
        assert_eq!(
            Int::fixed(7).ceil_div(Int::fixed(2)).unwrap(),
            Int::fixed(4)
        );
        assert!(Int::fixed(i64::MAX).mul(Int::fixed(2)).is_err());
        assert!(d.div(Int::fixed(0)).is_err());
    }

    const _: () = {
        let t = IntTuple::fixed(4);
        assert!(t.rank() == 1);
        assert!(t.depth() == 0);
    };
}

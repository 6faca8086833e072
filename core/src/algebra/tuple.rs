//! The hierarchical integer tuple: "an IntTuple is an integer or a tuple of
//! IntTuples" (NVIDIA/cutlass `include/cute/int_tuple.hpp`). Shapes,
//! strides and coordinates are all IntTuples.
//!
//! Each integer carries CuTe's binding time: *static* (`_4`, a
//! compile-time `Int<4>` in CuTe) or *dynamic* (`4`, a runtime `int`).
//! The value is the same; the flag decides how results print and follows
//! CuTe's propagation rules ([`Int::mul`] and friends).
//!
//! Representation: the nodes of the tree in preorder in fixed arrays of
//! [`MAX_NODES`]: one `i64` and one tag byte per node (576 bytes in all).
//! A leaf's `i64` is its value; a tuple's packs its number of children
//! and the number of nodes of its subtree, so a child is found by
//! skipping whole subtrees. Unused nodes are kept zeroed so that equality
//! is structural.

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

pub(super) const TAG_DYNAMIC: u8 = 0;
pub(super) const TAG_STATIC: u8 = 1;
pub(super) const TAG_TUPLE: u8 = 2;

/// One node in preorder: a leaf integer, or a tuple with `arity` children
/// whose subtree holds `span` nodes (itself included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Node {
    pub(super) value: i64,
    pub(super) tag: u8,
    pub(super) arity: u8,
    pub(super) span: u8,
}

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
    pub(super) vals: [i64; MAX_NODES],
    pub(super) tags: [u8; MAX_NODES],
    pub(super) len: u8,
}

impl IntTuple {
    /// The empty tuple `()`.
    pub const EMPTY: IntTuple = {
        let mut t = IntTuple::ZEROED;
        t.set(
            0,
            Node {
                value: 0,
                tag: TAG_TUPLE,
                arity: 0,
                span: 1,
            },
        );
        t.len = 1;
        t
    };

    /// Nothing stored (not a valid tuple: `len` 0), to fill.
    const ZEROED: IntTuple = IntTuple {
        vals: [0; MAX_NODES],
        tags: [0; MAX_NODES],
        len: 0,
    };

    /// The node at preorder position `p`.
    pub(super) const fn node(&self, p: usize) -> Node {
        let tag = self.tags[p];
        let v = self.vals[p];
        if tag == TAG_TUPLE {
            Node {
                value: 0,
                tag,
                arity: (v & 0xff) as u8,
                span: ((v >> 8) & 0xff) as u8,
            }
        } else {
            Node {
                value: v,
                tag,
                arity: 0,
                span: 1,
            }
        }
    }

    /// Stores `n` at preorder position `p`.
    pub(super) const fn set(&mut self, p: usize, n: Node) {
        self.tags[p] = n.tag;
        self.vals[p] = if n.tag == TAG_TUPLE {
            n.arity as i64 | (n.span as i64) << 8
        } else {
            n.value
        };
    }

    /// A single integer (not wrapped in a tuple).
    pub const fn int(i: Int) -> IntTuple {
        let mut t = IntTuple::ZEROED;
        t.tags[0] = if i.is_static { TAG_STATIC } else { TAG_DYNAMIC };
        t.vals[0] = i.value;
        t.len = 1;
        t
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
            let a = self.node(i);
            let b = other.node(i);
            if a.value != b.value || a.tag != b.tag || a.arity != b.arity || a.span != b.span {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Whether this is a single integer (CuTe's `is_integral`).
    pub const fn is_int(&self) -> bool {
        self.tags[0] != TAG_TUPLE
    }

    /// The node at preorder position `p`: its integer (for a leaf), or
    /// its number of children and the number of nodes of its subtree
    /// (for a tuple). Internal traversal without copying subtrees.
    pub(crate) const fn at(&self, p: usize) -> NodeView {
        let n = self.node(p);
        if n.tag == TAG_TUPLE {
            NodeView::Tuple {
                arity: n.arity as usize,
                span: n.span as usize,
            }
        } else {
            NodeView::Leaf(node_int(n))
        }
    }

    /// CuTe's `size` of the subtree at preorder position `p`.
    pub(crate) const fn size_at(&self, p: usize) -> Result<Int, AlgebraError> {
        let span = self.node(p).span as usize;
        let mut acc = Int::fixed(1);
        let mut i = p;
        while i < p + span {
            if self.tags[i] != TAG_TUPLE {
                acc = tri!(acc.mul(node_int(self.node(i))));
            }
            i += 1;
        }
        Ok(acc)
    }

    /// The integer, if this is one.
    pub const fn as_int(&self) -> Option<Int> {
        if self.is_int() {
            Some(node_int(self.node(0)))
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
            self.node(0).arity as usize
        }
    }

    /// CuTe's `depth`: 0 for an integer, 1 + the deepest mode for a tuple.
    pub const fn depth(&self) -> usize {
        self.depth_at(0)
    }

    const fn depth_at(&self, p: usize) -> usize {
        let n = self.node(p);
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
            c += self.node(c).span as usize;
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
            if self.node(i).tag != TAG_TUPLE {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// The `k`-th integer in preorder (colexicographic modes read left to
    /// right), or `None` past the end.
    pub const fn leaf(&self, k: usize) -> Option<Int> {
        // flat tuples (what coalesce and flatten give): leaf k is node k+1
        if self.is_int() {
            return if k == 0 {
                Some(node_int(self.node(0)))
            } else {
                None
            };
        }
        if self.node(0).arity as usize + 1 == self.len as usize {
            return if k + 1 < self.len as usize {
                Some(node_int(self.node(k + 1)))
            } else {
                None
            };
        }
        let mut n = 0;
        let mut i = 0;
        while i < self.len as usize {
            if self.node(i).tag != TAG_TUPLE {
                if n == k {
                    return Some(node_int(self.node(i)));
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
            if self.node(i).tag != TAG_TUPLE {
                if n == k {
                    self.vals[i] = v.value;
                    self.tags[i] = if v.is_static { TAG_STATIC } else { TAG_DYNAMIC };
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
        let n = self.node(p);
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
            p += self.node(p).span as usize;
            k += 1;
        }
        p
    }

    /// Node position of mode `i` of the root tuple, if it has one.
    pub(crate) const fn mode_pos(&self, i: usize) -> Option<usize> {
        if self.is_int() || i >= self.node(0).arity as usize {
            None
        } else {
            Some(self.child_pos(i))
        }
    }

    /// Number of leaves before node position `p`.
    const fn leaves_before(&self, p: usize) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < p {
            if self.node(i).tag != TAG_TUPLE {
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
        } else if i < self.node(0).arity as usize {
            let p = self.child_pos(i);
            let span = self.node(p).span as usize;
            let mut t = IntTuple::ZEROED;
            let mut k = 0;
            while k < span {
                t.vals[k] = self.vals[p + k];
                t.tags[k] = self.tags[p + k];
                k += 1;
            }
            t.len = span as u8;
            return Ok(t);
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
    pub const fn push(mut self, child: &IntTuple) -> Result<IntTuple, AlgebraError> {
        tri!(self.push_in(child));
        Ok(self)
    }

    /// [`IntTuple::push`] in place (no copy of the tuple); on an error
    /// the tuple is unchanged.
    ///
    /// # Errors
    /// As [`IntTuple::push`].
    pub const fn push_in(&mut self, child: &IntTuple) -> Result<(), AlgebraError> {
        let base = if self.is_int() { 2 } else { self.len as usize };
        let total = base + child.len as usize;
        if total > MAX_NODES || (!self.is_int() && self.node(0).arity as usize >= MAX_NODES) {
            return Err(AlgebraError::new(AlgebraErrorKind::TooManyNodes));
        }
        if child.depth() + 1 > MAX_DEPTH {
            return Err(AlgebraError::new(AlgebraErrorKind::TooDeep));
        }
        if self.is_int() {
            // CuTe's append(4, x) is (4,x): wrap the integer first
            let (v, tag) = (self.vals[0], self.tags[0]);
            *self = IntTuple::EMPTY;
            self.vals[1] = v;
            self.tags[1] = tag;
            self.len = 2;
            self.set(
                0,
                Node {
                    value: 0,
                    tag: TAG_TUPLE,
                    arity: 1,
                    span: 2,
                },
            );
        }
        let mut k = 0;
        while k < child.len as usize {
            self.vals[self.len as usize + k] = child.vals[k];
            self.tags[self.len as usize + k] = child.tags[k];
            k += 1;
        }
        self.len = total as u8;
        let mut root = self.node(0);
        root.arity += 1;
        root.span = total as u8;
        self.set(0, root);
        Ok(())
    }

    /// Appends an integer as the last mode.
    ///
    /// # Errors
    /// As [`IntTuple::push`].
    pub const fn push_int(self, i: Int) -> Result<IntTuple, AlgebraError> {
        self.push(&IntTuple::int(i))
    }

    /// [`IntTuple::push_int`] in place.
    ///
    /// # Errors
    /// As [`IntTuple::push`].
    pub const fn push_int_in(&mut self, i: Int) -> Result<(), AlgebraError> {
        self.push_in(&IntTuple::int(i))
    }
}

/// One node as [`IntTuple::at`] shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeView {
    /// An integer.
    Leaf(Int),
    /// A tuple of `arity` modes whose subtree has `span` nodes.
    Tuple {
        /// Number of modes.
        arity: usize,
        /// Nodes of the subtree, the tuple itself included.
        span: usize,
    },
}

pub(super) const fn node_int(n: Node) -> Int {
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

//! Tilers: the right operand of composition, the divides and the
//! products. A tiler is one layout, or a tuple applied mode by mode whose
//! modes are layouts, integers (`n` means the layout `make_layout(n)`) or
//! tuples of tilers again (`(_2,(_3:_2,_4))` tiles mode 1 of the layout by
//! mode, with `_3:_2` on its mode 0 and `_4` on its mode 1); a shape such
//! as `(_4,(_2,_8))` is a by-mode tiler of integers. As CuTe's `Tile`
//! (NVIDIA/cutlass `include/cute/layout.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4), whose operations recurse
//! into a tuple mode (`transform_layout`).

use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::layout::CuteLayout;
use super::tuple::{tri, IntTuple, NodeView};

/// Most layouts and integers (the leaves) in one [`Tiler`].
pub const MAX_TILER_MODES: usize = 16;

/// A tiler: one layout, or a tuple of tilers applied mode by mode.
///
/// Invariant: when by-mode, `tree` is a tuple whose integers are the
/// indices `0, 1, …` of the leaves in order (preorder), `modes` has leaf
/// `k` as its mode `k`, and bit `k` of `int_modes` says leaf `k` was
/// written as an integer `n` (and is the layout `make_layout(n)`). When
/// not by-mode, `modes` is the one layout, `tree` is `_0` and bit 0 says
/// it was written as an integer.
///
/// # Examples
/// ```
/// use tilelayout::algebra::Tiler;
/// let t = Tiler::parse("(_2:_1,_4)")?;
/// assert!(t.is_by_mode());
/// assert_eq!(t.rank(), 2);
/// assert_eq!(t.mode(1)?.to_text().as_str(), "_4:_1");
/// assert_eq!(t.to_text().as_str(), "(_2:_1,_4)");
/// // a nested mode: a tuple of tilers for a tuple mode of the layout
/// let n = Tiler::parse("(_2,(_3:_2,_4))")?;
/// assert!(n.mode_is_tuple(1));
/// assert_eq!(n.sub(1)?.to_text().as_str(), "(_3:_2,_4)");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tiler {
    modes: CuteLayout,
    tree: IntTuple,
    int_modes: u32,
    by_mode: bool,
}

const fn leaf_tiler(l: CuteLayout, is_int: bool) -> Tiler {
    Tiler {
        modes: l,
        tree: IntTuple::fixed(0),
        int_modes: if is_int { 1 } else { 0 },
        by_mode: false,
    }
}

impl Tiler {
    /// One layout as the tiler.
    pub const fn layout(l: CuteLayout) -> Tiler {
        leaf_tiler(l, false)
    }

    /// An integer `n` as the tiler: CuTe's `make_layout(n)`, `n:_1` (and
    /// `_1:_0` for a static 1). Composition uses `n:_1` even then, as
    /// CuTe does.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::ShapeNotPositive`].
    pub const fn int(n: Int) -> Result<Tiler, AlgebraError> {
        let l = tri!(CuteLayout::column_major(IntTuple::int(n)));
        Ok(leaf_tiler(l, true))
    }

    /// A shape as the tiler: an integer, or a tuple of shapes taken by
    /// mode (`(_4,_8)` tiles mode 0 by `_4:_1` and mode 1 by `_8:_1`;
    /// `(_4,(_2,_8))` tiles mode 1 by mode again).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::ShapeNotPositive`]; capacity.
    pub const fn shape(s: &IntTuple) -> Result<Tiler, AlgebraError> {
        if let Some(n) = s.as_int() {
            return Tiler::int(n);
        }
        let mut t = Tiler::EMPTY;
        let mut i = 0;
        while i < s.rank() {
            let m = tri!(Tiler::shape(&tri!(s.mode(i))));
            t = tri!(t.push_tiler(&m));
            i += 1;
        }
        Ok(t)
    }

    /// The by-mode tiler with no modes, `()`, to [`Tiler::push`] onto.
    pub const EMPTY: Tiler = Tiler {
        modes: CuteLayout::EMPTY,
        tree: IntTuple::EMPTY,
        int_modes: 0,
        by_mode: true,
    };

    /// Appends a layout as the next mode of a by-mode tiler.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::TooManyNodes`] past [`MAX_TILER_MODES`] leaves or
    /// the tuple capacity; [`AlgebraErrorKind::Unsupported`] on a tiler
    /// that is not by-mode.
    pub const fn push(self, l: &CuteLayout) -> Result<Tiler, AlgebraError> {
        self.push_tiler(&Tiler::layout(*l))
    }

    /// Appends an integer mode `n` (CuTe's `make_layout(n)`, see
    /// [`Tiler::int`]).
    ///
    /// # Errors
    /// As [`Tiler::push`], and [`AlgebraErrorKind::ShapeNotPositive`].
    pub const fn push_int(self, n: Int) -> Result<Tiler, AlgebraError> {
        self.push_tiler(&tri!(Tiler::int(n)))
    }

    /// Appends a tiler as the next mode of a by-mode tiler: one layout or
    /// integer becomes a mode, a by-mode tiler a nested tuple mode.
    ///
    /// # Errors
    /// As [`Tiler::push`]; [`AlgebraErrorKind::TooDeep`].
    pub const fn push_tiler(self, m: &Tiler) -> Result<Tiler, AlgebraError> {
        if !self.by_mode {
            return Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
                what: "adding a mode to a tiler that is one layout",
            }));
        }
        let base = self.modes.rank();
        let n = m.leaf_count();
        if base + n > MAX_TILER_MODES {
            return Err(AlgebraError::new(AlgebraErrorKind::TooManyNodes));
        }
        let mut modes = self.modes;
        let child = if m.by_mode {
            let mut k = 0;
            while k < n {
                tri!(modes.append_in(&tri!(m.modes.mode(k))));
                k += 1;
            }
            // renumber the leaves after ours
            let mut tree = m.tree;
            let mut k = 0;
            while k < n {
                tree = tree.with_leaf(k, Int::fixed((base + k) as i64));
                k += 1;
            }
            tree
        } else {
            tri!(modes.append_in(&m.modes));
            IntTuple::fixed(base as i64)
        };
        Ok(Tiler {
            modes,
            tree: tri!(self.tree.push(&child)),
            int_modes: self.int_modes | (m.int_modes << base),
            by_mode: true,
        })
    }

    /// Number of layouts and integers in the tiler (1 for a single
    /// layout).
    pub const fn leaf_count(&self) -> usize {
        if self.by_mode {
            self.modes.rank()
        } else {
            1
        }
    }

    /// Whether the tiler is a tuple applied mode by mode.
    pub const fn is_by_mode(&self) -> bool {
        self.by_mode
    }

    /// Number of modes of a by-mode tiler (1 for a single layout).
    pub const fn rank(&self) -> usize {
        if self.by_mode {
            self.tree.rank()
        } else {
            1
        }
    }

    /// Whether mode `i` of a by-mode tiler is a tuple of tilers.
    pub const fn mode_is_tuple(&self, i: usize) -> bool {
        if !self.by_mode {
            return false;
        }
        match self.tree.mode_pos(i) {
            Some(p) => matches!(self.tree.at(p), NodeView::Tuple { .. }),
            None => false,
        }
    }

    /// The leaf index of mode `i` (not a tuple).
    const fn leaf_of(&self, i: usize) -> Result<usize, AlgebraError> {
        if !self.by_mode {
            if i == 0 {
                return Ok(0);
            }
            return Err(AlgebraError::new(AlgebraErrorKind::ModeOutOfRange {
                mode: i as u32,
                rank: 1,
            }));
        }
        let p = match self.tree.mode_pos(i) {
            Some(p) => p,
            None => {
                return Err(AlgebraError::new(AlgebraErrorKind::ModeOutOfRange {
                    mode: i as u32,
                    rank: self.tree.rank() as u32,
                }))
            }
        };
        match self.tree.at(p) {
            NodeView::Leaf(k) => Ok(k.value as usize),
            NodeView::Tuple { .. } => Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
                what: "this tiler mode is a tuple of tilers (take it with Tiler::sub)",
            })),
        }
    }

    /// Mode `i` as a tiler of its own: the layout or integer, or the
    /// tuple of tilers of a nested mode; the tiler itself for a
    /// single-layout tiler and `i == 0`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::ModeOutOfRange`].
    pub const fn sub(&self, i: usize) -> Result<Tiler, AlgebraError> {
        if !self.by_mode {
            tri!(self.leaf_of(i));
            return Ok(*self);
        }
        self.subtree(&tri!(self.tree.mode(i)))
    }

    /// The tiler a subtree of `tree` stands for.
    const fn subtree(&self, node: &IntTuple) -> Result<Tiler, AlgebraError> {
        if let Some(k) = node.as_int() {
            let k = k.value as usize;
            return Ok(leaf_tiler(tri!(self.modes.mode(k)), self.leaf_is_int(k)));
        }
        let mut t = Tiler::EMPTY;
        let mut j = 0;
        while j < node.rank() {
            t = tri!(t.push_tiler(&tri!(self.subtree(&tri!(node.mode(j))))));
            j += 1;
        }
        Ok(t)
    }

    /// Mode `i` of a by-mode tiler as the layout composition uses: an
    /// integer mode `n` is `n:_1` (CuTe's `composition(layout, int)`).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::ModeOutOfRange`]; [`AlgebraErrorKind::Unsupported`]
    /// for a tuple mode.
    pub const fn composition_mode(&self, i: usize) -> Result<CuteLayout, AlgebraError> {
        let l = tri!(self.mode(i));
        if self.mode_is_int(i) {
            return CuteLayout::new(*l.shape(), IntTuple::fixed(1));
        }
        Ok(l)
    }

    /// Mode `i` of a by-mode tiler as a layout; the layout itself for a
    /// single-layout tiler and `i == 0`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::ModeOutOfRange`]; [`AlgebraErrorKind::Unsupported`]
    /// for a tuple mode (see [`Tiler::sub`]).
    pub const fn mode(&self, i: usize) -> Result<CuteLayout, AlgebraError> {
        let k = tri!(self.leaf_of(i));
        if self.by_mode {
            self.modes.mode(k)
        } else {
            Ok(self.modes)
        }
    }

    /// Whether mode `i` was written as an integer.
    pub const fn mode_is_int(&self, i: usize) -> bool {
        match self.leaf_of(i) {
            Ok(k) => self.leaf_is_int(k),
            Err(_) => false,
        }
    }

    const fn leaf_is_int(&self, k: usize) -> bool {
        k < 32 && self.int_modes & (1 << k) != 0
    }

    /// The single layout of a tiler that is not by-mode.
    pub const fn as_layout(&self) -> Option<CuteLayout> {
        if self.by_mode {
            None
        } else {
            Some(self.modes)
        }
    }
}

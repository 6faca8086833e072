//! Tilers: the right operand of composition, the divides and the
//! products. A tiler is one layout, or a tuple of one layout per mode
//! (by-mode; an integer `n` in a mode means the layout `make_layout(n)`, and a
//! shape such as `(_4,_8)` is a by-mode tiler of integers), as CuTe's
//! `Tile` (NVIDIA/cutlass `include/cute/layout.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4).
//!
//! Ours: a by-mode tiler's modes are layouts or integers; CuTe also
//! nests tuples of tilers inside a mode, which is not represented here.

use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::layout::Layout;
use super::tuple::{tri, IntTuple};

/// Most modes of a by-mode [`Tiler`].
pub const MAX_TILER_MODES: usize = 16;

/// A tiler: one layout, or one layout per mode.
///
/// Invariant: when by-mode, `modes` has one mode per tiler mode; bit `i`
/// of `int_modes` says mode `i` was written as an integer `n` (and is the
/// layout `n:_1`). When not by-mode, `modes` is the one layout and bit 0
/// says it was written as an integer.
///
/// # Examples
/// ```
/// use tilelayout::algebra::Tiler;
/// let t = Tiler::parse("(_2:_1,_4)")?;
/// assert!(t.is_by_mode());
/// assert_eq!(t.rank(), 2);
/// assert_eq!(t.mode(1)?.to_text().as_str(), "_4:_1");
/// assert_eq!(t.to_text().as_str(), "(_2:_1,_4)");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tiler {
    modes: Layout,
    int_modes: u32,
    by_mode: bool,
}

impl Tiler {
    /// One layout as the tiler.
    pub const fn layout(l: Layout) -> Tiler {
        Tiler {
            modes: l,
            int_modes: 0,
            by_mode: false,
        }
    }

    /// An integer `n` as the tiler: CuTe's `make_layout(n)`, `n:_1` (and
    /// `_1:_0` for a static 1). Composition uses `n:_1` even then, as
    /// CuTe does.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::ShapeNotPositive`].
    pub const fn int(n: Int) -> Result<Tiler, AlgebraError> {
        let l = tri!(Layout::column_major(IntTuple::int(n)));
        Ok(Tiler {
            modes: l,
            int_modes: 1,
            by_mode: false,
        })
    }

    /// A shape as the tiler: an integer, or a tuple of integers taken by
    /// mode (`(_4,_8)` tiles mode 0 by `_4:_1` and mode 1 by `_8:_1`).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Unsupported`] for a nested shape;
    /// [`AlgebraErrorKind::ShapeNotPositive`]; capacity.
    pub const fn shape(s: &IntTuple) -> Result<Tiler, AlgebraError> {
        if let Some(n) = s.as_int() {
            return Tiler::int(n);
        }
        let mut t = Tiler::EMPTY;
        let mut i = 0;
        while i < s.rank() {
            let m = tri!(s.mode(i));
            match m.as_int() {
                Some(n) => t = tri!(t.push_int(n)),
                None => {
                    return Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
                        what: "a tiler mode that is a tuple of tilers",
                    }))
                }
            }
            i += 1;
        }
        Ok(t)
    }

    /// The by-mode tiler with no modes, `()`, to [`Tiler::push`] onto.
    pub const EMPTY: Tiler = Tiler {
        modes: Layout::EMPTY,
        int_modes: 0,
        by_mode: true,
    };

    /// Appends a layout as the next mode of a by-mode tiler.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::TooManyNodes`] past [`MAX_TILER_MODES`] modes or
    /// the tuple capacity; [`AlgebraErrorKind::Unsupported`] on a tiler
    /// that is not by-mode.
    pub const fn push(self, l: &Layout) -> Result<Tiler, AlgebraError> {
        if !self.by_mode {
            return Err(AlgebraError::new(AlgebraErrorKind::Unsupported {
                what: "adding a mode to a tiler that is one layout",
            }));
        }
        if self.modes.rank() >= MAX_TILER_MODES {
            return Err(AlgebraError::new(AlgebraErrorKind::TooManyNodes));
        }
        Ok(Tiler {
            modes: tri!(self.modes.append(l)),
            int_modes: self.int_modes,
            by_mode: true,
        })
    }

    /// Appends an integer mode `n` (CuTe's `make_layout(n)`, see
    /// [`Tiler::int`]).
    ///
    /// # Errors
    /// As [`Tiler::push`], and [`AlgebraErrorKind::ShapeNotPositive`].
    pub const fn push_int(self, n: Int) -> Result<Tiler, AlgebraError> {
        let bit = self.modes.rank();
        let l = tri!(Layout::column_major(IntTuple::int(n)));
        let mut t = tri!(self.push(&l));
        t.int_modes |= 1 << bit;
        Ok(t)
    }

    /// Whether the tiler is a tuple applied mode by mode.
    pub const fn is_by_mode(&self) -> bool {
        self.by_mode
    }

    /// Number of modes of a by-mode tiler (1 for a single layout).
    pub const fn rank(&self) -> usize {
        if self.by_mode {
            self.modes.rank()
        } else {
            1
        }
    }

    /// Mode `i` of a by-mode tiler as the layout composition uses: an
    /// integer mode `n` is `n:_1` (CuTe's `composition(layout, int)`).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::ModeOutOfRange`].
    pub const fn composition_mode(&self, i: usize) -> Result<Layout, AlgebraError> {
        let l = tri!(self.mode(i));
        if self.mode_is_int(i) {
            return Layout::new(*l.shape(), IntTuple::fixed(1));
        }
        Ok(l)
    }

    /// Mode `i` of a by-mode tiler as a layout; the layout itself for a
    /// single-layout tiler and `i == 0`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::ModeOutOfRange`].
    pub const fn mode(&self, i: usize) -> Result<Layout, AlgebraError> {
        if self.by_mode {
            self.modes.mode(i)
        } else if i == 0 {
            Ok(self.modes)
        } else {
            Err(AlgebraError::new(AlgebraErrorKind::ModeOutOfRange {
                mode: i as u32,
                rank: 1,
            }))
        }
    }

    /// Whether mode `i` was written as an integer.
    pub const fn mode_is_int(&self, i: usize) -> bool {
        i < 32 && self.int_modes & (1 << i) != 0
    }

    /// The single layout of a tiler that is not by-mode.
    pub const fn as_layout(&self) -> Option<Layout> {
        if self.by_mode {
            None
        } else {
            Some(self.modes)
        }
    }
}

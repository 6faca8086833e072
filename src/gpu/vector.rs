//! The 128-bit vectors a copy plan moves: what both a plan and its endpoints
//! speak of.

/// Bytes moved by one thread in one vector instruction (128 bits).
pub const VECTOR_BYTES: usize = 16;

/// Bytes of a cache line (and of a shared-memory transaction): the most a
/// warp's line of vectors covers in a copy plan.
pub const CACHE_LINE_BYTES: usize = 128;

/// The direction of a vector in the tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// Consecutive columns of one row.
    Row,
    /// Consecutive rows of one column.
    Col,
}

/// One 128-bit vector of a plan: `len` elements from `(row, col)` along
/// `axis`, in tile coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vector {
    /// Row of the first element.
    pub row: usize,
    /// Column of the first element.
    pub col: usize,
    /// Number of elements.
    pub len: usize,
    /// Direction.
    pub axis: Axis,
}

impl Vector {
    /// Returns the coordinates of element `t` of the vector, `t < len`.
    #[inline(always)]
    #[must_use]
    pub fn element(&self, t: usize) -> (usize, usize) {
        debug_assert!(t < self.len);
        match self.axis {
            Axis::Row => (self.row, self.col + t),
            Axis::Col => (self.row + t, self.col),
        }
    }
}

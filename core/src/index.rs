//! Fixed-capacity lists the tiling hands out: coordinates ([`Index`])
//! and one number per expanded dim ([`ExpandedDims`]).

use crate::{MAX_EXPANDED_RANK, MAX_RANK};

/// Coordinates, one per dim (at most [`MAX_RANK`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Index {
    pub(crate) v: [u64; MAX_RANK],
    pub(crate) len: u8,
}

impl Index {
    /// Coordinates from a slice; `None` if longer than [`MAX_RANK`].
    pub const fn new(c: &[u64]) -> Option<Index> {
        if c.len() > MAX_RANK {
            return None;
        }
        let mut v = [0; MAX_RANK];
        let mut i = 0;
        while i < c.len() {
            v[i] = c[i];
            i += 1;
        }
        Some(Index {
            v,
            len: c.len() as u8,
        })
    }

    /// The coordinates.
    pub const fn as_slice(&self) -> &[u64] {
        self.v.split_at(self.len as usize).0
    }
}

/// One number per expanded dim: the dims after one tile level (see
/// [`Tiling::dims_after_level`](crate::Tiling::dims_after_level)) or the
/// strides of the final dims
/// ([`Tiling::expanded_strides`](crate::Tiling::expanded_strides)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpandedDims {
    pub(crate) v: [u64; MAX_EXPANDED_RANK],
    pub(crate) len: u8,
}

impl ExpandedDims {
    /// The numbers, one per expanded dim.
    pub const fn as_slice(&self) -> &[u64] {
        self.v.split_at(self.len as usize).0
    }
}

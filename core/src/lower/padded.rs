//! The lowered layout's leaves with the padding around them: what a
//! relayout needs to walk the whole destination, padding included, in
//! loops.
//!
//! The layout of [`lower`](super::lower) holds the positions logical
//! coordinates reach. The padded grid (the slots below
//! [`Tiling::expanded_slots`](crate::Tiling::expanded_slots)) can be larger in two ways: the most major
//! leaf of a mode spans more positions than the dim reaches
//! (`f32[3]{0:T(8)}`: `x` takes 3 of the tile's 8 positions), and units of
//! the grid hold no coordinate at all (`f32[3]{0:T(2,8)}`: the tile's
//! first dim pads in a dim of size 1, so 1 of its 2 positions is used).
//! [`PaddedGrid`] lists both, so that loops over its leaves cover every
//! slot of the grid once.
//!
//! ```
//! use tilelayout::value::{padded_grid, parse_shape, GridLeaf};
//! let s = parse_shape("f32[3]{0:T(2,8)}")?;
//! let g = padded_grid(&s)?.unwrap();
//! assert_eq!(
//!     g.leaves(),
//!     &[
//!         GridLeaf { dim: Some(0), below: 1, size: 3, extent: 8, stride: 1 },
//!         GridLeaf { dim: None, below: 1, size: 1, extent: 2, stride: 8 },
//!     ]
//! );
//! # Ok::<(), tilelayout::value::LowerError>(())
//! ```

use super::digits::{digits, Digit, Found, MAX_DIGITS};
use super::grid::NO_DIM;
use super::LowerError;
use crate::shape::Shape;
use crate::MAX_RANK;

/// One leaf of the padded grid.
///
/// With `dim: Some(d)`, the leaf is the digit `(x_d / below) % size` of
/// logical coordinate `x_d` (for the most major digit of the dim, `x_d /
/// below`, which stays below `size`), at `stride` slots; its positions
/// `size..extent` are padding. With `dim: None`, the leaf is a unit no
/// coordinate reaches: only its position 0 is used, `size` is 1.
///
/// Invariant: `1 <= size <= extent`; `extent > size` only for the most
/// major digit of a dim or a leaf of no dim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridLeaf {
    /// The logical dim (in the order the dims are written), or `None`.
    pub dim: Option<u8>,
    /// The digit's weight in the coordinate.
    pub below: u64,
    /// The values the digit takes.
    pub size: u64,
    /// The positions of the grid it spans.
    pub extent: u64,
    /// Its stride, in slots.
    pub stride: u64,
}

const NO_LEAF: GridLeaf = GridLeaf {
    dim: None,
    below: 1,
    size: 1,
    extent: 1,
    stride: 0,
};

/// The leaves of an affine tiling's layout, with the padding around them
/// (see the module docs). Leaves of size and extent 1 are left out.
///
/// Post (asserted by the core's `lower` tests):
/// 1. the slot of coordinates `x` is `Σ ((x_d / below) % size) · stride`
///    over the leaves of `x`'s dims (no `% size` on a dim's most major
///    digit), as [`Tiling::offset`](crate::Tiling::offset) says;
/// 2. the leaves' positions `Σ p_k · stride_k`, `p_k < extent_k`, cover
///    `0..expanded_slots` when no leaf comes from a resolved cut (the
///    common case); otherwise they cover the used slots and maybe part of
///    the padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaddedGrid {
    leaves: [GridLeaf; MAX_DIGITS],
    len: u16,
    bounds: [u64; MAX_RANK],
    rank: u8,
}

impl PaddedGrid {
    /// The leaves: each dim's by `below` ascending, then the leaves of no
    /// dim.
    pub const fn leaves(&self) -> &[GridLeaf] {
        self.leaves.split_at(self.len as usize).0
    }

    /// The logical dims.
    pub const fn bounds(&self) -> &[u64] {
        self.bounds.split_at(self.rank as usize).0
    }
}

/// The padded grid of `shape`'s tiling; `None` when the tiling is not
/// affine ([`Lowered::NotAffine`](super::Lowered::NotAffine)).
///
/// # Errors
/// As [`lower`](super::lower).
pub const fn padded_grid(shape: &Shape) -> Result<Option<PaddedGrid>, LowerError> {
    let tiling = match shape.tiling() {
        Ok(t) => t,
        Err(e) => return Err(LowerError::Shape(e)),
    };
    let d = match digits(&tiling) {
        Ok(Found::Affine(d)) => d,
        Ok(Found::Cut { .. }) => return Ok(None),
        Err(e) => return Err(LowerError::Algebra(e)),
    };
    let mut g = PaddedGrid {
        leaves: [NO_LEAF; MAX_DIGITS],
        len: 0,
        bounds: d.logical,
        rank: d.rank as u8,
    };
    // dim by dim, by `below` (a dim's digits have distinct weights), then
    // the zeros by stride (distinct too: each is its own grid position)
    let mut dim = 0usize;
    while dim <= d.rank {
        let want = if dim < d.rank { dim as u8 } else { NO_DIM };
        let mut last: Option<u64> = None;
        loop {
            let mut best = d.n;
            let mut k = 0;
            while k < d.n {
                let x = d.digits[k];
                let kx = key(&x, want);
                let after = match last {
                    Some(l) => kx > l,
                    None => true,
                };
                if x.dim == want
                    && x.extent > 1
                    && after
                    && (best == d.n || key(&d.digits[best], want) > kx)
                {
                    best = k;
                }
                k += 1;
            }
            if best == d.n {
                break;
            }
            let x = d.digits[best];
            g.leaves[g.len as usize] = GridLeaf {
                dim: if want == NO_DIM { None } else { Some(want) },
                below: x.below,
                size: x.size,
                extent: x.extent,
                stride: x.stride,
            };
            g.len += 1;
            last = Some(key(&x, want));
        }
        dim += 1;
    }
    Ok(Some(g))
}

/// The order leaves are listed in: a dim's by weight, zeros by stride.
const fn key(x: &Digit, want: u8) -> u64 {
    if want == NO_DIM {
        x.stride
    } else {
        x.below
    }
}

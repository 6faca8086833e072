//! XLA tilings lowered into CuTe's layout algebra: a [`Shape`] becomes a
//! CuTe [`Layout`](crate::algebra::CuteLayout) over the padded tile grid plus
//! the logical bounds.
//!
//! Each logical dim `d` becomes one mode of the layout. A tile splits a
//! coordinate `x` of size `n` by `t` into the digits `x % t` (inside the
//! tile) and `x / t` (which tile), so the mode of a tiled dim is the tuple
//! of its digit sizes, least significant first, exactly CuTe's
//! colexicographic split of an integer coordinate: `f32[3,5]{1,0:T(2,2)}`
//! is `((_2,_2),(_2,_3)):((_2,_12),(_1,_4))`. The mode's size is the
//! padded extent (`4` for the dim of 3 above); the logical bounds say which
//! coordinates are elements. `*` groups, tiles over tile-count dims,
//! repeated tiles and tiles longer than the shape lower the same way.
//!
//! A later tile may cut an earlier tile's dim unevenly: `f32[4]{0:T(3)(2)}`
//! cuts `x % 3` at 2, but the two parts land side by side in memory (at
//! strides 2 and 1), so the offset is still `x % 3` there: the layout is
//! `((_3,_2)):((_1,_4))`. When the parts do not meet again, the offsets are no
//! shape:stride function of digits of the coordinates:
//! `f32[4]{0:T(3)(2,2)}` puts `(x % 3) / 2` at stride 4 and `(x % 3) % 2`
//! at stride 1; a `*` group cut across its dims with something between
//! the parts (`f32[2,3,5]{2,1,0:T(2,*,4)}` cuts `5·y + z` at 4, and dim 0's
//! digit lands between) is another case.
//! [`Lowered::NotAffine`] says so and keeps the exact [`Tiling`] as the
//! fallback. (On tiny dims, where a cut digit takes only a value or two,
//! such offsets can still happen to match some layout; the lowering
//! answers for the tiling's structure, whatever the dims.)
//!
//! `E(n)` does not change element offsets ([`AffineTiling::bit_layout`]
//! scales them to bits); `L(n)` pads the end ([`AffineTiling::slots`]).
//!
//! ```
//! use tilelayout::value::{lower, parse_shape, Lowered};
//! let s = parse_shape("f32[3,5]{1,0:T(2,2)}")?;
//! let Lowered::Affine(a) = lower(&s)? else { unreachable!() };
//! assert_eq!(a.layout().to_text().as_str(), "((_2,_2),(_2,_3)):((_2,_12),(_1,_4))");
//! assert_eq!(a.offset(&[2, 3])?, 17);
//! # Ok::<(), tilelayout::value::LowerError>(())
//! ```

mod digits;
mod grid;
mod padded;
mod program;
mod xla;

pub use padded::{padded_grid, GridLeaf, PaddedGrid};
pub use program::{index_program, tiling_program};
pub use xla::{to_xla, TO_XLA_MAX_RANK};

use crate::algebra::{AlgebraError, CuteLayout, Int, IntTuple};
use crate::error::{Error, ErrorKind};
use crate::print::write_tile;
use crate::shape::{Shape, Tile};
use crate::text::TextBuf;
use crate::tiling::{Index, Tiling};
use crate::MAX_RANK;
use digits::{digits, Digit, Found, MAX_DIGITS};

/// Why a shape could not be lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LowerError {
    /// The shape is not a valid static array shape (see
    /// [`Shape::tiling`]).
    Shape(Error),
    /// The layout does not fit the algebra's capacity or `i64`.
    Algebra(AlgebraError),
}

impl From<Error> for LowerError {
    fn from(e: Error) -> Self {
        LowerError::Shape(e)
    }
}

impl From<AlgebraError> for LowerError {
    fn from(e: AlgebraError) -> Self {
        LowerError::Algebra(e)
    }
}

impl core::fmt::Display for LowerError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LowerError::Shape(e) => write!(f, "{e}"),
            LowerError::Algebra(e) => write!(f, "{e}"),
        }
    }
}

/// A shape's tiling as the layout algebra sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// reason: both are fixed-capacity values built in `const fn` without an
// allocator, so neither can be boxed; they differ by a few KiB
#[allow(clippy::large_enum_variant)]
pub enum Lowered {
    /// The tiling is a CuTe layout over the padded grid.
    Affine(AffineTiling),
    /// The tiling is not affine; the exact tiling is kept.
    NotAffine(NotAffine),
}

impl Lowered {
    /// The slot of logical coordinates `index`, from the algebra layout
    /// or, when not affine, from the exact tiling.
    ///
    /// # Errors
    /// [`ErrorKind::IndexRank`], [`ErrorKind::IndexOutOfBounds`].
    pub const fn offset(&self, index: &[u64]) -> Result<u64, Error> {
        match self {
            Lowered::Affine(a) => a.offset(index),
            Lowered::NotAffine(n) => n.tiling.offset(index),
        }
    }

    /// The logical coordinates at `slot`, `None` for padding.
    ///
    /// # Errors
    /// [`ErrorKind::SlotOutOfBounds`].
    pub const fn coords(&self, slot: u64) -> Result<Option<Index>, Error> {
        match self {
            Lowered::Affine(a) => a.coords(slot),
            Lowered::NotAffine(n) => n.tiling.coords(slot),
        }
    }
}

/// An affine tiling: a CuTe layout with one mode per logical dim (in the
/// order the dims are written), over the padded grid, and the logical
/// bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AffineTiling {
    layout: CuteLayout,
    bounds: [u64; MAX_RANK],
    rank: u8,
    storage_bits: u64,
    /// The exact tiling, for the inverse ([`AffineTiling::coords`]).
    tiling: Tiling,
}

impl AffineTiling {
    /// The layout: mode `d` maps coordinate `x` of dim `d` (`x <
    /// bounds()[d]`) to its part of the slot; the layout's size is the
    /// padded grid.
    pub const fn layout(&self) -> &CuteLayout {
        &self.layout
    }

    /// The logical dims.
    pub const fn bounds(&self) -> &[u64] {
        self.bounds.split_at(self.rank as usize).0
    }

    /// Slots of storage, padding and `L(n)` rounding included.
    pub const fn slots(&self) -> u64 {
        self.tiling.slots()
    }

    /// Bits per element in storage (`E(n)`, else the type's width).
    pub const fn storage_bits(&self) -> u64 {
        self.storage_bits
    }

    /// The layout with strides in bits ([`AffineTiling::storage_bits`]
    /// per slot).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`](crate::algebra::AlgebraErrorKind::Overflow).
    pub const fn bit_layout(&self) -> Result<CuteLayout, AlgebraError> {
        let bits = Int::fixed(self.storage_bits as i64);
        let mut stride = *self.layout.stride();
        let mut k = 0;
        while k < stride.leaf_count() {
            if let Some(d) = stride.leaf(k) {
                stride = match d.mul(bits) {
                    Ok(v) => stride.with_leaf(k, v),
                    Err(e) => return Err(e),
                };
            }
            k += 1;
        }
        CuteLayout::new(*self.layout.shape(), stride)
    }

    /// The slot of logical coordinates `index` (in the order the dims are
    /// written), by the layout's `crd2idx`.
    ///
    /// # Errors
    /// [`ErrorKind::IndexRank`], [`ErrorKind::IndexOutOfBounds`].
    pub const fn offset(&self, index: &[u64]) -> Result<u64, Error> {
        if index.len() != self.rank as usize {
            return Err(Error::new(ErrorKind::IndexRank {
                rank: self.rank as u32,
                found: index.len() as u32,
            }));
        }
        let mut coord = IntTuple::EMPTY;
        let mut d = 0;
        while d < index.len() {
            if index[d] >= self.bounds[d] {
                return Err(Error::new(ErrorKind::IndexOutOfBounds {
                    dim: d as u32,
                    index: index[d],
                    size: self.bounds[d],
                }));
            }
            // in bounds, so below the slot count, which fits i64
            coord = match coord.push_int(Int::dynamic(index[d] as i64)) {
                Ok(c) => c,
                Err(_) => return Err(Error::new(ErrorKind::SizeOverflow)),
            };
            d += 1;
        }
        match self.layout.crd2idx(&coord) {
            Ok(i) => Ok(i.value as u64),
            Err(_) => Err(Error::new(ErrorKind::SizeOverflow)),
        }
    }

    /// The logical coordinates at `slot`, `None` for padding: the exact
    /// inverse, from the tiling (the layout's function agrees with it on
    /// every element; see the crate's tests).
    ///
    /// # Errors
    /// [`ErrorKind::SlotOutOfBounds`].
    pub const fn coords(&self, slot: u64) -> Result<Option<Index>, Error> {
        self.tiling.coords(slot)
    }

    /// The exact tiling.
    pub const fn tiling(&self) -> &Tiling {
        &self.tiling
    }
}

/// A tiling that is not a CuTe layout, with the exact tiling to use
/// instead and where affinity breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotAffine {
    tiling: Tiling,
    level: u8,
    tile_dim: u8,
    tile: Tile,
}

impl NotAffine {
    /// The exact tiling.
    pub const fn tiling(&self) -> &Tiling {
        &self.tiling
    }

    /// The tile level (0 = first) whose cut is not affine.
    pub const fn level(&self) -> usize {
        self.level as usize
    }

    /// The dim of that tile (0 = first written) whose cut is not affine.
    pub const fn tile_dim(&self) -> usize {
        self.tile_dim as usize
    }

    /// A sentence saying what is not affine and why.
    pub const fn describe(&self) -> TextBuf<640> {
        let mut t = TextBuf::new();
        t.push_str("not affine: tile ");
        write_tile(&mut t, &self.tile);
        t.push_str(" (level ");
        t.push_u64(self.level as u64 + 1);
        t.push_str(") cuts its dim ");
        t.push_u64(self.tile_dim as u64);
        t.push_str(
            " through a digit of a coordinate and the parts do not meet again in \
             memory (a tile that does not divide an earlier tile's dim, or a `*` group \
             cut across its dims), so offsets are not a shape:stride function of the \
             coordinates",
        );
        t
    }
}

/// Lowers `shape`'s tiling into the layout algebra.
///
/// # Errors
/// [`LowerError::Shape`] when the shape is not a valid static array
/// shape; [`LowerError::Algebra`] when the layout exceeds the algebra's
/// capacity or offsets exceed `i64`.
pub const fn lower(shape: &Shape) -> Result<Lowered, LowerError> {
    let tiling = match shape.tiling() {
        Ok(t) => t,
        Err(e) => return Err(LowerError::Shape(e)),
    };
    let d = match digits(&tiling) {
        Ok(Found::Affine(d)) => d,
        Ok(Found::Cut { level, tile_dim }) => {
            return Ok(Lowered::NotAffine(NotAffine {
                tiling,
                level,
                tile_dim,
                tile: shape.layout().tiles()[level as usize],
            }))
        }
        Err(e) => return Err(LowerError::Algebra(e)),
    };
    let layout = match layout_of(&d.digits, d.n, d.rank) {
        Ok(l) => l,
        Err(e) => return Err(LowerError::Algebra(e)),
    };
    Ok(Lowered::Affine(AffineTiling {
        layout,
        bounds: d.logical,
        rank: d.rank as u8,
        storage_bits: shape.storage_bits(),
        tiling,
    }))
}

/// The layout of the digits: mode `d` lists dim `d`'s digits by
/// significance (`below` ascending); a size-1 digit gets stride `_0`, as
/// CuTe's `make_layout` gives it.
const fn layout_of(
    digits: &[Digit; MAX_DIGITS],
    n: usize,
    rank: usize,
) -> Result<CuteLayout, AlgebraError> {
    let mut shape = IntTuple::EMPTY;
    let mut stride = IntTuple::EMPTY;
    let mut d = 0;
    while d < rank {
        let mut ms = IntTuple::EMPTY;
        let mut md = IntTuple::EMPTY;
        let mut count = 0;
        let mut last = 0u64; // digits of a dim have distinct `below`
        loop {
            // the next digit of dim d by `below`
            let mut best = n;
            let mut k = 0;
            while k < n {
                let g = digits[k];
                if g.dim as usize == d
                    && (count == 0 || g.below > last)
                    && (best == n || g.below < digits[best].below)
                {
                    best = k;
                }
                k += 1;
            }
            if best == n {
                break;
            }
            let g = digits[best];
            last = g.below;
            let st = if g.size == 1 { 0 } else { g.stride as i64 };
            ms = match ms.push_int(Int::fixed(g.size as i64)) {
                Ok(t) => t,
                Err(e) => return Err(e),
            };
            md = match md.push_int(Int::fixed(st)) {
                Ok(t) => t,
                Err(e) => return Err(e),
            };
            count += 1;
        }
        if count == 1 {
            ms = ms.unwrap_single();
            md = md.unwrap_single();
        }
        shape = match shape.push(&ms) {
            Ok(t) => t,
            Err(e) => return Err(e),
        };
        stride = match stride.push(&md) {
            Ok(t) => t,
            Err(e) => return Err(e),
        };
        d += 1;
    }
    CuteLayout::new(shape, stride)
}

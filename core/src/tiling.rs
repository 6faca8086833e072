//! The semantics: physical dims, the expanded shape after each tile
//! level, the linear index of a coordinate and its inverse, in `const fn`.
//!
//! Pre: the shape passed [`Shape::validate`]'s structural rules.
//! Post (asserted by the property and exhaustive tests):
//! 1. `offset` is injective on the logical coordinates;
//! 2. every offset is `< slots()`;
//! 3. `coords(offset(c)) == Some(c)` for every coordinate `c`;
//! 4. exactly `slots() - elements()` slots are padding (`coords` is `None`).

use crate::error::{Error, ErrorKind};
pub(crate) use crate::index::{ExpandedDims, Index};
use crate::parse::tri;
use crate::shape::{Shape, Tile};
use crate::{MAX_EXPANDED_RANK, MAX_RANK, MAX_TILES, MAX_TILE_RANK};

/// One tile level, compiled: the dims it tiles and how its tile dims
/// group into combined dims. Only the tiled dims are kept (the untiled
/// prefix passes through unchanged; [`Tiling::dims_after_level`] replays
/// the levels to list it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Level {
    /// Per tile dim: the dim it applies to (after left-padding with 1s).
    pub(crate) tiled: [u64; MAX_TILE_RANK],
    /// Per group: its tile size (`gtile`) and the tile position of its
    /// last (non-`*`) dim (`gend`).
    pub(crate) gtile: [u64; MAX_TILE_RANK],
    pub(crate) gend: [u8; MAX_TILE_RANK],
    /// Rank before padding.
    pub(crate) in_rank: u8,
    /// Number of 1-dims prepended (tile rank − rank, if positive).
    pub(crate) pad: u8,
    /// First tiled position (`rank + pad − tile rank`).
    pub(crate) base: u8,
    /// Number of groups (tile dims that are not `*`).
    pub(crate) groups: u8,
}

const EMPTY_LEVEL: Level = Level {
    tiled: [0; MAX_TILE_RANK],
    gtile: [0; MAX_TILE_RANK],
    gend: [0; MAX_TILE_RANK],
    in_rank: 0,
    pad: 0,
    base: 0,
    groups: 0,
};

impl Level {
    /// Group `q`'s combined dim: the product of its tiled dims (it fit
    /// `u64` when the tiling was built).
    pub(crate) const fn gdim(&self, q: usize) -> u64 {
        let start = if q == 0 {
            0
        } else {
            self.gend[q - 1] as usize + 1
        };
        let mut p: u64 = 1;
        let mut j = start;
        while j <= self.gend[q] as usize {
            p = p.wrapping_mul(self.tiled[j]);
            j += 1;
        }
        p
    }
}

/// A shape's tiling, compiled once: everything needed for sizes, `offset`
/// and `coords`.
///
/// # Examples
/// Figure 1 of XLA's tiled-layout documentation: `f32[3,5]` tiled by 2×2
/// has 24 slots; element (2,3) is at slot 17; slots 9, 11, 14, 15, 18, 19,
/// 21, 22, 23 are padding.
/// ```
/// use tilelayout::value::parse_shape;
/// let t = parse_shape("f32[3,5]{1,0:T(2,2)}").unwrap().tiling().unwrap();
/// assert_eq!(t.slots(), 24);
/// assert_eq!(t.offset(&[2, 3]).unwrap(), 17);
/// assert_eq!(t.coords(17).unwrap().unwrap().as_slice(), &[2, 3]);
/// let padding: Vec<u64> = (0..24).filter(|&s| t.coords(s).unwrap().is_none()).collect();
/// assert_eq!(padding, [9, 11, 14, 15, 18, 19, 21, 22, 23]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiling {
    rank: u8,
    logical: [u64; MAX_RANK],
    /// physical position → logical dim
    perm: [u8; MAX_RANK],
    levels: [Level; MAX_TILES],
    level_count: u8,
    /// The final expanded dims and their row-major strides.
    dims: [u64; MAX_EXPANDED_RANK],
    expanded_rank: u8,
    elements: u64,
    expanded_slots: u64,
    slots: u64,
    first_level_slots: u64,
}

const fn ceil_div(a: u64, b: u64) -> u64 {
    a / b + !a.is_multiple_of(b) as u64
}

const fn product(d: &[u64; MAX_EXPANDED_RANK], n: usize) -> Result<u64, Error> {
    let mut p: u64 = 1;
    let mut i = 0;
    while i < n {
        p = match p.checked_mul(d[i]) {
            Some(v) => v,
            None => return Err(Error::new(ErrorKind::SizeOverflow)),
        };
        i += 1;
    }
    Ok(p)
}

/// The dims after level `lv`, given the dims before it (`in_rank` of
/// them): the untiled prefix, then per group the tile count and the tile.
const fn apply(lv: &Level, before: &[u64; MAX_EXPANDED_RANK]) -> [u64; MAX_EXPANDED_RANK] {
    let pad = lv.pad as usize;
    let base = lv.base as usize;
    let g = lv.groups as usize;
    let mut out = [0u64; MAX_EXPANDED_RANK];
    let mut i = 0;
    while i < base {
        out[i] = if i < pad { 1 } else { before[i - pad] };
        i += 1;
    }
    let mut q = 0;
    while q < g {
        out[base + q] = ceil_div(lv.gdim(q), lv.gtile[q]);
        out[base + g + q] = lv.gtile[q];
        q += 1;
    }
    out
}

impl Shape {
    /// Validates the shape and compiles its tiling.
    ///
    /// # Errors
    /// Any validation error; [`ErrorKind::DynamicShape`] if a dim is `<=N`
    /// or `?`; [`ErrorKind::NotAnArray`] for `token`/`opaque`.
    pub const fn tiling(&self) -> Result<Tiling, Error> {
        tri!(self.validate_structure());
        Tiling::build(self)
    }
}

impl Tiling {
    /// Pre: the structural rules hold (see [`Shape::validate`]).
    pub(crate) const fn build(shape: &Shape) -> Result<Tiling, Error> {
        if !shape.element_type().is_array_type() {
            return Err(Error::new(ErrorKind::NotAnArray));
        }
        let logical = tri!(shape.static_dims());
        let rank = shape.rank();
        let m2m = shape.layout().minor_to_major();
        let mut t = Tiling {
            rank: rank as u8,
            logical,
            perm: [0; MAX_RANK],
            levels: [EMPTY_LEVEL; MAX_TILES],
            level_count: 0,
            dims: [0; MAX_EXPANDED_RANK],
            expanded_rank: rank as u8,
            elements: 1,
            expanded_slots: 0,
            slots: 0,
            first_level_slots: 0,
        };
        let mut p = 0;
        while p < rank {
            let l = m2m[rank - 1 - p] as usize;
            t.perm[p] = l as u8;
            t.dims[p] = logical[l];
            t.elements = match t.elements.checked_mul(logical[l]) {
                Some(v) => v,
                None => return Err(Error::new(ErrorKind::DimsOverflow)),
            };
            p += 1;
        }
        let tiles = shape.layout().tiles();
        let mut r = rank;
        let mut ti = 0;
        while ti < tiles.len() {
            let tile: &Tile = &tiles[ti];
            let k = tile.rank();
            let pad = k.saturating_sub(r);
            let rp = r + pad;
            if rp > MAX_EXPANDED_RANK {
                return Err(Error::new(ErrorKind::ExpandedTooLong));
            }
            let mut lv = EMPTY_LEVEL;
            lv.in_rank = r as u8;
            lv.pad = pad as u8;
            lv.base = (rp - k) as u8;
            let base = rp - k;
            let mut acc: u64 = 1;
            let mut g = 0;
            let mut j = 0;
            while j < k {
                // the padded input's dim `base + j`
                let d = if base + j < pad {
                    1
                } else {
                    t.dims[base + j - pad]
                };
                lv.tiled[j] = d;
                acc = match acc.checked_mul(d) {
                    Some(v) => v,
                    None => return Err(Error::new(ErrorKind::SizeOverflow)),
                };
                let td = tile.raw(j);
                if !Tile::is_combine_raw(td) {
                    lv.gtile[g] = td;
                    lv.gend[g] = j as u8;
                    g += 1;
                    acc = 1;
                }
                j += 1;
            }
            lv.groups = g as u8;
            let out_rank = base + 2 * g;
            if out_rank > MAX_EXPANDED_RANK {
                return Err(Error::new(ErrorKind::ExpandedTooLong));
            }
            let out = apply(&lv, &t.dims);
            let count = tri!(product(&out, out_rank));
            if ti == 0 {
                t.first_level_slots = count;
            }
            t.dims = out;
            r = out_rank;
            t.levels[ti] = lv;
            ti += 1;
        }
        t.level_count = tiles.len() as u8;
        t.expanded_rank = r as u8;
        t.expanded_slots = tri!(product(&t.dims, r));
        if tiles.is_empty() {
            t.first_level_slots = t.expanded_slots;
        }
        let align = shape.layout().tail_padding_alignment_in_elements;
        t.slots = {
            let rounded = ceil_div(t.expanded_slots, align);
            match rounded.checked_mul(align) {
                Some(v) => v,
                None => return Err(Error::new(ErrorKind::SizeOverflow)),
            }
        };
        Ok(t)
    }

    /// The logical rank.
    pub const fn rank(&self) -> usize {
        self.rank as usize
    }

    /// The number of elements (product of the dims).
    pub const fn elements(&self) -> u64 {
        self.elements
    }

    /// The number of slots of the final expanded shape, rounded up to `L`:
    /// the storage the layout maps into, padding included.
    pub const fn slots(&self) -> u64 {
        self.slots
    }

    /// Slots of the final expanded shape before `L` rounding.
    pub const fn expanded_slots(&self) -> u64 {
        self.expanded_slots
    }

    /// Slots counted XLA's way (`ShapeUtil::ArraySize`): the first tile's
    /// padding only (later tiles are assumed not to pad), before `L`.
    pub const fn first_level_slots(&self) -> u64 {
        self.first_level_slots
    }

    pub(crate) const fn level(&self, i: usize) -> &Level {
        &self.levels[i]
    }

    /// The number of tile levels.
    pub const fn level_count(&self) -> usize {
        self.level_count as usize
    }

    /// The physical dims: the logical dims in `minor_to_major` reversed
    /// (most major first).
    ///
    /// ```
    /// let t = tilelayout::value::parse_shape("bf16[8,1,1280,16384]{3,2,0,1}")
    ///     .unwrap().tiling().unwrap();
    /// assert_eq!(t.physical_dims().as_slice(), &[1, 8, 1280, 16384]);
    /// ```
    pub const fn physical_dims(&self) -> Index {
        let mut v = [0; MAX_RANK];
        let mut p = 0;
        while p < self.rank as usize {
            v[p] = self.logical[self.perm[p] as usize];
            p += 1;
        }
        Index { v, len: self.rank }
    }

    /// The logical dim at physical position `p` (0 = most major).
    pub const fn physical_to_logical(&self, p: usize) -> usize {
        self.perm[p] as usize
    }

    /// The final expanded dims (tile-count dims, then tile dims).
    pub const fn expanded_dims(&self) -> &[u64] {
        self.dims.split_at(self.expanded_rank as usize).0
    }

    /// Row-major strides of the final expanded dims (computed: they are
    /// the products of the dims after each).
    ///
    /// ```
    /// let t = tilelayout::value::parse_shape("f32[3,5]{1,0:T(2,2)}")
    ///     .unwrap().tiling().unwrap();
    /// assert_eq!(t.expanded_dims(), &[2, 3, 2, 2]);
    /// assert_eq!(t.expanded_strides().as_slice(), &[12, 4, 2, 1]);
    /// ```
    pub const fn expanded_strides(&self) -> ExpandedDims {
        let mut v = [0u64; MAX_EXPANDED_RANK];
        let mut stride: u64 = 1;
        let mut i = self.expanded_rank as usize;
        while i > 0 {
            i -= 1;
            v[i] = stride;
            // cannot overflow: the product of all the dims fit when built
            stride = stride.wrapping_mul(self.dims[i]);
        }
        ExpandedDims {
            v,
            len: self.expanded_rank,
        }
    }

    /// The expanded dims after tile level `level` (0 = after the first
    /// tile); `None` past the last level. The dims before any tile are
    /// [`Tiling::physical_dims`].
    ///
    /// ```
    /// let t = tilelayout::value::parse_shape("bf16[2048]{0:T(1024)(128)(2,1)}")
    ///     .unwrap().tiling().unwrap();
    /// let after = |l| t.dims_after_level(l).unwrap();
    /// assert_eq!(after(0).as_slice(), &[2, 1024]);
    /// assert_eq!(after(1).as_slice(), &[2, 8, 128]);
    /// assert_eq!(after(2).as_slice(), &[2, 4, 128, 2, 1]);
    /// ```
    pub const fn dims_after_level(&self, level: usize) -> Option<ExpandedDims> {
        if level >= self.level_count as usize {
            return None;
        }
        let lv = if level + 1 < self.level_count as usize {
            &self.levels[level + 1]
        } else {
            return Some(ExpandedDims {
                v: self.dims,
                len: self.expanded_rank,
            });
        };
        // replay the levels up to `level` from the physical dims
        let mut v = [0; MAX_EXPANDED_RANK];
        let mut p = 0;
        while p < self.rank as usize {
            v[p] = self.logical[self.perm[p] as usize];
            p += 1;
        }
        let mut li = 0;
        while li <= level {
            v = apply(&self.levels[li], &v);
            li += 1;
        }
        Some(ExpandedDims { v, len: lv.in_rank })
    }

    /// The slot of logical coordinates `index` (in the order of the dims as
    /// written).
    ///
    /// # Errors
    /// [`ErrorKind::IndexRank`] or [`ErrorKind::IndexOutOfBounds`].
    pub const fn offset(&self, index: &[u64]) -> Result<u64, Error> {
        if index.len() != self.rank as usize {
            return Err(Error::new(ErrorKind::IndexRank {
                rank: self.rank as u32,
                found: index.len() as u32,
            }));
        }
        let mut d = 0;
        while d < index.len() {
            if index[d] >= self.logical[d] {
                return Err(Error::new(ErrorKind::IndexOutOfBounds {
                    dim: d as u32,
                    index: index[d],
                    size: self.logical[d],
                }));
            }
            d += 1;
        }
        Ok(self.offset_unchecked(index))
    }

    /// [`Tiling::offset`] without the checks, for loops that produce
    /// in-bounds coordinates themselves.
    ///
    /// Pre: `index` has one in-bounds coordinate per dim. Otherwise the
    /// result is unspecified but the call still returns, in debug and
    /// release builds alike: missing coordinates read as 0, extra ones are
    /// ignored, and the arithmetic wraps.
    ///
    /// ```
    /// use tilelayout::value::parse_shape;
    /// let t = parse_shape("f32[3,5]{1,0:T(2,2)}").unwrap().tiling().unwrap();
    /// assert_eq!(t.offset_unchecked(&[2, 3]), 17);
    /// let _ = t.offset_unchecked(&[u64::MAX, u64::MAX]); // no panic
    /// let _ = t.offset_unchecked(&[1]); // no panic
    /// ```
    pub const fn offset_unchecked(&self, index: &[u64]) -> u64 {
        let mut c = [0u64; MAX_EXPANDED_RANK];
        let mut r = self.rank as usize;
        let mut p = 0;
        while p < r {
            let d = self.perm[p] as usize;
            c[p] = if d < index.len() { index[d] } else { 0 };
            p += 1;
        }
        let mut li = 0;
        while li < self.level_count as usize {
            let lv = &self.levels[li];
            let pad = lv.pad as usize;
            if pad > 0 {
                let mut i = r;
                while i > 0 {
                    i -= 1;
                    c[i + pad] = c[i];
                }
                let mut i = 0;
                while i < pad {
                    c[i] = 0;
                    i += 1;
                }
                r += pad;
            }
            let base = lv.base as usize;
            let g = lv.groups as usize;
            let mut out = [0u64; MAX_EXPANDED_RANK];
            let mut i = 0;
            while i < base {
                out[i] = c[i];
                i += 1;
            }
            let mut acc: u64 = 0;
            let mut q = 0;
            let mut j = 0;
            while j < r - base {
                acc = acc.wrapping_mul(lv.tiled[j]).wrapping_add(c[base + j]);
                if q < g && lv.gend[q] as usize == j {
                    out[base + q] = acc / lv.gtile[q];
                    out[base + g + q] = acc % lv.gtile[q];
                    q += 1;
                    acc = 0;
                }
                j += 1;
            }
            c = out;
            r = base + 2 * g;
            li += 1;
        }
        // row-major in the final dims, by Horner's rule (the same sum as
        // coordinates times strides, also when it wraps)
        let mut lin = 0u64;
        let mut i = 0;
        while i < r {
            lin = lin.wrapping_mul(self.dims[i]).wrapping_add(c[i]);
            i += 1;
        }
        lin
    }

    /// The logical coordinates stored at `slot`, or `None` for padding.
    ///
    /// # Errors
    /// [`ErrorKind::SlotOutOfBounds`] if `slot >= slots()`.
    pub const fn coords(&self, slot: u64) -> Result<Option<Index>, Error> {
        if slot >= self.slots {
            return Err(Error::new(ErrorKind::SlotOutOfBounds {
                slot,
                slots: self.slots,
            }));
        }
        if slot >= self.expanded_slots {
            return Ok(None);
        }
        let mut c = [0u64; MAX_EXPANDED_RANK];
        let mut r = self.expanded_rank as usize;
        // the digits of `slot` in the final dims, most minor first
        let mut rest = slot;
        let mut i = r;
        while i > 0 {
            i -= 1;
            c[i] = rest % self.dims[i];
            rest /= self.dims[i];
        }
        let mut li = self.level_count as usize;
        while li > 0 {
            li -= 1;
            let lv = &self.levels[li];
            let base = lv.base as usize;
            let g = lv.groups as usize;
            let pad = lv.pad as usize;
            let rp = lv.in_rank as usize + pad;
            let mut inp = [0u64; MAX_EXPANDED_RANK];
            let mut i = 0;
            while i < base {
                inp[i] = c[i];
                i += 1;
            }
            let mut q = 0;
            let mut start = 0usize; // tile position where group q starts
            while q < g {
                let mut v = c[base + q] * lv.gtile[q] + c[base + g + q];
                if v >= lv.gdim(q) {
                    return Ok(None);
                }
                let end = lv.gend[q] as usize;
                let mut j = end + 1;
                while j > start {
                    j -= 1;
                    let d = lv.tiled[j];
                    inp[base + j] = v % d;
                    v /= d;
                }
                start = end + 1;
                q += 1;
            }
            // drop the left padding (its coordinates are 0: the dims are 1)
            let mut i = 0;
            while i < rp - pad {
                inp[i] = inp[i + pad];
                i += 1;
            }
            c = inp;
            r = rp - pad;
        }
        let _ = r;
        let mut v = [0u64; MAX_RANK];
        let mut p = 0;
        while p < self.rank as usize {
            v[self.perm[p] as usize] = c[p];
            p += 1;
        }
        Ok(Some(Index { v, len: self.rank }))
    }

    /// Iterates over all slots in memory order, yielding the coordinates
    /// stored there (`None` for padding).
    ///
    /// ```
    /// let t = tilelayout::value::parse_shape("f32[4,8]{1,0:T(2,4)(2,1)}")
    ///     .unwrap().tiling().unwrap();
    /// let first: Vec<_> = t.slots_in_order().take(3)
    ///     .map(|c| c.unwrap().as_slice().to_vec()).collect();
    /// assert_eq!(first, [vec![0, 0], vec![1, 0], vec![0, 1]]);
    /// ```
    pub const fn slots_in_order(&self) -> SlotIter<'_> {
        SlotIter {
            tiling: self,
            next: 0,
        }
    }
}

/// Iterator over a tiling's slots in memory order (see
/// [`Tiling::slots_in_order`]).
#[derive(Clone, Debug)]
pub struct SlotIter<'a> {
    tiling: &'a Tiling,
    next: u64,
}

impl Iterator for SlotIter<'_> {
    type Item = Option<Index>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.tiling.slots {
            return None;
        }
        let r = self.tiling.coords(self.next).ok().flatten();
        self.next += 1;
        Some(r)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.tiling.slots.saturating_sub(self.next);
        let n = usize::try_from(left).unwrap_or(usize::MAX);
        (n, usize::try_from(left).ok())
    }
}

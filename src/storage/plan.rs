//! Relayout planning: both sides as digits of the logical coordinates, their
//! common refinement, and the loop nest that copies along it.
//!
//! A side without combined dims (`*`) whose tile splits are clean (a split
//! of anything but the most major part of a dim divides it) maps logical
//! coordinate `e_d` of dim `d` to `Σ_k ((e_d / w_k) mod n_k) · s_k`: a list
//! of *digits* (weight `w`, count `n`, stride `s`) per dim, the weights a
//! chain (`w_{k+1} = w_k · n_k`). Strided arrays are one digit per dim.
//!
//! Pre: both sides have the same dims and storage width.
//! Post (asserted by `tests/relayout_*.rs`):
//! 1. the loops visit every element exactly once, and its source and
//!    destination offsets are the element-wise ones (`Tiling::offset`);
//! 2. in [`Fill::Inline`] mode they visit every destination slot below
//!    `expanded_slots` exactly once (padding included);
//! 3. two loops merge only if both sides stay affine over the merged range.

use super::error::StorageError;
use super::fixed::Fixed;
use crate::value::{bits_to_bytes, PrimitiveType, Shape, TileDim, Tiling, MAX_RANK, MAX_TILE_RANK};

/// An array in plain strided storage: element `c` at slot
/// `Σ c[d] · strides[d]`, each slot `bits` bits wide (sub-byte slots are
/// packed as in [`packed`](super::packed)).
///
/// Invariant: one stride per dim; the largest offset fits `u64` and
/// `usize`.
///
/// ```
/// use tilelayout::storage::Strided;
/// let r = Strided::row_major(&[3, 5], 32)?;
/// assert_eq!(r.strides(), &[5, 1]);
/// let c = Strided::column_major(&[3, 5], 32)?;
/// assert_eq!(c.strides(), &[1, 3]);
/// assert_eq!(Strided::new(&[3, 5], &[1, 8], 16)?.slots(), 35);
/// # Ok::<(), tilelayout::storage::StorageError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strided {
    dims: [u64; MAX_RANK],
    strides: [u64; MAX_RANK],
    rank: u8,
    bits: u32,
    slots: u64,
}

impl Strided {
    /// Dims with the given strides (in slots).
    ///
    /// # Errors
    /// [`StorageError::Strides`] if the lengths differ or exceed
    /// [`MAX_RANK`], or the largest offset overflows;
    /// [`StorageError::ElementSize`] unless `bits` is 1, 2, 4 or a
    /// multiple of 8 up to 128.
    pub const fn new(dims: &[u64], strides: &[u64], bits: u32) -> Result<Strided, StorageError> {
        if dims.len() != strides.len() || dims.len() > MAX_RANK {
            return Err(StorageError::Strides);
        }
        if !matches!(bits, 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128) {
            return Err(StorageError::ElementSize { bits: bits as u64 });
        }
        let mut s = Strided {
            dims: [0; MAX_RANK],
            strides: [0; MAX_RANK],
            rank: dims.len() as u8,
            bits,
            slots: 1,
        };
        let mut last: u64 = 0;
        let mut d = 0;
        while d < dims.len() {
            let (n, st) = (dims[d], strides[d]);
            s.dims[d] = n;
            s.strides[d] = st;
            if n == 0 {
                s.slots = 0;
            }
            let Some(reach) = n.saturating_sub(1).checked_mul(st) else {
                return Err(StorageError::Strides);
            };
            last = match last.checked_add(reach) {
                Some(x) => x,
                None => return Err(StorageError::Strides),
            };
            d += 1;
        }
        if s.slots != 0 {
            s.slots = match last.checked_add(1) {
                Some(x) => x,
                None => return Err(StorageError::Strides),
            };
        }
        if bits_to_bytes(s.slots, bits as u64).is_err() {
            return Err(StorageError::Strides);
        }
        if s.slots > usize::MAX as u64 {
            return Err(StorageError::TooLarge);
        }
        Ok(s)
    }

    /// Row-major (C order): the last dim is contiguous.
    ///
    /// # Errors
    /// As [`Strided::new`].
    pub const fn row_major(dims: &[u64], bits: u32) -> Result<Strided, StorageError> {
        Strided::ordered(dims, bits, true)
    }

    /// Column-major (Fortran order): the first dim is contiguous.
    ///
    /// # Errors
    /// As [`Strided::new`].
    pub const fn column_major(dims: &[u64], bits: u32) -> Result<Strided, StorageError> {
        Strided::ordered(dims, bits, false)
    }

    /// Dense strides, the last dim contiguous (`last_minor`) or the first.
    const fn ordered(dims: &[u64], bits: u32, last_minor: bool) -> Result<Strided, StorageError> {
        let rank = if dims.len() < MAX_RANK {
            dims.len()
        } else {
            MAX_RANK
        };
        let mut st = [0u64; MAX_RANK];
        let mut acc: u64 = 1;
        let mut k = 0;
        while k < rank {
            let d = if last_minor { rank - 1 - k } else { k };
            st[d] = acc;
            let n = if dims[d] > 1 { dims[d] } else { 1 };
            acc = match acc.checked_mul(n) {
                Some(x) => x,
                None => return Err(StorageError::Strides),
            };
            k += 1;
        }
        Strided::new(dims, st.split_at(rank).0, bits)
    }

    /// The dims.
    pub fn dims(&self) -> &[u64] {
        &self.dims[..self.rank as usize]
    }

    /// The strides, in slots.
    pub fn strides(&self) -> &[u64] {
        &self.strides[..self.rank as usize]
    }

    /// Bits per slot.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Slots the storage needs: the largest offset plus one (0 if empty).
    pub fn slots(&self) -> u64 {
        self.slots
    }
}

/// One side of a relayout: a tiled (or plain) XLA shape, or any strided
/// array. Typed layouts plug in by converting into one of these.
#[derive(Clone, Copy, Debug)]
#[allow(clippy::large_enum_variant)] // reason: `Shape` is the core's fixed-capacity value; one per plan side
pub enum ArrayLayout {
    /// A shape with its layout (tiles, `minor_to_major`, `E(n)`, `L(n)`).
    Tiled(Shape),
    /// Plain strided storage.
    Strided(Strided),
}

impl From<Shape> for ArrayLayout {
    fn from(s: Shape) -> Self {
        ArrayLayout::Tiled(s)
    }
}

impl From<&Shape> for ArrayLayout {
    fn from(s: &Shape) -> Self {
        ArrayLayout::Tiled(*s)
    }
}

impl From<Strided> for ArrayLayout {
    fn from(s: Strided) -> Self {
        ArrayLayout::Strided(s)
    }
}

/// A side, checked and compiled.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // reason: `Tiling` is the core's fixed-capacity value; two per plan
pub(crate) enum Side {
    Tiled { tiling: Tiling, bits: u32 },
    Strided(Strided),
}

impl Side {
    pub(crate) const fn new(a: &ArrayLayout) -> Result<Side, StorageError> {
        match a {
            ArrayLayout::Strided(s) => Ok(Side::Strided(*s)),
            ArrayLayout::Tiled(shape) => {
                // A bounded dynamic array is laid out at its bound, as XLA
                // allocates it.
                let shape = &match shape.at_bound() {
                    Ok(s) => s,
                    Err(e) => return Err(StorageError::Shape(e)),
                };
                let tiling = match shape.tiling() {
                    Ok(t) => t,
                    Err(e) => return Err(StorageError::Shape(e)),
                };
                let bits = shape.storage_bits();
                if !matches!(bits, 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128) {
                    return Err(StorageError::ElementSize { bits });
                }
                if let Err(e) = bits_to_bytes(tiling.slots(), bits) {
                    return Err(StorageError::Shape(e));
                }
                if tiling.slots() > usize::MAX as u64 {
                    return Err(StorageError::TooLarge);
                }
                if matches!(shape.element_type(), PrimitiveType::Token) {
                    return Err(StorageError::Shape(crate::value::Error::new(
                        crate::value::ErrorKind::NotAnArray,
                    )));
                }
                Ok(Side::Tiled {
                    tiling,
                    bits: bits as u32,
                })
            }
        }
    }

    pub(crate) const fn dims(&self) -> ([u64; MAX_RANK], usize) {
        match self {
            Side::Strided(s) => (s.dims, s.rank as usize),
            Side::Tiled { tiling, .. } => {
                let mut d = [0; MAX_RANK];
                let p = tiling.physical_dims();
                let p = p.as_slice();
                let mut i = 0;
                while i < p.len() {
                    d[tiling.physical_to_logical(i)] = p[i];
                    i += 1;
                }
                (d, tiling.rank())
            }
        }
    }

    pub(crate) const fn bits(&self) -> u32 {
        match self {
            Side::Strided(s) => s.bits,
            Side::Tiled { bits, .. } => *bits,
        }
    }

    /// Storage slots (padding and `L` tail included).
    pub(crate) const fn slots(&self) -> u64 {
        match self {
            Side::Strided(s) => s.slots,
            Side::Tiled { tiling, .. } => tiling.slots(),
        }
    }

    /// Slots that no element maps to, if the side is tiled and has any.
    pub(crate) const fn has_padding(&self) -> bool {
        match self {
            Side::Strided(_) => false,
            Side::Tiled { tiling, .. } => tiling.slots() != tiling.elements(),
        }
    }

    /// The element-wise offset (the reference the fast plan must match).
    pub(crate) fn offset(&self, c: &[u64]) -> u64 {
        match self {
            Side::Strided(s) => c.iter().zip(s.strides()).map(|(a, b)| a * b).sum(),
            Side::Tiled { tiling, .. } => tiling.offset_unchecked(c),
        }
    }
}

/// One digit of a dim on one side: value `(e / w) mod n`, at stride `s`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Digit {
    pub(crate) dim: u32,
    pub(crate) w: u64,
    pub(crate) n: u64,
    pub(crate) s: u64,
}

impl Digit {
    const ZERO: Digit = Digit {
        dim: 0,
        w: 0,
        n: 0,
        s: 0,
    };
}

/// Most digits of a side, loops of a nest, and dims (logical and pseudo)
/// a plan handles; a layout needing more takes the element-wise path.
pub(crate) const DIGITS: usize = 64;
/// See [`DIGITS`].
pub(crate) const LOOPS: usize = 64;
/// See [`DIGITS`].
pub(crate) const DIMS: usize = 48;

/// The loops of a nest (in place: planning needs no allocator).
pub(crate) type Loops = Fixed<Loop, LOOPS>;
/// The size of each constrained dim of a nest.
pub(crate) type Sizes = Fixed<u64, DIMS>;

/// A side's digits; dims `rank..` are size-1 dims the tiling padded in.
pub(crate) struct Digits {
    pub(crate) digits: Fixed<Digit, DIGITS>,
    pub(crate) pseudo: u32,
}

/// A dim part while a side's tiles are applied: dim `dim` from weight `w`,
/// `size` values; `top`: the most major part of its dim (only it may be
/// padded).
#[derive(Clone, Copy)]
struct Entry {
    dim: u32,
    w: u64,
    size: u64,
    top: bool,
}

const NO_ENTRY: Entry = Entry {
    dim: 0,
    w: 0,
    size: 0,
    top: false,
};

/// The digits of a side, or `None` if it is not a clean mixed radix
/// (combined dims, or a split that does not divide an inner part), or has
/// more than [`DIGITS`] parts.
pub(crate) const fn digits(
    side: &Side,
    shape_tiles: Option<&Shape>,
    first_pseudo: u32,
) -> Option<Digits> {
    let mut out = Fixed::empty(Digit::ZERO);
    match side {
        Side::Strided(s) => {
            let mut d = 0;
            while d < s.rank as usize {
                let n = s.dims[d];
                let digit = Digit {
                    dim: d as u32,
                    w: 1,
                    n,
                    s: s.strides[d],
                };
                if n > 1 && !out.push(digit) {
                    return None;
                }
                d += 1;
            }
            Some(Digits {
                digits: out,
                pseudo: 0,
            })
        }
        Side::Tiled { tiling, .. } => {
            let Some(shape) = shape_tiles else {
                return None;
            };
            let mut pseudo = 0u32;
            let mut entries: Fixed<Entry, DIGITS> = Fixed::empty(NO_ENTRY);
            let p = tiling.physical_dims();
            let p = p.as_slice();
            let mut i = 0;
            while i < p.len() {
                let e = Entry {
                    dim: tiling.physical_to_logical(i) as u32,
                    w: 1,
                    size: p[i],
                    top: true,
                };
                if !entries.push(e) {
                    return None;
                }
                i += 1;
            }
            let tiles = shape.layout().tiles();
            let mut t = 0;
            while t < tiles.len() {
                let tile = &tiles[t];
                let k = tile.rank();
                while entries.as_slice().len() < k {
                    let e = Entry {
                        dim: first_pseudo + pseudo,
                        w: 1,
                        size: 1,
                        top: true,
                    };
                    if !entries.insert(0, e) {
                        return None;
                    }
                    pseudo += 1;
                }
                let base = entries.as_slice().len() - k;
                let mut outer: Fixed<Entry, MAX_TILE_RANK> = Fixed::empty(NO_ENTRY);
                let mut inner: Fixed<Entry, MAX_TILE_RANK> = Fixed::empty(NO_ENTRY);
                let mut j = 0;
                while j < k {
                    let size = match tile.dim(j) {
                        TileDim::Size(size) => size,
                        TileDim::Combine => return None,
                    };
                    let e = entries.as_slice()[base + j];
                    if !e.top && !e.size.is_multiple_of(size) {
                        return None;
                    }
                    // A tile dim far above the dim it tiles (`T(2^63-1)`)
                    // overflows the weight: plan element-wise instead.
                    let Some(w) = e.w.checked_mul(size) else {
                        return None;
                    };
                    let o = Entry {
                        dim: e.dim,
                        w,
                        size: e.size.div_ceil(size),
                        top: e.top,
                    };
                    let n = Entry {
                        dim: e.dim,
                        w: e.w,
                        size,
                        top: false,
                    };
                    if !outer.push(o) || !inner.push(n) {
                        return None;
                    }
                    j += 1;
                }
                entries.truncate(base);
                if !entries.extend_from_slice(outer.as_slice())
                    || !entries.extend_from_slice(inner.as_slice())
                {
                    return None;
                }
                t += 1;
            }
            let dims = tiling.expanded_dims();
            let strides = tiling.expanded_strides();
            let strides = strides.as_slice();
            if dims.len() != entries.as_slice().len() {
                return None;
            }
            let mut i = 0;
            while i < dims.len() {
                let e = entries.as_slice()[i];
                if e.size != dims[i] {
                    return None;
                }
                let digit = Digit {
                    dim: e.dim,
                    w: e.w,
                    n: e.size,
                    s: strides[i],
                };
                if e.size > 1 && !out.push(digit) {
                    return None;
                }
                i += 1;
            }
            Some(Digits {
                digits: out,
                pseudo,
            })
        }
    }
}

/// No dim constraint: every value of the loop is in bounds.
pub(crate) const FREE: u32 = u32::MAX;

/// One loop of the nest: `n` steps of `src`/`dst` slots; it is digit `w`
/// of dim `dim` (or [`FREE`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Loop {
    pub(crate) n: u64,
    pub(crate) src: u64,
    pub(crate) dst: u64,
    pub(crate) dim: u32,
    pub(crate) w: u64,
}

impl Loop {
    /// A loop of one step, no dim: the neutral loop.
    pub(crate) const ONE: Loop = Loop {
        n: 1,
        src: 0,
        dst: 0,
        dim: FREE,
        w: 1,
    };
}

/// The loops of the common refinement of two digit lists, and the size of
/// each constrained dim (pseudo dims are size 1), or `None` if their weights
/// do not form one divisibility chain for some dim (or the loops do not fit
/// [`LOOPS`]).
pub(crate) const fn refine(
    rank: usize,
    dims: &[u64],
    src: &Digits,
    dst: &Digits,
) -> Option<(Loops, Sizes)> {
    // An empty array moves nothing (the element-wise path only fills
    // padding); its tiles may be far larger than any dim, so the digit
    // arithmetic below, bounded by the slot count otherwise, could overflow.
    let mut d = 0;
    while d < rank {
        if dims[d] == 0 {
            return None;
        }
        d += 1;
    }
    let src_pseudo_base = rank as u32;
    let total = rank + src.pseudo as usize + dst.pseudo as usize;
    let mut sizes = Sizes::empty(0);
    let mut d = 0;
    while d < total {
        if !sizes.push(if d < rank { dims[d] } else { 1 }) {
            return None;
        }
        d += 1;
    }
    let (sd, dd) = (src.digits.as_slice(), dst.digits.as_slice());
    let mut loops = Loops::empty(Loop::ONE);
    let mut weights: Fixed<u64, { 2 * DIGITS + 1 }> = Fixed::empty(0);
    let mut d = 0;
    while d < total {
        let dim = d as u32;
        let size = sizes.as_slice()[d];
        // this dim's weights on both sides (and 1), sorted, distinct; the
        // destination's cover
        weights.truncate(0);
        let _ = weights.push(1);
        let mut cover = size;
        let mut i = 0;
        while i < sd.len() {
            if sd[i].dim == dim && !weights.push(sd[i].w) {
                return None;
            }
            i += 1;
        }
        let mut i = 0;
        while i < dd.len() {
            let g = &dd[i];
            if dst_dim(g, src_pseudo_base, src.pseudo) == dim {
                if !weights.push(g.w) {
                    return None;
                }
                // bounded by the padded extent of the dim (≤ slots)
                let Some(c) = g.w.checked_mul(g.n) else {
                    return None;
                };
                if c > cover {
                    cover = c;
                }
            }
            i += 1;
        }
        sort_u64(weights.as_mut_slice());
        let mut kept = 0;
        let mut i = 0;
        while i < weights.as_slice().len() {
            let w = weights.as_slice()[i];
            if kept == 0 || w != weights.as_slice()[kept - 1] {
                weights.as_mut_slice()[kept] = w;
                kept += 1;
            }
            i += 1;
        }
        weights.truncate(kept);
        let ws = weights.as_slice();
        let mut i = 1;
        while i < ws.len() {
            if !ws[i].is_multiple_of(ws[i - 1]) {
                return None;
            }
            i += 1;
        }
        let mut exact = true;
        let mut i = 0;
        while i < ws.len() {
            let w = ws[i];
            let n = if i + 1 < ws.len() {
                ws[i + 1] / w
            } else {
                let n = cover.div_ceil(w);
                exact = n * w == size;
                n
            };
            if n > 1 {
                // (a stride past u64: no plan of loops; the element-wise path)
                let (Some(src_stride), Some(dst_stride)) = (
                    stride(sd, w, dim, None),
                    stride(dd, w, dim, Some((src_pseudo_base, src.pseudo))),
                ) else {
                    return None;
                };
                let l = Loop {
                    n,
                    src: src_stride,
                    dst: dst_stride,
                    dim,
                    w,
                };
                if !loops.push(l) {
                    return None;
                }
            }
            i += 1;
        }
        if exact {
            let ls = loops.as_mut_slice();
            let mut i = 0;
            while i < ls.len() {
                if ls[i].dim == dim {
                    ls[i].dim = FREE;
                }
                i += 1;
            }
        }
        d += 1;
    }
    Some((loops, sizes))
}

/// The stride of weight `w` of dim `dim` on a side: its digit of the
/// largest weight `<= w`, scaled (0 if none; `None` if it overflows). With
/// `pseudo = Some((base, shift))`, the side's dims `>= base` are pseudo dims
/// numbered `shift` later (the destination's).
const fn stride(ds: &[Digit], w: u64, dim: u32, pseudo: Option<(u32, u32)>) -> Option<u64> {
    let mut best: Option<Digit> = None;
    let mut i = 0;
    while i < ds.len() {
        let g = ds[i];
        let gd = match pseudo {
            Some((base, shift)) => dst_dim(&g, base, shift),
            None => g.dim,
        };
        if gd == dim && g.w <= w {
            best = match best {
                Some(b) if b.w >= g.w => Some(b),
                _ => Some(g),
            };
        }
        i += 1;
    }
    match best {
        Some(g) => g.s.checked_mul(w / g.w),
        None => Some(0),
    }
}

/// The dim of destination digit `g`: pseudo dims (`>= base`) are numbered
/// after the source's `shift` ones.
const fn dst_dim(g: &Digit, base: u32, shift: u32) -> u32 {
    if g.dim >= base {
        g.dim + shift
    } else {
        g.dim
    }
}

/// Sorts `s` ascending (insertion sort: short lists, `const`).
const fn sort_u64(s: &mut [u64]) {
    let mut i = 1;
    while i < s.len() {
        let x = s[i];
        let mut j = i;
        while j > 0 && s[j - 1] > x {
            s[j] = s[j - 1];
            j -= 1;
        }
        s[j] = x;
        i += 1;
    }
}

/// The orders the planner sorts loops in, outermost first.
#[derive(Clone, Copy)]
pub(crate) enum Order {
    /// Destination stride descending, then source stride descending.
    Dst,
    /// Source stride descending, then destination stride descending.
    Src,
    /// The smaller of the two strides descending, then destination stride
    /// descending (cache blocking).
    Block,
}

/// Whether `x` goes before `y` in `order`.
const fn before(order: Order, x: &Loop, y: &Loop) -> bool {
    const fn min(a: u64, b: u64) -> u64 {
        if a < b {
            a
        } else {
            b
        }
    }
    let (k1x, k1y, k2x, k2y) = match order {
        Order::Dst => (x.dst, y.dst, x.src, y.src),
        Order::Src => (x.src, y.src, x.dst, y.dst),
        Order::Block => (min(x.src, x.dst), min(y.src, y.dst), x.dst, y.dst),
    };
    // descending on both keys
    k1x > k1y || (k1x == k1y && k2x > k2y)
}

/// Sorts loops stably in `order` (insertion sort: short lists, `const`).
pub(crate) const fn sort_loops(s: &mut [Loop], order: Order) {
    let mut i = 1;
    while i < s.len() {
        let x = s[i];
        let mut j = i;
        while j > 0 && before(order, &x, &s[j - 1]) {
            s[j] = s[j - 1];
            j -= 1;
        }
        s[j] = x;
        i += 1;
    }
}

/// Sorts loops by destination stride (outermost first) and merges
/// neighbours along which both sides stay affine (Post 3).
pub(crate) const fn coalesce(loops: &mut Loops) {
    sort_loops(loops.as_mut_slice(), Order::Dst);
    let ls = loops.as_mut_slice();
    let mut kept = 0;
    let mut i = 0;
    while i < ls.len() {
        let l = ls[i];
        let mut merged = false;
        if kept > 0 {
            let a = ls[kept - 1];
            let same = (a.dim == FREE && l.dim == FREE) || (a.dim == l.dim && a.w == l.w * l.n);
            if same && a.src == l.n * l.src && a.dst == l.n * l.dst {
                ls[kept - 1] = Loop { n: a.n * l.n, ..l };
                merged = true;
            }
        }
        if !merged {
            ls[kept] = l;
            kept += 1;
        }
        i += 1;
    }
    loops.truncate(kept);
}

/// Whether `loops` (sorted by destination stride) cover `0..slots` of the
/// destination exactly once.
pub(crate) const fn dense(loops: &[Loop], slots: u64) -> bool {
    let mut expect = 1u64;
    let mut i = loops.len();
    while i > 0 {
        i -= 1;
        let l = &loops[i];
        if l.dst != expect {
            return false;
        }
        expect = match expect.checked_mul(l.n) {
            Some(v) => v,
            None => return false,
        };
    }
    expect == slots
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Digits of `dim` at weights `w` (each the ratio to the next).
    fn chain(dim: u32, ws: &[u64]) -> impl Iterator<Item = Digit> + '_ {
        ws.windows(2).map(move |p| Digit {
            dim,
            w: p[0],
            n: p[1] / p[0],
            s: p[0],
        })
    }

    #[test]
    fn refinements_past_the_loop_capacity_are_refused_not_truncated() {
        // two dims of 2^60; the source splits them at even powers of two,
        // the destination at odd ones: 60 loops each, 120 > LOOPS
        let even: [u64; 31] = core::array::from_fn(|j| 1 << (2 * j));
        let odd: [u64; 32] = core::array::from_fn(|j| match j {
            0 => 1,
            31 => 1 << 60,
            j => 1 << (2 * j - 1),
        });
        let side = |ws: &[u64]| {
            let mut digits = Fixed::empty(Digit::ZERO);
            for g in chain(0, ws).chain(chain(1, ws)) {
                assert!(digits.push(g));
            }
            Digits { digits, pseudo: 0 }
        };
        let dims = [1u64 << 60, 1 << 60];
        assert!(refine(2, &dims, &side(&even), &side(&odd)).is_none());
        // the same split on both sides fits: 30 loops a dim
        let (loops, sizes) = refine(2, &dims, &side(&even), &side(&even)).unwrap();
        assert_eq!((loops.len(), &*sizes), (60, &dims[..]));
    }

    #[test]
    fn coalesce_merges_affine_neighbours_in_place() {
        let l = |n, src, dst| Loop {
            n,
            src,
            dst,
            dim: FREE,
            w: 1,
        };
        // rows of 8 contiguous on both sides, then a transposed pair
        let mut loops = Loops::empty(Loop::ONE);
        assert!(loops.extend_from_slice(&[l(8, 1, 1), l(4, 8, 8), l(2, 32, 64), l(2, 64, 32)]));
        coalesce(&mut loops);
        assert_eq!(&*loops, &[l(2, 32, 64), l(2, 64, 32), l(32, 1, 1)]);
    }
}

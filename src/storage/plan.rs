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
use super::fixed::{sort_by, Fixed};
use crate::value::{bits_to_bytes, PrimitiveType, Shape, TileDim, Tiling, MAX_RANK};

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
    pub fn new(dims: &[u64], strides: &[u64], bits: u32) -> Result<Strided, StorageError> {
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
        for (d, (&n, &st)) in dims.iter().zip(strides).enumerate() {
            s.dims[d] = n;
            s.strides[d] = st;
            if n == 0 {
                s.slots = 0;
            }
            let reach = (n.saturating_sub(1))
                .checked_mul(st)
                .ok_or(StorageError::Strides)?;
            last = last.checked_add(reach).ok_or(StorageError::Strides)?;
        }
        if s.slots != 0 {
            s.slots = last.checked_add(1).ok_or(StorageError::Strides)?;
        }
        bits_to_bytes(s.slots, bits as u64).map_err(|_| StorageError::Strides)?;
        if usize::try_from(s.slots).is_err() {
            return Err(StorageError::TooLarge);
        }
        Ok(s)
    }

    /// Row-major (C order): the last dim is contiguous.
    ///
    /// # Errors
    /// As [`Strided::new`].
    pub fn row_major(dims: &[u64], bits: u32) -> Result<Strided, StorageError> {
        let mut st = [0u64; MAX_RANK];
        let mut acc: u64 = 1;
        for d in (0..dims.len().min(MAX_RANK)).rev() {
            st[d] = acc;
            acc = acc
                .checked_mul(dims[d].max(1))
                .ok_or(StorageError::Strides)?;
        }
        Strided::new(dims, &st[..dims.len().min(MAX_RANK)], bits)
    }

    /// Column-major (Fortran order): the first dim is contiguous.
    ///
    /// # Errors
    /// As [`Strided::new`].
    pub fn column_major(dims: &[u64], bits: u32) -> Result<Strided, StorageError> {
        let mut st = [0u64; MAX_RANK];
        let mut acc: u64 = 1;
        for d in 0..dims.len().min(MAX_RANK) {
            st[d] = acc;
            acc = acc
                .checked_mul(dims[d].max(1))
                .ok_or(StorageError::Strides)?;
        }
        Strided::new(dims, &st[..dims.len().min(MAX_RANK)], bits)
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
    pub(crate) fn new(a: &ArrayLayout) -> Result<Side, StorageError> {
        match a {
            ArrayLayout::Strided(s) => Ok(Side::Strided(*s)),
            ArrayLayout::Tiled(shape) => {
                let tiling = shape.tiling()?;
                let bits = shape.storage_bits();
                if !matches!(bits, 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128) {
                    return Err(StorageError::ElementSize { bits });
                }
                bits_to_bytes(tiling.slots(), bits)?;
                if usize::try_from(tiling.slots()).is_err() {
                    return Err(StorageError::TooLarge);
                }
                if shape.element_type() == PrimitiveType::Token {
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

    pub(crate) fn dims(&self) -> ([u64; MAX_RANK], usize) {
        match self {
            Side::Strided(s) => (s.dims, s.rank as usize),
            Side::Tiled { tiling, .. } => {
                let mut d = [0; MAX_RANK];
                let p = tiling.physical_dims();
                for (i, &n) in p.as_slice().iter().enumerate() {
                    d[tiling.physical_to_logical(i)] = n;
                }
                (d, tiling.rank())
            }
        }
    }

    pub(crate) fn bits(&self) -> u32 {
        match self {
            Side::Strided(s) => s.bits,
            Side::Tiled { bits, .. } => *bits,
        }
    }

    /// Storage slots (padding and `L` tail included).
    pub(crate) fn slots(&self) -> u64 {
        match self {
            Side::Strided(s) => s.slots,
            Side::Tiled { tiling, .. } => tiling.slots(),
        }
    }

    /// Slots that no element maps to, if the side is tiled and has any.
    pub(crate) fn has_padding(&self) -> bool {
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

/// The digits of a side, or `None` if it is not a clean mixed radix
/// (combined dims, or a split that does not divide an inner part).
pub(crate) fn digits(
    side: &Side,
    shape_tiles: Option<&Shape>,
    first_pseudo: u32,
) -> Option<Digits> {
    match side {
        Side::Strided(s) => Some(Digits {
            digits: Fixed::collect((0..s.rank as usize).filter(|&d| s.dims[d] > 1).map(|d| {
                Digit {
                    dim: d as u32,
                    w: 1,
                    n: s.dims[d],
                    s: s.strides[d],
                }
            }))?,
            pseudo: 0,
        }),
        Side::Tiled { tiling, .. } => {
            let shape = shape_tiles?;
            #[derive(Clone, Copy, Default)]
            struct Entry {
                dim: u32,
                w: u64,
                size: u64,
                top: bool,
            }
            let mut pseudo = 0u32;
            let p = tiling.physical_dims();
            let mut entries: Fixed<Entry, DIGITS> =
                Fixed::collect(p.as_slice().iter().enumerate().map(|(i, &n)| Entry {
                    dim: tiling.physical_to_logical(i) as u32,
                    w: 1,
                    size: n,
                    top: true,
                }))?;
            for tile in shape.layout().tiles() {
                let k = tile.rank();
                let mut sizes = [0u64; MAX_RANK];
                for (j, sz) in sizes.iter_mut().enumerate().take(k) {
                    match tile.dim(j) {
                        TileDim::Size(t) => *sz = t,
                        TileDim::Combine => return None,
                    }
                }
                while entries.len() < k {
                    entries.insert(
                        0,
                        Entry {
                            dim: first_pseudo + pseudo,
                            w: 1,
                            size: 1,
                            top: true,
                        },
                    )?;
                    pseudo += 1;
                }
                let base = entries.len() - k;
                let mut outer: Fixed<Entry, MAX_RANK> = Fixed::new();
                let mut inner: Fixed<Entry, MAX_RANK> = Fixed::new();
                for (j, e) in entries[base..].iter().enumerate() {
                    let t = sizes[j];
                    if !e.top && e.size % t != 0 {
                        return None;
                    }
                    outer.push(Entry {
                        dim: e.dim,
                        w: e.w * t,
                        size: e.size.div_ceil(t),
                        top: e.top,
                    })?;
                    inner.push(Entry {
                        dim: e.dim,
                        w: e.w,
                        size: t,
                        top: false,
                    })?;
                }
                entries.truncate(base);
                entries.extend(outer.iter().copied())?;
                entries.extend(inner.iter().copied())?;
            }
            let dims = tiling.expanded_dims();
            let strides = tiling.expanded_strides();
            if dims.len() != entries.len() || entries.iter().zip(dims).any(|(e, &d)| e.size != d) {
                return None;
            }
            Some(Digits {
                digits: Fixed::collect(
                    entries
                        .iter()
                        .zip(strides)
                        .filter(|(e, _)| e.size > 1)
                        .map(|(e, &s)| Digit {
                            dim: e.dim,
                            w: e.w,
                            n: e.size,
                            s,
                        }),
                )?,
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

/// The loops of the common refinement of two digit lists, and the size of
/// each constrained dim (pseudo dims are size 1), or `None` if their weights
/// do not form one divisibility chain for some dim (or the loops do not fit
/// [`LOOPS`]).
pub(crate) fn refine(
    rank: usize,
    dims: &[u64],
    src: &Digits,
    dst: &Digits,
) -> Option<(Loops, Sizes)> {
    let src_pseudo_base = rank as u32;
    let total = rank + src.pseudo as usize + dst.pseudo as usize;
    let mut sizes = Sizes::from_slice(&dims[..rank])?;
    sizes.extend((rank..total).map(|_| 1))?;
    // dst pseudo dims are numbered after the source's
    let dst_dim = |d: u32| {
        if d >= src_pseudo_base {
            d + src.pseudo
        } else {
            d
        }
    };
    let mut loops = Loops::new();
    let mut weights: Fixed<u64, { 2 * DIGITS + 1 }> = Fixed::new();
    for d in 0..total as u32 {
        // this dim's digits on each side
        let sd = || src.digits.iter().filter(move |g| g.dim == d);
        let dd = || dst.digits.iter().filter(move |g| dst_dim(g.dim) == d);
        let size = sizes[d as usize];
        let cover = dd().map(|g| g.w * g.n).max().unwrap_or(size).max(size);
        weights.clear();
        weights.push(1)?;
        weights.extend(sd().chain(dd()).map(|g| g.w))?;
        weights.sort_unstable();
        let mut kept = 0;
        for i in 0..weights.len() {
            if kept == 0 || weights[i] != weights[kept - 1] {
                weights[kept] = weights[i];
                kept += 1;
            }
        }
        weights.truncate(kept);
        if weights.windows(2).any(|p| p[1] % p[0] != 0) {
            return None;
        }
        let top = *weights.last()?;
        let mut exact = true;
        for (i, &w) in weights.iter().enumerate() {
            let n = match weights.get(i + 1) {
                Some(&next) => next / w,
                None => {
                    let n = cover.div_ceil(w);
                    exact = n * w == size;
                    n
                }
            };
            if n <= 1 {
                continue;
            }
            let stride = |ds: &mut dyn Iterator<Item = &Digit>| {
                ds.filter(|g| g.w <= w)
                    .max_by_key(|g| g.w)
                    .map_or(0, |g| g.s * (w / g.w))
            };
            loops.push(Loop {
                n,
                src: stride(&mut sd()),
                dst: stride(&mut dd()),
                dim: d,
                w,
            })?;
        }
        let _ = top;
        if exact {
            for l in loops.iter_mut().filter(|l| l.dim == d) {
                l.dim = FREE;
            }
        }
    }
    Some((loops, sizes))
}

/// Sorts loops by destination stride (outermost first) and merges
/// neighbours along which both sides stay affine (Post 3).
pub(crate) fn coalesce(loops: &mut Loops) {
    sort_by(loops, |a, b| b.dst.cmp(&a.dst).then(b.src.cmp(&a.src)));
    let mut kept = 0;
    for i in 0..loops.len() {
        let l = loops[i];
        if kept > 0 {
            let a = &mut loops[kept - 1];
            let same = (a.dim == FREE && l.dim == FREE) || (a.dim == l.dim && a.w == l.w * l.n);
            if same && a.src == l.n * l.src && a.dst == l.n * l.dst {
                *a = Loop { n: a.n * l.n, ..l };
                continue;
            }
        }
        loops[kept] = l;
        kept += 1;
    }
    loops.truncate(kept);
}

/// Whether `loops` (sorted by destination stride) cover `0..slots` of the
/// destination exactly once.
pub(crate) fn dense(loops: &[Loop], slots: u64) -> bool {
    let mut expect = 1u64;
    for l in loops.iter().rev() {
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
        let side = |ws: &[u64]| Digits {
            digits: Fixed::collect(chain(0, ws).chain(chain(1, ws))).unwrap(),
            pseudo: 0,
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
        let mut loops =
            Loops::from_slice(&[l(8, 1, 1), l(4, 8, 8), l(2, 32, 64), l(2, 64, 32)]).unwrap();
        coalesce(&mut loops);
        assert_eq!(&*loops, &[l(2, 32, 64), l(2, 64, 32), l(32, 1, 1)]);
    }
}

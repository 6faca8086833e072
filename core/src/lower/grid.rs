//! The tiles applied symbolically: each expanded dim of a tiling is a
//! mixed-radix number whose digits are *digits of the logical
//! coordinates*, `(x_d / below) % size` (or `x_d / below` for the most
//! major digit of dim `d`). A tile level splits a group of expanded dims
//! (a `*` group is one number) at the tile size; when the cut falls on a
//! digit boundary, or splits a digit evenly, or splits the most major
//! digit of a dim with nothing but zeros above it, the result is again
//! such a number and the tiling stays affine in the digits. Otherwise the
//! offset is not a linear function of digits of the coordinates, and the
//! lowering says so.
//!
//! Every unit keeps `value < size <= radix`: `radix` is the unit's share
//! of its expanded dim (padding included), `size` bounds the value.

use crate::algebra::{AlgebraError, AlgebraErrorKind};
use crate::tiling::Tiling;
use crate::MAX_EXPANDED_RANK;

/// Marks a unit that is no digit (its value is always 0: left padding,
/// the empty quotient of a tile as large as its dims).
pub(crate) const NO_DIM: u8 = u8::MAX;
/// Most units over all expanded dims: each tile group adds at most one.
pub(crate) const MAX_UNITS: usize = 2 * MAX_EXPANDED_RANK;

/// One digit of a logical coordinate (or a zero) inside an expanded dim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unit {
    /// Logical dim, or [`NO_DIM`].
    pub(crate) dim: u8,
    /// The value is `(x_dim / below) % size` (no `% size` when `top`).
    pub(crate) below: u64,
    /// Bound on the value.
    pub(crate) size: u64,
    /// The most major digit of its logical dim.
    pub(crate) top: bool,
    /// The unit's share of its expanded dim (`size <= radix`).
    pub(crate) radix: u64,
}

const fn zero(radix: u64) -> Unit {
    Unit {
        dim: NO_DIM,
        below: 1,
        size: 1,
        top: false,
        radix,
    }
}

const EMPTY_UNITS: [Unit; MAX_UNITS] = [zero(1); MAX_UNITS];

/// Expanded dims as lists of units (most major unit first).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grid {
    pub(crate) units: [Unit; MAX_UNITS],
    pub(crate) len: usize,
    /// Dim `i` is `units[starts[i]..starts[i + 1]]`.
    pub(crate) starts: [usize; MAX_EXPANDED_RANK + 1],
    pub(crate) dims: usize,
}

/// Where a tiling stops being affine: tile level and the tile dim (the
/// last dim of its `*` group) whose cut splits a digit unevenly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Break {
    pub(crate) level: u8,
    pub(crate) tile_dim: u8,
}

const fn capacity() -> AlgebraError {
    AlgebraError::new(AlgebraErrorKind::TooManyNodes)
}

const fn overflow() -> AlgebraError {
    AlgebraError::new(AlgebraErrorKind::Overflow)
}

impl Grid {
    const EMPTY: Grid = Grid {
        units: EMPTY_UNITS,
        len: 0,
        starts: [0; MAX_EXPANDED_RANK + 1],
        dims: 0,
    };

    const fn push(&mut self, u: Unit) -> Result<(), AlgebraError> {
        if self.len >= MAX_UNITS {
            return Err(capacity());
        }
        self.units[self.len] = u;
        self.len += 1;
        Ok(())
    }

    /// Ends the current dim (its units are those pushed since the last
    /// call).
    const fn close(&mut self) -> Result<(), AlgebraError> {
        if self.dims >= MAX_EXPANDED_RANK {
            return Err(capacity());
        }
        self.dims += 1;
        self.starts[self.dims] = self.len;
        Ok(())
    }

    /// Copies dim `i` of `from`, units unchanged.
    const fn copy_dim(&mut self, from: &Grid, i: usize) -> Result<(), AlgebraError> {
        let mut k = from.starts[i];
        while k < from.starts[i + 1] {
            if let Err(e) = self.push(from.units[k]) {
                return Err(e);
            }
            k += 1;
        }
        self.close()
    }
}

/// Splits unit `u` at `r` (which does not divide `u.radix` evenly into
/// whole units): `(low part with radix r, high part with radix
/// u.radix / r)`, or `None` when the high part is not a digit of the
/// coordinate.
const fn cut(u: Unit, r: u64) -> Result<Option<(Unit, Unit)>, AlgebraError> {
    let hi_radix = u.radix / r;
    if u.dim == NO_DIM {
        return Ok(Some((zero(r), zero(hi_radix))));
    }
    if u.size <= r {
        // the value is below r: all of it stays low
        let lo = Unit { radix: r, ..u };
        return Ok(Some((lo, zero(hi_radix))));
    }
    if !u.top && !u.size.is_multiple_of(r) {
        return Ok(None);
    }
    let below = match u.below.checked_mul(r) {
        Some(b) => b,
        None => return Err(overflow()),
    };
    let lo = Unit {
        dim: u.dim,
        below: u.below,
        size: r,
        top: false,
        radix: r,
    };
    let hi = Unit {
        dim: u.dim,
        below,
        size: u.size.div_ceil(r),
        top: u.top,
        radix: hi_radix,
    };
    Ok(Some((lo, hi)))
}

/// The physical dims of `t` as a grid: one top digit per dim.
const fn physical(t: &Tiling) -> Result<Grid, AlgebraError> {
    let mut g = Grid::EMPTY;
    let dims = t.physical_dims();
    let d = dims.as_slice();
    let mut p = 0;
    while p < d.len() {
        let u = Unit {
            dim: t.physical_to_logical(p) as u8,
            below: 1,
            size: d[p],
            top: true,
            radix: d[p],
        };
        if let Err(e) = g.push(u) {
            return Err(e);
        }
        if let Err(e) = g.close() {
            return Err(e);
        }
        p += 1;
    }
    Ok(g)
}

/// Applies every tile level of `t` to its physical dims; `Ok(Err(b))`
/// when level `b` is not affine.
pub(crate) const fn apply_tiles(t: &Tiling) -> Result<Result<Grid, Break>, AlgebraError> {
    let mut g = match physical(t) {
        Ok(g) => g,
        Err(e) => return Err(e),
    };
    let mut li = 0;
    while li < t.level_count() {
        g = match level(t, &g, li) {
            Ok(Ok(n)) => n,
            Ok(Err(b)) => return Ok(Err(b)),
            Err(e) => return Err(e),
        };
        li += 1;
    }
    Ok(Ok(g))
}

/// One tile level: `[untiled dims, quotient per group, remainder per
/// group]`, as [`Tiling`] orders them.
const fn level(t: &Tiling, g: &Grid, li: usize) -> Result<Result<Grid, Break>, AlgebraError> {
    let lv = t.level(li);
    let pad = lv.pad as usize;
    // the input with its left padding (zero dims of radix 1)
    let mut inp = Grid::EMPTY;
    let mut i = 0;
    while i < pad {
        if let Err(e) = inp.push(zero(1)) {
            return Err(e);
        }
        if let Err(e) = inp.close() {
            return Err(e);
        }
        i += 1;
    }
    let mut i = 0;
    while i < g.dims {
        if let Err(e) = inp.copy_dim(g, i) {
            return Err(e);
        }
        i += 1;
    }
    let base = lv.base as usize;
    let groups = lv.groups as usize;
    let mut out = Grid::EMPTY;
    let mut i = 0;
    while i < base {
        if let Err(e) = out.copy_dim(&inp, i) {
            return Err(e);
        }
        i += 1;
    }
    // quotient dims go out first, then the remainders: two passes (each
    // splits every group; splitting is cheap)
    let mut pass = 0;
    while pass < 2 {
        let mut q = 0;
        let mut start = 0usize;
        while q < groups {
            let end = lv.gend[q] as usize;
            let split = match split_group(&inp, base + start, base + end, lv.gdim[q], lv.gtile[q]) {
                Ok(Some(s)) => s,
                Ok(None) => {
                    return Ok(Err(Break {
                        level: li as u8,
                        tile_dim: end as u8,
                    }))
                }
                Err(e) => return Err(e),
            };
            let n = if pass == 0 {
                split.hi_len
            } else {
                split.lo_len
            };
            let mut k = 0;
            while k < n {
                // hi is most major first; lo least major first
                let u = if pass == 0 {
                    split.hi[k]
                } else {
                    split.lo[n - 1 - k]
                };
                if let Err(e) = out.push(u) {
                    return Err(e);
                }
                k += 1;
            }
            if let Err(e) = out.close() {
                return Err(e);
            }
            start = end + 1;
            q += 1;
        }
        pass += 1;
    }
    Ok(Ok(out))
}

struct Split {
    lo: [Unit; MAX_UNITS],
    lo_len: usize,
    hi: [Unit; MAX_UNITS],
    hi_len: usize,
}

/// Splits the number formed by dims `first..=last` of `inp` (the first
/// most major) at `tile`: `v % tile` and `v / tile` as units, or `None`
/// when that is not affine.
const fn split_group(
    inp: &Grid,
    first: usize,
    last: usize,
    gdim: u64,
    tile: u64,
) -> Result<Option<Split>, AlgebraError> {
    let from = inp.starts[first];
    let to = inp.starts[last + 1];
    let mut s = Split {
        lo: EMPTY_UNITS,
        lo_len: 0,
        hi: EMPTY_UNITS,
        hi_len: 0,
    };
    let mut r = tile;
    let mut k = to;
    let mut cut_at = None;
    while k > from && r > 1 {
        k -= 1;
        let u = inp.units[k];
        if r.is_multiple_of(u.radix) {
            s.lo[s.lo_len] = u;
            s.lo_len += 1;
            r /= u.radix;
            continue;
        }
        let even = u.radix.is_multiple_of(r);
        if !even {
            // an uneven cut is affine only with zeros above it
            let mut j = from;
            while j < k {
                if inp.units[j].dim != NO_DIM {
                    return Ok(None);
                }
                j += 1;
            }
        }
        let (lo, hi) = match cut(u, r) {
            Ok(Some(p)) => p,
            Ok(None) => return Ok(None),
            Err(e) => return Err(e),
        };
        s.lo[s.lo_len] = lo;
        s.lo_len += 1;
        cut_at = Some((hi, even));
        r = 1;
    }
    if r > 1 && s.lo_len == 0 {
        // a group of empty dims (all of size 1): the low part is padding
        s.lo[0] = zero(r);
        s.lo_len = 1;
    } else if r > 1 {
        // the whole group fits below the tile: the top of the low part
        // takes the padding
        let top = &mut s.lo[s.lo_len - 1];
        top.radix = match top.radix.checked_mul(r) {
            Some(v) => v,
            None => return Err(overflow()),
        };
    }
    let quotient = gdim.div_ceil(tile);
    match cut_at {
        Some((hi, true)) => {
            let mut j = from;
            while j < k {
                s.hi[s.hi_len] = inp.units[j];
                s.hi_len += 1;
                j += 1;
            }
            s.hi[s.hi_len] = hi;
            s.hi_len += 1;
        }
        Some((hi, false)) => {
            s.hi[0] = Unit {
                radix: quotient,
                ..hi
            };
            s.hi_len = 1;
        }
        None => {
            let mut j = from;
            while j < k {
                s.hi[s.hi_len] = inp.units[j];
                s.hi_len += 1;
                j += 1;
            }
            if s.hi_len == 0 {
                s.hi[0] = zero(quotient);
                s.hi_len = 1;
            }
        }
    }
    Ok(Some(s))
}

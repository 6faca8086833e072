//! The tiles applied symbolically: each expanded dim of a tiling is a
//! mixed-radix number whose digits are *digits of variables*,
//! `(v / below) % size` (or `v / below` for the most major digit of `v`).
//! The variables are the logical coordinates and *sources*: a source is
//! the number a tile cut through the middle of a digit (`x % 4` cut at 3,
//! or a `*` group `3·x + y` cut at 2), and the cut's two parts are digits
//! of that source. A tile level splits a group of expanded dims (a `*`
//! group is one number) at the tile size.
//!
//! At the end each source must be whole again: its digits side by side in
//! memory (`stride_k = stride_0 · below_k`), so that the source contributes
//! `source · stride_0` and its own units take their strides from there.
//! `f32[4]{0:T(3)(2)}` cuts `x % 3` at 2, but the parts land at strides 2
//! and 1: whole. A source that stays cut is where the tiling is not
//! affine.
//!
//! Every unit keeps `value < size <= radix`: `radix` is the unit's share
//! of its expanded dim (padding included), `size` bounds the value.

use crate::algebra::{AlgebraError, AlgebraErrorKind};
use crate::tiling::Tiling;
use crate::MAX_EXPANDED_RANK;

/// Marks a unit that is no digit (its value is always 0: left padding,
/// the empty quotient of a tile as large as its dims).
pub(crate) const NO_DIM: u8 = u8::MAX;
/// `dim` of a digit of source `s` is `SOURCE + s`; below it, logical dims.
pub(crate) const SOURCE: u8 = 128;
/// Most units over all expanded dims: each tile group adds at most one.
pub(crate) const MAX_UNITS: usize = 2 * MAX_EXPANDED_RANK;
/// Most sources (cuts through a digit) in one tiling.
pub(crate) const MAX_SOURCES: usize = 8;
/// Most units in one source.
pub(crate) const MAX_SOURCE_UNITS: usize = 16;

/// One digit of a variable (or a zero) inside an expanded dim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unit {
    /// Logical dim, `SOURCE + s` for source `s`, or [`NO_DIM`].
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

/// A number a tile cut through a digit: the mixed-radix value of its
/// units (most major first, weighted by their radices), and where the cut
/// was (tile level, and the tile dim ending its `*` group).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Source {
    pub(crate) units: [Unit; MAX_SOURCE_UNITS],
    pub(crate) len: usize,
    pub(crate) level: u8,
    pub(crate) tile_dim: u8,
}

const NO_SOURCE: Source = Source {
    units: [zero(1); MAX_SOURCE_UNITS],
    len: 0,
    level: 0,
    tile_dim: 0,
};

/// Expanded dims as lists of units (most major unit first), and the
/// sources their digits refer to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grid {
    pub(crate) units: [Unit; MAX_UNITS],
    pub(crate) len: usize,
    /// Dim `i` is `units[starts[i]..starts[i + 1]]`.
    pub(crate) starts: [usize; MAX_EXPANDED_RANK + 1],
    pub(crate) dims: usize,
    pub(crate) sources: [Source; MAX_SOURCES],
    pub(crate) source_count: usize,
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
        sources: [NO_SOURCE; MAX_SOURCES],
        source_count: 0,
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

/// One past the largest value of the mixed-radix number `units[..n]`
/// (most major first): `1 + Σ (size_j − 1) · weight_j`.
pub(crate) const fn source_bound(units: &[Unit; MAX_SOURCE_UNITS], n: usize) -> Option<u64> {
    let mut bound: u64 = 1;
    let mut weight: u64 = 1;
    let mut j = n;
    while j > 0 {
        j -= 1;
        let u = units[j];
        let top = match (u.size - 1).checked_mul(weight) {
            Some(v) => v,
            None => return None,
        };
        bound = match bound.checked_add(top) {
            Some(v) => v,
            None => return None,
        };
        weight = match weight.checked_mul(u.radix) {
            Some(v) => v,
            None => return None,
        };
    }
    Some(bound)
}

/// Units `from..=k` of `inp` as one digit, when they are a run of digits
/// of one variable, each directly above the next with no padding between
/// (zeros of radix 1 aside).
const fn merge(inp: &Grid, from: usize, k: usize) -> Option<Unit> {
    let mut acc = inp.units[k];
    if acc.dim == NO_DIM {
        return None;
    }
    let mut j = k;
    while j > from {
        j -= 1;
        let u = inp.units[j];
        if u.dim == NO_DIM && u.radix == 1 {
            continue;
        }
        let next = match acc.below.checked_mul(acc.size) {
            Some(v) => v,
            None => return None,
        };
        if u.dim != acc.dim || acc.top || acc.radix != acc.size || u.below != next {
            return None;
        }
        acc = Unit {
            dim: acc.dim,
            below: acc.below,
            size: match acc.size.checked_mul(u.size) {
                Some(v) => v,
                None => return None,
            },
            top: u.top,
            radix: match acc.radix.checked_mul(u.radix) {
                Some(v) => v,
                None => return None,
            },
        };
    }
    Some(acc)
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

/// Applies every tile level of `t` to its physical dims.
pub(crate) const fn apply_tiles(t: &Tiling) -> Result<Grid, AlgebraError> {
    let mut g = match physical(t) {
        Ok(g) => g,
        Err(e) => return Err(e),
    };
    let mut li = 0;
    while li < t.level_count() {
        g = match level(t, &g, li) {
            Ok(n) => n,
            Err(e) => return Err(e),
        };
        li += 1;
    }
    Ok(g)
}

/// One tile level: `[untiled dims, quotient per group, remainder per
/// group]`, as [`Tiling`] orders them.
const fn level(t: &Tiling, g: &Grid, li: usize) -> Result<Grid, AlgebraError> {
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
    out.sources = g.sources;
    out.source_count = g.source_count;
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
        // both passes number the new sources alike
        let mut next_source = g.source_count;
        while q < groups {
            let end = lv.gend[q] as usize;
            let group = Group {
                first: base + start,
                last: base + end,
                gdim: lv.gdim(q),
                tile: lv.gtile[q],
                level: li as u8,
                tile_dim: end as u8,
            };
            let split = match split_group(&inp, &group, next_source) {
                Ok(s) => s,
                Err(e) => return Err(e),
            };
            if let Some(src) = split.source {
                if pass == 0 {
                    out.sources[out.source_count] = src;
                    out.source_count += 1;
                }
                next_source += 1;
            }
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
    Ok(out)
}

struct Split {
    lo: [Unit; MAX_UNITS],
    lo_len: usize,
    hi: [Unit; MAX_UNITS],
    hi_len: usize,
    /// The source this split cut through, if any.
    source: Option<Source>,
}

/// One `*` group of a tile level: dims `first..=last` of the input, their
/// combined size and the tile size.
struct Group {
    first: usize,
    last: usize,
    gdim: u64,
    tile: u64,
    level: u8,
    tile_dim: u8,
}

/// Splits the number formed by the group's dims (the first most major) at
/// the tile size: `v % tile` and `v / tile` as units. A cut through a
/// digit that does not leave digits of its variable makes the number above
/// and at the cut a new source (number `source`).
const fn split_group(inp: &Grid, grp: &Group, source: usize) -> Result<Split, AlgebraError> {
    let from = inp.starts[grp.first];
    let to = inp.starts[grp.last + 1];
    let mut s = Split {
        lo: EMPTY_UNITS,
        lo_len: 0,
        hi: EMPTY_UNITS,
        hi_len: 0,
        source: None,
    };
    let mut r = grp.tile;
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
        // an uneven cut leaves digits only with zeros above it (units that
        // are no digit, or digits of size 1)
        let mut zeros_above = true;
        let mut j = from;
        while j < k {
            if inp.units[j].dim != NO_DIM && inp.units[j].size > 1 {
                zeros_above = false;
            }
            j += 1;
        }
        let parts = if even || zeros_above {
            match cut(u, r) {
                Ok(p) => p,
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        // the units above and at the cut may be one run of digits of one
        // variable (`x / 2`, `x % 2` cut at 3 is `x` cut at 3)
        let parts = match parts {
            Some(p) => Some((p.0, p.1, !even)),
            None => match merge(inp, from, k) {
                Some(m) => match cut(m, r) {
                    Ok(Some((lo, hi))) => {
                        k = from;
                        Some((lo, hi, true))
                    }
                    Ok(None) => None,
                    Err(e) => return Err(e),
                },
                None => None,
            },
        };
        let (lo, hi, whole_quotient) = match parts {
            Some(p) => p,
            None => {
                // the units above and at the cut become a source
                let n = k + 1 - from;
                if n > MAX_SOURCE_UNITS || source >= MAX_SOURCES {
                    return Err(capacity());
                }
                let mut src = NO_SOURCE;
                let mut j = 0;
                while j < n {
                    src.units[j] = inp.units[from + j];
                    j += 1;
                }
                // one past the largest value the source takes
                let size = match source_bound(&src.units, n) {
                    Some(v) => v,
                    None => return Err(overflow()),
                };
                src.len = n;
                src.level = grp.level;
                src.tile_dim = grp.tile_dim;
                s.source = Some(src);
                let dim = SOURCE + source as u8;
                let lo = Unit {
                    dim,
                    below: 1,
                    size: if size < r { size } else { r },
                    top: false,
                    radix: r,
                };
                let hi = Unit {
                    dim,
                    below: r,
                    size: size.div_ceil(r),
                    top: true,
                    radix: 1,
                };
                // the source holds everything above: the quotient is its
                // high digit alone
                k = from;
                (lo, hi, true)
            }
        };
        s.lo[s.lo_len] = lo;
        s.lo_len += 1;
        cut_at = Some((hi, whole_quotient));
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
    let quotient = grp.gdim.div_ceil(grp.tile);
    // the units above the cut; when the cut digit takes the whole quotient
    // they are zeros and keep their place with radix 1 (a size-1 digit
    // stays in its dim's mode)
    let whole = matches!(cut_at, Some((_, true)));
    let mut j = from;
    while j < k {
        s.hi[s.hi_len] = inp.units[j];
        if whole {
            s.hi[s.hi_len].radix = 1;
        }
        s.hi_len += 1;
        j += 1;
    }
    match cut_at {
        Some((hi, whole)) => {
            s.hi[s.hi_len] = hi;
            if whole {
                s.hi[s.hi_len].radix = quotient;
            }
            s.hi_len += 1;
        }
        None => {
            if s.hi_len == 0 {
                s.hi[0] = zero(quotient);
                s.hi_len = 1;
            }
        }
    }
    Ok(s)
}

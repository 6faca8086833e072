//! The one build step of the lowering: a tiling's tiles applied
//! symbolically ([`grid::apply_tiles`](super::grid::apply_tiles)) and the
//! digits of the result resolved into digits of the logical coordinates,
//! each with its stride.
//!
//! Everything the lowering gives is read off these digits: the CuTe layout
//! ([`lower`](super::lower)), the padded grid
//! ([`padded_grid`](super::padded_grid)) and the index program
//! ([`index_program`](super::index_program)). They are plain numbers, so
//! reading them at compile time is cheap; only [`lower`](super::lower)
//! builds CuTe tuples from them.

use super::grid::{self, Source, Unit, MAX_UNITS, NO_DIM, SOURCE};
use crate::algebra::{AlgebraError, AlgebraErrorKind};
use crate::tiling::Tiling;
use crate::MAX_RANK;

/// One digit of a logical coordinate: `(x / below) % size` at `stride`
/// in memory, or (`dim == NO_DIM`) a unit of the padded grid no
/// coordinate reaches.
///
/// Invariant: `size >= 1`; the digits of one dim have distinct `below`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Digit {
    pub(super) dim: u8,
    pub(super) below: u64,
    pub(super) size: u64,
    /// Positions of the padded grid the digit spans (`size` plus the
    /// padding above it; `size` where that is not known).
    pub(super) extent: u64,
    pub(super) stride: u64,
    /// The most major digit of its dim: `x / below`, no `% size`.
    pub(super) top: bool,
}

const NO_DIGIT: Digit = Digit {
    dim: NO_DIM,
    below: 1,
    size: 1,
    extent: 1,
    stride: 0,
    top: false,
};

/// Room for the digits while sources are resolved: every unit of the grid
/// (zeros included) and the units of the sources put back.
pub(super) const MAX_DIGITS: usize = 2 * MAX_UNITS;

/// The digits of an affine tiling (`digits[..n]`) and its logical dims.
pub(super) struct Digits {
    pub(super) digits: [Digit; MAX_DIGITS],
    pub(super) n: usize,
    pub(super) logical: [u64; MAX_RANK],
    pub(super) rank: usize,
}

/// What [`digits`] finds.
// reason: fixed-capacity values built in `const fn` cannot be boxed; the
// other variant is two bytes
#[allow(clippy::large_enum_variant)]
pub(super) enum Found {
    /// The tiling is affine: its digits.
    Affine(Digits),
    /// Tile level `level`'s cut ending at tile dim `tile_dim` leaves a
    /// digit in parts that do not meet again in memory: not affine.
    Cut { level: u8, tile_dim: u8 },
}

/// The tiles of `t` applied symbolically and their digits resolved into
/// digits of the logical coordinates, each with its stride; zero units of
/// the grid are kept as digits of no dim.
///
/// # Errors
/// [`AlgebraErrorKind::ShapeNotPositive`] for a dim of size 0 (CuTe has no
/// empty modes); [`AlgebraErrorKind::TooManyNodes`] past the capacities;
/// [`AlgebraErrorKind::Overflow`] when slots exceed `i64`.
pub(super) const fn digits(t: &Tiling) -> Result<Found, AlgebraError> {
    let rank = t.rank();
    let mut logical = [0u64; MAX_RANK];
    let physical = t.physical_dims();
    let physical = physical.as_slice();
    let mut p = 0;
    while p < rank {
        logical[t.physical_to_logical(p)] = physical[p];
        p += 1;
    }
    let mut d = 0;
    while d < rank {
        // CuTe has no empty modes
        if logical[d] == 0 {
            return Err(AlgebraError::new(AlgebraErrorKind::ShapeNotPositive {
                mode: d as u32,
                value: 0,
            }));
        }
        d += 1;
    }
    let g = match grid::apply_tiles(t) {
        Ok(g) => g,
        Err(e) => return Err(e),
    };
    if t.expanded_slots() > i64::MAX as u64 || t.slots() > i64::MAX as u64 {
        return Err(AlgebraError::new(AlgebraErrorKind::Overflow));
    }
    // each unit's stride: its dim's row-major stride times the radices of
    // the units after it in that dim
    let strides = t.expanded_strides();
    let strides = strides.as_slice();
    let mut digits = [NO_DIGIT; MAX_DIGITS];
    let mut n = 0;
    let mut i = 0;
    while i < g.dims {
        let mut w = strides[i];
        let mut k = g.starts[i + 1];
        while k > g.starts[i] {
            k -= 1;
            let u: Unit = g.units[k];
            if u.dim != NO_DIM || u.radix > 1 {
                digits[n] = Digit {
                    dim: u.dim,
                    below: u.below,
                    size: u.size,
                    // the most major digit spans its unit (a zero spans
                    // its radix): the rest of the radix is padding
                    extent: if u.top || u.dim == NO_DIM {
                        u.radix
                    } else {
                        u.size
                    },
                    stride: w,
                    top: u.top,
                };
                n += 1;
            }
            w = w.saturating_mul(u.radix);
        }
        i += 1;
    }
    let mut s = g.source_count;
    while s > 0 {
        s -= 1;
        match resolve(&g.sources[s], SOURCE + s as u8, &mut digits, &mut n) {
            Ok(true) => {}
            Ok(false) => {
                let src = &g.sources[s];
                return Ok(Found::Cut {
                    level: src.level,
                    tile_dim: src.tile_dim,
                });
            }
            Err(e) => return Err(e),
        }
    }
    Ok(Found::Affine(Digits {
        digits,
        n,
        logical,
        rank,
    }))
}

/// Puts the digits of source `dim` back together: they must sit side by
/// side in memory, `stride_k = stride_0 · below_k` (digits of size 1 hold
/// 0 and do not count), so that the source contributes `source ·
/// stride_0`; then its units replace them, each at `stride_0` times the
/// radices below it. `Ok(false)` when they do not (the tiling is not
/// affine).
const fn resolve(
    src: &Source,
    dim: u8,
    digits: &mut [Digit; MAX_DIGITS],
    n: &mut usize,
) -> Result<bool, AlgebraError> {
    let mut expected: u64 = 1;
    let mut base: u64 = 0;
    let mut last_top = false;
    let bound = match grid::source_bound(&src.units, src.len) {
        Some(b) => b,
        None => u64::MAX,
    };
    loop {
        // the next digit of the source by `below`, from `expected` up
        let mut best = *n;
        let mut k = 0;
        while k < *n {
            let g = digits[k];
            if g.dim == dim
                && g.size > 1
                && g.below >= expected
                && (best == *n || g.below < digits[best].below)
            {
                best = k;
            }
            k += 1;
        }
        if best == *n {
            break;
        }
        let g = digits[best];
        if g.below != expected || last_top {
            return Ok(false);
        }
        if expected == 1 {
            base = g.stride;
        }
        match base.checked_mul(g.below) {
            Some(v) if v == g.stride => {}
            _ => return Ok(false),
        }
        last_top = g.top;
        expected = match expected.checked_mul(g.size) {
            Some(v) => v,
            None => u64::MAX,
        };
    }
    if !last_top && expected < bound && expected > 1 {
        return Ok(false);
    }
    // drop the source's digits, then add its units
    let mut w = 0;
    let mut k = 0;
    while k < *n {
        if digits[k].dim != dim {
            digits[w] = digits[k];
            w += 1;
        }
        k += 1;
    }
    *n = w;
    let mut weight: u64 = base;
    let mut j = src.len;
    while j > 0 {
        j -= 1;
        let u = src.units[j];
        if u.dim != NO_DIM {
            if *n >= MAX_DIGITS {
                return Err(AlgebraError::new(AlgebraErrorKind::TooManyNodes));
            }
            digits[*n] = Digit {
                dim: u.dim,
                below: u.below,
                size: u.size,
                extent: u.size,
                stride: weight,
                top: u.top,
            };
            *n += 1;
        }
        weight = weight.saturating_mul(u.radix);
    }
    Ok(true)
}

//! Relayout planning: both sides as digits of the logical coordinates, their
//! common refinement, and the loop nest that copies along it.
//!
//! A side whose tiling is affine (its lowering into the layout algebra is
//! a layout: [`lower`](crate::value::lower)) maps logical coordinate `e_d`
//! of dim `d` to `Σ_k ((e_d / w_k) mod n_k) · s_k`: a list of *digits*
//! (weight `w`, count `n`, stride `s`) per dim, the weights a chain
//! (`w_{k+1} = w_k · n_k`), read off the lowered layout's leaves
//! ([`padded_grid`]); combined dims (`*`) included. Strided arrays are one
//! digit per dim, and an unswizzled CuTe layout's leaves its digits
//! ([`CuteStorage`]). A side that is not affine in its dims because a `*`
//! group is cut may be affine in the combined coordinate: when the other
//! side's offsets are functions of it too, both sides are planned over the
//! merged dims ([`merge`]). Otherwise the plan takes the element-wise path
//! ([`Tiling::offset`] of every coordinate), as before the lowering.
//!
//! Pre: both sides have the same dims and storage width.
//! Post (asserted by `tests/relayout_*.rs`):
//! 1. the loops visit every element exactly once, and its source and
//!    destination offsets are the element-wise ones (`Tiling::offset`);
//! 2. in [`Fill::Inline`] mode they visit every destination slot below
//!    `expanded_slots` exactly once (padding included);
//! 3. two loops merge only if both sides stay affine over the merged range.

use super::fixed::Fixed;
use super::nest::{sort_loops, Loop, Loops, Order, Sizes, FREE};
use crate::value::{padded_grid, Shape};

mod cute;
mod merge;
mod side;
pub use cute::CuteStorage;
pub(crate) use merge::merge;
pub(crate) use side::Side;
pub use side::{ArrayLayout, Strided};

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

/// Most digits of a side a plan handles; a layout needing more takes the
/// element-wise path.
pub(crate) const DIGITS: usize = 64;

/// A side's digits; dims `rank..` are size-1 dims the tiling padded in.
pub(crate) struct Digits {
    pub(crate) digits: Fixed<Digit, DIGITS>,
    pub(crate) pseudo: u32,
}

/// The digits of a side, or `None` if its tiling is not affine (a later
/// tile that cuts an earlier tile's dim unevenly, a `*` group cut across
/// its dims: see [`lower`](crate::value::lower)) or has more than
/// [`DIGITS`] parts.
///
/// A tiled side's digits are the leaves of its lowered layout
/// ([`padded_grid`]): the core is the one place tiles are applied. A
/// leaf's padding (the positions of its extent past its size, the units no
/// coordinate reaches) is kept, so that loops over the digits cover the
/// destination densely and padding can be written inline; the leaves of
/// no dim make one pseudo dim of size 1 (`first_pseudo`).
pub(crate) const fn digits(
    side: &Side,
    shape: Option<&Shape>,
    first_pseudo: u32,
) -> Option<Digits> {
    let mut out = Fixed::empty(Digit::ZERO);
    match side {
        Side::Strided(s) => {
            let mut d = 0;
            while d < s.dims().len() {
                let n = s.dims()[d];
                let digit = Digit {
                    dim: d as u32,
                    w: 1,
                    n,
                    s: s.strides()[d],
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
        Side::Cute(c) => c.digits(),
        Side::Tiled { .. } => {
            let Some(shape) = shape else {
                return None;
            };
            // laid out at its bound, as `Side::new` plans it
            let Ok(shape) = shape.at_bound() else {
                return None;
            };
            let Ok(Some(grid)) = padded_grid(&shape) else {
                return None;
            };
            let mut pseudo = 0u32;
            let mut pad_w = 1u64;
            let leaves = grid.leaves();
            let mut i = 0;
            while i < leaves.len() {
                let l = leaves[i];
                let digit = match l.dim {
                    Some(d) => Digit {
                        dim: d as u32,
                        w: l.below,
                        n: l.extent,
                        s: l.stride,
                    },
                    None => {
                        // one mixed radix over the padding units
                        pseudo = 1;
                        let w = pad_w;
                        let Some(next) = pad_w.checked_mul(l.extent) else {
                            return None;
                        };
                        pad_w = next;
                        Digit {
                            dim: first_pseudo,
                            w,
                            n: l.extent,
                            s: l.stride,
                        }
                    }
                };
                if !out.push(digit) {
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
        let l = Loop::free;
        // rows of 8 contiguous on both sides, then a transposed pair
        let mut loops = Loops::empty(Loop::ONE);
        assert!(loops.extend_from_slice(&[l(8, 1, 1), l(4, 8, 8), l(2, 32, 64), l(2, 64, 32)]));
        coalesce(&mut loops);
        assert_eq!(&*loops, &[l(2, 32, 64), l(2, 64, 32), l(32, 1, 1)]);
    }
}

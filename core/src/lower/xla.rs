//! The other way round: a CuTe layout that is an XLA tiling, as an XLA
//! shape.

use super::{lower, Lowered};
use crate::algebra::{CuteLayout, IntTuple};
use crate::dtype::PrimitiveType;
use crate::shape::{Shape, Tile, XlaLayout};
use crate::MAX_RANK;

/// Highest rank [`to_xla`] searches (it tries every `minor_to_major`,
/// tile rank and choice of tile dim for integer modes).
pub const TO_XLA_MAX_RANK: usize = 5;

/// The XLA shape of element type `element_type` whose tiling lowers to
/// `layout` (see [`lower`]), if there is one with at most one tile:
/// each mode is an integer (an untiled dim, or a dim wholly inside the
/// tile) or a pair `(in-tile, tiles)`; the dims are the modes' sizes (the
/// layout has no logical bounds, so no padding is assumed). Strides of
/// size-1 modes are ignored; binding times too.
///
/// The search tries every `minor_to_major` order and every tile rank and
/// keeps the first shape whose lowering is `layout`, so the answer is
/// right by construction; `None` when there is none or the rank exceeds
/// [`TO_XLA_MAX_RANK`].
///
/// ```
/// use tilelayout::value::{algebra::CuteLayout, to_xla, PrimitiveType};
/// let l = CuteLayout::parse("(_8,(_128,_2)):(_128,(_1,_1024))").unwrap();
/// let s = to_xla(&l, PrimitiveType::F32).unwrap();
/// assert_eq!(s.to_string(), "f32[8,256]{1,0:T(8,128)}");
/// ```
pub const fn to_xla(layout: &CuteLayout, element_type: PrimitiveType) -> Option<Shape> {
    let shape = layout.shape();
    let stride = layout.stride();
    let r = shape.rank();
    if r > TO_XLA_MAX_RANK || r > MAX_RANK {
        return None;
    }
    let mut dims = [0u64; MAX_RANK];
    let mut lo = [0u64; MAX_RANK];
    let mut d = 0;
    while d < r {
        let m = match shape.mode(d) {
            Ok(m) => m,
            Err(_) => return None,
        };
        if m.is_int() {
            dims[d] = leaf(&m, 0);
        } else if m.rank() == 2 && m.depth() == 1 {
            lo[d] = leaf(&m, 0);
            dims[d] = match lo[d].checked_mul(leaf(&m, 1)) {
                Some(v) => v,
                None => return None,
            };
        } else {
            return None;
        }
        d += 1;
    }
    let mut perms = 1usize;
    let mut i = 2;
    while i <= r {
        perms *= i;
        i += 1;
    }
    // fewest tile dims first, so an untiled layout prints untiled
    let mut k = 0;
    while k <= r {
        let mut pi = 0;
        while pi < perms {
            let order = nth_permutation(pi, r);
            // an integer mode inside the tile is wholly in it or not at all
            let mut mask = 0u32;
            while mask < 1 << k {
                let s = candidate(element_type, &dims, &lo, r, &order, k, mask);
                mask += 1;
                let Some(s) = s else { continue };
                if let Ok(Lowered::Affine(a)) = lower(&s) {
                    let got = a.layout();
                    if same_values(got.shape(), &shape.wrap(), got.shape(), false)
                        && same_values(got.stride(), &stride.wrap(), got.shape(), true)
                    {
                        return Some(s);
                    }
                }
            }
            pi += 1;
        }
        k += 1;
    }
    None
}

/// Leaf `k` as a positive value (0 if absent or not positive).
const fn leaf(t: &IntTuple, k: usize) -> u64 {
    match t.leaf(k) {
        Some(i) if i.value > 0 => i.value as u64,
        _ => 0,
    }
}

/// The `n`-th permutation of `0..r` (factorial number system): physical
/// position → logical dim, most major first.
const fn nth_permutation(mut n: usize, r: usize) -> [u8; MAX_RANK] {
    let mut pool = [0u8; MAX_RANK];
    let mut i = 0;
    while i < r {
        pool[i] = i as u8;
        i += 1;
    }
    let mut out = [0u8; MAX_RANK];
    let mut left = r;
    let mut p = 0;
    while p < r {
        let pick = n % left;
        n /= left;
        out[p] = pool[pick];
        let mut j = pick;
        while j + 1 < left {
            pool[j] = pool[j + 1];
            j += 1;
        }
        left -= 1;
        p += 1;
    }
    out
}

/// The shape with physical order `order` and one tile over the `k` most
/// minor physical dims (none when `k == 0`), an integer mode's tile dim
/// being its size when its bit of `whole` is set, else 1; `None` when a
/// tiled mode falls outside the tile or a dim is not positive.
const fn candidate(
    element_type: PrimitiveType,
    dims: &[u64; MAX_RANK],
    lo: &[u64; MAX_RANK],
    r: usize,
    order: &[u8; MAX_RANK],
    k: usize,
    whole: u32,
) -> Option<Shape> {
    let mut layout = XlaLayout::EMPTY;
    let mut i = 0;
    while i < r {
        if dims[order[i] as usize] == 0 {
            return None;
        }
        let _ = layout.push_minor_to_major(order[r - 1 - i] as i64);
        i += 1;
    }
    if k > 0 {
        let mut sizes = [0u64; MAX_RANK];
        let mut p = r - k;
        while p < r {
            let d = order[p] as usize;
            let j = p - (r - k);
            sizes[j] = if lo[d] > 0 {
                lo[d]
            } else if whole >> j & 1 == 1 {
                dims[d]
            } else {
                1
            };
            p += 1;
        }
        let tile = match Tile::of(sizes.split_at(k).0) {
            Some(t) => t,
            None => return None,
        };
        let _ = layout.push_tile(tile);
    }
    // a pair mode must be tiled
    let mut p = 0;
    while p + k < r {
        if lo[order[p] as usize] > 0 {
            return None;
        }
        p += 1;
    }
    match Shape::new(element_type, dims.split_at(r).0) {
        Some(s) => Some(s.with_layout(layout)),
        None => None,
    }
}

/// Whether `a` and `b` hold the same values in the same tree, skipping,
/// when `skip_unit`, leaves where `sizes` (congruent to `a`) is 1 (the
/// strides of size-1 modes do not matter).
const fn same_values(a: &IntTuple, b: &IntTuple, sizes: &IntTuple, skip_unit: bool) -> bool {
    if !a.congruent(b) {
        return false;
    }
    let mut k = 0;
    while k < a.leaf_count() {
        let skip = match sizes.leaf(k) {
            Some(s) => skip_unit && s.value == 1,
            None => false,
        };
        let (x, y) = match (a.leaf(k), b.leaf(k)) {
            (Some(x), Some(y)) => (x.value, y.value),
            _ => return false,
        };
        if !skip && x != y {
            return false;
        }
        k += 1;
    }
    true
}

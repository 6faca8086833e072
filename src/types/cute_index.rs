//! How a CuTe layout type's `offset` folds: the layout flattened into its
//! integer modes with the colexicographic divisor of each ([`Flat`]), and
//! the index functions over it, which turn into straight-line code when
//! the flattened modes are a constant. Shared by the CuTe types and the
//! GPU tiles.

use crate::algebra::{CuteLayout as Value, MAX_NODES};
use crate::value::TextBuf;

/// The flattened integer modes and the colexicographic divisor of each:
/// what [`AlgebraLayout::index`] computes with.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)] // reason: an implementation constant of the trait
pub struct Flat {
    pub(crate) n: usize,
    pub(crate) shape: [i64; MAX_NODES],
    pub(crate) stride: [i64; MAX_NODES],
    pub(crate) below: [i64; MAX_NODES],
    /// First flattened mode of each top-level mode, and one past the last.
    pub(crate) mode_start: [usize; MAX_NODES + 1],
    pub(crate) rank: usize,
}

/// Returns the flattened modes of `l` (what the index functions fold).
pub(crate) const fn flat(l: &Value) -> Flat {
    let mut f = Flat {
        n: l.shape().leaf_count(),
        shape: [1; MAX_NODES],
        stride: [0; MAX_NODES],
        below: [1; MAX_NODES],
        mode_start: [0; MAX_NODES + 1],
        rank: l.rank(),
    };
    let mut below = 1i64;
    let mut k = 0;
    while k < f.n {
        let s = match l.shape().leaf(k) {
            Some(s) => s.value,
            None => 1,
        };
        f.shape[k] = s;
        f.stride[k] = match l.stride().leaf(k) {
            Some(d) => d.value,
            None => 0,
        };
        f.below[k] = below;
        // the product of the shapes is the size, which `finish` checked
        below = below.saturating_mul(s);
        k += 1;
    }
    let mut m = 0;
    while m < f.rank {
        f.mode_start[m] = l.shape().mode_leaf_start(m);
        m += 1;
    }
    f.mode_start[f.rank] = f.n;
    f
}

/// The offset of the 1-D coordinate `i` under the flattened modes `f`
/// (CuTe's `layout(i)`): one division and remainder by a constant per
/// integer mode, which fold to straight-line code when `f` is a constant.
#[inline(always)]
pub(crate) const fn flat_index(f: &Flat, i: usize) -> i64 {
    // unsigned: coordinates and shapes are not negative, and unsigned
    // division by a constant needs no rounding fix-up
    let i = i as u64;
    let mut acc = 0i64;
    let mut k = 0;
    while k < f.n {
        let c = if k + 1 == f.n {
            i / f.below[k] as u64
        } else {
            (i / f.below[k] as u64) % f.shape[k] as u64
        };
        acc = acc.wrapping_add((c as i64).wrapping_mul(f.stride[k]));
        k += 1;
    }
    acc
}

/// The offset of `coord`, one integer per top-level mode, each split
/// colexicographically within its mode (CuTe's `layout(c0, c1, …)`); the
/// same folding as [`flat_index`]. `coord` has at most the layout's rank
/// modes (checked by the callers).
#[inline(always)]
pub(crate) const fn flat_offset(f: &Flat, coord: &[usize]) -> i64 {
    let mut acc = 0i64;
    let mut m = 0;
    while m < coord.len() {
        let x = coord[m] as u64;
        let (a, b) = (f.mode_start[m], f.mode_start[m + 1]);
        let mut k = a;
        while k < b {
            let below = (f.below[k] / f.below[a]) as u64;
            let c = if k + 1 == b {
                x / below
            } else {
                (x / below) % f.shape[k] as u64
            };
            acc = acc.wrapping_add((c as i64).wrapping_mul(f.stride[k]));
            k += 1;
        }
        m += 1;
    }
    acc
}

#[track_caller] // reason: the error points at the `const` block, not at this helper
pub(crate) const fn check_rank(rank: usize, n: usize) {
    if rank != n {
        let mut t = TextBuf::<96>::new();
        t.push_str("coordinate has ");
        t.push_u64(n as u64);
        t.push_str(" modes but the layout has rank ");
        t.push_u64(rank as u64);
        panic!("{}", t.as_str());
    }
}

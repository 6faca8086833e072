//! The loop walker: outer loops with their bounds, then the kernel on each
//! block; padding slots met on the way are written when the plan fills
//! padding inline.
//!
//! Bounds: a loop that is digit `w` of a dim of size `size` may take value
//! `v` only if some completion stays in bounds, `e + v·w < size`, where `e`
//! sums the digits of that dim fixed so far (the unfixed ones can be 0).
//! So `valid` is exact at the innermost level and prunes only subtrees with
//! no element; in inline-fill mode those subtrees are padding.
//!
//! A kernel block bounded by dims that no outer loop moves is split once
//! per run and replayed at every visit ([`split`]); the outer loops then
//! run free of its bounds.

use super::kernels::Mover;
use super::nest::{classify, Kept, Loop, FREE, KEPT_DIMS};

mod split;
pub(crate) use split::Split;

/// How many values of `l` have an in-bounds completion.
pub(crate) fn valid(l: &Loop, e: &[u64], sizes: &[u64]) -> u64 {
    if l.dim == FREE {
        return l.n;
    }
    let size = sizes[l.dim as usize];
    let at = e[l.dim as usize];
    if at >= size {
        0
    } else {
        l.n.min((size - at).div_ceil(l.w))
    }
}

/// One walk of a nest: the kept nest, its kernel block and dim sizes
/// unpacked.
pub(crate) struct Walk<'p> {
    nest: &'p Kept,
    a: Loop,
    b: Loop,
    /// Write padding slots (the loops cover the destination densely).
    pub(crate) fill: bool,
    /// The block's split, when its bounds are the same at every visit and
    /// it is not one whole block: replayed in place of [`Walk::block`].
    split: Option<&'p Split>,
}

impl<'p> Walk<'p> {
    /// A walk of `nest`, its block replayed from `split` if given (what
    /// [`Walk::split`] recorded for the same nest and `fill`).
    pub(crate) fn new(nest: &'p Kept, fill: bool, split: Option<&'p Split>) -> Self {
        Walk {
            nest,
            a: nest.a(),
            b: nest.b(),
            fill,
            split,
        }
    }

    /// The split of `nest`'s block, if its bounds are the same at every
    /// visit (its dims bounded, and no outer loop a digit of them: their
    /// offsets at the block are then always 0) and it is not one whole
    /// block. (Kept out of [`Walk`], which holds a reference: a walk is
    /// made on every run, and most have no split.)
    #[inline]
    pub(crate) fn split(nest: &Kept, fill: bool) -> Option<Split> {
        // (inline up to here: the common unbounded block pays one test)
        if nest.block_dims() == (FREE, FREE) {
            return None;
        }
        Self::bounded_split(nest, fill)
    }

    /// [`Walk::split`] of a bounded block.
    fn bounded_split(nest: &Kept, fill: bool) -> Option<Split> {
        let (da, db) = nest.block_dims();
        let fixed = nest
            .outer_packed()
            .iter()
            .all(|l| l.dim == FREE || (l.dim != da && l.dim != db));
        if !fixed {
            return None;
        }
        let w = Walk::new(nest, fill, None);
        let (a, b) = (w.a, w.b);
        let mut e = [0u64; KEPT_DIMS];
        let n = w.sizes().len();
        Split::record(nest.kernel, &a, &b, |m| w.block(m, 0, 0, &mut e[..n]))
    }

    /// The size of each constrained dim.
    #[inline]
    pub(crate) fn sizes(&self) -> &[u64] {
        self.nest.sizes()
    }

    /// How many of the first values of `l` (the loop at `level`, `e` the
    /// dims' offsets fixed above it) have subtrees entirely in bounds.
    fn full(&self, level: usize, l: &Loop, e: &[u64]) -> u64 {
        let n = self.nest;
        // how far the loops below and the kernel's advance each dim at most
        let mut reach = [0u64; KEPT_DIMS];
        for x in n.outer_packed().get(level + 1..).unwrap_or(&[]) {
            if x.dim != FREE {
                reach[x.dim as usize] += ((x.n - 1) * x.w) as u64;
            }
        }
        // (a split block keeps to its bounds itself, in dims no outer loop
        // moves)
        if self.split.is_none() {
            for x in [&self.a, &self.b] {
                if x.dim != FREE {
                    reach[x.dim as usize] += (x.n - 1) * x.w;
                }
            }
        }
        let mut count = l.n;
        for (x, (&size, (&at, &r))) in self.sizes().iter().zip(e.iter().zip(&reach)).enumerate() {
            let left = size.saturating_sub(at + r);
            if l.dim as usize == x {
                // values v with at + v·w + r < size
                count = count.min(left.div_ceil(l.w));
            } else if left == 0 {
                return 0;
            }
        }
        count
    }

    /// Whether no loop of the nest is bounded by a dim (every value of
    /// every loop holds elements; a split block's bounds are its own):
    /// then [`Walk::free`] runs it all.
    #[inline]
    pub(crate) fn all_free(&self) -> bool {
        self.nest.outer_packed().iter().all(|l| l.dim == FREE)
            && (self.split.is_some() || (self.a.dim == FREE && self.b.dim == FREE))
    }

    /// Loops `level..` with no bounds to check: plain nested loops, the
    /// innermost repeated inside the mover.
    pub(crate) fn free<M: Mover>(&self, m: &mut M, level: usize, s: usize, d: usize) {
        match (self.nest.outer(level), self.split) {
            (None, None) => m.block(self.nest.kernel, &self.a, &self.b, s, d),
            (None, Some(split)) => split.replay(m, s, d),
            (Some(l), _) => self.free_loop(m, level, &l, s, d),
        }
    }

    /// [`Walk::free`] with `l` (the loop at `level`, or its first values)
    /// for the loop at `level`.
    fn free_loop<M: Mover>(&self, m: &mut M, level: usize, l: &Loop, s: usize, d: usize) {
        let (n, len) = (self.nest, self.nest.outer_len());
        if let (true, Some(split)) = (level + 1 == len, self.split) {
            if m.repeats_at_once(n.kernel) {
                // each recorded call once for all this loop's values
                split.replay_rep(m, l, s, d);
            } else {
                // (one replay a value: the mover's calls go one by one)
                for v in 0..l.n {
                    split.replay(m, s + (v * l.src) as usize, d + (v * l.dst) as usize);
                }
            }
        } else if self.split.is_some() {
            for v in 0..l.n {
                self.free(
                    m,
                    level + 1,
                    s + (v * l.src) as usize,
                    d + (v * l.dst) as usize,
                );
            }
        } else if level + 1 == len {
            m.block_rep(n.kernel, l, &self.a, &self.b, s, d)
        } else if let (true, Some(c)) = (level + 2 == len, n.outer(level + 1)) {
            m.block_rep2(n.kernel, l, &c, &self.a, &self.b, s, d)
        } else {
            if level + 3 == len {
                // this loop repeats the `block_rep2` calls
                m.next_call_step(l.src as usize);
            }
            for v in 0..l.n {
                self.free(
                    m,
                    level + 1,
                    s + (v * l.src) as usize,
                    d + (v * l.dst) as usize,
                );
            }
        }
    }

    pub(crate) fn walk<M: Mover>(
        &self,
        m: &mut M,
        level: usize,
        s: usize,
        d: usize,
        e: &mut [u64],
    ) {
        match (self.nest.outer(level), self.split) {
            (None, None) => self.block(m, s, d, e),
            (None, Some(split)) => split.replay(m, s, d),
            (Some(l), _) => self.values(m, level, 0..l.n, s, d, e),
        }
    }

    /// The values `vs` of the loop at `level`, the first of them at source
    /// and destination offsets `s` and `d`.
    pub(crate) fn values<M: Mover>(
        &self,
        m: &mut M,
        level: usize,
        vs: core::ops::Range<u64>,
        s: usize,
        d: usize,
        e: &mut [u64],
    ) {
        let Some(l) = &self.nest.outer(level) else {
            return;
        };
        let at = |v: u64| {
            let k = v - vs.start;
            (s + (k * l.src) as usize, d + (k * l.dst) as usize)
        };
        // the first values whose subtrees are in bounds run as free loops
        let (full, nv) = (self.full(level, l, e), valid(l, e, self.sizes()));
        if vs.start < full.min(vs.end) {
            let n = full.min(vs.end) - vs.start;
            self.free_loop(m, level, &Loop { n, ..*l }, s, d);
        }
        for v in vs.start.max(full)..vs.end.min(nv) {
            let (so, dof) = at(v);
            if l.dim != FREE {
                e[l.dim as usize] += v * l.w;
            }
            self.walk(m, level + 1, so, dof, e);
            if l.dim != FREE {
                e[l.dim as usize] -= v * l.w;
            }
        }
        if self.fill {
            for v in vs.start.max(nv)..vs.end {
                self.pad_tree(m, level + 1, at(v).1);
            }
        }
    }

    pub(crate) fn pad_tree<M: Mover>(&self, m: &mut M, level: usize, d: usize) {
        match self.nest.outer(level) {
            Some(l) => {
                for v in 0..l.n {
                    self.pad_tree(m, level + 1, d + (v * l.dst) as usize);
                }
            }
            None => {
                for i in 0..self.a.n {
                    self.pad_row(m, d + (i * self.a.dst) as usize, 0);
                }
            }
        }
    }

    fn pad_row<M: Mover>(&self, m: &mut M, d: usize, from: u64) {
        let b = &self.b;
        if b.dst == 1 {
            m.pad(d + from as usize, (b.n - from) as usize);
        } else {
            for j in from..b.n {
                m.pad(d + (j * b.dst) as usize, 1);
            }
        }
    }

    /// The kernel block, in bounds: rows with the same valid length go to
    /// the mover together; what is out of bounds is padding.
    fn block<M: Mover>(&self, m: &mut M, s: usize, d: usize, e: &mut [u64]) {
        let (a, b, sizes) = (&self.a, &self.b, self.sizes());
        let na = valid(a, e, sizes);
        let nb_at = |e: &mut [u64], i: u64| {
            if a.dim == FREE {
                return valid(b, e, sizes);
            }
            e[a.dim as usize] += i * a.w;
            let nb = valid(b, e, sizes);
            e[a.dim as usize] -= i * a.w;
            nb
        };
        // valid(b) is non-increasing in i: rows 0..full hold all of b
        let nb0 = if na > 0 { nb_at(e, 0) } else { 0 };
        let full = if nb0 < b.n {
            0
        } else if a.dim == FREE || a.dim != b.dim {
            na
        } else {
            // row i is whole while at + i·a.w + (b.n − 1)·b.w < size
            let left = sizes[b.dim as usize] - e[b.dim as usize] - (b.n - 1) * b.w;
            na.min(left.div_ceil(a.w))
        };
        if full == a.n {
            m.block(self.nest.kernel, a, b, s, d);
            return;
        }
        if full > 0 {
            let aa = Loop { n: full, ..*a };
            m.block(classify(&aa, b), &aa, b, s, d);
        }
        // the rest in runs of rows with the same valid length
        let mut i = full;
        let mut nb = if i < na { nb_at(e, i) } else { 0 };
        while i < na {
            let (mut j, mut next) = (i + 1, 0);
            while j < na {
                next = nb_at(e, j);
                if next != nb {
                    break;
                }
                j += 1;
            }
            let (si, di) = (s + (i * a.src) as usize, d + (i * a.dst) as usize);
            if nb > 0 {
                let (aa, bb) = (Loop { n: j - i, ..*a }, Loop { n: nb, ..*b });
                m.block(classify(&aa, &bb), &aa, &bb, si, di);
            }
            if self.fill && nb < b.n {
                for r in i..j {
                    self.pad_row(m, d + (r * a.dst) as usize, nb);
                }
            }
            (i, nb) = (j, next);
        }
        if self.fill {
            for r in na..a.n {
                self.pad_row(m, d + (r * a.dst) as usize, 0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{RelayoutPlan, Strided};
    use crate::value::parse_shape;

    /// Whether the walk of `text` from rows (`to`) or to rows splits its
    /// block once per run.
    fn splits(text: &str, dims: &[u64], bits: u32, to: bool) -> bool {
        let t = parse_shape(text).unwrap();
        let r = Strided::row_major(dims, bits).unwrap();
        let plan = if to {
            RelayoutPlan::new(r, t)
        } else {
            RelayoutPlan::new(t, r)
        };
        let exec = plan.unwrap().exec().unwrap();
        Walk::split(exec.nest.as_ref().unwrap(), true).is_some()
    }

    #[test]
    fn a_cut_block_no_outer_loop_moves_is_split_once() {
        // rows -> tiles: the block is a row's tile columns, the last one
        // cut at 104; no outer loop is a digit of the column dim
        assert!(splits(
            "f32[1000,1000]{1,0:T(8,128)}",
            &[1000, 1000],
            32,
            true
        ));
        assert!(splits("f32[16,200]{1,0:T(8,128)}", &[16, 200], 32, true));
        // unpadded: one whole block, nothing to split
        assert!(!splits("f32[16,256]{1,0:T(8,128)}", &[16, 256], 32, true));
        // tiles -> rows: an outer loop walks the tile columns, so the
        // block's bounds move with it
        assert!(!splits(
            "f32[1000,1000]{1,0:T(8,128)}",
            &[1000, 1000],
            32,
            false
        ));
    }
}

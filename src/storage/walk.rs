//! The loop walker: outer loops with their bounds, then the kernel on each
//! block; padding slots met on the way are written when the plan fills
//! padding inline.
//!
//! Bounds: a loop that is digit `w` of a dim of size `size` may take value
//! `v` only if some completion stays in bounds, `e + v·w < size`, where `e`
//! sums the digits of that dim fixed so far (the unfixed ones can be 0).
//! So `valid` is exact at the innermost level and prunes only subtrees with
//! no element; in inline-fill mode those subtrees are padding.

use super::choose::Nest;
use super::kernels::{classify, Mover};
use super::plan::{Loop, FREE};

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

/// One walk of a nest.
pub(crate) struct Walk<'p> {
    pub(crate) nest: &'p Nest,
    /// Write padding slots (the loops cover the destination densely).
    pub(crate) fill: bool,
    /// The first outer level from which no loop (nor the kernel's) has a
    /// bound to check.
    pub(crate) free_from: usize,
}

impl<'p> Walk<'p> {
    pub(crate) fn new(nest: &'p Nest, fill: bool) -> Self {
        let free_from = if nest.a.dim == FREE && nest.b.dim == FREE {
            nest.outer
                .iter()
                .rposition(|l| l.dim != FREE)
                .map_or(0, |i| i + 1)
        } else {
            usize::MAX
        };
        Walk {
            nest,
            fill,
            free_from,
        }
    }

    /// Loops `level..` with no bounds to check: plain nested loops, the
    /// innermost repeated inside the mover.
    fn free<M: Mover>(&self, m: &mut M, level: usize, s: usize, d: usize) {
        let n = self.nest;
        match n.outer.get(level) {
            None => m.block(n.kernel, &n.a, &n.b, s, d),
            Some(l) if level + 1 == n.outer.len() => m.block_rep(n.kernel, l, &n.a, &n.b, s, d),
            Some(l) if level + 2 == n.outer.len() => {
                m.block_rep2(n.kernel, l, &n.outer[level + 1], &n.a, &n.b, s, d)
            }
            Some(l) => {
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
    }

    pub(crate) fn walk<M: Mover>(
        &self,
        m: &mut M,
        level: usize,
        s: usize,
        d: usize,
        e: &mut [u64],
    ) {
        if level >= self.free_from {
            return self.free(m, level, s, d);
        }
        let Some(l) = self.nest.outer.get(level) else {
            return self.block(m, s, d, e);
        };
        let nv = valid(l, e, &self.nest.sizes);
        for v in 0..nv {
            let (so, dof) = (s + (v * l.src) as usize, d + (v * l.dst) as usize);
            if l.dim != FREE {
                e[l.dim as usize] += v * l.w;
            }
            self.walk(m, level + 1, so, dof, e);
            if l.dim != FREE {
                e[l.dim as usize] -= v * l.w;
            }
        }
        if self.fill {
            for v in nv..l.n {
                self.pad_tree(m, level + 1, d + (v * l.dst) as usize);
            }
        }
    }

    pub(crate) fn pad_tree<M: Mover>(&self, m: &mut M, level: usize, d: usize) {
        match self.nest.outer.get(level) {
            Some(l) => {
                for v in 0..l.n {
                    self.pad_tree(m, level + 1, d + (v * l.dst) as usize);
                }
            }
            None => {
                for i in 0..self.nest.a.n {
                    self.pad_row(m, d + (i * self.nest.a.dst) as usize, 0);
                }
            }
        }
    }

    fn pad_row<M: Mover>(&self, m: &mut M, d: usize, from: u64) {
        let b = &self.nest.b;
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
        let (a, b, sizes) = (&self.nest.a, &self.nest.b, &self.nest.sizes[..]);
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
        // valid(b) is non-increasing in i, so the last row decides
        if na == a.n && nb_at(e, a.n - 1) == b.n {
            m.block(self.nest.kernel, a, b, s, d);
            return;
        }
        let mut i = 0;
        while i < na {
            let nb = nb_at(e, i);
            let mut j = i + 1;
            while j < na && nb_at(e, j) == nb {
                j += 1;
            }
            let (si, di) = (s + (i * a.src) as usize, d + (i * a.dst) as usize);
            if nb > 0 {
                let (aa, bb) = (Loop { n: j - i, ..*a }, Loop { n: nb, ..*b });
                let k = if (aa.n, bb.n) == (a.n, b.n) {
                    self.nest.kernel
                } else {
                    classify(&aa, &bb)
                };
                m.block(k, &aa, &bb, si, di);
            }
            if self.fill && nb < b.n {
                for r in i..j {
                    self.pad_row(m, d + (r * a.dst) as usize, nb);
                }
            }
            i = j;
        }
        if self.fill {
            for r in na..a.n {
                self.pad_row(m, d + (r * a.dst) as usize, 0);
            }
        }
    }
}

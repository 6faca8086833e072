//! Byte units of wide slots: a `pred[…]{…E(32)}` array is stored in `u8`
//! units (`bool`'s unit) four bytes a slot, so a typed copy hands the plan
//! bytes whose slots are wider than the unit. [`WideBytes`] moves whole
//! slots of bytes with plain loops: no cast to a wider integer (byte
//! buffers need not be aligned for one), so every kernel of the nest runs
//! as its loops say.

use crate::storage::kernels::Mover;
use crate::storage::nest::{Kernel, Loop};

/// Moves slots of `width` bytes; padding slots get `pad` in their first
/// byte and zeros after it (a `pred` slot holding the padding value).
pub(crate) struct WideBytes<'a> {
    pub(crate) src: &'a [u8],
    pub(crate) dst: &'a mut [u8],
    pub(crate) width: usize,
    pub(crate) pad: u8,
    /// The loops of a [`Kernel::Gather`] block.
    pub(crate) gather: &'a [Loop],
}

impl Mover for WideBytes<'_> {
    fn block(&mut self, k: Kernel, a: &Loop, b: &Loop, s: usize, d: usize) {
        if k == Kernel::Gather {
            // the stage of a gather block, written straight to its place:
            // stage slot t is slot t % foot of chunk t / foot, and chunk c
            // lands at d + c · a.dst
            let foot = b.n as usize;
            let g = self.gather;
            let mut v = [0u64; crate::storage::nest::KEPT_GATHER];
            loop {
                let (mut so, mut t) = (s, 0usize);
                for (l, &x) in g.iter().zip(&v) {
                    so += (x * l.src) as usize;
                    t += (x * l.dst) as usize;
                }
                self.one(so, d + t / foot * a.dst as usize + t % foot);
                // the next values, the last loop fastest
                let mut i = g.len();
                loop {
                    if i == 0 {
                        return;
                    }
                    i -= 1;
                    v[i] += 1;
                    if v[i] < g[i].n {
                        break;
                    }
                    v[i] = 0;
                }
            }
        }
        for i in 0..a.n as usize {
            for j in 0..b.n as usize {
                self.one(
                    s + i * a.src as usize + j * b.src as usize,
                    d + i * a.dst as usize + j * b.dst as usize,
                );
            }
        }
    }

    fn one(&mut self, s: usize, d: usize) {
        let w = self.width;
        self.dst[d * w..(d + 1) * w].copy_from_slice(&self.src[s * w..(s + 1) * w]);
    }

    fn pad(&mut self, d: usize, len: usize) {
        let w = self.width;
        for slot in self.dst[d * w..(d + len) * w].chunks_exact_mut(w) {
            slot.fill(0);
            slot[0] = self.pad;
        }
    }
}

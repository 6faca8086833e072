//! The mover of packed sub-byte slots (1, 2 or 4 bits): whole bytes where
//! runs start on a byte, the zips and unzips of `(8,128)(8,1)E(4)`,
//! `(16,128)(16,1)E(2)` and `(32,128)(32,1)E(1)` (rows of sub-byte slots
//! packed into 32-bit columns), else slot by slot.

use super::super::nest::{Kernel, Loop};
use super::super::packed;
use super::super::simd::{self, Isa};
use super::{gather_rows, Mover};

/// Packed sub-byte moves (1, 2 or 4 bits per slot).
pub(crate) struct BitMover<'a> {
    pub(crate) src: &'a [u8],
    pub(crate) dst: &'a mut [u8],
    pub(crate) bits: u32,
    pub(crate) pad: u8,
    /// The SIMD level the kernels run at.
    pub(crate) isa: Isa,
    /// The loops of a [`Kernel::Gather`] block (destination order).
    pub(crate) gather: &'a [Loop],
    /// Bytes from this zip block's rows to the next block's (0: unknown),
    /// for the kernels to prefetch them; set by `block_rep`.
    pub(crate) ahead: usize,
    /// Whether the nibble zips store non-temporally (the plan's
    /// streaming decision).
    pub(crate) nt: bool,
}

impl Mover for BitMover<'_> {
    /// A repeat that continues a zip block's columns on both sides (the
    /// next tile along the same rows: `c` steps the block's columns on
    /// the rows side and its packed columns on the other) joins the block,
    /// so the whole band of tiles is one kernel call; likewise for an
    /// unzip. Other repeats run block by block.
    fn block_rep(&mut self, k: Kernel, c: &Loop, a: &Loop, b: &Loop, s: usize, d: usize) {
        match k {
            Kernel::Interleave(_) if c.src == a.n * a.src && c.dst == a.n * a.dst => {
                let joined = Loop { n: a.n * c.n, ..*a };
                self.block(k, &joined, b, s, d);
            }
            Kernel::Deinterleave(_) if c.src == b.n * b.src && c.dst == b.n * b.dst => {
                let joined = Loop { n: b.n * c.n, ..*b };
                self.block(k, a, &joined, s, d);
            }
            _ => {
                // a zip's next block: its rows `c.src` slots on (the last
                // block's hint points past them, harmlessly)
                let per = (8 / self.bits) as usize;
                if (c.src as usize).is_multiple_of(per) {
                    self.ahead = c.src as usize / per;
                }
                for v in 0..c.n as usize {
                    self.block(k, a, b, s + v * c.src as usize, d + v * c.dst as usize);
                }
                self.ahead = 0;
            }
        }
    }

    fn block(&mut self, k: Kernel, a: &Loop, b: &Loop, s: usize, d: usize) {
        let per = (8 / self.bits) as usize;
        let n = b.n as usize;
        let aligned = |x: usize| x.is_multiple_of(per);
        if k == Kernel::Runs
            && aligned(n)
            && aligned(a.src as usize)
            && aligned(a.dst as usize)
            && aligned(s)
            && aligned(d)
        {
            for i in 0..a.n as usize {
                let so = (s + i * a.src as usize) / per;
                let dof = (d + i * a.dst as usize) / per;
                self.dst[dof..dof + n / per].copy_from_slice(&self.src[so..so + n / per]);
            }
            return;
        }
        // eight rows of nibbles zipped: whole bytes when both sides start
        // on a byte (`(8,128)(8,1)` with `E(4)`)
        if k == Kernel::Interleave(8)
            && self.bits == 4
            && a.src == 1
            && a.dst == 8
            && aligned(s)
            && aligned(d)
            && aligned(b.src as usize)
        {
            let pairs = a.n as usize / 2;
            let (so, dof) = (s / 2, d / 2);
            simd::zip8_nibbles(
                self.isa,
                &self.src[so..],
                b.src as usize / 2,
                pairs,
                &mut self.dst[dof..dof + 8 * pairs],
                self.ahead,
                self.nt,
            );
            if a.n % 2 == 1 {
                let c = a.n as usize - 1;
                for j in 0..8 {
                    self.one(s + c + j * b.src as usize, d + 8 * c + j);
                }
            }
            return;
        }
        // the inverse: packed columns of eight nibbles split into rows
        // (`a`: the rows, `b`: the columns, 8 slots apart)
        if k == Kernel::Deinterleave(8)
            && self.bits == 4
            && b.src == 8
            && aligned(s)
            && aligned(d)
            && aligned(a.dst as usize)
        {
            let (pairs, rs) = (n / 2, a.dst as usize / 2);
            let (so, dof) = (s / 2, d / 2);
            simd::unzip8_nibbles(
                self.isa,
                &self.src[so..so + 8 * pairs],
                &mut self.dst[dof..],
                rs,
                pairs,
                self.nt,
            );
            if n % 2 == 1 {
                let c = n - 1;
                for j in 0..8 {
                    self.one(s + 8 * c + j, d + c + j * a.dst as usize);
                }
            }
            return;
        }
        // 16 rows of 2-bit or 32 rows of 1-bit slots zipped into 32-bit
        // columns (`(16,1)E(2)`, `(32,1)E(1)`): whole bytes when both
        // sides start on a byte, the odd slots one by one
        let word = (32 / self.bits) as usize;
        if self.bits < 4
            && k == Kernel::Interleave(word as u8)
            && a.src == 1
            && a.dst as usize == word
            && aligned(s)
            && aligned(d)
            && aligned(b.src as usize)
        {
            let (cols, rs) = (a.n as usize / per, b.src as usize / per);
            let (so, dof) = (s / per, d / per);
            let out = &mut self.dst[dof..dof + word * cols];
            match self.bits {
                2 => simd::zip_bits::<2>(
                    self.isa,
                    &self.src[so..],
                    rs,
                    cols,
                    out,
                    self.ahead,
                    self.nt,
                ),
                _ => simd::zip_bits::<1>(
                    self.isa,
                    &self.src[so..],
                    rs,
                    cols,
                    out,
                    self.ahead,
                    self.nt,
                ),
            }
            for c in per * cols..a.n as usize {
                for j in 0..word {
                    self.one(s + c + j * b.src as usize, d + word * c + j);
                }
            }
            return;
        }
        // the inverse (`a`: the rows, `b`: the columns, `word` slots apart)
        if self.bits < 4
            && k == Kernel::Deinterleave(word as u8)
            && b.src as usize == word
            && aligned(s)
            && aligned(d)
            && aligned(a.dst as usize)
        {
            let (cols, rs) = (n / per, a.dst as usize / per);
            let (so, dof) = (s / per, d / per);
            let inp = &self.src[so..so + word * cols];
            match self.bits {
                2 => simd::unzip_bits::<2>(self.isa, inp, &mut self.dst[dof..], rs, cols, self.nt),
                _ => simd::unzip_bits::<1>(self.isa, inp, &mut self.dst[dof..], rs, cols, self.nt),
            }
            for c in per * cols..n {
                for j in 0..word {
                    self.one(s + word * c + j, d + c + j * a.dst as usize);
                }
            }
            return;
        }
        if k == Kernel::Gather {
            // stage offset q = chunk · n + offset in the chunk
            let chunk_dst = a.dst as usize;
            gather_rows(self.gather, s, |sb, db, len, si, di| {
                for j in 0..len {
                    let q = db + j * di;
                    self.one(sb + j * si, d + (q / n) * chunk_dst + q % n);
                }
            });
            return;
        }
        for i in 0..a.n as usize {
            let (si, di) = (s + i * a.src as usize, d + i * a.dst as usize);
            for j in 0..n {
                self.one(si + j * b.src as usize, di + j * b.dst as usize);
            }
        }
    }

    fn finish(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if self.nt {
            super::stream::fence();
        }
    }

    #[inline]
    fn one(&mut self, s: usize, d: usize) {
        packed::set(self.dst, d, self.bits, packed::get(self.src, s, self.bits));
    }

    fn pad(&mut self, d: usize, len: usize) {
        let per = (8 / self.bits) as usize;
        let (mut i, end) = (d, d + len);
        while i < end && i % per != 0 {
            packed::set(self.dst, i, self.bits, self.pad);
            i += 1;
        }
        let mut byte = 0u8;
        for k in 0..per {
            byte |= (self.pad & packed::mask(self.bits)) << (k as u32 * self.bits);
        }
        let full = (end - i) / per;
        self.dst[i / per..i / per + full].fill(byte);
        i += full * per;
        while i < end {
            packed::set(self.dst, i, self.bits, self.pad);
            i += 1;
        }
    }
}

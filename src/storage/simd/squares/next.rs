//! The next gather block's source, hinted while this block's stage is
//! copied out ([`NextSource`]).

use core::mem::size_of;

use super::unit_loops;
use crate::storage::nest::Loop;

/// The next gather block's source lines, prefetched into L2 a share at a
/// time while this block's stage is copied out, so that the reads of the
/// next block overlap the writes of this one (as in memcpy) rather than
/// queue behind this block's own reads. For a block whose loops end in a
/// `kernels::square_unit` and whose units run in contiguous source rows
/// of at least a line, not all starting a line (the packed transposes of
/// buffers as the allocator aligns them); the rows are those of this
/// block `ahead` slots away. The hints are spread evenly over the stage's
/// chunks, as the copy-out writes them.
///
/// Measured (AMD EPYC Zen 4, 32 KiB L1d, 1 MiB L2, 32 MiB L3; the bench
/// with `RELAYOUT_CLOCK=cpu`, old and new builds alternated, seven runs
/// each, load average 3–7; ratio to memcpy; the wall clock swung 0.1–5×
/// under that load): `s8[2048,4096]` `{1,0:T(8,128)(4,1)}` →
/// `{0,1:T(8,128)(4,1)}` streaming, plain `Vec`s, 0.68–0.78× with the
/// next block hinted as this one is gathered → 0.80–0.92× (twelve rounds
/// of thirteen; by the wall clock at load average 2.5, 0.71–0.82× →
/// 0.77–0.85×, six rounds); without streaming 0.52–0.57× both ways; bf16 the same
/// either way (0.66–0.91× against 0.62–0.99×, streaming or not). Tried
/// and not kept: the same on line-aligned rows (64-byte aligned buffers:
/// s8 0.87–1.23× → 0.71–1.00×, bf16 1.03–1.11× → 0.82–1.01×, five and
/// four rounds), hence the rule above; the hints in shares of 256
/// destination bytes instead of a chunk (s8 0.59–0.79×); all at the
/// start of the copy-out (0.79–0.81×) or over its first quarter
/// (0.82–0.85×); both these hints and the gather's (0.74–0.90×).
pub(crate) struct NextSource<'a> {
    src: &'a [u8],
    /// The loops around the rows (in units, merged), `n` of them.
    outer: [Loop; 16],
    n: usize,
    digit: [usize; 16],
    /// Byte offset of the next block's first row (only ever hinted).
    base: isize,
    /// Byte offset of the current row from `base`, the row's length and
    /// the unit size.
    row: usize,
    span: usize,
    u: usize,
    /// Next line of the current row, in bytes from its first line.
    line: usize,
    /// Lines per [`NextSource::step`], and whether every row is hinted.
    per: usize,
    done: bool,
}

impl<'a> NextSource<'a> {
    /// The cursor for the block at `s` with `loops` whose successor is
    /// `ahead` slots away, its lines spread over `steps` steps; `None`
    /// where it does not apply (no next block, not a packed square, rows
    /// shorter than a line).
    pub(crate) fn new<T: bytemuck::Pod>(
        src: &'a [T],
        s: usize,
        loops: &[Loop],
        ahead: Option<isize>,
        steps: usize,
    ) -> Option<Self> {
        let z = size_of::<T>();
        let kk = crate::storage::kernels::square_unit(loops, z)? as usize;
        let kk = kk * kk;
        let (ul, n) = unit_loops(&loops[..loops.len() - 2], kk as u64)?;
        let (x, outer) = ul[..n].split_last()?;
        let (u, base) = (kk * z, (s * z) as isize + ahead? * z as isize);
        let span = x.n as usize * u;
        if x.src != 1 || span < 64 {
            return None;
        }
        // rows that all start a line: the gather hints them (see above)
        let first = src.as_ptr().cast::<u8>().wrapping_offset(base).addr();
        if first.is_multiple_of(64)
            && outer
                .iter()
                .all(|l| (l.src as usize * u).is_multiple_of(64))
        {
            return None;
        }
        let rows = outer.iter().map(|l| l.n as usize).product::<usize>();
        // a row of `span` bytes touches at most `(span - 1) / 64 + 2`
        // lines (one more than when it starts a line)
        let lines = rows.checked_mul((span - 1) / 64 + 2)?;
        let mut o = [Loop::ONE; 16];
        o[..n - 1].copy_from_slice(outer);
        Some(NextSource {
            src: bytemuck::cast_slice(src),
            outer: o,
            n: n - 1,
            digit: [0; 16],
            base,
            row: 0,
            span,
            u,
            line: 0,
            per: lines.div_ceil(steps.max(1)),
            done: false,
        })
    }

    /// Hints the next share of lines.
    #[inline]
    pub(crate) fn step(&mut self) {
        for _ in 0..self.per {
            match self.next_line() {
                Some(p) => crate::storage::simd::prefetch_l2(p),
                None => return,
            }
        }
    }

    /// The address of the next line to hint (never dereferenced), from
    /// the line holding a row's first byte to the one holding its last,
    /// row after row; `None` once every row is done.
    fn next_line(&mut self) -> Option<*const u8> {
        if self.done {
            return None;
        }
        let p = self
            .src
            .as_ptr()
            .wrapping_offset(self.base)
            .wrapping_add(self.row);
        let mis = p.addr() & 63;
        let at = p.wrapping_sub(mis).wrapping_add(self.line);
        self.line += 64;
        if self.line < mis + self.span {
            return Some(at);
        }
        // the next row: the outer loops as an odometer
        self.line = 0;
        let mut k = self.n;
        loop {
            if k == 0 {
                self.done = true;
                return Some(at);
            }
            k -= 1;
            let l = &self.outer[k];
            self.digit[k] += 1;
            self.row += l.src as usize * self.u;
            if self.digit[k] < l.n as usize {
                return Some(at);
            }
            self.row -= l.n as usize * l.src as usize * self.u;
            self.digit[k] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The lines [`NextSource`] hints are exactly those of the next
    /// block's source (every slot of the loops, `ahead` slots on), by
    /// definition, for misaligned starts and rows of several lines; the
    /// `steps` shares cover them all.
    #[test]
    fn next_source_hints_the_next_blocks_lines() {
        let l = Loop::free;
        fn check<T: bytemuck::Pod + Default>(k: u64, rest: &[Loop], steps: usize) -> [u32; 2] {
            let mut loops = rest.to_vec();
            loops.extend([Loop::free(k, k, 1), Loop::free(k, 1, k)]);
            let src = alloc::vec![T::default(); 1 << 14];
            let z = size_of::<T>();
            // starts from `a`, the first slot on a line: both kinds of rows
            let a = src.as_ptr().addr().wrapping_neg() % 64 / z;
            let mut kinds = [0; 2];
            for s in [0, 1, 3, 16, 33, 56, 64, 100].map(|s| s + a) {
                for ahead in [0isize, 5, 4096, -3] {
                    let c = NextSource::new(&src, s + 8, &loops, Some(ahead), steps);
                    // rows that all start a line keep the gather's hints
                    let first = src
                        .as_ptr()
                        .wrapping_offset((s + 8) as isize + ahead)
                        .addr();
                    let (_, outer) = rest.split_last().unwrap();
                    let rows: u64 = outer.iter().map(|l| l.n).product();
                    let aligned = (0..rows).all(|mut i| {
                        let mut o = first;
                        for l in outer.iter().rev() {
                            o += (i % l.n * l.src) as usize * z;
                            i /= l.n;
                        }
                        o % 64 == 0
                    });
                    kinds[aligned as usize] += 1;
                    if aligned {
                        assert!(c.is_none(), "s {s} ahead {ahead} loops {rest:?}");
                        continue;
                    }
                    let mut c = c.expect("a packed square block with rows of a line or more");
                    let mut got = Vec::new();
                    while let Some(p) = c.next_line() {
                        got.push(p.addr());
                    }
                    assert!(c.per * steps >= got.len(), "the shares cover every line");
                    got.sort_unstable();
                    got.dedup();
                    let base = src.as_ptr().addr();
                    let mut want = Vec::new();
                    let total: u64 = loops.iter().map(|l| l.n).product();
                    for mut i in 0..total {
                        let mut so = s + 8;
                        for l in loops.iter().rev() {
                            so += (i % l.n) as usize * l.src as usize;
                            i /= l.n;
                        }
                        let at = base.wrapping_add_signed((so as isize + ahead) * z as isize);
                        want.push(at & !63);
                    }
                    want.sort_unstable();
                    want.dedup();
                    assert_eq!(got, want, "s {s} ahead {ahead} loops {rest:?}");
                }
            }
            kinds
        }
        // s8 (4 × 4 units of 16 bytes), bf16 (2 × 2 units of 8 bytes):
        // rows of 8 units (2 lines) with gaps, 3 × 2 of them; one row;
        // rows that merge with the loop around them
        let kinds = [
            check::<u8>(4, &[l(2, 16 * 100, 16), l(3, 16 * 9, 32), l(8, 16, 96)], 4),
            check::<u8>(4, &[l(5, 16, 16)], 1),
            check::<u8>(4, &[l(3, 16 * 4, 64), l(4, 16, 16)], 16),
            check::<u8>(4, &[l(3, 16 * 8, 64), l(4, 16, 16)], 4),
            check::<u16>(2, &[l(3, 4 * 40, 4), l(16, 4, 12)], 3),
        ];
        // both kinds of rows were seen: hinted, and left to the gather
        assert!(kinds.iter().all(|k| k[0] > 0) && kinds.iter().any(|k| k[1] > 0));
        // no next block, rows shorter than a line, not a packed square
        let src = [0u8; 256];
        let (sq, short) = (
            [l(4, 16, 16), l(4, 4, 1), l(4, 1, 4)],
            [l(3, 16, 16), l(4, 4, 1), l(4, 1, 4)],
        );
        assert!(NextSource::new(&src, 0, &sq, Some(64), 1).is_some());
        assert!(NextSource::new(&src, 0, &sq, None, 1).is_none());
        assert!(NextSource::new(&src, 0, &short, Some(64), 1).is_none());
        assert!(NextSource::new(&src, 0, &[l(64, 1, 1)], Some(64), 1).is_none());
    }
}

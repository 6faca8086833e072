//! A gather block of a packed transpose written straight to the
//! destination ([`gather_direct`]), without the stage and its copy-out:
//! the 32-bit tile transposes' direct kernel (`transpose512::direct`)
//! for units. Each step reads one 64-byte line's worth of `P` source rows
//! (`P = 64 / u`: 8 rows of 8-byte units, bf16 2 × 2 squares; 4 rows of
//! 16-byte units, s8 4 × 4 squares), transposes the `P × P` units in
//! registers (`vpunpck[lh]qdq` and `vshufi64x2` for 8-byte units,
//! `vshufi64x2` for 16-byte ones) and the squares inside each unit
//! (`vpshufb`), and hands the `P` pieces of 64 bytes, one per destination
//! row, to the line writer (`transpose512::lines`): every destination
//! line inside a row written once, whole and aligned, by a streaming
//! store; a row's partial ends joined with the adjacent row's, or by
//! ordinary stores.
//!
//! Measured (AMD EPYC Zen 4, 32 KiB L1d, 1 MiB L2, 32 MiB L3; the bench,
//! plain `Vec`s, this build and the stage's (`main` before it)
//! alternated in the same rounds of nine runs, medians of the rounds'
//! ratios to memcpy): bf16[2048,4096] `{1,0:T(8,128)(2,1)}` →
//! `{0,1:T(8,128)(2,1)}` 0.80× → 1.07× (7.0 → 10.1 GB/s) by the wall
//! clock, five rounds at load average 2.7–3.1, 0.82× → 1.14× by thread
//! CPU time, four rounds; s8 `(8,128)(4,1)` the same way 0.92× → 1.11×
//! (7.8 → 11.9 GB/s) and 0.86× → 1.41×; 64-byte aligned buffers bf16
//! 0.85× → 1.25×, s8 0.63× → 1.09× (wall clock). The next block's
//! source is hinted into L2 as this one is read (as in the 32-bit
//! kernel; without those hints bf16 fell to
//! 4.5–4.9 GB/s against 5.9–6.3, before the piece was inlined, load
//! average 1.3–1.5); hinting them all at a block's first step (4.8–6.0)
//! or one step further ahead (5.9–6.0) against 5.1–6.1 GB/s, and leaving
//! out the next column step's L1 hints (4.8–6.3 against 5.9–6.3), gained
//! nothing: the 32-bit kernel's hints stay.
//!
//! Tried at the AVX2 level and not kept (AMD EPYC Zen 3, 32 KiB L1d,
//! 512 KiB L2, 32 MiB L3, no AVX-512; a scratch harness of the plan,
//! plain `Vec`s, streaming): the same blocks through 4 × 4 and 2 × 2
//! register transposes, rows on 16 bytes written by 16-byte streaming
//! stores, each line whole (the last quarters of a row's piece kept for
//! its next), against the stage and its overlapped copy-out at 9.1–9.2
//! GB/s (bf16[2048,4096]) and
//! 8.2–8.7 (s8[4096,4096]). In column steps, as here, half a line of
//! each row a step: 8.0 / 6.5 GB/s (a block's rows 32 or 64 KiB apart
//! share one L1d set: 16 lines a step in 8 ways); 64 bytes of each row
//! a step: 6.2 / 5.1; each group's rows read whole (source order, no
//! misses left) and every row of the block written a line at a time:
//! 7.3–7.6 / 6.6–6.7, the streaming stores then spread over 16 chunks 32
//! KiB apart, where the stage's copy-out writes each 1–2 KiB chunk in one
//! run.
//!
//! Where it does not fit, the block goes through the stage
//! (`gather_squares`): rows not starting on a multiple of 4 bytes (the
//! line writer joins 32-bit slots), one column step (as for the 32-bit
//! kernel), rows whose pieces do not come as one loop or a pair of loops
//! (see [`Shape::of`]), loops around the groups, rows straddling chunks,
//! row strides that are not whole lines, and every level below AVX-512.

#[cfg(target_arch = "x86_64")]
use core::mem::size_of;

#[cfg(target_arch = "x86_64")]
use super::unit_loops;
use super::Isa;
use crate::storage::nest::Loop;
#[cfg(target_arch = "x86_64")]
use crate::storage::simd::transpose512::lines::Dest;

/// A packed gather block's unit loops as `P × P` steps (`P = 64 / u`):
/// groups of `P` source rows, each group `group` bytes after the last in
/// the source and `P` units in the stage; `cols` steps of 64 bytes of
/// every row (`P` destination rows each), destination rows `ds` stage
/// bytes apart.
///
/// Invariant: `u` is 8 or 16, `cols ≥ 1`, `groups ≥ 1`; every (row,
/// column) of every group is one unit of the block's loops, and they are
/// all of them.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
struct Shape {
    u: usize,
    /// Source byte offsets of a group's rows (the first `P`).
    rows: [usize; 8],
    groups: usize,
    group: usize,
    cols: usize,
    ds: usize,
}

#[cfg(target_arch = "x86_64")]
impl Shape {
    /// The shape of the gather loops `loops` of `z`-byte slots, if they
    /// end in a `kernels::square_unit` and their unit loops (merged) have
    /// one ([`Shape::of`]).
    fn of_squares(loops: &[Loop], z: usize) -> Option<Shape> {
        let k = crate::storage::kernels::square_unit(loops, z)? as usize;
        let (ul, n) = unit_loops(&loops[..loops.len() - 2], (k * k) as u64)?;
        Shape::of(k * k * z, &ul[..n])
    }

    /// The shape of the unit loops `ul` (source order, strides in
    /// `u`-byte units): the innermost loop contiguous in the source, its
    /// count a multiple of `P`; the one around it contiguous in the stage,
    /// its count a multiple of `P` (rows of one loop) or dividing `P` and
    /// paired by the only other loop, whose stage stride continues it (a
    /// packed tile's rows: 4 of `(8,128)(2,1)` or 2 of `(8,128)(4,1)` with
    /// the next tiles' rows).
    fn of(u: usize, ul: &[Loop]) -> Option<Shape> {
        let p = 64 / u;
        let [rest @ .., y, x] = ul else {
            return None;
        };
        let pn = p as u64;
        if !matches!(u, 8 | 16) || x.src != 1 || y.dst != 1 || !x.n.is_multiple_of(pn) || y.n == 0 {
            return None;
        }
        let ys = usize::try_from(y.src).ok()?.checked_mul(u)?;
        let mut rows = [0usize; 8];
        let (groups, group) = match rest {
            [] if y.n.is_multiple_of(pn) => {
                for (k, o) in rows[..p].iter_mut().enumerate() {
                    *o = k * ys;
                }
                (y.n / pn, p.checked_mul(ys)?)
            }
            [q] if pn.is_multiple_of(y.n) && q.dst == y.n && q.n.is_multiple_of(pn / y.n) => {
                let (yn, h) = (y.n as usize, (pn / y.n) as usize);
                let qs = usize::try_from(q.src).ok()?.checked_mul(u)?;
                for (k, o) in rows[..p].iter_mut().enumerate() {
                    *o = k % yn * ys + k / yn * qs;
                }
                (q.n / h as u64, h.checked_mul(qs)?)
            }
            _ => return None,
        };
        Some(Shape {
            u,
            rows,
            groups: usize::try_from(groups).ok()?,
            group,
            cols: usize::try_from(x.n / pn).ok()?,
            ds: usize::try_from(x.dst).ok()?.checked_mul(u)?,
        })
    }

    /// Whether the direct kernel writes this block through `to` (in
    /// bytes) into a destination starting at address `base`: more than
    /// one column step (the next step's lines are hinted into L1), each
    /// destination row (`64 · groups` bytes) inside one chunk, rows and
    /// chunks whole lines apart (so every row sits alike in its line),
    /// and the rows on a multiple of 4 bytes (the line writer joins
    /// 32-bit slots).
    fn fits(&self, to: &Dest, base: usize) -> bool {
        let len = 64 * self.groups;
        self.cols > 1
            && len <= self.ds
            && to.foot.is_multiple_of(self.ds)
            && self.ds.is_multiple_of(64)
            && to.chunk.is_multiple_of(64)
            && base.wrapping_add(to.d).is_multiple_of(4)
    }
}

/// A gather block of a packed transpose (loops ending in a
/// `kernels::square_unit`), from `src` at `s` straight into `dst`,
/// streaming if `nt` (whole lines; else ordinary stores: in cache, 8.5 →
/// 9.2–9.7 GB/s for bf16[1024,1024] `{1,0:T(8,128)(2,1)}` → `{0,1:…}`
/// and 10.7 → 15.9–16.9 for s8 `(4,1)` against the stage and its
/// copy-out, Intel Xeon guest, AVX-512, 2 MiB L2, the bench) (stage
/// slot `t` at `d + t / foot · chunk + t % foot`), without the stage, if
/// the level has a kernel for its shape (AVX-512); returns whether it
/// ran. `ahead`: the source offset of the next block less this one's,
/// whose lines are hinted into L2 as this block's are read.
#[allow(clippy::too_many_arguments)] // reason: both sides and the chunk map, flat
pub(crate) fn gather_direct<T: bytemuck::Pod>(
    isa: Isa,
    src: &[T],
    s: usize,
    loops: &[Loop],
    dst: &mut [T],
    (d, foot, chunk): (usize, usize, usize),
    ahead: Option<isize>,
    nt: bool,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if isa.avx512() {
        let z = size_of::<T>();
        let Some(sh) = Shape::of_squares(loops, z) else {
            return false;
        };
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(dst);
        let to = Dest {
            d: d * z,
            foot: foot * z,
            chunk: chunk * z,
        };
        if !sh.fits(&to, bytes.as_ptr().addr()) {
            return false;
        }
        // the destination as 32-bit slots from its first 4-byte aligned
        // byte (rows start on one: `fits`)
        let off = bytes.as_ptr().addr().wrapping_neg() % 4;
        let Some(body) = bytes.get_mut(off..) else {
            return false;
        };
        let whole = body.len() / 4 * 4;
        let d32: &mut [u32] = bytemuck::cast_slice_mut(&mut body[..whole]);
        let to = Dest {
            d: (to.d - off) / 4,
            foot: to.foot / 4,
            chunk: to.chunk / 4,
        };
        let src: &[u8] = bytemuck::cast_slice(src);
        let ahead = ahead.map(|x| x * z as isize);
        // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most the
        // detected level, and its AVX-512 level requires both).
        unsafe { avx512::direct(src, s * z, &sh, d32, &to, ahead, nt) };
        return true;
    }
    let _ = (isa, src, s, loops, dst, d, foot, chunk, ahead, nt);
    false
}

/// Whether the AVX-512 level's direct kernel takes the block `loops` of
/// `z`-byte slots into chunks of `foot` slots `chunk` apart (its rows on
/// a multiple of 4 bytes), for the tests of real plans (in `relayout.rs`,
/// which plans them: this module must not import it).
#[cfg(test)]
pub(crate) fn takes_direct(loops: &[Loop], z: usize, (foot, chunk): (usize, usize)) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let to = Dest {
            d: 0,
            foot: foot * z,
            chunk: chunk * z,
        };
        Shape::of_squares(loops, z).is_some_and(|sh| sh.fits(&to, 0))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (loops, z, foot, chunk);
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::arch::x86_64::*;

    use super::super::avx512::{in_unit, load};
    use super::{Dest, Shape};
    use crate::storage::simd::transpose512::lines::hint_step;
    use crate::storage::simd::transpose512::shifted::{self, by_shift};

    /// The block `sh` (which fits `to`, in 32-bit destination slots)
    /// from the bytes `src` at `s` straight into `dst`; `ahead` in bytes;
    /// whole lines streamed if `nt`.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn direct(
        src: &[u8],
        s: usize,
        sh: &Shape,
        dst: &mut [u32],
        to: &Dest,
        ahead: Option<isize>,
        nt: bool,
    ) {
        if sh.u == 8 {
            units8(src, s, sh, dst, to, ahead, nt);
        } else {
            units16(src, s, sh, dst, to, ahead, nt);
        }
    }

    /// [`direct`] for 8-byte units (each unit size and shift its own
    /// function, so that the steps, the line writer and the piece inline
    /// into one loop with the shift a constant: the join of two pieces
    /// one `valignd`, each line unchecked, as `shifted` explains).
    #[target_feature(enable = "avx512f,avx512bw")]
    fn units8(
        src: &[u8],
        s: usize,
        sh: &Shape,
        dst: &mut [u32],
        to: &Dest,
        ahead: Option<isize>,
        nt: bool,
    ) {
        by_shift!(dst, to, units8_at)(src, s, sh, dst, to, ahead, nt);
    }

    /// [`units8`] with the destination rows `(16 - S) % 16` slots into
    /// their lines.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline(never)]
    fn units8_at<const S: i32>(
        src: &[u8],
        s: usize,
        sh: &Shape,
        dst: &mut [u32],
        to: &Dest,
        ahead: Option<isize>,
        nt: bool,
    ) {
        steps::<8, S>(src, s, sh, dst, to, ahead, nt, |a| t8x8_u64(a));
    }

    /// [`direct`] for 16-byte units.
    #[target_feature(enable = "avx512f,avx512bw")]
    fn units16(
        src: &[u8],
        s: usize,
        sh: &Shape,
        dst: &mut [u32],
        to: &Dest,
        ahead: Option<isize>,
        nt: bool,
    ) {
        by_shift!(dst, to, units16_at)(src, s, sh, dst, to, ahead, nt);
    }

    /// [`units16`] with the destination rows `(16 - S) % 16` slots into
    /// their lines.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline(never)]
    fn units16_at<const S: i32>(
        src: &[u8],
        s: usize,
        sh: &Shape,
        dst: &mut [u32],
        to: &Dest,
        ahead: Option<isize>,
        nt: bool,
    ) {
        steps::<4, S>(src, s, sh, dst, to, ahead, nt, |a| t4x4_u128(a));
    }

    /// The column steps of [`direct`] with `P` rows and columns a step,
    /// `t` the register transpose of `P × P` units.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    #[allow(clippy::too_many_arguments)] // reason: both sides, the hints, the stores and the transpose, flat
    fn steps<const P: usize, const S: i32>(
        src: &[u8],
        s: usize,
        sh: &Shape,
        dst: &mut [u32],
        to: &Dest,
        ahead: Option<isize>,
        nt: bool,
        t: impl Fn([__m512i; P]) -> [__m512i; P],
    ) {
        let sw = in_unit(sh.u);
        let ds = sh.ds / 4;
        for i in 0..sh.cols {
            let c0 = P * i;
            // the destination rows c0 .. c0 + P, 64 bytes a group
            let at: [usize; P] = core::array::from_fn(|k| to.at((c0 + k) * ds));
            shifted::rows::<P, S>(
                dst,
                &at,
                sh.groups,
                nt,
                // (left to the inliner, the 8-byte units' piece stayed a
                // call returning its 8 registers through memory: bf16
                // 6.6–6.8 GB/s against 10.8–11.5 inlined, same runs)
                #[inline(always)]
                |g| {
                    let so = s + g * sh.group + 64 * i;
                    for &r in &sh.rows[..P] {
                        hint_step(
                            src.as_ptr().wrapping_add(so + r),
                            ahead,
                            i == 0,
                            i + 1 == sh.cols,
                        );
                    }
                    let a: [__m512i; P] = core::array::from_fn(|r| {
                        _mm512_shuffle_epi8(load(src, so + sh.rows[r]), sw)
                    });
                    let o = t(a);
                    core::array::from_fn(|k| _mm512_castsi512_ps(o[k]))
                },
            );
        }
    }

    /// The 8 × 8 transpose of the 8-byte units of `a` (row `r` in
    /// `a[r]`): column `c` in the result's `c`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn t8x8_u64(a: [__m512i; 8]) -> [__m512i; 8] {
        // lane l of t[2j + h]: column 2l + h of rows 2j, 2j + 1
        let t: [__m512i; 8] = core::array::from_fn(|i| {
            let (p, q) = (a[i & !1], a[i | 1]);
            if i % 2 == 0 {
                _mm512_unpacklo_epi64(p, q)
            } else {
                _mm512_unpackhi_epi64(p, q)
            }
        });
        let mut out = [_mm512_setzero_si512(); 8];
        for h in 0..2 {
            // lane l of t[h], t[2 + h], t[4 + h], t[6 + h] (rows 0–1, 2–3,
            // 4–5, 6–7) make column 2l + h
            let (a0, a1, b0, b1) = (t[h], t[2 + h], t[4 + h], t[6 + h]);
            let (p0, p1) = (
                _mm512_shuffle_i64x2::<0x44>(a0, a1),
                _mm512_shuffle_i64x2::<0xEE>(a0, a1),
            );
            let (q0, q1) = (
                _mm512_shuffle_i64x2::<0x44>(b0, b1),
                _mm512_shuffle_i64x2::<0xEE>(b0, b1),
            );
            out[h] = _mm512_shuffle_i64x2::<0x88>(p0, q0);
            out[2 + h] = _mm512_shuffle_i64x2::<0xDD>(p0, q0);
            out[4 + h] = _mm512_shuffle_i64x2::<0x88>(p1, q1);
            out[6 + h] = _mm512_shuffle_i64x2::<0xDD>(p1, q1);
        }
        out
    }

    /// The 4 × 4 transpose of the 16-byte units (128-bit lanes) of `a`
    /// (row `r` in `a[r]`): column `c` in the result's `c`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn t4x4_u128(a: [__m512i; 4]) -> [__m512i; 4] {
        // lanes 0, 1 of rows 0 and 1 (2 and 3); lanes 2, 3 of each
        let (p0, p1) = (
            _mm512_shuffle_i64x2::<0x44>(a[0], a[1]),
            _mm512_shuffle_i64x2::<0xEE>(a[0], a[1]),
        );
        let (q0, q1) = (
            _mm512_shuffle_i64x2::<0x44>(a[2], a[3]),
            _mm512_shuffle_i64x2::<0xEE>(a[2], a[3]),
        );
        [
            _mm512_shuffle_i64x2::<0x88>(p0, q0),
            _mm512_shuffle_i64x2::<0xDD>(p0, q0),
            _mm512_shuffle_i64x2::<0x88>(p1, q1),
            _mm512_shuffle_i64x2::<0xDD>(p1, q1),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::simd::Simd;
    use alloc::vec::Vec;

    /// Streaming packed blocks written straight into the destination
    /// (AVX-512), 8-byte units (bf16 2 × 2) and 16-byte units (s8 4 × 4):
    /// rows paired across loops and rows of one loop; rows adjacent in
    /// the destination (their shared lines joined), rows with gaps between
    /// them and chunks with gaps after them (partial ends); at every
    /// destination offset in a line, against the definition through the
    /// chunk map. The kernel runs exactly at the AVX-512 level, where the
    /// rows start on a multiple of 4 bytes and the shape fits; slots
    /// outside the chunks stay as they were.
    #[test]
    fn direct_packed_blocks_match_the_definition_at_every_offset() {
        let l = Loop::free;
        /// The slot loops of unit loops `ul` of `k × k` squares.
        fn slots(k: u64, ul: &[Loop]) -> Vec<Loop> {
            let kk = k * k;
            let mut v: Vec<Loop> = ul
                .iter()
                .map(|u| Loop::free(u.n, u.src * kk, u.dst * kk))
                .collect();
            v.extend([Loop::free(k, k, 1), Loop::free(k, 1, k)]);
            v
        }
        fn run<T: bytemuck::Pod + PartialEq + core::fmt::Debug>(
            loops: &[Loop],
            (foot, chunk): (usize, usize),
            fits: bool,
            val: impl Fn(usize) -> T,
            fill: T,
        ) -> usize {
            let z = size_of::<T>();
            let src: Vec<T> = (0..12000).map(&val).collect();
            let stage = 1 + loops.iter().map(|l| (l.n - 1) * l.dst).sum::<u64>() as usize;
            let mut want = alloc::vec![fill; stage];
            crate::storage::simd::gather_by_definition(&src, 5, loops, &mut want);
            let takes = cfg!(target_arch = "x86_64") && Simd::detected() >= Simd::Avx512;
            // every byte offset in a line; the kernel takes rows that
            // start on a multiple of 4 bytes; streaming stores, and
            // ordinary ones
            [true, false]
                .map(|nt| {
                    crate::storage::simd::check_chunks_at_every_offset(
                        &(loops, nt),
                        &want,
                        (foot, chunk),
                        64 / z,
                        fill,
                        |isa, out, d| {
                            let to = (d, foot, chunk);
                            gather_direct(isa, &src, 5, loops, out, to, Some(64), nt).then_some(())
                        },
                        |level, d| {
                            (takes && level == Simd::Avx512 && fits && (d * z).is_multiple_of(4))
                                .then_some(())
                        },
                    )
                })
                .into_iter()
                .sum()
        }
        let v16 = |i: usize| (i as u16).wrapping_mul(40503).wrapping_add(7);
        let v8 = |i: usize| (i as u8).wrapping_mul(167) ^ (i >> 8) as u8;
        // (unit loops, foot and chunk in slots, whether the kernel fits)
        let bf16 = [
            // a packed tile's 4 rows paired with the next tile's (as
            // `(8,128)(2,1)`), 2 column steps; two rows to a chunk
            // (joined), chunks with a line's gap after them
            (
                alloc::vec![l(4, 200, 4), l(4, 50, 1), l(16, 1, 16)],
                (128, 160),
                true,
            ),
            // 16 rows of one loop, 3 column steps, merged from two loops
            // on both sides; chunks back to back
            (
                alloc::vec![l(16, 40, 1), l(3, 8, 128), l(8, 1, 16)],
                (256, 256),
                true,
            ),
            // one column step: the stage
            (
                alloc::vec![l(4, 200, 4), l(4, 50, 1), l(8, 1, 16)],
                (128, 128),
                false,
            ),
            // 3 rows: no register block
            (alloc::vec![l(3, 50, 1), l(16, 1, 4)], (64, 64), false),
        ];
        let mut ran = 0;
        for (ul, to, fits) in &bf16 {
            ran += run::<u16>(&slots(2, ul), *to, *fits, v16, 0xDEAD);
        }
        let s8 = [
            // a packed tile's 2 rows paired (as `(8,128)(4,1)`), 2 column
            // steps; two rows to a chunk, a gap of two lines after it
            (
                alloc::vec![l(8, 100, 2), l(2, 32, 1), l(8, 1, 16)],
                (512, 640),
                true,
            ),
            // 4 rows of one loop, each 64 bytes of a 128-byte stride: gaps
            // between rows (partial ends at every row)
            (alloc::vec![l(4, 64, 1), l(8, 1, 8)], (256, 256), true),
            // rows 48 bytes apart in the stage: not whole lines
            (alloc::vec![l(4, 64, 1), l(8, 1, 3)], (96, 96), false),
        ];
        for (ul, to, fits) in &s8 {
            ran += run::<u8>(&slots(4, ul), *to, *fits, v8, 0xA5);
        }
        // (on a CPU with AVX-512 the kernel ran at some offsets of every
        // fitting case)
        if Simd::detected() >= Simd::Avx512 {
            assert!(ran > 0);
        }
    }

    /// The shapes of the two cases the kernel is for, as their plans'
    /// unit loops come (merged by `unit_loops`).
    #[test]
    fn the_packed_tile_transposes_shapes() {
        let l = Loop::free;
        // bf16[2048,4096] `{1,0:T(8,128)(2,1)}` → `{0,1:T(8,128)(2,1)}`
        let bf = [
            l(16, 32768, 16),
            l(4, 256, 4),
            l(16, 16, 1024),
            l(4, 4, 256),
        ];
        let (ul, n) = unit_loops(&bf, 4).unwrap();
        let sh = Shape::of(8, &ul[..n]).unwrap();
        assert_eq!(
            (sh.groups, sh.cols, sh.ds, sh.group),
            (8, 8, 512, 2 * 65536)
        );
        assert_eq!(sh.rows, [0, 512, 1024, 1536, 65536, 66048, 66560, 67072]);
        // s8[2048,4096] `{1,0:T(8,128)(4,1)}` → `{0,1:T(8,128)(4,1)}`
        let s8 = [
            l(16, 32768, 32),
            l(2, 512, 16),
            l(16, 32, 1024),
            l(2, 16, 512),
        ];
        let (ul, n) = unit_loops(&s8, 16).unwrap();
        let sh = Shape::of(16, &ul[..n]).unwrap();
        assert_eq!(
            (sh.groups, sh.cols, sh.ds, sh.group),
            (8, 8, 512, 2 * 32768)
        );
        assert_eq!(&sh.rows[..4], [0, 512, 32768, 33280]);
    }
}

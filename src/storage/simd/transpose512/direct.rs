//! A streaming gather block's 16 × 16 transposes written straight to the
//! destination ([`direct`]), without the stage and its copy-out: each
//! stage column (a destination row of `16 · groups` slots) is produced 16
//! slots at a time, group after group, and every destination line inside
//! it is written once, whole and aligned, by a streaming store (two
//! consecutive 16-slot pieces joined by `valignd` across the row's offset
//! in its line); the line two adjacent rows share is joined the same way,
//! and only a row's first and last partial lines, where no adjacent row
//! joins them, take ordinary stores.
//!
//! The pattern (the column steps outermost, the groups inside, the next
//! column step's source lines hinted into L1, partial lines by ordinary
//! stores) is the one a standalone study of these transposes measured
//! fastest on f32[4096,4096] `{1,0:T(8,128)}` → `{0,1:T(8,128)}`.
//!
//! Measured in the library (AMD EPYC Zen 4, 32 KiB L1d, 1 MiB L2, 32 MiB
//! L3; the bench, wall clock, plain `Vec`s, three rounds of seven runs
//! alternated, load average 1.6–2.3): that case 8.9–9.9 GB/s against
//! 8.6–9.1 through the stage (`transpose512`) and 6.9–8.1 at the AVX2
//! level (0.72–0.99× of memcpy against 0.71–0.88× and 0.67–0.76×);
//! `T(8,128)` → column-major, one column step a block, 5.6–6.5 against
//! 6.1–6.9 through the stage, hence [`fits`]' rule. Five more rounds
//! against the AVX2 level (load average 1.7–2.5, memcpy 10–13 GB/s):
//! 7.4–8.3 → 9.5–10.2 GB/s (0.62–0.79×, median 0.69× → 0.76–0.97×,
//! median 0.90×); 64-byte aligned buffers 7.0–9.4 → 9.8–11.5 GB/s
//! (median 0.68× → 0.87×).

use core::arch::x86_64::*;

use super::{load, t16_regs, Shape16};

/// Where a gather block's stage slot `t` lands: `d + t / foot · chunk +
/// t % foot`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dest {
    pub(crate) d: usize,
    pub(crate) foot: usize,
    pub(crate) chunk: usize,
}

impl Dest {
    fn at(&self, t: usize) -> usize {
        self.d + t / self.foot * self.chunk + t % self.foot
    }
}

/// Whether [`direct`] runs the block `sh` into `dst` at `to`: no loops
/// around the groups, each stage column (`16 · groups` slots) inside one
/// chunk, and every destination row in the same place in its line
/// (strides in whole lines); and more than one column step, so that the
/// next step's source lines can be hinted into L1 (with one, tiles →
/// column-major, it measured slower than the stage: see the figures).
pub(crate) fn fits(sh: &Shape16, to: &Dest) -> bool {
    let len = 16 * sh.groups;
    sh.n == 0
        && sh.cols > 1
        && len <= sh.ds
        && to.foot.is_multiple_of(sh.ds)
        && sh.ds.is_multiple_of(16)
        && to.chunk.is_multiple_of(16)
        && to.foot.is_multiple_of(16)
}

/// The block `sh` (which [`fits`] `to`) from `src` at `s` straight into
/// `dst`, streaming whole lines; `ahead`: the next block's source offset
/// less this one's, hinted into L2 as this block is read.
#[target_feature(enable = "avx512f")]
pub(crate) fn direct(
    src: &[u32],
    s: usize,
    sh: &Shape16,
    dst: &mut [u32],
    to: &Dest,
    ahead: Option<isize>,
) {
    let len = 16 * sh.groups;
    // every row starts `m` slots into a line (the same for all: strides in
    // whole lines)
    let m = (dst.as_ptr().wrapping_add(to.d).addr() / 4) % 16;
    for i in 0..sh.cols {
        let c0 = 16 * i;
        let mut first = [_mm512_setzero_ps(); 16];
        let mut carry = [_mm512_setzero_ps(); 16];
        for g in 0..sh.groups {
            let so = s + g * sh.group.0 + c0;
            for &r in &sh.rows {
                if let Some(x) = ahead {
                    let p = src.as_ptr().wrapping_add(so + r).wrapping_offset(x);
                    super::super::prefetch_l2(p.wrapping_add(15));
                    if i == 0 {
                        super::super::prefetch_l2(p);
                    }
                }
                if i + 1 < sh.cols {
                    super::super::prefetch_l1(src.as_ptr().wrapping_add(so + r + 16 + 15));
                }
            }
            let rows: [__m512; 16] = core::array::from_fn(|r| load(src, so + sh.rows[r]));
            let out = t16_regs(rows);
            for (k, v) in out.into_iter().enumerate() {
                // row c0 + k of the stage, its slots 16g .. 16g + 16
                let at = to.at((c0 + k) * sh.ds) + 16 * g;
                if m == 0 {
                    stream(dst, at, v);
                } else if g == 0 {
                    first[k] = v;
                } else {
                    stream(dst, at - m, align(v, carry[k], m));
                }
                carry[k] = v;
            }
        }
        if m == 0 {
            continue;
        }
        // the partial lines at the rows' ends: joined where the next row
        // follows in the destination, else ordinary stores
        for k in 0..16 {
            let at = to.at((c0 + k) * sh.ds);
            let joined = k + 1 < 16 && to.at((c0 + k + 1) * sh.ds) == at + len;
            if joined {
                stream(dst, at + len - m, align(first[k + 1], carry[k], m));
            } else {
                put(dst, at + len - m, carry[k], 16 - m, m);
            }
            let joined_before = k > 0 && to.at((c0 + k - 1) * sh.ds) + len == at;
            if !joined_before {
                put(dst, at, first[k], 0, 16 - m);
            }
        }
    }
}

/// The 16 slots of a line that starts `m` slots before `v`'s: the last
/// `m` of `prev`, then the first `16 - m` of `v` (`0 < m < 16`).
#[target_feature(enable = "avx512f")]
#[inline]
fn align(v: __m512, prev: __m512, m: usize) -> __m512 {
    let (a, b) = (_mm512_castps_si512(v), _mm512_castps_si512(prev));
    // `valignd`: the 32 slots `a:b` shifted down by `16 - m`
    let r = match m {
        1 => _mm512_alignr_epi32::<15>(a, b),
        2 => _mm512_alignr_epi32::<14>(a, b),
        3 => _mm512_alignr_epi32::<13>(a, b),
        4 => _mm512_alignr_epi32::<12>(a, b),
        5 => _mm512_alignr_epi32::<11>(a, b),
        6 => _mm512_alignr_epi32::<10>(a, b),
        7 => _mm512_alignr_epi32::<9>(a, b),
        8 => _mm512_alignr_epi32::<8>(a, b),
        9 => _mm512_alignr_epi32::<7>(a, b),
        10 => _mm512_alignr_epi32::<6>(a, b),
        11 => _mm512_alignr_epi32::<5>(a, b),
        12 => _mm512_alignr_epi32::<4>(a, b),
        13 => _mm512_alignr_epi32::<3>(a, b),
        14 => _mm512_alignr_epi32::<2>(a, b),
        _ => _mm512_alignr_epi32::<1>(a, b),
    };
    _mm512_castsi512_ps(r)
}

/// Slots `from .. from + n` of `v` to `dst[at..at + n]`, ordinary stores.
#[target_feature(enable = "avx512f")]
#[inline]
fn put(dst: &mut [u32], at: usize, v: __m512, from: usize, n: usize) {
    let mut b = [0u32; 16];
    super::store(&mut b, 0, v);
    dst[at..at + n].copy_from_slice(&b[from..from + n]);
}

/// `v` to the 16 slots `dst[at..at + 16]`, a whole 64-byte line, with a
/// streaming store.
#[target_feature(enable = "avx512f")]
#[inline]
fn stream(dst: &mut [u32], at: usize, v: __m512) {
    let line = &mut dst[at..at + 16];
    let p = line.as_mut_ptr();
    assert!(
        p.addr().is_multiple_of(64),
        "a streamed line is a whole line"
    );
    // SAFETY: `p` points to the 16 slots (64 bytes) of `line`, a live,
    // exclusively borrowed part of `dst`, so it is valid for a 64-byte
    // write; it is 64-byte aligned (asserted above), as `vmovntps`
    // requires; the CPU has AVX-512 F (this function's target feature,
    // which its callers prove). The store is weakly ordered: the mover's
    // `finish` fences after the last one (as for every streaming store).
    unsafe { _mm512_stream_ps(p.cast(), v) };
}

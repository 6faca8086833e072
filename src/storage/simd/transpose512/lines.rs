//! The line writer of the direct transposes ([`rows`]): the destination
//! rows of one column step, each produced a 64-byte piece at a time,
//! written so that every destination line inside a row is stored once,
//! whole and aligned, by a streaming store (two consecutive pieces of a
//! row joined by `valignd` across the row's offset in its line); the line
//! two adjacent rows share is joined the same way, and only a row's first
//! and last partial lines, where no adjacent row joins them, take
//! ordinary stores.
//!
//! The 32-bit tile transposes (`direct`: 16 rows of 16 slots a step) and
//! the packed unit transposes (`squares::direct`: 8 rows of 8-byte units,
//! 4 of 16-byte units) both write through it; it works in 32-bit slots,
//! so a packed destination runs here only where its rows start on a
//! multiple of 4 bytes.
//!
//! Why streaming only whole lines: a standalone study of these transposes
//! found streaming the partial lines of each 4 KiB tile the single
//! biggest loss of a direct kernel (f32[4096,4096] `{1,0:T(8,128)}` →
//! `{0,1:T(8,128)}`, AMD EPYC Zen 4: 0.65–0.73× of memcpy with them
//! streamed, 0.74–0.99× with ordinary stores).

use core::arch::x86_64::*;

use crate::storage::simd::{prefetch, prefetch_l2};

/// Where a gather block's stage slot `t` lands: `d + t / foot · chunk +
/// t % foot` (in the destination's slots).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dest {
    pub(crate) d: usize,
    pub(crate) foot: usize,
    pub(crate) chunk: usize,
}

impl Dest {
    /// The destination slot of stage slot `t`.
    pub(crate) fn at(&self, t: usize) -> usize {
        self.d + t / self.foot * self.chunk + t % self.foot
    }

    /// Whether the first destination row, at `d` in `dst`, starts off a
    /// 64-byte line.
    pub(crate) fn off_line(&self, dst: &[u32]) -> bool {
        !(dst.as_ptr().wrapping_add(self.d).addr() / 4).is_multiple_of(16)
    }
}

/// The `P` destination rows starting at the slots `at` (all the same
/// number of slots into their lines; a row's slots follow each other),
/// each of `16 · groups` slots, written from `piece(g)`, the `g`-th 16
/// slots of every row (`g` from 0 up, once each): whole lines by
/// streaming stores (`nt`; else ordinary aligned ones), a row's partial
/// first and last lines joined with the adjacent row's where it follows
/// in the destination, else by ordinary stores.
///
/// Pre: `dst[at[k] .. at[k] + 16 · groups]` are in bounds and disjoint.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn rows<const P: usize>(
    dst: &mut [u32],
    at: &[usize; P],
    groups: usize,
    nt: bool,
    mut piece: impl FnMut(usize) -> [__m512; P],
) {
    let len = 16 * groups;
    // every row starts `m` slots into a line (the same for all)
    let m = (dst.as_ptr().wrapping_add(at[0]).addr() / 4) % 16;
    if m == 0 {
        // rows on lines: every piece a whole line (a loop of its own; the
        // callers' pieces are `inline(always)`: used in two loops, the
        // 32-bit kernel's closure was left out of line, f32 `T(8,128)`
        // transpose 7.1 GB/s against 10.0 on plain `Vec`s; inlined, the
        // aligned loop took bf16 on 64-byte aligned buffers 12.2–13.3 →
        // 13.5–14.9 GB/s, f32 unchanged: 9.5 / 9.6 GB/s median aligned /
        // plain against 9.7 / 9.8 for `main`, thread CPU time, five rounds
        // at load average 4)
        for g in 0..groups {
            for (k, v) in piece(g).into_iter().enumerate() {
                line(dst, at[k] + 16 * g, v, nt);
            }
        }
        return;
    }
    let mut first = [_mm512_setzero_ps(); P];
    let mut carry = [_mm512_setzero_ps(); P];
    for g in 0..groups {
        for (k, v) in piece(g).into_iter().enumerate() {
            // row k's slots 16g .. 16g + 16
            if g == 0 {
                first[k] = v;
            } else {
                line(dst, at[k] + 16 * g - m, align(v, carry[k], m), nt);
            }
            carry[k] = v;
        }
    }
    // the partial lines at the rows' ends: joined where the next row
    // follows in the destination, else ordinary stores
    for k in 0..P {
        let joined = k + 1 < P && at[k + 1] == at[k] + len;
        if joined {
            line(dst, at[k] + len - m, align(first[k + 1], carry[k], m), nt);
        } else {
            put(dst, at[k] + len - m, carry[k], 16 - m, m);
        }
        let joined_before = k > 0 && at[k - 1] + len == at[k];
        if !joined_before {
            put(dst, at[k], first[k], 0, 16 - m);
        }
    }
}

/// The cache hints of one column step of a direct kernel, for one source
/// row whose step reads the 64 bytes at `p`: the line holding the last of
/// those bytes in the next block (`ahead` bytes on) into L2, at the first
/// column step (`first`) also the line holding the first (a row off its
/// lines reads two lines a step); and, unless this is the last column
/// step, the next step's last line into L1. Both direct kernels (16 rows
/// of 16 slots, `P` rows of 64 bytes) hint this way; what else was tried
/// is recorded beside `squares::direct`.
#[inline(always)]
pub(crate) fn hint_step(p: *const u8, ahead: Option<isize>, first: bool, last: bool) {
    if let Some(x) = ahead {
        let q = p.wrapping_offset(x);
        prefetch_l2(q.wrapping_add(63));
        if first {
            prefetch_l2(q);
        }
    }
    if !last {
        prefetch(p.wrapping_add(64 + 63));
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

/// Slots `from .. from + n` of `v` to `dst[at..at + n]` (`from + n ≤
/// 16`), ordinary stores of at most 16 bytes each, straight from the
/// register (`vpermd` brings slot `from + i` to the bottom): whole
/// 16-byte pieces, then the slots left one by one.
///
/// Why at most 16 bytes, straight from the register: with the partial
/// lines stored as a `copy_from_slice` of a stack copy of `v` (a `memcpy`
/// call, which on this glibc stores 32 bytes in 32-byte stores), rows
/// 32 bytes into a line ran far below the other offsets, as
/// `kernels::stream` found for the runs kernel's partial lines. Measured
/// (AMD EPYC Zen 4, 32 KiB L1d, 1 MiB L2, 32 MiB L3; the bench with
/// `RELAYOUT_AT` at source 0 and destination 0/16/32/48 bytes into a
/// line, plain `Vec`s, wall clock, seven rounds of seven runs alternated
/// with the `memcpy` form, load average 0.75–0.9; median and range of the
/// rounds): at 32 bytes `f32[4096,4096]{1,0:T(8,128)}` →
/// `{0,1:T(8,128)}` 0.65× [0.61–0.67] → 0.98× [0.84–0.99] of memcpy,
/// bf16 `(8,128)(2,1)` 0.80× [0.67–0.81] → 1.19× [1.05–1.29], s8
/// `(8,128)(4,1)` 0.61× [0.49–0.66] → 0.99× [0.50–1.24]; at 0, 16 and
/// 48 bytes within the rounds' spread. The cause is not pinned down
/// further: the same bytes are written, in 32-byte stores at two thirds
/// of the speed.
///
/// Tried and not kept: one masked store (`vmovdqu32`) straight from `v`,
/// slower at every offset but 0 (s8 `(8,128)(4,1)` 0.35–0.43×, bf16
/// 0.47–0.66×, against 0.6–1.3× in the same runs); the 16-byte pieces
/// streamed (`movntdq`) where aligned, at 32 bytes about as fast as
/// these, s8 at 16 and 48 bytes 0.64–1.22× against 0.68–1.30× for the
/// `memcpy` form in the same runs (a streamed partial line costs a
/// read-modify-write in memory); 16-byte pieces of the
/// stack copy (an earlier attempt), s8 at 16 bytes 0.56–0.61× against
/// 1.0–1.2×.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn put(dst: &mut [u32], at: usize, v: __m512, from: usize, n: usize) {
    let t = &mut dst[at..at + n];
    let v = _mm512_castps_si512(v);
    // the 4 slots of `v` from slot `j` (mod 16) as one 16-byte piece
    let quad = |j: usize| -> [u32; 4] {
        let j = _mm512_set1_epi32(j as i32);
        let idx = _mm512_add_epi32(
            j,
            _mm512_setr_epi32(0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        );
        bytemuck::cast(_mm512_castsi512_si128(_mm512_permutexvar_epi32(idx, v)))
    };
    let mut pieces = t.chunks_exact_mut(4);
    let mut j = from;
    for o in &mut pieces {
        o.copy_from_slice(&quad(j));
        j += 4;
    }
    let rest = pieces.into_remainder();
    if !rest.is_empty() {
        for (o, x) in rest.iter_mut().zip(quad(j)) {
            *o = x;
        }
    }
}

/// `v` to the 16 slots `dst[at..at + 16]`, a whole 64-byte line, with a
/// streaming store if `nt`, else an ordinary aligned one.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn line(dst: &mut [u32], at: usize, v: __m512, nt: bool) {
    let line = &mut dst[at..at + 16];
    let p = line.as_mut_ptr();
    assert!(p.addr().is_multiple_of(64), "a line stored whole");
    // SAFETY: `p` points to the 16 slots (64 bytes) of `line`, a live,
    // exclusively borrowed part of `dst`, so it is valid for a 64-byte
    // write; it is 64-byte aligned (asserted above), as `vmovntps` and
    // `vmovaps` require; the CPU has AVX-512 F (this function's target
    // feature, which its callers prove). The streaming store is weakly
    // ordered: the mover's `finish` fences after the last one (as for
    // every streaming store).
    unsafe { store_line(p, v, nt) };
}

/// One aligned 64-byte store of `v` at `p`, streaming if `nt`.
///
/// # Safety
/// `p` valid for a 64-byte write and 64-byte aligned; the CPU has
/// AVX-512 F.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) unsafe fn store_line(p: *mut u32, v: __m512, nt: bool) {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        if nt {
            _mm512_stream_ps(p.cast(), v)
        } else {
            _mm512_store_ps(p.cast(), v)
        }
    }
}

#[cfg(test)]
mod tests {
    use core::arch::x86_64::*;

    use super::put;

    /// `put` against a plain copy, for every slot range of the register
    /// and row offsets 0–16 slots into a line (native only: Miri has no
    /// shims for these AVX-512 intrinsics).
    #[test]
    #[cfg_attr(miri, ignore)]
    fn put_matches_a_plain_copy_for_every_range() {
        if !std::is_x86_feature_detected!("avx512f") {
            return;
        }
        let src: [u32; 16] = core::array::from_fn(|i| 0x1000 + i as u32);
        for at in 0..=16 {
            for from in 0..16 {
                for n in 0..=16 - from {
                    let mut got = [u32::MAX; 48];
                    // SAFETY: the CPU has AVX-512 F (detected above),
                    // the target feature of `put` and of the load;
                    // `_mm512_loadu_ps` reads the 64 bytes of `src`, a
                    // live local array (no alignment required).
                    unsafe {
                        let v = _mm512_loadu_ps(src.as_ptr().cast());
                        put(&mut got, at, v, from, n);
                    }
                    let mut want = [u32::MAX; 48];
                    want[at..at + n].copy_from_slice(&src[from..from + n]);
                    assert_eq!(got, want, "at {at}, from {from}, n {n}");
                }
            }
        }
    }
}

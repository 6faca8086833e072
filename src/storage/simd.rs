//! Zip and unzip of rows: the register-level interleave behind the
//! `(8,128)(2,1)` (bf16) and `(8,128)(4,1)` (s8) packings.
//!
//! ```text
//!   zip2:  a0 a1 a2 …  +  b0 b1 b2 …   →  a0 b0 a1 b1 a2 b2 …
//!   zip4:  a, b, c, d                  →  a0 b0 c0 d0 a1 b1 c1 d1 …
//!   unzip: the inverse
//! ```
//!
//! On x86-64 the 16-bit ×2 and 8-bit ×4 cases use AVX2 when the CPU has it
//! (detected at run time, with `std`), else SSE2 unpack and pack
//! instructions (baseline on every x86-64 CPU); elsewhere, and for other
//! widths, portable loops. Every function takes equal-length rows
//! (`out.len() == K · row.len()`) and is checked against the portable loop
//! by the tests below and `tests/relayout_*.rs`.

/// `out[K·c + k] = rows[k][c]`, portable.
pub(crate) fn zip<T: Copy, const K: usize>(rows: [&[T]; K], out: &mut [T]) {
    for (c, o) in out.chunks_exact_mut(K).enumerate() {
        for k in 0..K {
            o[k] = rows[k][c];
        }
    }
}

/// `rows[k][c] = inp[K·c + k]`, portable.
pub(crate) fn unzip<T: Copy, const K: usize>(inp: &[T], rows: [&mut [T]; K]) {
    for (k, row) in rows.into_iter().enumerate() {
        for (o, g) in row.iter_mut().zip(inp.chunks_exact(K)) {
            *o = g[k];
        }
    }
}

/// Where the blocks of a zip or unzip sit: two nested runs of blocks.
/// Block `(i, j)` (`i < count2`, `j < count`) has `K` rows of `len` slots
/// on the rows side, row `r` at `i·rstep2 + j·rstep + r·rs`, and `K·len`
/// packed slots on the packed side at `i·pstep2 + j·pstep`. Pre: `rs ≥
/// len`, and on the side written the blocks do not overlap.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blocks {
    pub(crate) len: usize,
    pub(crate) rs: usize,
    pub(crate) count: usize,
    pub(crate) rstep: usize,
    pub(crate) pstep: usize,
    pub(crate) count2: usize,
    pub(crate) rstep2: usize,
    pub(crate) pstep2: usize,
}

impl Blocks {
    /// One block.
    pub(crate) fn one(len: usize, rs: usize) -> Blocks {
        Blocks { len, rs, count: 1, rstep: 0, pstep: 0, count2: 1, rstep2: 0, pstep2: 0 }
    }

    /// Every block as `(rows side offset, packed side offset)`.
    pub(crate) fn each(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.count2).flat_map(move |i| {
            (0..self.count).map(move |j| (i * self.rstep2 + j * self.rstep, i * self.pstep2 + j * self.pstep))
        })
    }

    /// Slots the rows side spans for `k` rows.
    pub(crate) fn rows_extent(&self, k: usize) -> usize {
        if self.count == 0 || self.count2 == 0 {
            return 0;
        }
        (self.count2 - 1) * self.rstep2 + (self.count - 1) * self.rstep + (k - 1) * self.rs + self.len
    }

    /// Slots the packed side spans for `k` rows.
    pub(crate) fn packed_extent(&self, k: usize) -> usize {
        if self.count == 0 || self.count2 == 0 {
            return 0;
        }
        (self.count2 - 1) * self.pstep2 + (self.count - 1) * self.pstep + k * self.len
    }
}

/// `K` mutable rows of `n` slots, `rs` apart from slot `d`. Pre: `rs ≥ n`.
pub(crate) fn rows_mut<T, const K: usize>(dst: &mut [T], d: usize, rs: usize, n: usize) -> [&mut [T]; K] {
    let mut rest = &mut dst[d..];
    core::array::from_fn(|k| {
        let (head, tail) = core::mem::take(&mut rest).split_at_mut(if k + 1 < K { rs } else { n });
        rest = tail;
        &mut head[..n]
    })
}

/// Runs `one(rows, packed)` on every block of a zip.
#[inline(always)]
fn each_zip<T, const K: usize>(rows: &[T], out: &mut [T], bl: Blocks, mut one: impl FnMut([&[T]; K], &mut [T])) {
    for (ro, po) in bl.each() {
        let r = core::array::from_fn(|k| &rows[ro + k * bl.rs..ro + k * bl.rs + bl.len]);
        one(r, &mut out[po..po + K * bl.len]);
    }
}

/// Runs `one(packed, rows)` on every block of an unzip.
#[inline(always)]
fn each_unzip<T, const K: usize>(inp: &[T], rows: &mut [T], bl: Blocks, mut one: impl FnMut(&[T], [&mut [T]; K])) {
    for (ro, po) in bl.each() {
        one(&inp[po..po + K * bl.len], rows_mut::<T, K>(rows, ro, bl.rs, bl.len));
    }
}

/// Two 16-bit rows zipped, block by block.
pub(crate) fn zip2_u16(rows: &[u16], out: &mut [u16], bl: Blocks, nt: bool) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked at run time just above).
        return unsafe { avx2::zip2_u16(rows, out, bl, nt) };
    }
    let _ = nt; // SSE2 and portable paths store plainly
    each_zip::<u16, 2>(rows, out, bl, |[x, y], o| {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `sse2` is part of the x86-64 baseline, so the target
        // feature the callee is compiled for is always present.
        unsafe {
            sse2::zip2_u16(x, y, o)
        };
        #[cfg(not(target_arch = "x86_64"))]
        zip::<u16, 2>([x, y], o);
    });
}

/// Four 8-bit rows zipped, block by block.
pub(crate) fn zip4_u8(rows: &[u8], out: &mut [u8], bl: Blocks, nt: bool) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked at run time just above).
        return unsafe { avx2::zip4_u8(rows, out, bl, nt) };
    }
    let _ = nt;
    each_zip::<u8, 4>(rows, out, bl, |r, o| {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `zip2_u16`.
        unsafe {
            sse2::zip4_u8(r, o)
        };
        #[cfg(not(target_arch = "x86_64"))]
        zip::<u8, 4>(r, o);
    });
}

/// Blocks of 16-bit pairs split into two rows.
pub(crate) fn unzip2_u16(inp: &[u16], rows: &mut [u16], bl: Blocks, nt: bool) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked at run time just above).
        return unsafe { avx2::unzip2_u16(inp, rows, bl, nt) };
    }
    let _ = nt;
    each_unzip::<u16, 2>(inp, rows, bl, |i, [x, y]| {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `zip2_u16`.
        unsafe {
            sse2::unzip2_u16(i, x, y)
        };
        #[cfg(not(target_arch = "x86_64"))]
        unzip::<u16, 2>(i, [x, y]);
    });
}

/// Blocks of 8-bit quads split into four rows.
pub(crate) fn unzip4_u8(inp: &[u8], rows: &mut [u8], bl: Blocks, nt: bool) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked at run time just above).
        return unsafe { avx2::unzip4_u8(inp, rows, bl, nt) };
    }
    let _ = nt;
    each_unzip::<u8, 4>(inp, rows, bl, |i, r| {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `zip2_u16`.
        unsafe {
            sse2::unzip4_u8(i, r)
        };
        #[cfg(not(target_arch = "x86_64"))]
        unzip::<u8, 4>(i, r);
    });
}

/// An 8 × 8 transpose of 32-bit slots: `dst[d + c·ds + r] = src[s + r·ss +
/// c]` for `r, c < 8`.
pub(crate) fn transpose8_u32(src: &[u32], s: usize, ss: usize, dst: &mut [u32], d: usize, ds: usize) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked at run time just above).
        return unsafe { avx2::transpose8_u32(src, s, ss, dst, d, ds) };
    }
    for r in 0..8 {
        for c in 0..8 {
            dst[d + c * ds + r] = src[s + r * ss + c];
        }
    }
}

/// Whether the zip kernels for `k` rows of `bytes`-wide elements store
/// non-temporally themselves (AVX2 paths), so callers need no staging.
pub(crate) fn streams_directly(k: usize, bytes: usize) -> bool {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if matches!((k, bytes), (2, 2) | (4, 1)) {
        return avx2();
    }
    let _ = (k, bytes);
    false
}

/// Whether the CPU has AVX2 (std's detection caches the answer).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[inline]
fn avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// The same operations 32 bytes at a time; each hands its remainder to
/// the SSE2 version.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod avx2 {
    use core::arch::x86_64::*;

    use super::{each_unzip, each_zip, Blocks};

    #[target_feature(enable = "avx2")]
    pub(super) fn transpose8_u32(src: &[u32], s: usize, ss: usize, dst: &mut [u32], d: usize, ds: usize) {
        let r: [__m256; 8] = core::array::from_fn(|k| {
            bytemuck::pod_read_unaligned(bytemuck::cast_slice::<u32, u8>(&src[s + k * ss..s + k * ss + 8]))
        });
        // pairs, then quads within 128-bit lanes, then lanes
        let t0 = _mm256_unpacklo_ps(r[0], r[1]);
        let t1 = _mm256_unpackhi_ps(r[0], r[1]);
        let t2 = _mm256_unpacklo_ps(r[2], r[3]);
        let t3 = _mm256_unpackhi_ps(r[2], r[3]);
        let t4 = _mm256_unpacklo_ps(r[4], r[5]);
        let t5 = _mm256_unpackhi_ps(r[4], r[5]);
        let t6 = _mm256_unpacklo_ps(r[6], r[7]);
        let t7 = _mm256_unpackhi_ps(r[6], r[7]);
        let u0 = _mm256_shuffle_ps::<0x44>(t0, t2);
        let u1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
        let u2 = _mm256_shuffle_ps::<0x44>(t1, t3);
        let u3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
        let u4 = _mm256_shuffle_ps::<0x44>(t4, t6);
        let u5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
        let u6 = _mm256_shuffle_ps::<0x44>(t5, t7);
        let u7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
        let o = [
            _mm256_permute2f128_ps::<0x20>(u0, u4),
            _mm256_permute2f128_ps::<0x20>(u1, u5),
            _mm256_permute2f128_ps::<0x20>(u2, u6),
            _mm256_permute2f128_ps::<0x20>(u3, u7),
            _mm256_permute2f128_ps::<0x31>(u0, u4),
            _mm256_permute2f128_ps::<0x31>(u1, u5),
            _mm256_permute2f128_ps::<0x31>(u2, u6),
            _mm256_permute2f128_ps::<0x31>(u3, u7),
        ];
        for (c, v) in o.iter().enumerate() {
            let row = &mut dst[d + c * ds..d + c * ds + 8];
            bytemuck::cast_slice_mut::<u32, u8>(row).copy_from_slice(bytemuck::bytes_of(v));
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn zip2_u16(rows: &[u16], out: &mut [u16], bl: Blocks, nt: bool) {
        each_zip::<u16, 2>(rows, out, bl, |[x, y], o| zip2_u16_one(x, y, o, nt));
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn zip4_u8(rows: &[u8], out: &mut [u8], bl: Blocks, nt: bool) {
        each_zip::<u8, 4>(rows, out, bl, |r, o| zip4_u8_one(r, o, nt));
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn unzip2_u16(inp: &[u16], rows: &mut [u16], bl: Blocks, nt: bool) {
        each_unzip::<u16, 2>(inp, rows, bl, |i, [x, y]| unzip2_u16_one(i, x, y, nt));
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn unzip4_u8(inp: &[u8], rows: &mut [u8], bl: Blocks, nt: bool) {
        each_unzip::<u8, 4>(inp, rows, bl, |i, r| unzip4_u8_one(i, r, nt));
    }

    #[inline(always)]
    fn load<T: bytemuck::Pod>(s: &[T]) -> __m256i {
        bytemuck::pod_read_unaligned(&bytemuck::cast_slice::<T, u8>(s)[..32])
    }


    /// A prefetch hint for `s[i]` (past the end is fine: a hint never
    /// faults, and the pointer is never dereferenced).
    #[inline(always)]
    fn prefetch<T>(s: &[T], i: usize) {
        // (Miri has no prefetch; a hint has no effect to check)
        #[cfg(not(miri))]
        // SAFETY: `_mm_prefetch` only hints the cache: the address need not
        // be valid, `wrapping_add` keeps the pointer arithmetic defined,
        // and SSE is part of the x86-64 baseline.
        unsafe {
            _mm_prefetch::<_MM_HINT_NTA>(s.as_ptr().wrapping_add(i).cast())
        };
        let _ = (s, i);
    }

    /// Stores 32 bytes, non-temporally when asked and the destination is
    /// 32-byte aligned (the plan hands aligned blocks for line-aligned
    /// buffers; anything else takes a plain store).
    #[inline(always)]
    fn put<T: bytemuck::Pod>(nt: bool, d: &mut [T], v: __m256i) {
        let b = &mut bytemuck::cast_slice_mut::<T, u8>(d)[..32];
        let p = b.as_mut_ptr().cast::<__m256i>();
        if nt && p.is_aligned() {
            #[cfg(not(miri))]
            // SAFETY: `p` points to the 32 bytes of `b`, a live exclusive
            // borrow, and is 32-byte aligned (checked just above); the
            // caller runs with AVX (implied by its `avx2` target feature).
            unsafe {
                _mm256_stream_si256(p, v)
            };
            // Miri cannot run `vmovntdq` (inline assembly in stdarch): the
            // same pointer takes an aligned plain store, so Miri checks the
            // bounds and alignment claimed above.
            #[cfg(miri)]
            // SAFETY: as above.
            unsafe {
                p.write(v)
            };
        } else {
            b.copy_from_slice(bytemuck::bytes_of(&v));
        }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn zip2_u16_one(a: &[u16], b: &[u16], out: &mut [u16], nt: bool) {
        let n = a.len().min(b.len()).min(out.len() / 2);
        let body = n / 16 * 16;
        for c in (0..body).step_by(16) {
            // software prefetch (non-temporal hint) 2 KiB ahead: the
            // hardware prefetchers lag on several interleaved row streams
            // (measured: 0.5x -> 0.85x of memcpy on bf16[4096,4096])
            if c % 32 == 0 {
                prefetch(a, c + 1024);
                prefetch(b, c + 1024);
            }
            let (x, y) = (load(&a[c..c + 16]), load(&b[c..c + 16]));
            // unpack works per 128-bit lane; the permutes put lanes in order
            let (lo, hi) = (_mm256_unpacklo_epi16(x, y), _mm256_unpackhi_epi16(x, y));
            put(nt, &mut out[2 * c..2 * c + 16], _mm256_permute2x128_si256::<0x20>(lo, hi));
            put(nt, &mut out[2 * c + 16..2 * c + 32], _mm256_permute2x128_si256::<0x31>(lo, hi));
        }
        // AVX2 implies SSE2
        super::sse2::zip2_u16(&a[body..n], &b[body..n], &mut out[2 * body..2 * n])
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn zip4_u8_one(r: [&[u8]; 4], out: &mut [u8], nt: bool) {
        let n = r.iter().map(|x| x.len()).min().unwrap_or(0).min(out.len() / 4);
        let body = n / 32 * 32;
        for c in (0..body).step_by(32) {
            if c % 64 == 0 {
                for row in r {
                    prefetch(row, c + 2048);
                }
            }
            let (a, b) = (load(&r[0][c..c + 32]), load(&r[1][c..c + 32]));
            let (x, y) = (load(&r[2][c..c + 32]), load(&r[3][c..c + 32]));
            let (ab_lo, ab_hi) = (_mm256_unpacklo_epi8(a, b), _mm256_unpackhi_epi8(a, b));
            let (xy_lo, xy_hi) = (_mm256_unpacklo_epi8(x, y), _mm256_unpackhi_epi8(x, y));
            // per lane: w0 columns 0-3, w1 4-7, w2 8-11, w3 12-15 (+16 in lane 1)
            let w0 = _mm256_unpacklo_epi16(ab_lo, xy_lo);
            let w1 = _mm256_unpackhi_epi16(ab_lo, xy_lo);
            let w2 = _mm256_unpacklo_epi16(ab_hi, xy_hi);
            let w3 = _mm256_unpackhi_epi16(ab_hi, xy_hi);
            let o = &mut out[4 * c..4 * c + 128];
            put(nt, &mut o[0..32], _mm256_permute2x128_si256::<0x20>(w0, w1));
            put(nt, &mut o[32..64], _mm256_permute2x128_si256::<0x20>(w2, w3));
            put(nt, &mut o[64..96], _mm256_permute2x128_si256::<0x31>(w0, w1));
            put(nt, &mut o[96..128], _mm256_permute2x128_si256::<0x31>(w2, w3));
        }
        let rest = [&r[0][body..n], &r[1][body..n], &r[2][body..n], &r[3][body..n]];
        // AVX2 implies SSE2
        super::sse2::zip4_u8(rest, &mut out[4 * body..4 * n])
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn unzip2_u16_one(inp: &[u16], a: &mut [u16], b: &mut [u16], nt: bool) {
        let n = a.len().min(b.len()).min(inp.len() / 2);
        let body = n / 16 * 16;
        // per lane: even u16 to the low 8 bytes, odd to the high 8
        let m = _mm256_setr_epi8(
            0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15, //
            0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15,
        );
        for c in (0..body).step_by(16) {
            prefetch(inp, 2 * c + 1024);
            let t0 = _mm256_shuffle_epi8(load(&inp[2 * c..2 * c + 16]), m);
            let t1 = _mm256_shuffle_epi8(load(&inp[2 * c + 16..2 * c + 32]), m);
            // qwords (a0-3, b0-3, a4-7, b4-7) -> (a0-3, a4-7, b0-3, b4-7)
            let p0 = _mm256_permute4x64_epi64::<0xD8>(t0);
            let p1 = _mm256_permute4x64_epi64::<0xD8>(t1);
            put(nt, &mut a[c..c + 16], _mm256_permute2x128_si256::<0x20>(p0, p1));
            put(nt, &mut b[c..c + 16], _mm256_permute2x128_si256::<0x31>(p0, p1));
        }
        // AVX2 implies SSE2
        super::sse2::unzip2_u16(&inp[2 * body..2 * n], &mut a[body..n], &mut b[body..n])
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn unzip4_u8_one(inp: &[u8], r: [&mut [u8]; 4], nt: bool) {
        let n = r.iter().map(|x| x.len()).min().unwrap_or(0).min(inp.len() / 4);
        let body = n / 32 * 32;
        let [r0, r1, r2, r3] = r;
        // per lane: byte k of each 4-byte group to dword k
        let m = _mm256_setr_epi8(
            0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, //
            0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
        );
        let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        for c in (0..body).step_by(32) {
            prefetch(inp, 4 * c + 2048);
            prefetch(inp, 4 * c + 2048 + 64);
            let i = &inp[4 * c..4 * c + 128];
            // u_k: qword j = row j, columns 8k..8k+8
            let u = |k: usize| _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(load(&i[32 * k..32 * k + 32]), m), order);
            let (u0, u1, u2, u3) = (u(0), u(1), u(2), u(3));
            let (lo01, hi01) = (_mm256_unpacklo_epi64(u0, u1), _mm256_unpackhi_epi64(u0, u1));
            let (lo23, hi23) = (_mm256_unpacklo_epi64(u2, u3), _mm256_unpackhi_epi64(u2, u3));
            put(nt, &mut r0[c..c + 32], _mm256_permute2x128_si256::<0x20>(lo01, lo23));
            put(nt, &mut r1[c..c + 32], _mm256_permute2x128_si256::<0x20>(hi01, hi23));
            put(nt, &mut r2[c..c + 32], _mm256_permute2x128_si256::<0x31>(lo01, lo23));
            put(nt, &mut r3[c..c + 32], _mm256_permute2x128_si256::<0x31>(hi01, hi23));
        }
        let i = &inp[4 * body..4 * n];
        let rest = [&mut r0[body..n], &mut r1[body..n], &mut r2[body..n], &mut r3[body..n]];
        // AVX2 implies SSE2
        super::sse2::unzip4_u8(i, rest)
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use core::arch::x86_64::*;

    // Loads and stores go through `bytemuck` (safe unaligned copies of
    // 16 bytes); only the register operations are intrinsics.
    #[inline(always)]
    fn load<T: bytemuck::Pod>(s: &[T]) -> __m128i {
        bytemuck::pod_read_unaligned(&bytemuck::cast_slice::<T, u8>(s)[..16])
    }

    #[inline(always)]
    fn store<T: bytemuck::Pod>(d: &mut [T], v: __m128i) {
        bytemuck::cast_slice_mut::<T, u8>(d)[..16].copy_from_slice(bytemuck::bytes_of(&v));
    }

    #[target_feature(enable = "sse2")]
    pub(super) fn zip2_u16(a: &[u16], b: &[u16], out: &mut [u16]) {
        let n = a.len().min(b.len()).min(out.len() / 2);
        let body = n / 8 * 8;
        for c in (0..body).step_by(8) {
            let (x, y) = (load(&a[c..c + 8]), load(&b[c..c + 8]));
            store(&mut out[2 * c..2 * c + 8], _mm_unpacklo_epi16(x, y));
            store(&mut out[2 * c + 8..2 * c + 16], _mm_unpackhi_epi16(x, y));
        }
        super::zip::<u16, 2>([&a[body..n], &b[body..n]], &mut out[2 * body..2 * n]);
    }

    #[target_feature(enable = "sse2")]
    pub(super) fn zip4_u8(r: [&[u8]; 4], out: &mut [u8]) {
        let n = r
            .iter()
            .map(|x| x.len())
            .min()
            .unwrap_or(0)
            .min(out.len() / 4);
        let body = n / 16 * 16;
        for c in (0..body).step_by(16) {
            let v = [
                load(&r[0][c..c + 16]),
                load(&r[1][c..c + 16]),
                load(&r[2][c..c + 16]),
                load(&r[3][c..c + 16]),
            ];
            let (ab_lo, ab_hi) = (_mm_unpacklo_epi8(v[0], v[1]), _mm_unpackhi_epi8(v[0], v[1]));
            let (cd_lo, cd_hi) = (_mm_unpacklo_epi8(v[2], v[3]), _mm_unpackhi_epi8(v[2], v[3]));
            let o = &mut out[4 * c..4 * c + 64];
            store(&mut o[0..16], _mm_unpacklo_epi16(ab_lo, cd_lo));
            store(&mut o[16..32], _mm_unpackhi_epi16(ab_lo, cd_lo));
            store(&mut o[32..48], _mm_unpacklo_epi16(ab_hi, cd_hi));
            store(&mut o[48..64], _mm_unpackhi_epi16(ab_hi, cd_hi));
        }
        let rest = [
            &r[0][body..n],
            &r[1][body..n],
            &r[2][body..n],
            &r[3][body..n],
        ];
        super::zip::<u8, 4>(rest, &mut out[4 * body..4 * n]);
    }

    #[target_feature(enable = "sse2")]
    pub(super) fn unzip2_u16(inp: &[u16], a: &mut [u16], b: &mut [u16]) {
        let n = a.len().min(b.len()).min(inp.len() / 2);
        let body = n / 8 * 8;
        for c in (0..body).step_by(8) {
            let (v0, v1) = (
                load(&inp[2 * c..2 * c + 8]),
                load(&inp[2 * c + 8..2 * c + 16]),
            );
            // low halves: sign-extend so the saturating pack keeps them
            let lo = _mm_packs_epi32(
                _mm_srai_epi32::<16>(_mm_slli_epi32::<16>(v0)),
                _mm_srai_epi32::<16>(_mm_slli_epi32::<16>(v1)),
            );
            let hi = _mm_packs_epi32(_mm_srai_epi32::<16>(v0), _mm_srai_epi32::<16>(v1));
            store(&mut a[c..c + 8], lo);
            store(&mut b[c..c + 8], hi);
        }
        super::unzip::<u16, 2>(&inp[2 * body..2 * n], [&mut a[body..n], &mut b[body..n]]);
    }

    #[target_feature(enable = "sse2")]
    pub(super) fn unzip4_u8(inp: &[u8], r: [&mut [u8]; 4]) {
        let n = r
            .iter()
            .map(|x| x.len())
            .min()
            .unwrap_or(0)
            .min(inp.len() / 4);
        let body = n / 16 * 16;
        let [r0, r1, r2, r3] = r;
        let ff = _mm_set1_epi32(0xFF);
        for c in (0..body).step_by(16) {
            let i = &inp[4 * c..4 * c + 64];
            let v = [
                load(&i[0..16]),
                load(&i[16..32]),
                load(&i[32..48]),
                load(&i[48..64]),
            ];
            // row k: byte k of each 32-bit group, masked and packed twice
            let row = |a: __m128i, b: __m128i, c: __m128i, d: __m128i| {
                let (a, b) = (_mm_and_si128(a, ff), _mm_and_si128(b, ff));
                let (c, d) = (_mm_and_si128(c, ff), _mm_and_si128(d, ff));
                _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d))
            };
            store(&mut r0[c..c + 16], row(v[0], v[1], v[2], v[3]));
            let s8 = |x| _mm_srli_epi32::<8>(x);
            store(
                &mut r1[c..c + 16],
                row(s8(v[0]), s8(v[1]), s8(v[2]), s8(v[3])),
            );
            let s16 = |x| _mm_srli_epi32::<16>(x);
            store(
                &mut r2[c..c + 16],
                row(s16(v[0]), s16(v[1]), s16(v[2]), s16(v[3])),
            );
            let s24 = |x| _mm_srli_epi32::<24>(x);
            store(
                &mut r3[c..c + 16],
                row(s24(v[0]), s24(v[1]), s24(v[2]), s24(v[3])),
            );
        }
        let (i, rest) = (
            &inp[4 * body..4 * n],
            [
                &mut r0[body..n],
                &mut r1[body..n],
                &mut r2[body..n],
                &mut r3[body..n],
            ],
        );
        super::unzip::<u8, 4>(i, rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose8_matches_the_definition() {
        let src: alloc::vec::Vec<u32> = (0..8 * 13).collect();
        let mut dst = alloc::vec![0u32; 8 * 11 + 8];
        transpose8_u32(&src, 2, 13, &mut dst, 3, 11);
        for r in 0..8 {
            for c in 0..8 {
                assert_eq!(dst[3 + c * 11 + r], src[2 + r * 13 + c]);
            }
        }
    }

    #[test]
    fn simd_zips_match_the_portable_loops() {
        for n in [0usize, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 128, 200] {
            // two rows of n, row stride n + 3, one block
            let rs = n + 3;
            let rows: alloc::vec::Vec<u16> = (0..2 * rs).map(|x| (x as u16).wrapping_mul(977) ^ 0x8001).collect();
            let (a, b) = (&rows[..n], &rows[rs..rs + n]);
            let (mut o1, mut o2) = (alloc::vec![0u16; 2 * n], alloc::vec![0u16; 2 * n]);
            zip2_u16(&rows, &mut o1, Blocks::one(n, rs), false);
            zip::<u16, 2>([a, b], &mut o2);
            assert_eq!(o1, o2);
            let mut back = alloc::vec![0u16; 2 * rs];
            unzip2_u16(&o1, &mut back, Blocks::one(n, rs), false);
            assert_eq!((&back[..n], &back[rs..rs + n]), (a, b));

            let rows: alloc::vec::Vec<u8> = (0..4 * rs).map(|i| (i * 37) as u8 ^ 0x80).collect();
            let r: [&[u8]; 4] = core::array::from_fn(|k| &rows[k * rs..k * rs + n]);
            let (mut o1, mut o2) = (alloc::vec![0u8; 4 * n], alloc::vec![0u8; 4 * n]);
            zip4_u8(&rows, &mut o1, Blocks::one(n, rs), false);
            zip::<u8, 4>(r, &mut o2);
            assert_eq!(o1, o2);
            let mut back = alloc::vec![0u8; 4 * rs];
            unzip4_u8(&o1, &mut back, Blocks::one(n, rs), false);
            for k in 0..4 {
                assert_eq!(&back[k * rs..k * rs + n], r[k]);
            }
        }
    }
}

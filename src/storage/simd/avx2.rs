//! AVX2 zip, unzip and 8 × 8 transpose (run-time detected, `std`): 32 bytes
//! at a time, with streaming stores and software prefetch; remainders go to
//! the SSE2 versions.

use core::arch::x86_64::*;

use super::{each_unzip, each_zip, Blocks};

#[target_feature(enable = "avx2")]
pub(super) fn transpose8_u32(
    src: &[u32],
    s: usize,
    ss: usize,
    dst: &mut [u32],
    d: usize,
    ds: usize,
) {
    let r: [__m256; 8] = core::array::from_fn(|k| {
        bytemuck::pod_read_unaligned(bytemuck::cast_slice::<u32, u8>(
            &src[s + k * ss..s + k * ss + 8],
        ))
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
    let mut ahead = prefetch_targets(rows, &bl, 2 * 2 * bl.len, nt);
    each_zip::<u16, 2>(rows, out, bl, |[x, y], o| {
        zip2_u16_one(x, y, o, nt, ahead.next().flatten(), bl.rs)
    });
}

/// How far ahead the streaming zips prefetch their rows, in bytes of rows
/// read: the blocks to be zipped that much later, which past the end of a
/// call are the next call's ([`Blocks::next`]). Measured on bf16 and s8
/// [4096,4096] → `(8,128)(2,1)` / `(4,1)` (median ratio to memcpy): 8
/// KiB 1.0x, 16 KiB 0.95–1.0x, 32 KiB 1.0–1.1x; 2 KiB ahead along each row
/// instead (then the first 2 KiB of every row of a band is never
/// prefetched) 0.75–0.85x; no software prefetch 0.6–0.75x.
const AHEAD_BYTES: usize = 32 << 10;

/// For each block of `bl` (of `bytes` bytes of rows), the first row of
/// the block [`AHEAD_BYTES`] later to prefetch, when streaming; `None`
/// past the known blocks, and always in cache (no streaming stores), where
/// far-ahead lines would evict lines still in use and the kernels prefetch
/// along the rows only.
fn prefetch_targets<'a, T>(
    rows: &'a [T],
    bl: &'a Blocks,
    bytes: usize,
    nt: bool,
) -> impl Iterator<Item = Option<*const T>> + 'a {
    let t = (AHEAD_BYTES / bytes.max(1)).max(1);
    bl.ahead(t)
        .map(move |r| r.filter(|_| nt).map(|r| rows.as_ptr().wrapping_add(r)))
}

#[target_feature(enable = "avx2")]
pub(super) fn zip4_u8(rows: &[u8], out: &mut [u8], bl: Blocks, nt: bool) {
    let mut ahead = prefetch_targets(rows, &bl, 4 * bl.len, nt);
    each_zip::<u8, 4>(rows, out, bl, |r, o| {
        zip4_u8_one(r, o, nt, ahead.next().flatten(), bl.rs)
    });
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
    super::prefetch(s.as_ptr().wrapping_add(i));
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
fn zip2_u16_one(
    a: &[u16],
    b: &[u16],
    out: &mut [u16],
    nt: bool,
    pf: Option<*const u16>,
    rs: usize,
) {
    let n = a.len().min(b.len()).min(out.len() / 2);
    let body = n / 16 * 16;
    for c in (0..body).step_by(16) {
        // software prefetch (non-temporal hint): the hardware prefetchers
        // lag on several interleaved row streams (measured: 0.5x -> 0.85x
        // of memcpy on bf16[4096,4096] 2 KiB ahead along each row; 1.0x
        // for the blocks `AHEAD_BYTES` ahead, `pf`, when streaming)
        if c % 32 == 0 {
            if let Some(p) = pf {
                super::prefetch(p.wrapping_add(c));
                super::prefetch(p.wrapping_add(c + rs));
            } else {
                prefetch(a, c + 1024);
                prefetch(b, c + 1024);
            }
        }
        let (x, y) = (load(&a[c..c + 16]), load(&b[c..c + 16]));
        // unpack works per 128-bit lane; the permutes put lanes in order
        let (lo, hi) = (_mm256_unpacklo_epi16(x, y), _mm256_unpackhi_epi16(x, y));
        put(
            nt,
            &mut out[2 * c..2 * c + 16],
            _mm256_permute2x128_si256::<0x20>(lo, hi),
        );
        put(
            nt,
            &mut out[2 * c + 16..2 * c + 32],
            _mm256_permute2x128_si256::<0x31>(lo, hi),
        );
    }
    if body < n {
        // AVX2 implies SSE2
        super::sse2::zip2_u16(&a[body..n], &b[body..n], &mut out[2 * body..2 * n])
    }
}

#[target_feature(enable = "avx2")]
#[inline]
fn zip4_u8_one(r: [&[u8]; 4], out: &mut [u8], nt: bool, pf: Option<*const u8>, rs: usize) {
    let n = r
        .iter()
        .map(|x| x.len())
        .min()
        .unwrap_or(0)
        .min(out.len() / 4);
    let body = n / 32 * 32;
    for c in (0..body).step_by(32) {
        if c % 64 == 0 {
            if let Some(p) = pf {
                for k in 0..4 {
                    super::prefetch(p.wrapping_add(c + k * rs));
                }
            } else {
                for row in r {
                    prefetch(row, c + 2048);
                }
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
        put(
            nt,
            &mut o[32..64],
            _mm256_permute2x128_si256::<0x20>(w2, w3),
        );
        put(
            nt,
            &mut o[64..96],
            _mm256_permute2x128_si256::<0x31>(w0, w1),
        );
        put(
            nt,
            &mut o[96..128],
            _mm256_permute2x128_si256::<0x31>(w2, w3),
        );
    }
    let rest = [
        &r[0][body..n],
        &r[1][body..n],
        &r[2][body..n],
        &r[3][body..n],
    ];
    if body < n {
        // AVX2 implies SSE2
        super::sse2::zip4_u8(rest, &mut out[4 * body..4 * n])
    }
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
        put(
            nt,
            &mut a[c..c + 16],
            _mm256_permute2x128_si256::<0x20>(p0, p1),
        );
        put(
            nt,
            &mut b[c..c + 16],
            _mm256_permute2x128_si256::<0x31>(p0, p1),
        );
    }
    if body < n {
        // AVX2 implies SSE2
        super::sse2::unzip2_u16(&inp[2 * body..2 * n], &mut a[body..n], &mut b[body..n])
    }
}

#[target_feature(enable = "avx2")]
#[inline]
fn unzip4_u8_one(inp: &[u8], r: [&mut [u8]; 4], nt: bool) {
    let n = r
        .iter()
        .map(|x| x.len())
        .min()
        .unwrap_or(0)
        .min(inp.len() / 4);
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
        let u = |k: usize| {
            _mm256_permutevar8x32_epi32(
                _mm256_shuffle_epi8(load(&i[32 * k..32 * k + 32]), m),
                order,
            )
        };
        let (u0, u1, u2, u3) = (u(0), u(1), u(2), u(3));
        let (lo01, hi01) = (_mm256_unpacklo_epi64(u0, u1), _mm256_unpackhi_epi64(u0, u1));
        let (lo23, hi23) = (_mm256_unpacklo_epi64(u2, u3), _mm256_unpackhi_epi64(u2, u3));
        put(
            nt,
            &mut r0[c..c + 32],
            _mm256_permute2x128_si256::<0x20>(lo01, lo23),
        );
        put(
            nt,
            &mut r1[c..c + 32],
            _mm256_permute2x128_si256::<0x20>(hi01, hi23),
        );
        put(
            nt,
            &mut r2[c..c + 32],
            _mm256_permute2x128_si256::<0x31>(lo01, lo23),
        );
        put(
            nt,
            &mut r3[c..c + 32],
            _mm256_permute2x128_si256::<0x31>(hi01, hi23),
        );
    }
    let i = &inp[4 * body..4 * n];
    let rest = [
        &mut r0[body..n],
        &mut r1[body..n],
        &mut r2[body..n],
        &mut r3[body..n],
    ];
    if body < n {
        // AVX2 implies SSE2
        super::sse2::unzip4_u8(i, rest)
    }
}

//! AVX2 zip, unzip and 8 × 8 transposes (run-time detected, `std`): 32 bytes
//! at a time, with streaming stores and software prefetch; remainders go to
//! the SSE2 versions.

use core::arch::x86_64::*;

use super::{each_zip, Blocks};
use crate::storage::caches::Caches;
use crate::storage::kernels::stream::store as stream;

/// Columns `c..c + 32` of four 8-bit rows from their packed quads, in
/// an `avx2` function: `$q(g)` gives the 16 bytes of columns `c + 4g ..
/// c + 4g + 4` (`g < 8`); the value is rows 0 to 3, 32 bytes each.
/// Columns `4g` and `16 + 4g` are loaded as the two halves of one
/// register (the high half inserted straight from memory), so that after
/// the in-lane byte shuffle (dword `k` of a lane = row `k` of its four
/// columns) two rounds of unpacks leave every row in column order: 16
/// shuffles for 128 bytes, none across lanes. The 32-byte loads this
/// replaced needed a `vpermd` per load and a lane permute per row.
///
/// A macro, not a function: the streaming unzip calls it from four places
/// and a function was not inlined into them (s8 tiles → rows in cache
/// 16 → 6 GB/s).
macro_rules! unzip4_u8_step {
    ($q:expr) => {{
        let m = _mm256_setr_epi8(
            0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, //
            0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
        );
        // s_g, lane l: dword k = row k of columns 16l + 4g .. 16l + 4g + 4
        // (each piece's closure called once: no call left to inline)
        macro_rules! two {
            ($g:expr) => {{
                let v = $crate::storage::simd::avx2::load128(($q)($g));
                let h = $crate::storage::simd::avx2::load128(($q)($g + 4));
                let v = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(v), h);
                _mm256_shuffle_epi8(v, m)
            }};
        }
        let (s0, s1, s2, s3) = (two!(0), two!(1), two!(2), two!(3));
        let (a, b) = (_mm256_unpacklo_epi32(s0, s1), _mm256_unpacklo_epi32(s2, s3));
        let (c, d) = (_mm256_unpackhi_epi32(s0, s1), _mm256_unpackhi_epi32(s2, s3));
        [
            _mm256_unpacklo_epi64(a, b),
            _mm256_unpackhi_epi64(a, b),
            _mm256_unpacklo_epi64(c, d),
            _mm256_unpackhi_epi64(c, d),
        ]
    }};
}
pub(super) use unzip4_u8_step;

mod unzip;
pub(super) use unzip::{split_cols, unzip2_u16, unzip4_u8, unzip_by, unzip_edge, Seg};

#[cfg(feature = "alloc")]
mod panels;

/// A gather block's 8 × 8 transposes (`simd::transpose::gather_u32`),
/// the loops compiled with AVX2 so that [`transpose8_u32`] inlines.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
pub(super) fn gather_transpose_u32(
    src: &[u32],
    s: usize,
    loops: &[crate::storage::nest::Loop],
    out: &mut [u32],
    ahead: Option<isize>,
) {
    super::transpose_loops::blocks(src, s, loops, out, ahead, |a, s, ss, b, d, ds| {
        transpose8_u32(a, s, ss, b, d, ds)
    });
}

/// A gather block's 8 × 8 transposes in panels ([`panels::Panels`]),
/// `tick(k, of)` after each (`simd::transpose::gather_panels_u32`);
/// `false`, and nothing done, for blocks without them.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
pub(super) fn gather_panels_u32(
    src: &[u32],
    s: usize,
    loops: &[crate::storage::nest::Loop],
    out: &mut [u32],
    ahead: Option<isize>,
    tick: impl FnMut(usize, usize),
) -> bool {
    let Some(p) = panels::Panels::of(loops) else {
        return false;
    };
    panels::gather(src, s, &p, out, ahead, tick);
    true
}

/// An 8 × 8 transpose of 32-bit slots (`simd::transpose::transpose8_u32`).
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
#[inline]
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
    for (c, v) in t8_regs(r).iter().enumerate() {
        let row = &mut dst[d + c * ds..d + c * ds + 8];
        bytemuck::cast_slice_mut::<u32, u8>(row).copy_from_slice(bytemuck::bytes_of(v));
    }
}

/// The 8 × 8 transpose of the registers `r` (row `k` in `r[k]`): column
/// `c` in the result's `c`.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
#[inline]
fn t8_regs(r: [__m256; 8]) -> [__m256; 8] {
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
    [
        _mm256_permute2f128_ps::<0x20>(u0, u4),
        _mm256_permute2f128_ps::<0x20>(u1, u5),
        _mm256_permute2f128_ps::<0x20>(u2, u6),
        _mm256_permute2f128_ps::<0x20>(u3, u7),
        _mm256_permute2f128_ps::<0x31>(u0, u4),
        _mm256_permute2f128_ps::<0x31>(u1, u5),
        _mm256_permute2f128_ps::<0x31>(u2, u6),
        _mm256_permute2f128_ps::<0x31>(u3, u7),
    ]
}

#[target_feature(enable = "avx2")]
pub(super) fn zip2_u16(rows: &[u16], out: &mut [u16], bl: Blocks, nt: bool) {
    let mut ahead = prefetch_targets(rows, &bl, 2 * 2 * bl.len, nt);
    each_zip::<u16, 2>(rows, out, bl, |[x, y], o| {
        zip2_u16_one(x, y, o, nt, ahead.next().flatten(), bl.rs)
    });
}

/// For each block of `bl` (of `bytes` bytes of rows), the first row of
/// the block [`Caches::prefetch_ahead`] bytes of rows later to prefetch
/// (which past the end of a call are the next call's, [`Blocks::next`]),
/// when streaming; `None`
/// past the known blocks, and always in cache (no streaming stores), where
/// far-ahead lines would evict lines still in use and the kernels prefetch
/// along the rows only.
pub(super) fn prefetch_targets<'a, T>(
    rows: &'a [T],
    bl: &'a Blocks,
    bytes: usize,
    nt: bool,
) -> impl Iterator<Item = Option<*const T>> + 'a {
    // measured on bf16 and s8 [4096,4096] → `(8,128)(2,1)` / `(4,1)` on a
    // 32 KiB L1d: see `Caches::prefetch_ahead`; 2 KiB ahead along each row
    // instead (then the first 2 KiB of every row of a band is never
    // prefetched) 0.75–0.85x; no software prefetch 0.6–0.75x
    // (in cache no targets at all: no divisions in `Blocks::ahead`, which
    // a single small tile would pay for)
    nt.then(|| {
        let t = (Caches::host().prefetch_ahead() / bytes.max(1)).max(1);
        bl.ahead(t)
    })
    .into_iter()
    .flatten()
    .map(move |r| r.map(|r| rows.as_ptr().wrapping_add(r)))
}

#[target_feature(enable = "avx2")]
pub(super) fn zip4_u8(rows: &[u8], out: &mut [u8], bl: Blocks, nt: bool) {
    let mut ahead = prefetch_targets(rows, &bl, 4 * bl.len, nt);
    each_zip::<u8, 4>(rows, out, bl, |r, o| {
        zip4_u8_one(r, o, nt, ahead.next().flatten(), bl.rs)
    });
}

/// Whether rows `rs` slots apart are long enough for the in-cache zips to
/// prefetch 1024 slots ahead along them (a small tile's rows end long
/// before: there the hints would only fetch lines past the tile).
#[inline(always)]
pub(super) fn long_rows(rs: usize) -> bool {
    rs > 1024
}

/// The first 32 bytes of `s` (a safe unaligned copy).
#[inline(always)]
pub(super) fn load<T: bytemuck::Pod>(s: &[T]) -> __m256i {
    bytemuck::pod_read_unaligned(&bytemuck::cast_slice::<T, u8>(s)[..32])
}

/// The first 16 bytes of `s` (a safe unaligned copy).
#[inline(always)]
pub(super) fn load128<T: bytemuck::Pod>(s: &[T]) -> __m128i {
    bytemuck::pod_read_unaligned(&bytemuck::cast_slice::<T, u8>(s)[..16])
}

/// A prefetch hint for `s[i]` (past the end is fine: a hint never
/// faults, and the pointer is never dereferenced).
#[inline(always)]
fn prefetch<T>(s: &[T], i: usize) {
    super::prefetch(s.as_ptr().wrapping_add(i));
}

/// Stores 32 bytes, non-temporally when asked and the destination is
/// 16-byte aligned: one 32-byte store on a 32-byte boundary, else two
/// 16-byte ones (a user's `Vec` starts 16 bytes into a line with glibc,
/// so its blocks are never 32-byte aligned; consecutive stores still fill
/// a line's write-combining buffer whole). Anything else takes a plain
/// store.
///
/// An `avx2` function: callable only where the CPU is known to have it.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn put<T: bytemuck::Pod>(nt: bool, d: &mut [T], v: __m256i) {
    let b = &mut bytemuck::cast_slice_mut::<T, u8>(d)[..32];
    let p = b.as_mut_ptr();
    if nt && p.cast::<__m256i>().is_aligned() {
        // SAFETY: `p` points to the 32 bytes of `b`, a live exclusive
        // borrow, and is 32-byte aligned (checked just above); this
        // function is compiled with `avx2` (which implies the AVX of
        // `vmovntdq`), and being a target-feature function it is only
        // called from code that has proved the CPU has it.
        unsafe { stream256(p.cast(), v) };
    } else if nt && p.cast::<__m128i>().is_aligned() {
        let (lo, hi) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        // SAFETY: `p` and `p + 16` are the two halves of the 32 bytes of
        // `b` (a live exclusive borrow), both 16-byte aligned (`p` checked
        // just above); SSE2 is part of the x86-64 baseline.
        unsafe {
            stream(p.cast(), lo);
            stream(p.add(16).cast(), hi);
        }
    } else {
        b.copy_from_slice(bytemuck::bytes_of(&v));
    }
}

/// One non-temporal 32-byte store.
///
/// # Safety
/// `p` must be valid for a 32-byte write and 32-byte aligned.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn stream256(p: *mut __m256i, v: __m256i) {
    // Miri cannot run `vmovntdq` (inline assembly in stdarch): the same
    // pointer takes an aligned plain store, so Miri checks the bounds and
    // alignment the callers claim.
    #[cfg(not(miri))]
    // SAFETY: forwarded from this function's contract; AVX is implied by
    // this function's `avx2` feature.
    unsafe {
        _mm256_stream_si256(p, v)
    };
    #[cfg(miri)]
    // SAFETY: as above (`__m256i` is 32-byte aligned, so `write` checks
    // exactly that).
    unsafe {
        p.write(v)
    };
}

#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn zip2_u16_one(
    a: &[u16],
    b: &[u16],
    out: &mut [u16],
    nt: bool,
    pf: Option<*const u16>,
    rs: usize,
) {
    let n = a.len().min(b.len()).min(out.len() / 2);
    let body = n / 16 * 16;
    // (exact chunks: no bounds checks in the loop, which is most of a
    // small tile's cost)
    let chunks = a[..body]
        .chunks_exact(16)
        .zip(b[..body].chunks_exact(16))
        .zip(out[..2 * body].chunks_exact_mut(32));
    let along = long_rows(rs);
    for (i, ((xa, xb), o)) in chunks.enumerate() {
        let c = 16 * i;
        // software prefetch (`simd::prefetch`): the hardware prefetchers
        // lag on several interleaved row streams (measured: 0.5x -> 0.85x
        // of memcpy on bf16[4096,4096] 2 KiB ahead along each row; 1.0x
        // for the blocks `Caches::prefetch_ahead` ahead, `pf`, when
        // streaming)
        if c % 32 == 0 {
            if let Some(p) = pf {
                super::prefetch(p.wrapping_add(c));
                super::prefetch(p.wrapping_add(c + rs));
            } else if along {
                prefetch(a, c + 1024);
                prefetch(b, c + 1024);
            }
        }
        let [v0, v1] = zip2_u16_step(load(xa), load(xb));
        let (o0, o1) = o.split_at_mut(16);
        put(nt, o0, v0);
        put(nt, o1, v1);
    }
    if body < n {
        // AVX2 implies SSE2
        super::sse2::zip2_u16(&a[body..n], &b[body..n], &mut out[2 * body..2 * n])
    }
}

/// Columns `c..c + 16` of two 16-bit rows (`x`, `y`) zipped: the 64
/// output bytes, 32 a register, in order.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn zip2_u16_step(x: __m256i, y: __m256i) -> [__m256i; 2] {
    // unpack works per 128-bit lane; the permutes put lanes in order
    let (lo, hi) = (_mm256_unpacklo_epi16(x, y), _mm256_unpackhi_epi16(x, y));
    [
        _mm256_permute2x128_si256::<0x20>(lo, hi),
        _mm256_permute2x128_si256::<0x31>(lo, hi),
    ]
}

/// Columns `c..c + 32` of four 8-bit rows (`a`, `b`, `x`, `y`) zipped:
/// the 128 output bytes, 32 a register, in order.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn zip4_u8_step(a: __m256i, b: __m256i, x: __m256i, y: __m256i) -> [__m256i; 4] {
    let (ab_lo, ab_hi) = (_mm256_unpacklo_epi8(a, b), _mm256_unpackhi_epi8(a, b));
    let (xy_lo, xy_hi) = (_mm256_unpacklo_epi8(x, y), _mm256_unpackhi_epi8(x, y));
    // per lane: w0 columns 0-3, w1 4-7, w2 8-11, w3 12-15 (+16 in lane 1)
    let w0 = _mm256_unpacklo_epi16(ab_lo, xy_lo);
    let w1 = _mm256_unpackhi_epi16(ab_lo, xy_lo);
    let w2 = _mm256_unpacklo_epi16(ab_hi, xy_hi);
    let w3 = _mm256_unpackhi_epi16(ab_hi, xy_hi);
    [
        _mm256_permute2x128_si256::<0x20>(w0, w1),
        _mm256_permute2x128_si256::<0x20>(w2, w3),
        _mm256_permute2x128_si256::<0x31>(w0, w1),
        _mm256_permute2x128_si256::<0x31>(w2, w3),
    ]
}

#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn zip4_u8_one(
    r: [&[u8]; 4],
    out: &mut [u8],
    nt: bool,
    pf: Option<*const u8>,
    rs: usize,
) {
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
        let v = zip4_u8_step(a, b, x, y);
        let o = &mut out[4 * c..4 * c + 128];
        for (k, o) in o.chunks_exact_mut(32).enumerate() {
            put(nt, o, v[k]);
        }
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

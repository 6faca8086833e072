//! AVX-512 (F + BW) zip of two 16-bit rows: one two-source permute
//! (`vpermt2w`) per 64 bytes written, where AVX2 needs an unpack and a
//! lane permute per 32 (the in-cache and small-tile cost of bf16 rows →
//! `(8,128)(2,1)`). Stores go through the AVX2 `put` (streaming into 16-
//! and 32-byte aligned destinations alike); remainders to SSE2.

use core::arch::x86_64::*;

use super::avx2::{long_rows, prefetch_targets, put};
use super::{each_zip, Blocks};

#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn zip2_u16(rows: &[u16], out: &mut [u16], bl: Blocks, nt: bool) {
    let mut ahead = prefetch_targets(rows, &bl, 2 * 2 * bl.len, nt);
    each_zip::<u16, 2>(rows, out, bl, |[x, y], o| {
        zip2_u16_one(x, y, o, nt, ahead.next().flatten(), bl.rs)
    });
}

/// 32 slots from `s` (two 32-byte loads: no `Pod` needed for 64-byte
/// vectors).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn load(s: &[u16]) -> __m512i {
    let lo: __m256i = bytemuck::pod_read_unaligned(bytemuck::cast_slice(&s[..16]));
    let hi: __m256i = bytemuck::pod_read_unaligned(bytemuck::cast_slice(&s[16..32]));
    _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
}

/// 32 slots to `d`, as two 32-byte halves.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn store(nt: bool, d: &mut [u16], v: __m512i) {
    let (lo, hi) = d[..32].split_at_mut(16);
    put(nt, lo, _mm512_castsi512_si256(v));
    put(nt, hi, _mm512_extracti64x4_epi64::<1>(v));
}

#[target_feature(enable = "avx512f,avx512bw")]
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
    let body = n / 32 * 32;
    // word i of the result: a[i/2] for even i, b[i/2] for odd (index 32+
    // selects the second source), columns 0-15, then 16-31
    let lo_idx = _mm512_set_epi16(
        47, 15, 46, 14, 45, 13, 44, 12, 43, 11, 42, 10, 41, 9, 40, 8, //
        39, 7, 38, 6, 37, 5, 36, 4, 35, 3, 34, 2, 33, 1, 32, 0,
    );
    let hi_idx = _mm512_add_epi16(lo_idx, _mm512_set1_epi16(16));
    // (exact chunks: no bounds checks in the loop)
    let chunks = a[..body]
        .chunks_exact(32)
        .zip(b[..body].chunks_exact(32))
        .zip(out[..2 * body].chunks_exact_mut(64));
    let along = long_rows(rs);
    for (i, ((xa, xb), o)) in chunks.enumerate() {
        let c = 32 * i;
        // prefetch as the AVX2 zip does (see `prefetch_targets`)
        if let Some(p) = pf {
            super::prefetch(p.wrapping_add(c));
            super::prefetch(p.wrapping_add(c + rs));
        } else if along {
            super::prefetch(a.as_ptr().wrapping_add(c + 1024));
            super::prefetch(b.as_ptr().wrapping_add(c + 1024));
        }
        let (x, y) = (load(xa), load(xb));
        let (o0, o1) = o.split_at_mut(32);
        store(nt, o0, _mm512_permutex2var_epi16(x, lo_idx, y));
        store(nt, o1, _mm512_permutex2var_epi16(x, hi_idx, y));
    }
    if body < n {
        // AVX-512 implies SSE2
        super::sse2::zip2_u16(&a[body..n], &b[body..n], &mut out[2 * body..2 * n])
    }
}

/// One unzip block (`2 · len` packed 16-bit slots into two rows of
/// `len`), plain stores, for the blocks of `known`: two two-source
/// permutes (`vpermt2w`) per 32 columns, where AVX2 needs eight shuffles
/// (the tile → rows direction of a small bf16 tile was shuffle-bound);
/// the rest to SSE2.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn unzip2_u16_block(inp: &[u16], [a, b]: [&mut [u16]; 2], len: usize) {
    let body = len / 32 * 32;
    // word i of row a is packed word 2i, of row b 2i + 1 (index 32+
    // selects the second source: the next 32 packed words)
    let even: [u16; 32] = core::array::from_fn(|i| 2 * i as u16);
    let odd: [u16; 32] = core::array::from_fn(|i| 2 * i as u16 + 1);
    let (ie, io) = (load(&even), load(&odd));
    let chunks = inp[..2 * body]
        .chunks_exact(64)
        .zip(a[..body].chunks_exact_mut(32))
        .zip(b[..body].chunks_exact_mut(32));
    for ((i, xa), xb) in chunks {
        let (x, y) = (load(&i[..32]), load(&i[32..]));
        store(false, xa, _mm512_permutex2var_epi16(x, ie, y));
        store(false, xb, _mm512_permutex2var_epi16(x, io, y));
    }
    if body < len {
        // AVX-512 implies SSE2
        super::sse2::unzip2_u16(
            &inp[2 * body..2 * len],
            &mut a[body..len],
            &mut b[body..len],
        );
    }
}

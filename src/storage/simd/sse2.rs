//! SSE2 zip and unzip (the x86-64 baseline), 16 bytes at a time; the
//! remainders go to the portable loops.

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

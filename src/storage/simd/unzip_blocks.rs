//! AVX2 unzips of one contiguous block with plain stores, for the blocks
//! of [`known`](super::known): the typed copies' small tiles, fully
//! unrolled there (the streaming unzips of `avx2`, with their segments and
//! prefetch, do not inline into them).

use core::arch::x86_64::*;

use super::avx2::put;

#[inline(always)]
fn load<T: bytemuck::Pod>(s: &[T]) -> __m256i {
    bytemuck::pod_read_unaligned(&bytemuck::cast_slice::<T, u8>(s)[..32])
}

/// One unzip block (`2 · len` packed slots into two rows of `len`),
/// plain stores, for the blocks of `known`: per 16 columns the low and
/// high halves of each 32-bit pair are masked or shifted down and packed
/// (`vpackusdw`: values below 2^16 pack exactly), then one qword permute
/// per row puts the lanes in order — four shuffles where
/// the streaming unzip's `unzip2_u16_one` needs six (whose segment
/// arithmetic does not inline here either); the rest to SSE2.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn unzip2_u16_block(inp: &[u16], [a, b]: [&mut [u16]; 2], len: usize) {
    let body = len / 16 * 16;
    let low = _mm256_set1_epi32(0xFFFF);
    let chunks = inp[..2 * body]
        .chunks_exact(32)
        .zip(a[..body].chunks_exact_mut(16))
        .zip(b[..body].chunks_exact_mut(16));
    for ((i, xa), xb) in chunks {
        let (v0, v1) = (load(&i[..16]), load(&i[16..]));
        // per lane: qwords (columns 0-3, 8-11 | 4-7, 12-15)
        let lo = _mm256_packus_epi32(_mm256_and_si256(v0, low), _mm256_and_si256(v1, low));
        let hi = _mm256_packus_epi32(_mm256_srli_epi32::<16>(v0), _mm256_srli_epi32::<16>(v1));
        put(false, xa, _mm256_permute4x64_epi64::<0xD8>(lo));
        put(false, xb, _mm256_permute4x64_epi64::<0xD8>(hi));
    }
    if body < len {
        // AVX2 implies SSE2
        super::sse2::unzip2_u16(
            &inp[2 * body..2 * len],
            &mut a[body..len],
            &mut b[body..len],
        );
    }
}

/// One unzip block (`4 · len` packed slots into four rows of `len`),
/// plain stores, for the blocks of `known`: the register steps of
/// `unzip4_u8_one` (in `avx2::unzip`) on one contiguous block.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn unzip4_u8_block(inp: &[u8], [r0, r1, r2, r3]: [&mut [u8]; 4], len: usize) {
    let body = len / 32 * 32;
    let m = _mm256_setr_epi8(
        0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, //
        0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
    );
    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for c in (0..body).step_by(32) {
        let i = &inp[4 * c..4 * c + 128];
        let u = |k: usize| {
            _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(load(&i[32 * k..]), m), order)
        };
        let (u0, u1, u2, u3) = (u(0), u(1), u(2), u(3));
        let (lo01, hi01) = (_mm256_unpacklo_epi64(u0, u1), _mm256_unpackhi_epi64(u0, u1));
        let (lo23, hi23) = (_mm256_unpacklo_epi64(u2, u3), _mm256_unpackhi_epi64(u2, u3));
        put(
            false,
            &mut r0[c..c + 32],
            _mm256_permute2x128_si256::<0x20>(lo01, lo23),
        );
        put(
            false,
            &mut r1[c..c + 32],
            _mm256_permute2x128_si256::<0x20>(hi01, hi23),
        );
        put(
            false,
            &mut r2[c..c + 32],
            _mm256_permute2x128_si256::<0x31>(lo01, lo23),
        );
        put(
            false,
            &mut r3[c..c + 32],
            _mm256_permute2x128_si256::<0x31>(hi01, hi23),
        );
    }
    if body < len {
        // AVX2 implies SSE2
        let rest = [
            &mut r0[body..len],
            &mut r1[body..len],
            &mut r2[body..len],
            &mut r3[body..len],
        ];
        super::sse2::unzip4_u8(&inp[4 * body..4 * len], rest);
    }
}

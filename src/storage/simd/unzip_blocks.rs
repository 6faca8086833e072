//! AVX2 unzips of one contiguous block with plain stores, for the blocks
//! of [`known`](super::known): the typed copies' small tiles, fully
//! unrolled there (the streaming unzips of `avx2`, with their segments and
//! prefetch, do not inline into them).

use core::arch::x86_64::*;

use super::avx2::{load128, put, unzip4_u8_step};

/// With `ahead` (bytes; 0: none), prefetch hints for the `n` bytes (a
/// multiple of 64) `ahead` bytes past `inp[at]`: the input of the step
/// that far on (past the block is fine: a hint never faults).
#[inline(always)]
pub(super) fn prefetch_at<T>(inp: &[T], at: usize, ahead: usize, n: usize) {
    if ahead != 0 {
        let p = inp
            .as_ptr()
            .wrapping_add(at)
            .cast::<u8>()
            .wrapping_add(ahead);
        for o in (0..n).step_by(64) {
            super::prefetch(p.wrapping_add(o));
        }
    }
}

/// Whether [`unzip2_u16_block_realigned!`] applies to rows at `rows` with
/// blocks `len` columns long and pays: the rows are not on a 32-byte
/// boundary (an ordinary `Vec<u16>` is 16 bytes off one), and the body
/// is whole 16-column steps, at least two.
pub(super) fn realign_u16_rows(rows: &[u16], len: usize) -> bool {
    !rows.as_ptr().cast::<__m256i>().is_aligned() && len.is_multiple_of(16) && len >= 32
}

/// The 16 columns from column `c` of one unzip block: the low and high
/// halves of each 32-bit pair masked or shifted down and packed
/// (`vpackusdw`: values below 2^16 pack exactly). The inputs are loaded
/// as 16-byte halves paired (columns `c..c+4 | c+8..c+12` and
/// `c+4..c+8 | c+12..c+16`) so that the per-lane packs come out in column
/// order.
#[target_feature(enable = "avx2")]
#[inline]
fn unzip2_u16_step(inp: &[u16], [a, b]: [&mut [u16]; 2], c: usize) {
    unzip2_u16_put(unzip2_u16_load(inp, c), [a, b], c);
}

/// The loads of [`unzip2_u16_step`] at column `c`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn unzip2_u16_load(inp: &[u16], c: usize) -> [__m256i; 2] {
    let i = &inp[2 * c..2 * c + 32];
    let two = |l: &[u16], h: &[u16]| {
        _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(load128(l)), load128(h))
    };
    [two(&i[..8], &i[16..24]), two(&i[8..16], &i[24..])]
}

/// The packs and stores of [`unzip2_u16_step`] at column `c`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn unzip2_u16_put([v0, v1]: [__m256i; 2], [a, b]: [&mut [u16]; 2], c: usize) {
    let low = _mm256_set1_epi32(0xFFFF);
    let lo = _mm256_packus_epi32(_mm256_and_si256(v0, low), _mm256_and_si256(v1, low));
    let hi = _mm256_packus_epi32(_mm256_srli_epi32::<16>(v0), _mm256_srli_epi32::<16>(v1));
    put(false, &mut a[c..c + 16], lo);
    put(false, &mut b[c..c + 16], hi);
}

/// One unzip block (`2 · len` packed slots into two rows of `len`),
/// plain stores, for the blocks of `known`: [`unzip2_u16_step`]s, the
/// rest to SSE2.
///
/// Two things keep the one-tile copy near memcpy on an AVX2-only Zen 3
/// (bf16[8,128] tile -> rows, 2 KiB, best of 7 × 2000, memcpy 21 ns):
/// - The paired 16-byte loads of the step (the high half inserted
///   straight from memory), in place of a cross-lane qword permute
///   (`vpermq`) of each result after the packs, which bound the loop
///   (rows on a 32-byte boundary: 38 -> 33 ns).
/// - [`unzip2_u16_block_realigned!`] for rows off a 32-byte boundary.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn unzip2_u16_block(inp: &[u16], [a, b]: [&mut [u16]; 2], len: usize, ahead: usize) {
    let body = len / 16 * 16;
    for c in (0..body).step_by(16) {
        prefetch_at(inp, 2 * c, ahead, 64);
        unzip2_u16_step(inp, [&mut *a, &mut *b], c);
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

/// [`unzip2_u16_block`] for rows off a 32-byte boundary, `len` a multiple
/// of 16 and at least 32 (else it panics): the body starts at the column
/// that puts every 32-byte store on a boundary, with one overlapping step
/// at each end. Correct for any alignment; it pays when both rows are
/// equally off by whole elements.
///
/// Storing across lines cost the one-tile copy 48.5 ns against 38 with
/// the rows on a boundary (storing every result in 16-byte halves
/// instead did not help: 48.5 ns); realigned, 39 ns against 35.
///
/// Each step's loads come before the previous step's stores: over 128
/// placements of rows 16 bytes off a boundary against a tile on 32 bytes,
/// median 36.7 → 35.1 ns, 90th percentile 38.9 → 37.4 (memcpy 21 ns;
/// AMD EPYC Zen 3). All loads of four steps before their stores ran
/// 39.8 ns at every placement. A few placements stay slow (45–58 ns):
/// loads that follow stores 4 KiB apart in the low 12 bits wait for
/// them. A tile 8 bytes off a 16-byte boundary (a `u16` array on the
/// stack can be) costs little: 36.2 ns median.
///
/// A macro (`unzip2_u16_block_realigned!(inp, [a, b], len, ahead)`), not a
/// function: left to the inliner, the bench's binary kept it a call per
/// block, without the constant `len`: the typed bf16 tile → rows copy
/// 47–48 ns at every placement, against 35 inlined.
macro_rules! unzip2_u16_block_realigned {
    ($inp:expr, [$a:expr, $b:expr], $len:expr, $ahead:expr) => {{
        use $crate::storage::simd::unzip_blocks::{prefetch_at, unzip2_u16_load, unzip2_u16_put};
        let (inp, a, b, len, ahead): (&[u16], &mut [u16], &mut [u16], usize, usize) =
            ($inp, $a, $b, $len, $ahead);
        assert!(
            len >= 32 && len % 16 == 0,
            "realigned blocks are whole steps, two or more"
        );
        let head = (32 - a.as_ptr() as usize % 32) % 32 / 2;
        // each step's loads before the previous step's stores
        let mut v = unzip2_u16_load(inp, 0);
        let mut at = 0;
        for k in 0..len / 16 - 1 {
            let c = head + 16 * k;
            prefetch_at(inp, 2 * c, ahead, 64);
            let next = unzip2_u16_load(inp, c);
            unzip2_u16_put(v, [&mut *a, &mut *b], at);
            (v, at) = (next, c);
        }
        let next = unzip2_u16_load(inp, len - 16);
        unzip2_u16_put(v, [&mut *a, &mut *b], at);
        unzip2_u16_put(next, [a, b], len - 16);
    }};
}
pub(super) use unzip2_u16_block_realigned;

/// One unzip block (`4 · len` packed slots into four rows of `len`),
/// plain stores, for the blocks of `known`: the register steps of
/// `unzip4_u8_one` (in `avx2::unzip`) on one contiguous block.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn unzip4_u8_block(
    inp: &[u8],
    [r0, r1, r2, r3]: [&mut [u8]; 4],
    len: usize,
    ahead: usize,
) {
    let body = len / 32 * 32;
    for c in (0..body).step_by(32) {
        prefetch_at(inp, 4 * c, ahead, 128);
        let i = &inp[4 * c..4 * c + 128];
        let v = unzip4_u8_step!(|g: usize| &i[16 * g..16 * g + 16]);
        put(false, &mut r0[c..c + 32], v[0]);
        put(false, &mut r1[c..c + 32], v[1]);
        put(false, &mut r2[c..c + 32], v[2]);
        put(false, &mut r3[c..c + 32], v[3]);
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

//! Eight rows of 4-bit slots zipped (`(8,128)(8,1)E(4)`), 16 (SSE2) or
//! 32 (AVX2) byte columns at a time: an 8 × 16 byte transpose by unpacks
//! (per 128-bit lane), then each byte column's word split into its two
//! packed columns as `storage::nibbles` does with plain words (which takes
//! the remainder and the portable level); the AVX2 zip pairs the nibbles
//! with one multiply-add of bytes instead. The unzips invert them: each
//! packed column's 8 bytes become the column's word (byte `r` = row `r`:
//! shifts and masks per 64-bit lane with SSE2, byte shuffles with AVX2),
//! then four rounds of byte unpacks transpose 16 columns × 8 rows into 8
//! rows of 16 bytes. Loads and stores are safe `bytemuck` copies; only the
//! register operations are intrinsics.

use core::arch::x86_64::*;

#[inline(always)]
fn load128(s: &[u8]) -> __m128i {
    bytemuck::pod_read_unaligned(&s[..16])
}

#[inline(always)]
fn load256(s: &[u8]) -> __m256i {
    bytemuck::pod_read_unaligned(&s[..32])
}

/// Eight rows of 4-bit slots zipped, 16 byte columns (32 slots) at a time:
/// `out[8x .. 8x+8]` from byte `x` of the eight rows `rs` bytes apart (see
/// `storage::nibbles` for the format and the word version that takes the
/// remainder). Returns the byte columns done (a multiple of 16).
#[target_feature(enable = "sse2")]
pub(super) fn zip8_sse2(rows: &[u8], rs: usize, cols: usize, out: &mut [u8]) -> usize {
    let wide = cols / 16 * 16;
    let lo4 = _mm_set1_epi8(0x0F);
    let even = _mm_set1_epi16(0x00FF);
    for x in (0..wide).step_by(16) {
        let r: [__m128i; 8] = core::array::from_fn(|k| load128(&rows[k * rs + x..k * rs + x + 16]));
        // 8 × 16 bytes transposed: c[j] holds the words of byte columns
        // 2j' (low half) and 2j'+1 (high), byte k = row k
        let a = |p: usize| {
            (
                _mm_unpacklo_epi8(r[p], r[p + 1]),
                _mm_unpackhi_epi8(r[p], r[p + 1]),
            )
        };
        let ((a01l, a01h), (a23l, a23h)) = (a(0), a(2));
        let ((a45l, a45h), (a67l, a67h)) = (a(4), a(6));
        let b = [
            (
                _mm_unpacklo_epi16(a01l, a23l),
                _mm_unpacklo_epi16(a45l, a67l),
            ),
            (
                _mm_unpackhi_epi16(a01l, a23l),
                _mm_unpackhi_epi16(a45l, a67l),
            ),
            (
                _mm_unpacklo_epi16(a01h, a23h),
                _mm_unpacklo_epi16(a45h, a67h),
            ),
            (
                _mm_unpackhi_epi16(a01h, a23h),
                _mm_unpackhi_epi16(a45h, a67h),
            ),
        ];
        for (q, (b03, b47)) in b.into_iter().enumerate() {
            // byte columns x + 4q .. x + 4q + 4, two per register
            let c = [_mm_unpacklo_epi32(b03, b47), _mm_unpackhi_epi32(b03, b47)];
            // per word: e = rows' low halves paired, f = high halves
            let ef = |v: __m128i| {
                let lo = _mm_and_si128(v, lo4);
                let e = _mm_or_si128(lo, _mm_srli_epi64::<4>(lo));
                let f = _mm_or_si128(
                    _mm_and_si128(_mm_srli_epi64::<4>(v), lo4),
                    _mm_andnot_si128(lo4, _mm_srli_epi64::<8>(v)),
                );
                (_mm_and_si128(e, even), _mm_and_si128(f, even))
            };
            let ((e0, f0), (e1, f1)) = (ef(c[0]), ef(c[1]));
            // even bytes: 4 per word, columns in order
            let (e, f) = (_mm_packus_epi16(e0, e1), _mm_packus_epi16(f0, f1));
            let o = 8 * (x + 4 * q);
            store128(&mut out[o..o + 16], _mm_unpacklo_epi32(e, f));
            store128(&mut out[o + 16..o + 32], _mm_unpackhi_epi32(e, f));
        }
    }
    wide
}

/// Eight rows of 4-bit slots zipped, 32 byte columns at a time: the SSE2
/// version's steps in each 128-bit lane (lane 1 holds byte columns 16–31).
/// Returns the byte columns done (a multiple of 32).
#[target_feature(enable = "avx2")]
pub(super) fn zip8_avx2(rows: &[u8], rs: usize, cols: usize, out: &mut [u8]) -> usize {
    let wide = cols / 32 * 32;
    let lo4 = _mm256_set1_epi8(0x0F);
    // byte weights 1 (row 2q) and 16 (row 2q+1)
    let pair = _mm256_set1_epi16(0x1001);
    for x in (0..wide).step_by(32) {
        let r: [__m256i; 8] = core::array::from_fn(|k| load256(&rows[k * rs + x..k * rs + x + 32]));
        let a = |p: usize| {
            (
                _mm256_unpacklo_epi8(r[p], r[p + 1]),
                _mm256_unpackhi_epi8(r[p], r[p + 1]),
            )
        };
        let ((a01l, a01h), (a23l, a23h)) = (a(0), a(2));
        let ((a45l, a45h), (a67l, a67h)) = (a(4), a(6));
        let b = [
            (
                _mm256_unpacklo_epi16(a01l, a23l),
                _mm256_unpacklo_epi16(a45l, a67l),
            ),
            (
                _mm256_unpackhi_epi16(a01l, a23l),
                _mm256_unpackhi_epi16(a45l, a67l),
            ),
            (
                _mm256_unpacklo_epi16(a01h, a23h),
                _mm256_unpacklo_epi16(a45h, a67h),
            ),
            (
                _mm256_unpackhi_epi16(a01h, a23h),
                _mm256_unpackhi_epi16(a45h, a67h),
            ),
        ];
        for (q, (b03, b47)) in b.into_iter().enumerate() {
            let c = [
                _mm256_unpacklo_epi32(b03, b47),
                _mm256_unpackhi_epi32(b03, b47),
            ];
            // per 16-bit pair of rows (2q, 2q+1): e = the low halves, f =
            // the high halves, each `row 2q + 16 · row 2q+1` by one
            // multiply-add of unsigned bytes (`vpmaddubsw`, ≤ 255: no
            // saturation) where the SSE2 version shifts and masks
            let ef = |v: __m256i| {
                let lo = _mm256_and_si256(v, lo4);
                let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), lo4);
                (
                    _mm256_maddubs_epi16(lo, pair),
                    _mm256_maddubs_epi16(hi, pair),
                )
            };
            let ((e0, f0), (e1, f1)) = (ef(c[0]), ef(c[1]));
            let (e, f) = (_mm256_packus_epi16(e0, e1), _mm256_packus_epi16(f0, f1));
            let (lo, hi) = (_mm256_unpacklo_epi32(e, f), _mm256_unpackhi_epi32(e, f));
            // lane 0: byte columns x + 4q.., lane 1: x + 16 + 4q..
            for (lane, base) in [(0, x), (1, x + 16)] {
                let o = 8 * (base + 4 * q);
                let (l, h) = if lane == 0 {
                    (_mm256_castsi256_si128(lo), _mm256_castsi256_si128(hi))
                } else {
                    (
                        _mm256_extracti128_si256::<1>(lo),
                        _mm256_extracti128_si256::<1>(hi),
                    )
                };
                store128(&mut out[o..o + 16], l);
                store128(&mut out[o + 16..o + 32], h);
            }
        }
    }
    wide
}

#[inline(always)]
fn store128(d: &mut [u8], v: __m128i) {
    d[..16].copy_from_slice(bytemuck::bytes_of(&v));
}

/// The byte columns' words of packed columns, per 64-bit lane: the SIMD
/// twin of `storage::nibbles::column_unpair` (low 32 bits: the low
/// halves' bytes `e`, high: the high halves' `f`; out: byte `r` = row `r`).
macro_rules! column_unpair {
    ($v:expr, $and:ident, $or:ident, $sl:ident, $sr:ident, $set:ident) => {{
        let v = $v;
        let lo32 = $set(0xFFFF_FFFF);
        let spread = |x| {
            let x = $and($or(x, $sl::<16>(x)), $set(0x0000_FFFF_0000_FFFF));
            $and($or(x, $sl::<8>(x)), $set(0x00FF_00FF_00FF_00FF))
        };
        let (e, f) = (spread($and(v, lo32)), spread($sr::<32>(v)));
        let lo = $set(0x000F_000F_000F_000F);
        let hi = $set(0x00F0_00F0_00F0_00F0);
        let even = $or($and(e, lo), $sl::<4>($and(f, lo)));
        let odd = $or($and($sr::<4>(e), lo), $and(f, hi));
        $or(even, $sl::<8>(odd))
    }};
}

/// Four rounds of `out[2i], out[2i+1] = unpack{lo,hi}_epi8(in[i], in[i+4])`
/// on 8 registers: each round moves the byte at index bits `s` (register,
/// then byte) to `rotl(s, 1)` of the 7 bits, so four take `[column (4 bits)
/// | row (3)]` to `[row | column]`.
macro_rules! unpack_rounds {
    ($w:expr, $lo:ident, $hi:ident) => {{
        let mut w = $w;
        for _ in 0..4 {
            w = [
                $lo(w[0], w[4]),
                $hi(w[0], w[4]),
                $lo(w[1], w[5]),
                $hi(w[1], w[5]),
                $lo(w[2], w[6]),
                $hi(w[2], w[6]),
                $lo(w[3], w[7]),
                $hi(w[3], w[7]),
            ];
        }
        w
    }};
}

/// The inverse of [`zip8_sse2`]: 16 byte columns at a time from
/// `in_[8x ..]` into eight rows `rs` bytes apart. Returns the byte columns
/// done (a multiple of 16).
#[target_feature(enable = "sse2")]
pub(super) fn unzip8_sse2(in_: &[u8], rows: &mut [u8], rs: usize, cols: usize) -> usize {
    let wide = cols / 16 * 16;
    let set = |x: u64| _mm_set1_epi64x(x as i64);
    for x in (0..wide).step_by(16) {
        // w[j]: byte columns x + 2j, x + 2j + 1, one 64-bit lane each
        let w: [__m128i; 8] = core::array::from_fn(|j| {
            let o = 8 * x + 16 * j;
            let v = load128(&in_[o..o + 16]);
            column_unpair!(
                v,
                _mm_and_si128,
                _mm_or_si128,
                _mm_slli_epi64,
                _mm_srli_epi64,
                set
            )
        });
        let r = unpack_rounds!(w, _mm_unpacklo_epi8, _mm_unpackhi_epi8);
        for (k, v) in r.into_iter().enumerate() {
            store128(&mut rows[k * rs + x..k * rs + x + 16], v);
        }
    }
    wide
}

/// The inverse of [`zip8_avx2`]: 32 byte columns at a time (lane 1 holds
/// byte columns 16–31). Returns the byte columns done (a multiple of 32).
#[target_feature(enable = "avx2")]
pub(super) fn unzip8_avx2(in_: &[u8], rows: &mut [u8], rs: usize, cols: usize) -> usize {
    let wide = cols / 32 * 32;
    let m = |x: u16| _mm256_set1_epi16(x as i16);
    // per 128-bit lane: the two columns' e bytes (0-3, 8-11) and f bytes
    // (4-7, 12-15), each twice
    let to_e = _mm256_setr_epi8(
        0, 0, 1, 1, 2, 2, 3, 3, 8, 8, 9, 9, 10, 10, 11, 11, //
        0, 0, 1, 1, 2, 2, 3, 3, 8, 8, 9, 9, 10, 10, 11, 11,
    );
    let to_f = _mm256_setr_epi8(
        4, 4, 5, 5, 6, 6, 7, 7, 12, 12, 13, 13, 14, 14, 15, 15, //
        4, 4, 5, 5, 6, 6, 7, 7, 12, 12, 13, 13, 14, 14, 15, 15,
    );
    for x in (0..wide).step_by(32) {
        let w: [__m256i; 8] = core::array::from_fn(|j| {
            let o = 8 * x + 16 * j;
            let (a, b) = (load128(&in_[o..o + 16]), load128(&in_[o + 128..o + 144]));
            let v = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(a), b);
            // e_q and f_q to both bytes of pair q (`vpshufb`), then each
            // byte takes its nibbles: row 2q = e_q & 0xF | f_q << 4 & 0xF0,
            // row 2q+1 = e_q >> 4 | f_q & 0xF0 (shifts within 16 bits)
            let (e, f) = (_mm256_shuffle_epi8(v, to_e), _mm256_shuffle_epi8(v, to_f));
            let even = _mm256_or_si256(
                _mm256_and_si256(e, m(0x000F)),
                _mm256_and_si256(_mm256_slli_epi16::<4>(f), m(0x00F0)),
            );
            let odd = _mm256_or_si256(
                _mm256_and_si256(_mm256_srli_epi16::<4>(e), m(0x0F00)),
                _mm256_and_si256(f, m(0xF000)),
            );
            _mm256_or_si256(even, odd)
        });
        let r = unpack_rounds!(w, _mm256_unpacklo_epi8, _mm256_unpackhi_epi8);
        for (k, v) in r.into_iter().enumerate() {
            let row = &mut rows[k * rs + x..k * rs + x + 32];
            row.copy_from_slice(bytemuck::bytes_of(&v));
        }
    }
    wide
}

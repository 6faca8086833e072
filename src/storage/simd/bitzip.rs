//! AVX-512 (F + BW), AVX2 and SSE2 zip and unzip of `k = 32 / w` rows of
//! `w`-bit slots into 32-bit columns (`w` = 2: `(16,128)(16,1)E(2)`; 1:
//! `(32,128)(32,1)E(1)`; see `storage::bitzip` for the format and the
//! portable version, which takes the remainders), 64 (AVX2: 32, SSE2: 16)
//! byte columns at a time, in two steps on whole rows:
//!
//! 1. Group `q` of `p = 8 / w` rows (`q < 4`) holds byte `q` of every
//!    word. A `p × p` transpose of `w`-bit fields across the group's
//!    registers, byte by byte (swaps of the off-diagonal blocks at 4, 2
//!    and 1 bits with `vpternlogq` selects), makes register `j` of the
//!    group that byte of word `j`:
//!    ```text
//!      a' = a & m | (b << s) & !m      b' = (a >> s) & m | b & !m
//!      (rows i, i + s/w; m = the low s bits of every 2s: 0x0F, 0x33, 0x55)
//!    ```
//! 2. The `k` registers, in output byte order (`4j + q`), are then `k` rows
//!    of bytes to zip: `log2 k` rounds of byte unpacks per 128-bit lane
//!    (each rotates the index bits `[register | byte]` by one), then 4 × 4
//!    lane transposes so that every store is a whole 64-byte line (AVX2:
//!    pairs of registers' lanes make 32 contiguous bytes).
//!
//! The unzip runs the steps backwards (4 rounds of unpacks; the field
//! transposes are involutions).
//!
//! Every step is written out with constant register indices (macros over
//! index lists): with loops over the `k` registers LLVM kept them on the
//! stack, at 1.7–3.4 GB/s in cache.

use core::arch::x86_64::*;

use super::avx2::{load128, put, unzip4_u8_step};
use super::nibbles::{lanes4x4, load512, prefetch_rows, put512, select};

/// `[r[i0], r[i1], …]`.
macro_rules! pick {
    ($r:ident; $($i:literal),*) => {
        [$($r[$i]),*]
    };
}

/// One round: `out[2i], out[2i+1] = unpack{lo,hi}_epi8(w[i], w[i + k/2])`
/// (each rotates the index bits `[register | byte]` of a lane by one).
macro_rules! round {
    ($lo:ident, $hi:ident, $w:expr; $($a:literal $b:literal),*) => {{
        let w = $w;
        [$($lo(w[$a], w[$b]), $hi(w[$a], w[$b])),*]
    }};
}

/// The field swaps at `$s` bits between the register pairs listed (`m` =
/// the low `$s` bits of every `2 · $s`).
macro_rules! swaps {
    ($r:ident, $s:literal, $m:literal; $($a:literal $b:literal),*) => {{
        let m = splat($m);
        // (16-bit shifts: the select drops the bits crossing bytes)
        $(
            let (x, y) = ($r[$a], $r[$b]);
            $r[$a] = select(m, x, sll::<$s>(y));
            $r[$b] = select(m, srl::<$s>(x), y);
        )*
    }};
}

/// The steps on registers of one width: the field transposes of 2- and
/// 1-bit slots and the rounds on 16 and 32 registers, with the
/// operations in scope where it expands (`splat`, `select`, `sll`, `srl`,
/// `lo`, `hi`).
macro_rules! steps {
    ($v:ty, $feat:literal) => {
        /// Step 1 for 2-bit fields: groups of 4 registers.
        #[target_feature(enable = $feat)]
        #[inline]
        pub(super) fn fields2(r: &mut [$v; 16]) {
            swaps!(r, 4, 0x0F; 0 2, 1 3, 4 6, 5 7, 8 10, 9 11, 12 14, 13 15);
            swaps!(r, 2, 0x33; 0 1, 2 3, 4 5, 6 7, 8 9, 10 11, 12 13, 14 15);
        }

        /// Step 1 for 1-bit fields: groups of 8 registers.
        #[target_feature(enable = $feat)]
        #[inline]
        pub(super) fn fields1(r: &mut [$v; 32]) {
            swaps!(r, 4, 0x0F; 0 4, 1 5, 2 6, 3 7, 8 12, 9 13, 10 14, 11 15,
                16 20, 17 21, 18 22, 19 23, 24 28, 25 29, 26 30, 27 31);
            swaps!(r, 2, 0x33; 0 2, 1 3, 4 6, 5 7, 8 10, 9 11, 12 14, 13 15,
                16 18, 17 19, 20 22, 21 23, 24 26, 25 27, 28 30, 29 31);
            swaps!(r, 1, 0x55; 0 1, 2 3, 4 5, 6 7, 8 9, 10 11, 12 13, 14 15,
                16 17, 18 19, 20 21, 22 23, 24 25, 26 27, 28 29, 30 31);
        }

        /// A round on 16 registers.
        #[target_feature(enable = $feat)]
        #[inline]
        pub(super) fn round16(w: [$v; 16]) -> [$v; 16] {
            round!(lo, hi, w; 0 8, 1 9, 2 10, 3 11, 4 12, 5 13, 6 14, 7 15)
        }

        /// A round on 32 registers.
        #[target_feature(enable = $feat)]
        #[inline]
        pub(super) fn round32(w: [$v; 32]) -> [$v; 32] {
            round!(lo, hi, w; 0 16, 1 17, 2 18, 3 19, 4 20, 5 21, 6 22, 7 23,
                8 24, 9 25, 10 26, 11 27, 12 28, 13 29, 14 30, 15 31)
        }
    };
}

/// The 512-bit operations the steps use.
mod z {
    use core::arch::x86_64::*;

    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) fn splat(m: i8) -> __m512i {
        _mm512_set1_epi8(m)
    }
    pub(super) use super::select;
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) fn sll<const S: u32>(v: __m512i) -> __m512i {
        _mm512_slli_epi16::<S>(v)
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) fn srl<const S: u32>(v: __m512i) -> __m512i {
        _mm512_srli_epi16::<S>(v)
    }
    pub(super) use core::arch::x86_64::{_mm512_unpackhi_epi8 as hi, _mm512_unpacklo_epi8 as lo};

    steps!(__m512i, "avx512f,avx512bw");
}

/// The 256-bit operations the steps use.
mod y {
    use core::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn splat(m: i8) -> __m256i {
        _mm256_set1_epi8(m)
    }
    /// `m ? a : b`, bit by bit.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn select(m: __m256i, a: __m256i, b: __m256i) -> __m256i {
        _mm256_or_si256(_mm256_and_si256(m, a), _mm256_andnot_si256(m, b))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn sll<const S: i32>(v: __m256i) -> __m256i {
        _mm256_slli_epi16::<S>(v)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn srl<const S: i32>(v: __m256i) -> __m256i {
        _mm256_srli_epi16::<S>(v)
    }
    pub(super) use core::arch::x86_64::{_mm256_unpackhi_epi8 as hi, _mm256_unpacklo_epi8 as lo};

    steps!(__m256i, "avx2");
}

/// The 128-bit operations the steps use (SSE2).
mod x {
    use core::arch::x86_64::*;

    #[target_feature(enable = "sse2")]
    #[inline]
    pub(super) fn splat(m: i8) -> __m128i {
        _mm_set1_epi8(m)
    }
    /// `m ? a : b`, bit by bit.
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(super) fn select(m: __m128i, a: __m128i, b: __m128i) -> __m128i {
        _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b))
    }
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(super) fn sll<const S: i32>(v: __m128i) -> __m128i {
        _mm_slli_epi16::<S>(v)
    }
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(super) fn srl<const S: i32>(v: __m128i) -> __m128i {
        _mm_srli_epi16::<S>(v)
    }
    pub(super) use core::arch::x86_64::{_mm_unpackhi_epi8 as hi, _mm_unpacklo_epi8 as lo};

    steps!(__m128i, "sse2");
}

use z::{fields1, fields2, round16, round32};

/// The zip loop around `step` (the `K` rows' registers of byte columns
/// `x..x + 64` to the output's registers: `c[i]`, lane `l` = bytes `16i..`
/// of the `16 K` bytes of columns `x + 16l..`).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
#[allow(clippy::too_many_arguments)] // reason: both sides, how to read and store, the step
fn zip_loop<const K: usize>(
    rows: &[u8],
    rs: usize,
    cols: usize,
    out: &mut [u8],
    ahead: usize,
    nt: bool,
    step: impl Fn([__m512i; K]) -> [__m512i; K],
) -> usize {
    let wide = cols / 64 * 64;
    for x in (0..wide).step_by(64) {
        if ahead != 0 {
            prefetch_rows(rows, rs, x + ahead, K);
        }
        let mut r = [_mm512_setzero_si512(); K];
        for (k, v) in r.iter_mut().enumerate() {
            *v = load512(&rows[k * rs + x..]);
        }
        let c = step(r);
        // c[i], lane l: bytes 16i.. of the K · 16 bytes of columns x + 16l..
        for h in 0..K / 4 {
            let o = lanes4x4(c[4 * h], c[4 * h + 1], c[4 * h + 2], c[4 * h + 3]);
            for (l, v) in o.into_iter().enumerate() {
                put512(nt, &mut out[K * x + 16 * K * l + 64 * h..], v);
            }
        }
    }
    wide
}

/// The unzip loop around `step` (the registers [`zip_loop`] stores, to
/// the `K` rows').
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn unzip_loop<const K: usize>(
    in_: &[u8],
    rows: &mut [u8],
    rs: usize,
    cols: usize,
    nt: bool,
    step: impl Fn([__m512i; K]) -> [__m512i; K],
) -> usize {
    let wide = cols / 64 * 64;
    let quarter = K / 4;
    for x in (0..wide).step_by(64) {
        let mut z = [_mm512_setzero_si512(); K];
        for (m, v) in z.iter_mut().enumerate() {
            *v = load512(&in_[K * x + 64 * m..]);
        }
        // line l · K/4 + h holds lanes l of c[4h .. 4h + 4]
        let mut c = [_mm512_setzero_si512(); K];
        for h in 0..quarter {
            let t = lanes4x4(z[h], z[quarter + h], z[2 * quarter + h], z[3 * quarter + h]);
            c[4 * h..4 * h + 4].copy_from_slice(&t);
        }
        for (k, v) in step(c).into_iter().enumerate() {
            put512(nt, &mut rows[k * rs + x..], v);
        }
    }
    wide
}

/// Zips `cols` byte columns of 16 rows of 2-bit slots `rs` bytes apart
/// into `out[..16 · cols]`, 64 at a time; returns the columns done (a
/// multiple of 64). With `nt` the lines are stored non-temporally where
/// aligned. With `ahead` (bytes, 0: none) each row's line that far on
/// (the next block's rows) is prefetched as this one is read: 16 or 32
/// rows are more streams than the hardware prefetchers follow.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn zip2_avx512(
    rows: &[u8],
    rs: usize,
    cols: usize,
    out: &mut [u8],
    ahead: usize,
    nt: bool,
) -> usize {
    zip_loop::<16>(rows, rs, cols, out, ahead, nt, |mut r| {
        fields2(&mut r);
        // output byte 4j + q of a column: register j of group q
        let b = pick!(r; 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
        round16(round16(round16(round16(b))))
    })
}

/// [`zip2_avx512`] for 32 rows of 1-bit slots (`out[..32 · cols]`).
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn zip1_avx512(
    rows: &[u8],
    rs: usize,
    cols: usize,
    out: &mut [u8],
    ahead: usize,
    nt: bool,
) -> usize {
    zip_loop::<32>(rows, rs, cols, out, ahead, nt, |mut r| {
        fields1(&mut r);
        let b = pick!(r; 0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27,
            4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15, 23, 31);
        round32(round32(round32(round32(round32(b)))))
    })
}

/// The inverse of [`zip2_avx512`]: `cols` packed byte columns (`in_[..16
/// · cols]`) into 16 rows `rs` bytes apart, 64 at a time; returns the
/// columns done (a multiple of 64).
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn unzip2_avx512(
    in_: &[u8],
    rows: &mut [u8],
    rs: usize,
    cols: usize,
    nt: bool,
) -> usize {
    unzip_loop::<16>(in_, rows, rs, cols, nt, |c| {
        let b = round16(round16(round16(round16(c))));
        let mut r = pick!(b; 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
        fields2(&mut r);
        r
    })
}

/// The inverse of [`zip1_avx512`].
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn unzip1_avx512(
    in_: &[u8],
    rows: &mut [u8],
    rs: usize,
    cols: usize,
    nt: bool,
) -> usize {
    unzip_loop::<32>(in_, rows, rs, cols, nt, |c| {
        let b = round32(round32(round32(round32(c))));
        let mut r = pick!(b; 0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29,
            2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31);
        fields1(&mut r);
        r
    })
}

/// 32 bytes from `s` (a safe unaligned copy).
#[inline(always)]
fn load256(s: &[u8]) -> __m256i {
    bytemuck::pod_read_unaligned(&s[..32])
}

/// The AVX2 zip loop around `step`: 32 byte columns at a time, lane `l`
/// of every register for columns `x + 16l..` (registers `i`, `i + 1` of a
/// lane are 32 contiguous output bytes).
#[target_feature(enable = "avx2")]
#[inline]
#[allow(clippy::too_many_arguments)] // reason: both sides, how to read and store, the step
fn zip_loop_avx2<const K: usize>(
    rows: &[u8],
    rs: usize,
    cols: usize,
    out: &mut [u8],
    ahead: usize,
    nt: bool,
    step: impl Fn([__m256i; K]) -> [__m256i; K],
) -> usize {
    let wide = cols / 32 * 32;
    for x in (0..wide).step_by(32) {
        if ahead != 0 && x % 64 == 0 {
            prefetch_rows(rows, rs, x + ahead, K);
        }
        let mut r = [_mm256_setzero_si256(); K];
        for (k, v) in r.iter_mut().enumerate() {
            *v = load256(&rows[k * rs + x..]);
        }
        let c = step(r);
        for i in (0..K).step_by(2) {
            let (a, b) = (c[i], c[i + 1]);
            let o = K * x + 16 * i;
            put(
                nt,
                &mut out[o..o + 32],
                _mm256_permute2x128_si256::<0x20>(a, b),
            );
            let o = o + 16 * K;
            put(
                nt,
                &mut out[o..o + 32],
                _mm256_permute2x128_si256::<0x31>(a, b),
            );
        }
    }
    wide
}

/// The AVX2 unzip loop around `step` (the registers [`zip_loop_avx2`]
/// stores, to the `K` rows').
#[target_feature(enable = "avx2")]
#[inline]
fn unzip_loop_avx2<const K: usize>(
    in_: &[u8],
    rows: &mut [u8],
    rs: usize,
    cols: usize,
    nt: bool,
    step: impl Fn([__m256i; K]) -> [__m256i; K],
) -> usize {
    let wide = cols / 32 * 32;
    for x in (0..wide).step_by(32) {
        let mut c = [_mm256_setzero_si256(); K];
        for (i, v) in c.iter_mut().enumerate() {
            let o = K * x + 16 * i;
            let (a, b) = (load128(&in_[o..]), load128(&in_[o + 16 * K..]));
            *v = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(a), b);
        }
        for (k, v) in step(c).into_iter().enumerate() {
            put(nt, &mut rows[k * rs + x..k * rs + x + 32], v);
        }
    }
    wide
}

/// [`zip2_avx512`] with AVX2, 32 byte columns at a time.
#[target_feature(enable = "avx2")]
pub(super) fn zip2_avx2(
    rows: &[u8],
    rs: usize,
    cols: usize,
    out: &mut [u8],
    ahead: usize,
    nt: bool,
) -> usize {
    zip_loop_avx2::<16>(rows, rs, cols, out, ahead, nt, |mut r| {
        y::fields2(&mut r);
        let b = pick!(r; 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
        y::round16(y::round16(y::round16(y::round16(b))))
    })
}

/// [`zip1_avx512`] with AVX2: with plain stores [`zip1_masks`];
/// streaming, 32 byte columns at a time through the field transposes
/// (whole lines stored).
#[target_feature(enable = "avx2")]
pub(super) fn zip1_avx2(
    rows: &[u8],
    rs: usize,
    cols: usize,
    out: &mut [u8],
    ahead: usize,
    nt: bool,
) -> usize {
    if !nt {
        return zip1_masks(rows, rs, cols, out, ahead);
    }
    zip_loop_avx2::<32>(rows, rs, cols, out, ahead, nt, |mut r| {
        y::fields1(&mut r);
        let b = pick!(r; 0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27,
            4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15, 23, 31);
        y::round32(y::round32(y::round32(y::round32(y::round32(b)))))
    })
}

/// [`unzip2_avx512`] with AVX2, 32 byte columns at a time.
#[target_feature(enable = "avx2")]
pub(super) fn unzip2_avx2(in_: &[u8], rows: &mut [u8], rs: usize, cols: usize, nt: bool) -> usize {
    unzip_loop_avx2::<16>(in_, rows, rs, cols, nt, |c| {
        let b = y::round16(y::round16(y::round16(y::round16(c))));
        let mut r = pick!(b; 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
        y::fields2(&mut r);
        r
    })
}

/// [`unzip1_avx512`] with AVX2: with plain stores [`unzip1_masks`];
/// streaming, 32 byte columns at a time through the field transposes
/// (whole 32-byte stores to each row).
#[target_feature(enable = "avx2")]
pub(super) fn unzip1_avx2(in_: &[u8], rows: &mut [u8], rs: usize, cols: usize, nt: bool) -> usize {
    if !nt {
        return unzip1_masks(in_, rows, rs, cols);
    }
    unzip_loop_avx2::<32>(in_, rows, rs, cols, nt, |c| {
        let b = y::round32(y::round32(y::round32(y::round32(c))));
        let mut r = pick!(b; 0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29,
            2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31);
        y::fields1(&mut r);
        r
    })
}

/// The 1-bit zip by byte masks, plain stores, 8 byte columns (64 slots,
/// 256 output bytes) a step: the 32 rows' 8 bytes gathered so that one
/// register holds byte `x` of every row in row order (rows 0–15 in lane
/// 0, 16–31 in lane 1: two rows' 8 bytes to a lane, then four rounds of
/// byte unpacks, the field transposes' `round!`), whose bit `j`
/// of every byte is slot `8x + j` of each row: `vpmovmskb` of the
/// register shifted left by `7 - j` is that slot's 32-bit column word.
/// `ahead`: the rows' bytes that far on are hinted into L2.
///
/// Measured: see [`unzip1_masks`]. Returns the byte columns done (a
/// multiple of 8).
#[target_feature(enable = "avx2")]
fn zip1_masks(rows: &[u8], rs: usize, cols: usize, out: &mut [u8], ahead: usize) -> usize {
    let wide = cols / 8 * 8;
    if wide == 0 {
        return 0;
    }
    let r = super::rows_of::<u8, 32>(rows, 0, rs, wide);
    let out = &mut out[..32 * wide];
    for (x, o) in (0..wide).step_by(8).zip(out.chunks_exact_mut(256)) {
        if ahead != 0 && x % 64 == 0 {
            prefetch_rows(rows, rs, x + ahead, 32);
        }
        let q = |k: usize| i64::from_le_bytes(bytemuck::pod_read_unaligned(&r[k][x..x + 8]));
        // w[i]: lane 0 rows 2i, 2i + 1, lane 1 rows 16 + 2i, 17 + 2i;
        // index bits [i | row's low bit, byte x] of a lane
        macro_rules! pairs {
            ($($i:literal),*) => {[$(
                _mm256_set_epi64x(q(17 + 2 * $i), q(16 + 2 * $i), q(2 * $i + 1), q(2 * $i))
            ),*]};
        }
        let w: [__m256i; 8] = pairs!(0, 1, 2, 3, 4, 5, 6, 7);
        // four rounds rotate them to [x | row]: t[x] holds byte x of
        // the lane's 16 rows in order
        let w = round!(_mm256_unpacklo_epi8, _mm256_unpackhi_epi8, w; 0 4, 1 5, 2 6, 3 7);
        let w = round!(_mm256_unpacklo_epi8, _mm256_unpackhi_epi8, w; 0 4, 1 5, 2 6, 3 7);
        let w = round!(_mm256_unpacklo_epi8, _mm256_unpackhi_epi8, w; 0 4, 1 5, 2 6, 3 7);
        let t = round!(_mm256_unpacklo_epi8, _mm256_unpackhi_epi8, w; 0 4, 1 5, 2 6, 3 7);
        // the words of slots 8c + j and 8c + j + 1 (`vpmovmskb` takes bit 7
        // of each byte; 16-bit shifts carry no bit into it)
        macro_rules! words {
            ($c:literal, $($j:literal),*) => {$(
                let a = _mm256_movemask_epi8(_mm256_slli_epi16::<{ 7 - $j }>(t[$c])) as u32;
                let b = _mm256_movemask_epi8(_mm256_slli_epi16::<{ 6 - $j }>(t[$c])) as u32;
                let v = u64::from(a) | u64::from(b) << 32;
                let at = 32 * $c + 4 * $j;
                o[at..at + 8].copy_from_slice(&v.to_le_bytes());
            )*};
        }
        words!(0, 0, 2, 4, 6);
        words!(1, 0, 2, 4, 6);
        words!(2, 0, 2, 4, 6);
        words!(3, 0, 2, 4, 6);
        words!(4, 0, 2, 4, 6);
        words!(5, 0, 2, 4, 6);
        words!(6, 0, 2, 4, 6);
        words!(7, 0, 2, 4, 6);
    }
    wide
}

/// The 1-bit unzip by byte masks, plain stores, 8 byte columns (64
/// slots, 256 input bytes) a step: byte `q` of the 32 words of columns
/// `c..c + 32` gathered into one register in column order (the s8
/// unzip's step: a 4 × 4 byte transpose in each lane, `vpshufb`, then
/// dword and qword unpacks), whose
/// bit `b` of every byte is row `8q + b` of those columns: `vpmovmskb` of
/// the register shifted left by `7 - b` is that row's 32 slots. Each row
/// then takes 8 bytes a step.
///
/// Measured (AMD EPYC Zen 3, 32 KiB L1d, 512 KiB L2, 32 MiB L3, no
/// AVX-512; pred[4096,4096] `{1,0:T(32,128)(32,1)E(1)}` → rows): a
/// standalone model of this loop 8.9 GB/s against 5.0–5.5 GB/s for the
/// field transposes, whose 32 registers spill (see the bench for the
/// plan's figures). Returns the byte columns done (a multiple of 8).
#[target_feature(enable = "avx2")]
fn unzip1_masks(in_: &[u8], rows: &mut [u8], rs: usize, cols: usize) -> usize {
    let wide = cols / 8 * 8;
    if wide == 0 {
        return 0;
    }
    // bytes 0..4 of words 0..32 (128 input bytes), each in column order:
    // the s8 unzip's step (`(4,1)` packs 4 rows of bytes into a 32-bit
    // column as a word packs its 4 bytes)
    macro_rules! bytes_of_words {
        ($i:expr) => {{
            let i: &[u8] = $i;
            unzip4_u8_step!(|g: usize| &i[16 * g..16 * g + 16])
        }};
    }
    let r = super::rows_mut::<u8, 32>(rows, 0, rs, wide);
    for (x, i) in (0..wide).step_by(8).zip(in_[..32 * wide].chunks_exact(256)) {
        let (lo, hi) = (bytes_of_words!(&i[..128]), bytes_of_words!(&i[128..]));
        // row 8q + b: bit b of byte q of every word (`vpmovmskb` takes
        // bit 7 of each byte; 16-bit shifts carry no bit into it)
        macro_rules! row {
            ($q:literal, $($b:literal),*) => {$(
                let l = _mm256_movemask_epi8(_mm256_slli_epi16::<{ 7 - $b }>(lo[$q])) as u32;
                let h = _mm256_movemask_epi8(_mm256_slli_epi16::<{ 7 - $b }>(hi[$q])) as u32;
                let v = u64::from(l) | u64::from(h) << 32;
                r[8 * $q + $b][x..x + 8].copy_from_slice(&v.to_le_bytes());
            )*};
        }
        row!(0, 0, 1, 2, 3, 4, 5, 6, 7);
        row!(1, 0, 1, 2, 3, 4, 5, 6, 7);
        row!(2, 0, 1, 2, 3, 4, 5, 6, 7);
        row!(3, 0, 1, 2, 3, 4, 5, 6, 7);
    }
    wide
}

/// The SSE2 zip loop around `step`: 16 byte columns at a time, register
/// `i` the output bytes `16i .. 16i + 16` of the columns (one lane of
/// [`zip_loop_avx2`]'s). Plain stores: the SSE2 level does not stream.
#[target_feature(enable = "sse2")]
#[inline]
fn zip_loop_sse2<const K: usize>(
    rows: &[u8],
    rs: usize,
    cols: usize,
    out: &mut [u8],
    step: impl Fn([__m128i; K]) -> [__m128i; K],
) -> usize {
    let wide = cols / 16 * 16;
    for x in (0..wide).step_by(16) {
        let mut r = [_mm_setzero_si128(); K];
        for (k, v) in r.iter_mut().enumerate() {
            *v = load128(&rows[k * rs + x..]);
        }
        for (i, v) in step(r).into_iter().enumerate() {
            let o = K * x + 16 * i;
            out[o..o + 16].copy_from_slice(bytemuck::bytes_of(&v));
        }
    }
    wide
}

/// The SSE2 unzip loop around `step` (the registers [`zip_loop_sse2`]
/// stores, to the `K` rows').
#[target_feature(enable = "sse2")]
#[inline]
fn unzip_loop_sse2<const K: usize>(
    in_: &[u8],
    rows: &mut [u8],
    rs: usize,
    cols: usize,
    step: impl Fn([__m128i; K]) -> [__m128i; K],
) -> usize {
    let wide = cols / 16 * 16;
    for x in (0..wide).step_by(16) {
        let mut c = [_mm_setzero_si128(); K];
        for (i, v) in c.iter_mut().enumerate() {
            *v = load128(&in_[K * x + 16 * i..]);
        }
        for (k, v) in step(c).into_iter().enumerate() {
            rows[k * rs + x..k * rs + x + 16].copy_from_slice(bytemuck::bytes_of(&v));
        }
    }
    wide
}

/// [`zip2_avx512`] with SSE2, 16 byte columns at a time (plain stores).
#[target_feature(enable = "sse2")]
pub(super) fn zip2_sse2(rows: &[u8], rs: usize, cols: usize, out: &mut [u8]) -> usize {
    zip_loop_sse2::<16>(rows, rs, cols, out, |mut r| {
        x::fields2(&mut r);
        let b = pick!(r; 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
        x::round16(x::round16(x::round16(x::round16(b))))
    })
}

/// [`zip1_avx512`] with SSE2, 16 byte columns at a time (plain stores).
#[target_feature(enable = "sse2")]
pub(super) fn zip1_sse2(rows: &[u8], rs: usize, cols: usize, out: &mut [u8]) -> usize {
    zip_loop_sse2::<32>(rows, rs, cols, out, |mut r| {
        x::fields1(&mut r);
        let b = pick!(r; 0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27,
            4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15, 23, 31);
        x::round32(x::round32(x::round32(x::round32(x::round32(b)))))
    })
}

/// [`unzip2_avx512`] with SSE2, 16 byte columns at a time (plain stores).
#[target_feature(enable = "sse2")]
pub(super) fn unzip2_sse2(in_: &[u8], rows: &mut [u8], rs: usize, cols: usize) -> usize {
    unzip_loop_sse2::<16>(in_, rows, rs, cols, |c| {
        let b = x::round16(x::round16(x::round16(x::round16(c))));
        let mut r = pick!(b; 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
        x::fields2(&mut r);
        r
    })
}

/// [`unzip1_avx512`] with SSE2, 16 byte columns at a time (plain stores).
#[target_feature(enable = "sse2")]
pub(super) fn unzip1_sse2(in_: &[u8], rows: &mut [u8], rs: usize, cols: usize) -> usize {
    unzip_loop_sse2::<32>(in_, rows, rs, cols, |c| {
        let b = x::round32(x::round32(x::round32(x::round32(c))));
        let mut r = pick!(b; 0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29,
            2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31);
        x::fields1(&mut r);
        r
    })
}

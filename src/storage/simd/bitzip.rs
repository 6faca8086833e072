//! AVX-512 (F + BW) zip and unzip of `k = 32 / w` rows of `w`-bit slots
//! into 32-bit columns (`w` = 2: `(16,128)(16,1)E(2)`; 1:
//! `(32,128)(32,1)E(1)`; see `storage::bitzip` for the format and the
//! portable version, which takes the remainders), 64 byte columns at a
//! time, in two steps on whole rows:
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
//!    lane transposes so that every store is a whole 64-byte line.
//!
//! The unzip runs the steps backwards (4 rounds of unpacks; the field
//! transposes are involutions).

use core::arch::x86_64::*;

use super::nibbles::{lanes4x4, load512, prefetch_rows, put512, select};

/// One round `out[2i], out[2i+1] = unpack{lo,hi}_epi8(w[i], w[i + K/2])`
/// (in place of arrays returned by value: moving `K` registers through
/// memory each round cost more than the unpacks).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn round<const K: usize>(w: &[__m512i; K], out: &mut [__m512i; K]) {
    for i in 0..K / 2 {
        let (a, b) = (w[i], w[i + K / 2]);
        out[2 * i] = _mm512_unpacklo_epi8(a, b);
        out[2 * i + 1] = _mm512_unpackhi_epi8(a, b);
    }
}

/// `n` (even, or `K = 32` with `n = 5`) [`round`]s of `w`; the result in
/// `w` for even `n`, in `t` for odd.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn rounds<const K: usize>(w: &mut [__m512i; K], t: &mut [__m512i; K], n: u32) {
    for _ in 0..n / 2 {
        round(w, t);
        round(t, w);
    }
    if n % 2 == 1 {
        round(w, t);
    }
}

/// Step 1 on `r` (`K` rows, groups of `8 / W`): the `p × p` transposes of
/// `W`-bit fields within bytes (an involution).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn fields_transposed<const W: u32, const K: usize>(r: &mut [__m512i; K]) {
    let p = 8 / W as usize;
    for (s, m) in [(4u32, 0x0Fu8), (2, 0x33), (1, 0x55)] {
        if s < W {
            break;
        }
        let d = (s / W) as usize;
        let mask = _mm512_set1_epi8(m as i8);
        for i in 0..K {
            if (i % p) & d != 0 {
                continue;
            }
            let (a, b) = (r[i], r[i + d]);
            // (16-bit shifts: the select drops the bits crossing bytes)
            let (bs, as_) = match s {
                4 => (_mm512_slli_epi16::<4>(b), _mm512_srli_epi16::<4>(a)),
                2 => (_mm512_slli_epi16::<2>(b), _mm512_srli_epi16::<2>(a)),
                _ => (_mm512_slli_epi16::<1>(b), _mm512_srli_epi16::<1>(a)),
            };
            r[i] = select(mask, a, bs);
            r[i + d] = select(mask, as_, b);
        }
    }
}

/// Zips `cols` byte columns of `K = 32 / W` rows `rs` bytes apart into
/// `out[..K · cols]`, 64 at a time; returns the columns done (a multiple
/// of 64). With `nt` the lines are stored non-temporally where aligned.
/// With `ahead` (bytes, 0: none) each row's line that far on (the next
/// block's rows) is prefetched as this one is read: `K` rows are more
/// streams than the hardware prefetchers follow (measured on
/// u2[4096,4096], without it the loads wait on memory).
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn zip_bits_avx512<const W: u32, const K: usize>(
    rows: &[u8],
    rs: usize,
    cols: usize,
    out: &mut [u8],
    ahead: usize,
    nt: bool,
) -> usize {
    let wide = cols / 64 * 64;
    let p = 8 / W as usize;
    for x in (0..wide).step_by(64) {
        if ahead != 0 {
            prefetch_rows(rows, rs, x + ahead, K);
        }
        let mut r = [_mm512_setzero_si512(); K];
        for (k, v) in r.iter_mut().enumerate() {
            *v = load512(&rows[k * rs + x..]);
        }
        fields_transposed::<W, K>(&mut r);
        // output byte 4j + q of a column: register j of group q
        let mut b = [_mm512_setzero_si512(); K];
        for (i, v) in b.iter_mut().enumerate() {
            *v = r[(i % 4) * p + i / 4];
        }
        let n = K.trailing_zeros();
        rounds(&mut b, &mut r, n);
        let c = if n % 2 == 0 { &b } else { &r };
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

/// The inverse of [`zip_bits_avx512`]: `cols` packed byte columns
/// (`in_[..K · cols]`) into `K` rows `rs` bytes apart, 64 at a time;
/// returns the columns done (a multiple of 64).
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn unzip_bits_avx512<const W: u32, const K: usize>(
    in_: &[u8],
    rows: &mut [u8],
    rs: usize,
    cols: usize,
    nt: bool,
) -> usize {
    let wide = cols / 64 * 64;
    let p = 8 / W as usize;
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
        rounds(&mut c, &mut z, 4);
        let mut r = [_mm512_setzero_si512(); K];
        for (i, v) in r.iter_mut().enumerate() {
            *v = c[4 * (i % p) + i / p];
        }
        fields_transposed::<W, K>(&mut r);
        for (k, v) in r.into_iter().enumerate() {
            put512(nt, &mut rows[k * rs + x..], v);
        }
    }
    wide
}

//! Eight rows of 4-bit slots zipped (`(8,128)(8,1)E(4)`), 16 (SSE2), 32
//! (AVX2) or 64 (AVX-512 F + BW) byte columns at a time.
//!
//! SSE2: an 8 × 16 byte transpose by unpacks (per 128-bit lane), then each
//! byte column's word split into its two packed columns as
//! `storage::nibbles` does with plain words (which takes the remainder and
//! the portable level). AVX2 and AVX-512 pair the nibbles first, byte by
//! byte on whole rows (the low halves of rows `2q` and `2q+1` make byte
//! `q` of a column's first word, the high halves byte `q` of its second),
//! so that only a byte transpose is left; AVX-512 then transposes 128-bit
//! lanes so that every store writes a whole line.
//!
//! The unzips invert them: SSE2 splits each packed column's 8 bytes into
//! the column's word (byte `r` = row `r`) with shifts and masks per 64-bit
//! lane, then four rounds of byte unpacks transpose 16 columns × 8 rows
//! into 8 rows of 16 bytes; AVX2 and AVX-512 transpose the bytes first and
//! split the nibbles on whole rows. SSE2 and AVX2 loads and stores are safe
//! `bytemuck` copies (streaming stores through `avx2::put`); the AVX-512
//! ones are bounds-checked slices handed to `vmovdqu64`/`vmovntdq`.

use core::arch::x86_64::*;

use super::avx2::{load128, put};

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

/// The 8 × 16 byte transpose of each 128-bit lane of `p` (8 registers of
/// byte columns, register `k` holding byte `k` of every column): returns 8
/// registers whose lane holds the 8 bytes of two columns each, register
/// `i` columns `2i` and `2i + 1` of the lane.
macro_rules! transpose8x16 {
    ($p:expr, $lo8:ident, $hi8:ident, $lo16:ident, $hi16:ident, $lo32:ident, $hi32:ident) => {{
        let p = $p;
        // a[k]: columns 0-7 (k even) or 8-15 (odd) of registers 2j, 2j+1
        let a = [
            $lo8(p[0], p[1]),
            $hi8(p[0], p[1]),
            $lo8(p[2], p[3]),
            $hi8(p[2], p[3]),
            $lo8(p[4], p[5]),
            $hi8(p[4], p[5]),
            $lo8(p[6], p[7]),
            $hi8(p[6], p[7]),
        ];
        // b: 4 bytes (registers 0-3 or 4-7) of columns 0-3, 4-7, 8-11, 12-15
        let b = [
            $lo16(a[0], a[2]),
            $lo16(a[4], a[6]),
            $hi16(a[0], a[2]),
            $hi16(a[4], a[6]),
            $lo16(a[1], a[3]),
            $lo16(a[5], a[7]),
            $hi16(a[1], a[3]),
            $hi16(a[5], a[7]),
        ];
        [
            $lo32(b[0], b[1]),
            $hi32(b[0], b[1]),
            $lo32(b[2], b[3]),
            $hi32(b[2], b[3]),
            $lo32(b[4], b[5]),
            $hi32(b[4], b[5]),
            $lo32(b[6], b[7]),
            $hi32(b[6], b[7]),
        ]
    }};
}

/// Eight rows of 4-bit slots zipped, 32 byte columns at a time. Unlike
/// the SSE2 version the nibbles are paired first, byte by byte on whole
/// rows (`e_q` = the low halves of rows 2q and 2q+1, `f_q` the high
/// halves: each byte column of `e_0..e_3, f_0..f_3` is already its 8
/// packed bytes), then the 8 × 32 bytes are transposed by unpacks (per
/// 128-bit lane; lane 1 holds byte columns 16–31): 80 operations per 256
/// bytes where transposing first took about 140. Returns the byte columns
/// done (a multiple of 32).
#[target_feature(enable = "avx2")]
pub(super) fn zip8_avx2(
    rows: &[u8],
    rs: usize,
    cols: usize,
    out: &mut [u8],
    ahead: usize,
    nt: bool,
) -> usize {
    let wide = cols / 32 * 32;
    let lo4 = _mm256_set1_epi8(0x0F);
    for x in (0..wide).step_by(32) {
        if ahead != 0 && x % 64 == 0 {
            prefetch_rows(rows, rs, x + ahead, 8);
        }
        let r: [__m256i; 8] = core::array::from_fn(|k| load256(&rows[k * rs + x..k * rs + x + 32]));
        // (16-bit shifts: the mask drops the bits crossing bytes)
        let e = |q: usize| {
            let hi = _mm256_slli_epi16::<4>(r[2 * q + 1]);
            _mm256_or_si256(
                _mm256_and_si256(r[2 * q], lo4),
                _mm256_andnot_si256(lo4, hi),
            )
        };
        let f = |q: usize| {
            let lo = _mm256_srli_epi16::<4>(r[2 * q]);
            _mm256_or_si256(
                _mm256_and_si256(lo, lo4),
                _mm256_andnot_si256(lo4, r[2 * q + 1]),
            )
        };
        let p = [e(0), e(1), e(2), e(3), f(0), f(1), f(2), f(3)];
        let c = transpose8x16!(
            p,
            _mm256_unpacklo_epi8,
            _mm256_unpackhi_epi8,
            _mm256_unpacklo_epi16,
            _mm256_unpackhi_epi16,
            _mm256_unpacklo_epi32,
            _mm256_unpackhi_epi32
        );
        // c[i], lane l: byte columns 16l + 2i, 16l + 2i + 1 (out bytes
        // 128l + 16i ..): lanes l of c[i], c[i+1] are 32 contiguous bytes
        for i in (0..8).step_by(2) {
            let (a, b) = (c[i], c[i + 1]);
            let o = 8 * x + 16 * i;
            put(
                nt,
                &mut out[o..o + 32],
                _mm256_permute2x128_si256::<0x20>(a, b),
            );
            put(
                nt,
                &mut out[o + 128..o + 160],
                _mm256_permute2x128_si256::<0x31>(a, b),
            );
        }
    }
    wide
}

/// Prefetches byte `at` of each of `n` rows into L2 (hints: the
/// addresses need not be valid, see `simd::prefetch`): a whole block
/// ahead, more than L1d would keep.
#[inline(always)]
pub(super) fn prefetch_rows(rows: &[u8], rs: usize, at: usize, n: usize) {
    for k in 0..n {
        let p = rows.as_ptr().wrapping_add(k * rs + at);
        #[cfg(not(miri))]
        // SAFETY: `_mm_prefetch` only hints the cache: the address need
        // not be valid, and SSE is part of the x86-64 baseline.
        unsafe {
            _mm_prefetch::<_MM_HINT_T1>(p.cast())
        };
        let _ = p;
    }
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
/// byte columns 16–31). The packed bytes are transposed first (four rounds
/// of byte unpacks give `e_0..e_3, f_0..f_3` as rows of byte columns), then
/// the nibbles are split byte by byte on whole rows:
/// ```text
///   row 2q   = e_q & 0xF | f_q << 4 & 0xF0
///   row 2q+1 = e_q >> 4  | f_q & 0xF0
/// ```
/// Streaming, two steps (64 columns) are stored together, each row's two
/// halves back to back, so that no line stands half written while the
/// other rows' stores go out: a step at a time, eight rows' lines stood
/// half written at once, and s4[4096²] tiles → rows ran at 1.8–1.9 GB/s
/// against 4.8–6.1 paired (0.25× → 0.6–0.7× memcpy; AMD EPYC Zen 3, AVX2,
/// plain `Vec`s). Returns the byte columns done (a multiple of 32).
#[target_feature(enable = "avx2")]
pub(super) fn unzip8_avx2(in_: &[u8], rows: &mut [u8], rs: usize, cols: usize, nt: bool) -> usize {
    let wide = cols / 32 * 32;
    let lo4 = _mm256_set1_epi8(0x0F);
    // rows 0..8, byte columns x..x + 32 (a macro: a closure called twice a
    // step was not inlined, 21 → 5 GB/s in cache)
    // (`i`: the step's 256 input bytes, from byte `8x`)
    macro_rules! step_in {
        ($i:expr) => {{
            let i: &[u8] = $i;
            let w: [__m256i; 8] = core::array::from_fn(|j| {
                let o = 16 * j;
                let (a, b) = (load128(&i[o..o + 16]), load128(&i[o + 128..o + 144]));
                _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(a), b)
            });
            let p = unpack_rounds!(w, _mm256_unpacklo_epi8, _mm256_unpackhi_epi8);
            let mut r = [_mm256_setzero_si256(); 8];
            for q in 0..4 {
                let (e, f) = (p[q], p[4 + q]);
                // (16-bit shifts: the mask drops the bits crossing bytes)
                r[2 * q] = _mm256_or_si256(
                    _mm256_and_si256(e, lo4),
                    _mm256_andnot_si256(lo4, _mm256_slli_epi16::<4>(f)),
                );
                r[2 * q + 1] = _mm256_or_si256(
                    _mm256_and_si256(_mm256_srli_epi16::<4>(e), lo4),
                    _mm256_andnot_si256(lo4, f),
                );
            }
            r
        }};
    }
    macro_rules! step {
        ($x:expr) => {{
            let x: usize = $x;
            step_in!(&in_[8 * x..8 * x + 256])
        }};
    }
    if !nt {
        // plain stores, one step's rows at a time (paired, the 16
        // registers spill: 0.47x → 0.33x memcpy on s4[1024, 2048] tiles →
        // rows); the rows sliced once and the input walked in chunks, a
        // loop of its own without the streaming tests (which it shared:
        // in L2, s4[64, 4096] and [256, 2048] tiles → rows, 12–21 → 22–27
        // GB/s, best of 300, AMD EPYC Zen 3)
        let mut r = super::rows_mut::<u8, 8>(rows, 0, rs, wide);
        // (no software prefetch: 2 KiB ahead lost on s4[4096, 4096],
        // 12.8–14.3 → 9.6 GB/s, and 1–4 KiB changed nothing in cache)
        for (x, i) in (0..wide).step_by(32).zip(in_[..8 * wide].chunks_exact(256)) {
            for (r, v) in r.iter_mut().zip(step_in!(i)) {
                put(false, &mut r[x..x + 32], v);
            }
        }
        return wide;
    }
    let pairs = wide / 64 * 64;
    for x in (0..pairs).step_by(64) {
        let (a, b) = (step!(x), step!(x + 32));
        for k in 0..8 {
            let row = &mut rows[k * rs + x..k * rs + x + 64];
            put(true, &mut row[..32], a[k]);
            put(true, &mut row[32..], b[k]);
        }
    }
    for x in (pairs..wide).step_by(32) {
        let a = step!(x);
        for (k, &v) in a.iter().enumerate() {
            put(true, &mut rows[k * rs + x..k * rs + x + 32], v);
        }
    }
    wide
}

/// 64 bytes from `s` (bounds-checked; no alignment needed).
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn load512(s: &[u8]) -> __m512i {
    let s = &s[..64];
    // SAFETY: `s` is 64 readable bytes (the slice above is bounds-checked);
    // `vmovdqu64` has no alignment requirement; AVX-512 F is enabled for
    // this function (its callers prove the CPU has it).
    unsafe { _mm512_loadu_si512(s.as_ptr().cast()) }
}

/// 64 bytes to `d` (bounds-checked): with `nt` a non-temporal store when
/// `d` starts a line, else as two 32-byte halves (streamed where aligned,
/// see `avx2::put`); a plain unaligned store otherwise.
#[target_feature(enable = "avx512f,avx2")]
#[inline]
pub(super) fn put512(nt: bool, d: &mut [u8], v: __m512i) {
    let d = &mut d[..64];
    let p = d.as_mut_ptr();
    if nt && p.cast::<__m512i>().is_aligned() {
        // SAFETY: `p` points to the 64 bytes of `d`, a live exclusive
        // borrow (bounds-checked above), and is 64-byte aligned (checked
        // just above), as `vmovntdq` needs; AVX-512 F is enabled for this
        // function, whose callers prove the CPU has it. (Miri never runs
        // this: it has no AVX-512 shims; the agreement suites run it
        // natively at the forced AVX-512 level.)
        unsafe { _mm512_stream_si512(p.cast(), v) }
    } else if nt {
        let (lo, hi) = d.split_at_mut(32);
        put(true, lo, _mm512_castsi512_si256(v));
        put(true, hi, _mm512_extracti64x4_epi64::<1>(v));
    } else {
        // SAFETY: `p` points to the 64 bytes of `d`, a live exclusive
        // borrow (bounds-checked above); `vmovdqu64` has no alignment
        // requirement; AVX-512 F is enabled for this function.
        unsafe { _mm512_storeu_si512(p.cast(), v) }
    }
}

/// The 4 × 4 transpose of 128-bit lanes: out `l` = lane `l` of `a`, `b`,
/// `c`, `d` (an involution).
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn lanes4x4(a: __m512i, b: __m512i, c: __m512i, d: __m512i) -> [__m512i; 4] {
    // [a0 a1 b0 b1], [a2 a3 b2 b3], [c0 c1 d0 d1], [c2 c3 d2 d3]
    let t0 = _mm512_shuffle_i64x2::<0x44>(a, b);
    let t1 = _mm512_shuffle_i64x2::<0xEE>(a, b);
    let t2 = _mm512_shuffle_i64x2::<0x44>(c, d);
    let t3 = _mm512_shuffle_i64x2::<0xEE>(c, d);
    [
        _mm512_shuffle_i64x2::<0x88>(t0, t2),
        _mm512_shuffle_i64x2::<0xDD>(t0, t2),
        _mm512_shuffle_i64x2::<0x88>(t1, t3),
        _mm512_shuffle_i64x2::<0xDD>(t1, t3),
    ]
}

/// `m ? a : b`, bit by bit (`vpternlogq`).
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn select(m: __m512i, a: __m512i, b: __m512i) -> __m512i {
    // truth table index 4m + 2a + b: m set takes a, clear takes b
    _mm512_ternarylogic_epi64::<0xCA>(m, a, b)
}

/// Eight rows of 4-bit slots zipped, 64 byte columns at a time: the AVX2
/// version's steps with a bitwise select (`vpternlogq`) pairing the
/// nibbles, the 8 × 16 byte transposes in each of the four 128-bit lanes,
/// then 4 × 4 lane transposes so that every store writes a whole 64-byte
/// line. Returns the byte columns done (a multiple of 64).
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn zip8_avx512(
    rows: &[u8],
    rs: usize,
    cols: usize,
    out: &mut [u8],
    ahead: usize,
    nt: bool,
) -> usize {
    let wide = cols / 64 * 64;
    let lo4 = _mm512_set1_epi8(0x0F);
    for x in (0..wide).step_by(64) {
        if ahead != 0 {
            prefetch_rows(rows, rs, x + ahead, 8);
        }
        let r: [__m512i; 8] = core::array::from_fn(|k| load512(&rows[k * rs + x..]));
        // e_q: low halves of rows 2q, 2q+1; f_q: high halves (16-bit
        // shifts: the select drops the bits crossing bytes)
        let e = |q: usize| select(lo4, r[2 * q], _mm512_slli_epi16::<4>(r[2 * q + 1]));
        let f = |q: usize| select(lo4, _mm512_srli_epi16::<4>(r[2 * q]), r[2 * q + 1]);
        let p = [e(0), e(1), e(2), e(3), f(0), f(1), f(2), f(3)];
        let c = transpose8x16!(
            p,
            _mm512_unpacklo_epi8,
            _mm512_unpackhi_epi8,
            _mm512_unpacklo_epi16,
            _mm512_unpackhi_epi16,
            _mm512_unpacklo_epi32,
            _mm512_unpackhi_epi32
        );
        // c[i], lane l: byte columns 16l + 2i, 16l + 2i + 1 (out bytes
        // 128l + 16i ..); line 2l + h of the output: lanes l of c[4h..4h+4]
        for h in 0..2 {
            let o = lanes4x4(c[4 * h], c[4 * h + 1], c[4 * h + 2], c[4 * h + 3]);
            for (l, v) in o.into_iter().enumerate() {
                let at = 8 * x + 128 * l + 64 * h;
                put512(nt, &mut out[at..], v);
            }
        }
    }
    wide
}

/// The inverse of [`zip8_avx512`]: whole-line loads, the lane transposes,
/// four rounds of byte unpacks, then the nibbles split with bitwise
/// selects (as [`unzip8_avx2`] does). Returns the byte columns done (a
/// multiple of 64).
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn unzip8_avx512(
    in_: &[u8],
    rows: &mut [u8],
    rs: usize,
    cols: usize,
    nt: bool,
) -> usize {
    let wide = cols / 64 * 64;
    let lo4 = _mm512_set1_epi8(0x0F);
    for x in (0..wide).step_by(64) {
        let z: [__m512i; 8] = core::array::from_fn(|m| load512(&in_[8 * x + 64 * m..]));
        // w[4h + i], lane l: line 2l + h's lane i = columns 16l + 2(4h+i)..
        let (a, b) = (
            lanes4x4(z[0], z[2], z[4], z[6]),
            lanes4x4(z[1], z[3], z[5], z[7]),
        );
        let w = [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]];
        let p = unpack_rounds!(w, _mm512_unpacklo_epi8, _mm512_unpackhi_epi8);
        for q in 0..4 {
            let (e, f) = (p[q], p[4 + q]);
            let even = select(lo4, e, _mm512_slli_epi16::<4>(f));
            let odd = select(lo4, _mm512_srli_epi16::<4>(e), f);
            put512(nt, &mut rows[2 * q * rs + x..], even);
            put512(nt, &mut rows[(2 * q + 1) * rs + x..], odd);
        }
    }
    wide
}

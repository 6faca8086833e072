//! AVX-512 (F + BW) zip of two 16-bit rows: one two-source permute
//! (`vpermt2w`) per 64 bytes written, where AVX2 needs an unpack and a
//! lane permute per 32 (the in-cache and small-tile cost of bf16 rows →
//! `(8,128)(2,1)`). Stores go through the AVX2 `put` (streaming into 16-
//! and 32-byte aligned destinations alike); remainders to SSE2.
//!
//! And the unzips into two 16-bit or four 8-bit rows (bf16 and s8 tiles →
//! rows), one 64-byte line of each row at a time, so that streaming into
//! rows aligned by the AVX2 kernel's windows (`avx2::Seg`) each store
//! fills a line at once, where AVX2 fills each line with two stores one
//! or three others apart; a window's partial lines at the rows' ends go
//! through one step each stored plainly (`avx2::unzip_edge`).
//!
//! (The s8 zip stays AVX2. Tried: its inverse, 64-byte row
//! loads, half selects, dword permutes and a byte shuffle, 64-byte
//! stores; s8 [4096, 4096] rows → `(8,128)(4,1)`, plain `Vec`, CPU-time
//! clock, load 5.5, four pairs of 15 runs: AVX2 1.13–1.24x memcpy,
//! AVX-512 0.80–1.00x, its row loads crossing lines from a `Vec`'s 16
//! bytes into one.)

use core::arch::x86_64::*;

use super::avx2::{self, long_rows, prefetch_targets, put, split_cols, Seg};
use super::nibbles::put512;
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
pub(super) fn load(s: &[u16]) -> __m512i {
    load_halves(s, &s[16..])
}

/// 32 slots to `d`, as two 32-byte halves.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn store(nt: bool, d: &mut [u16], v: __m512i) {
    let (lo, hi) = d[..32].split_at_mut(16);
    put(nt, lo, _mm512_castsi512_si256(v));
    put(nt, hi, _mm512_extracti64x4_epi64::<1>(v));
}

/// The word permute of [`zip_step`]: word `2k` of the result is word `k`
/// of the source (row a's column `k`), word `2k + 1` its word `16 + k`
/// (row b's).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn zip_index() -> __m512i {
    let idx: [u16; 32] = core::array::from_fn(|i| (i / 2 + 16 * (i % 2)) as u16);
    load(&idx)
}

/// Columns `0..16` of two 16-bit rows zipped: the 32 packed slots
/// `a[0], b[0], a[1], b[1], …`, from one 32-byte load of each row (the
/// second into the upper half, a load the core does beside the shuffle
/// port) and one single-source word permute (`vpermw`, `idx` =
/// [`zip_index`]). Intel's cores issue `vpermw` once a cycle and the
/// two-source `vpermt2w` once in two (Xeon model 167), so this takes half
/// the shuffle cycles of two `vpermt2w` over 32 columns of both rows;
/// the zips and unzips of small bf16 tiles and rows in cache are bound by
/// those cycles.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn zip_step(idx: __m512i, a: &[u16], b: &[u16]) -> __m512i {
    _mm512_permutexvar_epi16(idx, load_halves(a, b))
}

/// The word permutes of [`unzip32`], made once per loop.
#[derive(Clone, Copy)]
pub(super) struct Unzip {
    /// Two-source (`vpermt2w`): packed words `2i` of 64 (row a's 32
    /// columns).
    even: __m512i,
    /// Two-source: packed words `2i + 1` (row b's).
    odd: __m512i,
    /// One-source (`vpermw`): word `j < 16` of the result is packed word
    /// `2j` of 32 (row a's column `j`), word `16 + j` packed word `2j + 1`
    /// (row b's).
    halves: __m512i,
}

impl Unzip {
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) fn new() -> Self {
        let even: [u16; 32] = core::array::from_fn(|i| 2 * i as u16);
        let odd: [u16; 32] = core::array::from_fn(|i| 2 * i as u16 + 1);
        let halves: [u16; 32] = core::array::from_fn(|j| (2 * (j % 16) + j / 16) as u16);
        Unzip {
            even: load(&even),
            odd: load(&odd),
            halves: load(&halves),
        }
    }
}

/// Whether both rows start on a 64-byte line: [`unzip32`]'s `lined`.
#[inline(always)]
pub(super) fn lined(a: &[u16], b: &[u16]) -> bool {
    a.as_ptr().cast::<__m512i>().is_aligned() && b.as_ptr().cast::<__m512i>().is_aligned()
}

/// 64 packed slots (32 columns of two rows) unzipped into `a[..32]` and
/// `b[..32]`, plain stores, by where the rows start (`lined`, from
/// [`lined`], the same for every step of a block):
/// - on a line: two two-source permutes (`vpermt2w`), each row's 32
///   columns one 64-byte store into one line;
/// - off a line: two one-source permutes (`vpermw`), each leaving 16
///   columns of row a in the low half and row b's in the high half,
///   stored as four 32-byte halves, which cross no line at 32 bytes into
///   one (a 64-byte store anywhere off a line crosses one).
///
/// Intel's cores issue `vpermw` once a cycle and `vpermt2w` once in two,
/// so both take four shuffle cycles here. bf16[1024, 1024] tiles → rows
/// in cache (Xeon model 167, 2 MiB L2, 105 MiB L3): rows at 32 bytes into
/// a line 0.52x memcpy with the 64-byte stores, 0.64–0.65x with the
/// halves; rows on lines 0.82–0.84x with the 64-byte stores, 0.67–0.68x
/// with the halves (more stores waiting on their lines).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn unzip32(ix: Unzip, lined: bool, inp: &[u16], [a, b]: [&mut [u16]; 2]) {
    let (x, y) = (load(&inp[..32]), load(&inp[32..64]));
    if lined {
        store(false, a, _mm512_permutex2var_epi16(x, ix.even, y));
        store(false, b, _mm512_permutex2var_epi16(x, ix.odd, y));
    } else {
        let (a, b) = (&mut a[..32], &mut b[..32]);
        let (x, y) = (
            _mm512_permutexvar_epi16(ix.halves, x),
            _mm512_permutexvar_epi16(ix.halves, y),
        );
        put(false, &mut a[..16], _mm512_castsi512_si256(x));
        put(false, &mut b[..16], _mm512_extracti64x4_epi64::<1>(x));
        put(false, &mut a[16..], _mm512_castsi512_si256(y));
        put(false, &mut b[16..], _mm512_extracti64x4_epi64::<1>(y));
    }
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
    let idx = zip_index();
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
        let (o0, o1) = o.split_at_mut(32);
        store(nt, o0, zip_step(idx, xa, xb));
        store(nt, o1, zip_step(idx, &xa[16..], &xb[16..]));
    }
    if body < n {
        // AVX-512 implies SSE2
        super::sse2::zip2_u16(&a[body..n], &b[body..n], &mut out[2 * body..2 * n])
    }
}

/// One unzip block (`2 · len` packed 16-bit slots into two rows of
/// `len`), plain stores: one [`unzip32`] per 32 columns, where AVX2
/// needs eight shuffles (the tile → rows direction of a small bf16 tile
/// is shuffle-bound); the rest to SSE2.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn unzip2_u16_block(inp: &[u16], [a, b]: [&mut [u16]; 2], len: usize) {
    let body = len / 32 * 32;
    let (ix, on) = (Unzip::new(), lined(a, b));
    let chunks = inp[..2 * body]
        .chunks_exact(64)
        .zip(a[..body].chunks_exact_mut(32))
        .zip(b[..body].chunks_exact_mut(32));
    for ((i, xa), xb) in chunks {
        unzip32(ix, on, i, [xa, xb]);
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

#[target_feature(enable = "avx512f,avx512bw,avx2")]
pub(super) fn unzip4_u8(inp: &[u8], rows: &mut [u8], bl: Blocks, nt: bool) {
    avx2::unzip_by::<u8, 4>(inp, rows, bl, nt, |i, seg, r, cols| {
        unzip4_u8_one(i, seg, r, cols, nt)
    });
}

/// 16 packed columns (4 rows each) at column `c`: two 8-column loads,
/// which never straddle segments (`c`, the head and the segment length
/// are multiples of 8).
#[target_feature(enable = "avx512f,avx512bw,avx2")]
#[inline]
fn load16_cols(inp: &[u8], seg: Seg, c: usize) -> __m512i {
    let (i0, i1) = (seg.at(c, 4), seg.at(c + 8, 4));
    let lo: __m256i = bytemuck::pod_read_unaligned(&inp[i0..i0 + 32]);
    let hi: __m256i = bytemuck::pod_read_unaligned(&inp[i1..i1 + 32]);
    _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
}

/// Columns `cols` of four rows from packed quads, 64 columns (one line
/// of each row) at a time, [`unzip4_u8_step`]; the head before the rows'
/// first line and the tail past their last whole line through one such
/// step each ([`avx2::unzip_edge`]).
#[target_feature(enable = "avx512f,avx512bw,avx2")]
#[inline]
fn unzip4_u8_one(
    inp: &[u8],
    seg: Seg,
    mut rows: [&mut [u8]; 4],
    cols: core::ops::Range<usize>,
    nt: bool,
) {
    let [start, body] = split_cols(&cols, seg.head, 64);
    let edge = |c| unzip4_u8_step(inp, seg, c).map(|v| halves(v));
    avx2::unzip_edge(inp, seg, &mut rows, cols.start..start, edge);
    for c in (start..body).step_by(64) {
        for h in [0, 32] {
            let pf = seg.at(c + h + seg.ahead, 4);
            super::prefetch(inp.as_ptr().wrapping_add(pf));
            super::prefetch(inp.as_ptr().wrapping_add(pf + 64));
        }
        let out = unzip4_u8_step(inp, seg, c);
        for (r, v) in rows.iter_mut().zip(out) {
            put512(nt, &mut r[c..c + 64], v);
        }
    }
    avx2::unzip_edge(inp, seg, &mut rows, body..cols.end, edge);
}

/// The two 256-bit halves of `v`, low first.
#[target_feature(enable = "avx512f")]
#[inline]
fn halves(v: __m512i) -> [__m256i; 2] {
    [_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v)]
}

/// Columns `c..c + 64` of the four rows (`c` a multiple of 8):
/// ```text
///   u_k  (k < 4):  columns 16k..16k+16; per 128-bit lane L a byte
///                  shuffle makes dword 4L + r = row r, columns
///                  16k + 4L .. +4
///   t_rs (r pair, s pair of u's): vpermt2d gathers rows {0,1} or {2,3}
///                  of u_{2s}, u_{2s+1}: dword 8r' + 4k' + L
///   row r:         the 256-bit halves r' of t_r0 and t_r1
/// ```
/// 4 shuffles, 4 two-source permutes and 4 half selects per 256 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx2")]
#[inline]
fn unzip4_u8_step(inp: &[u8], seg: Seg, c: usize) -> [__m512i; 4] {
    // per lane: byte k of each 4-byte group to dword k
    let m = _mm512_broadcast_i32x4(_mm_setr_epi8(
        0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
    ));
    // t dword 8r' + 4s + L <- u_s dword 4L + r (r' = r mod 2; + 16
    // selects the second source)
    let p01 = _mm512_setr_epi32(
        0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29, //
    );
    let p23 = _mm512_add_epi32(p01, _mm512_set1_epi32(2));
    let u: [__m512i; 4] =
        core::array::from_fn(|k| _mm512_shuffle_epi8(load16_cols(inp, seg, c + 16 * k), m));
    let (t00, t01) = (
        _mm512_permutex2var_epi32(u[0], p01, u[1]),
        _mm512_permutex2var_epi32(u[2], p01, u[3]),
    );
    let (t10, t11) = (
        _mm512_permutex2var_epi32(u[0], p23, u[1]),
        _mm512_permutex2var_epi32(u[2], p23, u[3]),
    );
    [
        _mm512_shuffle_i64x2::<0x44>(t00, t01),
        _mm512_shuffle_i64x2::<0xEE>(t00, t01),
        _mm512_shuffle_i64x2::<0x44>(t10, t11),
        _mm512_shuffle_i64x2::<0xEE>(t10, t11),
    ]
}

#[target_feature(enable = "avx512f,avx512bw,avx2")]
pub(super) fn unzip2_u16(inp: &[u16], rows: &mut [u16], bl: Blocks, nt: bool) {
    avx2::unzip_by::<u16, 2>(inp, rows, bl, nt, |i, seg, r, cols| {
        unzip2_u16_one(i, seg, r, cols, nt)
    });
}

/// 16 packed columns (2 slots each) at column `c`, as
/// [`load16_cols`] (8-column loads never straddle segments).
#[target_feature(enable = "avx512f,avx512bw,avx2")]
#[inline]
fn load16_pairs(inp: &[u16], seg: Seg, c: usize) -> __m512i {
    let (i0, i1) = (seg.at(c, 2), seg.at(c + 8, 2));
    load_halves(&inp[i0..i0 + 16], &inp[i1..i1 + 16])
}

/// 32 slots from two runs of 16.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn load_halves(lo: &[u16], hi: &[u16]) -> __m512i {
    let lo: __m256i = bytemuck::pod_read_unaligned(bytemuck::cast_slice(&lo[..16]));
    let hi: __m256i = bytemuck::pod_read_unaligned(bytemuck::cast_slice(&hi[..16]));
    _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
}

/// Columns `cols` of two 16-bit rows from packed pairs, 32 columns (one
/// 64-byte line of each row) at a time: two two-source permutes
/// (`vpermt2w`) per 32 columns, as [`unzip2_u16_block`]; the head before
/// the rows' first line and the tail past their last whole line through
/// one such step each ([`avx2::unzip_edge`]).
#[target_feature(enable = "avx512f,avx512bw,avx2")]
#[inline]
fn unzip2_u16_one(
    inp: &[u16],
    seg: Seg,
    mut rows: [&mut [u16]; 2],
    cols: core::ops::Range<usize>,
    nt: bool,
) {
    let [start, body] = split_cols(&cols, seg.head, 32);
    let even: [u16; 32] = core::array::from_fn(|i| 2 * i as u16);
    let odd: [u16; 32] = core::array::from_fn(|i| 2 * i as u16 + 1);
    let (ie, io) = (load(&even), load(&odd));
    // columns c..c + 32 of both rows (`c` a multiple of 8)
    let step = |c: usize| {
        let (x, y) = (load16_pairs(inp, seg, c), load16_pairs(inp, seg, c + 16));
        [
            _mm512_permutex2var_epi16(x, ie, y),
            _mm512_permutex2var_epi16(x, io, y),
        ]
    };
    let edge = |c: usize| step(c).map(|v| halves(v));
    avx2::unzip_edge(inp, seg, &mut rows, cols.start..start, edge);
    for c in (start..body).step_by(32) {
        let pf = seg.at(c + seg.ahead, 2);
        super::prefetch(inp.as_ptr().wrapping_add(pf));
        super::prefetch(inp.as_ptr().wrapping_add(pf + 32));
        for (r, v) in rows.iter_mut().zip(step(c)) {
            put512(nt, bytemuck::cast_slice_mut(&mut r[c..c + 32]), v);
        }
    }
    avx2::unzip_edge(inp, seg, &mut rows, body..cols.end, edge);
}

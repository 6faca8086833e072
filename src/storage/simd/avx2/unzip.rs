//! AVX2 streaming unzips of packed slots into rows (bf16 pairs, s8
//! quads: tiles → rows), block by block or, into rows that do not start
//! on a line, in windows of joined blocks shifted to start on one
//! ([`Seg`]), so that every streaming store writes whole lines; the
//! partial lines at the rows' ends are stored plainly ([`unzip_edge`]).
//! The AVX-512 unzips share the windows and the edges. With plain stores
//! the AVX2 unzips are `known`'s block loops (`known::unzip4_u8_blocks`).
//!
//! A row's 64-byte line is written by two 32-byte stores back to back:
//! two kernel steps, then each row's two halves. A step at a time (each
//! row's half line, then the next row's) left two (bf16) or four (s8)
//! lines half written at once in the write-combining buffers, and on a
//! Zen 3 host (AMD EPYC, AVX2, 32 MiB L3) [4096, 4096] tiles → rows ran
//! at 0.50× (bf16) and 0.55× (s8) memcpy against 0.98× and 0.97× paired
//! (plain `Vec`s, same run; AVX-512 stores whole lines and never had it).
//! A plan streams these unzips only when asked to: on a later session on
//! the same kind of host, plain stores beat the paired streaming stores
//! (see `Exec::unzips_below_avx512` in `relayout::exec`).

use core::arch::x86_64::*;

use super::{load, prefetch, put};
use crate::storage::simd::{each_unzip, rows_mut, Blocks};

/// The streaming unzip into two 16-bit rows (plain stores take
/// `known`'s blocks).
#[target_feature(enable = "avx2")]
pub(in crate::storage::simd) fn unzip2_u16(inp: &[u16], rows: &mut [u16], bl: Blocks) {
    unzip_by::<u16, 2>(inp, rows, bl, true, |i, seg, r, cols| {
        unzip2_u16_one(i, seg, r, cols)
    });
}

/// The streaming unzip into four 8-bit rows (plain stores take `known`'s
/// blocks).
#[target_feature(enable = "avx2")]
pub(in crate::storage::simd) fn unzip4_u8(inp: &[u8], rows: &mut [u8], bl: Blocks) {
    unzip_by::<u8, 4>(inp, rows, bl, true, |i, seg, r, cols| {
        unzip4_u8_one(i, seg, r, cols)
    });
}

/// The blocks of an unzip into `K` rows, each (or each window of joined
/// blocks, [`Seg::long_rows`]) by `one(packed, segments, rows, columns)`:
/// the loop the AVX2 and AVX-512 kernels share (inlined into each).
#[inline(always)]
pub(in crate::storage::simd) fn unzip_by<T, const K: usize>(
    inp: &[T],
    rows: &mut [T],
    bl: Blocks,
    nt: bool,
    mut one: impl FnMut(&[T], Seg, [&mut [T]; K], core::ops::Range<usize>),
) {
    if let Some(seg) = Seg::long_rows(&bl, nt, rows.as_ptr()) {
        let n = bl.count2 * bl.len;
        // the rows' partial first and last lines, which take plain stores
        // (each then read from memory first, and the stores behind it
        // wait): fetched for writing now, and the first ones written
        // last (after the first block's windows, which write them, move
        // to the end), so that by then the reads are done. Measured on an
        // Intel Xeon guest (2 vCPU, KVM; L1d 48 KiB, L2 2 MiB; AVX-512),
        // [4096, 4096] tiles → rows, rows 16 bytes into a line, the bench,
        // wall clock, alternated with the build before: bf16 5.7 → 6.0
        // GB/s (0.91× → 0.97× of memcpy), s8 0.82–0.86× → 0.88–0.89× (at
        // 48 bytes into a line 0.77–0.82× → 0.89–0.94×); with the edges
        // not stored at all (output wrong, timing only) bf16 ran 5.9–6.8
        // against 5.5–5.6.
        // (rows that continue each other, [`Seg::joins`]: only a group's
        // first line and its last are stored plainly)
        for j in 0..bl.count {
            for k in 0..K {
                let r = rows.as_ptr().wrapping_add(j * bl.rstep + k * bl.rs);
                if !seg.joins {
                    super::super::prefetch_w_ends(r, n);
                } else if k == 0 {
                    super::super::prefetch_w(r);
                } else if k + 1 == K {
                    super::super::prefetch_w(r.wrapping_add(n - 1));
                }
            }
        }
        let first = seg.windows(&bl).take(bl.count);
        for (j, cols) in seg.windows(&bl).skip(bl.count).chain(first) {
            let r = rows_mut::<T, K>(rows, j * bl.rstep, bl.rs, n);
            one(&inp[j * bl.pstep..], seg, r, cols);
        }
        return;
    }
    each_unzip::<T, K>(inp, rows, bl, |i, r| one(i, Seg::ONE, r, 0..bl.len));
}

/// Where the packed input of an unzip sits, column by column: column `c`
/// (its `k` slots) at `(c >> shift) · step + k · (c mod 2^shift)`. One
/// block is one segment ([`Seg::ONE`]); [`Seg::long_rows`] joins the
/// blocks that continue the same rows.
#[derive(Clone, Copy)]
pub(in crate::storage::simd) struct Seg {
    shift: u32,
    step: usize,
    /// Columns from a row's start to its first 64-byte line (a multiple
    /// of 8 below `2^shift`).
    pub(in crate::storage::simd) head: usize,
    /// How far ahead (in columns) to prefetch the input: 2 KiB of input
    /// in one block (as measured before joining); joined, the block at
    /// least 2 KiB of input on (s8 `(8,128)(4,1)`: two 1 KiB tiles; bf16
    /// `(8,128)(2,1)`: the next 2 KiB tile). A distance in time (lines in
    /// flight while the row stores drain), not a capacity: it does not
    /// scale with the caches. Measured on s8 [4096, 4096] tiles → rows,
    /// wall clock, load 3.3, plan GB/s over pairs of 11 runs: the next
    /// tile 6.3–7.2, 2 KiB 8.6–9.3, 8 KiB 6.3–8.8, 32 KiB 7.8–8.9. (Also
    /// tried: `Caches::prefetch_ahead` bytes on, 32 tiles on a 32 KiB L1d;
    /// CPU-time clock, load 3–5: s8 0.91x → 0.93x memcpy, bf16 1.11x →
    /// 0.98x. And on s8 [4096, 4096] tiles → rows, AVX-512, plain `Vec`,
    /// wall clock, load 1.4, plan GB/s in three rounds of 15 runs: 2 KiB
    /// `prefetchnta` 10.2/10.8/10.8; 4 KiB 10.6/10.9/11.1; 8 KiB
    /// 10.0/11.1/10.7; `prefetcht0` 2 KiB 10.5/10.6/10.3, 8 KiB
    /// 10.7/10.9/10.9; `prefetcht1` 8 KiB 6.9/9.7/8.4; no software
    /// prefetch 10.2/9.9/10.0 — the hardware prefetchers follow this
    /// nearly sequential input.)
    pub(in crate::storage::simd) ahead: usize,
    /// Whether each of a block's rows continues the one before it (row
    /// `k + 1` starts where row `k` ends): then the line a row ends in is
    /// the line the next row starts in, and the head edge streams it
    /// whole, the row before's tail and this row's head back to back
    /// ([`unzip_edge`]); only the first row's head and the last row's
    /// tail are stored plainly.
    joins: bool,
}

impl Seg {
    /// One contiguous block (no column reaches `2^63`).
    const ONE: Seg = Seg {
        shift: usize::BITS - 1,
        step: 0,
        head: 0,
        ahead: 512,
        joins: false,
    };

    /// When streaming into rows that do not start on a line and the outer
    /// blocks continue the same rows (`rstep2 == len`; power-of-two `len`,
    /// a multiple of 32): the unzip then writes windows of `len` columns
    /// shifted to start on a line, each reading the end of one block and
    /// the start of the next, so that every streaming store writes whole
    /// lines (as glibc's memcpy aligns its destination). A `Vec` starts 16
    /// bytes into a line: block by block, the line between two blocks of a
    /// row would be written in two halves far apart in time.
    ///
    /// The head is the columns before the rows' first line, the same for
    /// every row when the row steps are multiples of 64 bytes. Rows that
    /// start on a line keep the blocks (measured on bf16 and s8 [4096,
    /// 4096]: 1.3x memcpy block by block, 0.8–1.0x joined; rows 16 bytes
    /// into a line, `Vec`'s case, 0.7x block by block, 0.9x joined).
    fn long_rows<T>(bl: &Blocks, nt: bool, rows: *const T) -> Option<Seg> {
        let b = core::mem::size_of::<T>();
        let same = (bl.rs * b).is_multiple_of(64) && (bl.rstep * b).is_multiple_of(64);
        let h = rows.align_offset(64);
        let ok = nt
            && bl.count2 > 1
            && bl.rstep2 == bl.len
            && bl.len.is_power_of_two()
            && bl.len.is_multiple_of(32)
            && bl.count2 * bl.len <= bl.rs
            && same
            && h != usize::MAX
            && h.is_multiple_of(8)
            && h > 0
            && h < bl.len;
        ok.then(|| Seg {
            shift: bl.len.trailing_zeros(),
            step: bl.pstep2,
            head: h,
            // (whole segments: the same columns of a later block, at least
            // the 2 KiB of input ahead that `Seg::ONE` prefetches)
            ahead: bl.len * (2048 / (bl.pstep2 * b).max(1)).max(1),
            joins: bl.rs == bl.count2 * bl.len,
        })
    }

    /// The windows of a joined unzip, in the blocks' order: `(j, columns)`
    /// for the blocks `(i, j)` of [`Blocks::each`], columns counted along
    /// the joined rows and shifted by [`Seg::head`].
    ///
    /// (One block's columns a window: tried windows of 2, 4 and 32 blocks
    /// (fewer rows written at a time, the input read with a stride), s8
    /// [4096, 4096] tiles → rows, wall clock, load 1.0–1.3, plan GB/s: one
    /// block 9.8–9.9, two 8.4–8.5, four 8.5, 32 7.8–8.1. And staging a
    /// call's eight rows to stream them out in order (load 2.6): 6.1–7.3
    /// against 10.2–10.9, the phases not overlapping.)
    fn windows(self, bl: &Blocks) -> impl Iterator<Item = (usize, core::ops::Range<usize>)> + '_ {
        let (h, n, len) = (self.head, bl.count2 * bl.len, bl.len);
        (0..bl.count2).flat_map(move |i| {
            let lo = if i == 0 { 0 } else { i * len + h };
            let hi = if i + 1 == bl.count2 {
                n
            } else {
                (i + 1) * len + h
            };
            (0..bl.count).map(move |j| (j, lo..hi))
        })
    }

    /// The slot of column `c`'s first element, for `k` slots per column.
    #[inline(always)]
    pub(in crate::storage::simd) fn at(self, c: usize, k: usize) -> usize {
        (c >> self.shift) * self.step + k * (c & ((1usize << self.shift) - 1))
    }
}

/// Columns `cols` of a segmented unzip, one at a time (rows shorter than
/// a kernel step).
#[inline(always)]
fn unzip_cols<T: Copy, const K: usize>(
    inp: &[T],
    seg: Seg,
    rows: &mut [&mut [T]; K],
    cols: core::ops::Range<usize>,
) {
    for c in cols {
        let at = seg.at(c, K);
        for (k, r) in rows.iter_mut().enumerate() {
            r[c] = inp[at + k];
        }
    }
}

/// Columns `cols` of a segmented unzip (a head or a tail, less than a
/// line of each row) through whole kernel steps of `W = 32 · N /
/// size_of::<T>()` columns: `step(c)` gives columns `c..c + W` of every
/// row (`N` 32-byte pieces each), and only the columns of `cols` are
/// stored, plainly, a few stores a row. These are the partial lines a
/// row shares with its neighbours, which a streaming store must not
/// write (each would cost a read-modify-write in memory): handed to the
/// 32-byte streaming step, a row whose windows end half-way into a line
/// (a destination 32 or 48 bytes into a line, as a heap `Vec` can be)
/// streamed half a line per row — s8 [4096, 4096] tiles → rows at 5–8
/// GB/s against 10–11 with the destination 16 bytes into a line. Rows
/// shorter than a step go column by column.
///
/// Pre: `cols.start` is a multiple of 8 (so is every step's `c`: joined
/// rows, [`Seg::long_rows`], are a multiple of 32 long, and 8-column
/// loads never straddle segments).
///
/// (Empty edges, most windows' both, return inline; the rest is not
/// inlined, so that a kernel's step inlines into its body loop.)
#[inline(always)]
pub(in crate::storage::simd) fn unzip_edge<T: bytemuck::Pod, const K: usize, const N: usize>(
    inp: &[T],
    seg: Seg,
    rows: &mut [&mut [T]; K],
    cols: core::ops::Range<usize>,
    step: impl FnMut(usize) -> [[__m256i; N]; K],
) {
    if !cols.is_empty() {
        edge_steps(inp, seg, rows, cols, step);
    }
}

/// [`unzip_edge`] of a non-empty edge.
///
/// Where the rows continue each other ([`Seg::joins`]), every row's tail
/// but the last one's is the start of the line that the next row's head
/// ends: the tail edge leaves those, and the head edge streams each such
/// line whole, the tail and the head back to back ([`join_lines`]).
#[inline(never)]
fn edge_steps<T: bytemuck::Pod, const K: usize, const N: usize>(
    inp: &[T],
    seg: Seg,
    rows: &mut [&mut [T]; K],
    cols: core::ops::Range<usize>,
    mut step: impl FnMut(usize) -> [[__m256i; N]; K],
) {
    let w = 32 * N / core::mem::size_of::<T>();
    // (every row has the same length: `rows_mut`)
    let n = rows.first().map_or(0, |r| r.len());
    if n < w {
        return unzip_cols(inp, seg, rows, cols);
    }
    let (head, tail) = (cols.start == 0, cols.end == n);
    let plain = match (seg.joins, head, tail) {
        (true, true, false) => 0..1,
        (true, false, true) => K - 1..K,
        _ => 0..K,
    };
    let mut a = cols.start;
    while a < cols.end {
        // the step that holds column `a`, within the rows (`a < n`: it
        // holds `a` either way)
        let c = a.min(n - w);
        let b = cols.end.min(c + w);
        let out = step(c);
        for (r, v) in rows[plain.clone()].iter_mut().zip(&out[plain.clone()]) {
            let (d, v) = (&mut r[a..b], &bytemuck::cast_slice::<_, T>(v)[a - c..b - c]);
            // 8 columns a move (joined, every edge is whole 8-column
            // pieces), not a `memcpy` call per row and edge
            let mut pieces = d.chunks_exact_mut(8);
            for (d, v) in (&mut pieces).zip(v.chunks_exact(8)) {
                d.copy_from_slice(v);
            }
            let rest = pieces.into_remainder();
            if !rest.is_empty() {
                let n = rest.len();
                rest.copy_from_slice(&v[v.len() - n..]);
            }
        }
        a = b;
    }
    if seg.joins && head && !tail {
        join_lines(rows, cols.end, w, step);
    }
}

/// The lines where rows that continue each other meet ([`Seg::joins`]),
/// streamed whole: for each row but the first, the row before's last
/// `64 / size_of::<T>() − h` columns, then this row's first `h` (its
/// head, `0 < h` < a line, a multiple of 8 columns), each piece in
/// streaming stores back to back, so that the line's write-combining
/// buffer fills whole. Pre: rows of `n ≥ w` columns, `n` whole lines.
///
/// Stored plainly (as each row's head and tail were before), the line
/// is read from memory first and the streaming stores queued behind it
/// wait. On an AMD EPYC (Zen 4, KVM, 2 vCPU; L1d 32 KiB, L2 1 MiB, L3 32
/// MiB; AVX-512), [4096, 4096] tiles → rows, rows 16 bytes into a line,
/// the case alone, four rounds of 11 alternated with the plain edges,
/// median ratio to memcpy: s8 0.64× → 0.73× (6.7 → 7.8 GB/s), bf16 0.80×
/// → 1.04×; 32 bytes into a line the same within the noise (s8 0.65× →
/// 0.64×, bf16 0.92× → 0.87×). On a line, s8 runs 1.03–1.08×: the rest
/// of the gap is not these lines (the lines where a block's last row
/// meets the next block's first are still stored plainly: one such line
/// every four rows for s8, every two for bf16).
fn join_lines<T: bytemuck::Pod, const K: usize, const N: usize>(
    rows: &mut [&mut [T]; K],
    h: usize,
    w: usize,
    mut step: impl FnMut(usize) -> [[__m256i; N]; K],
) {
    let b = core::mem::size_of::<T>();
    let n = rows.first().map_or(0, |r| r.len());
    let t = 64 / b - h;
    // each row's joined line: its tail, then the next row's head
    let mut lines = [[0u8; 64]; K];
    for (cols, at) in [(n - t..n, 0), (0..h, t * b)] {
        let mut a = cols.start;
        while a < cols.end {
            let c = a.min(n - w);
            let e = cols.end.min(c + w);
            for (k, v) in step(c).iter().enumerate() {
                let o = at + (a - cols.start) * b;
                lines[k][o..o + (e - a) * b]
                    .copy_from_slice(&bytemuck::cast_slice::<_, u8>(v)[(a - c) * b..(e - c) * b]);
            }
            a = e;
        }
    }
    for k in 1..K {
        let (before, this) = rows.split_at_mut(k);
        let tail = bytemuck::cast_slice_mut::<T, u8>(&mut before[k - 1][n - t..]);
        stream_piece(tail, &lines[k - 1][..t * b]);
        let head = bytemuck::cast_slice_mut::<T, u8>(&mut this[0][..h]);
        stream_piece(head, &lines[k][t * b..]);
    }
}

/// `dst.copy_from_slice(src)` in streaming stores, 16 bytes where `dst`
/// is on 16 bytes, else 8 where it is on 8 (a join's pieces are whole
/// 8-byte pieces, [`join_lines`]); anything else plainly. Pre: equal
/// lengths.
fn stream_piece(dst: &mut [u8], src: &[u8]) {
    let mut at = 0;
    while at < dst.len() {
        let rest = &mut dst[at..];
        let p = rest.as_mut_ptr();
        if rest.len() >= 16 && p.addr().is_multiple_of(16) {
            let v: __m128i = bytemuck::pod_read_unaligned(&src[at..at + 16]);
            // SAFETY: `p` starts `rest`, a live exclusive borrow of at
            // least 16 bytes, and is 16-byte aligned (both checked just
            // above), as `stream` requires.
            unsafe { super::stream(p.cast(), v) };
            at += 16;
        } else if rest.len() >= 8 && p.addr().is_multiple_of(8) {
            let v: i64 = bytemuck::pod_read_unaligned(&src[at..at + 8]);
            // SAFETY: as above, for 8 bytes on an 8-byte boundary.
            unsafe { crate::storage::kernels::stream::store64(p.cast(), v) };
            at += 8;
        } else {
            rest.copy_from_slice(&src[at..]);
            at = dst.len();
        }
    }
}

/// Splits columns `cols` of an unzip into a head (to the rows' first
/// line, column by column), a body of whole `step`s and a tail.
pub(in crate::storage::simd) fn split_cols(
    cols: &core::ops::Range<usize>,
    head: usize,
    step: usize,
) -> [usize; 2] {
    let start = if cols.start == 0 {
        head.min(cols.end)
    } else {
        cols.start
    };
    [start, start + (cols.end - start) / step * step]
}

/// Two streamed steps of `w` columns from column `c`, `a` then `b`: each
/// row's line in two streaming stores back to back (the module's doc).
#[target_feature(enable = "avx2")]
#[inline]
fn put_line<T: bytemuck::Pod, const K: usize>(
    rows: &mut [&mut [T]; K],
    c: usize,
    w: usize,
    a: [[__m256i; 1]; K],
    b: [[__m256i; 1]; K],
) {
    for (k, r) in rows.iter_mut().enumerate() {
        put(true, &mut r[c..c + w], a[k][0]);
        put(true, &mut r[c + w..c + 2 * w], b[k][0]);
    }
}

/// Columns `cols` of two 16-bit rows from packed pairs, 16 columns a
/// step, streaming whole lines only: the head before the rows' first
/// line and the tail past their last whole line by [`unzip_edge`].
#[target_feature(enable = "avx2")]
#[inline]
fn unzip2_u16_one(inp: &[u16], seg: Seg, mut rows: [&mut [u16]; 2], cols: core::ops::Range<usize>) {
    let [start, body] = split_cols(&cols, seg.head, 32);
    // per lane: even u16 to the low 8 bytes, odd to the high 8
    let m = _mm256_setr_epi8(
        0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15, //
        0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15,
    );
    // columns c..c + 16 of both rows (`c` a multiple of 8: 8-column loads
    // never straddle segments); a macro, not a closure, for the body (as
    // in `unzip4_u8_one`: called twice a step, the closure was not inlined
    // and halved the in-cache speed)
    // (the 16 columns from their two 8-column pieces `a` and `b`)
    macro_rules! step_in {
        ($a:expr, $b:expr) => {{
            let t0 = _mm256_shuffle_epi8(load($a), m);
            let t1 = _mm256_shuffle_epi8(load($b), m);
            // qwords (a0-3, b0-3, a4-7, b4-7) -> (a0-3, a4-7, b0-3, b4-7)
            let p0 = _mm256_permute4x64_epi64::<0xD8>(t0);
            let p1 = _mm256_permute4x64_epi64::<0xD8>(t1);
            [
                [_mm256_permute2x128_si256::<0x20>(p0, p1)],
                [_mm256_permute2x128_si256::<0x31>(p0, p1)],
            ]
        }};
    }
    macro_rules! step {
        ($c:expr) => {{
            let c: usize = $c;
            let (i0, i1) = (seg.at(c, 2), seg.at(c + 8, 2));
            step_in!(&inp[i0..i0 + 16], &inp[i1..i1 + 16])
        }};
    }
    let step = |c: usize| step!(c);
    unzip_edge(inp, seg, &mut rows, cols.start..start, step);
    // two steps: each row's line in two stores back to back (the
    // module's doc)
    let mut c = start;
    while c + 32 <= body {
        prefetch(inp, seg.at(c + seg.ahead, 2));
        prefetch(inp, seg.at(c + 16 + seg.ahead, 2));
        put_line(&mut rows, c, 16, step!(c), step!(c + 16));
        c += 32;
    }
    for c in (c..body).step_by(16) {
        prefetch(inp, seg.at(c + seg.ahead, 2));
        for (r, [v]) in rows.iter_mut().zip(step!(c)) {
            put(true, &mut r[c..c + 16], v);
        }
    }
    unzip_edge(inp, seg, &mut rows, body..cols.end, step);
}

/// Columns `cols` of four 8-bit rows from packed quads, 32 columns a
/// step, streaming whole lines only: the head before the rows' first
/// line and the tail past their last whole line by [`unzip_edge`].
#[target_feature(enable = "avx2")]
#[inline]
fn unzip4_u8_one(inp: &[u8], seg: Seg, mut rows: [&mut [u8]; 4], cols: core::ops::Range<usize>) {
    let [start, body] = split_cols(&cols, seg.head, 64);
    // columns c..c + 32 of the four rows (`c` a multiple of 8: 4-column
    // loads never straddle segments); a macro, not a closure, for the
    // body: its loop is compiled twice (streaming or not) and the closure,
    // called from both and the edges, was not inlined (25% more
    // instructions for s8 tiles → rows, callgrind)
    macro_rules! step {
        ($c:expr) => {{
            let c: usize = $c;
            let [a, b, x, y] = super::unzip4_u8_step!(|g: usize| {
                let i = seg.at(c + 4 * g, 4);
                &inp[i..i + 16]
            });
            [[a], [b], [x], [y]]
        }};
    }
    let step = |c: usize| step!(c);
    unzip_edge(inp, seg, &mut rows, cols.start..start, step);
    // two steps: each row's line in two stores back to back (the
    // module's doc)
    let mut c = start;
    while c + 64 <= body {
        for h in [0, 32] {
            let pf = seg.at(c + h + seg.ahead, 4);
            prefetch(inp, pf);
            prefetch(inp, pf + 64);
        }
        put_line(&mut rows, c, 32, step!(c), step!(c + 32));
        c += 64;
    }
    for c in (c..body).step_by(32) {
        let pf = seg.at(c + seg.ahead, 4);
        prefetch(inp, pf);
        prefetch(inp, pf + 64);
        for (r, [v]) in rows.iter_mut().zip(step!(c)) {
            put(true, &mut r[c..c + 32], v);
        }
    }
    unzip_edge(inp, seg, &mut rows, body..cols.end, step);
}

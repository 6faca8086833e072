//! Streaming (non-temporal) stores for the runs kernel and the zips'
//! stack buffers: [`copy`] streams the whole 64-byte lines of one run and
//! stores its partial lines plainly, at most 16 bytes a store; [`Joiner`]
//! streams the runs of a block so, joining each run's partial lines with
//! the runs that continue them; [`fence`] orders the streaming stores
//! before what follows.

// (under Miri the streaming intrinsics are replaced by plain stores)
#[cfg_attr(miri, allow(unused_imports))]
use core::arch::x86_64::{__m128i, _mm_sfence, _mm_stream_si128, _mm_stream_si64};

/// `dst.copy_from_slice(src)` with non-temporal stores for the whole
/// 64-byte lines of `dst`; the partial lines at both ends take plain
/// stores (a partial non-temporal line costs a read-modify-write in
/// memory), at most 16 bytes a store ([`copy_partial_line`]). Pre: equal
/// lengths.
pub(super) fn copy(src: &[u8], dst: &mut [u8]) {
    let head = dst.as_ptr().align_offset(64).min(dst.len());
    let (dh, rest) = dst.split_at_mut(head);
    copy_partial_line(&src[..head], dh);
    let src = &src[head..];
    let body = rest.len() / 64 * 64;
    let (db, dt) = rest.split_at_mut(body);
    for (o, i) in db.chunks_exact_mut(64).zip(src.chunks_exact(64)) {
        let v: [__m128i; 4] = [
            bytemuck::pod_read_unaligned(&i[0..16]),
            bytemuck::pod_read_unaligned(&i[16..32]),
            bytemuck::pod_read_unaligned(&i[32..48]),
            bytemuck::pod_read_unaligned(&i[48..64]),
        ];
        let p = o.as_mut_ptr().cast::<__m128i>();
        // SAFETY: for `p.add(k)` (k < 4) and `store`:
        // - `o` is a live, exclusively borrowed 64-byte chunk of `dst`,
        //   so `p .. p+4` (4 × 16 bytes) is valid for writes;
        // - `p` is 64-byte (so 16-byte) aligned: `db` starts at
        //   `dst + head` with `head = align_offset(64)`, and chunks
        //   advance by 64 (if `align_offset` gave up, `head ==
        //   dst.len()` and `db` is empty);
        // - SSE2 is part of the x86-64 baseline.
        unsafe {
            for (k, x) in v.into_iter().enumerate() {
                store(p.add(k), x);
            }
        }
    }
    copy_partial_line(&src[body..], dt);
}

/// `dst.copy_from_slice(src)` for part of a line (under 64 bytes) beside
/// streamed lines: ordinary stores of 16 bytes, then the bytes left.
/// Pre: equal lengths.
///
/// Why: with `copy_from_slice` (a `memcpy` call, which on this glibc
/// stores 32 bytes as one 32-byte store) runs whose partial lines are 32
/// bytes ran at half speed: f32[4096,4096] `T(8,128)` → rows, destination
/// 32 bytes into a line, 0.66–0.72× of memcpy (6.3–7.9 GB/s) against
/// 1.40–1.61× (14–16 GB/s) in 16-byte stores; combined dims
/// f32[64,128,1024] → `T(2,*,128)` 0.82–0.86× against 1.40–1.56×; at 16
/// and 48 bytes 1.3–1.6× either way (AMD EPYC Zen 4, wall clock, load
/// average 1.6–2, same runs alternated). The cause is not pinned down:
/// the same bytes are written, and the form matters — the same 16-byte
/// pieces written straight-line in a function of their own (a call per
/// partial line) ran 6.4–7.9 GB/s at every offset but 0 (0.7–0.9×), in
/// this loop inlined into [`copy`] 14–16 GB/s (hence `inline(always)`).
/// The same pieces in the direct transposes' line writer
/// (`transpose512::lines::put`) did not help there: s8 and bf16 packed
/// transposes at offset 32 unchanged, 0.56–0.80× against 1.0–1.2× at 16
/// and 48; not kept.
#[inline(always)]
fn copy_partial_line(src: &[u8], dst: &mut [u8]) {
    let (mut o, mut i) = (dst.chunks_exact_mut(16), src.chunks_exact(16));
    for (o, i) in (&mut o).zip(&mut i) {
        let v: u128 = bytemuck::pod_read_unaligned(i);
        o.copy_from_slice(&v.to_ne_bytes());
    }
    for (o, i) in o.into_remainder().iter_mut().zip(i.remainder()) {
        *o = *i;
    }
}

/// The streamed runs' partial lines, each held back until the run that
/// continues it in the destination completes the line, which then goes
/// out as one whole non-temporal line. Each run `i` of a block has a slot
/// (the 32 tiles of a `T(8,128)` tile row of 4096 columns, the 1024 runs
/// of a combined-dims `T(2,*,128)` block), grown as runs need them, for
/// its last partial line and for its first. Where the loop around the
/// blocks steps between destination streams (`T(8,128)` → rows, 8 tiles
/// a block and the tiles' 8 rows around it), each stream's blocks take
/// slots of their own (row `r`'s runs slots `8r..8r + 8`), so that a
/// block's first run meets the last of the stream's previous block.
///
/// Where a destination does not start on a line, every run of a block
/// (rows ↔ `T(8,128)`: 512 bytes) begins and ends inside a line, and the
/// run that fills the rest of that line comes in a later block:
/// - mostly the same run of the next block (the next row of each tile,
///   the next tile of each row): run `i`'s last partial line is held
///   (where it lies in the source: nothing is copied) until run `i` of a
///   later block starts where it ends;
/// - at a tile's edge, a run of the block before: a tile's first row
///   (rows → `T(8,128)`) or a row's first tile (`T(8,128)` → rows) starts
///   a line that the last row of the tile before it, or the end of the
///   row before, finishes blocks later, in slot `i − 1` (or, from the
///   last slot, in slot 0 of the next block). Such a first partial line
///   is held in its slot until then.
///
/// A piece that no run meets is stored plainly when its slot takes
/// another, or at [`Joiner::flush`]: every byte is written once, whatever
/// the order.
///
/// Why: a partial line stored plainly is first read from memory (a
/// read for ownership) among the streamed lines, and the stores behind
/// it wait for that read. Measured on an Intel Xeon guest (2 vCPU, KVM;
/// L1d 48 KiB, L2 2 MiB, 480 MiB L3 by CPUID; AVX-512), plain `Vec`s 16
/// bytes into a line, the bench, wall clock, two rounds alternated with
/// the joiner of last partial lines alone: f32[4096,4096] rows →
/// `T(8,128)` 5.5 → 7.0–7.8 GB/s (0.89–0.90× → 1.09–1.16× of memcpy),
/// combined dims `T(2,*,128)` 4.9–5.1 → 6.3–6.5 GB/s (0.72–0.76× →
/// 0.94–0.97×), `T(8,128)` → rows unchanged (1.06–1.07×); with the
/// destination on lines these held nothing and ran 1.08–1.12×.
///
/// (Tried and not kept: the pieces held in a table keyed by destination
/// line (open addressing, Fibonacci hashing, 16 slots a run), so that
/// pieces that meet across runs join too — a tile's first row and the
/// previous tile's last, the two halves of a combined-dims pair. Same
/// host, the bench, source and destination 16 or 48 → 16 bytes into a
/// line, two rounds alternated with this joiner: rows → `T(8,128)`
/// 0.88–0.89× of memcpy against 0.98×, `T(8,128)` → rows 0.76–0.78×
/// against 0.99×; combined dims 0.80–0.81× against 0.72×.)
#[cfg(feature = "alloc")]
pub(crate) struct Joiner {
    /// Per slot: the run's last partial line held, as where it ends in
    /// the destination, where it starts in the source, and its length
    /// (0: none), in bytes.
    tails: alloc::vec::Vec<(usize, usize, usize)>,
    /// Per slot: the run's first partial line held, as where it starts in
    /// the destination, where it starts in the source, and its length
    /// (0: none), in bytes.
    heads: alloc::vec::Vec<(usize, usize, usize)>,
    /// Partial lines stored plainly, for the tests.
    #[cfg(test)]
    plain: usize,
}

#[cfg(feature = "alloc")]
impl Joiner {
    /// Nothing held (and nothing allocated until a run needs a slot).
    pub(crate) const fn new() -> Joiner {
        Joiner {
            tails: alloc::vec::Vec::new(),
            heads: alloc::vec::Vec::new(),
            #[cfg(test)]
            plain: 0,
        }
    }

    /// `dst[o..o + n] = src[so..so + n]` for run `i` of a block of `runs`
    /// runs whose slots start at `first` (`i` in slot `first + i`),
    /// its whole lines streamed, its partial lines joined where they meet
    /// the pieces held: its first with the last of its own slot (the same
    /// run of an earlier block), of the slot before it (the block's last
    /// for its first run: the block before, or the same stream's previous
    /// block) or of the last slot of all; its last with the first of the
    /// slot after it. A piece that meets none is held in its slot.
    pub(crate) fn copy(
        &mut self,
        (first, i, runs): (usize, usize, usize),
        src: &[u8],
        so: usize,
        n: usize,
        dst: &mut [u8],
        o: usize,
    ) {
        let addr = (dst.as_ptr() as usize).wrapping_add(o);
        let head = ((64 - addr % 64) % 64).min(n);
        if head == n {
            // within one line, or ending on the first boundary: plainly
            copy_partial_line(&src[so..so + n], &mut dst[o..o + n]);
            return;
        }
        let (i, last) = (first + i, first + runs - 1);
        if last >= self.tails.len() {
            self.tails.resize(last + 1, (0, 0, 0));
            self.heads.resize(last + 1, (0, 0, 0));
        }
        if head > 0 {
            // the tail that ends where this head starts and fills its line
            let meets =
                |&(end, _, hl): &(usize, usize, usize)| hl > 0 && end == o && hl + head == 64;
            let before = if i > first { i - 1 } else { last };
            let k = [i, before, self.tails.len() - 1]
                .into_iter()
                .find(|&k| meets(&self.tails[k]));
            if let Some(k) = k {
                let (_, hs, hl) = core::mem::take(&mut self.tails[k]);
                join(src, (hs, hl), (so, head), &mut dst[o - hl..o + head]);
            } else {
                let (at, hs, hl) = core::mem::replace(&mut self.heads[i], (o, so, head));
                if hl > 0 {
                    self.count_plain();
                    copy_partial_line(&src[hs..hs + hl], &mut dst[at..at + hl]);
                }
            }
        }
        let tail = (n - head) % 64;
        let body = n - head - tail;
        copy(
            &src[so + head..so + head + body],
            &mut dst[o + head..o + head + body],
        );
        if tail > 0 {
            let (end, ts) = (o + n, so + n - tail);
            // the head held next that starts where this tail ends
            if let Some(h) = self.heads.get_mut(i + 1) {
                let (at, hs, hl) = *h;
                if hl > 0 && at == end && tail + hl == 64 {
                    *h = (0, 0, 0);
                    join(src, (ts, tail), (hs, hl), &mut dst[end - tail..end + hl]);
                    return;
                }
            }
            let (end0, hs, hl) = core::mem::replace(&mut self.tails[i], (end, ts, tail));
            if hl > 0 {
                self.count_plain();
                copy_partial_line(&src[hs..hs + hl], &mut dst[end0 - hl..end0]);
            }
        }
    }

    /// Stores every piece still held, plainly (before the fence that ends
    /// the streaming stores).
    pub(crate) fn flush(&mut self, src: &[u8], dst: &mut [u8]) {
        for (end, hs, hl) in core::mem::take(&mut self.tails) {
            if hl > 0 {
                self.count_plain();
                copy_partial_line(&src[hs..hs + hl], &mut dst[end - hl..end]);
            }
        }
        for (at, hs, hl) in core::mem::take(&mut self.heads) {
            if hl > 0 {
                self.count_plain();
                copy_partial_line(&src[hs..hs + hl], &mut dst[at..at + hl]);
            }
        }
    }

    /// One more held piece stored plainly (counted for the tests).
    #[inline(always)]
    fn count_plain(&mut self) {
        #[cfg(test)]
        {
            self.plain += 1;
        }
    }
}

/// One whole line `line` streamed from two pieces of the source, the
/// first `a = (start, len)` and then `b`, whose lengths add up to 64.
#[cfg(feature = "alloc")]
#[inline(always)]
fn join(src: &[u8], a: (usize, usize), b: (usize, usize), line: &mut [u8]) {
    let (x, y) = (&src[a.0..a.0 + a.1], &src[b.0..b.0 + b.1]);
    if a.1.is_multiple_of(16) {
        // (pieces of whole 16-byte stores: each straight from the
        // source, no line joined on the stack)
        let (l, r) = line.split_at_mut(a.1);
        stream_pieces(x, l);
        stream_pieces(y, r);
    } else {
        let mut joined = [0u8; 64];
        joined[..a.1].copy_from_slice(x);
        joined[a.1..].copy_from_slice(y);
        copy(&joined, line);
    }
}

/// `dst.copy_from_slice(src)` in streaming 16-byte stores, for a
/// piece of a line whose other pieces are streamed too: `dst` starts on
/// 16 bytes and its length is a multiple of 16 (else plain stores, which
/// a join never takes). Pre: equal lengths.
///
/// ([`copy`]'s whole lines keep their own loop, four loads then four
/// stores a line: through this one, f32[4096,4096] rows ↔ `T(8,128)`,
/// plain `Vec`s 16 bytes into a line, ran 0.95–1.01× of memcpy against
/// 1.03–1.11×, three rounds alternated on the Intel Xeon guest.)
#[cfg(feature = "alloc")]
#[inline(always)]
fn stream_pieces(src: &[u8], dst: &mut [u8]) {
    if !dst.as_ptr().addr().is_multiple_of(16) || !dst.len().is_multiple_of(16) {
        return copy_partial_line(src, dst);
    }
    for (o, i) in dst.chunks_exact_mut(16).zip(src.chunks_exact(16)) {
        let v: __m128i = bytemuck::pod_read_unaligned(i);
        // SAFETY: `o` is a live, exclusively borrowed 16-byte chunk of
        // `dst`, so valid for a 16-byte write; it is 16-byte aligned, as
        // `store` requires: `dst` starts on 16 bytes (checked above) and
        // the chunks advance by 16; SSE2 is part of the x86-64 baseline.
        unsafe { store(o.as_mut_ptr().cast::<__m128i>(), v) };
    }
}

/// One non-temporal 16-byte store (also the AVX2 zips' store of a
/// half-aligned 32-byte step).
///
/// # Safety
/// `p` must be valid for a 16-byte write and 16-byte aligned.
#[inline(always)]
pub(crate) unsafe fn store(p: *mut __m128i, v: __m128i) {
    // Miri cannot run `movntdq` (stdarch emits it as inline assembly);
    // there the same pointer takes an aligned plain store, so Miri still
    // checks the bounds and alignment claimed by the callers.
    #[cfg(not(miri))]
    // SAFETY: forwarded from this function's contract; SSE2 is part of
    // the x86-64 baseline.
    unsafe {
        _mm_stream_si128(p, v)
    };
    #[cfg(miri)]
    // SAFETY: forwarded from this function's contract (`__m128i` has
    // 16-byte alignment, so `write` checks exactly that).
    unsafe {
        p.write(v)
    };
}

/// One non-temporal 8-byte store (`movnti`).
///
/// # Safety
/// `p` must be valid for an 8-byte write and 8-byte aligned.
#[inline(always)]
pub(crate) unsafe fn store64(p: *mut i64, v: i64) {
    // Miri cannot run `movnti` (inline assembly in stdarch): the same
    // pointer takes an aligned plain store, so Miri checks the bounds and
    // alignment the callers claim.
    #[cfg(not(miri))]
    // SAFETY: forwarded from this function's contract; SSE2 is part of
    // the x86-64 baseline.
    unsafe {
        _mm_stream_si64(p, v)
    };
    #[cfg(miri)]
    // SAFETY: as above (`i64` is 8-byte aligned, so `write` checks
    // exactly that).
    unsafe {
        p.write(v)
    };
}

/// Orders the streaming stores before any later store (they are weakly
/// ordered).
pub(super) fn fence() {
    #[cfg(not(miri))]
    // SAFETY: `sfence` has no memory operands and no preconditions
    // beyond SSE, which is part of the x86-64 baseline.
    unsafe {
        _mm_sfence()
    };
    // Miri has no `sfence` and takes plain stores in `store`; a release
    // fence models the ordering the streaming stores need.
    #[cfg(miri)]
    core::sync::atomic::fence(core::sync::atomic::Ordering::Release);
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    /// [`super::Joiner`] against a plain copy: blocks of runs that chain
    /// in the destination (run `i` of block `u` continues run `i` of block
    /// `u − 1`, as rows → `T(8,128)` and back do), that chain across slots
    /// (the next block's run `i + 1`), in the orders of rows ↔ tiles at a
    /// tile's edges, and that leave gaps, at every destination offset in
    /// a line and run lengths around the line size, many runs a block
    /// too: every byte once, the bytes around untouched, and where every
    /// partial line is shared by two runs, at most the array's first and
    /// last stored plainly.
    #[test]
    #[cfg(feature = "alloc")]
    fn joined_runs_match_a_plain_copy_at_every_offset() {
        let src: vec::Vec<u8> = (0..40000u32).map(|i| (i * 31 + 7) as u8).collect();
        let mut buf = vec![0u8; 40000 + 128];
        let line = buf.as_ptr().align_offset(64);
        // (runs a block, blocks, where run `i` of block `u` starts, in
        // run lengths `n`, and whether every partial line but the array's
        // first and last is shared by two runs)
        // (and the first of block `u`'s slots)
        type Order = (
            usize,
            usize,
            fn(usize, usize, usize) -> usize,
            fn(usize) -> usize,
            bool,
        );
        let orders: [Order; 7] = [
            // run i continues in block u + 1
            (4, 3, |u, i, n| i * 3 * n + u * n, |_| 0, true),
            // runs follow each other in a block
            (3, 3, |u, i, n| i * n + u * 3 * n, |_| 0, true),
            // gaps: nothing chains
            (2, 2, |u, i, n| i * (2 * n + 32) + u * (n + 5), |_| 0, false),
            // many runs a block
            (70, 2, |u, i, n| i * 2 * n + u * n, |_| 0, true),
            // rows → `T(8,128)`'s order, 4 tiles of 3 rows a tile row (a
            // tile's first row meets the last row of the tile before it,
            // held since 2 blocks back)
            (
                4,
                6,
                |u, i, n| (u / 3 * 12 + i * 3 + u % 3) * n,
                |_| 0,
                true,
            ),
            // `T(8,128)` → rows' order, 3 tiles of 4 rows a tile row (a
            // row's end meets the next row's start, held since the tile
            // row's first block; the last row's end meets the next tile
            // row's first block's first run)
            (
                4,
                6,
                |u, i, n| ((u / 3 * 4 + i) * 3 + u % 3) * n,
                |_| 0,
                true,
            ),
            // `T(8,128)` → rows with 2 tiles a block: 2 tile rows of 3
            // rows, 2 blocks of 2 tiles a row, the tile's rows innermost
            // (block `u`: tile row `u / 6`, tiles `2·(u / 3 % 2)..`, row
            // `u % 3`), each row's runs in slots of their own (a block's
            // first run meets the last of the row's block before it, held
            // since 3 blocks back; a row's end the next row's start)
            (
                2,
                12,
                |u, i, n| ((u / 6 * 3 + u % 3) * 4 + u / 3 % 2 * 2 + i) * n,
                |u| u % 3 * 2,
                true,
            ),
        ];
        let offsets = (0..64).filter(|o| !cfg!(miri) || o % 16 == 0 || o % 16 == 1);
        for off in offsets {
            for n in [1, 16, 48, 63, 64, 65, 100, 128, 130, 512] {
                if cfg!(miri) && n > 130 {
                    continue;
                }
                for (count, blocks, at_run, first, joins) in orders {
                    let ends =
                        (0..blocks).flat_map(|u| (0..count).map(move |i| at_run(u, i, n) + n));
                    let extent = ends.max().unwrap_or(0);
                    if extent + off > buf.len() - line || count * blocks * n > src.len() {
                        continue;
                    }
                    buf.fill(0xEE);
                    let mut want = buf.clone();
                    let mut j = super::Joiner::new();
                    let at = line + off;
                    let (sb, db) = (&src[..], &mut buf[at..at + extent]);
                    for u in 0..blocks {
                        for i in 0..count {
                            let (so, o) = ((u * count + i) * n, at_run(u, i, n));
                            j.copy((first(u), i, count), sb, so, n, db, o);
                            want[at + o..at + o + n].copy_from_slice(&sb[so..so + n]);
                        }
                    }
                    j.flush(sb, db);
                    super::fence();
                    assert!(buf == want, "{n} bytes, {count} x {blocks} runs at {off}");
                    // every line two runs share went out whole: only the
                    // array's first and last partial lines were held and
                    // stored plainly
                    if joins && n >= 128 {
                        assert!(j.plain <= 2, "{n} bytes at {off}: {} plain pieces", j.plain);
                    }
                }
            }
        }
    }

    /// [`super::copy`] of every length 0–200 into a destination at every
    /// byte offset 0–63 of a line (one line-aligned buffer, offset): the
    /// bytes are a plain copy's and the bytes around untouched.
    #[test]
    fn streamed_copies_match_a_plain_copy_at_every_offset() {
        let src: vec::Vec<u8> = (0..256u32).map(|i| (i * 31 + 7) as u8).collect();
        let mut buf = vec![0u8; 200 + 192];
        let line = buf.as_ptr().align_offset(64);
        for off in 0..64 {
            // (under Miri the lengths around each 16-byte step only)
            let lengths = (0..=200).filter(|n| !cfg!(miri) || n % 16 < 2 || n % 16 == 15);
            for n in lengths {
                buf.fill(0xEE);
                let at = line + off;
                super::copy(&src[3..3 + n], &mut buf[at..at + n]);
                super::fence();
                assert_eq!(&buf[at..at + n], &src[3..3 + n], "{n} bytes at {off}");
                assert!(
                    buf[..at].iter().chain(&buf[at + n..]).all(|&x| x == 0xEE),
                    "{n} bytes at {off}: bytes outside written"
                );
            }
        }
    }
}

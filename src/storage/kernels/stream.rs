//! Streaming (non-temporal) stores for the runs kernel and the zips'
//! stack buffers: [`copy`] streams the whole 64-byte lines of one run and
//! stores its partial lines plainly, at most 16 bytes a store; [`Joiner`]
//! streams the runs of a block so, joining each run's partial lines with
//! the runs that continue them; [`fence`] orders the streaming stores
//! before what follows.

// (under Miri the streaming intrinsics are replaced by plain stores)
#[cfg_attr(miri, allow(unused_imports))]
use core::arch::x86_64::{__m128i, _mm_sfence, _mm_stream_si128};

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
/// out as one whole non-temporal line. One slot for each run of a block
/// (run `i` in slot `i`: the 32 tiles of a `T(8,128)` tile row of 4096
/// columns, the 1024 runs of a combined-dims `T(2,*,128)` block), grown
/// as runs need them.
///
/// Where a destination does not start on a line, every run of a block
/// (rows ↔ `T(8,128)`: 512 bytes) begins and ends inside a line, and the
/// run that fills the rest of that line comes a block later: the same
/// run of the next block (the next row of each tile, the next tile of
/// each row). [`stream::copy`](copy) stores such partial lines plainly,
/// each then read from memory first; this holds run `i`'s last partial
/// line (where it lies in the source: nothing is copied) until run `i`
/// of a later block starts where it ends. A run that starts elsewhere
/// writes its first partial line plainly, and a held line the next run
/// in its slot does not continue is stored plainly then, or at
/// [`Joiner::flush`]: every byte is written once, whatever the order.
///
/// Measured on an Intel Xeon guest (2 vCPU, KVM; L1d 48 KiB, L2 2 MiB;
/// AVX-512), f32[4096,4096] rows → `T(8,128)`, plain `Vec`s (16 bytes
/// into a line), streaming: see `UnitMover::joiner`.
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
    /// Per slot: where the held piece ends in the destination, where it
    /// starts in the source, and its length (0: none), in bytes.
    held: alloc::vec::Vec<(usize, usize, usize)>,
}

#[cfg(feature = "alloc")]
impl Joiner {
    /// Nothing held (and nothing allocated until a run needs a slot).
    pub(crate) const fn new() -> Joiner {
        Joiner {
            held: alloc::vec::Vec::new(),
        }
    }

    /// `dst[o..o + n] = src[so..so + n]` for run `i` of a block, its whole
    /// lines streamed, its partial lines joined with the pieces of the
    /// runs before and after it in slot `i` where they meet.
    pub(crate) fn copy(
        &mut self,
        i: usize,
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
        if i >= self.held.len() {
            self.held.resize(i + 1, (0, 0, 0));
        }
        let slot = &mut self.held[i];
        if head > 0 {
            let (end, hs, hl) = *slot;
            if hl > 0 && end == o && hl + head == 64 {
                // the held piece starts the line this run's head ends:
                // the line goes out whole
                let mut line = [0u8; 64];
                line[..hl].copy_from_slice(&src[hs..hs + hl]);
                line[hl..].copy_from_slice(&src[so..so + head]);
                *slot = (0, 0, 0);
                copy(&line, &mut dst[o - hl..o + head]);
            } else {
                copy_partial_line(&src[so..so + head], &mut dst[o..o + head]);
            }
        }
        let tail = (n - head) % 64;
        let body = n - head - tail;
        copy(
            &src[so + head..so + head + body],
            &mut dst[o + head..o + head + body],
        );
        if tail > 0 {
            let slot = &mut self.held[i];
            let (end, hs, hl) = *slot;
            if hl > 0 {
                copy_partial_line(&src[hs..hs + hl], &mut dst[end - hl..end]);
            }
            *slot = (o + n, so + n - tail, tail);
        }
    }

    /// Stores every piece still held, plainly (before the fence that ends
    /// the streaming stores).
    pub(crate) fn flush(&mut self, src: &[u8], dst: &mut [u8]) {
        for slot in &mut self.held {
            let (end, hs, hl) = *slot;
            if hl > 0 {
                copy_partial_line(&src[hs..hs + hl], &mut dst[end - hl..end]);
                *slot = (0, 0, 0);
            }
        }
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
    /// (the next block's run `i + 1`), and that leave gaps, at every
    /// destination offset in a line and run lengths around the line
    /// size, many runs a block too: every byte once, the bytes around
    /// untouched.
    #[test]
    #[cfg(feature = "alloc")]
    fn joined_runs_match_a_plain_copy_at_every_offset() {
        let src: vec::Vec<u8> = (0..40000u32).map(|i| (i * 31 + 7) as u8).collect();
        let mut buf = vec![0u8; 40000 + 128];
        let line = buf.as_ptr().align_offset(64);
        // (run length, runs a block, blocks, destination step of a run
        // within a block, of a block)
        let shapes = |n: usize| {
            [
                (n, 4, 3, 3 * n, n),          // run i continues in block u + 1
                (n, 3, 3, n, 3 * n),          // runs follow each other in a block
                (n, 2, 2, 2 * n + 32, n + 5), // gaps: nothing chains
                (n, 70, 2, 2 * n, n),         // many runs a block
            ]
        };
        let offsets = (0..64).filter(|o| !cfg!(miri) || o % 16 == 0 || o % 16 == 1);
        for off in offsets {
            for n in [1, 48, 63, 64, 65, 100, 128, 130, 512] {
                if cfg!(miri) && n > 130 {
                    continue;
                }
                for (n, count, blocks, step, step2) in shapes(n) {
                    let extent = (count - 1) * step + (blocks - 1) * step2 + n;
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
                            let (so, o) = ((u * count + i) * n, i * step + u * step2);
                            j.copy(i, sb, so, n, db, o);
                            want[at + o..at + o + n].copy_from_slice(&sb[so..so + n]);
                        }
                    }
                    j.flush(sb, db);
                    super::fence();
                    assert!(buf == want, "{n} bytes, {count} x {blocks} runs at {off}");
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

//! Streaming (non-temporal) stores for the runs kernel and the zips'
//! stack buffers: [`copy`] streams the whole 64-byte lines of one run and
//! stores its partial lines plainly; [`Joiner`] does the same across
//! runs that follow each other in the destination, so that the line two
//! such runs share is streamed whole once instead of being stored in two
//! plain halves; [`fence`] orders them after the last.
//!
//! Why a shared line matters: a plain store to a line that is not in the
//! cache reads the line from memory first (read for ownership), and two
//! plain halves of one line written by two runs cost that read and the
//! write back, where a streamed whole line costs the write only. Combined
//! dims f32[64,128,1024] rows → `{2,1,0:T(2,*,128)}` (runs of 512 bytes,
//! a tile's two runs adjacent in the destination) ran 14–15.6 GB/s with
//! its destination 16 bytes into a line and 7.2 GB/s at 32, every run
//! storing its two partial lines plainly.

// (under Miri the streaming intrinsics are replaced by plain stores)
#[cfg_attr(miri, allow(unused_imports))]
use core::arch::x86_64::{__m128i, _mm_sfence, _mm_stream_si128};

/// `dst.copy_from_slice(src)` with non-temporal stores for the whole
/// 64-byte lines of `dst`; the partial lines at both ends take plain
/// stores (a partial non-temporal line costs a read-modify-write in
/// memory). Pre: equal lengths.
pub(super) fn copy(src: &[u8], dst: &mut [u8]) {
    let head = dst.as_ptr().align_offset(64).min(dst.len());
    let (dh, rest) = dst.split_at_mut(head);
    dh.copy_from_slice(&src[..head]);
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
    dt.copy_from_slice(&src[body..]);
}

/// Streams runs that may follow each other in the destination: each
/// run's whole lines are streamed as [`copy`] does, but the partial line
/// at a run's end, when it starts on a line, is held back; the next run,
/// if it starts where the held bytes end, completes the line, which is
/// then streamed whole. Otherwise (and at [`Joiner::flush`]) the held
/// bytes take plain stores. So a chain of adjacent runs writes every line
/// inside it once, whole, by a streaming store, wherever it starts in its
/// line; only the chain's first and last partial lines are stored plainly.
///
/// Invariant: the `len` held bytes (`len < 64`) are the destination bytes
/// `at .. at + len` of the last call, starting on a 64-byte line.
pub(crate) struct Joiner {
    /// Destination byte offset of the held bytes (a line start).
    at: usize,
    /// How many bytes are held (`0..64`).
    len: usize,
    /// The held bytes, `line[..len]`.
    line: [u8; 64],
}

impl Joiner {
    /// Nothing held.
    pub(crate) const fn new() -> Self {
        Joiner {
            at: 0,
            len: 0,
            line: [0; 64],
        }
    }

    /// `dst[at..at + src.len()].copy_from_slice(src)`, its whole lines
    /// streamed, the held line joined if this run continues it, and this
    /// run's last partial line held if it starts on a line.
    ///
    /// Every call of one `Joiner` must pass the same `dst` (the held bytes
    /// are offsets into it), and [`Joiner::flush`] must follow the last.
    /// Panics if the run is out of `dst`'s bounds.
    pub(crate) fn copy(&mut self, mut src: &[u8], dst: &mut [u8], mut at: usize) {
        if self.len > 0 {
            if self.at + self.len != at {
                self.flush(dst);
            } else {
                let n = (64 - self.len).min(src.len());
                self.line[self.len..self.len + n].copy_from_slice(&src[..n]);
                self.len += n;
                (src, at) = (&src[n..], at + n);
                if self.len < 64 {
                    return;
                }
                // a whole line on a line: `copy` streams it
                copy(&self.line, &mut dst[self.at..self.at + 64]);
                self.len = 0;
            }
        }
        let d = &mut dst[at..at + src.len()];
        // the head up to the first line plainly, then whole lines; the
        // rest (a line's start, if any) is held
        let head = d.as_ptr().align_offset(64).min(d.len());
        let end = d.len() - (d.len() - head) % 64;
        copy(&src[..end], &mut d[..end]);
        let keep = &src[end..];
        self.line[..keep.len()].copy_from_slice(keep);
        (self.at, self.len) = (at + end, keep.len());
    }

    /// Stores the held bytes plainly (the end of a chain).
    pub(crate) fn flush(&mut self, dst: &mut [u8]) {
        dst[self.at..self.at + self.len].copy_from_slice(&self.line[..self.len]);
        self.len = 0;
    }
}

/// One non-temporal 16-byte store.
///
/// # Safety
/// `p` must be valid for a 16-byte write and 16-byte aligned.
#[inline(always)]
unsafe fn store(p: *mut __m128i, v: __m128i) {
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
    use super::Joiner;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Chains of runs through one [`Joiner`] at every destination offset
    /// 0–63 of a line (one line-aligned buffer, offset): the bytes are a
    /// plain copy's, the bytes between and around the runs untouched, and
    /// after each run the joiner holds exactly the chain's last partial
    /// line when the chain reaches a line start (else nothing), so every
    /// line inside a chain is streamed whole.
    #[test]
    fn joined_runs_match_a_plain_copy_at_every_offset() {
        // (run length, gap before it in the destination)
        let chains: [&[(usize, usize)]; 5] = [
            &[(512, 0), (512, 0), (512, 0), (512, 0)],
            &[(80, 0), (80, 0), (80, 16), (80, 0)],
            &[(8, 0), (20, 0), (3, 0), (64, 0), (1, 0), (100, 0), (40, 1)],
            &[(64, 0), (64, 0), (63, 0), (65, 0), (128, 5), (7, 0)],
            &[(1, 0), (1, 0), (62, 0), (1, 0), (200, 0), (33, 64)],
        ];
        let src: Vec<u8> = (0..4096u32).map(|i| (i * 31 + 7) as u8).collect();
        for chain in chains {
            let total: usize = chain.iter().map(|&(n, g)| n + g).sum();
            let mut buf = vec![0u8; total + 192];
            let line = buf.as_ptr().align_offset(64);
            for off in 0..64 {
                buf.fill(0xEE);
                let mut want = buf.clone();
                let mut j = Joiner::new();
                let (mut at, mut from, mut chain_start) = (line + off, 0, line + off);
                for &(n, gap) in chain {
                    if gap > 0 {
                        chain_start = at + gap;
                    }
                    at += gap;
                    let run = &src[from..from + n];
                    j.copy(run, &mut buf, at);
                    want[at..at + n].copy_from_slice(run);
                    (at, from) = (at + n, from + n);
                    // the chain's last line start at or after its start
                    let last = line + (at - line) / 64 * 64;
                    let held = if last >= chain_start { at - last } else { 0 };
                    assert_eq!(j.len, held, "{chain:?} at {off}");
                    if held > 0 {
                        assert_eq!(j.at, last);
                    }
                }
                j.flush(&mut buf);
                super::fence();
                assert!(buf == want, "{chain:?} at {off}");
            }
        }
    }
}

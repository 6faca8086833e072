//! Streaming (non-temporal) stores for the runs kernel and the zips'
//! stack buffers: [`copy`] streams the whole 64-byte lines of one run and
//! stores its partial lines plainly, at most 16 bytes a store; [`fence`]
//! orders the streaming stores before what follows.

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

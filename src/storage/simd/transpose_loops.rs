//! The loop nest of a gather block's tile transposes, shared by every
//! SIMD level (each passes its own 8 × 8 register transpose, which
//! inlines): its own file so that the dispatch (`transpose.rs`) and the
//! AVX2 level (`avx2.rs`) both import it and not each other. (The
//! AVX-512 level runs its own 16 × 16 loops where a block's shape allows,
//! `transpose512.rs`, with its figures; the notes below are about these.)
//!
//! Tried and not kept (f32[4096,4096] `{1,0:T(8,128)}` → `{0,1:T(8,128)}`
//! and column-major → `T(8,128)`, plain `Vec`s, AMD EPYC Zen 4, 32 KiB L1d,
//! 1 MiB L2, 32 MiB L3, load average 7–16, ratio to memcpy): transposing
//! straight into the destination without this stage, AVX-512 16 × 16 at a
//! time over the block's merged source-contiguous and destination-
//! contiguous loops (128 × 128 slots), full 64-byte lines streamed and the
//! next block prefetched to L2. Window by window (two source tiles read
//! whole, each window's stores over all 128 destination rows) 0.29–0.51×
//! by the prefetch hint and distance (0.23–0.31× without);
//! 16 columns at a time through every window (16 destination rows written
//! front to back, 128 source rows read 64 bytes each) 0.44–0.53× and
//! 0.42–0.46×, against 0.64–0.72× and 0.74–0.81× for this stage in the same
//! runs; in cache (f32[1024,1024]) 0.63–0.82× against 0.92–1.00×. Split up,
//! the direct path's reads alone took 1.25–1.5 memcpy times and its
//! streaming stores alone (16 rows at a time, every store a whole aligned
//! line, nothing read) 1.4, where the same stores front to back through
//! the destination take 0.4: the stage's order (source tiles read whole,
//! destination chunks streamed whole) is what this machine rewards.
//!
//! Measured next (same case and machine, load average 1–3, wall clock):
//! of this pass, the reads and transposes alone (nothing written out) took
//! 1.25–1.5 memcpy times, the copy-out alone 0.3–0.4, and copying instead
//! of transposing (same addresses) changed nothing: the reads, not the
//! shuffles, are what to speed up. A read-only model of the access
//! patterns (64 MiB, 4 KiB pages, ratio to a memcpy of it): sequential
//! 0.48–0.52 memcpy times; the 16 tiles of a block read one after another
//! 0.88–1.05; read as the 8 × 8 transposes do (8 rows × 32 bytes at a
//! time) 1.20–1.35; the same with the next block prefetched into L2 line
//! by line, blocks in source order 0.29–0.51, in cache-blocking order
//! 0.76–0.81 (hence the source-order blocks of `choose::gather`); the
//! model's stage and copy-out 0.97–1.41, chunk by chunk (each destination
//! tile transposed into 4 KiB of scratch and streamed at once, the next
//! block prefetched line by line) 0.86–0.98.
//!
//! Tried and not kept: that chunk-by-chunk order in the kernel (a chunk
//! loop around this pass, scratch of one chunk in L1, each chunk streamed
//! as soon as it was full, the next block prefetched line by line in
//! address order spread over the 8 × 8 calls): on `{1,0:T(8,128)}` →
//! `{0,1:T(8,128)}`, plain `Vec`s, back to back with this pass (both in
//! source order), load average 3.5–4: wall clock 0.45–0.58x of memcpy
//! against 0.55–0.58x, CPU time 0.48–0.60x against 0.51–0.65x, 64-byte
//! aligned 0.45–0.52x against 0.56–0.59x (an earlier run at load 4–5 had
//! it ahead by CPU time, 0.59–0.66x against 0.55–0.57x); for a
//! column-major source (512-byte columns, each chunk reading 32 bytes of
//! 128 of them) 0.39–0.57x against 0.55–0.62x.
//!
//! Tried and not kept (idle machine, wall clock, plain `Vec`s, three
//! alternations of seven runs): the packed transposes' copy-out hints
//! (`squares::NextSource`: the next block's source lines hinted a share
//! per chunk while the stage is copied out, instead of the per-row hints
//! below) over the rows of these blocks: `{1,0:T(8,128)}` →
//! `{0,1:T(8,128)}` 0.50–0.64× of memcpy without, 0.59–0.62× with;
//! column-major → `T(8,128)` 0.50–0.62× / 0.53–0.59×; `T(8,128)` →
//! column-major 0.43–0.45× / 0.26–0.34×.

use crate::storage::caches::Caches;
use crate::storage::kernels::gather_rows;
use crate::storage::nest::Loop;

/// The loops of a gather block (`simd::transpose::gather_u32`) around
/// `t8`, an 8 × 8 transpose (`dst[d + c·ds + r] = src[s + r·ss + c]`).
/// Inlined into each SIMD level's caller.
///
/// Tried and not kept (AMD EPYC Zen 3, AVX2, in cache): each group of 8
/// rows sliced once and stepped through, as the packed transposes'
/// `squares::rows32` does. With the slicing in a closure of this
/// function, compiled without AVX2, the transposes stayed calls (9.6 →
/// 4.8–8.1 GB/s, f32[256,256] and [1024,1024] `{1,0:T(8,128)}` →
/// `{0,1:T(8,128)}`); with a closure of the level's own, all inlined, it
/// still lost (8.4–8.8 GB/s): the 8 row slices spilled and the 8 stores
/// a block stayed bounds-checked against spilled lengths.
#[inline(always)]
pub(super) fn blocks(
    src: &[u32],
    s: usize,
    loops: &[Loop],
    out: &mut [u32],
    ahead: Option<isize>,
    mut t8: impl FnMut(&[u32], usize, usize, &mut [u32], usize, usize),
) {
    let [.., y, x] = loops else {
        return;
    };
    let (ss, ds) = (y.src as usize, x.dst as usize);
    let (nr, nc) = (y.n as usize / 8, x.n as usize / 8);
    // prefetch the next block's source as this one's is read: the same
    // rows `ahead` slots away
    // (`last`: the last slot a pair of calls reads of the row, whose line
    // is prefetched too where the pair's 64 bytes cross a line, as a
    // plain `Vec`'s rows do: no later call starts on that line. Measured
    // on f32[4096,4096] `{1,0:T(8,128)}` → column-major, where the pairs
    // read 64 bytes of each of 1024 rows, plain `Vec`s, load average 4–5:
    // 0.25–0.35x → 0.30–0.46x of memcpy. For a single call's 32 bytes the
    // next call starts on the line: prefetching it for them too made
    // `{1,0:T(8,128)}` → `{0,1:T(8,128)}` 0.54–0.68x → 0.45–0.56x and
    // column-major → `T(8,128)` 0.62–0.80x → 0.54–0.62x)
    let pf = |at: usize, last: Option<usize>| {
        if let Some(x) = ahead {
            let p = src.as_ptr().wrapping_add(at).wrapping_offset(x);
            super::prefetch_l2(p);
            if let Some(l) = last {
                let q = src.as_ptr().wrapping_add(l).wrapping_offset(x);
                if (p as usize) / 64 != (q as usize) / 64 {
                    super::prefetch_l2(q);
                }
            }
        }
    };
    // and the rows the next value of the outermost loop reads, one sweep
    // of the loops inside it later, into L1 (`prefetcht0`: they are read
    // before L1 turns over), when that loop steps to other lines and its
    // sweep fits [`Caches::prefetch_ahead`] (measured on f32[4096,4096]
    // `{1,0:T(8,128)}` → `{0,1:T(8,128)}`, where that is the next source
    // tile; the bench, old and new builds interleaved, three runs each,
    // plain `Vec`s: 0.42–0.54x → 0.58–0.66x of memcpy, 64-byte aligned
    // buffers 0.46–0.59x → 0.49–0.62x; a non-temporal hint and two sweeps
    // ahead measured no better)
    let next = next_sweep(loops, 4);
    // the 8-row groups of `y` outermost: each group's source rows are read
    // through every other loop before the next group's, so a few rows
    // stream at a time (reading 8 slots of every row per pass was 0.48x of
    // memcpy for a column-major source)
    for tr in 0..nr {
        gather_rows(&loops[..loops.len() - 1], s, |sb, db, _, _, _| {
            for tc in 0..nc {
                let (so, dof) = (sb + 8 * tr * ss + 8 * tc, db + 8 * tc * ds + 8 * tr);
                if tc % 2 == 0 {
                    let pair = tc + 1 < nc;
                    for r in 0..8 {
                        pf(so + r * ss, pair.then_some(so + r * ss + 15));
                        if let Some(o) = next {
                            super::prefetch(src.as_ptr().wrapping_add(so + r * ss + o));
                        }
                    }
                }
                t8(src, so, ss, out, dof, ds);
            }
        });
    }
}

/// The source step, in slots of `unit` bytes, of the outermost of `loops`
/// (at least three, the block's two innermost), when its rows are worth
/// prefetching into L1 one sweep ahead: it steps to other lines (≥ 64
/// bytes) and one sweep of the loops inside it reads at most
/// [`Caches::prefetch_ahead`] bytes. Shared by the 32-bit tile transposes
/// and the unit transposes of packed tilings (`simd::squares`).
pub(super) fn next_sweep(loops: &[Loop], unit: u64) -> Option<usize> {
    let sweep = loops
        .iter()
        .skip(1)
        .fold(unit, |b, l| b.saturating_mul(l.n));
    match loops {
        [o, _, _, ..]
            if o.src.saturating_mul(unit) >= 64
                && sweep <= Caches::host().prefetch_ahead() as u64 =>
        {
            Some(o.src as usize)
        }
        _ => None,
    }
}

//! The plain (cached) runs of a block, many a call: what the runs
//! kernel does at the AVX-512 level when it does not stream.

use crate::storage::nest::Loop;
use crate::storage::simd::Isa;

/// `c.n × a.n` runs of `n` units, run `(u, i)` from `src[s + u·c.src +
/// i·a.src..]` to `dst[d + u·c.dst + i·a.dst..]`, plain stores: the
/// bounds checked once for them all, then `simd::copy_runs` (64-byte
/// moves inline; taken at the AVX-512 level only, see
/// `UnitMover::repeats_at_once`, else a `copy_from_slice` a run).
///
/// Why: where f32[1000²] padded rows ↔ `T(8,128)` (in cache, 8000 runs
/// of 512 or 416 bytes) loses against memcpy was taken apart on the
/// bench's buffers (thread CPU clock, 201–301 runs a figure, four
/// placements, AMD EPYC Zen 4): 8000 sequential 512-byte
/// `copy_from_slice` calls 1.02–1.08× of memcpy of the same 4 MB; the
/// tile pattern over rows 4096 or 4000 bytes apart 0.98–1.04×; with the
/// last column's 104-slot runs and the 24-slot padding fill, in tile
/// order or in the plan's own order (a source row's 8 runs a block)
/// 0.94–1.06×; 64-byte AVX-512 moves in place of `memcpy` in those loops
/// within ±0.04; the exact f32[1000,1024] plan (no padding, the flat
/// path) as the loops. The padded plan itself read 0.83–0.92×, 0.07–0.10
/// below the same loops in the same rounds: not the copy, the access
/// pattern, the source rows off their lines, 4 KiB aliasing or the
/// padding, but the general walker's replay of the split block and the
/// kernel's dispatch and bounds per block. Hence one call for a block's
/// runs, and for the runs of all the rows the loop around a split block
/// repeats (`Split::replay_rep`). Against the previous build, idle wall
/// clock (load average 1.0), seven alternated rounds of 9 runs at source
/// → destination 0→0 / 16→16 / 16→48 / 32→48 bytes into a line: rows →
/// `T` 0.92 / 0.85 / 0.82 / 0.87× of memcpy before, 0.92 / 0.91 / 0.86 /
/// 0.88× after; `T` → rows 0.90 / 0.87 / 0.85 / 0.88× before, 0.90 /
/// 0.93 / 0.89 / 0.90× after (the runs copied one by one, in the walk's
/// order, 64-byte moves but a row a call: no gain for rows → `T`).
#[inline]
pub(super) fn plain_runs<T: bytemuck::Pod>(
    isa: Isa,
    src: &[T],
    s: usize,
    dst: &mut [T],
    d: usize,
    (c, a): (&Loop, &Loop),
    n: usize,
) {
    let (count, ss, ds) = (a.n as usize, a.src as usize, a.dst as usize);
    let (count2, ss2, ds2) = (c.n as usize, c.src as usize, c.dst as usize);
    if count == 0 || count2 == 0 || n == 0 {
        return;
    }
    let src = &src[s..s + (count2 - 1) * ss2 + (count - 1) * ss + n];
    let dst = &mut dst[d..d + (count2 - 1) * ds2 + (count - 1) * ds + n];
    #[cfg(target_arch = "x86_64")]
    {
        use crate::storage::simd;
        let u = core::mem::size_of::<T>();
        let r = simd::Runs {
            count,
            len: n * u,
            src_step: ss * u,
            dst_step: ds * u,
            count2,
            src_step2: ss2 * u,
            dst_step2: ds2 * u,
        };
        if simd::copy_runs(
            isa,
            bytemuck::cast_slice(src),
            bytemuck::cast_slice_mut(dst),
            r,
        ) {
            return;
        }
    }
    let _ = isa;
    for u in 0..count2 {
        for i in 0..count {
            let (so, dof) = (u * ss2 + i * ss, u * ds2 + i * ds);
            dst[dof..dof + n].copy_from_slice(&src[so..so + n]);
        }
    }
}

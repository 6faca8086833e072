//! The tile transposes of a gather block: 8 × 8 blocks of 32-bit slots,
//! the whole loop nest of a block compiled at the SIMD level it runs at
//! (so the register transpose inlines into the loops instead of being
//! called once per 256 bytes).
//!
//! ```text
//!   dst[d + c·ds + r] = src[s + r·ss + c]      r, c < 8
//! ```

use super::Isa;
use crate::storage::nest::Loop;

/// An 8 × 8 transpose of 32-bit slots: `dst[d + c·ds + r] = src[s + r·ss +
/// c]` for `r, c < 8` (the kernels inline the level's own version; this
/// dispatch is for the tests).
#[cfg(test)]
fn transpose8_u32(
    isa: Isa,
    src: &[u32],
    s: usize,
    ss: usize,
    dst: &mut [u32],
    d: usize,
    ds: usize,
) {
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { super::avx2::transpose8_u32(src, s, ss, dst, d, ds) };
    }
    let _ = isa;
    portable8(src, s, ss, dst, d, ds);
}

/// [`transpose8_u32`] in plain loops.
#[inline(always)]
fn portable8(src: &[u32], s: usize, ss: usize, dst: &mut [u32], d: usize, ds: usize) {
    for r in 0..8 {
        for c in 0..8 {
            dst[d + c * ds + r] = src[s + r * ss + c];
        }
    }
}

/// Whether the gather loops `loops` (source order) end in a transpose of
/// 4-byte slots this module runs: the innermost loop contiguous in the
/// source, the one around it contiguous in the stage, both counts
/// multiples of 8.
pub(crate) const fn transposes(loops: &[Loop]) -> bool {
    matches!(loops, [.., y, x] if x.src == 1 && y.dst == 1 && x.n % 8 == 0 && y.n % 8 == 0)
}

/// A gather block whose loops [`transposes`] accepts, from `src` at `s`
/// into the stage `out`, 8 × 8 at a time; `ahead`: the source offset of
/// the next block less this one's, prefetched as this one is read.
pub(crate) fn gather_u32(
    isa: Isa,
    src: &[u32],
    s: usize,
    loops: &[Loop],
    out: &mut [u32],
    ahead: Option<isize>,
) {
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { super::avx2::gather_transpose_u32(src, s, loops, out, ahead) };
    }
    let _ = isa;
    super::transpose_loops::blocks(src, s, loops, out, ahead, portable8);
}

/// Whether a gather block whose loops [`transposes`] accepts runs chunk
/// by chunk ([`gather_chunks_u32`]) rather than whole into its stage: when
/// its source is read in contiguous runs of at least a 4 KiB page (the
/// tiles of a tile transpose). A chunk reads a few slots of every source
/// row of the block; rows in runs that short (a column-major source's
/// columns, 512 bytes each in a 128-column block, each in its own page)
/// are read faster a few rows at a time through the whole block, as the
/// whole-block pass does (measured on f32[4096,4096], plain `Vec`s, AMD
/// EPYC Zen 4, CPU-time clock, load 4–5, median of 15 per run:
/// `{1,0:T(8,128)}` → `{0,1:T(8,128)}` 0.55–0.57x of memcpy whole,
/// 0.59–0.66x by chunks; column-major → `T(8,128)` 0.55–0.62x whole,
/// 0.39–0.57x by chunks).
pub(crate) fn by_chunks(loops: &[Loop]) -> bool {
    super::transpose_loops::run_of(loops).0.saturating_mul(4) >= 4096
}

/// A gather block whose loops [`transposes`] accepts, chunk by chunk:
/// `loops[chunk]` steps through the stage's chunks (stage stride
/// `out.len()`, the chunk's length; not one of the two innermost loops;
/// an index past `loops`: the block is one chunk); each chunk is
/// transposed into `out` and handed to `emit(k, out)` (`k`: the chunk's
/// step) before the next chunk's source is read, so the destination is
/// written while the source is read, from scratch that stays in L1; the
/// next block's source (`ahead` slots on) is prefetched into L2 line by
/// line as this one is read.
#[allow(clippy::too_many_arguments)] // reason: the block, its source, scratch, prefetch and the sink
pub(crate) fn gather_chunks_u32(
    isa: Isa,
    src: &[u32],
    s: usize,
    loops: &[Loop],
    chunk: usize,
    out: &mut [u32],
    ahead: Option<isize>,
    emit: impl FnMut(usize, &[u32]),
) {
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { chunks_avx2(src, s, loops, chunk, out, ahead, emit) };
    }
    let _ = isa;
    super::transpose_loops::chunks(src, s, loops, Some(chunk), out, ahead, portable8, emit);
}

/// [`gather_chunks_u32`] at the AVX2 level: its 8 × 8 register transpose
/// inlined into the loops.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)] // reason: as `gather_chunks_u32`
fn chunks_avx2(
    src: &[u32],
    s: usize,
    loops: &[Loop],
    chunk: usize,
    out: &mut [u32],
    ahead: Option<isize>,
    emit: impl FnMut(usize, &[u32]),
) {
    super::transpose_loops::chunks(
        src,
        s,
        loops,
        Some(chunk),
        out,
        ahead,
        |a, s, ss, b, d, ds| super::avx2::transpose8_u32(a, s, ss, b, d, ds),
        emit,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::nest::FREE;
    use crate::storage::simd::Simd;

    #[test]
    fn transpose8_matches_the_definition() {
        let src: alloc::vec::Vec<u32> = (0..8 * 13).collect();
        let mut dst = alloc::vec![0u32; 8 * 11 + 8];
        for level in Simd::ALL {
            dst.fill(0);
            transpose8_u32(Isa::new(Some(level)), &src, 2, 13, &mut dst, 3, 11);
            for r in 0..8 {
                for c in 0..8 {
                    assert_eq!(dst[3 + c * 11 + r], src[2 + r * 13 + c], "{level:?}");
                }
            }
        }
    }

    /// A block handed out chunk by chunk: 3 chunks of 2 × (16 × 24)
    /// slots, two 8-row groups and three 8-column groups per transpose
    /// pass, the chunk loop outermost or between two others, every level,
    /// against the slots the loops name (`ahead` past the source: only
    /// prefetched).
    #[test]
    fn chunks_match_the_loops_at_every_level() {
        let l = |n, src, dst| Loop {
            n,
            src,
            dst,
            dim: FREE,
            w: 1,
        };
        let (foot, s) = (768usize, 5usize);
        let (k, o) = (l(3, 24, 768), l(2, 1287, 384));
        let (y, x) = (l(16, 80, 1), l(24, 1, 16));
        let src: alloc::vec::Vec<u32> = (0..2600).map(|i| i * 7 + 1).collect();
        let mut want = alloc::vec![0u32; 3 * foot];
        for (a, b, c, d) in (0..3).flat_map(|a| {
            (0..2).flat_map(move |b| (0..16).flat_map(move |c| (0..24).map(move |d| (a, b, c, d))))
        }) {
            want[768 * a + 384 * b + c + 16 * d] = src[s + 24 * a + 1287 * b + 80 * c + d];
        }
        for (loops, at) in [([o, k, y, x], 1), ([k, o, y, x], 0)] {
            assert!(transposes(&loops));
            for level in Simd::ALL {
                let mut got = alloc::vec![0u32; 3 * foot];
                let mut out = alloc::vec![0u32; foot];
                let mut seen = alloc::vec::Vec::new();
                let ahead = Some(1 << 20);
                gather_chunks_u32(
                    Isa::new(Some(level)),
                    &src,
                    s,
                    &loops,
                    at,
                    &mut out,
                    ahead,
                    |c, ch| {
                        seen.push(c);
                        got[c * foot..(c + 1) * foot].copy_from_slice(ch);
                    },
                );
                assert_eq!(seen, [0, 1, 2], "{level:?}");
                assert_eq!(got, want, "{level:?} chunk loop at {at}");
            }
        }
    }

    /// A column-major [24, 16] source gathered into a row-major stage (a
    /// block of 3 × 2 tiles), and a loop around them, at every level.
    #[test]
    fn gather_matches_the_loops_at_every_level() {
        let l = |n, src, dst| Loop {
            n,
            src,
            dst,
            dim: FREE,
            w: 1,
        };
        // source offset r + 24c + 384k, stage offset 16r + c + 384k
        let loops = [l(2, 384, 384), l(16, 24, 1), l(24, 1, 16)];
        assert!(transposes(&loops));
        let src: alloc::vec::Vec<u32> = (0..2 * 384 + 5).map(|i| i * 7 + 1).collect();
        let mut want = alloc::vec![0u32; 2 * 384];
        for k in 0..2 {
            for c in 0..16 {
                for r in 0..24 {
                    want[16 * r + c + 384 * k] = src[5 + r + 24 * c + 384 * k];
                }
            }
        }
        for level in Simd::ALL {
            let mut out = alloc::vec![0u32; 2 * 384];
            gather_u32(Isa::new(Some(level)), &src, 5, &loops, &mut out, Some(17));
            assert_eq!(out, want, "{level:?}");
        }
    }
}

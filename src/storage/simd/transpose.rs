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

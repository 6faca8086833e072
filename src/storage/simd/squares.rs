//! The unit transposes of a gather block between packed tilings
//! (`kernels::squares::gather_squares`): each `k × k` square of slots is
//! one unit (8 bytes for 2 × 2 of 16 bits, 16 bytes for 4 × 4 of 8 bits),
//! and the block a tile transpose of units, 4 × 4 (8-byte units) or 2 × 2
//! (16-byte units) at a time in AVX2 registers, the squares themselves
//! transposed in each unit by a shuffle.
//!
//! ```text
//!   dst[d + c·ds + r] = T(src[s + r·ss + c])      (in units) r, c < B
//! ```
//!
//! with `T` the in-unit transpose (slots `i + k·j` to `k·i + j`).

use super::Isa;
use crate::storage::caches::Caches;
use crate::storage::kernels::gather_rows;
use crate::storage::nest::Loop;

/// Runs a gather block of `u`-byte units (8 or 16) from the bytes `src`
/// at byte `s` into the stage bytes `out`, if the level has a register
/// transpose for it and the unit loops `loops` (source order, strides in
/// units) end in one: the innermost loop contiguous in the source, the
/// one around it contiguous in the stage, both counts multiples of the
/// block side. Returns whether it ran. `ahead`: the source byte offset
/// of the next block less this one's, prefetched as this one is read.
pub(crate) fn gather_units(
    isa: Isa,
    u: usize,
    src: &[u8],
    s: usize,
    loops: &[Loop],
    out: &mut [u8],
    ahead: Option<isize>,
) -> bool {
    let side = match u {
        8 => 4,
        16 => 2,
        _ => return false,
    };
    let fits = matches!(loops, [.., y, x]
        if x.src == 1 && y.dst == 1 && x.n % side == 0 && y.n % side == 0);
    #[cfg(target_arch = "x86_64")]
    if fits && isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        unsafe { avx2_units(u, src, s, loops, out, ahead) };
        return true;
    }
    let _ = (isa, src, s, out, ahead, fits);
    false
}

/// [`gather_units`] at the AVX2 level (so that the block transposes
/// inline into the loops).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_units(
    u: usize,
    src: &[u8],
    s: usize,
    loops: &[Loop],
    out: &mut [u8],
    ahead: Option<isize>,
) {
    if u == 8 {
        blocks(4, 8, src, s, loops, out, ahead, |a, so, ss, b, d, ds| {
            avx2::t4_u64(a, so, ss, b, d, ds)
        });
    } else {
        blocks(2, 16, src, s, loops, out, ahead, |a, so, ss, b, d, ds| {
            avx2::t2_u128(a, so, ss, b, d, ds)
        });
    }
}

/// The loops of a unit gather block around `t`, a `side × side` block
/// transpose of `u`-byte units (arguments in bytes: source, its offset,
/// its row step; stage, its offset, its column step), the same order and
/// prefetching as the 32-bit tile transposes (`transpose_loops`).
#[allow(clippy::too_many_arguments)] // reason: the block's shape, both sides and the transpose
#[inline(always)]
fn blocks(
    side: usize,
    u: usize,
    src: &[u8],
    s: usize,
    loops: &[Loop],
    out: &mut [u8],
    ahead: Option<isize>,
    mut t: impl FnMut(&[u8], usize, usize, &mut [u8], usize, usize),
) {
    let [.., y, x] = loops else {
        return;
    };
    let (ss, ds) = (y.src as usize * u, x.dst as usize * u);
    let (nr, nc) = (y.n as usize / side, x.n as usize / side);
    let pf = |at: usize| {
        if let Some(x) = ahead {
            super::prefetch_l2(src.as_ptr().wrapping_add(at).wrapping_offset(x));
        }
    };
    // the rows the outermost loop's next value reads, one sweep ahead,
    // into L1 (as `transpose_loops` does, in bytes)
    let sweep = loops
        .iter()
        .skip(1)
        .fold(u as u64, |b, l| b.saturating_mul(l.n));
    let next = match loops {
        [o, _, _, ..]
            if o.src.saturating_mul(u as u64) >= 64
                && sweep <= Caches::host().prefetch_ahead() as u64 =>
        {
            Some(o.src as usize * u)
        }
        _ => None,
    };
    // (`gather_rows` steps in units; the block's offsets are in bytes)
    for tr in 0..nr {
        gather_rows(&loops[..loops.len() - 1], 0, |sb, db, _, _, _| {
            let (sb, db) = (s + sb * u, db * u);
            for tc in 0..nc {
                let so = sb + side * tr * ss + side * u * tc;
                let dof = db + side * tc * ds + side * tr * u;
                // one block reads `side · u` = 32 bytes of each row: the
                // row's line every second block
                if tc % 2 == 0 {
                    for r in 0..side {
                        pf(so + r * ss);
                        if let Some(o) = next {
                            super::prefetch_l1(src.as_ptr().wrapping_add(so + r * ss + o));
                        }
                    }
                }
                t(src, so, ss, out, dof, ds);
            }
        });
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;

    /// A 32-byte load from `b[o..o + 32]`.
    #[inline(always)]
    fn load(b: &[u8], o: usize) -> __m256i {
        bytemuck::pod_read_unaligned(&b[o..o + 32])
    }

    /// A 32-byte store to `b[o..o + 32]`.
    #[inline(always)]
    fn store(b: &mut [u8], o: usize, v: __m256i) {
        b[o..o + 32].copy_from_slice(bytemuck::bytes_of(&v));
    }

    /// A 4 × 4 transpose of 8-byte units, each a 2 × 2 square of 16-bit
    /// slots transposed too (slots 1 and 2 exchanged): row `r` of the
    /// source at `s + r·ss`, column `c` of the result at `d + c·ds`
    /// (bytes).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn t4_u64(src: &[u8], s: usize, ss: usize, dst: &mut [u8], d: usize, ds: usize) {
        let a: [__m256i; 4] = core::array::from_fn(|r| load(src, s + r * ss));
        // pairs within 128-bit lanes, then lanes
        let t0 = _mm256_unpacklo_epi64(a[0], a[1]);
        let t1 = _mm256_unpackhi_epi64(a[0], a[1]);
        let t2 = _mm256_unpacklo_epi64(a[2], a[3]);
        let t3 = _mm256_unpackhi_epi64(a[2], a[3]);
        let o = [
            _mm256_permute2x128_si256::<0x20>(t0, t2),
            _mm256_permute2x128_si256::<0x20>(t1, t3),
            _mm256_permute2x128_si256::<0x31>(t0, t2),
            _mm256_permute2x128_si256::<0x31>(t1, t3),
        ];
        for (c, v) in o.into_iter().enumerate() {
            // 16-bit slots 0, 2, 1, 3 of each unit
            let v = _mm256_shufflehi_epi16::<0xD8>(_mm256_shufflelo_epi16::<0xD8>(v));
            store(dst, d + c * ds, v);
        }
    }

    /// A 2 × 2 transpose of 16-byte units, each a 4 × 4 square of bytes
    /// transposed too (byte `r + 4c` to `4r + c`): as [`t4_u64`].
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn t2_u128(src: &[u8], s: usize, ss: usize, dst: &mut [u8], d: usize, ds: usize) {
        let (a0, a1) = (load(src, s), load(src, s + ss));
        let m = _mm256_setr_epi8(
            0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6,
            10, 14, 3, 7, 11, 15,
        );
        let o = [
            _mm256_permute2x128_si256::<0x20>(a0, a1),
            _mm256_permute2x128_si256::<0x31>(a0, a1),
        ];
        for (c, v) in o.into_iter().enumerate() {
            store(dst, d + c * ds, _mm256_shuffle_epi8(v, m));
        }
    }
}

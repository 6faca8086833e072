//! Shared-memory bank conflicts of a warp's accesses (4, 8 or 16 bytes per
//! lane), counted at compile time.
//!
//! Shared memory has 32 banks of 4 bytes; a 16-byte access occupies 4 banks,
//! so the banks form 8 groups and a 16-byte address `a` falls in group
//! `(a / 16) mod 8`. A warp's 128-bit accesses (and each 8×8 matrix of an
//! `ldmatrix`) are served 8 lanes at a time (128 bytes, one wavefront); 8
//! lanes whose addresses fall in 8 different groups, or that read the same
//! address (a broadcast), take one wavefront. The **conflict degree** of 8
//! lanes is the most distinct addresses any group receives — the number of
//! wavefronts they need — and the degree of an access pattern is the largest
//! over its groups of 8 lanes: 1 means conflict-free. Narrower accesses are
//! served `128 / bytes` lanes at a time, and the degree counts the distinct
//! 4-byte words each bank receives ([`warp_degree`]).

use crate::algebra::ComposedLayout;
use crate::types::cute_index::{flat_offset, Flat};

/// Bytes shared memory serves per wavefront.
const WAVEFRONT_BYTES: usize = 128;

/// Banks of shared memory (4 bytes each).
const BANKS: usize = 32;

/// The conflict degree of a warp's 32 accesses of `bytes` each (4, 8 or
/// 16) at the byte addresses `addrs`: the lanes are served `128 / bytes`
/// at a time, and a group's degree is the most distinct 4-byte words any
/// bank receives (the same word is a broadcast). For 16-byte accesses it is
/// the 16-byte rule of the module doc per 8 lanes.
pub(crate) const fn warp_degree(addrs: &[usize; 32], bytes: usize) -> usize {
    let per = WAVEFRONT_BYTES / bytes;
    let words = bytes / 4;
    let mut worst = 0;
    let mut first = 0;
    while first < 32 {
        let mut bank = 0;
        while bank < BANKS {
            // distinct words in `bank` among lanes first .. first + per
            let mut count = 0;
            let mut k = first;
            while k < first + per {
                let mut w = 0;
                while w < words {
                    let word = addrs[k] / 4 + w;
                    if word % BANKS == bank {
                        let mut seen = false;
                        let mut p = first;
                        while p < k {
                            let mut v = 0;
                            while v < words {
                                if addrs[p] / 4 + v == word {
                                    seen = true;
                                }
                                v += 1;
                            }
                            p += 1;
                        }
                        if !seen {
                            count += 1;
                        }
                    }
                    w += 1;
                }
                k += 1;
            }
            if count > worst {
                worst = count;
            }
            bank += 1;
        }
        first += per;
    }
    worst
}

/// The conflict degree of a warp's accesses of `access_bytes` each, lane
/// `l` at element `at[l]` of `layout` (elements of `elem_bytes`): the
/// addresses the layout gives, then [`warp_degree`]. Every plan's conflict
/// count (copy, `ldmatrix`, accumulator store) is this, per step.
pub(crate) const fn access_degree(
    layout: &ComposedLayout,
    f: &Flat,
    at: &[(usize, usize); 32],
    elem_bytes: usize,
    access_bytes: usize,
) -> usize {
    let mut addrs = [0usize; 32];
    let mut l = 0;
    while l < 32 {
        let (r, c) = at[l];
        addrs[l] = layout.swizzle.apply(flat_offset(f, &[r, c])) as usize * elem_bytes;
        l += 1;
    }
    warp_degree(&addrs, access_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The 16-byte rule of the module doc, written out: an independent
    // oracle for `warp_degree` of 16-byte accesses.
    /// Bytes of one shared-memory access of a lane here (128 bits).
    const ACCESS_BYTES: usize = 16;

    /// Groups of banks a 16-byte access can fall in (32 banks of 4 bytes).
    const GROUPS: usize = 8;

    /// Lanes served together.
    const PHASE_LANES: usize = 8;

    /// The conflict degree of 8 lanes accessing 16 bytes at the byte addresses
    /// `addrs`: the most distinct addresses that fall in one group of banks.
    fn phase_degree(addrs: &[usize; PHASE_LANES]) -> usize {
        let mut worst = 0;
        let mut g = 0;
        while g < GROUPS {
            // distinct addresses in group g
            let mut count = 0;
            let mut k = 0;
            while k < PHASE_LANES {
                let a = addrs[k] / ACCESS_BYTES;
                if a % GROUPS == g {
                    let mut seen = false;
                    let mut p = 0;
                    while p < k {
                        if addrs[p] / ACCESS_BYTES == a {
                            seen = true;
                        }
                        p += 1;
                    }
                    if !seen {
                        count += 1;
                    }
                }
                k += 1;
            }
            if count > worst {
                worst = count;
            }
            g += 1;
        }
        worst
    }

    #[test]
    fn degrees_of_simple_patterns() {
        // 8 consecutive 16-byte vectors: conflict-free
        assert_eq!(phase_degree(&[0, 16, 32, 48, 64, 80, 96, 112]), 1);
        // all lanes read the same address: a broadcast
        assert_eq!(phase_degree(&[64; 8]), 1);
        // a column of a 128-byte-row tile: 8 rows, all in group 0
        assert_eq!(phase_degree(&[0, 128, 256, 384, 512, 640, 768, 896]), 8);
        // the first 64 bytes of two rows 128 bytes apart: groups 0..4 twice
        assert_eq!(phase_degree(&[0, 16, 32, 48, 128, 144, 160, 176]), 2);
        // rows 64 bytes apart, column of 8: groups 0 and 4, 4 each
        assert_eq!(phase_degree(&[0, 64, 128, 192, 256, 320, 384, 448]), 4);
    }

    #[test]
    fn warp_degree_of_16_byte_accesses_is_the_phase_degree() {
        // every 8-lane group of a few patterns, against phase_degree
        for stride in [16, 32, 64, 128, 144, 256] {
            let addrs: [usize; 32] = core::array::from_fn(|l| l * stride);
            let mut want = 0;
            for q in 0..4 {
                let p: [usize; 8] = core::array::from_fn(|k| addrs[8 * q + k]);
                want = want.max(phase_degree(&p));
            }
            assert_eq!(warp_degree(&addrs, 16), want, "stride {stride}");
        }
    }

    #[test]
    fn warp_degrees_of_small_accesses() {
        // 32 consecutive words: one wavefront, conflict-free
        assert_eq!(warp_degree(&core::array::from_fn(|l| 4 * l), 4), 1);
        // a column of a 128-byte-row tile: 32 words in bank 0
        assert_eq!(warp_degree(&core::array::from_fn(|l| 128 * l), 4), 32);
        // the same word for every lane: a broadcast
        assert_eq!(warp_degree(&[40; 32], 4), 1);
        // 8-byte pieces, 16 lanes per wavefront over two 64-byte row halves
        // 256 bytes apart: banks 0..16 twice
        let rows: [usize; 32] = core::array::from_fn(|l| (l / 8) * 256 + (l % 8) * 8);
        assert_eq!(warp_degree(&rows, 8), 2);
    }
}

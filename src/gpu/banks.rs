//! Shared-memory bank conflicts of a warp's 128-bit accesses, counted at
//! compile time.
//!
//! Shared memory has 32 banks of 4 bytes; a 16-byte access occupies 4 banks,
//! so the banks form 8 groups and a 16-byte address `a` falls in group
//! `(a / 16) mod 8`. A warp's 128-bit accesses (and each 8×8 matrix of an
//! `ldmatrix`) are served 8 lanes at a time (128 bytes, one wavefront); 8
//! lanes whose addresses fall in 8 different groups, or that read the same
//! address (a broadcast), take one wavefront. The **conflict degree** of 8
//! lanes is the most distinct addresses any group receives — the number of
//! wavefronts they need — and the degree of an access pattern is the largest
//! over its groups of 8 lanes: 1 means conflict-free.

/// Bytes of one shared-memory access of a lane here (128 bits).
const ACCESS_BYTES: usize = 16;

/// Groups of banks a 16-byte access can fall in (32 banks of 4 bytes).
const GROUPS: usize = 8;

/// Lanes served together.
pub(crate) const PHASE_LANES: usize = 8;

/// The conflict degree of 8 lanes accessing 16 bytes at the byte addresses
/// `addrs`: the most distinct addresses that fall in one group of banks.
pub(crate) const fn phase_degree(addrs: &[usize; PHASE_LANES]) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}

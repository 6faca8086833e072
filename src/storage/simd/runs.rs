//! Plain (cached) copies of a block's runs at the AVX-512 level: each run
//! moved by 64-byte loads and stores inline, in place of a `memcpy` call a
//! run, the destination stores on whole lines after a first unaligned
//! store, as glibc's `memcpy` does; a run under 64 bytes takes one masked
//! load and store.

use core::arch::x86_64::*;

/// Where a block's runs sit, repeated: `count2 × count` runs of `len`
/// bytes, run `(u, i)` at byte `u·src_step2 + i·src_step` of the source
/// and `u·dst_step2 + i·dst_step` of the destination (`u < count2`, `i <
/// count`, `i` inner).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Runs {
    pub(crate) count: usize,
    pub(crate) len: usize,
    pub(crate) src_step: usize,
    pub(crate) dst_step: usize,
    pub(crate) count2: usize,
    pub(crate) src_step2: usize,
    pub(crate) dst_step2: usize,
}

impl Runs {
    /// Bytes from the first run's start to the last run's end on the side
    /// whose runs are `step` and `step2` apart (`None` on overflow; 0 for
    /// no runs).
    pub(crate) fn extent(&self, step: usize, step2: usize) -> Option<usize> {
        if self.count == 0 || self.count2 == 0 || self.len == 0 {
            return Some(0);
        }
        let last = (self.count - 1).checked_mul(step)?;
        let last2 = (self.count2 - 1).checked_mul(step2)?;
        last.checked_add(last2)?.checked_add(self.len)
    }
}

/// Copies the runs `r` from `src` into `dst`.
///
/// # Panics
/// If a run reaches past `src` or `dst` (the plan never asks for that).
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn copy_runs(src: &[u8], dst: &mut [u8], r: Runs) {
    let (Some(se), Some(de)) = (
        r.extent(r.src_step, r.src_step2),
        r.extent(r.dst_step, r.dst_step2),
    ) else {
        panic!("runs past the address space");
    };
    assert!(se <= src.len() && de <= dst.len(), "runs past the buffers");
    if se == 0 {
        return;
    }
    let (sp, dp) = (src.as_ptr(), dst.as_mut_ptr());
    for u in 0..r.count2 {
        let (s2, d2) = (u * r.src_step2, u * r.dst_step2);
        for i in 0..r.count {
            let (so, dof) = (s2 + i * r.src_step, d2 + i * r.dst_step);
            // SAFETY: run `(u, i)` is `[u·step2 + i·step, … + len)` on each
            // side, inside the extents checked above (`u < count2`, `i <
            // count`), so both offsets stay in their slices; `src` and
            // `dst` are a shared and an exclusive borrow, so they do not
            // overlap.
            unsafe { run(sp.add(so), dp.add(dof), r.len) };
        }
    }
}

/// One run of `n` bytes from `s` to `d`.
///
/// # Safety
/// `s` valid for reads and `d` for writes of `n` bytes, not overlapping;
/// the CPU has AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn run(s: *const u8, d: *mut u8, n: usize) {
    if n < 64 {
        // bytes `0..n` of a line-sized vector: the masked-off bytes are
        // neither read nor written (no fault past the run either)
        let k: __mmask64 = (1u64 << n) - 1;
        // SAFETY: the mask selects exactly the `n` bytes the caller vouches
        // for on each side; AVX-512 BW is enabled.
        unsafe { _mm512_mask_storeu_epi8(d.cast(), k, _mm512_maskz_loadu_epi8(k, s.cast())) };
        return;
    }
    // SAFETY: every load and store below touches 64 bytes at byte
    // `j` of the run with `0 ≤ j ≤ n − 64`, inside the `n` bytes the caller
    // vouches for; the aligned store's address `d + j` is a multiple of 64
    // (`j` starts at `head`, `d + head` is the first line boundary after
    // `d`, and steps by 64). Overlapping stores (the first and last ones
    // with the body's) write the same bytes again: `s` and `d` do not
    // overlap, so the values read do not change.
    unsafe {
        _mm512_storeu_si512(d.cast(), _mm512_loadu_si512(s.cast()));
        let head = 64 - (d as usize & 63);
        let mut j = head;
        while j + 64 <= n {
            _mm512_store_si512(d.add(j).cast(), _mm512_loadu_si512(s.add(j).cast()));
            j += 64;
        }
        if j < n {
            let t = n - 64;
            _mm512_storeu_si512(d.add(t).cast(), _mm512_loadu_si512(s.add(t).cast()));
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::Runs;
    use crate::storage::simd::{copy_runs, Isa, Simd};

    /// [`copy_runs`] at every level, the source and the destination at
    /// every byte offset of a line (0–63), runs of the lengths around each
    /// vector size (one run, and three with gaps between them on both
    /// sides): the AVX-512 level (where the CPU has it) copies and says
    /// so, the others write nothing; the runs hold the source's bytes and
    /// the bytes around and between them are untouched.
    #[test]
    fn runs_match_plain_copies_at_every_offset() {
        const OUT: u8 = 0xEE;
        let lens = [
            0, 1, 15, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 200, 416, 512,
        ];
        let src: Vec<u8> = (0..4096u32).map(|i| (i * 37 + 11) as u8).collect();
        let sa = src.as_ptr().align_offset(64);
        let mut buf = alloc::vec![OUT; 4096];
        let da = buf.as_ptr().align_offset(64);
        for level in Simd::ALL {
            let isa = Isa::new(Some(level));
            let takes = level == Simd::Avx512 && Simd::detected() >= Simd::Avx512;
            // (under Miri, which has no AVX-512, a few offsets)
            let offsets = (0..64).filter(|o| !cfg!(miri) || o % 16 == 0 || o % 16 == 15);
            for so in offsets {
                for d in 0..64 {
                    if cfg!(miri) && d % 16 != 0 && d % 16 != 15 {
                        continue;
                    }
                    for len in lens {
                        for (count, src_step, dst_step, count2) in [
                            (1, 0, 0, 1),
                            (3, len + 5, len + 70, 1),
                            (2, len + 3, len, 2),
                        ] {
                            let r = Runs {
                                count,
                                len,
                                src_step,
                                dst_step,
                                count2,
                                src_step2: 2 * len + 9,
                                dst_step2: 2 * len + 64,
                            };
                            let de = r.extent(dst_step, r.dst_step2).unwrap();
                            let se = r.extent(src_step, r.src_step2).unwrap();
                            let s = &src[sa + so..sa + so + se];
                            buf.fill(OUT);
                            let at = da + d;
                            let ran = copy_runs(isa, s, &mut buf[at..at + de], r);
                            let case = alloc::format!("{level:?} {so}->{d} {r:?}");
                            assert_eq!(ran, takes, "{case}");
                            let mut want = alloc::vec![OUT; buf.len()];
                            if ran && len > 0 {
                                for u in 0..count2 {
                                    for i in 0..count {
                                        let x = u * r.src_step2 + i * src_step;
                                        let y = at + u * r.dst_step2 + i * dst_step;
                                        want[y..y + len].copy_from_slice(&s[x..x + len]);
                                    }
                                }
                            }
                            assert!(buf == want, "{case}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn extents_count_the_last_run_once_and_overflow_to_none() {
        let r = |count, len, step, count2| Runs {
            count,
            len,
            src_step: step,
            dst_step: step,
            count2,
            src_step2: step.saturating_mul(8),
            dst_step2: step.saturating_mul(8),
        };
        assert_eq!(r(3, 104, 1000, 1).extent(1000, 8000), Some(2104));
        assert_eq!(r(3, 104, 1000, 2).extent(1000, 8000), Some(10104));
        assert_eq!(r(0, 104, 1000, 2).extent(1000, 8000), Some(0));
        assert_eq!(r(3, 104, 1000, 0).extent(1000, 8000), Some(0));
        assert_eq!(r(5, 0, 1000, 1).extent(1000, 8000), Some(0));
        let huge = usize::MAX / 2 + 1;
        assert_eq!(r(3, 1, huge, 1).extent(huge, 0), None);
        assert_eq!(r(1, 1, 0, 3).extent(0, huge), None);
    }
}

//! The line writer of [`lines::rows`] for rows a fixed number of slots
//! into their lines ([`rows`]): the same lines written the same way,
//! with the offset a constant, so that the join of two pieces is one
//! `valignd` with its shift in the instruction (no `match` per line), the
//! first group peeled out of the loop (no test per line), and the lines
//! inside the rows streamed through one pointer, their bounds and line
//! offset checked once per call instead of per line.
//!
//! [`panel()`](super::panel()), [`direct()`](super::direct()) and the
//! packed unit transposes (`squares::direct`) write through it. Measured
//! in `panel` (same
//! case and rounds as its figures, wall clock): the shift a constant but
//! each line checked as `lines::rows` checks it, 7.4–8.4 GB/s, about as
//! fast as `lines::rows` itself (7.0–7.8); checked once per call, 9.2–9.4:
//! per-line checks kept LLVM from unrolling the 16 rows, so every join
//! went through the stack.

use core::arch::x86_64::*;

use super::lines::{self, line, put, store_line};

/// `$f::<S>` for the destination rows of `$to` in `$dst` (32-bit slots),
/// `S` the shift of [`rows`] for the offset in its line where the first
/// row starts, which every row shares (strides in whole lines): the
/// direct kernels' dispatch to one monomorphised body per offset.
macro_rules! by_shift {
    ($dst:expr, $to:expr, $f:ident) => {
        match $dst.as_ptr().wrapping_add($to.d).addr() / 4 % 16 {
            0 => $f::<0>,
            1 => $f::<15>,
            2 => $f::<14>,
            3 => $f::<13>,
            4 => $f::<12>,
            5 => $f::<11>,
            6 => $f::<10>,
            7 => $f::<9>,
            8 => $f::<8>,
            9 => $f::<7>,
            10 => $f::<6>,
            11 => $f::<5>,
            12 => $f::<4>,
            13 => $f::<3>,
            14 => $f::<2>,
            _ => $f::<1>,
        }
    };
}
pub(crate) use by_shift;

/// [`lines::rows`] for `P` rows that all start `(16 - S) % 16` slots
/// into a line (`S < 16`, checked; `S = 0`, rows on lines, is
/// `lines::rows`' own aligned loop), each of `16 · groups` slots, written
/// from `piece(g)`, the `g`-th 16 slots of every row (`g` from 0 up, once
/// each).
///
/// Pre: `dst[at[k] .. at[k] + 16 · groups]` are in bounds and disjoint.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn rows<const P: usize, const S: i32>(
    dst: &mut [u32],
    at: &[usize; P],
    groups: usize,
    nt: bool,
    mut piece: impl FnMut(usize) -> [__m512; P],
) {
    const { assert!(S < 16) };
    if S == 0 {
        return lines::rows(dst, at, groups, nt, piece);
    }
    let m = (16 - S) as usize;
    let len = 16 * groups;
    // every line the loop below streams, row k's slots `16g - m ..
    // 16g - m + 16` for `0 < g < groups`, lies inside `at[k] .. at[k] +
    // len`, on a whole line: both checked here once per call instead of
    // per line
    for &a in at {
        assert!(
            a.checked_add(len).is_some_and(|e| e <= dst.len())
                && dst.as_ptr().wrapping_add(a).addr() / 4 % 16 == m,
            "a destination row inside `dst`, {m} slots into a line"
        );
    }
    let base = dst.as_mut_ptr();
    // row `k` and the next one share the line where `k` ends (written
    // whole by a join); else both ends are partial lines of their own
    let meets_next = |k: usize| k + 1 < P && at[k + 1] == at[k] + len;
    if nt {
        // the partial lines at the rows' ends, stored plainly after the
        // loop (each read from memory first, the stores behind it
        // waiting): fetched for writing now, while the loop streams.
        // Measured (Intel Xeon guest, 2 vCPU, KVM; L1d 48 KiB, L2 2 MiB;
        // destination 16 bytes into a line, the bench, alternated with
        // the build before): bf16 [2048, 4096] packed tile transposes
        // 5.9 → 6.5 GB/s (0.83× → 1.01× of memcpy), s8 0.73× → 0.79×;
        // f32 tile transposes and column-major → tiles no change
        // (0.80–0.84× and 0.65–0.68× either way).
        for (k, &a) in at.iter().enumerate() {
            if k == 0 || !meets_next(k - 1) {
                super::super::prefetch_w(base.wrapping_add(a));
            }
            if !meets_next(k) {
                super::super::prefetch_w(base.wrapping_add(a + len - 1));
            }
        }
    }
    let first = piece(0);
    let mut carry = first;
    for g in 1..groups {
        let v = piece(g);
        for k in 0..P {
            let p = base.wrapping_add(at[k] + 16 * g - m);
            // SAFETY: `p` is the line `at[k] + 16g - m .. + 16` of `dst`,
            // inside `at[k] .. at[k] + len` (`16 - m ≤ 16g - m` and
            // `16g - m + 16 ≤ len - m`), which is inside `dst` (asserted
            // above), so valid for a 64-byte write; `base` comes from the
            // exclusive borrow `dst`, not used otherwise until after the
            // loop (`piece` borrows other buffers), so the write aliases
            // nothing live; `dst + at[k]` is `m` slots into a line
            // (asserted above), so `p` is 64-byte aligned, as `vmovntps`
            // and `vmovaps` require; the CPU has AVX-512 F (this
            // function's target feature). A streaming store is weakly
            // ordered: the mover's `finish` fences after the last one, as
            // for every streaming store.
            unsafe { store_line(p, join::<S>(v[k], carry[k]), nt) };
        }
        carry = v;
    }
    // the partial lines at the rows' ends, as `lines::rows` writes them
    for k in 0..P {
        if meets_next(k) {
            line(dst, at[k] + len - m, join::<S>(first[k + 1], carry[k]), nt);
        } else {
            put(dst, at[k] + len - m, carry[k], 16 - m, m);
        }
        if k == 0 || !meets_next(k - 1) {
            put(dst, at[k], first[k], 0, 16 - m);
        }
    }
}

/// The 16 slots of a line that starts `16 - S` slots before `v`'s: the
/// last `16 - S` of `prev`, then the first `S` of `v`.
#[target_feature(enable = "avx512f")]
#[inline]
fn join<const S: i32>(v: __m512, prev: __m512) -> __m512 {
    let (a, b) = (_mm512_castps_si512(v), _mm512_castps_si512(prev));
    // `valignd`: the 32 slots `a:b` shifted down by `S`
    _mm512_castsi512_ps(_mm512_alignr_epi32::<S>(a, b))
}

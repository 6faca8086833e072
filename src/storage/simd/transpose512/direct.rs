//! A gather block's 16 × 16 transposes written straight to the
//! destination ([`direct`]), without the stage and its copy-out: each
//! stage column (a destination row of `16 · groups` slots) is produced 16
//! slots at a time, group after group, and written by the line writer
//! (`shifted::rows`: every destination line once, whole and aligned, by a
//! streaming store; only a row's unjoined partial ends by ordinary
//! stores).
//!
//! The pattern (the column steps outermost, the groups inside, the next
//! column step's source lines hinted into L1, partial lines by ordinary
//! stores) is the one a standalone study of these transposes measured
//! fastest on f32[4096,4096] `{1,0:T(8,128)}` → `{0,1:T(8,128)}`.
//!
//! Measured in the library (AMD EPYC Zen 4, 32 KiB L1d, 1 MiB L2, 32 MiB
//! L3; the bench, wall clock, plain `Vec`s, three rounds of seven runs
//! alternated, load average 1.6–2.3): that case 8.9–9.9 GB/s against
//! 8.6–9.1 through the stage (`transpose512`) and 6.9–8.1 at the AVX2
//! level (0.72–0.99× of memcpy against 0.71–0.88× and 0.67–0.76×);
//! `T(8,128)` → column-major, one column step a block, 5.6–6.5 against
//! 6.1–6.9 through the stage, hence [`fits`]' rule. Five more rounds
//! against the AVX2 level (load average 1.7–2.5, memcpy 10–13 GB/s):
//! 7.4–8.3 → 9.5–10.2 GB/s (0.62–0.79×, median 0.69× → 0.76–0.97×,
//! median 0.90×); 64-byte aligned buffers 7.0–9.4 → 9.8–11.5 GB/s
//! (median 0.68× → 0.87×).

use core::arch::x86_64::*;

use super::lines::{hint_step, Dest};
use super::shifted::{self, by_shift};
use super::{load, t16_regs, Shape16};

/// Whether [`direct`] runs the block `sh` into `dst` at `to`: no loops
/// around the groups, each stage column (`16 · groups` slots) inside one
/// chunk, and every destination row in the same place in its line
/// (strides in whole lines); and more than one column step, so that the
/// next step's source lines can be hinted into L1 (with one, tiles →
/// column-major, it measured slower than the stage: see the figures).
pub(crate) fn fits(sh: &Shape16, to: &Dest) -> bool {
    let len = 16 * sh.groups;
    sh.n == 0
        && sh.cols > 1
        && len <= sh.ds
        && to.foot.is_multiple_of(sh.ds)
        && sh.ds.is_multiple_of(16)
        && to.chunk.is_multiple_of(16)
        && to.foot.is_multiple_of(16)
}

/// The block `sh` (which [`fits`] `to`) from `src` at `s` straight into
/// `dst`, whole lines streamed if `nt` (else ordinary stores: in cache,
/// f32[1024,1024] `{1,0:T(8,128)}` → `{0,1:T(8,128)}` 10.5 → 11.0 GB/s
/// against the stage, Intel Xeon guest, AVX-512, 2 MiB L2, a scratch
/// timing loop; the other direct kernels alike: tiles → column-major
/// 9.0 → 10.6, column-major → tiles 8.1 → 9.9); `ahead`: the next block's source offset
/// less this one's, hinted into L2 as this block is read.
///
/// Every destination row starts where the first does in its line
/// ([`fits`]: strides in whole lines), so the line writer's shift is a
/// constant: one monomorphised body per offset, through
/// `shifted::rows`, as [`panel`](super::panel())
/// writes. Measured on an Intel Xeon guest (2 vCPU, KVM; L1d 48 KiB, L2 2
/// MiB; AVX-512), f32[4096,4096] `{1,0:T(8,128)}` → `{0,1:T(8,128)}`,
/// destination 16 bytes into a line: see the README's figures for that
/// host. Through `lines::rows` each line took a jump on the offset, a
/// join through the stack and its own bounds and alignment checks.
#[target_feature(enable = "avx512f")]
pub(crate) fn direct(
    src: &[u32],
    s: usize,
    sh: &Shape16,
    dst: &mut [u32],
    to: &Dest,
    ahead: Option<isize>,
    nt: bool,
) {
    // rows off their lines: the pieces on the destination's lines
    // (`shifted::windowed`)
    let f = if to.off_line(dst) && sh.groups > 1 {
        by_shift!(dst, to, body, true)
    } else {
        by_shift!(dst, to, body, false)
    };
    f(src, s, sh, dst, to, ahead, nt);
}

/// [`direct`] with its destination rows `(16 - S) % 16` slots into their
/// lines; with `LINED` (rows off their lines) each step's pieces on the
/// destination's lines (`shifted::windowed`).
#[target_feature(enable = "avx512f")]
fn body<const S: i32, const LINED: bool>(
    src: &[u32],
    s: usize,
    sh: &Shape16,
    dst: &mut [u32],
    to: &Dest,
    ahead: Option<isize>,
    nt: bool,
) {
    // in bytes, as the hints take it
    let ahead = ahead.map(|x| x * 4);
    let (lined, split) = sh.windows(S as usize);
    for i in 0..sh.cols {
        let c0 = 16 * i;
        // the stage rows c0 .. c0 + 16, each 16 slots a group
        let at: [usize; 16] = core::array::from_fn(|k| to.at((c0 + k) * sh.ds));
        if LINED {
            shifted::windowed::<16, S>(
                dst,
                &at,
                sh.groups,
                nt,
                #[inline(always)]
                |j| {
                    let (rows, shift) = match j {
                        None => (&split, 0),
                        Some(j) => (&lined, j * sh.group.0),
                    };
                    let so = s + shift + c0;
                    for &r in rows {
                        let p = src.as_ptr().wrapping_add(so + r).cast::<u8>();
                        hint_step(p, ahead, i == 0, i + 1 == sh.cols);
                    }
                    let v: [__m512; 16] = core::array::from_fn(|r| load(src, so + rows[r]));
                    t16_regs(v)
                },
            );
            continue;
        }
        shifted::rows::<16, S>(
            dst,
            &at,
            sh.groups,
            nt,
            #[inline(always)]
            |g| {
                let so = s + g * sh.group.0 + c0;
                for &r in &sh.rows {
                    let p = src.as_ptr().wrapping_add(so + r).cast::<u8>();
                    hint_step(p, ahead, i == 0, i + 1 == sh.cols);
                }
                let rows: [__m512; 16] = core::array::from_fn(|r| load(src, so + sh.rows[r]));
                t16_regs(rows)
            },
        );
    }
}

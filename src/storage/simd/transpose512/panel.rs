//! A streaming gather block whose 16 source rows of a step all fall in
//! one L1d set (rows a multiple of 4 KiB apart: a column-major source's
//! columns), in two passes per piece of `h` source slots ([`panel`]):
//!
//! 1. copy the piece of every row of the block (`16 · groups` rows × `h`
//!    slots, each row read front to back, so consecutive loads fall in
//!    consecutive sets) into a panel of rows `h` slots apart — half an
//!    L1d at most, so it stays there — hinting the next block's same
//!    piece into L2 row by row;
//! 2. run [`direct()`] on the panel: its 16 rows of a step are now `4·h`
//!    bytes apart, over 16 different sets, as a tiled source's are, and
//!    its whole-line streaming stores fill the destination.
//!
//! ```text
//!   panel[r·h + c] = src[s + row(r) + b + c]             pass 1, c < h
//!   dst[at((b + c)·ds) + r] = panel[r·h + c]             pass 2
//! ```
//!
//! Read straight from the source (what [`Shape16::of`] leaves to the
//! AVX2 level's 8 rows at a time), every step's 16 loads need 16 lines of
//! one set, and more with the rows 16 bytes past a line: an 8-way or
//! 12-way set keeps few of them until the next step reads the rest of
//! those lines, so most lines come from L2 twice. The panel costs one
//! more write and read of each slot in L1 and removes those conflicts.
//!
//! Measured (AMD EPYC Zen 4, 32 KiB L1d 8-way, 1 MiB L2, 32 MiB L3;
//! `f32[4096,4096]` column-major → `{1,0:T(8,128)}`, plain `Vec`s): in
//! the bench, alternated with the AVX2 level's stage that ran this case
//! before (same rounds of 11 runs, load average 1.3–2.0, memcpy 9.7–13.0
//! GB/s), 7.8–7.9 → 8.4–8.7 GB/s by the wall clock (five rounds) and
//! 7.5–7.9 → 7.8–8.6 by the thread's CPU time (five rounds). In a
//! standalone study of the same transposes (same machine, same-run
//! alternations of 41 runs, load average 0.8–1.4) this pattern ran
//! 9.4–9.7 GB/s, within 4–6 % of the `{1,0:T(8,128)}` →
//! `{0,1:T(8,128)}` direct kernel, against 7.6–8.9 for [`direct()`] on
//! the source itself; what lost there (same runs): a panel of the whole
//! 128 × 128 block (64 KiB, in L2) 6.7–7.2 GB/s, 128 × 64 (32 KiB, the
//! whole L1d) 8.3–8.6, 16 slots a row 5.8; rows 64 bytes further apart
//! in the panel (`h + 16`) 3–9 % slower; the panel at the source's
//! offset in a line instead of line-aligned 5.3 against 6.7 (`h` =
//! 128); `prefetcht0` of the rows two ahead while copying 11–24 %
//! slower; the next block hinted in address order (whole rows) over the
//! copies instead of piece by piece 8.7–8.9 against 9.1, or over the
//! transposes 8.0–8.4; the panel's next column step not hinted into L1
//! 9.1 against 9.4–9.7; blocks of 256 slots a row (1 KiB runs) no
//! better, 512 slots 15–25 % slower.

use crate::storage::nest::Loop;

use super::{direct, direct_fits, load, store, Dest, Shape16};

/// How [`panel`] runs a block of shape `block`: `h` slots of each row
/// at a time, read back from a panel as the shape `sh`.
///
/// Invariant: `sh` is the panel's shape (`block`'s `16 · groups` rows `h`
/// slots apart, `h / 16 ≥ 2` column steps, `h` dividing the block's
/// columns) and [`direct_fits`] the destination.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Panel {
    block: Shape16,
    sh: Shape16,
    h: usize,
}

impl Panel {
    /// The panel for the block `sh` into `to`, with `room` slots of
    /// scratch, on a host whose L1d holds `l1d` bytes: for blocks whose
    /// rows [`Shape16::of`] leaves out (one loop, 4 KiB apart), with no
    /// loops around the groups; `h` the largest multiple of 16 that
    /// divides the block's columns, keeps the panel within half the L1d
    /// (32 slots of 128 rows on a 32 KiB or 48 KiB L1d, 64 on 64 KiB),
    /// and maps a piece's stage rows onto whole chunks; at least 32, so
    /// that [`direct()`] has two column steps.
    pub(crate) fn of(sh: &Shape16, to: &Dest, room: usize, l1d: usize) -> Option<Panel> {
        if !sh.one_set || sh.n != 0 {
            return None;
        }
        let (rows, cols) = (16 * sh.groups, 16 * sh.cols);
        let most = (l1d / 2 / (4 * rows)).min(cols) / 16 * 16;
        let h = (32..=most).rev().step_by(16).find(|&h| {
            cols.is_multiple_of(h)
                && h.checked_mul(sh.ds)
                    .is_some_and(|x| x.is_multiple_of(to.foot))
        })?;
        // (aligned to a line anywhere in the scratch)
        if rows.checked_mul(h)?.checked_add(15)? > room {
            return None;
        }
        let p = Shape16 {
            rest: [Loop::ONE; 16],
            n: 0,
            rows: core::array::from_fn(|k| k * h),
            groups: sh.groups,
            group: (16 * h, 16),
            cols: h / 16,
            ds: sh.ds,
            one_set: false,
        };
        direct_fits(&p, to).then_some(Panel {
            block: *sh,
            sh: p,
            h,
        })
    }
}

/// The block of [`Panel`] `p` from `src` at `s` into
/// `dst` through the panel in `scratch`, streaming whole lines; `ahead`:
/// the next block's source offset less this one's, hinted into L2 piece
/// by piece as this block's pieces are copied.
#[target_feature(enable = "avx512f")]
pub(crate) fn panel(
    src: &[u32],
    s: usize,
    p: &Panel,
    scratch: &mut [u32],
    dst: &mut [u32],
    to: &Dest,
    ahead: Option<isize>,
) {
    let (sh, h) = (&p.block, p.h);
    let rows = 16 * sh.groups;
    // the panel's rows on whole lines, so that pass 2 reads one line a row
    let a = scratch.as_ptr().addr() / 4 % 16;
    let o = (16 - a) % 16;
    let buf = &mut scratch[o..o + rows * h];
    // (Where the time goes, and what did not close the gap to the
    // standalone study's 9.4–10.2 GB/s; f32[4096,4096] column-major →
    // `{1,0:T(8,128)}`, plain `Vec`s, the bench, wall clock, medians of 9
    // runs alternated inside the bench lock, AMD EPYC Zen 4, load average
    // 2.2–2.9, memcpy 9.6–15 GB/s. Split by skipping one pass (output
    // wrong, timing only), five rounds: the whole block 7.7–8.8 GB/s,
    // pass 1 alone 17.5–22.4 (1.44–1.72× memcpy), pass 2 alone on a stale
    // panel 15.2–15.8 (1.19–1.39×); 1/(1/a + 1/b) gives 8.1–9.3, so the
    // passes hardly overlap and pass 2 takes 55–60 % of the time; the
    // study's pass 1 alone (its `p32x`) ran 8.1–12.6 in the same locked
    // runs: the copy is not the slower half. Tried in `lines::rows`: the
    // first group peeled out of the loop (no branch on `g` per store),
    // 6.2–8.7 against 6.5–8.6 for the code unchanged (six rounds), no
    // gain; that plus the join by one `vpermt2d` with its index computed
    // once instead of `valignd` through a `match` on `m`, 4.4–6.1 against
    // 6.5–8.3 (unchanged) and 8.3–8.8 (`int`), lost: pass 2 is that
    // sensitive to one shuffle per line, so it is bound by its
    // instructions rather than by memory. Here: pass 1 folded into pass
    // 2's first column step group by group (each group's 16 rows copied
    // just before their first transpose, so that reads and streaming
    // writes alternate every 1 KiB instead of every 16 KiB), 7.6–8.6
    // against 7.7–8.7 (four rounds), no gain. Earlier, in the study's
    // harness: `Dest::at` precomputed, `align` monomorphised on `m`, raw
    // unaligned loads, each within noise.)
    for b in (0..16 * sh.cols).step_by(h) {
        for r in 0..rows {
            let so = s + r / 16 * sh.group.0 + sh.rows[r % 16] + b;
            if let Some(x) = ahead {
                // the line of each 16 slots' last (a row 16 bytes into a
                // line reads two lines per 16 slots: the first is the
                // previous one's last), and at a row's first piece its
                // first line too
                let q = src.as_ptr().wrapping_add(so).wrapping_offset(x);
                if b == 0 {
                    super::super::prefetch_l2(q);
                }
                for c in (0..h).step_by(16) {
                    super::super::prefetch_l2(q.wrapping_add(c + 15));
                }
            }
            for c in (0..h).step_by(16) {
                store(buf, r * h + c, load(src, so + c));
            }
        }
        // stage rows `b ..`: whole chunks on (`h · ds` is a multiple of
        // `foot`, [`Panel::of`])
        let piece = Dest {
            d: to.d + b * sh.ds / to.foot * to.chunk,
            ..*to
        };
        direct(buf, 0, &p.sh, dst, &piece, None);
    }
}

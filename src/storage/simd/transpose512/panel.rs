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

use core::arch::x86_64::*;

use super::{direct_fits, load, shifted, store, t16_regs, Dest, Shape16};

/// Slots between the panel's rows: two pieces of 16 slots a row.
const PITCH: usize = 32;

/// How [`panel`] runs a block: the block's shape, which reads its rows
/// 16 at a time only through a panel.
///
/// Invariant: `block` has no loops around its groups, at least two
/// column steps, and [`direct_fits`] the destination.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Panel {
    block: Shape16,
}

impl Panel {
    /// The panel for the block `sh` into `to`, with `room` slots of
    /// scratch, on a host whose L1d holds `l1d` bytes: for blocks whose
    /// rows [`Shape16::of`] leaves out (one loop, 4 KiB apart), with no
    /// loops around the groups, whose panel (`16 · groups` rows of two
    /// 64-byte pieces) fits half the L1d (128 rows: 16 KiB, half of a
    /// 32 KiB L1d; a 48 KiB or 64 KiB one keeps it with more room).
    pub(crate) fn of(sh: &Shape16, to: &Dest, room: usize, l1d: usize) -> Option<Panel> {
        if !sh.one_set || sh.n != 0 || !direct_fits(sh, to) {
            return None;
        }
        let slots = (16 * sh.groups).checked_mul(PITCH)?;
        // (aligned to a line anywhere in the scratch)
        if slots.checked_add(15)? > room || slots.checked_mul(4)? > l1d / 2 {
            return None;
        }
        Some(Panel { block: *sh })
    }
}

/// The block of [`Panel`] `p` from `src` at `s` into `dst` through the
/// panel in `scratch`, streaming whole lines; `ahead`: the next block's
/// source offset less this one's, hinted into L2 piece by piece as this
/// block's pieces are copied.
///
/// Piece `i` (the slots `16i .. 16i + 16` of every row) sits in the
/// panel's half `i % 2`; while the line writer transposes group `g` of
/// piece `i`, the same group's rows of piece `i + 1` are copied into the
/// other half, so that the copy's loads (from L2) and the transposes'
/// streaming stores are in flight together.
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
    // every destination row starts where the first does in its line
    // (strides in whole lines, [`direct_fits`]): the writer's shift a
    // constant, one monomorphised body per offset
    let m = dst.as_ptr().wrapping_add(to.d).addr() / 4 % 16;
    let f = match m {
        0 => body::<0>,
        1 => body::<15>,
        2 => body::<14>,
        3 => body::<13>,
        4 => body::<12>,
        5 => body::<11>,
        6 => body::<10>,
        7 => body::<9>,
        8 => body::<8>,
        9 => body::<7>,
        10 => body::<6>,
        11 => body::<5>,
        12 => body::<4>,
        13 => body::<3>,
        14 => body::<2>,
        _ => body::<1>,
    };
    f(src, s, p, scratch, dst, to, ahead);
}

/// [`panel`] with its destination rows `(16 - S) % 16` slots into
/// their lines.
#[target_feature(enable = "avx512f")]
fn body<const S: i32>(
    src: &[u32],
    s: usize,
    p: &Panel,
    scratch: &mut [u32],
    dst: &mut [u32],
    to: &Dest,
    ahead: Option<isize>,
) {
    let sh = &p.block;
    let rows_n = 16 * sh.groups;
    // the panel's rows on whole lines, so that a piece of a row is one line
    let a = scratch.as_ptr().addr() / 4 % 16;
    let o = (16 - a) % 16;
    let buf = &mut scratch[o..o + rows_n * PITCH];
    // rows `r0 .. r0 + 16` of piece `i` into the panel, hinting the next
    // block's same lines into L2
    let copy = |buf: &mut [u32], i: usize, r0: usize| {
        let c = 16 * i;
        for r in r0..r0 + 16 {
            let so = s + r / 16 * sh.group.0 + sh.rows[r % 16] + c;
            if let Some(x) = ahead {
                // the line of the piece's last slot (a row 16 bytes into a
                // line reads two lines a piece: the first is the previous
                // piece's last), and at a row's first piece its first too
                let q = src.as_ptr().wrapping_add(so).wrapping_offset(x);
                if i == 0 {
                    super::super::prefetch_l2(q);
                }
                super::super::prefetch_l2(q.wrapping_add(15));
            }
            store(buf, r * PITCH + i % 2 * 16, load(src, so));
        }
    };
    for g in 0..sh.groups {
        copy(buf, 0, 16 * g);
    }
    for i in 0..sh.cols {
        let c0 = 16 * i;
        // the stage rows c0 .. c0 + 16, each `16 · groups` slots
        let at: [usize; 16] = core::array::from_fn(|k| to.at((c0 + k) * sh.ds));
        shifted::rows::<S>(
            dst,
            &at,
            sh.groups,
            #[inline(always)]
            |g| {
                if i + 1 < sh.cols {
                    copy(buf, i + 1, 16 * g);
                }
                let v: [__m512; 16] =
                    core::array::from_fn(|r| load(buf, (16 * g + r) * PITCH + i % 2 * 16));
                t16_regs(v)
            },
        );
    }
}

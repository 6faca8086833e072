//! A gather block whose 16 source rows of a step all fall in
//! one L1d set (rows a multiple of 4 KiB apart: a column-major source's
//! columns), transposed through an L1-resident panel ([`panel`]), a piece
//! of 16 source slots of every row at a time:
//!
//! 1. piece `i` of every row of the block (`16 · groups` rows × 16
//!    slots, one 64-byte load a row) is copied into half `i % 2` of a
//!    panel whose rows are two lines apart (16 KiB for 128 rows: half a
//!    32 KiB L1d, less of a 48 KiB or 64 KiB one, so it stays in L1),
//!    hinting a share of the next block's rows into L2, each whole;
//! 2. the line writer transposes piece `i` from the panel, where the 16
//!    rows of a step are 128 bytes apart, over 16 different sets, as a
//!    tiled source's are, and fills the destination with whole-line
//!    streaming stores ([`shifted::rows`]).
//!
//! The passes overlap: while group `g` of piece `i` is transposed, the
//! same group's rows of piece `i + 1` are copied into the other half, so
//! that the copy's loads and the writer's streaming stores are in flight
//! together (run one after the other, the two passes measured 17.5–22.4
//! and 15.2–15.8 GB/s alone and 7.7–8.8 together: they hardly overlapped).
//!
//! ```text
//!   panel[r·32 + 16·(i % 2) + c] = src[s + row(r) + 16i + c]      c < 16
//!   dst[at((16i + c)·ds) + r]    = panel[r·32 + 16·(i % 2) + c]
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
//! `f32[4096,4096]` column-major → `{1,0:T(8,128)}`, plain `Vec`s, the
//! bench, wall clock, medians of 9 runs alternated inside the bench lock
//! with the previous build, load average 1.6–1.9, memcpy 9.2–11.5 GB/s):
//! 7.6–8.1 GB/s (0.73–0.83× of memcpy) for two serial passes of 32 slots
//! a row through `lines::rows` → 9.2–9.4 (0.82–0.95×), three rounds;
//! over all 13 such rounds of the session (load average 1.2–2.3, memcpy
//! 8.1–11.5 GB/s) medians 8.3 → 9.0 GB/s, 0.83× → 0.90× (0.73–0.88× →
//! 0.77–1.02×), and by the thread's CPU time (three rounds) 0.65–0.91× →
//! 0.86–1.08×; 64-byte aligned buffers 0.86× → 0.92×. The same with the
//! passes serial again (load average 2.2–2.8): 7.6–7.8
//! against 8.9–9.9 overlapped. With the first kernel of this kind (two
//! serial passes), in the same bench, against the AVX2 level's stage that
//! ran this case before: 7.8–7.9 → 8.4–8.7 GB/s. What lost in a
//! standalone study of the serial passes (same machine, same-run
//! alternations of 41 runs, load average 0.8–1.4, where they ran
//! 9.4–9.7 GB/s): a panel of the whole 128 × 128 block (64 KiB, in L2)
//! 6.7–7.2 GB/s, 128 × 64 (32 KiB, the whole L1d) 8.3–8.6; rows 64 bytes
//! further apart in the panel 3–9 % slower; the panel at the source's
//! offset in a line instead of line-aligned 5.3 against 6.7;
//! `prefetcht0` of the rows two ahead while copying 11–24 % slower; the
//! next block hinted in address order (whole rows) over the copies
//! instead of piece by piece 8.7–8.9 against 9.1 (the order kept since,
//! for an Intel host where it wins by half: see `body`), or over the
//! transposes 8.0–8.4; blocks of 256 slots a row (1 KiB runs) no better,
//! 512 slots 15–25 % slower.
//!
//! Tried and not kept (Intel Xeon guest, CPUID family 6 model 167, 2
//! vCPU, KVM; L1d 48 KiB, L2 2 MiB, L3 105 MiB; the bench, this kernel
//! and the other alternated, two rounds each, memcpy 7.3–7.8 GB/s): the
//! block a destination line at a time, with no panel: window `b .. b + 16`
//! of the block's rows, chosen so that it is one whole destination line of
//! every destination row, transposed straight from the source over all
//! the column steps before the next window, and the line a row's tail
//! shares with the next row's head built from two transposes (the tail's
//! rows, the head's) and one blend. A C model of the access order alone
//! had read 16 columns at a time ahead of 128 (4.2–4.8 GB/s against 4.2 at
//! 1 KiB a column, 5.4–5.7 at 4 KiB); in the kernel, plain `Vec`s
//! 2.9 → 3.3–3.6 GB/s (0.39–0.40× → 0.42–0.46×), 64-byte aligned 3.6–3.7
//! → 3.8–3.9 (0.47–0.49× → 0.50–0.51×), with blocks four times as tall
//! (4 KiB a column) no better, two windows at a time no better, the next
//! block's hints left out no better. Not kept: a small gain on one host,
//! far below the target, against the figures above on Zen 4, where it
//! was not measured.

use core::arch::x86_64::*;

use super::shifted::{self, by_shift};
use super::{direct_fits, load, store, t16_regs, Dest, Shape16};

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
/// panel in `scratch`, whole lines streamed if `nt`; `ahead`: the next block's
/// source offset less this one's, hinted into L2 piece by piece as this
/// block's pieces are copied.
///
/// Piece `i` (the slots `16i .. 16i + 16` of every row) sits in the
/// panel's half `i % 2`; while the line writer transposes group `g` of
/// piece `i`, the same group's rows of piece `i + 1` are copied into the
/// other half, so that the copy's loads (from L2) and the transposes'
/// streaming stores are in flight together.
#[allow(clippy::too_many_arguments)] // reason: both sides, the scratch, the hints and the stores, flat
#[target_feature(enable = "avx512f")]
pub(crate) fn panel(
    src: &[u32],
    s: usize,
    p: &Panel,
    scratch: &mut [u32],
    dst: &mut [u32],
    to: &Dest,
    ahead: Option<isize>,
    nt: bool,
) {
    // every destination row starts where the first does in its line
    // (strides in whole lines, [`direct_fits`]): the writer's shift a
    // constant, one monomorphised body per offset
    // (rows off their lines: the pieces on the destination's lines,
    // `shifted::windowed`)
    let f = if to.off_line(dst) && p.block.groups > 1 {
        by_shift!(dst, to, body, true)
    } else {
        by_shift!(dst, to, body, false)
    };
    f(src, s, p, scratch, dst, to, ahead, nt);
}

/// [`panel`] with its destination rows `(16 - S) % 16` slots into
/// their lines; with `LINED` (rows off their lines) each step's pieces
/// on the destination's lines (`shifted::windowed`).
#[allow(clippy::too_many_arguments)] // reason: as `panel`'s
#[target_feature(enable = "avx512f")]
fn body<const S: i32, const LINED: bool>(
    src: &[u32],
    s: usize,
    p: &Panel,
    scratch: &mut [u32],
    dst: &mut [u32],
    to: &Dest,
    ahead: Option<isize>,
    nt: bool,
) {
    let sh = &p.block;
    let rows_n = 16 * sh.groups;
    // the panel's rows on whole lines, so that a piece of a row is one line
    let a = scratch.as_ptr().addr() / 4 % 16;
    let o = (16 - a) % 16;
    let buf = &mut scratch[o..o + rows_n * PITCH];
    // rows `r0 .. r0 + 16` of piece `i` into the panel, hinting a share
    // of the next block's rows into L2 (LLVM leaves it out of line, a call
    // per group; forced inline, 0.66–0.82× of memcpy against 0.66–0.83× in
    // the same three locked rounds, load average 2.1: no gain, not kept).
    //
    // The hints run along whole rows, so that memory sees each row's
    // 1 KiB as one run rather than 128 rows' lines taken one at a time:
    // on an Intel Xeon guest (2 vCPU, KVM; L1d 48 KiB, L2 2 MiB; AVX-512)
    // f32[4096,4096] column-major → `{1,0:T(8,128)}`, a scratch timing
    // loop of the plan beside memcpy (best of 7, two rounds), 3.9–4.1 →
    // 5.4–5.7 GB/s with the buffers 16 bytes into a line, 3.9–4.1 →
    // 7.0–7.5 on lines (memcpy 6.9–7.9); a read-only model of the block
    // there, 128 columns 1 KiB each, read 6.8 GB/s taking one line of
    // every column in turn, 11.8 in runs of four lines, 12.5 whole. On
    // AMD EPYC Zen 4 (the figures above) hinting in address order had
    // measured 8.7–8.9 GB/s against 9.1 piece by piece.
    let row = |r: usize| s + r / 16 * sh.group.0 + sh.rows[r % 16];
    let calls = sh.cols * sh.groups;
    let copy = |buf: &mut [u32], i: usize, r0: usize| {
        let c = 16 * i;
        if let Some(x) = ahead {
            // this call's share of the next block's rows (the calls run
            // over every piece of every group), each hinted into L2 whole,
            // in address order, and the line of its last slot (a row 16
            // bytes into a line ends in one more)
            let t = i * sh.groups + r0 / 16;
            for r in t * rows_n / calls..(t + 1) * rows_n / calls {
                let q = src.as_ptr().wrapping_add(row(r)).wrapping_offset(x);
                for k in 0..sh.cols {
                    super::super::prefetch_l2(q.wrapping_add(16 * k));
                }
                super::super::prefetch_l2(q.wrapping_add(16 * sh.cols - 1));
            }
        }
        for r in r0..r0 + 16 {
            let so = row(r) + c;
            store(buf, r * PITCH + i % 2 * 16, load(src, so));
        }
    };
    // (Tried, same case and bench as the figures above, wall clock: each
    // group's rows of the same piece copied just before their first
    // transpose, so that reads and streaming stores alternate every 1 KiB
    // but each transpose waits for its copy, 7.6–8.6 against 7.7–8.7
    // GB/s serial, no gain; the join by one `vpermt2d` instead of
    // `valignd`, 4.4–6.1 against 6.5–8.3, lost. Left: a plain `Vec`'s
    // column starts 16 bytes into a line, so each piece's load reads two
    // lines and the second comes from L2 again at the next piece (the
    // set has held 127 other columns' lines since); loads rounded down to
    // the line, output wrong, timing only, ran 9.5–10.4 GB/s against
    // 8.7–9.3 (0.96–0.99× against 0.84–0.89×, three rounds, load average
    // 2.6–3.0). Tried for it: the pieces between the first and the last
    // shifted onto whole lines (slot `16 - e` on, the first piece the
    // rows' first 16 slots, the last their last 16, the writer skipping
    // the rows those two share with their neighbours: one piece more per
    // block, two lines loaded twice a row instead of eight), 5.5–7.2 GB/s
    // against 6.7–8.5 for this code (0.60–0.73× against 0.77–0.92×, three
    // rounds, load average 1.5–2.2), lost.)
    for g in 0..sh.groups {
        copy(buf, 0, 16 * g);
    }
    for i in 0..sh.cols {
        let c0 = 16 * i;
        // the stage rows c0 .. c0 + 16, each `16 · groups` slots
        let at: [usize; 16] = core::array::from_fn(|k| to.at((c0 + k) * sh.ds));
        if LINED {
            let e = S as usize;
            shifted::windowed::<16, S>(
                dst,
                &at,
                sh.groups,
                nt,
                #[inline(always)]
                |j| {
                    // (the next step's copy a group a piece, as below)
                    if i + 1 < sh.cols {
                        copy(buf, i + 1, 16 * j.unwrap_or(sh.groups - 1));
                    }
                    // the panel's rows `e + 16j ..`, or its first `e` with
                    // its last `16 - e`
                    let r0 = |r: usize| match j {
                        Some(j) => e + 16 * j + r,
                        None if r < e => r,
                        None => rows_n - 16 + r,
                    };
                    let v: [__m512; 16] =
                        core::array::from_fn(|r| load(buf, r0(r) * PITCH + i % 2 * 16));
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

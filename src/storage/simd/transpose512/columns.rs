//! A gather block into a column-major destination written
//! straight to it ([`columns`]): tiles → column-major, where every stage
//! row (a source column) is one whole destination run, with the column
//! steps placed on the source's lines.
//!
//! The block's 16 source rows of a step sit alike in their lines (`h`
//! slots before a line boundary, the same for every row). A step at a
//! multiple of 16 slots off the rows' lines reads two lines of each row,
//! and the next step reads the second again; in a block of many tiles the
//! same row of every tile falls in one L1d set (tiles of 4 KiB), so that
//! line is gone by then and comes from L2 twice. Here the steps are
//! windows on the lines instead: step 0 joins the rows' first `h` slots
//! with their last `16 - h` (one mask blend of the first and the last 16
//! slots of the row), the others read the whole lines from slot `h` on;
//! every step still writes 16 whole destination rows (the columns of the
//! slots it read), through the same line writer as [`direct()`]
//! (`lines::rows`), so no destination slot is written twice.
//!
//! ```text
//!   step 0:      columns 0 .. h  and  16·cols − 16 + h .. 16·cols
//!   step i > 0:  columns h + 16·(i − 1) .. h + 16·i
//! ```
//!
//! Measured (AMD EPYC Zen 4, 32 KiB L1d 8-way, 1 MiB L2, 32 MiB L3;
//! `f32[4096,4096]` `{1,0:T(8,128)}` → column-major, blocks of 64 columns
//! × 256 rows; the bench, wall clock, plain `Vec`s, medians of 9–11 runs,
//! this kernel and [`direct()`] on the same blocks alternated inside the
//! bench lock, load average 1.1–2.9): 0.63–0.73× of memcpy against
//! 0.61–0.71×, ahead in all seven pairs (+0.01 to +0.06); 64-byte
//! aligned buffers (`h` = 0: [`direct()`]'s steps) unchanged. Without the
//! next step's L1 hints 0.66–0.77× against 0.71–0.73× (three pairs): no
//! gain, kept.
//!
//! Where the time goes on plain `Vec`s (the same case and machine, the
//! thread's CPU time, load average 3.2–4.6, medians of 7–9 runs): the
//! source's offset costs nothing (source 16 bytes into a line,
//! destination on lines: 0.87× against 0.82× with both on lines), the
//! destination's costs it all (source on lines, destination 16 bytes
//! in: 0.65×) — each destination row is one run of its column, 16 KiB
//! from the next row, so every run starts and ends in a partial line,
//! stored plainly. The partial lines' stores left out altogether (a
//! diagnostic build, wrong output) gave 0.71 / 0.86 / 0.70× against
//! 0.63 / 0.68 / 0.71× in the same rounds: joining a run's last partial
//! line with the next block's first (a carry kept per column) can win
//! at most that, and the rest of the gap to aligned buffers (0.87–1.08×
//! in those rounds) lies elsewhere, not pinned down. Tried and not
//! kept: the next step's partial destination lines hinted into L1
//! (`prefetcht0`, from step 0 on, the first step's before it), 0.59 /
//! 0.68 / 0.70× against 0.57 / 0.70 / 0.69× (three rounds alternated,
//! load average 3.2–3.3): no gain. Also tried: the shifted lines joined
//! by one `vpermt2d` with its index set once per call (`lines::rows`
//! picks its `valignd` by a `match` on the offset for every piece; its
//! loop over the rows stays rolled, the pieces on the stack, either
//! way), 0.59 / 0.59 / 0.68× against 0.55 / 0.61 / 0.66× (three rounds
//! alternated in one build, load average 4.0–4.3): no gain, so the
//! instructions of that loop are not what the offset costs. Later, with
//! the pieces read on the destination's lines instead
//! (`shifted::windowed`: no join at all, and the carried pieces no longer
//! live across the loop), 0.59–0.61× → 0.63–0.67× at 16 → 16 and
//! 0.55–0.64× → 0.68–0.80× at 0 → 32 (three runs of the bench
//! alternated, wall clock, idle machine): the joins cost some after all;
//! the rest of the gap to aligned buffers (0.83–1.07× in those runs) is
//! still open.
//!
//! [`direct()`]: fn@super::direct

use core::arch::x86_64::*;

use super::lines::Dest;
use super::shifted::{self, by_shift};
use super::{direct_fits, load, t16_regs, Shape16};
use crate::storage::simd::{prefetch, prefetch_l2};

/// Whether [`columns`] runs the block `sh` into `to`: where [`direct()`]
/// would (its [`direct_fits`]), for a column-major destination — each
/// stage row one whole chunk (`16 · groups = ds = foot`) — whose rows
/// all start alike in their lines (row offsets and the group step in
/// whole lines of slots), so that one window fits every row.
///
/// [`direct()`]: fn@super::direct
pub(crate) fn fits(sh: &Shape16, to: &Dest) -> bool {
    direct_fits(sh, to)
        && 16 * sh.groups == to.foot
        && sh.ds == to.foot
        && sh.rows.iter().all(|r| r % 16 == 0)
        && sh.group.0.is_multiple_of(16)
}

/// The block `sh` (which [`fits`] `to`) from `src` at `s` straight into
/// `dst`, whole lines streamed if `nt`, its column steps on the source's lines;
/// `ahead`: the next block's source offset less this one's, hinted into
/// L2 as this block is read.
///
/// Every destination row starts where the first does in its line
/// ([`fits`]), so the line writer's shift is a constant: one
/// monomorphised body per offset, as [`direct()`](fn@super::direct)
/// writes.
#[target_feature(enable = "avx512f")]
pub(crate) fn columns(
    src: &[u32],
    s: usize,
    sh: &Shape16,
    dst: &mut [u32],
    to: &Dest,
    ahead: Option<isize>,
    nt: bool,
) {
    // rows off their lines, in chunks shorter than a column: the pieces
    // on the destination's lines (`shifted::windowed`)
    let f = if to.off_line(dst) && sh.groups > 1 && to.chunk != to.foot {
        by_shift!(dst, to, body, true)
    } else {
        by_shift!(dst, to, body, false)
    };
    f(src, s, sh, dst, to, ahead, nt);
}

/// [`columns`] with its destination rows `(16 - S) % 16` slots into
/// their lines; with `LINED` (rows off their lines) each step's pieces
/// on the destination's lines (`shifted::windowed`).
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
    // the rows' first `h` slots end their first line (0: rows on lines)
    let a = src.as_ptr().wrapping_add(s).addr();
    let h = (64 - a % 64) % 64 / 4;
    let cols = sh.cols;
    // a row's last 16 slots
    let last = 16 * (cols - 1);
    // where step `i` reads (step 0 also at `last`), and which source
    // column its `k`-th slot is
    let off = |i: usize| match i {
        _ if h == 0 => 16 * i,
        0 => 0,
        _ => h + 16 * (i - 1),
    };
    let col = |i: usize, k: usize| match i {
        _ if h == 0 => 16 * i + k,
        0 if k < h => k,
        0 => last + k,
        _ => h + 16 * (i - 1) + k,
    };
    // slots `h..` of step 0 from the row's last 16
    let tail: __mmask16 = (0xFFFFu32 << h) as u16;
    let ahead = ahead.map(|x| x * 4);
    // rows off their lines (`S` slots to the first line boundary): the
    // pieces on the destination's lines (below)
    let (lined, split) = sh.windows(S as usize);
    for i in 0..cols {
        let at: [usize; 16] = core::array::from_fn(|k| to.at(col(i, k) * sh.ds));
        let (o, next) = (off(i), (i + 1 < cols).then(|| off(i + 1)));
        if LINED {
            shifted::windowed::<16, S>(
                dst,
                &at,
                sh.groups,
                nt,
                #[inline(always)]
                |j| {
                    // the 16 columns' slots of the source rows at `rows`
                    // (less `s`), `shift` on, transposed
                    let (rows, shift) = match j {
                        None => (&split, 0),
                        Some(j) => (&lined, j * sh.group.0),
                    };
                    for &r in rows {
                        let p = src.as_ptr().wrapping_add(s + shift + r);
                        hint(p, o, i == 0, h != 0, last, next, ahead);
                    }
                    let v: [__m512; 16] = core::array::from_fn(|r| {
                        let row = s + shift + rows[r];
                        if i == 0 && h != 0 {
                            let (first, end) = (load(src, row), load(src, row + last));
                            _mm512_mask_blend_ps(tail, first, end)
                        } else {
                            load(src, row + o)
                        }
                    });
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
                let so = s + g * sh.group.0;
                for &r in &sh.rows {
                    let p = src.as_ptr().wrapping_add(so + r);
                    hint(p, o, i == 0, h != 0, last, next, ahead);
                }
                let v: [__m512; 16] = core::array::from_fn(|r| {
                    let row = so + sh.rows[r];
                    if i == 0 && h != 0 {
                        let (first, end) = (load(src, row), load(src, row + last));
                        _mm512_mask_blend_ps(tail, first, end)
                    } else {
                        load(src, row + o)
                    }
                });
                t16_regs(v)
            },
        );
    }
}

/// The cache hints of one step for the source row at `row`, whose step
/// reads the 16 slots at slot `o` (the first step, `first`, also the
/// last 16 at `last` if `split`): the lines it reads in the next block
/// (`ahead` bytes on) into L2 — at the first step also the row's first
/// line, and with a split step its last line, which no window reads —
/// and the next step's line (at slot `next`) into L1.
#[inline(always)]
fn hint(
    row: *const u32,
    o: usize,
    first: bool,
    split: bool,
    last: usize,
    next: Option<usize>,
    ahead: Option<isize>,
) {
    if let Some(x) = ahead {
        let q = row.cast::<u8>().wrapping_offset(x);
        prefetch_l2(q.wrapping_add(4 * o + 63));
        if first {
            prefetch_l2(q);
            if split {
                prefetch_l2(q.wrapping_add(4 * last + 63));
            }
        }
    }
    if let Some(n) = next {
        prefetch(row.wrapping_add(n + 15));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::nest::Loop;

    /// Which blocks the kernel takes: tiles → column-major (a tile's 8
    /// rows paired across tiles, 64 columns, each stage row one chunk),
    /// not rows off the line grid of the first (a tile's rows 136 slots
    /// apart, or the paired tile 2056 on), not a stage row shorter than
    /// its chunk (a tiled destination's), not one column step.
    #[test]
    fn fits_only_column_major_destinations_of_rows_alike_in_their_lines() {
        let l = Loop::free;
        let to = |foot: usize| Dest {
            d: 0,
            foot,
            chunk: 4096,
        };
        let takes = |loops: &[Loop], foot: usize| {
            let sh = Shape16::of(loops).unwrap();
            fits(&sh, &to(foot))
        };
        let tiles = [l(32, 2048, 8), l(8, 128, 1), l(64, 1, 256)];
        assert!(takes(&tiles, 256));
        assert!(!takes(&[l(32, 2048, 8), l(8, 136, 1), l(64, 1, 256)], 256));
        assert!(!takes(&[l(32, 2056, 8), l(8, 128, 1), l(64, 1, 256)], 256));
        assert!(!takes(&tiles, 512));
        assert!(!takes(&[l(32, 2048, 8), l(8, 128, 1), l(16, 1, 256)], 256));
    }
}

//! The AVX2 level's tile transposes of gather blocks in panels: 8 source
//! rows of `w` contiguous slots (a row of a `T(8,128)` tile, or 64 slots of
//! each of 8 columns of a column-major array), transposed 8 × 8 at a time
//! along the rows, the next block's same panel hinted into L2 line by
//! line in address order as this one is read.
//!
//! ```text
//!   dst[d + c·ds + r] = src[s + r·ys + c]      r < 8, c < w
//! ```
//!
//! Streaming blocks whose chunks are pages run here, the previous block's
//! stage copied out a share after each panel
//! (`kernels::UnitMover::gather_overlapped`); see [`gather`] for why the
//! hints go in address order, and why the panels run only there.

use core::arch::x86_64::*;

use crate::storage::kernels::gather_rows;
use crate::storage::nest::Loop;

/// A gather block as panels: `rest` (source order) around `groups` groups
/// of 8 rows, rows `ys` apart in the source and 1 apart in the stage,
/// each row `w` slots contiguous in the source and `ds` apart in the
/// stage.
///
/// Invariant: `w` is a multiple of 64 (a row's lines come 4 to a step:
/// see [`Hint`]);
/// every (row, column) of every panel and every value of `rest` is one
/// slot of the block's loops.
#[derive(Clone, Copy, Debug)]
pub(in crate::storage::simd) struct Panels {
    rest: [Loop; 16],
    n: usize,
    ys: usize,
    groups: usize,
    w: usize,
    ds: usize,
}

impl Panels {
    /// The panels of the gather loops `loops`, if they have them: the
    /// innermost loop contiguous in the source (merged with the loop that
    /// continues it on both sides, if there is one), the one around it
    /// contiguous in the stage, counts of whole 8-row groups and of a
    /// multiple of 64 columns.
    pub(in crate::storage::simd) fn of(loops: &[Loop]) -> Option<Panels> {
        let (&x, rest) = loops.split_last()?;
        let (&y, rest) = rest.split_last()?;
        if x.src != 1 || y.dst != 1 || x.n % 8 != 0 || y.n % 8 != 0 {
            return None;
        }
        let mut r = [Loop::ONE; 16];
        r.get_mut(..rest.len())?.copy_from_slice(rest);
        let mut n = rest.len();
        let mut w = x.n;
        // the loop continuing the columns in both the source and the
        // stage: one longer row (a gather visits every slot once, in
        // whatever order)
        let continues = |l: &Loop| l.src == x.n && Some(l.dst) == x.n.checked_mul(x.dst);
        if let Some(i) = r[..n].iter().position(continues) {
            w = w.checked_mul(r[i].n)?;
            r.copy_within(i + 1..n, i);
            n -= 1;
        }
        if w % 64 != 0 {
            return None;
        }
        Some(Panels {
            rest: r,
            n,
            ys: usize::try_from(y.src).ok()?,
            groups: usize::try_from(y.n / 8).ok()?,
            w: usize::try_from(w).ok()?,
            ds: usize::try_from(x.dst).ok()?,
        })
    }
}

/// The next block's lines of one panel, hinted 4 a step (each row's
/// `w / 16` lines, whole rows a step or whole steps a row, as `w` is a
/// multiple of 64): step `c` hints lines `4c .. 4c + 4` of the panel in
/// row order, and at a row's last step the line after them too where
/// that holds the row's last bytes and is not the next row's first line.
/// Only hinted, never dereferenced.
struct Hint {
    /// The current row, and the line within it.
    row: *const u8,
    line: usize,
    /// Lines a row (`w / 16`), and bytes between rows.
    per_row: usize,
    ys: usize,
    /// Whether a row's last bytes are on a line of their own: rows that
    /// do not start a line, apart (contiguous rows have them on the next
    /// row's first line).
    tail: bool,
}

impl Hint {
    /// The hints for the panel of rows `ys` slots apart from slot `so` of
    /// `src`, `w` slots each, in the block `ahead` slots on; `None`
    /// without a next block.
    #[inline(always)]
    fn new(src: &[u32], so: usize, ys: usize, w: usize, ahead: Option<isize>) -> Option<Hint> {
        let row = src
            .as_ptr()
            .wrapping_add(so)
            .wrapping_offset(ahead?)
            .cast::<u8>();
        Some(Hint {
            row,
            line: 0,
            per_row: w / 16,
            ys: 4 * ys,
            tail: row.addr() % 64 != 0 && ys != w,
        })
    }

    /// Hints the next 4 lines.
    #[inline(always)]
    fn step(&mut self) {
        let p = self.row.wrapping_add(64 * self.line);
        for k in 0..4 {
            crate::storage::simd::prefetch_l2(p.wrapping_add(64 * k));
        }
        self.line += 4;
        if self.line == self.per_row {
            if self.tail {
                crate::storage::simd::prefetch_l2(p.wrapping_add(256));
            }
            self.line = 0;
            self.row = self.row.wrapping_add(self.ys);
        }
    }
}

/// A gather block of panels `p` from `src` at `s` into the stage `out`:
/// the loops around the panels in source order, each panel's 8 rows read
/// front to back 32 bytes at a time, the next block's same panel
/// (`ahead` slots on) hinted into L2 in address order, a share a step.
///
/// Run only where the previous block's copy-out overlaps the panels
/// (`kernels::UnitMover::gather_overlapped`, with its figures): alone,
/// each stage copied out after its block, they measured below the shared
/// loops (f32[4096,4096] `{1,0:T(8,128)}` → `{0,1:T(8,128)}` 0.73–0.77×
/// of memcpy against 0.80–0.81×, AMD EPYC Zen 3). In a standalone model
/// of that case (16 whole source tiles a block, a panel a tile, nothing
/// copied out), the next block's lines hinted in the order the block
/// reads its own (8 rows × 32 bytes a step, the shared loops' way) took
/// 1.05–1.10 memcpy times, hinted in address order 1.41–1.46; in the
/// kernel, a row-end hint for contiguous rows too (the next row's first
/// line, hinted twice) left the prefetches stalling on full miss
/// buffers (14% of the kernel's samples at one hint), 0.74–0.77× → 0.82–0.86×
/// of memcpy without it.
///
/// After each panel, `tick(k, of)`: `k` of the block's `of` panels are
/// gathered (the caller copies out a share of the previous block's stage
/// there).
#[target_feature(enable = "avx2")]
pub(in crate::storage::simd) fn gather(
    src: &[u32],
    s: usize,
    p: &Panels,
    out: &mut [u32],
    ahead: Option<isize>,
    mut tick: impl FnMut(usize, usize),
) {
    // (`gather_rows` calls back once per value of the loops but its last,
    // with that loop's first offsets: a stand-in last loop)
    let mut loops = [Loop::ONE; 17];
    loops[..p.n].copy_from_slice(&p.rest[..p.n]);
    let loops = &loops[..p.n + 1];
    let (w, ys, ds) = (p.w, p.ys, p.ds);
    let of = p.rest[..p.n]
        .iter()
        .fold(p.groups, |k, l| k.saturating_mul(l.n as usize));
    let mut k = 0;
    gather_rows(loops, 0, |sb, db, _, _, _| {
        for g in 0..p.groups {
            let (so, dof) = (s + sb + 8 * g * ys, db + 8 * g);
            let rows: [&[u32]; 8] = core::array::from_fn(|r| &src[so + r * ys..][..w]);
            let mut hint = Hint::new(src, so, ys, w, ahead);
            for c in (0..w).step_by(8) {
                if let Some(h) = hint.as_mut() {
                    h.step();
                }
                let v: [__m256; 8] = [0, 1, 2, 3, 4, 5, 6, 7].map(|r| {
                    bytemuck::pod_read_unaligned(bytemuck::cast_slice::<u32, u8>(
                        &rows[r][c..c + 8],
                    ))
                });
                for (j, v) in super::t8_regs(v).iter().enumerate() {
                    let o = &mut out[dof + (c + j) * ds..][..8];
                    bytemuck::cast_slice_mut::<u32, u8>(o).copy_from_slice(bytemuck::bytes_of(v));
                }
            }
            k += 1;
            tick(k, of);
        }
    });
}

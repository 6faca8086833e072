//! The AVX-512 level of the gather blocks' tile transposes of 32-bit
//! slots: 16 × 16 at a time, each step reading 64 bytes (16 slots) of 16
//! source rows, so that every source line is read whole by one step
//! (the AVX2 level reads 32 bytes of 8 rows per 8 × 8 transpose, each line
//! in two calls), and writing 16 stage columns of 64 bytes.
//!
//! ```text
//!   dst[d + c·ds + r] = src[s + row(r) + c]      r, c < 16
//! ```
//!
//! A block's loops (source order, as `choose::gather` leaves them, the
//! innermost contiguous in the source, the one around it contiguous in the
//! stage) are reshaped first ([`Shape16::of`]): the loop that continues
//! the source-contiguous one on both sides (the stage's next chunk, the
//! same source rows 8 slots on) is merged into it, so that a step reads 16
//! slots of a row; where the rows come 8 at a time (a tile's 8 rows of
//! `T(8,128)`), the loop whose stage stride continues them pairs them into
//! 16 (two tiles' rows, each 64 bytes). A gather visits every slot once
//! whatever the order, so the reshaped loops move the same slots.
//!
//! Measured (AMD EPYC Zen 4, 32 KiB L1d, 1 MiB L2, 32 MiB L3; the bench,
//! wall clock, plain `Vec`s, this level and the AVX2 level alternated in
//! the same rounds of seven runs, load average 1.3–1.9, memcpy 9.6–10.8
//! GB/s while another engineer's work shared the memory): f32[4096,4096]
//! `{1,0:T(8,128)}` → `{0,1:T(8,128)}` 7.97–8.07 → 8.65 GB/s (0.79–0.82×
//! → 0.88–0.91× of memcpy), `T(8,128)` → column-major 5.30–5.35 → 6.90
//! GB/s (0.50–0.54× → 0.71×); four more rounds (load average 1.5–2.0,
//! memcpy 9.2–12 GB/s): 6.85–7.21 → 7.87–8.50 GB/s (0.68–0.75× →
//! 0.65–0.90×, three of four rounds ≥ 0.84×) and 4.79–4.96 → 6.24–6.76
//! GB/s (0.47–0.50× → 0.60–0.74×). Without the line-aligned steps (every
//! step at a multiple of 16 slots, so a `Vec`'s rows, 16 bytes into a
//! line, read two lines a step) 8.58–8.70 and 7.07–7.19 GB/s: no change
//! on these two (tiles → column-major reads one step a row anyway); they
//! are kept for strided rows, where a line read twice is lost in between
//! (a column-major source, 6.4–6.8 → 7.2–7.5 GB/s, see [`Shape16::of`]).
//! Without the next block's L2 hints 5.68–5.90 and 5.35–5.45 GB/s. Split (same case,
//! nothing copied out after the first run, or nothing gathered): the
//! gather alone 13.2–13.4 GB/s (the AVX2 level's 12.2–12.7), the copy-out
//! alone 36–39 GB/s, so the reads still take most of the time, and
//! together they take longer than the sum (8.1–8.6 GB/s).
//!
//! Tried and not kept (same rounds' conditions, three rounds): the next
//! block's lines hinted while the stage is copied out instead of while
//! this block is gathered (the packed transposes' `squares::NextSource`
//! idea, here the rows of the next block a share per chunk, or two shares
//! per chunk over the first half): `{1,0:T(8,128)}` → `{0,1:T(8,128)}`
//! 7.9–8.4 and 7.6–7.8 GB/s against 7.8–8.6, `T(8,128)` → column-major
//! 5.5–5.9 and 5.1–5.7 against 5.6–6.6. All the next block's lines
//! hinted in one burst as a block starts (three rounds, load average
//! 1.4–2.3): 6.5–7.4 against 8.1–9.2 GB/s, 3.9–5.0 against 6.5–7.1.
//! One 64-byte `unsafe` load and store per row instead of the two
//! 32-byte halves (load average 3.1–3.4): 7.3 against 7.1–7.3 GB/s,
//! 5.0–5.8 against 5.6–5.7, so the halves stay (no `unsafe` here).
//! The last group's L1 hints (rows of a block read much later) left out:
//! 8.3–8.6 against 8.3–8.7 GB/s, 6.2–6.5 against 6.1–6.9: no change.

use core::arch::x86_64::*;

use crate::storage::caches::Caches;
use crate::storage::kernels::gather_rows;
use crate::storage::nest::Loop;

mod columns;
pub(super) use columns::{columns, fits as columns_fits};
mod direct;
pub(super) use direct::{direct, fits as direct_fits};
pub(super) mod lines;
pub(super) use lines::Dest;
mod panel;
pub(super) use panel::{panel, Panel};
pub(super) mod shifted;

/// A gather block as 16 × 16 transposes: `rest` (source order) around
/// groups of 16 rows, each `group` apart in the source and 16 slots apart
/// in the stage; row `r` of a group at `r % 8 · y.src + r / 8 · pair`
/// (`pair = 8 · y.src` when the rows are one loop); `cols` columns of 16
/// slots, contiguous in the source, `ds` apart in the stage.
///
/// Invariant: `cols ≥ 1`, `groups ≥ 1`; every (row, column) of every group
/// and every value of `rest` is one slot of the block's loops.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape16 {
    rest: [Loop; 16],
    n: usize,
    /// Source offsets of a group's rows.
    rows: [usize; 16],
    groups: usize,
    /// Source and stage steps between groups.
    group: (usize, usize),
    cols: usize,
    ds: usize,
    /// Whether a group's 16 rows are one loop whose stride is a multiple
    /// of 4 KiB (see [`Shape16::of`]).
    one_set: bool,
}

impl Shape16 {
    /// The 16 × 16 shape of the gather loops `loops`, if they have one:
    /// the innermost loop contiguous in the source (merged with the loop
    /// that continues it on both sides if its count is not a multiple of
    /// 16), the one around it contiguous in the stage, 16 rows of it at a
    /// time or 8 paired by a loop of stage stride 8; not for rows that
    /// all fall in one L1d set (a column-major source: see the comment
    /// inside), which only [`panel`] reads 16 at a time.
    pub(super) fn of(loops: &[Loop]) -> Option<Shape16> {
        Self::any(loops).filter(|sh| !sh.one_set)
    }

    /// [`Shape16::of`], rows in one L1d set included.
    pub(super) fn any(loops: &[Loop]) -> Option<Shape16> {
        let (&x, rest) = loops.split_last()?;
        let (&y, rest) = rest.split_last()?;
        if x.src != 1 || y.dst != 1 || x.n == 0 || y.n == 0 || rest.len() > 16 {
            return None;
        }
        let mut r = [Loop::ONE; 16];
        r[..rest.len()].copy_from_slice(rest);
        let mut n = rest.len();
        let take = |r: &mut [Loop; 16], n: &mut usize, f: &dyn Fn(&Loop) -> bool| {
            let i = r[..*n].iter().position(f)?;
            let l = r[i];
            r.copy_within(i + 1..*n, i);
            *n -= 1;
            Some(l)
        };
        // columns: 16 source slots a step
        let mut x = x;
        if x.n % 16 != 0 {
            let (run, sd) = (x.n, x.n.checked_mul(x.dst)?);
            let c = take(&mut r, &mut n, &|l| l.src == run && l.dst == sd)?;
            x.n = x.n.checked_mul(c.n)?;
        }
        if x.n % 16 != 0 {
            return None;
        }
        // rows: 16 of `y`, or 8 of `y` twice
        let (ys, mut rows) = (y.src as usize, [0usize; 16]);
        // (16 rows of one loop whose stride is a multiple of 4 KiB, as a
        // column-major source's columns are, all fall in one set of an L1d
        // whose ways are 4 KiB — 32 KiB 8-way and 48 KiB 12-way alike, as
        // every virtually indexed L1d of x86-64 hosts so far: more rows
        // than ways. Measured on f32[4096,4096] column-major →
        // `T(8,128)`, plain `Vec`s: 6.4–6.8 GB/s, 7.2–7.5 with the aligned
        // steps below, against 7.6–7.7 for the AVX2 level's 8 rows at a
        // time in the same rounds: those stay with it. Tried on them too:
        // `direct` without its L1 hints (which a standalone study found
        // 5–30% ahead of the stage under load): on the idle machine
        // 7.32–7.37 GB/s against 6.94–7.23 for the AVX2 stage in the same
        // runs, memcpy 10.8–12.8 GB/s: no gain, not kept. Streaming,
        // [`panel`] reads them 16 at a time after copying them into a
        // panel whose rows are not 4 KiB apart)
        let one_set = y.n % 16 == 0 && y.src.is_multiple_of(1024);
        let (groups, group) = if y.n % 16 == 0 {
            for (k, o) in rows.iter_mut().enumerate() {
                *o = k * ys;
            }
            (y.n as usize / 16, (16 * ys, 16))
        } else if y.n == 8 {
            let p = take(&mut r, &mut n, &|l| l.dst == 8 && l.n % 2 == 0)?;
            let ps = p.src as usize;
            for (k, o) in rows.iter_mut().enumerate() {
                *o = k % 8 * ys + k / 8 * ps;
            }
            (p.n as usize / 2, (2 * ps, 16))
        } else {
            return None;
        };
        Some(Shape16 {
            rest: r,
            n,
            rows,
            groups,
            group,
            cols: x.n as usize / 16,
            ds: x.dst as usize,
            one_set,
        })
    }
}

impl Shape16 {
    /// The source rows (offsets from the block's first slot) of the
    /// pieces [`shifted::windowed`] takes, for stage columns `e` slots
    /// before their first destination line boundary (`0 < e < 16`): slots
    /// `e .. e + 16` of a column (piece `j` of the lines is `j` groups
    /// on), and its first `e` slots with its last `16 - e`.
    pub(super) fn windows(&self, e: usize) -> ([usize; 16], [usize; 16]) {
        let len = 16 * self.groups;
        let row = |t: usize| t / 16 * self.group.0 + self.rows[t % 16];
        (
            core::array::from_fn(|i| row((e + i).min(len - 1))),
            core::array::from_fn(|i| row(if i < e { i } else { len - 16 + i })),
        )
    }
}

/// A gather block of shape `sh` from `src` at `s` into the stage `out`,
/// 16 × 16 at a time: groups of 16 rows outermost (each read through
/// every other loop before the next, as the AVX2 level reads its 8-row
/// groups), the columns innermost, so the rows are read front to back.
/// `ahead`: the source offset of the next block less this one's, whose
/// lines are hinted into L2 as this block's are read.
#[target_feature(enable = "avx512f")]
pub(super) fn gather_transpose_u32(
    src: &[u32],
    s: usize,
    sh: &Shape16,
    out: &mut [u32],
    ahead: Option<isize>,
) {
    let hint = |at: usize, first: bool| {
        if let Some(x) = ahead {
            // the line of the step's last slot (a row 16 bytes into a line
            // reads two lines a step: its first line is the previous
            // step's last), and at a row's first step its first line too
            let p = src.as_ptr().wrapping_add(at).wrapping_offset(x);
            super::prefetch_l2(p.wrapping_add(15));
            if first {
                super::prefetch_l2(p);
            }
        }
    };
    // the next group's rows, one sweep ahead, into L1 (as the AVX2 level
    // prefetches its next 8-row group), when a sweep of the loops inside
    // the groups fits [`Caches::prefetch_ahead`]
    let sweep = sh.rest[..sh.n]
        .iter()
        .fold(16 * 64 * sh.cols as u64, |b, l| b.saturating_mul(l.n));
    let next =
        (sh.groups > 1 && sweep <= Caches::host().prefetch_ahead() as u64).then_some(sh.group.0);
    // (`gather_rows` calls back once per value of the loops but its last,
    // with that loop's first offsets: a stand-in last loop)
    let mut loops = [Loop::ONE; 17];
    loops[..sh.n].copy_from_slice(&sh.rest[..sh.n]);
    let loops = &loops[..sh.n + 1];
    // line-aligned steps where every row starts the same number of slots
    // `h` before a line: the first step reads the rows' first 16 slots,
    // the next ones whole lines from slot `h`, the last the rows' last 16
    // slots (overlapping steps write the same values twice)
    let uniform = sh.rows.iter().all(|r| r % 16 == 0)
        && (sh.groups == 1 || sh.group.0.is_multiple_of(16))
        && sh.rest[..sh.n].iter().all(|l| l.src % 16 == 0);
    let a = src.as_ptr().wrapping_add(s).addr();
    let h = if uniform && a.is_multiple_of(4) {
        (64 - a % 64) % 64 / 4
    } else {
        0
    };
    let (cols, win) = (sh.cols, h != 0 && sh.cols >= 2);
    let steps = if win { cols + 1 } else { cols };
    let col = |i: usize| match i {
        _ if !win => 16 * i,
        0 => 0,
        _ if i == cols => 16 * (cols - 1),
        _ => h + 16 * (i - 1),
    };
    for g in 0..sh.groups {
        let (gs, gd) = (s + g * sh.group.0, g * sh.group.1);
        gather_rows(loops, 0, |sb, db, _, _, _| {
            for i in 0..steps {
                let c = col(i);
                let so = gs + sb + c;
                for &r in &sh.rows {
                    hint(so + r, i == 0);
                    if let Some(o) = next {
                        super::prefetch(src.as_ptr().wrapping_add(so + r + o + 15));
                    }
                }
                t16(src, so, &sh.rows, out, gd + db + c * sh.ds, sh.ds);
            }
        });
    }
}

/// 16 slots of `b` from `o` as one vector (two 32-byte halves: `Pod` has
/// no 64-byte vectors).
#[target_feature(enable = "avx512f")]
#[inline]
fn load(b: &[u32], o: usize) -> __m512 {
    let b = &b[o..o + 16];
    let lo: __m256i = bytemuck::pod_read_unaligned(bytemuck::cast_slice(&b[..8]));
    let hi: __m256i = bytemuck::pod_read_unaligned(bytemuck::cast_slice(&b[8..]));
    _mm512_castsi512_ps(_mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi))
}

/// `v` to the 16 slots of `b` from `o`.
#[target_feature(enable = "avx512f")]
#[inline]
fn store(b: &mut [u32], o: usize, v: __m512) {
    let v = _mm512_castps_si512(v);
    let (lo, hi) = (_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
    let b = bytemuck::cast_slice_mut::<u32, u8>(&mut b[o..o + 16]);
    b[..32].copy_from_slice(bytemuck::bytes_of(&lo));
    b[32..].copy_from_slice(bytemuck::bytes_of(&hi));
}

/// A 16 × 16 transpose of 32-bit slots: `dst[d + c·ds + r] = src[s +
/// rows[r] + c]` for `r, c < 16`.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn t16(src: &[u32], s: usize, rows: &[usize; 16], dst: &mut [u32], d: usize, ds: usize) {
    let a: [__m512; 16] = core::array::from_fn(|r| load(src, s + rows[r]));
    for (c, v) in t16_regs(a).into_iter().enumerate() {
        store(dst, d + c * ds, v);
    }
}

/// The 16 × 16 transpose of the registers `a` (row `r` in `a[r]`):
/// column `c` in the result's `c`.
#[target_feature(enable = "avx512f")]
#[inline]
fn t16_regs(a: [__m512; 16]) -> [__m512; 16] {
    // pairs of rows within 128-bit lanes: lane l of t[2k] holds columns
    // 4l, 4l + 1 of rows 2k, 2k + 1; of t[2k + 1] columns 4l + 2, 4l + 3
    let t: [__m512; 16] = core::array::from_fn(|i| {
        let (p, q) = (a[i & !1], a[i | 1]);
        if i % 2 == 0 {
            _mm512_unpacklo_ps(p, q)
        } else {
            _mm512_unpackhi_ps(p, q)
        }
    });
    // quads: lane l of u[4g + m] is column 4l + m of rows 4g .. 4g + 4
    let u: [__m512; 16] = core::array::from_fn(|i| {
        let (g, m) = (i / 4, i % 4);
        let (p, q) = (t[4 * g + m / 2], t[4 * g + 2 + m / 2]);
        if m % 2 == 0 {
            _mm512_shuffle_ps::<0x44>(p, q)
        } else {
            _mm512_shuffle_ps::<0xEE>(p, q)
        }
    });
    // lanes: column 4l + m gathers lane l of u[m], u[4 + m], u[8 + m],
    // u[12 + m] (rows 0–3, 4–7, 8–11, 12–15)
    let mut out = [_mm512_setzero_ps(); 16];
    for m in 0..4 {
        let (a0, a1) = (u[m], u[4 + m]);
        let (b0, b1) = (u[8 + m], u[12 + m]);
        // lanes 0, 1 of a0 then of a1; 2, 3 of each
        let p0 = _mm512_shuffle_f32x4::<0x44>(a0, a1);
        let p1 = _mm512_shuffle_f32x4::<0xEE>(a0, a1);
        let q0 = _mm512_shuffle_f32x4::<0x44>(b0, b1);
        let q1 = _mm512_shuffle_f32x4::<0xEE>(b0, b1);
        // even lanes of both (lane 0 or 2 of each source), odd lanes
        let o = [
            _mm512_shuffle_f32x4::<0x88>(p0, q0),
            _mm512_shuffle_f32x4::<0xDD>(p0, q0),
            _mm512_shuffle_f32x4::<0x88>(p1, q1),
            _mm512_shuffle_f32x4::<0xDD>(p1, q1),
        ];
        for (l, v) in o.into_iter().enumerate() {
            out[4 * l + m] = v;
        }
    }
    out
}

//! The loop nest of a gather block's tile transposes, shared by every
//! SIMD level (each passes its own 8 × 8 register transpose, which
//! inlines): its own file so that the dispatch (`transpose.rs`) and the
//! AVX2 level (`avx2.rs`) both import it and not each other.
//!
//! Tried and not kept (f32[4096,4096] `{1,0:T(8,128)}` → `{0,1:T(8,128)}`
//! and column-major → `T(8,128)`, plain `Vec`s, AMD EPYC Zen 4, 32 KiB L1d,
//! 1 MiB L2, 32 MiB L3, load average 7–16, ratio to memcpy): transposing
//! straight into the destination without this stage, AVX-512 16 × 16 at a
//! time over the block's merged source-contiguous and destination-
//! contiguous loops (128 × 128 slots), full 64-byte lines streamed and the
//! next block prefetched to L2. Window by window (two source tiles read
//! whole, each window's stores over all 128 destination rows) 0.29–0.51×
//! by the prefetch hint and distance (0.23–0.31× without);
//! 16 columns at a time through every window (16 destination rows written
//! front to back, 128 source rows read 64 bytes each) 0.44–0.53× and
//! 0.42–0.46×, against 0.64–0.72× and 0.74–0.81× for this stage in the same
//! runs; in cache (f32[1024,1024]) 0.63–0.82× against 0.92–1.00×. Split up,
//! the direct path's reads alone took 1.25–1.5 memcpy times and its
//! streaming stores alone (16 rows at a time, every store a whole aligned
//! line, nothing read) 1.4, where the same stores front to back through
//! the destination take 0.4: the stage's order (source tiles read whole,
//! destination chunks streamed whole) is what this machine rewards.
//!
//! Measured next (same case and machine, load average 1–3, wall clock):
//! of the whole-block pass, the reads and transposes alone (nothing
//! written out) took 1.25–1.5 memcpy times, the copy-out alone 0.3–0.4,
//! and copying instead of transposing (same addresses) changed nothing:
//! the reads, not the shuffles, are what to speed up. A read-only model of
//! the access patterns (64 MiB, 4 KiB pages, ratio to a memcpy of it):
//! sequential 0.48–0.52 memcpy times; the 16 tiles of a block read one
//! after another 0.88–1.05; read as the 8 × 8 transposes do (8 rows × 32
//! bytes at a time) 1.20–1.35; the same with the next block prefetched
//! into L2 line by line, blocks in source order 0.29–0.51, in
//! cache-blocking order 0.76–0.81; whole-block stage and copy-out in the
//! model 0.97–1.41, chunk by chunk (each destination tile transposed into
//! 4 KiB of scratch and streamed at once) 0.86–0.98. Hence [`chunks`], the
//! line-by-line prefetch ([`Runs`]) and source-order blocks
//! (`choose::gather`). The win in the kernel itself was smaller than the
//! model's and hard to tell from the machine's load (see
//! `simd::transpose::by_chunks`).

use crate::storage::caches::Caches;
use crate::storage::kernels::gather_rows;
use crate::storage::nest::Loop;

/// The loops of a gather block (`simd::transpose::gather_u32`) around
/// `t8`, an 8 × 8 transpose (`dst[d + c·ds + r] = src[s + r·ss + c]`),
/// into the whole stage `out`. Inlined into each SIMD level's caller.
#[inline(always)]
pub(super) fn blocks(
    src: &[u32],
    s: usize,
    loops: &[Loop],
    out: &mut [u32],
    ahead: Option<isize>,
    t8: impl FnMut(&[u32], usize, usize, &mut [u32], usize, usize),
) {
    chunks(src, s, loops, None, out, ahead, t8, |_, _| {});
}

/// As [`blocks`], chunk by chunk: `chunk` is the index in `loops` of the
/// loop whose steps are the stage's chunks (its stage stride the chunk's
/// length, `out.len()`); each chunk is transposed into `out` and handed
/// to `emit(k, out)` (`k`: the step) before the next one is read, so the
/// destination is written while the source is read, from a scratch that
/// stays in L1. `None`: the whole block into `out`, then `emit(0, out)`.
#[allow(clippy::too_many_arguments)] // reason: the block, its source, scratch, prefetch and both callbacks
#[inline(always)]
pub(super) fn chunks(
    src: &[u32],
    s: usize,
    loops: &[Loop],
    chunk: Option<usize>,
    out: &mut [u32],
    ahead: Option<isize>,
    mut t8: impl FnMut(&[u32], usize, usize, &mut [u32], usize, usize),
    mut emit: impl FnMut(usize, &[u32]),
) {
    let Some(i) = chunk.filter(|&i| i < loops.len()) else {
        // whole: prefetch the next block's source into L2 as this one's is
        // read, the same rows `ahead` slots away
        let mut pf = |so: usize, ss: usize, even: bool| {
            if let (Some(x), true) = (ahead, even) {
                for r in 0..8 {
                    let p = src.as_ptr().wrapping_add(so + r * ss).wrapping_offset(x);
                    super::prefetch_l2(p);
                }
            }
        };
        // and the rows the next value of the outermost loop reads, one
        // sweep of the loops inside it later, into L1 (`prefetcht0`: they
        // are read before L1 turns over), when that loop steps to other
        // lines and its sweep fits [`Caches::prefetch_ahead`] (measured on
        // f32[4096,4096] `{1,0:T(8,128)}` → `{0,1:T(8,128)}`, where that is
        // the next source tile, when it ran whole: 0.42–0.54x → 0.58–0.66x
        // of memcpy; a non-temporal hint and two sweeps ahead measured no
        // better)
        let next = next_sweep(loops, 4);
        pass(src, s, loops, out, next, &mut pf, &mut t8);
        emit(0, out);
        return;
    };
    // by chunks: prefetch the next block's source into L2 as this one is
    // read, line by line in address order through each of its contiguous
    // runs, spread evenly over this block's 8 × 8 calls (see [`Runs`])
    let mut runs = ahead.map(|x| Runs::new(loops, 4, x));
    let per = runs.as_ref().map_or(0, |r| r.per_call(loops));
    let mut pf = |_: usize, _: usize, _: bool| {
        if let Some(r) = runs.as_mut() {
            for _ in 0..per {
                match r.next() {
                    Some(o) => super::prefetch_l2(src.as_ptr().wrapping_add(s).wrapping_offset(o)),
                    None => break,
                }
            }
        }
    };
    let mut rest = [Loop::ONE; 16];
    let n = loops.len().min(16);
    let mut m = 0;
    for (j, l) in loops[..n].iter().enumerate() {
        if j != i {
            rest[m] = *l;
            m += 1;
        }
    }
    let c = loops[i];
    for k in 0..c.n as usize {
        pass(
            src,
            s + k * c.src as usize,
            &rest[..m],
            out,
            None,
            &mut pf,
            &mut t8,
        );
        emit(k, out);
    }
}

/// One sweep of `loops` (their two innermost an 8 × 8 transpose) from
/// `src` at `s` into `out`, `pf(source offset, row stride, even)` before
/// each 8 × 8 call (`even`: the first of two calls on the same lines);
/// `next`: the source step whose rows to prefetch into L1
/// ([`next_sweep`]).
#[inline(always)]
fn pass(
    src: &[u32],
    s: usize,
    loops: &[Loop],
    out: &mut [u32],
    next: Option<usize>,
    pf: &mut impl FnMut(usize, usize, bool),
    t8: &mut impl FnMut(&[u32], usize, usize, &mut [u32], usize, usize),
) {
    let [.., y, x] = loops else {
        return;
    };
    let (ss, ds) = (y.src as usize, x.dst as usize);
    let (nr, nc) = (y.n as usize / 8, x.n as usize / 8);
    // the 8-row groups of `y` outermost: each group's source rows are read
    // through every other loop before the next group's, so a few rows
    // stream at a time (reading 8 slots of every row per pass was 0.48x of
    // memcpy for a column-major source)
    for tr in 0..nr {
        gather_rows(&loops[..loops.len() - 1], s, |sb, db, _, _, _| {
            for tc in 0..nc {
                let (so, dof) = (sb + 8 * tr * ss + 8 * tc, db + 8 * tc * ds + 8 * tr);
                pf(so, ss, tc % 2 == 0);
                if let (Some(o), true) = (next, tc % 2 == 0) {
                    for r in 0..8 {
                        super::prefetch_l1(src.as_ptr().wrapping_add(so + r * ss + o));
                    }
                }
                t8(src, so, ss, out, dof, ds);
            }
        });
    }
}

/// The source lines of a gather block, in address order within each of
/// its contiguous runs: the prefetch targets of the block `ahead` slots
/// away. Hardware prefetchers follow a few streams of whole lines; a
/// block's rows read 32 bytes at a time across 8 or more rows each (the
/// order the 8 × 8 transposes need) train them poorly, so the next
/// block is requested in the order they follow best (measured on
/// f32[4096,4096] tiles, reads only, AMD EPYC Zen 4: 16 tiles of 4 KiB
/// read 8 rows × 32 bytes at a time 1.20–1.26 memcpy times, the same
/// tiles with the next block prefetched line by line 0.50, a sequential
/// read of the same bytes 0.48–0.50).
///
/// The runs: the loops whose source strides chain from 1 (innermost
/// first) make one contiguous run; the others step from run to run.
struct Runs {
    /// The loops stepping from run to run (`n`, source stride), outermost
    /// first, and their digits.
    steps: [(usize, usize); 16],
    digit: [usize; 16],
    k: usize,
    /// Slots per run, and per line (64 bytes).
    run: usize,
    line: usize,
    /// The next line's offset within its run, and its run's start
    /// (relative to this block's source start).
    at: usize,
    base: isize,
    done: bool,
}

impl Runs {
    /// The runs of `loops` (a gather block's, `unit`-byte slots), shifted
    /// by `ahead` slots.
    fn new(loops: &[Loop], unit: usize, ahead: isize) -> Runs {
        let loops = &loops[..loops.len().min(16)];
        let (run, used) = run_of(loops);
        let mut steps = [(1, 0); 16];
        let mut k = 0;
        for (i, l) in loops.iter().enumerate() {
            if !used[i] && l.n > 1 {
                steps[k] = (l.n as usize, l.src as usize);
                k += 1;
            }
        }
        Runs {
            steps,
            digit: [0; 16],
            k,
            run,
            line: (64 / unit).max(1),
            at: 0,
            base: ahead,
            done: false,
        }
    }

    /// Lines per 8 × 8 call of `loops` (all of them over the block's
    /// calls, rounded up).
    fn per_call(&self, loops: &[Loop]) -> usize {
        let slots = loops
            .iter()
            .fold(1usize, |p, l| p.saturating_mul(l.n as usize));
        let calls = (slots / 64).max(1);
        let runs = self.steps[..self.k]
            .iter()
            .fold(1usize, |p, s| p.saturating_mul(s.0));
        let lines = runs.saturating_mul(self.run.div_ceil(self.line) + 1);
        lines.div_ceil(calls)
    }

    /// The next line's offset from the block's source start.
    fn next(&mut self) -> Option<isize> {
        if self.done {
            return None;
        }
        // (the last slot of the run too: a run not starting on a line
        // ends in one more)
        let o = self
            .base
            .wrapping_add(self.at.min(self.run.saturating_sub(1)) as isize);
        if self.at < self.run {
            self.at += self.line;
            return Some(o);
        }
        self.at = 0;
        let mut i = self.k;
        loop {
            if i == 0 {
                self.done = true;
                break;
            }
            i -= 1;
            let (n, st) = self.steps[i];
            self.digit[i] += 1;
            self.base = self.base.wrapping_add(st as isize);
            if self.digit[i] < n {
                break;
            }
            self.base = self.base.wrapping_sub((n * st) as isize);
            self.digit[i] = 0;
        }
        Some(o)
    }
}

/// The contiguous source run of a gather block's `loops` (at most 16):
/// the product of the loops whose source strides chain from 1, in slots,
/// and which loops those are.
pub(super) fn run_of(loops: &[Loop]) -> (usize, [bool; 16]) {
    let loops = &loops[..loops.len().min(16)];
    let mut used = [false; 16];
    let mut run = 1usize;
    while let Some(i) = (0..loops.len()).find(|&i| !used[i] && loops[i].src as usize == run) {
        used[i] = true;
        run = run.saturating_mul(loops[i].n as usize);
    }
    (run, used)
}

/// The source step, in slots of `unit` bytes, of the outermost of `loops`
/// (at least three, the block's two innermost), when its rows are worth
/// prefetching into L1 one sweep ahead: it steps to other lines (≥ 64
/// bytes) and one sweep of the loops inside it reads at most
/// [`Caches::prefetch_ahead`] bytes. Shared by the 32-bit tile transposes
/// (when a block runs whole) and the unit transposes of packed tilings
/// (`simd::squares`).
pub(super) fn next_sweep(loops: &[Loop], unit: u64) -> Option<usize> {
    let sweep = loops
        .iter()
        .skip(1)
        .fold(unit, |b, l| b.saturating_mul(l.n));
    match loops {
        [o, _, _, ..]
            if o.src.saturating_mul(unit) >= 64
                && sweep <= Caches::host().prefetch_ahead() as u64 =>
        {
            Some(o.src as usize)
        }
        _ => None,
    }
}

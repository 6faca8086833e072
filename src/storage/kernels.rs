//! The inner kernels of a relayout: what moves the elements of one block.
//!
//! [`UnitMover`] moves whole units (any `Pod` of the storage width; the plan
//! casts to `u8`/`u16`/`u32`/`u64`), [`BitMover`] packed sub-byte slots.
//! The `unsafe` here is the non-temporal store in [`stream`] (x86-64);
//! the SIMD kernels' is in `simd/`. Both are covered by
//! `tests/relayout_miri.rs`.

use core::mem::{size_of, size_of_val};

use super::nest::{Kernel, Loop};
use super::simd::{self, Blocks, Isa};

mod bits;
pub(crate) use bits::BitMover;
mod runs;
use runs::plain_runs;
mod squares;
pub(crate) use squares::square_unit;
use squares::{square, squares};

/// Moves elements for the loop walker.
pub(crate) trait Mover {
    /// A block of `a.n × b.n` elements, every one in bounds.
    fn block(&mut self, k: Kernel, a: &Loop, b: &Loop, s: usize, d: usize);
    /// `c.n` blocks, `c.src`/`c.dst` apart.
    #[inline]
    fn block_rep(&mut self, k: Kernel, c: &Loop, a: &Loop, b: &Loop, s: usize, d: usize) {
        for v in 0..c.n as usize {
            self.block(k, a, b, s + v * c.src as usize, d + v * c.dst as usize);
        }
    }
    /// `c2.n × c.n` blocks (`c` inner).
    #[allow(clippy::too_many_arguments)] // reason: the two loops and the block, flat
    #[inline]
    fn block_rep2(
        &mut self,
        k: Kernel,
        c2: &Loop,
        c: &Loop,
        a: &Loop,
        b: &Loop,
        s: usize,
        d: usize,
    ) {
        for u in 0..c2.n as usize {
            self.block_rep(k, c, a, b, s + u * c2.src as usize, d + u * c2.dst as usize);
        }
    }
    /// One element.
    fn one(&mut self, s: usize, d: usize);
    /// `len` contiguous destination slots of padding.
    fn pad(&mut self, d: usize, len: usize);
    /// Whether [`Mover::block_rep`] moves blocks of kernel `k` in one
    /// call rather than one by one, so that a split block's replays are
    /// worth repeating a recorded call at a time (`Split::replay_rep`).
    fn repeats_at_once(&self, _k: Kernel) -> bool {
        false
    }
    /// The source step between the `block_rep2` calls that follow (the
    /// stride of the loop around them), for prefetching across calls.
    fn next_call_step(&mut self, _src: usize) {}
    /// After the last move (store fence for streaming stores).
    fn finish(&mut self) {}
}

/// Whole-unit moves.
pub(crate) struct UnitMover<'a, T> {
    pub(crate) src: &'a [T],
    pub(crate) dst: &'a mut [T],
    pub(crate) pad: T,
    pub(crate) nt: bool,
    /// The SIMD level the kernels run at.
    pub(crate) isa: Isa,
    /// The loops of a [`Kernel::Gather`] block (source order).
    #[cfg(feature = "alloc")]
    pub(crate) gather: &'a [Loop],
    /// Scratch for a [`Kernel::Gather`] block (`a.n × b.n` slots, and
    /// room to start them on a 64-byte line).
    #[cfg(feature = "alloc")]
    pub(crate) stage: alloc::vec::Vec<T>,
    /// A gathered stage whose chunks are still to be copied out (see
    /// [`Pending`]).
    #[cfg(feature = "alloc")]
    pub(crate) pending: Option<Pending>,
    /// Source step between `block_rep2` calls (0: unknown).
    pub(crate) next: usize,
    /// Source offset of the next [`Kernel::Gather`] block less this one's,
    /// for prefetching it while this one is read.
    pub(crate) ahead: Option<isize>,
    /// The streamed runs' partial lines, each held until the run that
    /// completes its line comes (`Some` when the plan streams).
    ///
    /// f32[4096,4096] rows ↔ `T(8,128)`, plain `Vec`s (source and
    /// destination 16 bytes into a line), streaming, Intel Xeon guest (2
    /// vCPU, KVM; L1d 48 KiB, L2 2 MiB; AVX-512), wall clock: see the
    /// README's figures for that host. Without it each run's two partial
    /// lines took plain stores, each a read of the line from memory among
    /// the streamed lines.
    #[cfg(all(target_arch = "x86_64", feature = "alloc"))]
    pub(crate) joiner: Option<stream::Joiner>,
    /// The first of the joiner's slots for the next block's runs: 0, or,
    /// where the loop around a block of runs is a destination stream of
    /// its own (`block_rep2`), the stream's index times the block's runs.
    pub(crate) first_slot: usize,
}

/// A gather block's stage left to copy out while the next block is
/// gathered ([`UnitMover::gather_overlapped`]): its half of the stage,
/// its `chunks` chunks of `foot` slots for the destination from `d`,
/// `step` apart, how many are out, and whether they stream.
#[cfg(feature = "alloc")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    half: usize,
    d: usize,
    step: usize,
    foot: usize,
    chunks: usize,
    done: usize,
    nt: bool,
}

#[cfg(feature = "alloc")]
impl Pending {
    /// Copies out the chunks of `stage` (this one's half) up to `upto`.
    #[inline]
    fn copy_out<T: bytemuck::Pod>(&mut self, stage: &[T], dst: &mut [T], upto: usize) {
        while self.done < upto.min(self.chunks) {
            let (k, f) = (self.done, self.foot);
            let o = self.d + k * self.step;
            #[cfg(target_arch = "x86_64")]
            if self.nt && k + 2 < self.chunks {
                // the partial lines at the ends of the chunk two on, which
                // take plain stores: fetched for writing ahead
                let next = dst.as_ptr().wrapping_add(o + 2 * self.step);
                crate::storage::simd::prefetch_w_ends(next, f);
            }
            copy_run(&stage[k * f..(k + 1) * f], &mut dst[o..o + f], self.nt);
            self.done += 1;
        }
    }
}

/// The slots of one half of a double stage of `len` slots of `z` bytes
/// each: `len` rounded up to whole 64-byte lines.
#[cfg(feature = "alloc")]
pub(crate) const fn stage_half(len: usize, z: usize) -> usize {
    let per_line = if z >= 64 || z == 0 { 1 } else { 64 / z };
    len.div_ceil(per_line) * per_line
}

impl<T: bytemuck::Pod> UnitMover<'_, T> {
    /// Where the stage buffer's first 64-byte line starts, if `len` slots
    /// fit from there (the buffer leaves room for it), else 0: the 8 × 8
    /// transposes' 32-byte stores into a stage from a line never cross
    /// one.
    ///
    /// (f32[4096,4096] `{1,0:T(8,128)}` → `{0,1:T(8,128)}`, AVX2 on AMD
    /// EPYC Zen 3: a model of the gather alone ran 1.40–1.48 memcpy times
    /// with its stage 32 bytes into a line, 1.26–1.29 at 16 or 48.)
    #[cfg(feature = "alloc")]
    fn stage_at(&self, len: usize) -> usize {
        let at = self.stage.as_ptr().align_offset(64);
        if at.saturating_add(len) <= self.stage.len() {
            at
        } else {
            0
        }
    }

    /// Copies out what is left of a pending stage.
    #[cfg(feature = "alloc")]
    fn flush(&mut self) {
        if let Some(mut p) = self.pending.take() {
            let (len, h) = (
                p.chunks * p.foot,
                stage_half(p.chunks * p.foot, size_of::<T>()),
            );
            let o = self.stage_at(2 * h) + p.half * h;
            p.copy_out(&self.stage[o..o + len], self.dst, p.chunks);
        }
    }

    /// A [`Kernel::Gather`] block: `a.n` chunks of `b.n` slots gathered
    /// from `s` by the loops `self.gather` and copied out to `d`, `a.dst`
    /// apart.
    #[cfg(feature = "alloc")]
    fn gather_one(&mut self, a: &Loop, b: &Loop, s: usize, d: usize) {
        let (foot, g) = (b.n as usize, self.gather);
        let len = a.n as usize * foot;
        // 32-bit tile transposes that stream in chunks of a page or more,
        // packed ones streaming or not: the previous block's stage copied
        // out as this one is gathered where the level has the kernels for
        // it (32-bit chunks of 512 bytes, `T(8,128)` → column-major, with
        // the copy-out's short bursts of streaming stores among the reads,
        // ran 0.43–0.48× of memcpy against 0.62× after the gather; 32-bit
        // ones without streaming, f32[1024,1024] to [2048,4096], 4–10%
        // slower than after the gather)
        if (size_of::<T>() != 4 || (self.nt && foot * 4 >= 4096))
            && self.gather_overlapped(a, foot, s, d)
        {
            return;
        }
        let at = self.stage_at(len);
        let (src, dst) = (self.src, &mut *self.dst);
        let stage = &mut self.stage[at..at + len];
        // packed squares (rows not on lines): the next block's
        // source is hinted while the stage is copied out, not
        // while it is gathered (s8 streaming 0.68-0.78x -> 0.80-0.92x)
        let ahead = self.ahead.take();
        // packed squares: straight into the destination where the level
        // has a kernel for them (streaming or not: see `gather_direct`)
        if simd::squares::gather_direct(
            self.isa,
            src,
            s,
            g,
            dst,
            (d, foot, a.dst as usize),
            ahead,
            self.nt,
        ) {
            return;
        }
        let mut next = simd::squares::NextSource::new(src, s, g, ahead, a.n as usize);
        let ahead = if next.is_some() { None } else { ahead };
        // 32-bit tile transposes: straight into the destination where
        // the level has a kernel for them (streaming or not)
        if size_of::<T>() == 4
            && simd::transpose::gather_direct_u32(
                self.isa,
                cast(src),
                s,
                g,
                bytemuck::cast_slice_mut(dst),
                (d, foot, a.dst as usize),
                bytemuck::cast_slice_mut(&mut *stage),
                ahead,
                self.nt,
            )
            .is_some()
        {
            return;
        }
        gather_block(self.isa, src, s, g, stage, ahead);
        for (k, chunk) in stage.chunks_exact(foot).enumerate() {
            if let Some(n) = next.as_mut() {
                n.step();
            }
            let o = d + k * a.dst as usize;
            copy_run(chunk, &mut dst[o..o + foot], self.nt);
        }
    }

    /// A gather block into one half of the stage, the previous
    /// block's stage (the other half, [`Pending`]) copied out a share at
    /// a time as this one is gathered, this one left pending: 32-bit tile
    /// transposes in panels (`simd::transpose::gather_panels_u32`, a
    /// share after each panel), transposes between packed tilings
    /// (`simd::squares::gather_squares_ticked`, after each row group),
    /// each share whole chunks of 4 KiB or more; `false`, and nothing
    /// done, where the level has no such kernel for the block (AVX2
    /// only).
    ///
    /// Measured (f32[4096,4096], AMD EPYC Zen 3 without AVX-512: 32 KiB
    /// L1d, 512 KiB L2, 32 MiB L3; the bench, plain `Vec`s, wall clock,
    /// builds alternated in three rounds of seven runs; ratio to memcpy):
    /// `{1,0:T(8,128)}` → `{0,1:T(8,128)}` 0.80–0.81× before (the shared
    /// 8 × 8 loops, each stage copied out after its block) → 0.86–0.91×;
    /// column-major → `T(8,128)` 0.82× → 0.85–0.92×. The panels without
    /// the overlap (each stage copied out after its block) 0.73–0.77× and
    /// 0.76×; the overlap around the shared loops instead of the panels
    /// 0.68–0.72× and 0.77–0.80×: the two gain together. In a standalone
    /// model of the first case, a share of a whole chunk (4 KiB) after
    /// each panel took it from 0.82–0.89× to 0.89–0.97×; shares of 1 KiB
    /// and 256 bytes, every few transposes, 0.81× and 0.66×. Packed
    /// transposes, `[2048,4096]` `{1,0:T(8,128)(k,1)}` →
    /// `{0,1:T(8,128)(k,1)}` (two rounds): bf16 6.6–6.7 → 7.6–8.3 GB/s,
    /// s8 6.3–6.5 → 8.3–8.6 GB/s (memcpy of these 16 and 8 MiB, partly
    /// in the L3, 9.4–16.9 GB/s). The packed ones without streaming too
    /// (same host; each stage copied out after its block → overlapped,
    /// `[1024,1024]` and `[1024,2048]`, two rounds): s8 10.0–10.1 →
    /// 12.3–12.5 GB/s, bf16 9.4–9.8 → 11.6–12.2 GB/s. Tried and not kept
    /// there: shares of 1, 2 or 8 KiB instead of 4 (s8 and bf16
    /// [2048,4096], streaming: no gain), and `rep movsb` for the plain
    /// copy-out (no gain).
    #[cfg(feature = "alloc")]
    fn gather_overlapped(&mut self, a: &Loop, foot: usize, s: usize, d: usize) -> bool {
        let len = a.n as usize * foot;
        let h = stage_half(len, size_of::<T>());
        let at = self.stage_at(2 * h);
        let half = self.pending.map_or(0, |p| 1 - p.half);
        let ahead = self.ahead;
        let (isa, src, g) = (self.isa, self.src, self.gather);
        let (h0, h1) = self.stage[at..at + 2 * h].split_at_mut(h);
        let (cur, prev) = if half == 0 { (h0, &*h1) } else { (h1, &*h0) };
        let (dst, mut pending) = (&mut *self.dst, self.pending);
        // (shares of whole chunks, 4 KiB or more, and the last)
        let share = (4096 / (foot * size_of::<T>()).max(1)).max(1);
        let tick = |k: usize, of: usize| {
            if let Some(p) = pending.as_mut() {
                let upto = p.chunks * k / of.max(1);
                if upto == p.chunks || upto >= p.done + share {
                    p.copy_out(&prev[..p.chunks * p.foot], dst, upto);
                }
            }
        };
        let ran = if size_of::<T>() == 4 {
            simd::transpose::gather_panels_u32(
                isa,
                cast(src),
                s,
                g,
                bytemuck::cast_slice_mut(&mut cur[..len]),
                ahead,
                tick,
            )
        } else {
            simd::squares::gather_squares_ticked(isa, src, s, g, &mut cur[..len], ahead, tick)
        };
        if !ran {
            return false;
        }
        self.ahead = None;
        if let Some(mut p) = pending {
            let len = p.chunks * p.foot;
            p.copy_out(&prev[..len], self.dst, p.chunks);
        }
        self.pending = Some(Pending {
            half,
            d,
            step: a.dst as usize,
            foot,
            chunks: a.n as usize,
            done: 0,
            nt: self.nt,
        });
        true
    }

    /// The kernels but plain runs: [`Mover::block`]'s other cases.
    #[inline(never)]
    fn other_block(&mut self, k: Kernel, a: &Loop, b: &Loop, s: usize, d: usize) {
        let (src, dst) = (self.src, &mut *self.dst);
        match k {
            Kernel::Runs => {
                let n = b.n as usize;
                #[cfg(all(target_arch = "x86_64", feature = "alloc"))]
                if let Some(j) = &mut self.joiner {
                    let z = size_of::<T>();
                    let (sb, db) = (cast::<T, u8>(src), bytemuck::cast_slice_mut(dst));
                    let (first, runs) = (self.first_slot, a.n as usize);
                    for i in 0..runs {
                        let so = s + i * a.src as usize;
                        let dof = d + i * a.dst as usize;
                        j.copy((first, i, runs), sb, so * z, n * z, db, dof * z);
                    }
                    return;
                }
                for i in 0..a.n as usize {
                    let so = s + i * a.src as usize;
                    let dof = d + i * a.dst as usize;
                    copy_run(&src[so..so + n], &mut dst[dof..dof + n], self.nt);
                }
            }
            Kernel::Interleave(k) => {
                zip_blocks(
                    self.isa,
                    k,
                    src,
                    s,
                    dst,
                    d,
                    Blocks::one(a.n as usize, b.src as usize),
                    self.nt,
                );
            }
            Kernel::Deinterleave(k) => {
                unzip_blocks(
                    self.isa,
                    k,
                    src,
                    s,
                    dst,
                    d,
                    Blocks::one(b.n as usize, a.dst as usize),
                    self.nt,
                );
            }
            // (planned with `alloc` only: it needs the staging buffer)
            #[cfg(feature = "alloc")]
            Kernel::Gather => self.gather_one(a, b, s, d),
            _ => {
                let (as_, ad, bs, bd) = (
                    a.src as usize,
                    a.dst as usize,
                    b.src as usize,
                    b.dst as usize,
                );
                for i in 0..a.n as usize {
                    let (si, di) = (s + i * as_, d + i * ad);
                    for j in 0..b.n as usize {
                        dst[di + j * bd] = src[si + j * bs];
                    }
                }
            }
        }
    }
}

impl<T: bytemuck::Pod> Mover for UnitMover<'_, T> {
    fn next_call_step(&mut self, src: usize) {
        self.next = src;
    }

    /// Plain runs at the AVX-512 level ([`simd::copies_runs_at_once`]):
    /// [`plain_runs`], many runs a call. (Below it the runs stay a
    /// `copy_run` each, a block at a time, as before: with `memcpy` a run,
    /// taking the tile row's runs in one call, or a block's bounds once,
    /// measured slower — f32[1000²] padded rows → `T(8,128)` at AVX2,
    /// idle wall clock, five rounds at each of four placements, 0.65–0.84×
    /// of memcpy against 0.77–0.92×.)
    #[inline]
    fn repeats_at_once(&self, k: Kernel) -> bool {
        k == Kernel::Runs && !self.nt && simd::copies_runs_at_once(self.isa)
    }

    #[inline]
    fn block(&mut self, k: Kernel, a: &Loop, b: &Loop, s: usize, d: usize) {
        // plain runs at the AVX-512 level first, outside the other
        // kernels' frame (see `plain_runs`)
        if self.repeats_at_once(k) {
            plain_runs(
                self.isa,
                self.src,
                s,
                self.dst,
                d,
                (&Loop::ONE, a),
                b.n as usize,
            );
            return;
        }
        self.other_block(k, a, b, s, d);
    }

    #[inline]
    fn block_rep(&mut self, k: Kernel, c: &Loop, a: &Loop, b: &Loop, s: usize, d: usize) {
        self.block_rep2(k, &Loop::ONE, c, a, b, s, d);
    }

    /// Repeats of a zip or unzip block go to the kernel as one call with
    /// `c2.n × c.n` blocks (on the rows side the loops step their source
    /// strides for a zip, their destination strides for an unzip; the
    /// packed side the others).
    #[inline]
    fn block_rep2(
        &mut self,
        k: Kernel,
        c2: &Loop,
        c: &Loop,
        a: &Loop,
        b: &Loop,
        s: usize,
        d: usize,
    ) {
        let (n, n2) = (c.n as usize, c2.n as usize);
        match k {
            // plain runs: `c.n × a.n` of them a call
            Kernel::Runs if self.repeats_at_once(k) => {
                for u in 0..n2 {
                    let (so, dof) = (s + u * c2.src as usize, d + u * c2.dst as usize);
                    plain_runs(self.isa, self.src, so, self.dst, dof, (c, a), b.n as usize);
                }
            }
            Kernel::Interleave(kk) if square(kk, a, b) => {
                squares(kk, self.src, s, self.dst, d, c, c2);
            }
            Kernel::Interleave(kk) => {
                // rows on the source side, packed words on the destination
                let mut bl = repeated(a.n, b.src, (n, c.src, c.dst), (n2, c2.src, c2.dst));
                bl.next = self.next;
                zip_blocks(self.isa, kk, self.src, s, self.dst, d, bl, self.nt);
            }
            Kernel::Deinterleave(kk) => {
                // the same blocks with source and destination swapped
                let bl = repeated(b.n, a.dst, (n, c.dst, c.src), (n2, c2.dst, c2.src));
                unzip_blocks(self.isa, kk, self.src, s, self.dst, d, bl, self.nt);
            }
            _ => {
                let at = |u: usize, v: usize| u * c2.src as usize + v * c.src as usize;
                // runs that continue each other in the destination across
                // `c2` (a block's runs chain, `c2` steps a whole block on)
                // while `c` steps to other streams: each stream's runs keep
                // slots of their own, so that a block's first run meets the
                // last of the block before it in the same stream (`T(8,128)`
                // → rows, 8 tiles a block, `c` the tile's 8 rows), up to
                // 1024 slots (48 KiB of them)
                let streams = k == Kernel::Runs
                    && n > 1
                    && n.saturating_mul(a.n as usize) <= 1024
                    && a.dst == b.n
                    && c2.dst == a.n * a.dst
                    && c.dst != c2.dst;
                for u in 0..n2 {
                    for v in 0..n {
                        if streams {
                            self.first_slot = v * a.n as usize;
                        }
                        let (so, dof) = (at(u, v), u * c2.dst as usize + v * c.dst as usize);
                        if k == Kernel::Gather {
                            // prefetch the next block: in this call, else the
                            // next call's first (measured on f32[4096,4096]
                            // T(8,128) {1,0} -> {0,1}: 0.5x -> 0.7x of memcpy)
                            let next = match (v + 1 < n, u + 1 < n2) {
                                (true, _) => Some(at(u, v + 1)),
                                (false, true) => Some(at(u + 1, 0)),
                                _ => (self.next != 0).then_some(self.next),
                            };
                            self.ahead = next.map(|x| x as isize - so as isize);
                        }
                        self.block(k, a, b, s + so, d + dof);
                    }
                }
                self.first_slot = 0;
            }
        }
    }

    #[inline]
    fn one(&mut self, s: usize, d: usize) {
        self.dst[d] = self.src[s];
    }

    fn pad(&mut self, d: usize, len: usize) {
        self.dst[d..d + len].fill(self.pad);
    }

    fn finish(&mut self) {
        #[cfg(feature = "alloc")]
        self.flush();
        #[cfg(all(target_arch = "x86_64", feature = "alloc"))]
        if let Some(j) = &mut self.joiner {
            j.flush(cast(self.src), bytemuck::cast_slice_mut(self.dst));
        }
        #[cfg(target_arch = "x86_64")]
        if self.nt {
            stream::fence();
        }
    }
}

/// Copies one run, with streaming stores if `nt` and the run is long
/// enough to write whole cache lines.
///
/// (Tried for the plain runs: a block's runs in one AVX2 call, 32 bytes a
/// move inline, instead of a `memcpy` call per run. f32[1000²] padded
/// rows ↔ `T(8,128)`, in cache: 9.5% fewer instructions for the plan
/// (callgrind), no change in time beyond the noise — plan 19.5–27.1 GB/s
/// before, 21.8–27.6 after on 64-byte aligned buffers, wall clock, load
/// 3.3, three alternations of 11 runs. Not kept.)
///
/// (Tried for the plain runs: each run's next 512 source bytes — the next
/// block's run for rows → `T(8,128)` — prefetched (`prefetcht0`, a hint a
/// line) before the run is copied. f32[1000²] padded rows → `T(8,128)`,
/// in cache: medians of six alternations (15 runs each) 0.70 / 0.67 /
/// 0.73× of memcpy at 16→16 / 16→48 / 48→0 without, 0.72 / 0.65 / 0.70×
/// with; 64-byte aligned 0.69 / 0.70× (thread CPU clock, load 4.6, AMD
/// EPYC Zen 4). The eight source rows are streams the hardware
/// prefetchers already follow. Not kept.)
///
/// (Tried for the plain runs, hints on the destination side (and the
/// source's further ahead) at the call site of this copy, f32[1000²]
/// padded rows ↔ `T(8,128)`, in cache; medians of five rounds of 15
/// runs, thread CPU clock, load 2.8–3.0, AMD EPYC Zen 4: as is 0.83× /
/// 0.81× of memcpy. Each run's destination lines one block on (the next
/// 512 bytes of the run's destination stream) hinted with `prefetchw`:
/// 0.72× / 0.77×; 1024 bytes on: 0.66–0.71×; only its first line:
/// 0.80× / 0.82×; `prefetcht0` 512 bytes on: 0.72–0.81× (three rounds);
/// `prefetcht1` a tile row (32 KiB) on, into L2: 0.77× / 0.81×
/// (`prefetcht2`: 0.80–0.85×, three rounds); the source `prefetcht1` 8 KiB
/// ahead: 0.81× / 0.76×. By the idle wall clock (load 0.9–1.0, seven
/// rounds): as is 0.87× / 0.87×, `prefetchw` one block on 0.77× / 0.80×,
/// its first line only 0.86× / 0.85×, `prefetcht1` a tile row on 0.81× /
/// 0.83×. The hardware prefetchers already run these streams; the hints
/// only add requests. Not kept.)
///
/// (Tried for the plain runs at a destination not on a line, since the
/// inline copy above was measured on aligned buffers only: each run's
/// head up to the destination's first line boundary copied by its own
/// `copy_from_slice`, so that `memcpy` stores the rest on whole lines
/// (and, a variant, the last partial line by a third call). f32[1000²]
/// padded rows ↔ `T(8,128)`, medians of six alternations (11 runs each)
/// at destination 0/16/32/48 bytes into a line: rows → `T` 0.87 / 0.78
/// / 0.78 / 0.72× of memcpy as is, 0.88 / 0.73 / 0.79 / 0.78× split in
/// two, 0.91 / 0.81 / 0.78 / 0.78× in three; `T` → rows 0.81 / 0.80 /
/// 0.79 / 0.77× as is, 0.81 / 0.78 / 0.71 / 0.75× and 0.77 / 0.76 / 0.77
/// / 0.77× (wall clock, load 3.9, AMD EPYC Zen 4): within the noise. Not
/// kept.)
///
/// (Tried for streamed runs whose destinations follow each other: a
/// joiner holding a run's last partial line until the next run completes
/// it, then streaming it whole, and blocks whose repeat loop continues
/// each run in the destination — combined dims `T(2,*,128)`, a tile's
/// rows — walked in destination order so the runs chain. Once the
/// partial lines took 16-byte stores (`stream::copy`), the chain gained
/// nothing: combined dims f32[64,128,1024] at destination offsets
/// 0/16/32/48 1.41–2.64 / 1.33–1.42 / 1.38–1.69 / 1.29–1.48× of memcpy
/// without, 1.42–1.52 / 1.24–1.47 / 1.15–1.35 / 1.14–1.32× with, and the
/// destination-order walk read `T(8,128)` → rows 32 source tiles at a
/// time, 0.52–0.60× against 1.36–1.65× (wall clock, load average 3,
/// three and two alternations of nine runs). Not kept. The destination
/// order came back later, only where the destination's block repeats
/// the run fewer times than the source's, as in rows → `T(8,128)` and
/// the combined dims: see `choose::choose`.)
#[inline]
fn copy_run<T: bytemuck::Pod>(src: &[T], dst: &mut [T], nt: bool) {
    #[cfg(target_arch = "x86_64")]
    if nt && size_of_val(dst) >= 64 {
        stream::copy(bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst));
        return;
    }
    let _ = (nt, size_of_val(dst));
    dst.copy_from_slice(src);
}

/// Zips the blocks `bl` of `k` source rows (rows side from slot `s`) into
/// the destination (packed side from slot `d`). With `nt`: the AVX2
/// kernels stream directly; otherwise each block goes through a stack
/// buffer streamed out with non-temporal stores.
#[allow(clippy::too_many_arguments)] // reason: both sides, the blocks and how to store
#[inline]
fn zip_blocks<T: bytemuck::Pod>(
    isa: Isa,
    k: u8,
    src: &[T],
    s: usize,
    dst: &mut [T],
    d: usize,
    bl: Blocks,
    nt: bool,
) {
    let k = k as usize;
    let direct = simd::streams_directly(isa, k, size_of::<T>());
    let rows = &src[s..s + bl.rows_extent(k)];
    #[cfg(target_arch = "x86_64")]
    if nt && !direct && bl.len * k * size_of::<T>() >= 64 && bl.len * k * size_of::<T>() <= 1024 {
        let mut buf = [0u64; 128];
        let stage: &mut [T] = &mut bytemuck::cast_slice_mut(&mut buf)[..k * bl.len];
        for (ro, po) in bl.each() {
            zip_any(
                isa,
                k,
                &rows[ro..],
                stage,
                Blocks::one(bl.len, bl.rs),
                false,
            );
            let o = d + po;
            stream::copy(
                cast(stage),
                bytemuck::cast_slice_mut(&mut dst[o..o + k * bl.len]),
            );
        }
        return;
    }
    zip_any(
        isa,
        k,
        rows,
        &mut dst[d..d + bl.packed_extent(k)],
        bl,
        nt && direct,
    );
}

/// SIMD for 16-bit pairs and 8-bit quads, else portable.
fn zip_any<T: bytemuck::Pod>(isa: Isa, k: usize, rows: &[T], out: &mut [T], bl: Blocks, nt: bool) {
    match (k, size_of::<T>()) {
        (2, 2) => simd::zip2_u16(isa, cast(rows), bytemuck::cast_slice_mut(out), bl, nt),
        (4, 1) => simd::zip4_u8(isa, cast(rows), bytemuck::cast_slice_mut(out), bl, nt),
        _ => {
            for (ro, po) in bl.each() {
                let o = &mut out[po..po + k * bl.len];
                for r in 0..k {
                    let x = &rows[ro + r * bl.rs..ro + r * bl.rs + bl.len];
                    for (c, &v) in x.iter().enumerate() {
                        o[k * c + r] = v;
                    }
                }
            }
        }
    }
}

fn cast<T: bytemuck::Pod, U: bytemuck::Pod>(x: &[T]) -> &[U] {
    bytemuck::cast_slice(x)
}

/// Splits the blocks `bl` of packed source slots (from slot `s`) into `k`
/// destination rows (rows side from slot `d`). With `nt`: the AVX2
/// kernels stream directly; otherwise rows go through a stack buffer
/// streamed out with non-temporal stores.
#[allow(clippy::too_many_arguments)] // reason: both sides, the blocks and how to store
#[inline]
fn unzip_blocks<T: bytemuck::Pod>(
    isa: Isa,
    k: u8,
    src: &[T],
    s: usize,
    dst: &mut [T],
    d: usize,
    bl: Blocks,
    nt: bool,
) {
    let k = k as usize;
    let direct = simd::streams_directly(isa, k, size_of::<T>());
    let inp = &src[s..s + bl.packed_extent(k)];
    #[cfg(target_arch = "x86_64")]
    if nt && !direct && bl.len * size_of::<T>() >= 64 && bl.len * k * size_of::<T>() <= 1024 {
        let mut buf = [0u64; 128];
        let stage: &mut [T] = &mut bytemuck::cast_slice_mut(&mut buf)[..k * bl.len];
        for (ro, po) in bl.each() {
            let one = Blocks::one(bl.len, bl.len);
            unzip_any(isa, k, &inp[po..po + k * bl.len], stage, one, false);
            for r in 0..k {
                let o = d + ro + r * bl.rs;
                let row = &stage[r * bl.len..(r + 1) * bl.len];
                stream::copy(cast(row), bytemuck::cast_slice_mut(&mut dst[o..o + bl.len]));
            }
        }
        return;
    }
    unzip_any(
        isa,
        k,
        inp,
        &mut dst[d..d + bl.rows_extent(k)],
        bl,
        nt && direct,
    );
}

/// SIMD for 16-bit pairs and 8-bit quads, else portable.
fn unzip_any<T: bytemuck::Pod>(
    isa: Isa,
    k: usize,
    inp: &[T],
    rows: &mut [T],
    bl: Blocks,
    nt: bool,
) {
    match (k, size_of::<T>()) {
        (2, 2) => simd::unzip2_u16(isa, cast(inp), bytemuck::cast_slice_mut(rows), bl, nt),
        (4, 1) => simd::unzip4_u8(isa, cast(inp), bytemuck::cast_slice_mut(rows), bl, nt),
        _ => {
            for (ro, po) in bl.each() {
                let i = &inp[po..po + k * bl.len];
                for r in 0..k {
                    let o = ro + r * bl.rs;
                    for (c, x) in rows[o..o + bl.len].iter_mut().enumerate() {
                        *x = i[k * c + r];
                    }
                }
            }
        }
    }
}

/// Visits a gather block: `f(source offset, destination offset)` for
/// every slot, the loops in their stored (source) order, the innermost
/// loop as one row `f(sb, db, n, si, di)`. The outer loops advance as an
/// odometer (no division per row).
#[inline(always)]
pub(crate) fn gather_rows(
    loops: &[Loop],
    s: usize,
    mut row: impl FnMut(usize, usize, usize, usize, usize),
) {
    let Some((inner, rest)) = loops.split_last() else {
        return;
    };
    let (ni, si, di) = (inner.n as usize, inner.src as usize, inner.dst as usize);
    let rest = &rest[..rest.len().min(16)];
    let mut digit = [0usize; 16];
    let (mut sb, mut db) = (s, 0usize);
    loop {
        row(sb, db, ni, si, di);
        let mut k = rest.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            let l = &rest[k];
            digit[k] += 1;
            sb += l.src as usize;
            db += l.dst as usize;
            if digit[k] < l.n as usize {
                break;
            }
            sb -= l.n as usize * l.src as usize;
            db -= l.n as usize * l.dst as usize;
            digit[k] = 0;
        }
    }
}

/// A gather block whose source starts at `s`, into the stage `out`: the
/// loops run in source order (the plan stores them so), so reads stream
/// through source rows while the writes land in the stage, which stays in
/// cache.
///
/// When the two innermost loops transpose 4-byte slots (source-contiguous
/// inside, stage-contiguous next, both counts multiples of 8), the block
/// goes to [`simd::transpose::gather_u32`], 8 × 8 at a time; when they
/// are the `k × k` square of a transpose between packed tilings, to
/// [`simd::squares::gather_squares`], a square at a time.
#[cfg(feature = "alloc")]
#[inline]
fn gather_block<T: bytemuck::Pod>(
    isa: Isa,
    src: &[T],
    s: usize,
    loops: &[Loop],
    out: &mut [T],
    ahead: Option<isize>,
) {
    if let Some(k) = square_unit(loops, size_of::<T>()) {
        simd::squares::gather_squares(isa, k, src, s, loops, out, ahead);
        return;
    }
    if size_of::<T>() == 4 && simd::transpose::transposes(loops) {
        let (s32, o32): (&[u32], &mut [u32]) = (cast(src), bytemuck::cast_slice_mut(out));
        simd::transpose::gather_u32(isa, s32, s, loops, o32, ahead);
        return;
    }
    // prefetch the next block's source as this one's is read: the same
    // rows `ahead` slots away
    let pf = |at: usize| {
        if let Some(x) = ahead {
            simd::prefetch(src.as_ptr().wrapping_add(at).wrapping_offset(x));
        }
    };
    gather_rows(loops, s, |sb, db, n, si, di| {
        if si == 1 {
            for j in (0..n).step_by((64 / size_of::<T>()).max(1)) {
                pf(sb + j);
            }
        }
        for j in 0..n {
            out[db + j * di] = src[sb + j * si];
        }
    });
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod stream;

/// The blocks of a zip/unzip kernel: `len` elements of rows `rs` apart,
/// repeated by the two inner loops, each given as (count, row step, packed
/// step).
fn repeated(len: u64, rs: u64, inner: (usize, u64, u64), outer: (usize, u64, u64)) -> Blocks {
    Blocks {
        count: inner.0,
        rstep: inner.1 as usize,
        pstep: inner.2 as usize,
        count2: outer.0,
        rstep2: outer.1 as usize,
        pstep2: outer.2 as usize,
        ..Blocks::one(len as usize, rs as usize)
    }
}

//! Choosing the inner kernel and the order of the outer loops of a
//! relayout nest.
//!
//! Pre: `loops` are coalesced and sorted by destination stride (outermost
//! first), as [`coalesce`](super::plan::coalesce) leaves them.
//! Post:
//! 1. the outer loops, the kernel's loops and the gather loops are a
//!    permutation of the input loops (some possibly split in two, with
//!    their product unchanged);
//! 2. a [`Kernel::Gather`] block is a dense destination range (its loops'
//!    destination strides chain from 1) and all its loops are free.

use super::fixed::sort_by;
use super::kernels::classify;
use super::plan::{Loop, Loops, Sizes, FREE};
use super::relayout::Kernel;

/// A loop of one step.
pub(crate) const ONE: Loop = Loop {
    n: 1,
    src: 0,
    dst: 0,
    dim: FREE,
    w: 1,
};

/// Largest block side for [`Kernel::Block`] (bigger loops are split so a
/// block of both sides stays in L1).
const BLOCK: u64 = 32;

/// A gather block covers at least this many destination slots (and at
/// most [`GATHER_MAX`]) when no kernel finds runs on both sides.
const GATHER_MIN: u64 = 64;
const GATHER_MAX: u64 = 1024;
/// Most slots in a gather stage (chunks × chunk length).
pub(crate) const STAGE_MAX: u64 = 16384;

/// The loop nest of a plan.
#[derive(Clone, Debug)]
pub(crate) struct Nest {
    pub(crate) outer: Loops,
    pub(crate) a: Loop,
    pub(crate) b: Loop,
    pub(crate) kernel: Kernel,
    /// For [`Kernel::Gather`]: its loops, outermost first (destination
    /// order); `b` is then the block as one contiguous loop.
    pub(crate) gather: Loops,
    pub(crate) sizes: Sizes,
}

/// Picks the kernel and orders the outer loops.
pub(crate) fn choose(mut loops: Loops, sizes: Sizes) -> Nest {
    let all = loops;
    let b = loops.pop().unwrap_or(ONE);
    let ai = if b.src == 1 {
        // runs: pair with the loop of the smallest source stride, so that
        // reads stream through the source in order
        (0..loops.len()).min_by_key(|&i| loops[i].src)
    } else {
        // interleave/deinterleave/transpose: pair with the source's
        // contiguous loop
        loops.iter().position(|l| l.src == 1)
    };
    let a = match ai.or(loops.len().checked_sub(1)) {
        Some(i) => loops.remove(i),
        None => ONE,
    };
    let kernel = classify(&a, &b);
    if kernel != Kernel::Block {
        // Runs and deinterleaves go in source order: reads stream
        // sequentially while each kernel call writes whole runs of cache
        // lines. Interleaves go in destination order (measured on
        // bf16[4096,4096]: 0.85x of memcpy against 0.6x in source order).
        // The last two loops run inside the mover (`block_rep2`).
        if matches!(kernel, Kernel::Interleave(_)) {
            sort_by(&mut loops, |x, y| y.dst.cmp(&x.dst).then(y.src.cmp(&x.src)));
        } else {
            sort_by(&mut loops, |x, y| y.src.cmp(&x.src).then(y.dst.cmp(&x.dst)));
        }
        return Nest {
            outer: loops,
            a,
            b,
            kernel,
            gather: Loops::new(),
            sizes,
        };
    }
    // (a gather block needs a staging buffer: with `alloc` only)
    if cfg!(feature = "alloc") {
        if let Some(nest) = gather(&all, &sizes) {
            return nest;
        }
    }
    let (mut a, mut b) = (a, b);
    for l in [&mut a, &mut b] {
        if let Some(outer) = split(l) {
            // (room: `a` and `b` were taken out, and a loop is only split
            // if it is one of them)
            let pushed = loops.push(outer);
            debug_assert!(pushed.is_some());
        }
    }
    let kernel = classify(&a, &b);
    block_order(&mut loops);
    Nest {
        outer: loops,
        a,
        b,
        kernel,
        gather: Loops::new(),
        sizes,
    }
}

/// Cache blocking: loops long-strided on both sides outermost, so that a
/// block of both sides stays in cache.
fn block_order(loops: &mut [Loop]) {
    sort_by(loops, |x, y| {
        y.src
            .min(y.dst)
            .cmp(&x.src.min(x.dst))
            .then(y.dst.cmp(&x.dst))
    });
}

/// A gather nest: the innermost destination loops that form a dense, free
/// block of `GATHER_MIN..=GATHER_MAX` slots (a *chunk*), and, if one
/// exists, one more free loop that continues the chunk's contiguous source
/// run (so that whole source lines are read), repeating the chunk `a.n`
/// times at destination stride `a.dst`. The kernel fills a stage of
/// `a.n × b.n` slots in source order and copies the chunks out.
///
/// In `gather` the loops' `dst` is their stride in the stage.
fn gather(all: &[Loop], sizes: &Sizes) -> Option<Nest> {
    let mut foot = 1u64;
    let mut k = all.len();
    while k > 0 {
        let l = all[k - 1];
        if l.dst != foot || l.dim != FREE || foot * l.n > GATHER_MAX {
            break;
        }
        foot *= l.n;
        k -= 1;
    }
    if foot < GATHER_MIN || all.len() - k < 2 {
        return None;
    }
    let mut g = Loops::from_slice(&all[k..])?;
    let mut outer = Loops::from_slice(&all[..k])?;
    // the chunk's contiguous source run
    let mut run = 1u64;
    while let Some(l) = g.iter().find(|l| l.src == run) {
        run *= l.n;
    }
    let mut a = ONE;
    if let Some(i) = outer.iter().position(|l| l.src == run && l.dim == FREE) {
        // as many chunks as fit the stage, split evenly off the loop
        let l = outer[i];
        let fit = (STAGE_MAX / foot).max(1);
        if let Some(c) = (2..=fit.min(l.n)).rev().find(|c| l.n.is_multiple_of(*c)) {
            a = Loop { n: c, ..l };
            if c == l.n {
                outer.remove(i);
            } else {
                outer[i] = Loop {
                    n: l.n / c,
                    src: l.src * c,
                    dst: l.dst * c,
                    ..l
                };
            }
            g.push(Loop { dst: foot, ..a })?;
        }
    }
    block_order(&mut outer);
    let b = Loop {
        n: foot,
        src: 0,
        dst: 1,
        dim: FREE,
        w: 1,
    };
    // the stage is filled in source order (reads stream, writes stay in
    // cache)
    sort_by(&mut g, |x, y| y.src.cmp(&x.src).then(y.dst.cmp(&x.dst)));
    // the stage-contiguous loop just outside the source-contiguous one, so
    // the two form transposable tiles (8 × 8 for 4-byte slots)
    if let Some(i) = g.iter().position(|l| l.dst == 1) {
        if g.len() >= 2 && i + 1 < g.len() && g[g.len() - 1].src == 1 {
            let l = g.remove(i);
            let at = g.len() - 1;
            g.insert(at, l)?;
        }
    }
    Some(Nest {
        outer,
        a,
        b,
        kernel: Kernel::Gather,
        gather: g,
        sizes: *sizes,
    })
}

/// Splits a block loop longer than [`BLOCK`] into an inner loop of the
/// largest divisor of its count up to `BLOCK` and returns the outer part.
/// Splits are even so that both parts keep the loop's bounds (and, in
/// inline-fill mode, the destination stays densely covered); a count with
/// no divisor in `4..=BLOCK` stays whole.
fn split(l: &mut Loop) -> Option<Loop> {
    if l.n <= BLOCK {
        return None;
    }
    let inner = (4..=BLOCK).rev().find(|d| l.n.is_multiple_of(*d))?;
    let outer = Loop {
        n: l.n / inner,
        src: l.src * inner,
        dst: l.dst * inner,
        dim: l.dim,
        w: l.w * inner,
    };
    l.n = inner;
    Some(outer)
}

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

use super::nest::{classify, sort_loops, Kernel, Loop, Loops, Nest, Order, Sizes, FREE};

/// Largest block side for [`Kernel::Block`] (bigger loops are split so a
/// block of both sides stays in L1).
const BLOCK: u64 = 32;

/// A gather block covers at least this many destination slots (and at
/// most [`GATHER_MAX`]) when no kernel finds runs on both sides.
const GATHER_MIN: u64 = 64;
const GATHER_MAX: u64 = 1024;
/// Most slots in a gather stage (chunks × chunk length).
pub(crate) const STAGE_MAX: u64 = 16384;

/// Picks the kernel and orders the outer loops.
pub(crate) const fn choose(mut loops: Loops, sizes: Sizes) -> Nest {
    let all = loops;
    let b = match loops.pop() {
        Some(b) => b,
        None => Loop::ONE,
    };
    // runs: pair with the loop of the smallest source stride, so that
    // reads stream through the source in order; interleave, deinterleave,
    // transpose: pair with the source's contiguous loop
    let ls = loops.as_slice();
    let mut ai: Option<usize> = None;
    let mut i = 0;
    while i < ls.len() {
        let better = if b.src == 1 {
            match ai {
                Some(j) => ls[i].src < ls[j].src,
                None => true,
            }
        } else {
            ai.is_none() && ls[i].src == 1
        };
        if better {
            ai = Some(i);
        }
        i += 1;
    }
    if ai.is_none() && !ls.is_empty() {
        ai = Some(ls.len() - 1);
    }
    let a = match ai {
        Some(i) => loops.remove(i),
        None => Loop::ONE,
    };
    let kernel = classify(&a, &b);
    if !matches!(kernel, Kernel::Block) {
        // Runs and deinterleaves go in source order: reads stream
        // sequentially while each kernel call writes whole runs of cache
        // lines. Interleaves go in destination order (measured on
        // bf16[4096,4096]: 0.85x of memcpy against 0.6x in source order).
        // The last two loops run inside the mover (`block_rep2`).
        let order = if matches!(kernel, Kernel::Interleave(_)) {
            Order::Dst
        } else {
            Order::Src
        };
        sort_loops(loops.as_mut_slice(), order);
        return Nest {
            outer: loops,
            a,
            b,
            kernel,
            gather: Loops::empty(Loop::ONE),
            sizes,
        };
    }
    // (a gather block needs a staging buffer: with `alloc` only)
    if cfg!(feature = "alloc") {
        if let Some(nest) = gather(all.as_slice(), &sizes) {
            return nest;
        }
    }
    let (mut a, mut b) = (a, b);
    // (room: `a` and `b` were taken out, and a loop is only split if it is
    // one of them)
    if let Some(outer) = split(&mut a) {
        let _ = loops.push(outer);
    }
    if let Some(outer) = split(&mut b) {
        let _ = loops.push(outer);
    }
    let kernel = classify(&a, &b);
    sort_loops(loops.as_mut_slice(), Order::Block);
    Nest {
        outer: loops,
        a,
        b,
        kernel,
        gather: Loops::empty(Loop::ONE),
        sizes,
    }
}

/// A gather nest: the innermost destination loops that form a dense, free
/// block of `GATHER_MIN..=GATHER_MAX` slots (a *chunk*), and, if one
/// exists, one more free loop that continues the chunk's contiguous source
/// run (so that whole source lines are read), repeating the chunk `a.n`
/// times at destination stride `a.dst`. The kernel fills a stage of
/// `a.n × b.n` slots in source order and copies the chunks out.
///
/// In `gather` the loops' `dst` is their stride in the stage.
const fn gather(all: &[Loop], sizes: &Sizes) -> Option<Nest> {
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
    let (head, tail) = all.split_at(k);
    let (mut g, mut outer) = (Loops::empty(Loop::ONE), Loops::empty(Loop::ONE));
    if !g.extend_from_slice(tail) || !outer.extend_from_slice(head) {
        return None;
    }
    // the chunk's contiguous source run
    let mut run = 1u64;
    loop {
        let gs = g.as_slice();
        let mut found = None;
        let mut i = 0;
        while i < gs.len() {
            if gs[i].src == run {
                found = Some(gs[i].n);
                break;
            }
            i += 1;
        }
        match found {
            Some(n) => run *= n,
            None => break,
        }
    }
    let mut a = Loop::ONE;
    let os = outer.as_slice();
    let mut pos = None;
    let mut i = 0;
    while i < os.len() {
        if os[i].src == run && os[i].dim == FREE {
            pos = Some(i);
            break;
        }
        i += 1;
    }
    if let Some(i) = pos {
        // as many chunks as fit the stage, split evenly off the loop
        let l = outer.as_slice()[i];
        let fit = if STAGE_MAX / foot > 1 {
            STAGE_MAX / foot
        } else {
            1
        };
        let top = if fit < l.n { fit } else { l.n };
        let mut c = top;
        while c >= 2 && !l.n.is_multiple_of(c) {
            c -= 1;
        }
        if c >= 2 {
            a = Loop { n: c, ..l };
            if c == l.n {
                let _ = outer.remove(i);
            } else {
                outer.as_mut_slice()[i] = Loop {
                    n: l.n / c,
                    src: l.src * c,
                    dst: l.dst * c,
                    ..l
                };
            }
            if !g.push(Loop { dst: foot, ..a }) {
                return None;
            }
        }
    }
    sort_loops(outer.as_mut_slice(), Order::Block);
    let b = Loop {
        n: foot,
        src: 0,
        dst: 1,
        dim: FREE,
        w: 1,
    };
    // the stage is filled in source order (reads stream, writes stay in
    // cache)
    sort_loops(g.as_mut_slice(), Order::Src);
    // the stage-contiguous loop just outside the source-contiguous one, so
    // the two form transposable tiles (8 × 8 for 4-byte slots)
    let gs = g.as_slice();
    let mut pos = None;
    let mut i = 0;
    while i < gs.len() {
        if gs[i].dst == 1 {
            pos = Some(i);
            break;
        }
        i += 1;
    }
    if let Some(i) = pos {
        let len = g.as_slice().len();
        if len >= 2 && i + 1 < len && g.as_slice()[len - 1].src == 1 {
            let l = g.remove(i);
            let at = g.as_slice().len() - 1;
            if !g.insert(at, l) {
                return None;
            }
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
/// no divisor in `4..=BLOCK`, or whose outer strides would overflow (hostile
/// strides on an empty array: nothing is moved, but the plan is still made),
/// stays whole.
const fn split(l: &mut Loop) -> Option<Loop> {
    if l.n <= BLOCK {
        return None;
    }
    let mut inner = BLOCK;
    while inner >= 4 && !l.n.is_multiple_of(inner) {
        inner -= 1;
    }
    if inner < 4 {
        return None;
    }
    let (Some(src), Some(dst), Some(w)) = (
        l.src.checked_mul(inner),
        l.dst.checked_mul(inner),
        l.w.checked_mul(inner),
    ) else {
        return None;
    };
    let outer = Loop {
        n: l.n / inner,
        src,
        dst,
        dim: l.dim,
        w,
    };
    l.n = inner;
    Some(outer)
}

//! The vocabulary of a relayout nest, shared by the planner, the kernel
//! chooser, the kernels and the walker: loops, the nest they form, the
//! kernel that runs its innermost block, and the orders loops are sorted
//! in. It imports nothing else of the relayout engine, so the modules
//! above it form layers: `nest` ← `plan` ← `choose` ← `kernels`, `walk` ←
//! `relayout`.

use super::fixed::Fixed;

/// The inner kernel a plan runs on each block (two innermost loops).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kernel {
    /// Runs contiguous on both sides, copied whole (`copy_from_slice`, or
    /// non-temporal stores for large destinations).
    Runs,
    /// `k` source rows zipped into one contiguous destination block
    /// (`(8,128)(2,1)`-style packing).
    Interleave(u8),
    /// One contiguous source block split into `k` destination rows.
    Deinterleave(u8),
    /// A small 2-D block with arbitrary strides.
    Block,
    /// Transposes of tiles: dense destination chunks (up to 1024 slots
    /// each) gathered into a staging block from whole source rows (8 × 8
    /// register transposes for 4-byte slots), then copied out.
    Gather,
    /// No loop structure was found (a tiling that is not affine: a later
    /// tile cutting an earlier tile's dim, or a `*` group, so that the
    /// parts do not meet again in memory): one element at a time by the
    /// element-wise offsets.
    Elementwise,
}

/// No dim constraint: every value of the loop is in bounds.
pub(crate) const FREE: u32 = u32::MAX;

/// One loop of the nest: `n` steps of `src`/`dst` slots; it is digit `w`
/// of dim `dim` (or [`FREE`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Loop {
    pub(crate) n: u64,
    pub(crate) src: u64,
    pub(crate) dst: u64,
    pub(crate) dim: u32,
    pub(crate) w: u64,
}

impl Loop {
    /// A loop of one step, no dim: the neutral loop.
    pub(crate) const ONE: Loop = Loop {
        n: 1,
        src: 0,
        dst: 0,
        dim: FREE,
        w: 1,
    };
}

/// Most loops of a nest and dims (logical and pseudo) a plan handles; a
/// layout needing more takes the element-wise path.
pub(crate) const LOOPS: usize = 64;
/// See [`LOOPS`].
pub(crate) const DIMS: usize = 48;

/// The loops of a nest (in place: planning needs no allocator).
pub(crate) type Loops = Fixed<Loop, LOOPS>;
/// The size of each constrained dim of a nest.
pub(crate) type Sizes = Fixed<u64, DIMS>;

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

/// The orders the planner sorts loops in, outermost first.
#[derive(Clone, Copy)]
pub(crate) enum Order {
    /// Destination stride descending, then source stride descending.
    Dst,
    /// Source stride descending, then destination stride descending.
    Src,
    /// The smaller of the two strides descending, then destination stride
    /// descending (cache blocking).
    Block,
}

/// Whether `x` goes before `y` in `order`.
const fn before(order: Order, x: &Loop, y: &Loop) -> bool {
    const fn min(a: u64, b: u64) -> u64 {
        if a < b {
            a
        } else {
            b
        }
    }
    let (k1x, k1y, k2x, k2y) = match order {
        Order::Dst => (x.dst, y.dst, x.src, y.src),
        Order::Src => (x.src, y.src, x.dst, y.dst),
        Order::Block => (min(x.src, x.dst), min(y.src, y.dst), x.dst, y.dst),
    };
    // descending on both keys
    k1x > k1y || (k1x == k1y && k2x > k2y)
}

/// Sorts loops stably in `order` (insertion sort: short lists, `const`).
pub(crate) const fn sort_loops(s: &mut [Loop], order: Order) {
    let mut i = 1;
    while i < s.len() {
        let x = s[i];
        let mut j = i;
        while j > 0 && before(order, &x, &s[j - 1]) {
            s[j] = s[j - 1];
            j -= 1;
        }
        s[j] = x;
        i += 1;
    }
}

/// The kernel for inner loops `a` (outer) and `b` (inner).
pub(crate) const fn classify(a: &Loop, b: &Loop) -> Kernel {
    const fn small(n: u64) -> bool {
        matches!(n, 2 | 4 | 8)
    }
    if b.src == 1 && b.dst == 1 {
        Kernel::Runs
    } else if a.n > 1 && b.dst == 1 && a.src == 1 && small(b.n) && a.dst == b.n {
        Kernel::Interleave(b.n as u8)
    } else if b.n > 1 && b.dst == 1 && a.src == 1 && small(a.n) && b.src == a.n && a.dst >= b.n {
        Kernel::Deinterleave(a.n as u8)
    } else {
        Kernel::Block
    }
}

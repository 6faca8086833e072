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
    pub(crate) const ONE: Loop = Loop::free(1, 0, 0);

    /// `n` steps of `src`/`dst` slots with no dim constraint (every value
    /// in bounds): a stage's loops, and the loops tests write by hand.
    pub(crate) const fn free(n: u64, src: u64, dst: u64) -> Loop {
        Loop {
            n,
            src,
            dst,
            dim: FREE,
            w: 1,
        }
    }
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
    classify_packed(a, b, 0)
}

/// [`classify`], also taking zips and unzips of `rows` rows (0: none):
/// the 16 and 32 rows of the sub-byte packings `(16,1)E(2)` and
/// `(32,1)E(1)`, which only the packed sub-byte mover has kernels for (a
/// wider slot's 16-row block stays a 2-D block or a gather).
pub(crate) const fn classify_packed(a: &Loop, b: &Loop, rows: u64) -> Kernel {
    const fn small(n: u64, rows: u64) -> bool {
        matches!(n, 2 | 4 | 8) || (rows > 1 && n == rows)
    }
    if b.src == 1 && b.dst == 1 {
        Kernel::Runs
    } else if a.n > 1 && b.dst == 1 && a.src == 1 && small(b.n, rows) && a.dst == b.n {
        Kernel::Interleave(b.n as u8)
    } else if b.n > 1
        && b.dst == 1
        && a.src == 1
        && small(a.n, rows)
        && b.src == a.n
        && a.dst >= b.n
    {
        Kernel::Deinterleave(a.n as u8)
    } else {
        Kernel::Block
    }
}

/// Most outer loops, gather loops and constrained dims a plan keeps (a
/// nest needing more takes the element-wise path): a plan is a
/// compile-time constant of each layout type the typed copies use, so
/// what it keeps is sized for real nests, not for planning.
pub(crate) const KEPT_OUTER: usize = 16;
/// See [`KEPT_OUTER`] (a gather chunk is at most 1024 slots: at most 10
/// loops, and the one that repeats it).
pub(crate) const KEPT_GATHER: usize = 12;
/// See [`KEPT_OUTER`] (the logical dims and one pseudo dim a side).
pub(crate) const KEPT_DIMS: usize = crate::value::MAX_RANK + 2;

/// A [`Loop`] as a plan keeps it: its fields in `usize`, which holds every
/// count, stride and weight of a plan that can run (a plan's storage fits
/// `usize`), and halves a plan on 32-bit targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Packed {
    pub(crate) n: usize,
    pub(crate) src: usize,
    pub(crate) dst: usize,
    pub(crate) w: usize,
    pub(crate) dim: u32,
}

impl Packed {
    const ONE: Packed = Packed {
        n: 1,
        src: 0,
        dst: 0,
        w: 1,
        dim: FREE,
    };

    /// `l` packed; `None` if a field does not fit `usize`.
    const fn pack(l: &Loop) -> Option<Packed> {
        let max = usize::MAX as u64;
        if l.n > max || l.src > max || l.dst > max || l.w > max {
            return None;
        }
        Some(Packed {
            n: l.n as usize,
            src: l.src as usize,
            dst: l.dst as usize,
            w: l.w as usize,
            dim: l.dim,
        })
    }

    /// The loop.
    pub(crate) const fn unpack(&self) -> Loop {
        Loop {
            n: self.n as u64,
            src: self.src as u64,
            dst: self.dst as u64,
            dim: self.dim,
            w: self.w as u64,
        }
    }
}

/// Packs `from` onto `into`; `false` if a loop does not fit.
const fn pack_all<const N: usize>(from: &Loops, into: &mut Fixed<Packed, N>) -> bool {
    let ls = from.as_slice();
    let mut i = 0;
    while i < ls.len() {
        match Packed::pack(&ls[i]) {
            Some(p) if into.push(p) => {}
            _ => return false,
        }
        i += 1;
    }
    true
}

/// A [`Nest`] as a plan keeps it: the same loops, packed, in lists sized
/// by [`KEPT_OUTER`], [`KEPT_GATHER`] and [`KEPT_DIMS`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kept {
    outer: Fixed<Packed, KEPT_OUTER>,
    a: Packed,
    b: Packed,
    pub(crate) kernel: Kernel,
    gather: Fixed<Packed, KEPT_GATHER>,
    /// (`u64`, as the walker reads them: borrowed, not converted, on every
    /// run)
    sizes: Fixed<u64, KEPT_DIMS>,
}

impl Kept {
    /// `nest` kept; `None` if it does not fit.
    pub(crate) const fn keep(nest: &Nest) -> Option<Kept> {
        let (Some(a), Some(b)) = (Packed::pack(&nest.a), Packed::pack(&nest.b)) else {
            return None;
        };
        let mut k = Kept {
            outer: Fixed::empty(Packed::ONE),
            a,
            b,
            kernel: nest.kernel,
            gather: Fixed::empty(Packed::ONE),
            sizes: Fixed::empty(0),
        };
        if !pack_all(&nest.outer, &mut k.outer) || !pack_all(&nest.gather, &mut k.gather) {
            return None;
        }
        let mut i = 0;
        while i < nest.sizes.as_slice().len() {
            if !k.sizes.push(nest.sizes.as_slice()[i]) {
                return None;
            }
            i += 1;
        }
        Some(k)
    }

    /// The outer loops, the kernel's block and the kernel, for `const`
    /// readers (the typed copies' compile-time fast path).
    pub(crate) const fn parts(&self) -> (&[Packed], Loop, Loop, Kernel) {
        (
            self.outer.as_slice(),
            self.a.unpack(),
            self.b.unpack(),
            self.kernel,
        )
    }

    /// How many outer loops.
    pub(crate) fn outer_len(&self) -> usize {
        self.outer.len()
    }

    /// Outer loop `i` (outermost first).
    #[inline]
    pub(crate) fn outer(&self, i: usize) -> Option<Loop> {
        self.outer.get(i).map(Packed::unpack)
    }

    /// The outer loops as kept.
    #[inline]
    pub(crate) const fn outer_packed(&self) -> &[Packed] {
        self.outer.as_slice()
    }

    /// The kernel block's outer loop.
    pub(crate) fn a(&self) -> Loop {
        self.a.unpack()
    }

    /// The kernel block's inner loop.
    pub(crate) fn b(&self) -> Loop {
        self.b.unpack()
    }

    /// The dims of the kernel block's loops (`a`'s, `b`'s).
    #[inline]
    pub(crate) const fn block_dims(&self) -> (u32, u32) {
        (self.a.dim, self.b.dim)
    }

    /// The gather loops, unpacked.
    pub(crate) fn gather(&self) -> Fixed<Loop, KEPT_GATHER> {
        let mut g = Fixed::empty(Loop::ONE);
        for p in self.gather.iter() {
            let _ = g.push(p.unpack());
        }
        g
    }

    /// The size of each constrained dim.
    #[inline]
    pub(crate) fn sizes(&self) -> &[u64] {
        &self.sizes
    }

    /// The same nest with outer loop `i` moved outermost.
    #[cfg(feature = "parallel")]
    pub(crate) fn with_outermost(&self, i: usize) -> Kept {
        let mut k = *self;
        let l = k.outer.remove(i);
        // (room: one was removed)
        let _ = k.outer.insert(0, l);
        k
    }
}

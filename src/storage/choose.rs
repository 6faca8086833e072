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

use super::caches::Caches;
use super::kernels::square_unit;
use super::nest::{classify_packed, sort_loops, Kernel, Loop, Loops, Nest, Order, Sizes, FREE};
#[cfg(feature = "alloc")]
use super::simd::transpose::transposes;
use super::simd::Simd;

/// (Gather nests are planned with `alloc` only.)
#[cfg(not(feature = "alloc"))]
const fn transposes(_: &[Loop]) -> bool {
    false
}

/// The block and stage sizes of a nest, in slots: derived from a host's
/// caches and SIMD level ([`Budget::new`]) for the slot width, so that
/// they follow the machine. With [`Caches::FALLBACK`] (32 KiB L1d, 1 MiB
/// L2), AVX-512 and 4-byte slots they are the sizes first measured on
/// such a host (32, 64, 1024, 16384).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Budget {
    /// Largest block side for [`Kernel::Block`] (bigger loops are split):
    /// the largest power of two `n` (8 to 64) whose `n × n` blocks on both
    /// sides, each row at least a 64-byte line, fill at most half of L1d.
    pub(crate) block: u64,
    /// A gather chunk (a dense destination range) covers at least four
    /// 64-byte lines …
    pub(crate) gather_min: u64,
    /// … and at most an eighth of L1d (4 KiB of 32 KiB), when no kernel
    /// finds runs on both sides.
    pub(crate) gather_max: u64,
    /// Most slots in a gather stage (chunks × chunk length): a sixteenth
    /// of L2, 16 to 256 KiB (64 KiB of 1 MiB).
    pub(crate) stage: u64,
    /// Rows packed into a 32-bit column by sub-byte slots (`32 / bits`:
    /// 8, 16 or 32), whose zips the packed mover has kernels for; 0 for
    /// wider slots.
    pub(crate) packed_rows: u64,
    /// The slot width, in bits.
    pub(crate) bits: u32,
    /// Slots of each source row a tile → column-major gather block reads
    /// (the chunks of its split loop at most a stage of them,
    /// [`cut_most`]): 64 where the AVX-512 level runs (its `columns`
    /// kernel takes four column steps of 16), else 16, one 64-byte line
    /// of 32-bit slots (two column steps of the 8 × 8 transposes).
    pub(crate) row_slots: u64,
    /// Whether the plan's sizes stream by the caches' rule
    /// ([`Caches::streams`]): the walks that streaming stores want
    /// ([`page_group`]) are taken only then.
    pub(crate) streams: bool,
    /// [`Caches::favour_writes`]: runs contiguous on both sides walk for
    /// the destination's streams (the block that continues the
    /// destination, [`page_group`]), else in the source's order.
    pub(crate) favour_writes: bool,
}

impl Budget {
    /// The sizes for `caches`, `bits`-wide slots and kernels at `level`.
    pub(crate) const fn new(caches: &Caches, bits: u32, level: Simd) -> Budget {
        let unit = if bits >= 8 { bits as u64 / 8 } else { 1 };
        let l1 = caches.l1d as u64;
        let mut block = 64u64;
        while block > 8 {
            let row = if block * unit > 64 { block * unit } else { 64 };
            if 2 * block * row <= l1 / 2 {
                break;
            }
            block /= 2;
        }
        let l2 = caches.l2 as u64 / 16;
        let stage = if l2 < 16 << 10 {
            16 << 10
        } else if l2 > 256 << 10 {
            256 << 10
        } else {
            l2
        };
        Budget {
            block,
            gather_min: slots(4 * 64, bits),
            gather_max: slots(l1 / 8, bits),
            stage: slots(stage, bits),
            packed_rows: if bits < 8 { 32 / bits as u64 } else { 0 },
            bits,
            row_slots: if level as u8 >= Simd::Avx512 as u8 {
                64
            } else {
                16
            },
            streams: false,
            favour_writes: caches.favour_writes,
        }
    }
}

/// `bytes` in `bits`-wide slots (sub-byte slots pack 8 / bits to a byte),
/// at least 1.
const fn slots(bytes: u64, bits: u32) -> u64 {
    let n = bytes * 8 / bits as u64;
    if n > 1 {
        n
    } else {
        1
    }
}

/// Picks the kernel and orders the outer loops.
pub(crate) const fn choose(mut loops: Loops, sizes: Sizes, budget: &Budget) -> Nest {
    let all = loops;
    let b = match loops.pop() {
        Some(b) => b,
        None => Loop::ONE,
    };
    // runs: pair with the loop of the smallest source stride, so that
    // reads stream through the source in order (or with the destination's,
    // below); interleave, deinterleave,
    // transpose: pair with the source's contiguous loop
    // (Tried for runs whose destinations that loop puts a multiple of
    // 4 KiB apart — the L1d way size of the hosts seen, where the 8 tiles'
    // rows of f32[1000²] rows → `T(8,128)` could alias in one set —
    // pairing with the loop of the smallest destination stride instead (a
    // whole tile a block, 8 source rows): medians of 10 alternations at
    // 16→16 / 16→32 / 16→48 / 32→48, 0.85 / 0.87 / 0.80 / 0.85× of
    // memcpy as is, 0.81 / 0.82 / 0.80 / 0.86× so (64-byte aligned 0.87×
    // against 0.82×; thread CPU clock, load 3.3, AMD EPYC Zen 4). Not
    // kept.)
    // (Tried for the same case, f32[1000²] rows ↔ `T(8,128)` padded, in
    // cache, other walks of a tile row (its 32 KB of source, 32 KiB of
    // destination). The walk kept reads one side in order (rows → `T`:
    // the source row by row, the 8 tiles' destination runs 4 KiB apart;
    // `T` → rows the mirror). Medians of five rounds of 15 runs, thread
    // CPU clock, load 2.8–3.0, AMD EPYC Zen 4, as is: 0.83× / 0.81× of
    // memcpy. The run loop cut into groups of 2 tiles walked over the
    // tile's 8 rows (groups of 1 and 4 alike): rows → `T` 0.48×; the
    // tile's rows cut into groups of 4 (2 alike), each group over the 8
    // tiles: 0.56× / 0.49×; the destination-order block above (a whole
    // tile): 0.76× / 0.78×, with the next tile row's source hinted a tile
    // row (32 KB) ahead by `prefetcht2` 0.83× / 0.80× (`t0`, `t1` within
    // 0.05 of it, three rounds) — by the idle wall clock (load 0.9–1.0)
    // 0.83× / 0.85× against 0.87× / 0.87× as is (seven rounds), and
    // 0.84–0.89× / 0.78–0.82× against 0.88–1.00× / 0.61–0.86× in three
    // full bench runs each. And the
    // tile row blocked in cache: its 32 KiB of destination assembled in a
    // stage and written out by one sequential copy, so that both sides
    // stream as memcpy's do: 0.44× / 0.49× (the second copy costs about
    // as much as the first; whatever the order of the plan's streams
    // loses to memcpy's single one is less than that). Not kept. As for
    // 4 KiB aliasing between a run's loads and the stores just made: in
    // both directions about 12% of the runs start their loads within 256
    // bytes, modulo 4096, of the previous run's last stores, and as many
    // have their destination less than 512 bytes ahead of their source
    // modulo 4096, whatever the buffers' offsets (the strides' residues
    // are multiples of 32 bytes) and in every order of the blocks above:
    // no walk avoids it.)
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
    // Runs contiguous on both sides whose blocks could continue either
    // side: the block that continues the destination, if it repeats the
    // run fewer times than the one that continues the source, and then
    // the outer loops in destination order. A block's repeats are the
    // streams the other side sees at once: f32 rows → `T(8,128)` in source
    // order reads one row and writes its 32 runs into 32 tiles 4 KiB
    // apart; a tile a block writes one sequential stream and reads 8 rows
    // (`T(8,128)` → rows keeps source order: a tile a block there, 8 rows
    // written). Measured (Intel Xeon guest, CPUID family 6 model 167, 2
    // vCPU, KVM; L1d 48 KiB, L2 2 MiB, L3 105 MiB; f32[4096,4096], plain
    // `Vec`s, streamed, the two builds alternated, two rounds of 6 calls):
    // 5.4–5.6 → 7.0–7.4 GB/s, memcpy 8.1–9.0 (0.63× → 0.83×), source and
    // destination on lines or 16 bytes into one alike; a C model of the
    // two walks alone (aligned, streaming stores) 6.1–8.2 against 8.0–10.8
    // GB/s. Ties (f32[1000²], 8 tiles a tile row) keep source order, as
    // the in-cache padded case measured on AMD EPYC Zen 4 (below).
    // (`T(8,128)` → rows, when it streams, then takes 8 tiles a block:
    // see `page_group`.) On AMD EPYC Zen 4 the source's order wins
    // (f32[4096²] rows → `T(8,128)`, plain `Vec`s, streamed: 1.03–1.09×
    // of memcpy in source order, 0.90–0.92× a tile a block), so both walks
    // are taken only where the caches favour the writes
    // ([`Caches::favour_writes`]).
    let mut by_dst = false;
    let mut group: Option<Loop> = None;
    if let (Some(j), true) = (ai, budget.favour_writes) {
        if b.src == 1 && b.dst == 1 && ls[j].src == b.n {
            if let Some(i) = continues_dst(ls, j, &b, budget) {
                if ls[i].n < ls[j].n {
                    ai = Some(i);
                    by_dst = true;
                } else if ls[i].n > ls[j].n {
                    if let Some((inner, outer)) = page_group(&ls[i], ls[j].n, &b, budget) {
                        loops.as_mut_slice()[i] = outer;
                        group = Some(inner);
                    }
                }
            }
        }
    }
    let a = match (group, ai) {
        (Some(inner), _) => inner,
        (None, Some(i)) => loops.remove(i),
        (None, None) => Loop::ONE,
    };
    let kernel = classify_packed(&a, &b, budget.packed_rows);
    // a transpose between packed tilings (its `k × k` squares innermost)
    // is a tile transpose of `k²`-slot units: gathered like one, each
    // square moved whole (`simd::squares::gather_squares`; measured on
    // bf16[2048,4096] {1,0:T(8,128)(2,1)} -> {0,1:T(8,128)(2,1)}: see
    // there). The 4 × 4 squares of bytes too, since the AVX-512 unit
    // blocks read whole lines (s8[2048,4096] `(4,1)`, CPU-time clock,
    // load average 4-6, median of 5 rounds of 7 runs, plain `Vec`s /
    // 64-byte aligned: as `Interleave(4)` 0.53x / 0.49x of memcpy,
    // gathered 0.54x / 0.67x; with streaming stores forced, 0.53x / 0.52x
    // against 0.79x / 0.93x). Tried: the outer loops of these gathers in
    // source order (the next block's 16 source tiles the 2 KiB after
    // this one's) rather than `Order::Block`: bf16 0.84x against 0.87x,
    // s8 0.80x against 0.74x (streaming, same runs): no clear change;
    // again on AMD EPYC Zen 3 without AVX-512, builds alternated: bf16
    // 8.4-8.8 against 9.1-9.8 GB/s, s8 8.9-9.3 against 10.1-10.4
    if cfg!(feature = "alloc") && matches!(kernel, Kernel::Interleave(_)) {
        if let Some(nest) = gather(all.as_slice(), &sizes, budget) {
            let bytes = (budget.bits / 8) as usize;
            if budget.bits.is_multiple_of(8)
                && matches!(square_unit(nest.gather.as_slice(), bytes), Some(2 | 4))
            {
                return nest;
            }
        }
    }
    if !matches!(kernel, Kernel::Block) {
        // Runs and deinterleaves go in source order: reads stream
        // sequentially while each kernel call writes whole runs of cache
        // lines (runs whose block continues the destination, above, in
        // destination order). Interleaves go in destination order (measured on
        // bf16[4096,4096]: 0.85x of memcpy against 0.6x in source order).
        // The last two loops run inside the mover (`block_rep2`).
        let order = if by_dst || matches!(kernel, Kernel::Interleave(_)) {
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
        if let Some(nest) = gather(all.as_slice(), &sizes, budget) {
            return nest;
        }
    }
    let (mut a, mut b) = (a, b);
    // (room: `a` and `b` were taken out, and a loop is only split if it is
    // one of them)
    if let Some(outer) = split(&mut a, budget.block) {
        let _ = loops.push(outer);
    }
    if let Some(outer) = split(&mut b, budget.block) {
        let _ = loops.push(outer);
    }
    let kernel = classify_packed(&a, &b, budget.packed_rows);
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
/// block of `budget.gather_min..=budget.gather_max` slots (a *chunk*), and, if one
/// exists, one more free loop that continues the chunk's contiguous source
/// run (so that whole source lines are read), repeating the chunk `a.n`
/// times at destination stride `a.dst`. The kernel fills a stage of
/// `a.n × b.n` slots in source order and copies the chunks out.
///
/// In `gather` the loops' `dst` is their stride in the stage.
const fn gather(all: &[Loop], sizes: &Sizes, budget: &Budget) -> Option<Nest> {
    let mut foot = 1u64;
    let mut k = all.len();
    // a loop too long for the chunk, split so that its inner part
    // completes one (its inner and outer parts)
    let mut cut: Option<(Loop, Loop)> = None;
    while k > 0 {
        let l = all[k - 1];
        if l.dst != foot || l.dim != FREE {
            break;
        }
        if foot * l.n > budget.gather_max {
            // a tile transpose into column-major storage (a column
            // runs through many tiles, one row of 8 of each) reaches the
            // chunk's bound inside one loop: its inner part, the largest
            // even split that fits, completes the chunk (kept only if the
            // block is a 4-byte transpose, below). Without it such plans
            // ran as 2-D blocks: f32[4096,4096] `{1,0:T(8,128)}` →
            // column-major 0.17-0.31x of memcpy, gathered 0.43-0.49x
            // (plain `Vec`s; 64-byte aligned 0.22-0.24x -> 0.37-0.53x;
            // AMD EPYC Zen 4, wall clock, load average 3.2-3.9)
            if foot < budget.gather_min && budget.bits == 32 {
                cut = split_to(&l, foot, budget);
            }
            break;
        }
        foot *= l.n;
        k -= 1;
    }
    if let Some((inner, _)) = cut {
        foot *= inner.n;
    }
    let chunk_loops = all.len() - k + if cut.is_some() { 1 } else { 0 };
    if foot < budget.gather_min || chunk_loops < 2 {
        return None;
    }
    let (head, tail) = all.split_at(k);
    let (mut g, mut outer) = (Loops::empty(Loop::ONE), Loops::empty(Loop::ONE));
    if !g.extend_from_slice(tail) || !outer.extend_from_slice(head) {
        return None;
    }
    if let Some((inner, rest)) = cut {
        // (`head` ends in the loop cut)
        let last = outer.as_slice().len() - 1;
        outer.as_mut_slice()[last] = rest;
        if !g.push(inner) {
            return None;
        }
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
        let fit = if budget.stage / foot > 1 {
            budget.stage / foot
        } else {
            1
        };
        // (all of it where that stays within twice the stage and the
        // chunks are whole pages, as whole destination tiles are: the
        // block then reads whole source runs — a `T(8,128)` tile's 4 KiB
        // rather than 256 bytes of each of its 8 rows. On a 512 KiB L2,
        // AVX2 on AMD EPYC Zen 3, plain `Vec`s, f32[4096,4096]
        // `{1,0:T(8,128)}` → `{0,1:T(8,128)}`, with the overlapped
        // copy-out of `UnitMover::gather_overlapped`: half tiles (8
        // chunks) 0.75–0.76× of memcpy, whole ones (16) 0.86–0.91×; where
        // L2 is 1 MiB or more the stage held them whole already. With
        // chunks of 512 bytes, `T(8,128)` → column-major, 0.53–0.61×
        // against 0.62×: not there)
        let whole = l.n <= 2 * fit && foot * budget.bits as u64 >= 4096 * 8;
        let top = if fit < l.n && !whole { fit } else { l.n };
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
    let b = Loop::free(foot, 0, 1);
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
    // blocks in cache-blocking order; a tile transpose of 4-byte slots
    // (`simd::transpose`) in source order, so that the next block
    // continues the runs this one read (its source tiles or columns) in
    // the pages and DRAM rows already open (a read-only model of the
    // blocks of f32[4096,4096] {1,0:T(8,128)} -> {0,1:T(8,128)}, the next
    // block prefetched, AMD EPYC Zen 4: 0.76-0.81 memcpy times in
    // cache-blocking order, 0.29-0.51 in source order, see
    // `simd::transpose_loops`; the kernel itself, plain `Vec`s, load
    // average 3.5-4, back to back: wall clock 0.55-0.58x of memcpy against
    // 0.56-0.58x, CPU time 0.51-0.65x against 0.51-0.59x, 64-byte aligned
    // buffers 0.56-0.59x against 0.51-0.53x; column-major sources were
    // in source order already)
    let transpose32 = budget.bits == 32 && transposes(g.as_slice());
    if cut.is_some() && !transpose32 {
        return None;
    }
    let order = if transpose32 {
        Order::Src
    } else {
        Order::Block
    };
    sort_loops(outer.as_mut_slice(), order);
    Some(Nest {
        outer,
        a,
        b,
        kernel: Kernel::Gather,
        gather: g,
        sizes: *sizes,
    })
}

/// `l` (destination stride `foot`, the chunk so far) split into an inner
/// part of the largest divisor `d` of its count with `foot · d` within
/// `budget.gather_min..=`[`cut_most`], and the outer rest; `None` if
/// there is none or the outer strides overflow.
const fn split_to(l: &Loop, foot: u64, budget: &Budget) -> Option<(Loop, Loop)> {
    let d = largest_divisor(l.n, cut_most(budget) / foot, 2);
    if d < 2 || foot * d < budget.gather_min {
        return None;
    }
    divide(l, d)
}

/// The longest chunk of a split loop (tiles → column-major, 32-bit
/// slots): [`Budget::gather_max`], but at most the stage over
/// [`Budget::row_slots`], so that a block's stage holds that many slots
/// of each source row. At the AVX-512 level 64, four column steps of 16,
/// which lets it write its streaming blocks straight into the
/// destination (`simd::transpose512::columns`, a variant of `direct`,
/// which wants more than one column step, to hint the next step's lines
/// into L1) instead of through the stage; below it 16, one whole line of
/// each source row, and chunks four times as long.
///
/// Below AVX-512 (measured on AMD EPYC Zen 3, 32 KiB L1d, 512 KiB L2,
/// 32 MiB L3, AVX2; the bench, f32[4096,4096] `{1,0:T(8,128)}` →
/// column-major, streaming, builds alternated in three rounds of seven
/// runs): a 64th of the stage made chunks of 128 slots (512 bytes) and
/// blocks of 64 columns, 0.58–0.61× of memcpy on plain `Vec`s and
/// 0.58–0.64× on 64-byte aligned buffers; a 16th, chunks of 512 slots
/// (2 KiB) and blocks of 16 columns, 0.69–0.70× and 0.83–0.86×. A 32nd
/// (256 slots) ran as a 64th; an 8th (4 KiB chunks, the overlapped
/// copy-out) 0.47×, and 4 KiB chunks in blocks of 16 columns (a stage
/// twice as large) 0.54–0.55× against 0.63× (a scratch harness of the plan, plain `Vec`s): below
/// AVX-512 chunks stay within half a page. (An AVX2 direct kernel for
/// the packed transposes, `squares::direct`'s in 16-byte streaming
/// stores, was tried the same day and not kept, see there.)
///
/// On 32 KiB L1d / 1 MiB L2 (Zen 4, [`Caches::FALLBACK`]) chunks of 256
/// slots (1 KiB) and blocks of 64 columns, against 1024 and 16 before;
/// on 48 KiB / 1.25 MiB (Ice Lake) the same (a stage of 20480 slots:
/// 320, the largest split of the loop below it 256); on 48 KiB / 2 MiB
/// (Sapphire Rapids) 512 slots and 64 columns. Measured on `f32[4096,4096]`
/// `{1,0:T(8,128)}` → column-major (AMD EPYC Zen 4, 32 KiB L1d, 1 MiB L2,
/// 32 MiB L3; the bench, plain `Vec`s, medians of 9 runs, alternated with
/// the previous build inside the bench lock): by the wall clock, with
/// `transpose512::columns` on these blocks, 0.49–0.62× → 0.68–0.80× of
/// memcpy (four rounds, load average 3.9–4.5, memcpy 5.9–7.0 GB/s), by
/// the thread's CPU time 0.53–0.58× → 0.66–0.72× (three rounds); 64-byte
/// aligned buffers 0.50–0.72× → 0.63–0.99× and 0.51–0.63× → 0.78–0.99×.
/// The other bounds tried, chunks of 128 slots (8 column steps) and 512
/// (2), were no better; the AVX2 level's stage gains too (0.38–0.48× →
/// 0.57×). Tried and not kept: the loop cut's outer part innermost (the
/// blocks above and below one after the other, so that the partial lines
/// their runs share stay in cache between them): 0.45–0.53× against
/// 0.67–0.74× (three rounds, load average 1.9–2.4). Re-measured with
/// the partial lines in 16-byte stores (`lines::put`): chunks of 512
/// slots (a 32nd of the stage, two column steps, half the run ends),
/// plain `Vec`s 16 → 16 bytes into a line, by the thread's CPU time,
/// three rounds alternated with 256 inside the bench lock (load average
/// 3.2–3.3): 0.58 / 0.63 / 0.60× against 0.56 / 0.62 / 0.64×, aligned
/// buffers 1.05 / 0.88 / 0.88× against 0.91 / 0.96 / 0.92×: no gain, not
/// kept.
const fn cut_most(budget: &Budget) -> u64 {
    let most = budget.stage / budget.row_slots;
    // (below AVX-512, chunks of at most half a page: whole pages take
    // the overlapped copy-out, which ran slower there, see above)
    let half_page = slots(2048, budget.bits);
    let most = if budget.row_slots < 64 && most > half_page {
        half_page
    } else {
        most
    };
    if most < budget.gather_max {
        most
    } else {
        budget.gather_max
    }
}

/// Splits a block loop longer than `block` into an inner loop of the
/// largest divisor of its count up to `block` and returns the outer part.
/// Splits are even so that both parts keep the loop's bounds (and, in
/// inline-fill mode, the destination stays densely covered); a count with
/// no divisor in `4..=block`, or whose outer strides would overflow (hostile
/// strides on an empty array: nothing is moved, but the plan is still made),
/// stays whole.
const fn split(l: &mut Loop, block: u64) -> Option<Loop> {
    if l.n <= block {
        return None;
    }
    let inner = largest_divisor(l.n, block, 4);
    if inner < 4 {
        return None;
    }
    match divide(l, inner) {
        Some((i, outer)) => {
            *l = i;
            Some(outer)
        }
        None => None,
    }
}

/// A page of destination a visit, for runs contiguous on both sides
/// walked in source order, in plans that stream ([`Budget::streams`]):
/// `l` continues the run `b` in the destination and repeats it more
/// times than the loop that continues it in the source (`j_n` times), so
/// the runs in source order visit each of that loop's destination streams
/// one run at a time. Then `l` is cut so that its inner part, the block,
/// writes up to a 4 KiB page of each stream a visit — the most of `l`'s
/// runs within a page that divide `l.n`, and no more than `j_n`, so that
/// the source sees no more streams than the destination — with its outer
/// part (the second) left among the outer loops (in source order: the
/// source's loop innermost, around the block). `None` if the plan does
/// not stream, a run fills a page already, or the block would be a
/// single run.
///
/// Why: f32[4096²] `T(8,128)` → rows, a tile a block, writes each 512-byte
/// run to one of 8 rows in turn; 8 tiles a block (the source's 32 KiB
/// read 8 tiles at once) write 4 KiB of each row a visit. Intel Xeon
/// guest (CPUID family 6 model 167, KVM, 2 vCPU; L1d 48 KiB, L2 2 MiB,
/// L3 105 MiB), streaming: a C model of the walks alone (16-byte
/// streaming stores, the caches flushed by 256 MiB of writes between
/// runs, six runs) read 0.73–0.87× of memcpy a tile a block, 0.82–1.05×
/// 8 tiles a block; the bench, three full runs of each build alternated,
/// plain `Vec`s 0.65× [0.64–0.66] → 0.87× [0.84–0.88], 64-byte aligned
/// 0.72× [0.71–0.76] → 0.86× [0.80–0.90], with the joiner's slots a
/// stream's own (`kernels::stream::Joiner`; without them the lines where
/// one block of a row meets the next took plain stores, and plain `Vec`s
/// read 0.51–0.65×). The mirror, rows → `T(8,128)`, gains nothing from
/// it (the C model: a tile a block, one destination stream, 8.7–9.1
/// GB/s; 2, 4, 8 tiles 7.9–8.4, 7.0–7.4, 6.3–6.5), hence [`choose`]'s
/// destination-order block there. In cache it loses: f32[512,2048]
/// tiles → rows, plain stores, 0.86–0.93× of memcpy a tile a block,
/// 0.78–0.83× 8 tiles (medians of 15 runs, three alternations), as the
/// in-cache walks of AMD EPYC Zen 4 above did: hence streaming plans
/// only. On AMD EPYC Zen 4 (family 25 model 17, KVM, 2 vCPU; L1d 32 KiB,
/// L2 1 MiB, L3 32 MiB) it loses streamed too: plain `Vec`s 1.02–1.45×
/// of memcpy a tile a block, 0.72–0.85× 8 tiles a block, 0.82–1.03× with
/// the next 8 tiles prefetched (`prefetcht0` or `t1`, 32 or 64 KiB ahead)
/// as these are read — hence only where the caches favour the writes
/// ([`Caches::favour_writes`]).
const fn page_group(l: &Loop, j_n: u64, b: &Loop, budget: &Budget) -> Option<(Loop, Loop)> {
    let run = b.n * budget.bits as u64 / 8;
    if !budget.streams || run == 0 || run >= 4096 {
        return None;
    }
    // the most runs within a page, at most `j_n`, dividing `l.n`
    let most = 4096 / run;
    let k = largest_divisor(l.n, if most < j_n { most } else { j_n }, 2);
    if k < 2 {
        return None;
    }
    divide(l, k)
}

/// The loop other than `j` that continues the run `b` in the destination
/// (`dst == b.n`) with a block of runs, if there is one.
const fn continues_dst(ls: &[Loop], j: usize, b: &Loop, budget: &Budget) -> Option<usize> {
    let mut i = 0;
    while i < ls.len() {
        if i != j
            && ls[i].dst == b.n
            && matches!(classify_packed(&ls[i], b, budget.packed_rows), Kernel::Runs)
        {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The largest divisor of `n` in `least..=most`, or a value below `least`
/// if there is none.
const fn largest_divisor(n: u64, most: u64, least: u64) -> u64 {
    let mut d = most;
    while d >= least && !n.is_multiple_of(d) {
        d -= 1;
    }
    d
}

/// `l` as an inner loop of `d` values (`d` divides `l.n`) and the outer
/// loop of `l.n / d` steps of `d` of them; `None` if the outer strides
/// overflow.
const fn divide(l: &Loop, d: u64) -> Option<(Loop, Loop)> {
    let (Some(src), Some(dst), Some(w)) = (
        l.src.checked_mul(d),
        l.dst.checked_mul(d),
        l.w.checked_mul(d),
    ) else {
        return None;
    };
    let inner = Loop { n: d, ..*l };
    let outer = Loop {
        n: l.n / d,
        src,
        dst,
        dim: l.dim,
        w,
    };
    Some((inner, outer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_follows_the_caches_and_the_slot_width() {
        let c = |l1d: usize, l2: usize| Caches {
            l1d,
            l2,
            last: 32 << 20,
            ..Caches::FALLBACK
        };
        // the sizes first measured (f32 on 32 KiB L1d, 1 MiB L2)
        let f = Budget::new(&Caches::FALLBACK, 32, Simd::Avx512);
        assert_eq!(
            (f.block, f.gather_min, f.gather_max, f.stage),
            (32, 64, 1024, 16384)
        );
        // the same bytes in other widths
        let b = Budget::new(&Caches::FALLBACK, 16, Simd::Avx512);
        assert_eq!((b.block, b.gather_max, b.stage), (64, 2048, 32768));
        assert_eq!(
            Budget::new(&Caches::FALLBACK, 4, Simd::Avx512).stage,
            131072
        );
        assert_eq!(Budget::new(&Caches::FALLBACK, 128, Simd::Avx512).block, 16);
        assert_eq!(Budget::new(&Caches::FALLBACK, 8, Simd::Avx512).block, 64);
        // larger caches: larger chunks and stages, within bounds
        let big = Budget::new(&c(48 << 10, 2 << 20), 32, Simd::Avx512);
        assert_eq!((big.gather_max, big.stage), (1536, 32768));
        assert_eq!(
            Budget::new(&c(48 << 10, 64 << 20), 32, Simd::Avx512).stage,
            65536
        );
        assert_eq!(
            Budget::new(&c(4 << 10, 64 << 10), 32, Simd::Avx512).stage,
            4096
        );
        // and a compile-time plan's budget is a constant
        const _: Budget = Budget::new(&Caches::FALLBACK, 32, Simd::Avx512);
    }

    /// The loop over 512 tile rows of f32 tiles → column-major (8 slots
    /// apart in a column) split to the chunk `cut_most` allows: at the
    /// AVX-512 level 1 KiB on Zen 4's and Ice Lake's caches, 2 KiB on a
    /// 2 MiB L2; below it 2 KiB from a 512 KiB L2; never past
    /// `gather_max` (512 bytes on a 4 KiB L1d) nor below `gather_min` (a
    /// 64 KiB L2 has a 4096-slot stage: 64 slots).
    #[test]
    fn column_major_chunks_leave_each_level_its_column_steps() {
        let c = |l1d: usize, l2: usize| Caches {
            l1d,
            l2,
            last: 32 << 20,
            ..Caches::FALLBACK
        };
        let rows = Loop::free(512, 32768, 8);
        let chunk = |caches: &Caches, level: Simd| {
            let b = Budget::new(caches, 32, level);
            let (inner, outer) = split_to(&rows, 8, &b).unwrap();
            assert_eq!(inner.n * outer.n, 512);
            assert_eq!((outer.src, outer.dst), (32768 * inner.n, 8 * inner.n));
            assert!(b.stage / (8 * inner.n) >= b.row_slots || 8 * inner.n == b.gather_min);
            8 * inner.n
        };
        let wide = Simd::Avx512;
        assert_eq!(chunk(&Caches::FALLBACK, wide), 256);
        assert_eq!(chunk(&c(48 << 10, 1280 << 10), wide), 256);
        assert_eq!(chunk(&c(48 << 10, 2 << 20), wide), 512);
        assert_eq!(chunk(&c(4 << 10, 64 << 20), wide), 128);
        assert_eq!(chunk(&c(32 << 10, 64 << 10), wide), 64);
        // below AVX-512 a line of each source row (a 16th of the stage),
        // at most half a page: 2 KiB on a 512 KiB L2 (Zen 3) and above
        for l2 in [512 << 10, 1 << 20, 2 << 20] {
            assert_eq!(chunk(&c(32 << 10, l2), Simd::Avx2), 512);
        }
        assert_eq!(chunk(&c(32 << 10, 256 << 10), Simd::Avx2), 256);
        assert_eq!(chunk(&c(4 << 10, 64 << 20), Simd::Sse2), 128);
    }
}

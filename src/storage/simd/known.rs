//! The zips and unzips with their blocks as compile-time constants: for
//! the typed copies, whose plan is a constant of the layout type. Each
//! entry is generic over a type carrying the [`Blocks`] and calls the
//! level's kernel from a `#[target_feature]` function of its own, so the
//! kernel inlines there with every count, stride and length known: the
//! block loops unroll, the slicing checks fold, and no prefetch or
//! streaming decision is left to make (these blocks are written with
//! plain stores). Where the inliner did not oblige (the AVX2 zips), the
//! loop is written here around the kernel's step. Below AVX2 the blocks
//! go to the runtime kernels.
//!
//! The same loops, on blocks known only at run time and with a prefetch
//! of the input, are the general executor's zips and unzips with plain
//! stores at AVX2 (the `*_blocks` entries), and the unzips' at AVX-512
//! (AVX-512 keeps its own zips). The runtime kernels' per-block setup (segments and
//! edges, the streaming test at every store, the block iterator) had
//! cost about as much as their steps in cache. On an AMD EPYC Zen 3
//! (AVX2, L2 512 KiB), plan GB/s, best of 300 calls: s8 `(8,128)(4,1)`
//! tiles → rows [64, 1024] 14 → 26–28 (with the 16-byte paired loads of
//! `avx2::unzip4_u8_step`), rows → tiles [1024, 1024] 14–15 → 19–21;
//! bf16 rows → tiles [64, 1024] 16–17 → 19–21. At AVX-512 (Intel Xeon
//! model 167, L2 2 MiB), s8 [1024, 1024] tiles → rows in cache: the
//! runtime unzip 13.3–14.9 GB/s (0.48–0.53× memcpy) → 17.4–19.4
//! (0.67–0.70×).

use core::marker::PhantomData;

#[cfg(target_arch = "x86_64")]
use super::avx2::load;
use super::{Blocks, Isa};

/// A type whose [`Blocks`] are a constant.
pub(crate) trait KnownBlocks {
    /// The blocks (as the runtime kernels take them).
    const BLOCKS: Blocks;
}

/// The blocks an AVX2 block loop runs on: a compile-time constant
/// ([`Const`], the typed copies': each loop is its own instance, which
/// inlines with every count and stride folded) or a value ([`Runtime`],
/// the general executor's, which also prefetches its input).
#[cfg(target_arch = "x86_64")]
pub(super) trait Given: Copy {
    /// How far ahead (bytes) the loops prefetch their input (0: not at
    /// all): 2 KiB at run time, as the streaming unzips'
    /// [`Seg`](super::avx2::Seg); none for a constant's few small tiles.
    const AHEAD: usize;
    /// The blocks.
    fn blocks(self) -> Blocks;
}

/// `B::BLOCKS` as [`Given`] blocks.
#[cfg(target_arch = "x86_64")]
pub(super) struct Const<B>(pub(super) PhantomData<B>);

#[cfg(target_arch = "x86_64")]
impl<B> Clone for Const<B> {
    fn clone(&self) -> Self {
        *self
    }
}

#[cfg(target_arch = "x86_64")]
impl<B> Copy for Const<B> {}

#[cfg(target_arch = "x86_64")]
impl<B: KnownBlocks> Given for Const<B> {
    const AHEAD: usize = 0;
    #[inline(always)]
    fn blocks(self) -> Blocks {
        B::BLOCKS
    }
}

/// Blocks known at run time as [`Given`] blocks.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Runtime<'a>(pub(super) &'a Blocks);

#[cfg(target_arch = "x86_64")]
impl Given for Runtime<'_> {
    const AHEAD: usize = 2048;
    #[inline(always)]
    fn blocks(self) -> Blocks {
        *self.0
    }
}

/// [`super::zip2_u16`] on `B::BLOCKS`, plain stores.
#[inline(always)]
pub(crate) fn zip2_u16<B: KnownBlocks>(isa: Isa, rows: &[u16], out: &mut [u16]) {
    #[cfg(target_arch = "x86_64")]
    if isa.avx512() {
        // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most the
        // detected level).
        return unsafe { zip2_u16_avx512::<B>(rows, out) };
    }
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { zip2_u16_avx2::<B>(rows, out) };
    }
    super::zip2_u16(isa, rows, out, B::BLOCKS, false)
}

/// [`super::zip4_u8`] on `B::BLOCKS`, plain stores.
#[inline(always)]
pub(crate) fn zip4_u8<B: KnownBlocks>(isa: Isa, rows: &[u8], out: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { zip4_u8_avx2::<B>(rows, out) };
    }
    super::zip4_u8(isa, rows, out, B::BLOCKS, false)
}

/// [`super::unzip2_u16`] on `B::BLOCKS`, plain stores.
#[inline(always)]
pub(crate) fn unzip2_u16<B: KnownBlocks>(isa: Isa, inp: &[u16], rows: &mut [u16]) {
    #[cfg(target_arch = "x86_64")]
    if isa.avx512() {
        // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most the
        // detected level).
        return unsafe { unzip2_u16_avx512::<B>(inp, rows) };
    }
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { unzip2_u16_avx2::<B>(inp, rows) };
    }
    super::unzip2_u16(isa, inp, rows, B::BLOCKS, false)
}

/// [`super::unzip4_u8`] on `B::BLOCKS`, plain stores.
#[inline(always)]
pub(crate) fn unzip4_u8<B: KnownBlocks>(isa: Isa, inp: &[u8], rows: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if isa.avx512() && B::BLOCKS.len.is_multiple_of(32) {
        // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most the
        // detected level), which imply AVX2.
        return unsafe { unzip4_u8_avx512::<B>(inp, rows) };
    }
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { unzip4_u8_avx2::<B>(inp, rows) };
    }
    super::unzip4_u8(isa, inp, rows, B::BLOCKS, false)
}

/// Block `(i, j)` of `bl`: its rows-side and packed-side offsets.
#[inline(always)]
#[cfg(target_arch = "x86_64")]
fn at(bl: &Blocks, i: usize, j: usize) -> (usize, usize) {
    (i * bl.rstep2 + j * bl.rstep, i * bl.pstep2 + j * bl.pstep)
}

/// `one(rows, packed)` on every block of a zip, as plain loops (the
/// counts are constants here: they unroll).
#[inline(always)]
#[cfg(target_arch = "x86_64")]
fn zips<T, const K: usize>(
    bl: &Blocks,
    rows: &[T],
    out: &mut [T],
    mut one: impl FnMut([&[T]; K], &mut [T]),
) {
    for i in 0..bl.count2 {
        for j in 0..bl.count {
            let (ro, po) = at(bl, i, j);
            let r = core::array::from_fn(|k| &rows[ro + k * bl.rs..ro + k * bl.rs + bl.len]);
            one(r, &mut out[po..po + K * bl.len]);
        }
    }
}

/// `one(packed, rows)` on every block of an unzip, as plain loops.
#[inline(always)]
#[cfg(target_arch = "x86_64")]
fn unzips<T, const K: usize>(
    bl: &Blocks,
    inp: &[T],
    rows: &mut [T],
    mut one: impl FnMut(&[T], [&mut [T]; K]),
) {
    for i in 0..bl.count2 {
        for j in 0..bl.count {
            let (ro, po) = at(bl, i, j);
            one(
                &inp[po..po + K * bl.len],
                super::rows_mut::<T, K>(rows, ro, bl.rs, bl.len),
            );
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn zip2_u16_avx512<B: KnownBlocks>(rows: &[u16], out: &mut [u16]) {
    let bl = &B::BLOCKS;
    if bl.len.is_multiple_of(32) {
        return super::avx512::zip2_u16_steps(rows, out, Const::<B>(PhantomData));
    }
    zips::<u16, 2>(bl, rows, out, |[x, y], o| {
        super::avx512::zip2_u16_one(x, y, o, false, None, bl.rs)
    });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn zip2_u16_avx2<B: KnownBlocks>(rows: &[u16], out: &mut [u16]) {
    zip2_u16_avx2_on(rows, out, Const::<B>(PhantomData))
}

/// The `given` blocks of an AVX2 zip of two 16-bit rows, plain stores,
/// prefetching [`Given::AHEAD`] bytes on along each row.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn zip2_u16_avx2_on<G: Given>(rows: &[u16], out: &mut [u16], given: G) {
    let bl = &given.blocks();
    if !bl.len.is_multiple_of(16) {
        return zips::<u16, 2>(bl, rows, out, |[x, y], o| {
            super::avx2::zip2_u16_one(x, y, o, false, None, bl.rs)
        });
    }
    zip_steps::<u16, G, 2>(rows, out, given, 16, |&[x, y], w| {
        super::avx2::zip2_u16_step(load(&x[w.clone()]), load(&y[w]))
    });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn zip4_u8_avx2<B: KnownBlocks>(rows: &[u8], out: &mut [u8]) {
    zip4_u8_avx2_on(rows, out, Const::<B>(PhantomData))
}

/// The `given` blocks of an AVX2 zip of four 8-bit rows, plain stores,
/// prefetching [`Given::AHEAD`] bytes on along each row.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn zip4_u8_avx2_on<G: Given>(rows: &[u8], out: &mut [u8], given: G) {
    let bl = &given.blocks();
    if !bl.len.is_multiple_of(32) {
        return zips::<u8, 4>(bl, rows, out, |r, o| {
            super::avx2::zip4_u8_one(r, o, false, None, bl.rs)
        });
    }
    zip_steps::<u8, G, 4>(rows, out, given, 32, |&[a, b, x, y], w| {
        super::avx2::zip4_u8_step(
            load(&a[w.clone()]),
            load(&b[w.clone()]),
            load(&x[w.clone()]),
            load(&y[w]),
        )
    });
}

/// The `given` blocks of a zip of `K` rows in whole steps of `w` slots
/// (32 bytes of each row; `w` divides the blocks' length):
/// `step(rows, columns)` gives a step's `K` output registers, stored in
/// order, after a hint [`Given::AHEAD`] bytes on along each row every 64
/// bytes. The loop is written here around the kernel's step, not left to
/// the inliner: in the relayout bench's binary, where the runtime zips
/// call them too, `avx2::zip4_u8_one` stayed a call (s8[8,128] rows →
/// `(8,128)(4,1)` 36 ns a copy against 17 inlined) and so did
/// `zip2_u16_one` (bf16, 28 → 39 ns; AMD EPYC Zen 3).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn zip_steps<T: bytemuck::Pod, G: Given, const K: usize>(
    rows: &[T],
    out: &mut [T],
    given: G,
    w: usize,
    mut step: impl FnMut(&[&[T]; K], core::ops::Range<usize>) -> [core::arch::x86_64::__m256i; K],
) {
    zips::<T, K>(&given.blocks(), rows, out, |r, o| {
        for (c, o) in o.chunks_exact_mut(K * w).enumerate() {
            if G::AHEAD != 0 && c % 2 == 0 {
                for r in &r {
                    let p = r.as_ptr().wrapping_add(w * c).cast::<u8>();
                    super::prefetch(p.wrapping_add(G::AHEAD));
                }
            }
            let v = step(&r, w * c..w * c + w);
            for (o, v) in o.chunks_exact_mut(w).zip(v) {
                o.copy_from_slice(bytemuck::cast_slice(bytemuck::bytes_of(&v)));
            }
        }
    });
}

/// The zip of [`super::zip2_u16`] on blocks known at run time, plain
/// stores, at AVX2 (not AVX-512, which keeps its own): the general
/// executor's when it does not stream, the typed copies' loops. `false`
/// (nothing written) at other levels.
#[cfg(target_arch = "x86_64")]
pub(super) fn zip2_u16_blocks(isa: Isa, rows: &[u16], out: &mut [u16], bl: &Blocks) -> bool {
    // SAFETY: `avx2_only` runs it only where the CPU has AVX2.
    avx2_only(isa, || unsafe { zip2_u16_avx2_on(rows, out, Runtime(bl)) })
}

/// As [`zip2_u16_blocks`], for [`super::zip4_u8`], prefetching 2 KiB on
/// along each row (as the runtime kernel does in cache), at AVX-512 too
/// (whose s8 zip is AVX2's): s8 [1024, 1024] rows → tiles in cache,
/// Intel Xeon model 167, 16.3–17.3 → 18.4–18.8 GB/s from plain `Vec`s,
/// 20.2–20.8 → 23.4–23.6 on lines.
#[cfg(target_arch = "x86_64")]
pub(super) fn zip4_u8_blocks(isa: Isa, rows: &[u8], out: &mut [u8], bl: &Blocks) -> bool {
    if isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        unsafe { zip4_u8_avx2_on(rows, out, Runtime(bl)) };
    }
    isa.avx2()
}

/// Runs `f` (an `avx2` function's call) and returns `true` if the level
/// is AVX2 but not AVX-512 (`isa` is at most the detected level, so the
/// CPU has AVX2 when `f` runs); `false` otherwise.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn avx2_only(isa: Isa, f: impl FnOnce()) -> bool {
    let run = isa.avx2() && !isa.avx512();
    if run {
        f();
    }
    run
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn unzip2_u16_avx512<B: KnownBlocks>(inp: &[u16], rows: &mut [u16]) {
    if B::BLOCKS.len.is_multiple_of(32) {
        return super::avx512::unzip2_u16_steps(inp, rows, Const::<B>(PhantomData));
    }
    blocks_avx512(inp, rows, &B::BLOCKS)
}

/// The unzip of [`unzip2_u16`] on blocks known at run time, plain
/// stores, at AVX-512 (its block kernel) or AVX2 (the typed copies' loop
/// with a prefetch of the input 2 KiB ahead, as the streaming unzips'
/// [`Seg`](super::avx2::Seg) prefetch): the general executor's, when it
/// does not stream. `false` (nothing written) below AVX2.
#[cfg(target_arch = "x86_64")]
pub(super) fn unzip2_u16_blocks(isa: Isa, inp: &[u16], rows: &mut [u16], bl: &Blocks) -> bool {
    if isa.avx512() {
        // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most the
        // detected level).
        unsafe {
            if bl.len.is_multiple_of(32) {
                super::avx512::unzip2_u16_steps(inp, rows, Runtime(bl));
            } else {
                blocks_avx512(inp, rows, bl);
            }
        }
        return true;
    }
    // SAFETY: `avx2_only` runs it only where the CPU has AVX2.
    avx2_only(isa, || unsafe {
        unzip2_u16_avx2_on(inp, rows, Runtime(bl))
    })
}

/// As [`zip2_u16_blocks`], for [`unzip4_u8`], with the prefetch of
/// [`unzip2_u16_blocks`]: at AVX-512 the typed copies' loop (blocks of a
/// multiple of 32 columns), at AVX2 its own.
#[cfg(target_arch = "x86_64")]
pub(super) fn unzip4_u8_blocks(isa: Isa, inp: &[u8], rows: &mut [u8], bl: &Blocks) -> bool {
    if isa.avx512() && bl.len.is_multiple_of(32) {
        // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most the
        // detected level), which imply AVX2.
        unsafe { super::avx512::unzip4_u8_steps(inp, rows, Runtime(bl)) };
        return true;
    }
    // SAFETY: `avx2_only` runs it only where the CPU has AVX2.
    avx2_only(isa, || unsafe { unzip4_u8_avx2_on(inp, rows, Runtime(bl)) })
}

// (tried: rows starting 16 bytes into a 32-byte unit, the allocator's
// alignment of a `Vec<u16>`, written with every 32-byte store on a
// boundary: a 16-byte head and tail, each result joined to the previous
// one's last 8 words by `valignq`. bf16[8,128] tile -> rows, Zen 4, CPU
// time, load 6: 58-63 ns a copy against 45-54 ns plain (rows at 0 mod 32:
// 32-37 ns); the extra shuffles cost more than the split stores. Dropped.
// The rows' alignment itself costs at both levels, wall clock, load 11:
// AVX-512 30-34 ns into rows at 0 or 32 mod 64, 41-46 ns at 16 or 48;
// AVX2 26-31 vs 46 ns.)
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn blocks_avx512(inp: &[u16], rows: &mut [u16], bl: &Blocks) {
    unzips::<u16, 2>(bl, inp, rows, |i, r| {
        super::avx512::unzip2_u16_block(i, r, bl.len)
    });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn unzip2_u16_avx2<B: KnownBlocks>(inp: &[u16], rows: &mut [u16]) {
    unzip2_u16_avx2_on(inp, rows, Const::<B>(PhantomData))
}

/// The `given` blocks of an AVX2 unzip into two 16-bit rows, prefetching
/// [`Given::AHEAD`] bytes on.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn unzip2_u16_avx2_on<G: Given>(inp: &[u16], rows: &mut [u16], given: G) {
    let (bl, ahead) = (&given.blocks(), G::AHEAD);
    use super::unzip_blocks::{realign_u16_rows, unzip2_u16_block, unzip2_u16_block_realigned};
    // one loop per kind of block, each small enough to inline and unroll
    if realign_u16_rows(rows, bl.len) {
        unzips::<u16, 2>(bl, inp, rows, |i, [a, b]| {
            unzip2_u16_block_realigned!(i, [a, b], bl.len, ahead)
        });
    } else {
        unzips::<u16, 2>(bl, inp, rows, |i, r| unzip2_u16_block(i, r, bl.len, ahead));
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx2")]
fn unzip4_u8_avx512<B: KnownBlocks>(inp: &[u8], rows: &mut [u8]) {
    super::avx512::unzip4_u8_steps(inp, rows, Const::<B>(PhantomData))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn unzip4_u8_avx2<B: KnownBlocks>(inp: &[u8], rows: &mut [u8]) {
    unzip4_u8_avx2_on(inp, rows, Const::<B>(PhantomData))
}

/// The `given` blocks of an AVX2 unzip into four 8-bit rows, prefetching
/// [`Given::AHEAD`] bytes on.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn unzip4_u8_avx2_on<G: Given>(inp: &[u8], rows: &mut [u8], given: G) {
    let (bl, ahead) = (&given.blocks(), G::AHEAD);
    unzips::<u8, 4>(bl, inp, rows, |i, r| {
        super::unzip_blocks::unzip4_u8_block(i, r, bl.len, ahead)
    });
}

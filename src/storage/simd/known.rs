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

#[cfg(target_arch = "x86_64")]
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
trait Given: Copy {
    /// How far ahead (bytes) the loops prefetch their input (0: not at
    /// all): 2 KiB at run time, as the streaming unzips'
    /// [`Seg`](super::avx2::Seg); none for a constant's few small tiles.
    const AHEAD: usize;
    /// The blocks.
    fn blocks(self) -> Blocks;
}

/// `B::BLOCKS` as [`Given`] blocks.
#[cfg(target_arch = "x86_64")]
struct Const<B>(PhantomData<B>);

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
struct Runtime<'a>(&'a Blocks);

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
        return steps512::zip2_u16_steps(rows, out, Const::<B>(PhantomData));
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
        return steps512::unzip2_u16_steps(inp, rows, Const::<B>(PhantomData));
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
                steps512::unzip2_u16_steps(inp, rows, Runtime(bl));
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
        unsafe { steps512::unzip4_u8_steps(inp, rows, Runtime(bl)) };
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
    steps512::unzip4_u8_steps(inp, rows, Const::<B>(PhantomData))
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

/// The typed copies' AVX-512 zips and unzips, on constant or runtime
/// blocks ([`Given`]).
#[cfg(target_arch = "x86_64")]
mod steps512 {
    use core::arch::x86_64::*;

    use super::super::avx2::{load as avx2_load, put};
    use super::super::avx512::{lined, store, unzip32, zip_index, zip_step, Unzip};
    use super::super::Blocks;
    use super::{at, Given};

    // The typed copies' AVX-512 zips and unzips: each function one loop
    // nest over the blocks (`Const`, a layout type's constants, with which
    // it inlines whole into its entry above; or `Runtime`, the general
    // executor's); through a closure per block, as
    // the runtime kernels take them, the block stayed a call each (bf16
    // `(8,128)(2,1)` tile → rows, 2 KiB: a call per two rows, 31.8 ns a copy;
    // one nest, 25.6; with the tile and rows on lines, Intel Xeon model 167).
    //
    // Each 128 bytes cost four shuffle-port cycles: `vpermt2w` takes two
    // there (measured on that host: `vpermt2w`/`vpermt2b` one per 2 cycles,
    // `vpermw`, `vpermb`, `vpermt2d`, `vpermt2q` one per cycle), and no
    // cheaper split was found: a word permute of each half and a 256-bit
    // lane select, or the halves stored separately, or a blend with one
    // half stored rotated, all measured within 10% of it in a C model.

    /// The unzip blocks of `given` into four 8-bit rows (`len` a multiple of
    /// 32), plain stores: per 32 columns (128 packed bytes), an in-lane byte
    /// shuffle (`vpshufb`) of each 64-byte half gathers each row's four
    /// columns of a 16-byte lane into a dword, and two two-source dword
    /// permutes (`vpermt2d`) collect rows 0 and 1, then 2 and 3, as the
    /// halves of a register (32 bytes to each row). Four shuffle cycles per
    /// 128 bytes, no VBMI: s8 `(8,128)(4,1)` tile → rows, 1 KiB, 19–20 ns a
    /// copy through the AVX2 loop → 14–16 (memcpy 7.4–8.3).
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    #[inline]
    pub(super) fn unzip4_u8_steps<G: Given>(inp: &[u8], rows: &mut [u8], given: G) {
        let bl = &given.blocks();
        // in each lane: byte 4k + j of the result is column j of row k (packed
        // byte 4j + k)
        let ctrl = _mm512_broadcast_i32x4(_mm_setr_epi8(
            0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
        ));
        // dword k of lane l holds row k's columns 4l..4l + 4 (16+: the second
        // half); rows 0 and 1, then 2 and 3
        let ab = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29);
        let cd = _mm512_add_epi32(ab, _mm512_set1_epi32(2));
        each_block(bl, |ro, po| {
            let inp = &inp[po..po + 4 * bl.len];
            for (c, s) in inp.chunks_exact(128).enumerate() {
                ahead::<G>(s);
                let (x, y) = (load_bytes(&s[..64]), load_bytes(&s[64..]));
                let (x, y) = (_mm512_shuffle_epi8(x, ctrl), _mm512_shuffle_epi8(y, ctrl));
                let v = _mm512_permutex2var_epi32(x, ab, y);
                let w = _mm512_permutex2var_epi32(x, cd, y);
                let [r0, r1, r2, r3] = core::array::from_fn(|k| ro + k * bl.rs + 32 * c);
                put(false, &mut rows[r0..r0 + 32], _mm512_castsi512_si256(v));
                put(
                    false,
                    &mut rows[r1..r1 + 32],
                    _mm512_extracti64x4_epi64::<1>(v),
                );
                put(false, &mut rows[r2..r2 + 32], _mm512_castsi512_si256(w));
                put(
                    false,
                    &mut rows[r3..r3 + 32],
                    _mm512_extracti64x4_epi64::<1>(w),
                );
            }
        });
    }

    /// The zip blocks of `given` from two 16-bit rows (`len` a multiple of 32),
    /// plain stores: one `vpermw` per 16 columns, as
    /// [`zip2_u16_one`](super::avx512).
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) fn zip2_u16_steps<G: Given>(rows: &[u16], out: &mut [u16], given: G) {
        let bl = &given.blocks();
        let idx = zip_index();
        each_block(bl, |ro, po| {
            let [x, y] = super::super::rows_of::<u16, 2>(rows, ro, bl.rs, bl.len);
            let o = &mut out[po..po + 2 * bl.len];
            let steps = x.chunks_exact(16).zip(y.chunks_exact(16));
            for ((x, y), o) in steps.zip(o.chunks_exact_mut(32)) {
                store(false, o, zip_step(idx, x, y));
            }
        });
    }

    /// The unzip blocks of `given` into two 16-bit rows (`len` a multiple of
    /// 32), plain stores: one [`unzip32`] per 32 columns, as
    /// `avx512::unzip2_u16_block`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) fn unzip2_u16_steps<G: Given>(inp: &[u16], rows: &mut [u16], given: G) {
        let bl = &given.blocks();
        let ix = Unzip::new();
        each_block(bl, |ro, po| {
            let [a, b] = super::super::rows_mut::<u16, 2>(rows, ro, bl.rs, bl.len);
            let on = lined(a, b);
            let steps = inp[po..po + 2 * bl.len].chunks_exact(64);
            for ((i, a), b) in steps
                .zip(a.chunks_exact_mut(32))
                .zip(b.chunks_exact_mut(32))
            {
                ahead::<G>(i);
                unzip32(ix, on, i, [a, b]);
            }
        });
    }

    /// The hints for the packed input [`Given::AHEAD`] bytes past the 128
    /// at `s` (none for constant blocks).
    #[inline(always)]
    fn ahead<G: Given>(s: &[impl Sized]) {
        if G::AHEAD != 0 {
            let p = s.as_ptr().cast::<u8>().wrapping_add(G::AHEAD);
            super::super::prefetch(p);
            super::super::prefetch(p.wrapping_add(64));
        }
    }

    /// The first 64 bytes of `s`, at any alignment (two safe unaligned
    /// 32-byte copies).
    #[target_feature(enable = "avx512f,avx2")]
    #[inline]
    fn load_bytes(s: &[u8]) -> __m512i {
        let (lo, hi) = (avx2_load(&s[..32]), avx2_load(&s[32..64]));
        _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
    }

    /// `one(rows offset, packed offset)` for every block of `bl` ([`at`]).
    #[inline(always)]
    fn each_block(bl: &Blocks, mut one: impl FnMut(usize, usize)) {
        for i in 0..bl.count2 {
            for j in 0..bl.count {
                let (ro, po) = at(bl, i, j);
                one(ro, po);
            }
        }
    }
}

//! The zips and unzips with their blocks as compile-time constants: for
//! the typed copies, whose plan is a constant of the layout type. Each
//! entry is generic over a type carrying the [`Blocks`] and calls the
//! level's kernel from a `#[target_feature]` function of its own, so the
//! kernel inlines there with every count, stride and length known: the
//! block loops unroll, the slicing checks fold, and no prefetch or
//! streaming decision is left to make (these blocks are written with
//! plain stores). Where the inliner did not oblige (the AVX2 s8 zip), the
//! loop is written here around the kernel's step. Below AVX2 the blocks
//! go to the runtime kernels.

use super::{Blocks, Isa};

/// A type whose [`Blocks`] are a constant.
pub(crate) trait KnownBlocks {
    /// The blocks (as the runtime kernels take them).
    const BLOCKS: Blocks;
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
    zips::<u16, 2>(bl, rows, out, |[x, y], o| {
        super::avx512::zip2_u16_one(x, y, o, false, None, bl.rs)
    });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn zip2_u16_avx2<B: KnownBlocks>(rows: &[u16], out: &mut [u16]) {
    let bl = &B::BLOCKS;
    zips::<u16, 2>(bl, rows, out, |[x, y], o| {
        super::avx2::zip2_u16_one(x, y, o, false, None, bl.rs)
    });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn zip4_u8_avx2<B: KnownBlocks>(rows: &[u8], out: &mut [u8]) {
    let bl = &B::BLOCKS;
    if !bl.len.is_multiple_of(32) {
        return zips::<u8, 4>(bl, rows, out, |r, o| {
            super::avx2::zip4_u8_one(r, o, false, None, bl.rs)
        });
    }
    // whole steps: the loop written here, around the kernel's step, not
    // left to the inliner (in the relayout bench's binary, where the
    // runtime zips call it too, `zip4_u8_one` stayed a call: s8[8,128]
    // rows → `(8,128)(4,1)` 36 ns a copy against 17 inlined, AMD EPYC
    // Zen 3)
    let load = |s: &[u8]| -> core::arch::x86_64::__m256i { bytemuck::pod_read_unaligned(s) };
    for i in 0..bl.count2 {
        for j in 0..bl.count {
            let (ro, po) = at(bl, i, j);
            let row = |k: usize| &rows[ro + k * bl.rs..ro + k * bl.rs + bl.len];
            let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
            let o = &mut out[po..po + 4 * bl.len];
            for (c, o) in o.chunks_exact_mut(128).enumerate() {
                let w = 32 * c..32 * c + 32;
                let v = super::avx2::zip4_u8_step(
                    load(&r0[w.clone()]),
                    load(&r1[w.clone()]),
                    load(&r2[w.clone()]),
                    load(&r3[w]),
                );
                for (k, o) in o.chunks_exact_mut(32).enumerate() {
                    o.copy_from_slice(bytemuck::bytes_of(&v[k]));
                }
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn unzip2_u16_avx512<B: KnownBlocks>(inp: &[u16], rows: &mut [u16]) {
    blocks_avx512(inp, rows, &B::BLOCKS)
}

/// The AVX-512 unzip of [`unzip2_u16`] on blocks known at run time (the
/// general executor's, when it does not stream: in cache the 16-bit
/// unzip was shuffle-bound at AVX2); `false` (nothing written) below
/// AVX-512.
#[cfg(target_arch = "x86_64")]
pub(super) fn unzip2_u16_blocks(isa: Isa, inp: &[u16], rows: &mut [u16], bl: &Blocks) -> bool {
    if !isa.avx512() {
        return false;
    }
    // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most the detected
    // level).
    unsafe { blocks_avx512(inp, rows, bl) };
    true
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
    use super::unzip_blocks::{realign_u16_rows, unzip2_u16_block, unzip2_u16_block_realigned};
    let bl = &B::BLOCKS;
    // one loop per kind of block, each small enough to inline and unroll
    if realign_u16_rows(rows, bl.len) {
        unzips::<u16, 2>(bl, inp, rows, |i, r| {
            unzip2_u16_block_realigned(i, r, bl.len)
        });
    } else {
        unzips::<u16, 2>(bl, inp, rows, |i, r| unzip2_u16_block(i, r, bl.len));
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn unzip4_u8_avx2<B: KnownBlocks>(inp: &[u8], rows: &mut [u8]) {
    let bl = &B::BLOCKS;
    unzips::<u8, 4>(bl, inp, rows, |i, r| {
        super::unzip_blocks::unzip4_u8_block(i, r, bl.len)
    });
}

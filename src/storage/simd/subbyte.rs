//! The dispatch of the sub-byte zips and unzips (rows of 4-, 2- or 1-bit
//! slots ↔ 32-bit columns): the widest kernel the [`Isa`] allows for the
//! bulk of the columns, from a column where its loads or stores are
//! aligned when that pays, the narrower ones and the portable words
//! (`storage::nibbles`, `storage::bitzip`) for the head and the rest.

use super::Isa;
#[cfg(target_arch = "x86_64")]
use super::{bitzip, nibbles};

/// Eight rows of 4-bit slots zipped (`(8,128)(8,1)E(4)`): `cols` byte
/// columns of rows `rs` bytes apart into `out[..8 · cols]`, AVX-512 64,
/// AVX2 32 and SSE2 16 columns at a time, the rest (and every column below
/// SSE2) by [`nibbles::zip8`](crate::storage::nibbles::zip8).
///
/// The wide kernels start where the rows' loads are aligned to their
/// width (when rows `rs` apart share that alignment): columns before it go
/// to the narrower kernels, as glibc's memcpy aligns its stream (a plain
/// `Vec` starts 16 bytes into a line, so every other 32-byte load and
/// every 64-byte one would cross two lines). With `ahead` (bytes, 0:
/// none) they prefetch the rows that far on (the next block's), line by
/// line as they read these. With `nt` they store non-temporally, and
/// start where the stores are aligned instead (whole lines streamed).
#[allow(clippy::too_many_arguments)] // reason: both sides, and how to read and store
pub(crate) fn zip8_nibbles(
    isa: Isa,
    rows: &[u8],
    rs: usize,
    cols: usize,
    out: &mut [u8],
    ahead: usize,
    nt: bool,
) {
    #[cfg(target_arch = "x86_64")]
    {
        let width = if isa.avx512() {
            64
        } else if isa.avx2() {
            32
        } else {
            0
        };
        if width > 0 && cols >= 2 * width {
            let head = if nt {
                // column x is written at byte 8x
                (out.as_ptr().align_offset(width) / 8).min(cols)
            } else {
                aligned_head(rows, rs, width, cols)
            };
            zip8_below(isa, width, rows, rs, head, out);
            let (r, o) = (&rows[head..], &mut out[8 * head..]);
            let done = head
                + if width == 64 {
                    // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most
                    // the detected level).
                    unsafe { nibbles::zip8_avx512(r, rs, cols - head, o, ahead, nt) }
                } else {
                    // SAFETY: the CPU has AVX2 (`isa` is at most the
                    // detected level).
                    unsafe { nibbles::zip8_avx2(r, rs, cols - head, o, ahead, nt) }
                };
            let rest = &rows[done.min(rows.len())..];
            return zip8_below(isa, width, rest, rs, cols - done, &mut out[8 * done..]);
        }
    }
    let _ = (ahead, nt);
    zip8_below(isa, 0, rows, rs, cols, out)
}

/// Columns before the first whose address is a multiple of `width` in
/// every row (`cols` at most; none when the rows do not share it).
#[cfg(target_arch = "x86_64")]
fn aligned_head(rows: &[u8], rs: usize, width: usize, cols: usize) -> usize {
    if !rs.is_multiple_of(width) {
        return 0;
    }
    rows.as_ptr().align_offset(width).min(cols)
}

/// [`zip8_nibbles`] by the kernels narrower than `width` bytes (0: all).
fn zip8_below(isa: Isa, width: usize, rows: &[u8], rs: usize, cols: usize, out: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    let done = {
        let avx2 = if isa.avx2() && (width == 0 || width > 32) {
            // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
            unsafe { nibbles::zip8_avx2(rows, rs, cols, out, 0, false) }
        } else {
            0
        };
        if isa.sse2() && (width == 0 || width > 16) {
            // SAFETY: `sse2` is part of the x86-64 baseline, so the target
            // feature the callee is compiled for is always present.
            avx2 + unsafe {
                nibbles::zip8_sse2(&rows[avx2..], rs, cols - avx2, &mut out[8 * avx2..])
            }
        } else {
            avx2
        }
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = {
        let _ = (isa, width);
        0
    };
    let rest = &rows[done.min(rows.len())..];
    crate::storage::nibbles::zip8(rest, rs, cols - done, &mut out[8 * done..]);
}

/// The inverse of [`zip8_nibbles`]: `cols` packed byte columns
/// (`in_[..8 · cols]`) into eight rows of 4-bit slots `rs` bytes apart
/// (only the `cols` bytes of each row are written), AVX-512 64, AVX2 32
/// and SSE2 16 columns at a time (the wide ones from where the rows'
/// stores are aligned, as in [`zip8_nibbles`], but AVX2 storing plainly
/// from the first column), the rest by
/// [`nibbles::unzip8`](crate::storage::nibbles::unzip8). With `nt` the wide
/// kernels store non-temporally.
pub(crate) fn unzip8_nibbles(
    isa: Isa,
    in_: &[u8],
    rows: &mut [u8],
    rs: usize,
    cols: usize,
    nt: bool,
) {
    #[cfg(target_arch = "x86_64")]
    {
        let width = if isa.avx512() {
            64
        } else if isa.avx2() {
            32
        } else {
            0
        };
        if width > 0 && cols >= 2 * width {
            // (streaming, from a line where the rows' stride keeps them on
            // lines: AVX2 stores two 32-byte steps of a row together,
            // `unzip8_avx2`, so that they fill one line. AVX2 with plain
            // stores from the first column: the head only moved columns
            // to the narrower kernels, s4[1024,2048] tiles → rows in
            // cache 17.0–18.0 GB/s with it, 19.7–20.3 without, AMD EPYC
            // Zen 3; and no faster on s4[4096,4096] from DRAM, 16.0 GB/s
            // either way. Tried and not kept there too: streaming through
            // an L1 stage, each tile row unzipped plainly and its rows
            // copied out by the aligned streaming copy in chunks of 256
            // bytes to 2 KiB, 8–13 GB/s against 15–17 plain; streaming
            // directly 5.5–6.3, with or without a source prefetch 1–4
            // KiB ahead)
            let line = if rs.is_multiple_of(64) { 64 } else { width };
            let head = if width == 32 && !nt {
                0
            } else {
                aligned_head(rows, rs, line, cols)
            };
            unzip8_below(isa, width, in_, rows, rs, head);
            let (i, r) = (&in_[8 * head..], &mut rows[head..]);
            let done = head
                + if width == 64 {
                    // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most
                    // the detected level).
                    unsafe { nibbles::unzip8_avx512(i, r, rs, cols - head, nt) }
                } else {
                    // SAFETY: the CPU has AVX2 (`isa` is at most the
                    // detected level).
                    unsafe { nibbles::unzip8_avx2(i, r, rs, cols - head, nt) }
                };
            let at = done.min(rows.len());
            return unzip8_below(
                isa,
                width,
                &in_[8 * done..],
                &mut rows[at..],
                rs,
                cols - done,
            );
        }
    }
    let _ = nt;
    unzip8_below(isa, 0, in_, rows, rs, cols)
}

/// [`unzip8_nibbles`] by the kernels narrower than `width` bytes (0: all).
fn unzip8_below(isa: Isa, width: usize, in_: &[u8], rows: &mut [u8], rs: usize, cols: usize) {
    #[cfg(target_arch = "x86_64")]
    let done = {
        let avx2 = if isa.avx2() && (width == 0 || width > 32) {
            // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
            unsafe { nibbles::unzip8_avx2(in_, rows, rs, cols, false) }
        } else {
            0
        };
        if isa.sse2() && (width == 0 || width > 16) {
            // SAFETY: `sse2` is part of the x86-64 baseline, so the target
            // feature the callee is compiled for is always present.
            avx2 + unsafe {
                nibbles::unzip8_sse2(&in_[8 * avx2..], &mut rows[avx2..], rs, cols - avx2)
            }
        } else {
            avx2
        }
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = {
        let _ = (isa, width);
        0
    };
    let at = done.min(rows.len());
    let rest = &mut rows[at..];
    crate::storage::nibbles::unzip8(&in_[8 * done..], rest, rs, cols - done);
}

/// `32 / W` rows of `W`-bit slots (`W` = 2 or 1) zipped into 32-bit
/// columns (`(16,128)(16,1)E(2)`, `(32,128)(32,1)E(1)`): `cols` byte
/// columns of rows `rs` bytes apart into `out[..(32 / W) · cols]`, AVX-512
/// 64 or AVX2 32 columns at a time, then SSE2 16 (plain stores), the rest
/// by [`bitzip::zip_bits`](crate::storage::bitzip::zip_bits). `ahead`: the
/// next block's rows, as in [`zip8_nibbles`].
#[allow(clippy::too_many_arguments)] // reason: both sides, and how to read and store
pub(crate) fn zip_bits<const W: u32>(
    isa: Isa,
    rows: &[u8],
    rs: usize,
    cols: usize,
    out: &mut [u8],
    ahead: usize,
    nt: bool,
) {
    let k = 32 / W as usize;
    #[cfg(target_arch = "x86_64")]
    let done = if isa.avx512() && cols >= 64 {
        // (no aligned head here: the portable zip is 10–20 times slower,
        // so even a few dozen of its columns cost more than split loads)
        // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most the
        // detected level).
        unsafe {
            match W {
                2 => bitzip::zip2_avx512(rows, rs, cols, out, ahead, nt),
                _ => bitzip::zip1_avx512(rows, rs, cols, out, ahead, nt),
            }
        }
    } else if isa.avx2() && cols >= 32 {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        unsafe {
            match W {
                2 => bitzip::zip2_avx2(rows, rs, cols, out, ahead, nt),
                _ => bitzip::zip1_avx2(rows, rs, cols, out, ahead, nt),
            }
        }
    } else {
        0
    };
    // the rest of the wide kernels' columns (all of them at the SSE2
    // level), 16 at a time
    #[cfg(target_arch = "x86_64")]
    let done = done
        + if isa.sse2() && cols - done >= 16 {
            let (r, o) = (&rows[done..], &mut out[k * done..]);
            // SAFETY: `sse2` is part of the x86-64 baseline, so the target
            // feature the callee is compiled for is always present.
            unsafe {
                match W {
                    2 => bitzip::zip2_sse2(r, rs, cols - done, o),
                    _ => bitzip::zip1_sse2(r, rs, cols - done, o),
                }
            }
        } else {
            0
        };
    // (the portable zip alone elsewhere)
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    let _ = (isa, nt, ahead);
    let rest = &rows[done.min(rows.len())..];
    crate::storage::bitzip::zip_bits::<W>(rest, rs, cols - done, &mut out[k * done..]);
}

/// The inverse of [`zip_bits`]: `cols` packed byte columns (`in_[..(32 /
/// W) · cols]`) into `32 / W` rows `rs` bytes apart (only the `cols` bytes
/// of each row are written), AVX-512 64 or AVX2 32 columns at a time, then
/// SSE2 16 (plain stores), the rest by
/// [`bitzip::unzip_bits`](crate::storage::bitzip::unzip_bits).
pub(crate) fn unzip_bits<const W: u32>(
    isa: Isa,
    in_: &[u8],
    rows: &mut [u8],
    rs: usize,
    cols: usize,
    nt: bool,
) {
    let k = 32 / W as usize;
    #[cfg(target_arch = "x86_64")]
    let done = if isa.avx512() && cols >= 64 {
        // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most the
        // detected level).
        unsafe {
            match W {
                2 => bitzip::unzip2_avx512(in_, rows, rs, cols, nt),
                _ => bitzip::unzip1_avx512(in_, rows, rs, cols, nt),
            }
        }
    } else if isa.avx2() && cols >= 32 {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        unsafe {
            match W {
                2 => bitzip::unzip2_avx2(in_, rows, rs, cols, nt),
                _ => bitzip::unzip1_avx2(in_, rows, rs, cols, nt),
            }
        }
    } else {
        0
    };
    // the rest of the wide kernels' columns (all of them at the SSE2
    // level), 16 at a time
    #[cfg(target_arch = "x86_64")]
    let done = done
        + if isa.sse2() && cols - done >= 16 {
            let (i, r) = (&in_[k * done..], &mut rows[done..]);
            // SAFETY: `sse2` is part of the x86-64 baseline, so the target
            // feature the callee is compiled for is always present.
            unsafe {
                match W {
                    2 => bitzip::unzip2_sse2(i, r, rs, cols - done),
                    _ => bitzip::unzip1_sse2(i, r, rs, cols - done),
                }
            }
        } else {
            0
        };
    // (the portable unzip alone elsewhere)
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    let _ = (isa, nt);
    let at = done.min(rows.len());
    crate::storage::bitzip::unzip_bits::<W>(&in_[k * done..], &mut rows[at..], rs, cols - done);
}

//! The tile transposes of a gather block: 8 × 8 blocks of 32-bit slots,
//! the whole loop nest of a block compiled at the SIMD level it runs at
//! (so the register transpose inlines into the loops instead of being
//! called once per 256 bytes). At the AVX-512 level, blocks whose loops
//! give 16 × 16 steps run those (`transpose512`: 64 bytes of 16 rows a
//! step); the others, and the lower levels, the 8 × 8 loops
//! (`transpose_loops`). Streaming blocks of some shapes skip the stage
//! there ([`gather_direct_u32`]: `transpose512::direct`, or
//! `transpose512::panel` where the source rows are 4 KiB apart). Below
//! AVX-512, streaming blocks in panels of 8 rows run the AVX2 level's
//! panels ([`gather_panels_u32`]), the previous block's stage copied out
//! as they are gathered.
//!
//! ```text
//!   dst[d + c·ds + r] = src[s + r·ss + c]      r, c < 8
//! ```

use super::Isa;
use crate::storage::nest::Loop;

/// An 8 × 8 transpose of 32-bit slots: `dst[d + c·ds + r] = src[s + r·ss +
/// c]` for `r, c < 8` (the kernels inline the level's own version; this
/// dispatch is for the tests).
#[cfg(test)]
fn transpose8_u32(
    isa: Isa,
    src: &[u32],
    s: usize,
    ss: usize,
    dst: &mut [u32],
    d: usize,
    ds: usize,
) {
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { super::avx2::transpose8_u32(src, s, ss, dst, d, ds) };
    }
    let _ = isa;
    portable8(src, s, ss, dst, d, ds);
}

/// [`transpose8_u32`] in plain loops.
#[inline(always)]
fn portable8(src: &[u32], s: usize, ss: usize, dst: &mut [u32], d: usize, ds: usize) {
    for r in 0..8 {
        for c in 0..8 {
            dst[d + c * ds + r] = src[s + r * ss + c];
        }
    }
}

/// Whether the gather loops `loops` (source order) end in a transpose of
/// 4-byte slots this module runs: the innermost loop contiguous in the
/// source, the one around it contiguous in the stage, both counts
/// multiples of 8.
pub(crate) const fn transposes(loops: &[Loop]) -> bool {
    matches!(loops, [.., y, x] if x.src == 1 && y.dst == 1 && x.n % 8 == 0 && y.n % 8 == 0)
}

/// A gather block whose loops [`transposes`] accepts, from `src` at `s`
/// into the stage `out`, 8 × 8 at a time; `ahead`: the source offset of
/// the next block less this one's, prefetched as this one is read.
pub(crate) fn gather_u32(
    isa: Isa,
    src: &[u32],
    s: usize,
    loops: &[Loop],
    out: &mut [u32],
    ahead: Option<isize>,
) {
    #[cfg(target_arch = "x86_64")]
    if isa.avx512() {
        if let Some(sh) = super::transpose512::Shape16::of(loops) {
            // SAFETY: the CPU has AVX-512 F (`isa` is at most the detected
            // level, and its AVX-512 level requires F and BW).
            return unsafe { super::transpose512::gather_transpose_u32(src, s, &sh, out, ahead) };
        }
    }
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { super::avx2::gather_transpose_u32(src, s, loops, out, ahead) };
    }
    let _ = isa;
    super::transpose_loops::blocks(src, s, loops, out, ahead, portable8);
}

/// A gather block whose loops [`transposes`] accepts, from `src` at `s`
/// into the stage `out`, at the AVX2 level (below AVX-512) where its rows
/// come in panels of 8 (`avx2::panels`), calling `tick(k, of)` after each
/// of its `of` panels, so that the caller can copy out a share of the
/// previous block's stage as this one is gathered; `false`, and nothing
/// done, elsewhere.
pub(crate) fn gather_panels_u32(
    isa: Isa,
    src: &[u32],
    s: usize,
    loops: &[Loop],
    out: &mut [u32],
    ahead: Option<isize>,
    tick: impl FnMut(usize, usize),
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() && !isa.avx512() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { super::avx2::gather_panels_u32(src, s, loops, out, ahead, tick) };
    }
    let _ = (isa, src, s, loops, out, ahead, tick);
    false
}

/// Which kernel [`gather_direct_u32`] ran a block with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direct {
    /// `transpose512::direct`: 16 rows a step read from the source.
    Rows,
    /// `transpose512::panel`: rows in one L1d set, copied into a panel
    /// first.
    Panel,
    /// `transpose512::columns`: a column-major destination, the column
    /// steps on the source's lines.
    Columns,
}

/// A gather block whose loops [`transposes`] accepts, from `src` at `s`
/// straight into `dst` with streaming stores if `nt`, else ordinary ones
/// (stage slot `t` at `d + t / foot ·
/// chunk + t % foot`), without the stage, if the level has a kernel for
/// its shape (AVX-512: `transpose512::columns` into a column-major
/// destination, else `transpose512::direct`, or `transpose512::panel`
/// through `scratch` for rows 4 KiB apart); returns which ran, if one
/// did. `ahead`: as for [`gather_u32`].
#[allow(clippy::too_many_arguments)] // reason: both sides, the chunk map and the scratch, flat
pub(crate) fn gather_direct_u32(
    isa: Isa,
    src: &[u32],
    s: usize,
    loops: &[Loop],
    dst: &mut [u32],
    (d, foot, chunk): (usize, usize, usize),
    scratch: &mut [u32],
    ahead: Option<isize>,
    nt: bool,
) -> Option<Direct> {
    #[cfg(target_arch = "x86_64")]
    if isa.avx512() {
        use super::transpose512::{columns, columns_fits};
        use super::transpose512::{direct, direct_fits, panel, Dest, Panel, Shape16};
        let to = Dest { d, foot, chunk };
        if let Some(sh) = Shape16::of(loops) {
            if columns_fits(&sh, &to) {
                // SAFETY: the CPU has AVX-512 F (`isa` is at most the
                // detected level, and its AVX-512 level requires F and BW).
                unsafe { columns(src, s, &sh, dst, &to, ahead, nt) };
                return Some(Direct::Columns);
            }
            if direct_fits(&sh, &to) {
                // SAFETY: the CPU has AVX-512 F (`isa` is at most the
                // detected level, and its AVX-512 level requires F and BW).
                unsafe { direct(src, s, &sh, dst, &to, ahead, nt) };
                return Some(Direct::Rows);
            }
        } else if let Some(sh) = Shape16::any(loops) {
            let l1d = crate::storage::caches::Caches::host().l1d;
            if let Some(p) = Panel::of(&sh, &to, scratch.len(), l1d) {
                // SAFETY: as above.
                unsafe { panel(src, s, &p, scratch, dst, &to, ahead, nt) };
                return Some(Direct::Panel);
            }
        }
    }
    let _ = (isa, src, s, loops, dst, d, foot, chunk, scratch, ahead, nt);
    None
}

/// Whether the AVX-512 level runs the block `loops` as 16 × 16 steps
/// (`transpose512`), for the tests of real plans (in `relayout.rs`, which
/// plans them: this module must not import it).
#[cfg(test)]
pub(crate) fn takes_16x16(loops: &[Loop]) -> bool {
    #[cfg(target_arch = "x86_64")]
    return super::transpose512::Shape16::of(loops).is_some();
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// For the tests of the direct kernels: the block `loops` from `src` at
/// `s` through [`gather_direct_u32`] (with `scratch`) into a destination
/// that starts on a line and `d` slots into it, for every `d` in `0..=16`
/// at every level, streaming and not: the AVX-512 level (where the CPU has it) runs
/// `expect`, the others none (see [`super::check_chunks_at_every_offset`]
/// for what is checked).
#[cfg(test)]
pub(crate) fn check_direct_at_every_offset(
    src: &[u32],
    s: usize,
    loops: &[Loop],
    (foot, chunk): (usize, usize),
    scratch: &mut [u32],
    expect: Direct,
) {
    use crate::storage::simd::Simd;
    const OUT: u32 = 0xDEAD_BEEF;
    let stage = 1 + loops.iter().map(|l| (l.n - 1) * l.dst).sum::<u64>() as usize;
    let mut want = alloc::vec![OUT; stage];
    super::gather_by_definition(src, s, loops, &mut want);
    let takes = cfg!(target_arch = "x86_64") && Simd::detected() >= Simd::Avx512;
    // streaming stores, and ordinary ones
    for nt in [true, false] {
        super::check_chunks_at_every_offset(
            &(loops, s, nt),
            &want,
            (foot, chunk),
            17,
            OUT,
            |isa, out, d| {
                let to = (d, foot, chunk);
                gather_direct_u32(isa, src, s, loops, out, to, scratch, Some(64), nt)
            },
            |level, _| (takes && level == Simd::Avx512).then_some(expect),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::simd::Simd;

    #[test]
    fn transpose8_matches_the_definition() {
        let src: alloc::vec::Vec<u32> = (0..8 * 13).collect();
        let mut dst = alloc::vec![0u32; 8 * 11 + 8];
        for level in Simd::ALL {
            dst.fill(0);
            transpose8_u32(Isa::new(Some(level)), &src, 2, 13, &mut dst, 3, 11);
            for r in 0..8 {
                for c in 0..8 {
                    assert_eq!(dst[3 + c * 11 + r], src[2 + r * 13 + c], "{level:?}");
                }
            }
        }
    }

    /// A column-major [24, 16] source gathered into a row-major stage (a
    /// block of 3 × 2 tiles), and a loop around them, at every level.
    #[test]
    fn gather_matches_the_loops_at_every_level() {
        let l = Loop::free;
        // source offset r + 24c + 384k, stage offset 16r + c + 384k
        let loops = [l(2, 384, 384), l(16, 24, 1), l(24, 1, 16)];
        assert!(transposes(&loops));
        let src: alloc::vec::Vec<u32> = (0..2 * 384 + 5).map(|i| i * 7 + 1).collect();
        let mut want = alloc::vec![0u32; 2 * 384];
        for k in 0..2 {
            for c in 0..16 {
                for r in 0..24 {
                    want[16 * r + c + 384 * k] = src[5 + r + 24 * c + 384 * k];
                }
            }
        }
        for level in Simd::ALL {
            let mut out = alloc::vec![0u32; 2 * 384];
            gather_u32(Isa::new(Some(level)), &src, 5, &loops, &mut out, Some(17));
            assert_eq!(out, want, "{level:?}");
        }
    }

    /// The AVX2 panels (`gather_panels_u32`) against the definition, at
    /// source offsets 0–16 slots and with and without a next block to
    /// hint: rows of whole tiles (the column loop merged), column-major
    /// rows of 64 and 128 slots, two 8-row groups; each block's ticks count
    /// its panels one by one. Blocks without panels (columns not a
    /// multiple of 64, rows not whole groups of 8) are refused untouched,
    /// and at the other levels every block is.
    #[test]
    fn panels_match_the_definition() {
        let l = Loop::free;
        // (the loops, and how many panels they make)
        let cases: [(&str, alloc::vec::Vec<Loop>, Option<usize>); 6] = [
            // `{1,0:T(8,128)}` → `{0,1:T(8,128)}`: 4 tiles, 16 chunks of
            // 8 columns merged into 128-slot rows
            (
                "T->T",
                alloc::vec![l(4, 2048, 8), l(16, 8, 256), l(8, 128, 1), l(8, 1, 32)],
                Some(4),
            ),
            // column-major → `T(8,128)`: 16 rows of 64 slots, 200 apart
            (
                "cols->T",
                alloc::vec![l(8, 8, 128), l(16, 200, 1), l(8, 1, 16)],
                Some(2),
            ),
            // 128-slot columns, one loop, around another loop
            (
                "cols 128",
                alloc::vec![l(3, 5000, 1024), l(8, 300, 1), l(128, 1, 8)],
                Some(3),
            ),
            // 48 columns, 16 columns, 12 rows: no panels
            ("48 cols", alloc::vec![l(16, 64, 1), l(48, 1, 16)], None),
            ("16 cols", alloc::vec![l(8, 16, 1), l(16, 1, 8)], None),
            ("12 rows", alloc::vec![l(12, 64, 1), l(64, 1, 12)], None),
        ];
        let src: alloc::vec::Vec<u32> = (0..20000u32).map(|i| i.wrapping_mul(2654435761)).collect();
        for (name, loops, panels) in &cases {
            let stage: u64 = loops.iter().map(|l| l.n).product();
            for (s, level) in (0..=16).flat_map(|s| Simd::ALL.map(|l| (s, l))) {
                let isa = Isa::new(Some(level));
                for ahead in [None, Some(7), Some(-3)] {
                    let mut want = alloc::vec![0u32; stage as usize];
                    super::super::gather_by_definition(&src, s, loops, &mut want);
                    let mut out = alloc::vec![0u32; stage as usize];
                    let mut ticks = alloc::vec::Vec::new();
                    let ran = gather_panels_u32(isa, &src, s, loops, &mut out, ahead, |k, of| {
                        ticks.push((k, of));
                    });
                    if !isa.avx2() || isa.avx512() {
                        // (the other levels run no panels)
                        assert!(!ran && ticks.is_empty(), "{name} {level:?}");
                        continue;
                    }
                    match panels {
                        Some(n) => {
                            assert!(ran, "{name}");
                            assert!(out == want, "{name} s={s} ahead={ahead:?}");
                            let each: alloc::vec::Vec<_> = (1..=*n).map(|k| (k, *n)).collect();
                            assert_eq!(ticks, each, "{name}");
                        }
                        None => {
                            assert!(!ran && ticks.is_empty(), "{name}");
                            assert!(out.iter().all(|&x| x == 0), "{name}: untouched");
                        }
                    }
                }
            }
        }
    }

    /// Blocks shaped as the tile transposes' (source order, `transposes`
    /// holds) at every level and source offset 0–16 slots (every way a
    /// row can sit in a line), against the definition; on x86-64, which
    /// of them the AVX-512 level's 16 × 16 shape takes (it runs them where
    /// the CPU has AVX-512; the others run the AVX2 loops there).
    #[test]
    fn tile_transpose_blocks_match_the_definition_at_every_level() {
        let l = Loop::free;
        let cases: [(&str, alloc::vec::Vec<Loop>, bool); 9] = [
            // `{1,0:T(8,128)}` → `{0,1:T(8,128)}`: 4 tile rows of 2 tiles
            // (rows paired across tiles), 16 stage chunks of 8 columns
            // (merged into 128-slot rows)
            (
                "T->T",
                alloc::vec![l(4, 2048, 8), l(16, 8, 256), l(8, 128, 1), l(8, 1, 32)],
                true,
            ),
            // tiles → column-major: 64 bytes of 6 tiles' rows
            (
                "T->cols",
                alloc::vec![l(6, 2048, 8), l(8, 128, 1), l(16, 1, 48)],
                true,
            ),
            // a source of 208-slot columns (every row starts the same way
            // in a line: line-aligned steps), 32 columns
            (
                "cols 208",
                alloc::vec![l(4, 8, 256), l(32, 208, 1), l(8, 1, 32)],
                true,
            ),
            // 200-slot columns: rows sit differently in their lines
            (
                "cols 200",
                alloc::vec![l(4, 8, 256), l(32, 200, 1), l(8, 1, 32)],
                true,
            ),
            // 16 rows, 48 columns in one loop, with a loop around the rows
            (
                "rows 48",
                alloc::vec![l(3, 4000, 1536), l(32, 64, 1), l(48, 1, 32)],
                true,
            ),
            // columns 4 KiB apart: left to AVX2 (all rows in one L1 set)
            (
                "cols 1024",
                alloc::vec![l(2, 8, 128), l(16, 1024, 1), l(8, 1, 16)],
                false,
            ),
            // 8 rows and no loop to pair them; an odd pair loop
            ("8 rows", alloc::vec![l(8, 64, 1), l(16, 1, 8)], false),
            (
                "odd pairs",
                alloc::vec![l(3, 2048, 8), l(8, 128, 1), l(16, 1, 24)],
                false,
            ),
            // 24 columns no loop continues
            ("24 cols", alloc::vec![l(16, 32, 1), l(24, 1, 16)], false),
        ];
        let src: alloc::vec::Vec<u32> = (0..16400u32).map(|i| i.wrapping_mul(2654435761)).collect();
        for (name, loops, takes) in &cases {
            assert!(transposes(loops), "{name}");
            #[cfg(target_arch = "x86_64")]
            assert_eq!(
                super::super::transpose512::Shape16::of(loops).is_some(),
                *takes,
                "{name}"
            );
            let _ = takes;
            let stage: u64 = loops.iter().map(|l| l.n).product();
            for s in 0..=16 {
                let mut want = alloc::vec![0u32; stage as usize];
                super::super::gather_by_definition(&src, s, loops, &mut want);
                for level in Simd::ALL {
                    let mut out = alloc::vec![0u32; stage as usize];
                    gather_u32(Isa::new(Some(level)), &src, s, loops, &mut out, Some(32));
                    assert_eq!(out, want, "{name} s={s} {level:?}");
                }
            }
        }
    }

    /// Streaming blocks written straight into the destination (AVX-512):
    /// three shapes (rows adjacent in the destination, so shared lines
    /// are joined; rows apart, so their ends are partial lines) at every
    /// destination offset in a line, against the definition through the
    /// chunk map; slots outside the chunks stay as they were.
    #[test]
    fn direct_blocks_match_the_definition_at_every_offset() {
        let l = Loop::free;
        // (loops, chunk length, chunk step in the destination)
        let cases = [
            (
                alloc::vec![l(4, 2048, 8), l(16, 8, 256), l(8, 128, 1), l(8, 1, 32)],
                256,
                320,
            ),
            (
                alloc::vec![l(4, 8, 256), l(32, 208, 1), l(8, 1, 32)],
                512,
                512,
            ),
            (
                alloc::vec![l(6, 2048, 8), l(8, 128, 1), l(32, 1, 64)],
                1024,
                1040,
            ),
        ];
        let src: alloc::vec::Vec<u32> = (0..16400u32).map(|i| i.wrapping_mul(2654435761)).collect();
        for (loops, foot, chunk) in &cases {
            // (a stage with gaps: the slots no loop reaches stay unwritten)
            let at = (*foot, *chunk);
            super::check_direct_at_every_offset(&src, 3, loops, at, &mut [], Direct::Rows);
        }
    }

    /// Streaming blocks whose 16 rows of a step fall in one L1d set (a
    /// column-major source's columns, 4 KiB apart: the real plan's loops
    /// for f32[1024,1024] column-major → `{1,0:T(8,128)}`, blocks of 64
    /// rows of 4 and 3 column steps, and one of 16 rows), at every source and destination offset in a line,
    /// against the definition through the chunk map (rows adjacent in the
    /// destination, or apart): the AVX-512 level runs them through the
    /// panel, the others run none; without room for the panel, or with
    /// rows not in one set, the panel is not taken.
    #[test]
    fn panel_blocks_match_the_definition_at_every_offset() {
        let l = Loop::free;
        let cases = [
            // (loops, chunk length, chunk step in the destination)
            (
                alloc::vec![l(16, 8, 1024), l(128, 1024, 1), l(8, 1, 128)],
                1024,
                1024,
            ),
            (
                alloc::vec![l(16, 8, 1024), l(128, 1024, 1), l(8, 1, 128)],
                128,
                144,
            ),
            (alloc::vec![l(64, 2048, 1), l(64, 1, 64)], 512, 528),
            // an odd number of pieces (the panel's halves alternate), and
            // one group of 16 rows (no line inside a row but the ends)
            (alloc::vec![l(64, 2048, 1), l(48, 1, 64)], 512, 528),
            (alloc::vec![l(16, 1024, 1), l(32, 1, 16)], 256, 272),
        ];
        let src: alloc::vec::Vec<u32> = (0..140_000u32)
            .map(|i| i.wrapping_mul(2654435761))
            .collect();
        let mut scratch = alloc::vec![0u32; 128 * 128];
        let can = cfg!(target_arch = "x86_64") && Simd::detected() >= Simd::Avx512;
        for (loops, foot, chunk) in &cases {
            for s in 0..=16 {
                let at = (*foot, *chunk);
                super::check_direct_at_every_offset(
                    &src,
                    s,
                    loops,
                    at,
                    &mut scratch,
                    Direct::Panel,
                );
            }
        }
        if can {
            let isa = Isa::new(Some(Simd::Avx512));
            let (loops, mut out) = (&cases[0].0, alloc::vec![0u32; 1 << 15]);
            // a scratch too small for the panel (and its line alignment)
            let small = &mut scratch[..128 * 32 + 14];
            let ran = gather_direct_u32(
                isa,
                &src,
                0,
                loops,
                &mut out,
                (0, 1024, 1024),
                small,
                None,
                true,
            );
            assert_eq!(ran, None);
            // rows 4 KiB + 64 bytes apart: read from the source directly
            let rows = [l(16, 8, 1024), l(128, 1040, 1), l(8, 1, 128)];
            let ran = gather_direct_u32(
                isa,
                &src,
                0,
                &rows,
                &mut out,
                (0, 1024, 1024),
                &mut scratch,
                None,
                true,
            );
            assert_eq!(ran, Some(Direct::Rows));
        }
    }
}

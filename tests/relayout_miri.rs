//! Small relayouts that reach every `unsafe` block of the storage module,
//! for Miri: `cargo +nightly miri test --test relayout_miri`.
//!
//! - `kernels::stream::copy` (`_mm_stream_si128`, x86-64): forced
//!   streaming on runs, and on the staged zip/unzip kernels, with
//!   destinations at every alignment modulo 64 bytes;
//! - `kernels::stream::fence` (`_mm_sfence`);
//! - `simd::zip8_nibbles` and `simd::unzip8_nibbles` (the AVX2 and SSE2
//!   calls);
//! - `simd::{zip2_u16, zip4_u8, unzip2_u16, unzip4_u8, transpose8_u32}`
//!   and the unit transposes of `simd::squares`:
//!   every [`Simd`](tilelayout::storage::Simd) level up to the CPU's (the
//!   shared `check` runs each plan at each level): with `RUSTFLAGS="-C
//!   target-feature=+avx2"` the portable, SSE2 and AVX2 paths, including
//!   the AVX2 streaming stores (32-byte, and 16-byte halves into `Vec`-like
//!   destinations).
//!
//! The same cases run natively in `cargo test`.

mod relayout_common;
use relayout_common::{check, shape, strided};
use tilelayout::storage::{ArrayLayout, Caches, Kernel, RelayoutPlan, Simd, Unit};

fn both_ways(ty: &str, dims: &[u64], attrs: &str, bits: u32, kernels: [Kernel; 2]) {
    let rows = ArrayLayout::from(strided(dims, bits)[0]);
    let t = ArrayLayout::from(shape(ty, dims, &[1, 0], attrs));
    for nt in [Some(true), Some(false)] {
        assert_eq!(check(rows, t, bits, nt), kernels[0]);
        assert_eq!(check(t, rows, bits, nt), kernels[1]);
    }
}

/// Eight rows of nibbles zipped (`simd::zip8_nibbles`: AVX2 32 and SSE2 16 byte
/// columns at a time, the word version for the rest).
#[test]
fn s4_nibble_zip_matches_the_definition() {
    let rows = ArrayLayout::from(strided(&[8, 72], 4)[0]);
    let t = ArrayLayout::from(shape("s4", &[8, 72], &[1, 0], "T(8,72)(8,1)E(4)"));
    assert_eq!(check(rows, t, 4, None), Kernel::Interleave(8));
}

/// And back (`simd::unzip8_nibbles`): 52 byte columns, so AVX2 takes 32,
/// SSE2 16 and the word version 4 (SSE2 48 at that level).
#[test]
fn s4_nibble_unzip_matches_the_definition() {
    let rows = ArrayLayout::from(strided(&[8, 104], 4)[0]);
    let t = ArrayLayout::from(shape("s4", &[8, 104], &[1, 0], "T(8,104)(8,1)E(4)"));
    assert_eq!(check(t, rows, 4, None), Kernel::Deinterleave(8));
}

#[test]
fn streaming_runs_match_the_definition() {
    both_ways(
        "f32",
        &[16, 32],
        "T(8,16)",
        32,
        [Kernel::Runs, Kernel::Runs],
    );
}

#[test]
fn bf16_zip_kernels_match_the_definition() {
    both_ways(
        "bf16",
        &[4, 44],
        "T(4,44)(2,1)",
        16,
        [Kernel::Interleave(2), Kernel::Deinterleave(2)],
    );
}

#[test]
fn s8_zip_kernels_match_the_definition() {
    both_ways(
        "s8",
        &[8, 72],
        "T(8,72)(4,1)",
        8,
        [Kernel::Interleave(4), Kernel::Deinterleave(4)],
    );
}

/// Streaming stores need 64-byte-aligned lines: destinations that start
/// anywhere within a line take the plain head and tail paths.
#[test]
fn streaming_at_every_destination_alignment() {
    let t = shape("f32", &[2, 48], &[1, 0], "T(1,48)");
    let rows = strided(&[2, 48], 32)[0];
    let plan = RelayoutPlan::new(rows, t)
        .unwrap()
        .with_streaming(Some(true));
    let src: Vec<f32> = (0..96).map(|i| i as f32).collect();
    let mut buf = vec![0f32; 96 + 16];
    for shift in 0..16 {
        buf.fill(-1.0);
        plan.execute(&src, &mut buf[shift..shift + 96]).unwrap();
        assert_eq!(&buf[shift..shift + 96], &src[..]);
        assert!(buf[..shift]
            .iter()
            .chain(&buf[shift + 96..])
            .all(|&x| x == -1.0));
    }
}

/// Streamed runs (`kernels::stream::copy`: partial lines in 16-byte
/// stores) that follow each other in the destination while their sources
/// jump (a `T(2,80)` tile's two rows, and tile after tile) and runs that
/// do not (`T(2,40)` of 76-byte rows: padding after each 36-byte run),
/// rows → tiles and back, the destination at every byte offset 0–63 of a
/// line (one line-aligned buffer, offset; every third under Miri): the
/// result must be the non-streaming plan's (itself checked against the
/// definition), and the bytes around untouched.
#[test]
fn streamed_runs_at_every_destination_offset() {
    const TINY: Caches = Caches {
        l1d: 32 << 10,
        l2: 256,
        last: 512,
        favour_writes: true,
    };
    // (and the same caches where the walk keeps the source's order)
    const TINY_SRC: Caches = Caches {
        favour_writes: false,
        ..TINY
    };
    // (the last two walk rows → tiles in destination order, a tile a
    // block, whose runs follow each other in the destination, fewer than
    // the tiles of a tile row; back, two tiles a block, each row's runs
    // continuing the row's block before, 2 or 3 blocks back)
    // (and whether tiles → rows takes blocks of tiles, the tiles' rows an
    // outer loop: 3 outer loops)
    for (dims, attrs, grouped) in [
        ([4u64, 160], "T(2,80)", false),
        ([4, 76], "T(2,40)", false),
        ([8, 160], "T(2,40)", true),
        ([6, 144], "T(3,24)", true),
    ] {
        let t = ArrayLayout::from(shape("u8", &dims, &[1, 0], attrs));
        let rows = ArrayLayout::from(strided(&dims, 8)[0]);
        let sides = [(false, (rows, t)), (true, (t, rows))];
        for ((back, (from, to)), caches) in
            sides.into_iter().flat_map(|s| [(s, TINY), (s, TINY_SRC)])
        {
            assert_eq!(check(from, to, 8, Some(false)), Kernel::Runs);
            // (planned for caches these sizes stream in, so that the walk
            // is the one streaming stores take)
            let plan = |nt| {
                RelayoutPlan::for_caches(from, to, &caches)
                    .unwrap()
                    .with_streaming(Some(nt))
            };
            let (streamed, plain) = (plan(true), plan(false));
            assert_eq!(streamed.stats().kernel, Kernel::Runs);
            let blocks_of_tiles = streamed.stats().outer_loops == 3;
            let favour = caches.favour_writes;
            assert_eq!(blocks_of_tiles, grouped && back && favour, "{attrs}");
            let sn = streamed.src_units(1) as usize;
            let n = streamed.dst_units(1) as usize;
            let src: Vec<u8> = (0..sn).map(|i| (i * 7 + 3) as u8).collect();
            let mut want = vec![0u8; n];
            plain.execute(&src, &mut want).unwrap();
            let mut buf = vec![0u8; n + 192];
            let line = buf.as_ptr().align_offset(64);
            // (under Miri every third offset: 11 s instead of 33 a case)
            for off in (0..64).step_by(if cfg!(miri) { 3 } else { 1 }) {
                buf.fill(0xEE);
                let at = line + off;
                streamed.execute(&src, &mut buf[at..at + n]).unwrap();
                assert_eq!(&buf[at..at + n], &want[..], "{attrs} at {off}");
                assert!(
                    buf[..at].iter().chain(&buf[at + n..]).all(|&x| x == 0xEE),
                    "{attrs} at {off}: bytes outside the destination written"
                );
            }
        }
    }
}

/// Runs contiguous on both sides, where the caches favour the writes
/// (`Caches::favour_writes`), take the block that repeats the run fewer
/// times: f32 rows → `T(8,128)` a tile a block (8 rows read, one
/// destination stream), ties in source order (8 tiles a tile row of
/// f32[1000²]). Back, where a tile a block would visit each of its rows a
/// 512-byte run at a time, the block is as many tiles as give each row up
/// to a 4 KiB page a visit and no more than the tile has rows (8 of
/// `T(8,128)`, 4 of `T(4,128)`, 2 of `T(2,40)`), the tiles' rows an outer
/// loop of their own; runs that fill a page (`T(8,1024)`) keep a tile a
/// block. Where they do not, both keep the source's order: a source row's
/// runs into as many tiles (32 of `T(8,128)` on 4096 columns), a tile's
/// rows into as many rows.
#[test]
fn runs_take_the_block_with_fewer_streams() {
    // (the block, and the outer loops: 2 for a tile a block, 3 where the
    // tiles' rows loop around a block of tiles)
    let block = |ty: &str, dims: &[u64], attrs: &str, bits: u32, c: &Caches| {
        let rows = ArrayLayout::from(strided(dims, bits)[0]);
        let t = ArrayLayout::from(shape(ty, dims, &[1, 0], attrs));
        let (there, back) = (
            RelayoutPlan::for_caches(rows, t, c).unwrap().stats(),
            RelayoutPlan::for_caches(t, rows, c).unwrap().stats(),
        );
        assert_eq!((there.kernel, back.kernel), (Kernel::Runs, Kernel::Runs));
        (
            (there.block, there.outer_loops),
            (back.block, back.outer_loops),
        )
    };
    // (type, dims, tiling, bits; rows → tiles' block and outer loops,
    // then back's, for the writes; then both in the source's order)
    type Walk = [((u64, u64), usize); 2];
    type Case = (&'static str, [u64; 2], &'static str, u32, Walk, Walk);
    let cases: [Case; 6] = [
        (
            "f32",
            [4096, 4096],
            "T(8,128)",
            32,
            [((8, 128), 2), ((8, 128), 3)],
            [((32, 128), 2), ((8, 128), 2)],
        ),
        (
            "f32",
            [1024, 4096],
            "T(4,128)",
            32,
            [((4, 128), 2), ((4, 128), 3)],
            [((32, 128), 2), ((4, 128), 2)],
        ),
        (
            "u8",
            [4096, 4000],
            "T(2,40)",
            8,
            [((2, 40), 2), ((2, 40), 3)],
            [((100, 40), 2), ((2, 40), 2)],
        ),
        // a run that fills a page: a block of 4 runs (of the tile's 8
        // rows) either way for the writes, in destination order
        (
            "f32",
            [1024, 4096],
            "T(8,1024)",
            32,
            [((4, 1024), 2), ((4, 1024), 2)],
            [((4, 1024), 2), ((8, 1024), 2)],
        ),
        // what stays in cache (4 MiB a side of a 32 MiB last level): a
        // tile a block back
        (
            "f32",
            [512, 2048],
            "T(8,128)",
            32,
            [((8, 128), 2), ((8, 128), 2)],
            [((16, 128), 2), ((8, 128), 2)],
        ),
        (
            "f32",
            [1000, 1000],
            "T(8,128)",
            32,
            [((8, 128), 2), ((8, 128), 2)],
            [((8, 128), 2), ((8, 128), 2)],
        ),
    ];
    let intel = Caches {
        favour_writes: true,
        ..Caches::FALLBACK
    };
    for (ty, dims, attrs, bits, [there, back], [src_there, src_back]) in cases {
        let name = format!("{ty}{dims:?} {attrs}");
        assert_eq!(
            block(ty, &dims, attrs, bits, &intel),
            (there, back),
            "{name}"
        );
        assert_eq!(
            block(ty, &dims, attrs, bits, &Caches::FALLBACK),
            (src_there, src_back),
            "{name}"
        );
    }
}

/// Transposes between packed tilings: the pairs (quads) of rows become
/// pairs (quads) of columns, gathered as tile transposes of `2 × 2`
/// (`4 × 4`) blocks, each moved whole (streamed out of the stage, or
/// not); every SIMD level.
#[test]
fn packed_tile_transposes_match_the_definition() {
    // the first two by the AVX2 unit transposes where the CPU has AVX2
    // (4 × 4 units of 8 bytes, 2 × 2 of 16: the AVX-512 blocks need 8
    // (4) units to a tile row); the next two by the AVX-512 blocks where
    // the CPU has AVX-512 (a tile row of 8 units of 8 bytes, of 4 of 16),
    // the AVX2 ones at the AVX2 level; the last two slot by slot (their
    // unit loops do not make register blocks). Under Miri the first two
    // only (no shims for the AVX-512 intrinsics, and each case takes a
    // minute interpreted).
    let cases = [
        ("bf16", [8, 32], "T(8,8)(2,1)", 16),
        ("s8", [8, 32], "T(8,8)(4,1)", 8),
        ("bf16", [16, 64], "T(8,16)(2,1)", 16),
        ("s8", [16, 64], "T(8,16)(4,1)", 8),
        ("bf16", [16, 32], "T(4,8)(2,1)", 16),
        ("s8", [16, 32], "T(4,8)(4,1)", 8),
    ];
    for (ty, dims, attrs, bits) in cases.into_iter().take(if cfg!(miri) { 2 } else { 6 }) {
        let a = ArrayLayout::from(shape(ty, &dims, &[1, 0], attrs));
        let b = ArrayLayout::from(shape(ty, &dims, &[0, 1], attrs));
        assert_eq!(
            check(a, b, bits, Some(true)),
            Kernel::Gather,
            "{ty} {attrs}"
        );
        assert_eq!(
            check(b, a, bits, Some(false)),
            Kernel::Gather,
            "{ty} {attrs}"
        );
    }
}

/// Packed transposes whose dims are not whole tiles (padding in the
/// last tiles, odd unit counts): whatever kernel the plan picks, every
/// element lands where the layouts say and the padding is filled, at
/// every SIMD level.
#[test]
fn uneven_packed_tile_transposes_match_the_definition() {
    let cases = [
        ("bf16", [6, 20], "T(4,8)(2,1)", 16),
        ("bf16", [20, 72], "T(8,16)(2,1)", 16),
        ("bf16", [16, 40], "T(8,8)(2,1)", 16),
        ("s8", [12, 36], "T(8,16)(4,1)", 8),
        ("s8", [16, 48], "T(8,8)(4,1)", 8),
    ];
    // (under Miri the smallest only: a minute a case interpreted)
    for (ty, dims, attrs, bits) in cases.into_iter().take(if cfg!(miri) { 1 } else { 5 }) {
        let a = ArrayLayout::from(shape(ty, &dims, &[1, 0], attrs));
        let b = ArrayLayout::from(shape(ty, &dims, &[0, 1], attrs));
        for nt in [Some(true), Some(false)] {
            check(a, b, bits, nt);
            check(b, a, bits, nt);
        }
    }
}

/// The plan `ty[dims]{1,0:tile}` → `{0,1:tile}` (a gather) streamed at
/// every level writes what the portable level writes without streaming
/// (into a destination filled with `fill` beforehand).
fn streamed_transpose_agrees_across_levels<U: Unit + PartialEq>(
    ty: &str,
    dims: [u64; 2],
    tile: &str,
    val: impl Fn(usize) -> U,
    fill: U,
) {
    let a = shape(ty, &dims, &[1, 0], tile);
    let b = shape(ty, &dims, &[0, 1], tile);
    let plan = RelayoutPlan::new(a, b).unwrap();
    assert_eq!(plan.stats().kernel, Kernel::Gather);
    let z = size_of::<U>();
    let src: Vec<U> = (0..plan.src_units(z) as usize).map(&val).collect();
    let mut want = vec![val(0); plan.dst_units(z) as usize];
    plan.clone()
        .with_simd(Some(Simd::Portable))
        .with_streaming(Some(false))
        .execute(&src, &mut want)
        .unwrap();
    for level in Simd::ALL {
        let mut got = vec![fill; want.len()];
        plan.clone()
            .with_simd(Some(level))
            .with_streaming(Some(true))
            .execute(&src, &mut got)
            .unwrap();
        assert!(got == want, "{level:?}");
    }
}

/// Streaming tile transposes whose chunks are whole destination tiles (4
/// KiB): below AVX-512 the AVX2 level gathers each block in panels while
/// the previous block's stage is copied out (four blocks of four chunks
/// here: three copied out during the next one's gather, the last at the
/// end; 52 s under Miri).
#[test]
fn overlapped_tile_transposes_agree_across_levels() {
    streamed_transpose_agrees_across_levels("f32", [128, 128], "T(16,64)", |i| i as f32, -1.0);
}

/// The same for transposes between packed tilings (bf16 pairs of rows):
/// below AVX-512 the AVX2 level's unit transposes gather each block while
/// the previous one's stage is copied out (four blocks of 32 chunks of
/// 256 bytes, copied out 16 at a time).
#[test]
fn overlapped_packed_transposes_agree_across_levels() {
    let val = |i: usize| (i as u16).wrapping_mul(40503);
    streamed_transpose_agrees_across_levels("bf16", [64, 256], "T(8,64)(2,1)", val, 1);
}

/// Tile transposes go through the gather kernel and its 8 × 8 transposes.
#[test]
fn tile_transpose_matches_the_definition() {
    let a = ArrayLayout::from(shape("f32", &[16, 32], &[1, 0], "T(8,16)"));
    let b = ArrayLayout::from(shape("f32", &[16, 32], &[0, 1], "T(8,16)"));
    assert_eq!(check(a, b, 32, Some(true)), Kernel::Gather);
    assert_eq!(check(b, a, 32, Some(false)), Kernel::Gather);
}

/// The zip kernels stream directly (AVX2) into 16-byte aligned blocks;
/// unzips into rows that start inside a line (as a `Vec`'s do) join the
/// blocks of a row and store a head first; where the rows continue each
/// other (these arrays' rows), the line two rows meet in is streamed whole
/// from both rows' pieces (16-byte stores, and 8-byte ones where a piece
/// is 8 bytes off 16: s8 8 and 40 bytes into a line). Destinations on a
/// 64-byte line, one slot off it, and 8, 16, 32, 40 and 48 bytes into it;
/// the result must be the non-streaming plan's, and the round trip the
/// source.
#[test]
fn zip_streaming_into_aligned_and_unaligned_destinations() {
    for (ty, dims, attrs, bits) in [
        ("bf16", [8u64, 256], "T(4,64)(2,1)", 16u32),
        ("s8", [16, 256], "T(8,64)(4,1)", 8),
    ] {
        let t = shape(ty, &dims, &[1, 0], attrs);
        let rows = strided(&dims, bits)[0];
        let ub = bits as usize / 8;
        let plans = |nt| {
            (
                RelayoutPlan::new(rows, t).unwrap().with_streaming(Some(nt)),
                RelayoutPlan::new(t, rows).unwrap().with_streaming(Some(nt)),
            )
        };
        let ((there, back), (there_plain, back_plain)) = (plans(true), plans(false));
        let n = (dims[0] * dims[1]) as usize * ub;
        // u64 storage keeps the 16-bit casts aligned
        let words: Vec<u64> = (0..n.div_ceil(8) as u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        let src = &bytemuck::cast_slice::<u64, u8>(&words)[..n];
        let run = |plan: &RelayoutPlan, from: &[u8], to: &mut [u8]| {
            if bits == 16 {
                plan.execute::<u16>(bytemuck::cast_slice(from), bytemuck::cast_slice_mut(to))
                    .unwrap();
            } else {
                plan.execute::<u8>(from, to).unwrap();
            }
        };
        // (u64 storage again: a `Vec<u8>` need not be 2-byte aligned, and
        // under Miri it often is not)
        let mut want_words = vec![0u64; n.div_ceil(8)];
        let want = &mut bytemuck::cast_slice_mut::<u64, u8>(&mut want_words)[..n];
        run(&there_plain, src, want);
        let mut buf = vec![0u8; 2 * n + 128];
        let mut again = vec![0u8; n + 128];
        for shift in [0, ub, 8, 16, 32, 40, 48] {
            let at = buf.as_ptr().align_offset(64) + shift;
            let ag = again.as_ptr().align_offset(64) + shift;
            let (mid, out) = (&mut buf[at..at + n], &mut again[ag..ag + n]);
            run(&there, src, mid);
            assert_eq!(&mid[..], &want[..], "{ty} shift {shift}");
            run(&back, mid, out);
            assert_eq!(&out[..], src, "{ty} shift {shift}");
            out.fill(0);
            run(&back_plain, mid, out);
            assert_eq!(&out[..], src, "{ty} shift {shift}");
        }
    }
}

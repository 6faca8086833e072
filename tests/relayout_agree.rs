//! Agreement with the element-wise definition (`Tiling::offset` of every
//! coordinate) on all small layouts: exhaustive over a family of shapes,
//! tilings, `minor_to_major` orders and storage widths, in every direction
//! (strided → tiled, tiled → strided, tiled → tiled).

mod relayout_common;
use relayout_common::{check, perms, shape, strided};
use tilelayout::storage::{ArrayLayout, Kernel};

// Under Miri (interpreted, the suite must run in a few minutes) a sample
// of the family: one shape in both orders with three tilings (planning
// dominates interpreted: ~1 s a plan on a loaded machine), the rank-3
// larger array, one streaming shape, and not the kernel-choice test
// (its arrays of 2^16 elements take the gather kernel; the kernels' unsafe
// code runs under Miri in relayout_miri). Natively, everything.
#[cfg(miri)]
const TILES: &[&str] = &["T(2,2)", "T(4,2)(2,1)", "T(*,2)L(5)"];
#[cfg(miri)]
const DIMS: &[&[u64]] = &[&[3, 5]];
/// The larger arrays taken (under Miri: `[7,5,5]`, the rank-3 one) and
/// the streaming shapes taken.
const LARGER_ARRAYS: (usize, usize) = if cfg!(miri) { (1, 1) } else { (0, usize::MAX) };
const STREAMING_SHAPES: usize = if cfg!(miri) { 1 } else { 2 };
const MIN_F32_PAIRS: usize = if cfg!(miri) { 70 } else { 10_000 };

/// Tilings for rank ≤ 3: none, one level, two levels (the bf16/s8
/// packings), uneven splits, combined dims, tiles longer than the rank.
#[cfg(not(miri))]
const TILES: &[&str] = &[
    "",
    "T(2)",
    "T(4)",
    "T(2,2)",
    "T(2,4)",
    "T(4,2)(2,1)",
    "T(4,4)(4,1)",
    "T(3,2)",
    "T(2,4)(2,1)",
    "T(4)(2)",
    "T(2,2)(1,2)",
    "T(8,2)(4,1)",
    "T(*,2)",
    "T(3)(2)",
    "T(1,2)",
    "T(2,1,2)",
    "T(2,2)L(5)",
];

#[cfg(not(miri))]
const DIMS: &[&[u64]] = &[
    &[5],
    &[4],
    &[3, 5],
    &[4, 4],
    &[2, 8],
    &[1, 3],
    &[2, 3, 4],
    &[3, 1, 2],
];

fn tiled(ty: &str, dims: &[u64], e: &str) -> Vec<ArrayLayout> {
    let mut out = Vec::new();
    for m in perms(dims.len()) {
        for t in TILES {
            let attrs = format!("{t}{e}");
            out.push(shape(ty, dims, &m, &attrs).into());
        }
    }
    out
}

fn family(ty: &str, bits: u32, e: &str, tiled_pairs: bool) -> usize {
    let mut n = 0;
    for dims in DIMS {
        let ts = tiled(ty, dims, e);
        let ss: Vec<ArrayLayout> = strided(dims, bits).into_iter().map(Into::into).collect();
        for t in &ts {
            for s in &ss {
                check(*s, *t, bits, None);
                check(*t, *s, bits, None);
                n += 2;
            }
            if tiled_pairs {
                for u in &ts {
                    check(*t, *u, bits, None);
                    n += 1;
                }
            }
        }
    }
    n
}

#[test]
fn f32_every_pair_agrees_with_offsets() {
    assert!(family("f32", 32, "", true) > MIN_F32_PAIRS);
}

#[test]
fn one_two_eight_byte_elements_agree_with_offsets() {
    family("s8", 8, "", false);
    family("bf16", 16, "", false);
    family("f64", 64, "", false);
}

#[test]
fn packed_sub_byte_elements_agree_with_offsets() {
    family("s4", 4, "E(4)", true);
    family("u2", 2, "E(2)", false);
    family("pred", 1, "E(1)", false);
}

#[test]
fn streaming_stores_agree_with_offsets() {
    for dims in [&[16u64, 48][..], &[24, 40]]
        .into_iter()
        .take(STREAMING_SHAPES)
    {
        let rows = strided(dims, 32)[0];
        for attrs in ["T(8,16)", "T(8,32)", "T(2,16)", ""] {
            let t = shape("f32", dims, &[1, 0], attrs);
            check(rows.into(), t.into(), 32, Some(true));
            check(t.into(), rows.into(), 32, Some(true));
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "arrays of 2^16 elements; see the top of the file")]
fn kernels_are_the_expected_ones() {
    let k = |src: ArrayLayout, dst: ArrayLayout, bits| check(src, dst, bits, None);
    // tile transposes stage blocks in an allocated buffer; without `alloc`
    // they run as 2-D blocks
    let gather = if cfg!(feature = "alloc") {
        Kernel::Gather
    } else {
        Kernel::Block
    };
    let rows = |d: &[u64], bits| ArrayLayout::from(strided(d, bits)[0]);
    let cols = |d: &[u64], bits| ArrayLayout::from(strided(d, bits)[1]);
    let t = |ty, d: &[u64], m: &[usize], a| ArrayLayout::from(shape(ty, d, m, a));
    assert_eq!(
        k(
            rows(&[16, 256], 32),
            t("f32", &[16, 256], &[1, 0], "T(8,128)"),
            32
        ),
        Kernel::Runs
    );
    assert_eq!(
        k(
            t("f32", &[16, 256], &[1, 0], "T(8,128)"),
            rows(&[16, 256], 32),
            32
        ),
        Kernel::Runs
    );
    assert_eq!(
        k(
            rows(&[16, 256], 16),
            t("bf16", &[16, 256], &[1, 0], "T(8,128)(2,1)"),
            16
        ),
        Kernel::Interleave(2)
    );
    assert_eq!(
        k(
            t("bf16", &[16, 256], &[1, 0], "T(8,128)(2,1)"),
            rows(&[16, 256], 16),
            16
        ),
        Kernel::Deinterleave(2)
    );
    assert_eq!(
        k(
            rows(&[16, 256], 8),
            t("s8", &[16, 256], &[1, 0], "T(8,128)(4,1)"),
            8
        ),
        Kernel::Interleave(4)
    );
    assert_eq!(
        k(
            t("f32", &[16, 256], &[1, 0], "T(8,128)"),
            t("f32", &[16, 256], &[0, 1], "T(8,128)"),
            32
        ),
        Kernel::Block
    );
    assert_eq!(
        k(
            t("f32", &[256, 256], &[1, 0], "T(8,128)"),
            t("f32", &[256, 256], &[0, 1], "T(8,128)"),
            32
        ),
        gather
    );
    assert_eq!(
        k(
            cols(&[128, 256], 32),
            t("f32", &[128, 256], &[1, 0], "T(8,128)"),
            32
        ),
        gather
    );
    assert_eq!(
        k(
            t("f32", &[128, 256], &[1, 0], "T(8,128)"),
            cols(&[128, 256], 32),
            32
        ),
        gather
    );
    assert_eq!(
        k(
            rows(&[10, 300], 32),
            t("f32", &[10, 300], &[1, 0], "T(8,128)"),
            32
        ),
        Kernel::Runs
    );
    // a `*` group whose cut meets again in memory is affine: rows (5a + b,
    // padded to 16); one cut with a digit of another dim between its
    // parts is not, but it is affine in the combined coordinate, which
    // row-major storage shares (not column-major storage)
    assert_eq!(
        k(rows(&[3, 5], 32), t("f32", &[3, 5], &[1, 0], "T(*,2)"), 32),
        Kernel::Runs
    );
    let star = t("f32", &[2, 3, 5], &[2, 1, 0], "T(2,*,4)");
    assert_eq!(k(rows(&[2, 3, 5], 32), star, 32), Kernel::Runs);
    assert_eq!(k(cols(&[2, 3, 5], 32), star, 32), Kernel::Elementwise);
}

/// Blocks longer than the cache block are split evenly (or kept whole);
/// larger arrays with padding in every direction.
#[test]
fn larger_arrays_with_split_blocks_agree_with_offsets() {
    let cases: &[(&[u64], &str)] = &[
        (&[35, 33], "T(8,8)"),
        (&[7, 5, 5], "T(2)"),
        (&[70, 40], "T(8,16)"),
        (&[40, 130], "T(8,128)"),
        (&[64, 96], "T(8,32)(2,1)"),
        (&[37, 41], ""),
    ];
    for &(dims, attrs) in cases.iter().skip(LARGER_ARRAYS.0).take(LARGER_ARRAYS.1) {
        for (ty, bits, e) in [("f32", 32, ""), ("s4", 4, "E(4)")] {
            let rows = ArrayLayout::from(strided(dims, bits)[0]);
            let cols = ArrayLayout::from(strided(dims, bits)[1]);
            for m in perms(dims.len()) {
                let t = ArrayLayout::from(shape(ty, dims, &m, &format!("{attrs}{e}")));
                for s in [rows, cols] {
                    check(s, t, bits, None);
                    check(t, s, bits, None);
                }
            }
        }
    }
}

/// Rows ↔ packed tiles as wide as the SIMD zips' and unzips' steps
/// (bf16 pairs and s8 quads of rows, 128 columns a tile; s4 eighths), on
/// the host's kernels: the block loops with plain stores, the streaming
/// ones, and dims that are not multiples of the tiles (padding, edges).
/// (The families above use tiles narrower than one AVX2 step.)
#[test]
#[cfg_attr(miri, ignore = "arrays of 2^13 elements and more")]
fn rows_and_full_width_packed_tiles_agree_with_offsets() {
    let cases: &[(&str, u32, &str)] = &[
        ("bf16", 16, "T(8,128)(2,1)"),
        ("s8", 8, "T(8,128)(4,1)"),
        ("s4", 4, "T(8,128)(8,1)E(4)"),
    ];
    for &(ty, bits, attrs) in cases {
        for dims in [&[16u64, 512][..], &[24, 300], &[3, 40, 260]] {
            let rows = ArrayLayout::from(strided(dims, bits)[0]);
            let m: Vec<usize> = (0..dims.len()).rev().collect();
            let t = ArrayLayout::from(shape(ty, dims, &m, attrs));
            for nt in [None, Some(false), Some(true)] {
                check(rows, t, bits, nt);
                check(t, rows, bits, nt);
            }
        }
    }
}

/// Tile transposes of larger arrays, gathered in blocks of several
/// chunks (in source order): both directions, column-major sources and
/// destinations, dims that are not multiples of the tiles (padding),
/// streaming on and off.
#[test]
#[cfg_attr(miri, ignore = "arrays of 2^13 elements and more")]
fn larger_tile_transposes_agree_with_offsets() {
    let cases: &[(&[u64], &str)] = &[
        (&[64, 128], "T(16,64)"),
        (&[64, 96], "T(16,64)"),
        (&[50, 140], "T(16,64)"),
        (&[256, 256], "T(8,128)"),
        (&[136, 264], "T(8,128)"),
        (&[96, 96], "T(32,32)"),
    ];
    for &(dims, attrs) in cases {
        let a = ArrayLayout::from(shape("f32", dims, &[1, 0], attrs));
        let b = ArrayLayout::from(shape("f32", dims, &[0, 1], attrs));
        let cols = ArrayLayout::from(strided(dims, 32)[1]);
        for nt in [None, Some(true)] {
            for (s, d) in [(a, b), (b, a), (cols, a), (a, cols), (cols, b), (b, cols)] {
                check(s, d, 32, nt);
            }
        }
    }
}

/// Transposes between packed tilings of larger arrays (bf16 pairs, s8
/// quads of rows), gathered in blocks of several chunks: streaming, the
/// AVX-512 level writes the blocks whose shapes allow straight into the
/// destination (whole source lines of 8 or 4 rows a step: the bf16 and
/// s8 cases here reach it; s8 arrays of 512 × 512 and less do not, their
/// blocks having a loop around the rows); both directions, dims that are
/// not multiples of the tiles (padding), streaming on and off.
#[test]
#[cfg_attr(miri, ignore = "arrays of 2^15 elements and more")]
fn larger_packed_tile_transposes_agree_with_offsets() {
    let cases: &[(&str, &[u64], &str, u32)] = &[
        ("bf16", &[256, 256], "T(8,128)(2,1)", 16),
        ("bf16", &[136, 264], "T(8,128)(2,1)", 16),
        ("bf16", &[64, 512], "T(8,64)(2,1)", 16),
        ("s8", &[1024, 512], "T(8,128)(4,1)", 8),
        ("s8", &[1032, 520], "T(8,128)(4,1)", 8),
        ("s8", &[512, 1024], "T(8,64)(4,1)", 8),
        // destination tile rows of two tiles (the gather's stage chunks
        // hold both, its source rows in two runs)
        ("s8", &[256, 512], "T(8,128)(4,1)", 8),
        ("bf16", &[256, 1024], "T(8,128)(2,1)", 16),
    ];
    for &(ty, dims, attrs, bits) in cases {
        let a = ArrayLayout::from(shape(ty, dims, &[1, 0], attrs));
        let b = ArrayLayout::from(shape(ty, dims, &[0, 1], attrs));
        for nt in [None, Some(true)] {
            check(a, b, bits, nt);
            check(b, a, bits, nt);
        }
    }
}

/// Tiles into column-major storage: a column runs through more tiles
/// than a gather chunk holds, so the loop over them is split for the
/// chunk (before, such plans ran as 2-D blocks: f32[4096,4096]
/// `{1,0:T(8,128)}` → column-major at 0.11x of memcpy); counts with odd
/// divisors, padding, both tile orders.
#[test]
#[cfg_attr(
    miri,
    ignore = "arrays of 2^15 elements; their blocks run the kernels relayout_miri covers"
)]
fn column_major_destinations_gather() {
    let gather = if cfg!(feature = "alloc") {
        Kernel::Gather
    } else {
        Kernel::Block
    };
    let cases: &[(&[u64], &str, bool)] = &[
        (&[2048, 256], "T(8,128)", true),
        (&[1040, 256], "T(8,128)", true),
        (&[1040, 200], "T(8,128)", false),
        (&[2056, 40], "T(8,8)", false),
        (&[1040, 32], "T(8,16)", true),
    ];
    for &(dims, attrs, gathers) in cases {
        let cols = ArrayLayout::from(strided(dims, 32)[1]);
        for m in [[1, 0], [0, 1]] {
            let t = ArrayLayout::from(shape("f32", dims, &m, attrs));
            for nt in [None, Some(true)] {
                let k = check(t, cols, 32, nt);
                if gathers && m == [1, 0] {
                    assert_eq!(k, gather, "{dims:?} {attrs}");
                }
                check(cols, t, 32, nt);
            }
        }
    }
}

/// 128-bit slots (`c128`) move as `[u8; 16]` units.
#[test]
fn sixteen_byte_units_move_whole() {
    let t = shape("c128", &[3, 5], &[1, 0], "T(2,2)");
    let rows = strided(&[3, 5], 128)[0];
    let plan = tilelayout::storage::RelayoutPlan::new(rows, t).unwrap();
    let src: Vec<[u8; 16]> = (0..15u8).map(|i| [i; 16]).collect();
    let mut dst = vec![[0xFFu8; 16]; 24];
    plan.execute(&src, &mut dst).unwrap();
    let tiling = t.tiling().unwrap();
    for i in 0..3 {
        for j in 0..5 {
            assert_eq!(
                dst[tiling.offset(&[i, j]).unwrap() as usize],
                [(i * 5 + j) as u8; 16]
            );
        }
    }
    assert_eq!(dst[9], [0u8; 16], "padding is zero bits");
}

/// Tile transposes (`{1,0:tile}` → `{0,1:tile}`, tiles ↔ column-major)
/// at the detected SIMD level, streamed and not, with the destination at
/// every slot offset in a 64-byte line, and the source at two: the
/// AVX-512 level writes these straight into the destination, its line
/// writer one body per offset (f32 slots, and bf16 / s8 tilings whose 8- and
/// 16-byte units it writes in 32-bit slots); each must write what the
/// portable level writes without streaming, and nothing around it.
#[test]
#[cfg_attr(miri, ignore = "the AVX-512 kernels are native only")]
fn streamed_tile_transposes_agree_at_every_destination_offset() {
    use tilelayout::storage::{RelayoutPlan, Simd, Unit};
    fn at_every_offset<U: Unit + PartialEq + core::fmt::Debug>(
        a: ArrayLayout,
        b: ArrayLayout,
        val: impl Fn(usize) -> U,
        fill: U,
    ) {
        let plan = RelayoutPlan::new(a, b).unwrap();
        // (without `alloc` other kernels: no stage, no direct kernels)
        if cfg!(feature = "alloc") {
            assert_eq!(plan.stats().kernel, Kernel::Gather);
        }
        let z = size_of::<U>();
        let (sn, dn) = (plan.src_units(z) as usize, plan.dst_units(z) as usize);
        let line = 64 / z;
        let src: Vec<U> = (0..sn + line).map(&val).collect();
        for so in [0, line / 2 + 1] {
            let mut want = vec![fill; dn];
            plan.clone()
                .with_simd(Some(Simd::Portable))
                .with_streaming(Some(false))
                .execute(&src[so..so + sn], &mut want)
                .unwrap();
            let mut buf = vec![fill; dn + 2 * line];
            let base = buf.as_ptr().align_offset(64).min(line);
            for (off, nt) in (0..line).flat_map(|o| [(o, true), (o, false)]) {
                buf.fill(fill);
                let d = base + off;
                plan.clone()
                    .with_simd(Some(Simd::detected()))
                    .with_streaming(Some(nt))
                    .execute(&src[so..so + sn], &mut buf[d..d + dn])
                    .unwrap();
                let case = format!("{a:?} -> {b:?}: source +{so}, destination +{off}, nt {nt}");
                assert!(buf[d..d + dn] == want[..], "{case}");
                assert!(
                    buf[..d].iter().chain(&buf[d + dn..]).all(|x| *x == fill),
                    "{case}: written outside"
                );
            }
        }
    }
    let t = |ty, dims: &[u64], m: &[usize], tile| ArrayLayout::from(shape(ty, dims, m, tile));
    let f32s = |i: usize| i as f32;
    let f32t = t("f32", &[1024, 256], &[1, 0], "T(8,128)");
    at_every_offset(
        f32t,
        t("f32", &[1024, 256], &[0, 1], "T(8,128)"),
        f32s,
        -1.0,
    );
    let cols = ArrayLayout::from(strided(&[1024, 256], 32)[1]);
    at_every_offset(f32t, cols, f32s, -1.0);
    at_every_offset(cols, f32t, f32s, -1.0);
    let v16 = |i: usize| (i as u16).wrapping_mul(40503);
    let (a, b) = (&[1, 0][..], &[0, 1][..]);
    let bf16 = |m| t("bf16", &[512, 512], m, "T(8,128)(2,1)");
    at_every_offset(bf16(a), bf16(b), v16, 1);
    let v8 = |i: usize| (i as u8).wrapping_mul(151);
    let s8 = |m| t("s8", &[512, 512], m, "T(8,128)(4,1)");
    at_every_offset(s8(a), s8(b), v8, 7);
}

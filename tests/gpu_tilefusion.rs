//! The copy plans, `ldmatrix` addresses and register fragments against what
//! TileFusion's own loaders and storers compute, lane by lane and step by
//! step, in every configuration of TileFusion's unit tests
//! (`tests/gpu_data/tilefusion.txt`), and the base tiles against CuTe's
//! `SM80_16x8x16` MMA layouts (`tests/gpu_data/cute.txt`). Under Miri
//! (interpreted), the checks against CuTe's maps and the base tiles' own
//! (at the lanes of `gpu_common::lanes`); TileFusion's 450 KB of maps take
//! minutes to read interpreted, so those run natively (under
//! `cargo miri test -- --ignored` they check 8 lines a section,
//! `gpu_common::sample`).

mod gpu_common;

use gpu_common::vectors::{numbers, sections, Section, CUTE, TILEFUSION};
use gpu_common::{lanes, sample};
use half::f16;
use tilelayout::gpu::{
    const_offset, AccTileColMajor, AccTileRowMajor, BaseTile, BaseTileColMajor, BaseTileRowMajor,
    Bytes128, Bytes64, ColMajor, ColReuseCont, Cont, CopyPlan, GlobalTile, Layout2, LdMatrix,
    RowMajor, RowReuseCont, SharedTile, SwizzledColMajor, SwizzledRowMajor, WarpReuse,
};

// ---------------------------------------------------------------------------
// global → shared
// ---------------------------------------------------------------------------

/// The section of TileFusion's loader for one configuration.
fn g2s_section(
    dtype: &str,
    bytes: usize,
    major: &str,
    w: (usize, usize),
    shape: (usize, usize),
) -> Section<'static> {
    sections(TILEFUSION, "g2s")
        .into_iter()
        .find(|s| {
            s.header[1] == dtype
                && s.num(2) == bytes
                && s.header[3] == major
                && (s.num(4), s.num(5)) == w
                && (s.num(6), s.num(7)) == shape
        })
        .unwrap_or_else(|| panic!("no g2s section {dtype} {bytes} {major} {w:?} {shape:?}"))
}

/// Checks the plans from a global tile `G` into the plain shared tile `P` and
/// the swizzled one `S` (warps `W`) against TileFusion's loader.
fn check_g2s<T, G, P, S, W>(dtype: &str, bytes: usize, major: &str)
where
    T: Copy + Default + 'static,
    G: Layout2,
    P: Layout2,
    S: Layout2,
    W: Layout2,
{
    type Plan<'a, T, G, D, W> = CopyPlan<GlobalTile<&'a [T], G>, SharedTile<&'a mut [T], D>, W>;
    let sec = g2s_section(dtype, bytes, major, (W::ROWS, W::COLS), (G::ROWS, G::COLS));
    let base = (sec.num(9), sec.num(10));
    assert_eq!(
        (Plan::<T, G, S, W>::BASE_ROWS, Plan::<T, G, S, W>::BASE_COLS),
        base,
        "WarpBaseTileShape"
    );
    assert_eq!(
        (Plan::<T, G, P, W>::BASE_ROWS, Plan::<T, G, P, W>::BASE_COLS),
        base
    );
    assert_eq!(sec.lines.len(), 32 * W::ROWS * W::COLS);
    for line in sample(&sec.lines, 8) {
        let n = numbers(line);
        let (warp, lane) = (n[0] as usize, n[1] as usize);
        let copies: Vec<&[i64]> = n[2..].chunks(3).collect();
        assert_eq!(
            copies.len(),
            Plan::<T, G, S, W>::STEPS,
            "steps of warp {warp} lane {lane}"
        );
        for (step, c) in copies.iter().enumerate() {
            let v = Plan::<T, G, S, W>::vector(warp, lane, step).expect("a vector");
            assert_eq!(Plan::<T, G, P, W>::vector(warp, lane, step), Some(v));
            let at = (warp, lane, step, v);
            assert_eq!(G::offset(v.row, v.col) as i64, c[0], "global offset {at:?}");
            assert_eq!(
                P::offset(v.row, v.col) as i64,
                c[1],
                "plain shared offset {at:?}"
            );
            assert_eq!(
                S::offset(v.row, v.col) as i64,
                c[2],
                "swizzled shared offset {at:?}"
            );
        }
        assert_eq!(Plan::<T, G, S, W>::vector(warp, lane, copies.len()), None);
    }
}

macro_rules! g2s {
    ($($(#[$a:meta])* $name:ident: $t:ty, $dtype:literal, $w:ty, $bytes:literal, row, $wr:literal x $wc:literal, $r:literal x $c:literal;)*) => {$(
        $(#[$a])*
        #[cfg_attr(miri, ignore = "TileFusion's maps: minutes to read interpreted")]
        #[test]
        fn $name() {
            check_g2s::<$t, RowMajor<$r, $c>, RowMajor<$r, $c>, SwizzledRowMajor<$t, $w, $r, $c>, RowMajor<$wr, $wc>>(
                $dtype, $bytes, "row",
            );
        }
    )*};
}

macro_rules! g2s_col {
    ($($(#[$a:meta])* $name:ident: $t:ty, $dtype:literal, $w:ty, $bytes:literal, col, $wr:literal x $wc:literal, $r:literal x $c:literal;)*) => {$(
        $(#[$a])*
        #[cfg_attr(miri, ignore = "TileFusion's maps: minutes to read interpreted")]
        #[test]
        fn $name() {
            check_g2s::<$t, ColMajor<$r, $c>, ColMajor<$r, $c>, SwizzledColMajor<$t, $w, $r, $c>, RowMajor<$wr, $wc>>(
                $dtype, $bytes, "col",
            );
        }
    )*};
}

// TileFusion's tests/cpp/cell/test_g2s_load.cu, row-major
g2s! {
    g2s_f16_128_1x1_16x64: f16, "f16", Bytes128, 128, row, 1 x 1, 16 x 64;
    g2s_f16_128_1x1_16x256: f16, "f16", Bytes128, 128, row, 1 x 1, 16 x 256;
    g2s_f16_128_2x1_64x64: f16, "f16", Bytes128, 128, row, 2 x 1, 64 x 64;
    g2s_f16_128_1x4_16x256: f16, "f16", Bytes128, 128, row, 1 x 4, 16 x 256;
    g2s_f16_128_4x1_64x64: f16, "f16", Bytes128, 128, row, 4 x 1, 64 x 64;
    g2s_f16_128_2x2_32x128: f16, "f16", Bytes128, 128, row, 2 x 2, 32 x 128;
    g2s_f16_128_2x4_32x256: f16, "f16", Bytes128, 128, row, 2 x 4, 32 x 256;
    g2s_f16_64_1x1_16x32: f16, "f16", Bytes64, 64, row, 1 x 1, 16 x 32;
    g2s_f16_64_1x1_32x32: f16, "f16", Bytes64, 64, row, 1 x 1, 32 x 32;
    g2s_f16_64_2x2_32x64: f16, "f16", Bytes64, 64, row, 2 x 2, 32 x 64;
    g2s_f32_128_1x1_8x32: f32, "f32", Bytes128, 128, row, 1 x 1, 8 x 32;
    g2s_f32_128_1x1_16x64: f32, "f32", Bytes128, 128, row, 1 x 1, 16 x 64;
    g2s_f32_128_1x4_16x128: f32, "f32", Bytes128, 128, row, 1 x 4, 16 x 128;
    g2s_f32_128_4x1_64x32: f32, "f32", Bytes128, 128, row, 4 x 1, 64 x 32;
    g2s_f32_128_2x2_32x64: f32, "f32", Bytes128, 128, row, 2 x 2, 32 x 64;
    g2s_f32_128_2x4_32x128: f32, "f32", Bytes128, 128, row, 2 x 4, 32 x 128;
    g2s_f32_64_1x1_8x16: f32, "f32", Bytes64, 64, row, 1 x 1, 8 x 16;
    g2s_f32_64_1x1_16x16: f32, "f32", Bytes64, 64, row, 1 x 1, 16 x 16;
    g2s_f32_64_2x2_16x32: f32, "f32", Bytes64, 64, row, 2 x 2, 16 x 32;
}

// … and column-major
g2s_col! {
    g2s_f16_128_col_1x1_64x16: f16, "f16", Bytes128, 128, col, 1 x 1, 64 x 16;
    g2s_f16_128_col_1x1_128x16: f16, "f16", Bytes128, 128, col, 1 x 1, 128 x 16;
    g2s_f16_128_col_1x4_64x128: f16, "f16", Bytes128, 128, col, 1 x 4, 64 x 128;
    g2s_f16_128_col_4x1_256x16: f16, "f16", Bytes128, 128, col, 4 x 1, 256 x 16;
    g2s_f16_128_col_2x2_128x32: f16, "f16", Bytes128, 128, col, 2 x 2, 128 x 32;
    g2s_f16_64_col_1x1_32x16: f16, "f16", Bytes64, 64, col, 1 x 1, 32 x 16;
    g2s_f16_64_col_1x1_32x32: f16, "f16", Bytes64, 64, col, 1 x 1, 32 x 32;
    g2s_f16_64_col_2x2_64x32: f16, "f16", Bytes64, 64, col, 2 x 2, 64 x 32;
    g2s_f32_128_col_1x1_32x16: f32, "f32", Bytes128, 128, col, 1 x 1, 32 x 16;
    g2s_f32_128_col_1x1_64x16: f32, "f32", Bytes128, 128, col, 1 x 1, 64 x 16;
    g2s_f32_128_col_1x4_64x64: f32, "f32", Bytes128, 128, col, 1 x 4, 64 x 64;
    g2s_f32_128_col_4x1_128x32: f32, "f32", Bytes128, 128, col, 4 x 1, 128 x 32;
    g2s_f32_128_col_2x2_64x64: f32, "f32", Bytes128, 128, col, 2 x 2, 64 x 64;
    g2s_f32_64_col_1x1_16x16: f32, "f32", Bytes64, 64, col, 1 x 1, 16 x 16;
    g2s_f32_64_col_1x1_16x32: f32, "f32", Bytes64, 64, col, 1 x 1, 16 x 32;
    g2s_f32_64_col_2x2_32x32: f32, "f32", Bytes64, 64, col, 2 x 2, 32 x 32;
}

#[cfg_attr(miri, ignore = "TileFusion's maps: minutes to read interpreted")]
#[test]
fn every_g2s_section_is_tested() {
    // 19 row-major and 16 column-major configurations above
    assert_eq!(sections(TILEFUSION, "g2s").len(), 35);
}

// ---------------------------------------------------------------------------
// shared → register (ldmatrix.x4)
// ---------------------------------------------------------------------------

/// Checks `LdMatrix<S, B, L, W, R>` against TileFusion's `SharedToRegLoader`.
fn check_s2r<S: Layout2, B: tilelayout::gpu::Operand, L: Layout2, W: Layout2, R: WarpReuse>(
    major: &str,
    bytes: usize,
    swizzled: &str,
    mode: &str,
) {
    type P<S, B, L, W, R> = LdMatrix<S, B, L, W, R>;
    let sec = sections(TILEFUSION, "s2r")
        .into_iter()
        .find(|s| {
            s.num(2) == bytes
                && s.header[3] == major
                && (s.num(4), s.num(5)) == (W::ROWS, W::COLS)
                && (s.num(6), s.num(7)) == (S::ROWS, S::COLS)
                && s.header[8] == swizzled
                && s.header[9] == mode
        })
        .expect("an s2r section");
    assert_eq!((sec.num(11), sec.num(12)), (L::ROWS, L::COLS));
    assert_eq!(sec.lines.len(), 32 * W::ROWS * W::COLS);
    for line in sample(&sec.lines, 8) {
        let n = numbers(line);
        let (warp, lane) = (n[0] as usize, n[1] as usize);
        let loads: Vec<&[i64]> = n[2..].chunks(3).collect();
        assert_eq!(loads.len(), P::<S, B, L, W, R>::ISSUES);
        for (k, l) in loads.iter().enumerate() {
            let (i, j) = P::<S, B, L, W, R>::issue(k);
            assert_eq!((i as i64, j as i64), (l[0], l[1]), "issue {k}");
            assert_eq!(
                P::<S, B, L, W, R>::address(warp, lane, i, j) as i64,
                l[2],
                "warp {warp} lane {lane} base tile ({i}, {j})"
            );
        }
    }
}

#[cfg_attr(miri, ignore = "TileFusion's maps: minutes to read interpreted")]
#[test]
fn ldmatrix_addresses() {
    type Sw<const R: usize, const C: usize> = SwizzledRowMajor<f16, Bytes128, R, C>;
    type SwC<const R: usize, const C: usize> = SwizzledColMajor<f16, Bytes128, R, C>;
    type Sw64<const R: usize, const C: usize> = SwizzledRowMajor<f16, Bytes64, R, C>;
    type SwC64<const R: usize, const C: usize> = SwizzledColMajor<f16, Bytes64, R, C>;
    type Rm = BaseTileRowMajor;
    type Cm = BaseTileColMajor;
    // TileFusion's tests/cpp/cell/test_s2r_copy.cu …
    check_s2r::<RowMajor<64, 64>, Rm, RowMajor<4, 4>, RowMajor<1, 1>, RowReuseCont>(
        "row", 128, "plain", "rowreuse",
    );
    check_s2r::<ColMajor<64, 32>, Cm, ColMajor<4, 2>, RowMajor<1, 1>, ColReuseCont>(
        "col", 128, "plain", "colreuse",
    );
    check_s2r::<Sw<16, 64>, Rm, RowMajor<1, 4>, RowMajor<1, 1>, RowReuseCont>(
        "row", 128, "swizzled", "rowreuse",
    );
    check_s2r::<RowMajor<64, 128>, Rm, RowMajor<4, 8>, RowMajor<1, 1>, Cont>(
        "row", 128, "plain", "cont",
    );
    // … and a GEMM's four warps sharing operands
    check_s2r::<RowMajor<64, 64>, Rm, RowMajor<2, 4>, RowMajor<2, 2>, RowReuseCont>(
        "row", 128, "plain", "rowreuse",
    );
    check_s2r::<Sw<64, 64>, Rm, RowMajor<2, 4>, RowMajor<2, 2>, RowReuseCont>(
        "row", 128, "swizzled", "rowreuse",
    );
    check_s2r::<ColMajor<64, 64>, Cm, ColMajor<4, 2>, RowMajor<2, 2>, ColReuseCont>(
        "col", 128, "plain", "colreuse",
    );
    check_s2r::<SwC<64, 64>, Cm, ColMajor<4, 2>, RowMajor<2, 2>, ColReuseCont>(
        "col", 128, "swizzled", "colreuse",
    );
    check_s2r::<Sw64<32, 64>, Rm, RowMajor<1, 2>, RowMajor<2, 2>, Cont>(
        "row", 64, "swizzled", "cont",
    );
    check_s2r::<SwC64<64, 32>, Cm, ColMajor<2, 1>, RowMajor<2, 2>, Cont>(
        "col", 64, "swizzled", "cont",
    );
    assert_eq!(sections(TILEFUSION, "s2r").len(), 10);
}

/// The hardware's side of `ldmatrix.x4`: lane `l` receives in register `q`
/// elements `2(l%4), 2(l%4)+1` of row `l/4` of matrix `q`, whose rows lanes
/// `8q..8q+8` address. With our row addresses, the registers come back in
/// the operand tiles' slot order (slots `2q, 2q+1`).
#[test]
fn ldmatrix_fills_the_operand_slots() {
    fn check<B: tilelayout::gpu::Operand>() {
        for lane in 0..32 {
            for q in 0..4 {
                let row_lane = 8 * q + lane / 4;
                let (r, c) = B::ldmatrix_row(row_lane);
                for e in 0..2 {
                    let k = 2 * (lane % 4) + e;
                    let elem = if B::COL_MAJOR { (r + k, c) } else { (r, c + k) };
                    assert_eq!(B::lane_slot(elem.0, elem.1), (lane, 2 * q + e));
                }
            }
        }
    }
    check::<BaseTileRowMajor>();
    check::<BaseTileColMajor>();
}

#[test]
fn ldmatrix_conflicts() {
    type Plain =
        LdMatrix<RowMajor<64, 64>, BaseTileRowMajor, RowMajor<2, 4>, RowMajor<2, 2>, RowReuseCont>;
    type Swz = LdMatrix<
        SwizzledRowMajor<f16, Bytes128, 64, 64>,
        BaseTileRowMajor,
        RowMajor<2, 4>,
        RowMajor<2, 2>,
        RowReuseCont,
    >;
    type Swz64 = LdMatrix<
        SwizzledRowMajor<f16, Bytes64, 32, 64>,
        BaseTileRowMajor,
        RowMajor<1, 2>,
        RowMajor<2, 2>,
        Cont,
    >;
    type ColPlain =
        LdMatrix<ColMajor<64, 64>, BaseTileColMajor, ColMajor<4, 2>, RowMajor<2, 2>, ColReuseCont>;
    type ColSwz = LdMatrix<
        SwizzledColMajor<f16, Bytes128, 64, 64>,
        BaseTileColMajor,
        ColMajor<4, 2>,
        RowMajor<2, 2>,
        ColReuseCont,
    >;
    // 128-byte rows: the 8 rows of a matrix share their banks
    assert_eq!(Plain::CONFLICTS, 8);
    assert_eq!(ColPlain::CONFLICTS, 8);
    assert_eq!(Swz::CONFLICTS, 1);
    assert_eq!(ColSwz::CONFLICTS, 1);
    // 64-byte swizzle on 128-byte rows: rows r and r + 4 collide
    assert_eq!(Swz64::CONFLICTS, 2);
}

// ---------------------------------------------------------------------------
// register fragments
// ---------------------------------------------------------------------------

/// TileFusion's global→register loads put element `(i, j)` of a `32 × 32`
/// tile (value = its offset) where the operand tiles say.
#[cfg_attr(miri, ignore = "TileFusion's maps: minutes to read interpreted")]
#[test]
fn global_to_register_is_the_operand_map() {
    fn check<B: BaseTile>(major: &str, offset: impl Fn(usize, usize) -> usize) {
        let sec = sections(TILEFUSION, "g2r")
            .into_iter()
            .find(|s| s.header[2] == major)
            .expect("g2r");
        for lane in lanes().into_iter().filter(|&l| l < 32) {
            let n = numbers(sec.lines[lane]);
            assert_eq!(n[0] as usize, lane);
            for t in n[1..].chunks(10) {
                let (bi, bj) = (t[0] as usize, t[1] as usize);
                for slot in 0..8 {
                    let (i, j) = B::element(lane, slot);
                    assert_eq!(
                        offset(16 * bi + i, 16 * bj + j) as i64,
                        t[2 + slot],
                        "lane {lane} tile ({bi}, {bj}) slot {slot}"
                    );
                    assert_eq!(B::lane_slot(i, j), (lane, slot));
                }
            }
        }
    }
    check::<BaseTileRowMajor>("row", |i, j| i * 32 + j);
    check::<BaseTileColMajor>("col", |i, j| i + j * 32);
}

/// TileFusion's register→shared store (a GEMM's result) puts `(lane, slot)`
/// where the accumulator tiles say, and not where the column-major operand
/// does.
#[cfg_attr(miri, ignore = "TileFusion's maps: minutes to read interpreted")]
#[test]
fn register_to_shared_is_the_accumulator_map() {
    fn check<B: BaseTile>(major: &str) -> usize {
        let sec = sections(TILEFUSION, "r2s")
            .into_iter()
            .find(|s| s.header[2] == major)
            .expect("r2s");
        let mut mismatches = 0;
        for (i, line) in sec.lines.iter().enumerate() {
            for (j, &code) in numbers(line).iter().enumerate() {
                let (bi, bj) = (i / 16, j / 16);
                // the driver numbered base tile (bi, bj) as bi·2 + bj
                let tile = bi * 2 + bj;
                let (lane, slot) = B::lane_slot(i % 16, j % 16);
                if ((tile * 32 + lane) * 8 + slot) as i64 != code {
                    mismatches += 1;
                }
            }
        }
        mismatches
    }
    assert_eq!(check::<AccTileRowMajor>("row"), 0);
    assert_eq!(check::<AccTileColMajor>("col"), 0);
    // the column-major operand order differs in half of its slots
    assert_eq!(check::<BaseTileColMajor>("col"), 32 * 32 / 2);
}

/// CuTe's `SM80_16x8x16_F32F16F16F32_TN` layouts: `A` is the row-major
/// operand tile; each `n8` half of the column-major operand tile is `B`
/// (slots 0, 1, 4, 5 and 2, 3, 6, 7); each `n8` half of the row-major
/// accumulator is `C` (slots 0–3 and 4–7).
#[test]
fn cute_mma_layouts() {
    let values = |name: &str| -> Vec<Vec<usize>> {
        let s = sections(CUTE, name).into_iter().next().expect(name);
        s.lines
            .iter()
            .map(|l| numbers(l).into_iter().map(|x| x as usize).collect())
            .collect()
    };
    let (a, b, c) = (
        values("mma_a_m16k16"),
        values("mma_b_n8k16"),
        values("mma_c_m16n8"),
    );
    for t in lanes().into_iter().filter(|&l| l < 32) {
        for (v, &idx) in a[t].iter().enumerate() {
            // A: m + 16k
            assert_eq!(
                BaseTileRowMajor::lane_slot(idx % 16, idx / 16),
                (t, v),
                "A t{t} v{v}"
            );
        }
        for half in 0..2 {
            for (v, &idx) in b[t].iter().enumerate() {
                // B: n + 8k, element (k, n) of the K × N operand
                let (n, k) = (idx % 8 + 8 * half, idx / 8);
                let slot = [0, 1, 4, 5][v] + 2 * half;
                assert_eq!(
                    BaseTileColMajor::lane_slot(k, n),
                    (t, slot),
                    "B t{t} v{v} half {half}"
                );
            }
            for (v, &idx) in c[t].iter().enumerate() {
                // C: m + 16n
                let (m, n) = (idx % 16, idx / 16 + 8 * half);
                assert_eq!(
                    AccTileRowMajor::lane_slot(m, n),
                    (t, v + 4 * half),
                    "C t{t} v{v} half {half}"
                );
            }
        }
    }
}

/// Each base tile is a bijection between the 256 elements and the
/// `(lane, slot)` pairs, and `element` inverts `lane_slot`.
#[test]
fn base_tiles_are_bijections() {
    fn check<B: BaseTile>() {
        let mut seen = [false; 256];
        for i in 0..16 {
            for j in 0..16 {
                let (lane, slot) = B::lane_slot(i, j);
                assert!(!seen[lane * 8 + slot]);
                seen[lane * 8 + slot] = true;
                assert_eq!(B::element(lane, slot), (i, j));
                assert_eq!(B::offset(i, j), lane * 8 + slot);
                assert_eq!(const_offset::<B>(i, j), lane * 8 + slot);
            }
        }
    }
    check::<BaseTileRowMajor>();
    check::<BaseTileColMajor>();
    check::<AccTileRowMajor>();
    check::<AccTileColMajor>();
}

//! The swizzled shared tiles against what TileFusion's own
//! `SharedTile::fetch_physical_offset` computes (f32/f16/bf16, 128- and
//! 64-byte swizzles, row- and column-major; `tests/gpu_data/tilefusion.txt`),
//! against CuTe's `composition(Swizzle<B, M, log2(stride) − M>, layout)`
//! (with our `Swizzle`, itself checked against CuTe's vectors in
//! `gpu_swizzle.rs`), and against TileFusion's `TileLayout` + swizzled
//! `NonSwizzled` decomposition; every element of every tile. Under Miri
//! (interpreted), a sample: the cases not marked natively-only, at
//! `gpu_common::coords`, against CuTe's composition and TileFusion's
//! decomposition only (TileFusion's 450 KB of maps take minutes to read
//! interpreted).

mod gpu_common;

use gpu_common::vectors::{numbers, sections, TILEFUSION};
use gpu_common::{check_against, check_bijection, check_layout, coords};
use half::{bf16, f16};
use tilelayout::algebra::{CuteLayout, Int, IntTuple};
use tilelayout::gpu::{
    vector_run, Bytes128, Bytes64, ColMajor, Layout2, RowMajor, Shape2, SharedTile, Swizzle,
    SwizzleAtom, SwizzleFn, Swizzled, SwizzledColMajor, SwizzledRowMajor,
};

/// TileFusion's map for `(dtype, bytes, major, rows, cols)`.
fn tilefusion_map(dtype: &str, bytes: usize, major: &str, r: usize, c: usize) -> Vec<Vec<usize>> {
    let s = sections(TILEFUSION, "shared")
        .into_iter()
        .find(|s| {
            s.header[1] == dtype
                && s.num(2) == bytes
                && s.header[3] == major
                && s.num(4) == r
                && s.num(5) == c
        })
        .expect("a TileFusion shared-tile section");
    let rows: Vec<Vec<usize>> = s
        .lines
        .iter()
        .map(|l| numbers(l).into_iter().map(|x| x as usize).collect())
        .collect();
    assert_eq!(rows.len(), r);
    assert!(rows.iter().all(|row| row.len() == c));
    rows
}

/// Checks layout `L` against TileFusion's map `dtype` (`bf16` uses the `f16`
/// vectors: the driver checked TileFusion computes the same for both).
#[track_caller]
fn check_tilefusion<L: Layout2>(dtype: &str, bytes: usize, major: &str) {
    if !cfg!(miri) {
        // (reading TileFusion's 450 KB of maps takes minutes interpreted)
        let map = tilefusion_map(dtype, bytes, major, L::ROWS, L::COLS);
        check_against::<L>(|i, j| map[i][j]);
    }
    check_layout::<L>();
    check_bijection::<L>();
}

/// The core's evaluation of a rank-2 layout at `(i, j)`.
fn at(l: &CuteLayout, i: usize, j: usize) -> usize {
    let c = IntTuple::tuple(&[
        IntTuple::int(Int::dynamic(i as i64)),
        IntTuple::int(Int::dynamic(j as i64)),
    ])
    .unwrap();
    l.crd2idx(&c).unwrap().value as usize
}

/// TileFusion's decomposition: `TILES(i / bl, j / bw) + swizzle(IN_TILE(i % bl, j % bw))`
/// for a row-major tile, with the in-block swizzle applied to the chunk index.
fn decomposed(
    tiles: &'static CuteLayout,
    in_tile: &'static CuteLayout,
    b: u32,
    m: u32,
    col_major: bool,
) -> impl Fn(usize, usize) -> usize {
    move |i, j| {
        let (line, along) = if col_major { (j, i) } else { (i, j) };
        let (bl, bw) = (1usize << b, 1usize << (m + b));
        let block = if col_major {
            at(tiles, along / bw, line / bl)
        } else {
            at(tiles, line / bl, along / bw)
        };
        let (x, y) = (line % bl, along % bw);
        // TileFusion's `Swizzle<B, M, S>` on the in-block index x·2^(M+S) + y
        let chunk = (y >> m) ^ x;
        let y = (chunk << m) | (y & ((1 << m) - 1));
        block
            + if col_major {
                at(in_tile, y, x)
            } else {
                at(in_tile, x, y)
            }
    }
}

macro_rules! tiles {
    ($($(#[$m:meta])* $name:ident: $t:ty, $w:ty, $dtype:literal, $bytes:literal, $r:literal x $c:literal, cute shift $s:literal;)*) => {$(
        $(#[$m])*
        #[test]
        fn $name() {
            type Row = SwizzledRowMajor<$t, $w, $r, $c>;
            type Col = SwizzledColMajor<$t, $w, $c, $r>;
            check_tilefusion::<Row>($dtype, $bytes, "row");
            check_tilefusion::<Col>($dtype, $bytes, "col");
            // CuTe: the swizzle on the strided offsets
            type Sw = <$t as SwizzleAtom<$w>>::Swizzle;
            type CuteRow = Swizzled<RowMajor<$r, $c>, Swizzle<{ Sw::BITS }, { Sw::BASE }, $s>>;
            type CuteCol = Swizzled<ColMajor<$c, $r>, Swizzle<{ Sw::BITS }, { Sw::BASE }, $s>>;
            check_against::<Row>(CuteRow::offset);
            check_against::<Col>(CuteCol::offset);
            // TileFusion's TileLayout / NonSwizzled decomposition
            let (b, m) = (Row::BITS, Row::BASE);
            check_against::<Row>(decomposed(&Row::TILES, &Row::IN_TILE, b, m, false));
            check_against::<Col>(decomposed(&Col::TILES, &Col::IN_TILE, b, m, true));
            // 16-byte vectors stay whole
            assert_eq!(vector_run(&Row::LAYOUT, 1), 16 / core::mem::size_of::<$t>());
            assert_eq!(vector_run(&Col::LAYOUT, 0), 16 / core::mem::size_of::<$t>());
        }
    )*};
}

tiles! {
    f32_128_32x128: f32, Bytes128, "f32", 128, 32 x 128, cute shift 5;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    f32_64_32x128: f32, Bytes64, "f32", 64, 32 x 128, cute shift 5;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    f16_128_32x128: f16, Bytes128, "f16", 128, 32 x 128, cute shift 4;
    f16_64_32x128: f16, Bytes64, "f16", 64, 32 x 128, cute shift 4;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    bf16_128_32x128: bf16, Bytes128, "f16", 128, 32 x 128, cute shift 4;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    bf16_64_32x128: bf16, Bytes64, "f16", 64, 32 x 128, cute shift 4;
}

/// Smaller tiles are the first rows of TileFusion's (its map is
/// `i·stride + swizzle(j)`, so a 32×128 map holds every `R × 128` tile):
/// every shape with whole swizzle blocks from 8 rows up, and the rows of the
/// other widths through CuTe's composition with the width's own shift.
#[test]
fn every_row_count_and_width() {
    fn rows<L: Layout2>(dtype: &str, bytes: usize) {
        let map = tilefusion_map(dtype, bytes, "row", 32, 128);
        check_against::<L>(|i, j| map[i][j]);
        check_layout::<L>();
        check_bijection::<L>();
    }
    if !cfg!(miri) {
        // (TileFusion's maps: natively only, see `check_tilefusion`)
        rows::<SwizzledRowMajor<f16, Bytes64, 12, 128>>("f16", 64);
        rows::<SwizzledRowMajor<f32, Bytes128, 8, 128>>("f32", 128);
        rows::<SwizzledRowMajor<f32, Bytes128, 16, 128>>("f32", 128);
        rows::<SwizzledRowMajor<f16, Bytes64, 4, 128>>("f16", 64);
        rows::<SwizzledRowMajor<bf16, Bytes128, 24, 128>>("f16", 128);
    }

    macro_rules! cute {
        ($t:ty, $w:ty, $r:literal x $c:literal, $s:literal) => {{
            type Sw = <$t as SwizzleAtom<$w>>::Swizzle;
            type L = SwizzledRowMajor<$t, $w, $r, $c>;
            check_against::<L>(
                Swizzled::<RowMajor<$r, $c>, Swizzle<{ Sw::BITS }, { Sw::BASE }, $s>>::offset,
            );
            check_layout::<L>();
            check_bijection::<L>();
            type C = SwizzledColMajor<$t, $w, $c, $r>;
            check_against::<C>(
                Swizzled::<ColMajor<$c, $r>, Swizzle<{ Sw::BITS }, { Sw::BASE }, $s>>::offset,
            );
        }};
    }
    // TileFusion's unit-test shapes, 16×16 to 128×128
    cute!(f32, Bytes128, 8 x 32, 3);
    cute!(bf16, Bytes64, 32 x 32, 2);
    if cfg!(miri) {
        return; // the same checks on other shapes: natively only
    }
    cute!(f32, Bytes128, 16 x 64, 4);
    cute!(f32, Bytes128, 64 x 64, 4);
    cute!(f32, Bytes128, 128 x 128, 5);
    cute!(f32, Bytes64, 16 x 16, 2);
    cute!(f32, Bytes64, 16 x 32, 3);
    cute!(f32, Bytes64, 64 x 64, 4);
    cute!(f16, Bytes128, 16 x 64, 3);
    cute!(f16, Bytes128, 64 x 64, 3);
    cute!(f16, Bytes128, 128 x 128, 4);
    cute!(f16, Bytes64, 16 x 32, 2);
    cute!(f16, Bytes64, 32 x 64, 3);
    cute!(bf16, Bytes128, 64 x 64, 3);
}

/// A row stride larger than the row (TileFusion's `RowMajor<R, C, kStride>`):
/// rows `RS` apart, each row swizzled alone.
#[test]
fn a_wider_row_stride() {
    type L = SwizzledRowMajor<f32, Bytes128, 16, 32, 64>;
    check_against::<L>(|i, j| i * 64 + (j ^ ((i % 8) << 2)));
    assert_eq!(L::COSIZE, 15 * 64 + 32);
    check_layout::<L>();
}

#[test]
fn atom_parameters() {
    fn params<S: SwizzleFn>() -> (u32, u32, i32) {
        (S::BITS, S::BASE, S::SHIFT)
    }
    fn block<L: Shape2>() -> (usize, usize) {
        (L::ROWS, L::COLS)
    }
    assert_eq!(
        params::<<f16 as SwizzleAtom<Bytes128>>::Swizzle>(),
        (3, 3, 3)
    );
    assert_eq!(block::<<f16 as SwizzleAtom<Bytes128>>::RowBlock>(), (8, 64));
    assert_eq!(
        params::<<f32 as SwizzleAtom<Bytes128>>::Swizzle>(),
        (3, 2, 3)
    );
    assert_eq!(block::<<f32 as SwizzleAtom<Bytes128>>::RowBlock>(), (8, 32));
    assert_eq!(
        params::<<f16 as SwizzleAtom<Bytes64>>::Swizzle>(),
        (2, 3, 2)
    );
    assert_eq!(block::<<f16 as SwizzleAtom<Bytes64>>::RowBlock>(), (4, 32));
    assert_eq!(
        params::<<f32 as SwizzleAtom<Bytes64>>::Swizzle>(),
        (2, 2, 2)
    );
    assert_eq!(block::<<f32 as SwizzleAtom<Bytes64>>::RowBlock>(), (4, 16));
    assert_eq!(block::<<f32 as SwizzleAtom<Bytes128>>::ColBlock>(), (32, 8));
    // TileFusion's TileLayout / NonSwizzled strides for f32 64×64 at 128 B
    type L = SwizzledRowMajor<f32, Bytes128, 64, 64>;
    assert_eq!(L::TILES.to_string(), "(_8,_2):(_512,_32)");
    assert_eq!(L::IN_TILE.to_string(), "(_8,_32):(_64,_1)");
    // CuTe's composition(Swizzle<3, 2, log2(64) - 2>, (64,64):(64,1))
    assert_eq!(L::LAYOUT.to_string(), "Sw<3,2,4> o _0 o (_64,_64):(_64,_1)");
}

#[test]
fn shared_tile_reads_back_what_it_wrote() {
    let mut buf = vec![f16::ZERO; 64 * 64];
    let mut s = SharedTile::<_, SwizzledRowMajor<f16, Bytes128, 64, 64>>::new(&mut buf[..]);
    // values below 2048 are exact in f16
    let mut at = coords(64, 64);
    at.push((1, 0)); // checked below
    for &(i, j) in &at {
        s.set(i, j, f16::from_f32(((i * 64 + j) % 2048) as f32));
    }
    for &(i, j) in &at {
        assert_eq!(s.get(i, j).to_f32(), ((i * 64 + j) % 2048) as f32);
    }
    // (1, 0) is chunk 0 of row 1: stored in chunk 1
    assert_eq!(buf[64 + 8].to_f32(), 64.0);
}

//! Block layouts against their definition — outer layout over blocks, inner
//! layout inside each contiguous block — nested up to four levels. Under
//! Miri, a sample: the cases not marked natively-only, at
//! `gpu_common::coords`.

mod gpu_common;

use gpu_common::{check_against, check_bijection, check_exact_cosize, check_layout};
use tilelayout::gpu::{
    vector_run, Blocked, BlockedColMajor, BlockedRowMajor, ColMajor, Layout2, MatrixLayout,
    RowMajor, Shape2,
};

/// `Blocked<O, I>` by its definition, with `O` and `I` given as functions.
fn blocked(
    (ir, ic, icosize): (usize, usize, usize),
    outer: impl Fn(usize, usize) -> usize,
    inner: impl Fn(usize, usize) -> usize,
) -> impl Fn(usize, usize) -> usize {
    move |i, j| outer(i / ir, j / ic) * icosize + inner(i % ir, j % ic)
}

macro_rules! one_level {
    ($($(#[$m:meta])* $name:ident: $or:literal x $oc:literal, $ir:literal x $ic:literal;)*) => {$(
        $(#[$m])*
        #[test]
        fn $name() {
            // all four combinations of row/column-major outer and inner
            type RR = Blocked<RowMajor<$or, $oc>, RowMajor<$ir, $ic>>;
            type RC = Blocked<RowMajor<$or, $oc>, ColMajor<$ir, $ic>>;
            type CR = Blocked<ColMajor<$or, $oc>, RowMajor<$ir, $ic>>;
            type CC = Blocked<ColMajor<$or, $oc>, ColMajor<$ir, $ic>>;
            let n = $ir * $ic;
            let inner = ($ir, $ic, n);
            check_against::<RR>(blocked(inner, |a, b| a * $oc + b, |a, b| a * $ic + b));
            check_against::<RC>(blocked(inner, |a, b| a * $oc + b, |a, b| a + b * $ir));
            check_against::<CR>(blocked(inner, |a, b| a + b * $or, |a, b| a * $ic + b));
            check_against::<CC>(blocked(inner, |a, b| a + b * $or, |a, b| a + b * $ir));
            check_layout::<RR>();
            check_layout::<RC>();
            check_layout::<CR>();
            check_layout::<CC>();
            check_bijection::<RR>();
            check_bijection::<RC>();
            check_bijection::<CR>();
            check_bijection::<CC>();
            assert_eq!((RR::ROWS, RR::COLS), ($or * $ir, $oc * $ic));

            // the whole-shape forms are the same layouts
            type WR = BlockedRowMajor<{ $or * $ir }, { $oc * $ic }, ColMajor<$ir, $ic>>;
            type WC = BlockedColMajor<{ $or * $ir }, { $oc * $ic }, RowMajor<$ir, $ic>>;
            check_against::<WR>(RC::offset);
            check_against::<WC>(CR::offset);
            check_layout::<WR>();
            check_layout::<WC>();
            assert_eq!((WR::GRID_ROWS, WR::GRID_COLS), ($or, $oc));
            assert_eq!(WR::COSIZE, RC::COSIZE);
        }
    )*};
}

one_level! {
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    block_1x1_of_8x8: 1 x 1, 8 x 8;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    block_8x2_of_8x32: 8 x 2, 8 x 32;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    block_2x8_of_32x8: 2 x 8, 32 x 8;
    block_4x4_of_16x16: 4 x 4, 16 x 16;
    block_3x5_of_2x3: 3 x 5, 2 x 3;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    block_16x16_of_4x4: 16 x 16, 4 x 4;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    block_64x1_of_1x64: 64 x 1, 1 x 64;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    block_7x3_of_5x9: 7 x 3, 5 x 9;
}

#[test]
fn three_levels() {
    // 64×64 in 16×16 blocks (row-major), each in 4×4 blocks (column-major),
    // each row-major
    type L = BlockedRowMajor<64, 64, BlockedColMajor<16, 16, RowMajor<4, 4>>>;
    check_against::<L>(|i, j| {
        let block = (i / 16) * 4 + j / 16;
        let sub = (i % 16) / 4 + ((j % 16) / 4) * 4;
        let e = (i % 4) * 4 + j % 4;
        block * 256 + sub * 16 + e
    });
    check_layout::<L>();
    check_bijection::<L>();
}

#[test]
fn four_levels_mixed_forms() {
    // a 2×2 grid of 2×2 grids of 2×2 grids of 2×2 elements: the Morton
    // (Z-order) layout of a 16×16 matrix
    type Z2 = RowMajor<2, 2>;
    type Z = Blocked<Z2, Blocked<Z2, Blocked<Z2, Z2>>>;
    assert_eq!((Z::ROWS, Z::COLS, Z::COSIZE), (16, 16, 256));
    let morton = |i: usize, j: usize| {
        (0..4).fold(0, |acc, b| {
            acc | ((i >> b & 1) << (2 * b + 1)) | ((j >> b & 1) << (2 * b))
        })
    };
    check_against::<Z>(morton);
    check_layout::<Z>();
    check_bijection::<Z>();
}

#[test]
fn non_compact_parts() {
    // padded inner blocks (rows 40 apart) and a padded outer grid: blocks
    // stay contiguous at multiples of the inner cosize
    type I = MatrixLayout<8, 32, 40, 1>;
    type O = MatrixLayout<2, 2, 3, 1>;
    type L = Blocked<O, I>;
    let icosize = 7 * 40 + 31 + 1;
    assert_eq!(I::COSIZE, icosize);
    check_against::<L>(blocked(
        (8, 32, icosize),
        |a, b| a * 3 + b,
        |a, b| a * 40 + b,
    ));
    check_layout::<L>();
    check_exact_cosize::<L>();
    // rows 40 apart keep runs of gcd(32, 40) = 8, and block starts
    // (multiples of 312) are multiples of 8
    assert_eq!(vector_run(&L::LAYOUT, 1), 8);
}

#[test]
fn runs_follow_the_inner_block() {
    type L = BlockedRowMajor<64, 64, RowMajor<8, 32>>;
    assert_eq!(
        (vector_run(&L::LAYOUT, 1), vector_run(&L::LAYOUT, 0)),
        (32, 1)
    );
    type C = BlockedColMajor<64, 64, ColMajor<32, 8>>;
    assert_eq!(
        (vector_run(&C::LAYOUT, 1), vector_run(&C::LAYOUT, 0)),
        (1, 32)
    );
}

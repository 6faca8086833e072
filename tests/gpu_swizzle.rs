//! `Swizzle<B, M, S>` against the values CuTe's own `Swizzle` computes
//! (`tests/gpu_data/cute.txt`, including negative shifts), and against
//! CuTe's definition `x ^ ((x & (((1 << B) - 1) << (M + S))) >> S)`: for every
//! `B ≤ 4`, `M ≤ 4`, `B ≤ S ≤ 5` with `M + S + B ≤ 12`, the swizzle agrees
//! with the formula, is an involution, and is a bijection of
//! `[0, k·2^(M+S+B))`; and swizzled layouts, exhaustively. Under Miri
//! (interpreted), a sample: 12 of the 99 swizzles, offsets and coordinates at
//! `gpu_common::coords`, the cases not marked natively-only.

mod gpu_common;

use gpu_common::vectors::{numbers, sections, CUTE};
use gpu_common::{check_against, check_bijection, check_layout, coords, proptest_config};
use proptest::prelude::*;
use tilelayout::gpu::{
    vector_run, BlockedColMajor, BlockedRowMajor, ColMajor, Layout2, RowMajor, Swizzle, SwizzleFn,
    Swizzled,
};

/// CuTe's swizzle, written from the definition.
fn cute(x: usize, b: u32, m: u32, s: u32) -> usize {
    let yyy = ((1usize << b) - 1) << (m + s);
    x ^ ((x & yyy) >> s)
}

/// Checks one swizzle against the formula on `[0, 3·span)` and on a few
/// offsets with high bits set.
fn check_swizzle<const B: u32, const M: u32, const S: i32>() {
    type Sw<const B: u32, const M: u32, const S: i32> = Swizzle<B, M, S>;
    let span = 1usize << (M + S as u32 + B);
    assert_eq!(Sw::<B, M, S>::SPAN, span);
    assert_eq!(
        Sw::<B, M, S>::SOURCE_MASK,
        ((1usize << B) - 1) << (M + S as u32)
    );
    assert_eq!(Sw::<B, M, S>::TARGET_MASK, ((1usize << B) - 1) << M);
    assert_eq!(
        (
            Sw::<B, M, S>::BITS,
            Sw::<B, M, S>::BASE,
            Sw::<B, M, S>::SHIFT
        ),
        (B, M, S)
    );
    assert_eq!(
        (
            <Sw<B, M, S> as SwizzleFn>::BITS,
            <Sw<B, M, S> as SwizzleFn>::BASE
        ),
        (B, M)
    );
    let mut hit = vec![false; 3 * span];
    for (_, x) in coords(1, 3 * span) {
        let y = Sw::<B, M, S>::apply(x);
        assert_eq!(y, cute(x, B, M, S as u32), "Swizzle<{B}, {M}, {S}>({x})");
        assert_eq!(<Sw<B, M, S> as SwizzleFn>::apply(x), y);
        // the low M bits are kept, the block of span offsets is kept
        assert_eq!(y % (1 << M), x % (1 << M));
        assert_eq!(y / span, x / span);
        // involution
        assert_eq!(Sw::<B, M, S>::apply(y), x);
        assert!(!hit[y], "Swizzle<{B}, {M}, {S}> hits {y} twice");
        hit[y] = true;
    }
    for high in [1usize << 40, usize::MAX << 20, usize::MAX] {
        let x = high ^ 0x5a5;
        assert_eq!(Sw::<B, M, S>::apply(x), cute(x, B, M, S as u32));
        assert_eq!(Sw::<B, M, S>::apply(Sw::<B, M, S>::apply(x)), x);
    }
}

macro_rules! all_swizzles {
    ($(($b:literal, $m:literal, $s:literal)),* $(,)?) => {
        #[test]
        fn every_small_swizzle_matches_cute() {
            let all: &[fn()] = &[$( check_swizzle::<$b, $m, $s> ),*];
            assert_eq!(all.len(), COUNT);
            for check in gpu_common::sample(all, COUNT / 8) {
                check();
            }
        }
    };
}

const COUNT: usize = 99;

all_swizzles![
    (0, 0, 0),
    (0, 0, 1),
    (0, 0, 2),
    (0, 0, 3),
    (0, 0, 4),
    (0, 0, 5),
    (0, 1, 0),
    (0, 1, 1),
    (0, 1, 2),
    (0, 1, 3),
    (0, 1, 4),
    (0, 1, 5),
    (0, 2, 0),
    (0, 2, 1),
    (0, 2, 2),
    (0, 2, 3),
    (0, 2, 4),
    (0, 2, 5),
    (0, 3, 0),
    (0, 3, 1),
    (0, 3, 2),
    (0, 3, 3),
    (0, 3, 4),
    (0, 3, 5),
    (0, 4, 0),
    (0, 4, 1),
    (0, 4, 2),
    (0, 4, 3),
    (0, 4, 4),
    (0, 4, 5),
    (1, 0, 1),
    (1, 0, 2),
    (1, 0, 3),
    (1, 0, 4),
    (1, 0, 5),
    (1, 1, 1),
    (1, 1, 2),
    (1, 1, 3),
    (1, 1, 4),
    (1, 1, 5),
    (1, 2, 1),
    (1, 2, 2),
    (1, 2, 3),
    (1, 2, 4),
    (1, 2, 5),
    (1, 3, 1),
    (1, 3, 2),
    (1, 3, 3),
    (1, 3, 4),
    (1, 3, 5),
    (1, 4, 1),
    (1, 4, 2),
    (1, 4, 3),
    (1, 4, 4),
    (1, 4, 5),
    (2, 0, 2),
    (2, 0, 3),
    (2, 0, 4),
    (2, 0, 5),
    (2, 1, 2),
    (2, 1, 3),
    (2, 1, 4),
    (2, 1, 5),
    (2, 2, 2),
    (2, 2, 3),
    (2, 2, 4),
    (2, 2, 5),
    (2, 3, 2),
    (2, 3, 3),
    (2, 3, 4),
    (2, 3, 5),
    (2, 4, 2),
    (2, 4, 3),
    (2, 4, 4),
    (2, 4, 5),
    (3, 0, 3),
    (3, 0, 4),
    (3, 0, 5),
    (3, 1, 3),
    (3, 1, 4),
    (3, 1, 5),
    (3, 2, 3),
    (3, 2, 4),
    (3, 2, 5),
    (3, 3, 3),
    (3, 3, 4),
    (3, 3, 5),
    (3, 4, 3),
    (3, 4, 4),
    (3, 4, 5),
    (4, 0, 4),
    (4, 0, 5),
    (4, 1, 4),
    (4, 1, 5),
    (4, 2, 4),
    (4, 2, 5),
    (4, 3, 4),
    (4, 3, 5),
    (4, 4, 4)
];

/// The values CuTe's `Swizzle<B, M, S>` computes, negative shifts included.
#[test]
fn swizzles_equal_cutes_own_values() {
    macro_rules! check {
        ($(($b:literal, $m:literal, $s:literal)),*) => {{
            let mut n = 0;
            $(
                // (under Miri the swizzles of spans up to 64, of either
                // sign: reading CuTe's longer lines takes seconds each)
                if !cfg!(miri) || Swizzle::<$b, $m, $s>::SPAN <= 64 {
                    let sec = sections(CUTE, "swizzle")
                        .into_iter()
                        .find(|x| x.header[1..4] == [stringify!($b), stringify!($m), stringify!($s)])
                        .expect("a CuTe swizzle section");
                    let values = numbers(sec.lines[0]);
                    assert_eq!(values.len(), Swizzle::<$b, $m, $s>::SPAN);
                    for (x, &y) in values.iter().enumerate() {
                        assert_eq!(Swizzle::<$b, $m, $s>::apply(x) as i64, y, "Swizzle<{}, {}, {}>({x})", $b, $m, $s);
                        // and on the next block
                        let x2 = x + Swizzle::<$b, $m, $s>::SPAN;
                        assert_eq!(Swizzle::<$b, $m, $s>::apply(x2), y as usize + Swizzle::<$b, $m, $s>::SPAN);
                    }
                }
                n += 1;
            )*
            assert_eq!(n, sections(CUTE, "swizzle").len());
        }};
    }
    check!(
        (3, 3, 3),
        (3, 2, 3),
        (2, 3, 2),
        (2, 2, 2),
        (2, 0, -2),
        (3, 4, -3),
        (3, 3, 4),
        (3, 2, 4),
        (2, 3, 3),
        (2, 2, 3),
        (1, 1, -1)
    );
}

/// A swizzled layout with a negative shift stays a bijection of its span.
#[test]
fn negative_shift_layouts() {
    type L = Swizzled<RowMajor<4, 4>, Swizzle<2, 0, -2>>;
    // CuTe: 0 5 10 15 4 1 14 11 8 13 2 7 12 9 6 3
    check_against::<L>(|i, j| [0, 5, 10, 15, 4, 1, 14, 11, 8, 13, 2, 7, 12, 9, 6, 3][i * 4 + j]);
    check_layout::<L>();
    check_bijection::<L>();
    // the low bits are the source: runs of one element only
    assert_eq!(vector_run(&L::LAYOUT, 1), 1);
    type Wide = Swizzled<RowMajor<8, 16>, Swizzle<2, 1, -3>>;
    check_layout::<Wide>();
    check_bijection::<Wide>();
    assert_eq!(vector_run(&Wide::LAYOUT, 1), 2);
}

proptest! {
    #![proptest_config(proptest_config(256, 8))]
    #[test]
    fn shared_memory_swizzles_match_cute(x in any::<usize>()) {
        prop_assert_eq!(Swizzle::<3, 3, 3>::apply(x), cute(x, 3, 3, 3));
        prop_assert_eq!(Swizzle::<3, 2, 3>::apply(x), cute(x, 3, 2, 3));
        prop_assert_eq!(Swizzle::<2, 3, 2>::apply(x), cute(x, 2, 3, 2));
        prop_assert_eq!(Swizzle::<2, 2, 2>::apply(x), cute(x, 2, 2, 2));
        prop_assert_eq!(Swizzle::<3, 4, 3>::apply(Swizzle::<3, 4, 3>::apply(x)), x);
    }
}

macro_rules! swizzled_layouts {
    ($($(#[$a:meta])* $name:ident: $l:ty, ($b:literal, $m:literal, $s:literal);)*) => {$(
        $(#[$a])*
        #[test]
        fn $name() {
            type L = Swizzled<$l, Swizzle<$b, $m, $s>>;
            check_against::<L>(|i, j| cute(<$l>::offset(i, j), $b, $m, $s));
            check_layout::<L>();
            check_bijection::<L>();
            assert_eq!(L::COSIZE, <$l>::COSIZE);
            // CuTe's composition: the swizzle over the unswizzled layout
            assert_eq!(L::LAYOUT.swizzle, tilelayout::algebra::Swizzle::new($b, $m, $s).unwrap());
            assert_eq!(L::LAYOUT.layout, <$l>::LAYOUT.layout);
        }
    )*};
}

swizzled_layouts! {
    swizzled_row_8x32_323: RowMajor<8, 32>, (3, 2, 3);
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    swizzled_row_8x64_333: RowMajor<8, 64>, (3, 3, 3);
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    swizzled_row_4x32_232: RowMajor<4, 32>, (2, 3, 2);
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    swizzled_row_4x16_222: RowMajor<4, 16>, (2, 2, 2);
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    swizzled_col_32x8_323: ColMajor<32, 8>, (3, 2, 3);
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    swizzled_row_64x64_333: RowMajor<64, 64>, (3, 3, 3);
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    swizzled_row_64x64_323: RowMajor<64, 64>, (3, 2, 3);
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    swizzled_col_64x64_222: ColMajor<64, 64>, (2, 2, 2);
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    swizzled_row_16x16_111: RowMajor<16, 16>, (1, 1, 1);
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    swizzled_row_1x64_240: RowMajor<1, 64>, (2, 0, 4);
    // not a power of two: 24 blocks of 256 (the fit rule is "a multiple")
    swizzled_row_48x128_323: RowMajor<48, 128>, (3, 2, 3);
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    swizzled_blocked_64x96_323: BlockedRowMajor<64, 96, RowMajor<8, 32>>, (3, 2, 3);
    swizzled_blocked_col_64x64_333: BlockedColMajor<64, 64, ColMajor<64, 8>>, (3, 3, 3);
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    swizzled_identity_8x8_040: RowMajor<8, 8>, (0, 4, 0);
}

#[test]
fn swizzles_nest_under_blocks() {
    // swizzling each block equals swizzling the whole blocked offset when a
    // block spans whole 2^(M+S+B) chunks
    type Inner = Swizzled<RowMajor<8, 32>, Swizzle<3, 2, 3>>;
    type PerBlock = BlockedRowMajor<32, 64, Inner>;
    type Whole = Swizzled<BlockedRowMajor<32, 64, RowMajor<8, 32>>, Swizzle<3, 2, 3>>;
    check_against::<PerBlock>(Whole::offset);
    check_layout::<PerBlock>();
    check_bijection::<PerBlock>();
}

#[test]
fn runs_keep_the_low_bits() {
    // 16-byte chunks of f32 (4 elements) stay contiguous
    assert_eq!(
        vector_run(&Swizzled::<RowMajor<8, 32>, Swizzle<3, 2, 3>>::LAYOUT, 1),
        4
    );
    // 16-byte chunks of f16 (8 elements)
    assert_eq!(
        vector_run(&Swizzled::<RowMajor<8, 64>, Swizzle<3, 3, 3>>::LAYOUT, 1),
        8
    );
    assert_eq!(
        vector_run(&Swizzled::<ColMajor<32, 8>, Swizzle<3, 2, 3>>::LAYOUT, 0),
        4
    );
}

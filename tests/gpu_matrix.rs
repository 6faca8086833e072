//! Strided matrix layouts against their definition, `(i, j) → i·RS + j·CS`,
//! exhaustively for every size instantiated here (up to 64×64). Under Miri,
//! a sample: the cases not marked natively-only, at `gpu_common::coords`.

mod gpu_common;

use gpu_common::{check_against, check_bijection, check_exact_cosize, check_layout};
use tilelayout::gpu::{layout_of, vector_run, ColMajor, Layout2, MatrixLayout, RowMajor};

macro_rules! row_and_col_major {
    ($($(#[$m:meta])* $name:ident: $r:literal x $c:literal;)*) => {$(
        $(#[$m])*
        #[test]
        fn $name() {
            type R = RowMajor<$r, $c>;
            type C = ColMajor<$r, $c>;
            check_layout::<R>();
            check_layout::<C>();
            check_against::<R>(|i, j| i * $c + j);
            check_against::<C>(|i, j| i + j * $r);
            check_bijection::<R>();
            check_bijection::<C>();
            check_exact_cosize::<R>();
            check_exact_cosize::<C>();
            assert_eq!(R::ROW_STRIDE, $c);
            assert_eq!(R::COL_STRIDE, 1);
            assert_eq!(C::ROW_STRIDE, 1);
            assert_eq!(C::COL_STRIDE, $r);
            // a row of a row-major matrix is one contiguous run
            assert_eq!(vector_run(&R::LAYOUT, 1), if $c == 1 { 1 } else { $c });
            assert_eq!(vector_run(&C::LAYOUT, 0), if $r == 1 { 1 } else { $r });
        }
    )*};
}

row_and_col_major! {
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    major_1x1: 1 x 1;
    major_1x64: 1 x 64;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    major_64x1: 64 x 1;
    major_3x5: 3 x 5;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    major_7x13: 7 x 13;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    major_8x8: 8 x 8;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    major_16x16: 16 x 16;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    major_16x32: 16 x 32;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    major_32x16: 32 x 16;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    major_33x17: 33 x 17;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    major_64x32: 64 x 32;
    major_64x64: 64 x 64;
}

macro_rules! strided {
    ($($(#[$m:meta])* $name:ident: $r:literal x $c:literal : $rs:literal, $cs:literal;)*) => {$(
        $(#[$m])*
        #[test]
        fn $name() {
            type L = MatrixLayout<$r, $c, $rs, $cs>;
            check_layout::<L>();
            check_against::<L>(|i, j| i * $rs + j * $cs);
            check_exact_cosize::<L>();
        }
    )*};
}

strided! {
    // a 16×8 window into a 100-wide row-major matrix
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    strided_window: 16 x 8 : 100, 1;
    // padded rows (TileFusion's RowMajor<kTM, kK, kK>)
    strided_padded_rows: 64 x 32 : 36, 1;
    // padded columns
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    strided_padded_cols: 32 x 64 : 1, 40;
    // broadcast along rows (stride 0)
    strided_broadcast: 8 x 16 : 0, 1;
    // interleaved strides, not a bijection
    strided_interleaved: 5 x 7 : 3, 2;
    #[cfg_attr(miri, ignore = "like the sampled cases; natively only")]
    strided_transposed_odd: 9 x 11 : 1, 9;
}

#[test]
fn padded_strides_shrink_runs_to_the_common_divisor() {
    // rows 36 apart: runs of 4 start at multiples of 4, runs of 8 would not
    assert_eq!(vector_run(&MatrixLayout::<64, 32, 36, 1>::LAYOUT, 1), 4);
    assert_eq!(vector_run(&MatrixLayout::<64, 32, 33, 1>::LAYOUT, 1), 1);
    assert_eq!(vector_run(&MatrixLayout::<8, 16, 0, 1>::LAYOUT, 1), 16);
    assert_eq!(vector_run(&MatrixLayout::<5, 7, 3, 2>::LAYOUT, 1), 1);
}

#[test]
fn expressions_describe_the_strides() {
    // CuTe's (3,5):(1,3), unswizzled
    assert_eq!(
        ColMajor::<3, 5>::LAYOUT.to_string(),
        "Sw<0,4,3> o _0 o (_3,_5):(_1,_3)"
    );
    assert_eq!(
        MatrixLayout::<4, 8, 100, 1>::LAYOUT.layout.to_string(),
        "(_4,_8):(_100,_1)"
    );
}

#[test]
fn layout_values_call_the_layout() {
    let l = layout_of::<MatrixLayout<4, 4, 10, 2>>();
    assert_eq!(l.offset(3, 3), 36);
}

// TileFusion's examples: MatrixLayout<64, 64, 64, 1> is RowMajor<64, 64>,
// MatrixLayout<64, 64, 1, 64> is ColMajor<64, 64>.
#[test]
fn aliases_are_the_matrix_layouts() {
    fn same<A: 'static, B: 'static>() -> bool {
        core::any::TypeId::of::<A>() == core::any::TypeId::of::<B>()
    }
    assert!(same::<RowMajor<64, 64>, MatrixLayout<64, 64, 64, 1>>());
    assert!(same::<ColMajor<64, 64>, MatrixLayout<64, 64, 1, 64>>());
}

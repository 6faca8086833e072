//! Swizzled layouts as types: `cute!(Sw<B,M,S> o O o layout)` against the
//! core's own evaluation of the same `ComposedLayout`, and TileFusion's
//! swizzled shared tiles (`gpu::SwizzledRowMajor`/`SwizzledColMajor`) equal
//! to the CuTe composition written in CuTe's notation, offset by offset
//! (under Miri at a sample of them, `gpu_common::coords`).

mod gpu_common;

use gpu_common::{coords, proptest_config};
use half::f16;
use proptest::prelude::*;
use tilelayout::algebra::ComposedLayout;
use tilelayout::gpu::{Bytes128, Bytes64, Layout2, SwizzledColMajor, SwizzledRowMajor};
use tilelayout::{cute, ComposedAlgebraLayout};

/// Every coordinate of a rank-2 composed type against `Layout2` `L`.
#[track_caller]
fn same_as_tile<C: ComposedAlgebraLayout, L: Layout2>() {
    assert_eq!(C::LAYOUT, L::LAYOUT, "{} vs {}", C::TEXT, L::LAYOUT);
    for (i, j) in coords(L::ROWS, L::COLS) {
        assert_eq!(C::offset([i, j]) as usize, L::offset(i, j), "({i}, {j})");
    }
}

/// Every 1-D coordinate of `C` against the core's `ComposedLayout::call`.
#[track_caller]
fn same_as_core<C: ComposedAlgebraLayout>(text: &str) {
    let c = ComposedLayout::parse(text).unwrap();
    assert_eq!(C::LAYOUT, c);
    assert_eq!(C::TEXT, text);
    for (_, i) in coords(1, C::SIZE) {
        assert_eq!(
            C::index(i) as i64,
            c.call(i as i64).unwrap(),
            "{text} at {i}"
        );
    }
}

#[test]
fn tilefusion_shared_tiles_are_cute_compositions() {
    // f32 at 128 B: Swizzle<3, 2, log2(64) - 2>
    same_as_tile::<
        cute!(Sw<3,2,4> o _0 o (_64,_64):(_64,_1)),
        SwizzledRowMajor<f32, Bytes128, 64, 64>,
    >();
    // f16 at 128 B, a 32-column row stride of 64
    same_as_tile::<
        cute!(Sw<3,3,3> o _0 o (_64,_64):(_64,_1)),
        SwizzledRowMajor<f16, Bytes128, 64, 64>,
    >();
    // f16 at 64 B, column-major: Swizzle<2, 3, log2(64) - 3>
    same_as_tile::<
        cute!(Sw<2,3,3> o _0 o (_64,_32):(_1,_64)),
        SwizzledColMajor<f16, Bytes64, 64, 32>,
    >();
    // f32 at 64 B, rows of 32 with stride 32
    same_as_tile::<
        cute!(Sw<2,2,3> o _0 o (_16,_32):(_32,_1)),
        SwizzledRowMajor<f32, Bytes64, 16, 32>,
    >();
}

#[test]
fn composed_types_fold_what_the_core_computes() {
    same_as_core::<cute!(Sw<3,4,3> o _0 o (8,64):(64,1))>("Sw<3,4,3> o _0 o (8,64):(64,1)");
    same_as_core::<cute!(Sw<2,0,-2> o _0 o (_4,_4):(_4,_1))>("Sw<2,0,-2> o _0 o (_4,_4):(_4,_1)");
    same_as_core::<cute!(Sw<1,1,2> o _3 o ((_2,_4),_8):((_8,_1),_16))>(
        "Sw<1,1,2> o _3 o ((_2,_4),_8):((_8,_1),_16)",
    );
    // CuTe's Swizzle<2,0,-2> on a 4x4 row-major layout (tests/gpu_data)
    type N = cute!(Sw<2,0,-2> o _0 o (_4,_4):(_4,_1));
    let got: Vec<isize> = (0..4)
        .flat_map(|i| (0..4).map(move |j| N::offset([i, j])))
        .collect();
    assert_eq!(got, [0, 5, 10, 15, 4, 1, 14, 11, 8, 13, 2, 7, 12, 9, 6, 3]);
}

proptest! {
    #![proptest_config(proptest_config(256, 8))]
    #[test]
    fn large_composed_layouts_agree_with_the_core(i in 0usize..(128 * 256)) {
        type C = cute!(Sw<3,4,3> o _0 o (_128,_256):(_256,_1));
        let c = ComposedLayout::parse("Sw<3,4,3> o _0 o (_128,_256):(_256,_1)").unwrap();
        prop_assert_eq!(C::index(i) as i64, c.call(i as i64).unwrap());
    }
}

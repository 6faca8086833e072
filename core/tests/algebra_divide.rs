//! The divides: CuTe's post-conditions over random layouts (NVIDIA/cutlass
//! `test/unit/cute/core/logical_divide.cpp` checks the same).

mod algebra_gen;
use algebra_gen::{image, layout, small_layout, tiler, Strides};
use proptest::prelude::*;
use tilelayout_core::algebra::{
    coalesce, complement, composition, flat_divide, logical_divide, tiled_divide, zipped_divide,
    CuteLayout, IntTuple, Tiler,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Post: `layout<0>(logical_divide(A, B)) == composition(A, B)` and the
    /// whole is `A ∘ (B, complement(B, shape(coalesce(A))))`, covering A.
    #[test]
    fn logical_divide_by_a_layout(a in layout(Strides::Compact, 0.8), b in small_layout()) {
        let t = Tiler::layout(b);
        if let Ok(r) = logical_divide(&a, &t) {
            prop_assert_eq!(image(&r.mode(0).unwrap()), image(&composition(&a, &b).unwrap()));
            let rest = complement(&b, coalesce(&a).unwrap().shape()).unwrap();
            let both = CuteLayout::concat(&[b, rest]).unwrap();
            prop_assert_eq!(r.size().unwrap().value, both.size().unwrap().value);
            prop_assert!(r.size().unwrap().value >= a.size().unwrap().value);
            let n = a.size().unwrap().value;
            for i in 0..both.size().unwrap().value {
                let j = both.call(i).unwrap();
                if j < n {
                    prop_assert_eq!(r.call(i).unwrap(), a.call(j).unwrap());
                }
            }
        }
    }

    /// A tiler that divides a compact layout's modes never fails and keeps
    /// the size (the weak static check of CuTe is always applied here).
    #[test]
    fn dividing_tiler_keeps_the_size(
        dims in prop::collection::vec((1i64..=4, 1i64..=4), 1..=3),
        st in any::<bool>(),
    ) {
        let p = if st { "_" } else { "" };
        let shape: Vec<String> = dims.iter().map(|(t, r)| format!("{p}{}", t * r)).collect();
        let tiles: Vec<String> = dims.iter().map(|(t, _)| format!("{p}{t}")).collect();
        let a = CuteLayout::column_major(IntTuple::parse(&format!("({})", shape.join(","))).unwrap()).unwrap();
        let t = Tiler::parse(&format!("({})", tiles.join(","))).unwrap();
        let n = a.size().unwrap().value;
        for r in [
            logical_divide(&a, &t).unwrap(),
            zipped_divide(&a, &t).unwrap(),
            tiled_divide(&a, &t).unwrap(),
            flat_divide(&a, &t).unwrap(),
        ] {
            prop_assert_eq!(r.size().unwrap().value, n);
            let mut img = image(&r);
            img.sort();
            prop_assert_eq!(img, (0..n).collect::<Vec<_>>());
        }
        // zipped: ((tiles...),(rests...)); tile mode is the composition
        let z = zipped_divide(&a, &t).unwrap();
        prop_assert_eq!(z.rank(), 2);
        let tile: i64 = dims.iter().map(|(t, _)| t).product();
        prop_assert_eq!(z.mode(0).unwrap().size().unwrap().value, tile);
    }

    /// Zipped, tiled and flat divides are rearrangements of the logical
    /// divide: the same multiset of indices.
    #[test]
    fn rearrangements_agree(a in layout(Strides::Gaps, 0.8), t in tiler()) {
        if let Ok(l) = logical_divide(&a, &t) {
            let mut want = image(&l);
            want.sort();
            for r in [zipped_divide(&a, &t), tiled_divide(&a, &t), flat_divide(&a, &t)] {
                let mut got = image(&r.unwrap());
                got.sort();
                prop_assert_eq!(&got, &want);
            }
        }
    }
}

//! The products: CuTe's post-conditions over random layouts (NVIDIA/cutlass
//! `test/unit/cute/core/logical_product.cpp` checks the same).

mod algebra_gen;
use algebra_gen::{image, layout, small_flat_layouts, small_layout, Strides};
use proptest::prelude::*;
use std::collections::BTreeSet;
use tilelayout_core::algebra::{
    blocked_product, logical_product, raked_product, tile_to_shape, tiled_product, zipped_product,
    CuteLayout, IntTuple, Tiler,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Post 1: rank 2; Post 2: mode 0 is the block; Post 3: mode 1 is
    /// compatible with the tiler; an injective block stays injective.
    #[test]
    fn logical_product_post_conditions(a in layout(Strides::Gaps, 1.0), b in small_layout()) {
        // the complement of a gapped block need not compose with the tiler
        let Ok(r) = logical_product(&a, &Tiler::layout(b)) else { return Ok(()) };
        prop_assert_eq!(r.rank(), 2);
        prop_assert_eq!(image(&r.mode(0).unwrap()), image(&a));
        prop_assert_eq!(r.mode(1).unwrap().size().unwrap().value, b.size().unwrap().value);
        let mut seen = BTreeSet::new();
        if b.size().unwrap().value == b.cosize().unwrap().value {
            for x in image(&r) {
                prop_assert!(seen.insert(x), "{} x {} = {} repeats {}", a, b, r, x);
            }
        }
    }

    /// blocked and raked products: rank max(rank A, rank B), size the
    /// product, and for compact inputs a permutation of 0..size.
    /// A compact block always has a product.
    #[test]
    fn compact_blocks_always_have_a_product(a in layout(Strides::Compact, 1.0), b in small_layout()) {
        let r = logical_product(&a, &Tiler::layout(b)).unwrap();
        prop_assert_eq!(image(&r.mode(0).unwrap()), image(&a));
    }

    #[test]
    fn blocked_and_raked(
        a in prop::collection::vec(1i64..=4, 1..=2),
        b in prop::collection::vec(1i64..=4, 1..=2),
    ) {
        let sa: Vec<String> = a.iter().map(|v| format!("_{v}")).collect();
        let sb: Vec<String> = b.iter().map(|v| format!("_{v}")).collect();
        let la = CuteLayout::column_major(IntTuple::parse(&format!("({})", sa.join(","))).unwrap()).unwrap();
        let lb = CuteLayout::column_major(IntTuple::parse(&format!("({})", sb.join(","))).unwrap()).unwrap();
        let n = la.size().unwrap().value * lb.size().unwrap().value;
        for r in [blocked_product(&la, &lb).unwrap(), raked_product(&la, &lb).unwrap()] {
            prop_assert_eq!(r.rank(), a.len().max(b.len()));
            let mut img = image(&r);
            img.sort();
            prop_assert_eq!(img, (0..n).collect::<Vec<_>>());
        }
        let t = Tiler::layout(lb);
        let z = zipped_product(&la, &t).unwrap();
        let tp = tiled_product(&la, &t).unwrap();
        prop_assert_eq!(z.size().unwrap().value, n);
        prop_assert_eq!(tp.size().unwrap().value, n);
    }

    /// tile_to_shape: the target's shape, each mode's size as the target's.
    #[test]
    fn tile_to_shape_reaches_the_target(
        block in prop::collection::vec(1i64..=4, 1..=2),
        reps in prop::collection::vec(1i64..=3, 2..=2),
    ) {
        let sb: Vec<String> = block.iter().map(|v| format!("_{v}")).collect();
        let b = CuteLayout::column_major(IntTuple::parse(&format!("({})", sb.join(","))).unwrap()).unwrap();
        let target: Vec<i64> = (0..2).map(|i| block.get(i).copied().unwrap_or(1) * reps[i]).collect();
        let t = IntTuple::parse(&format!("(_{},_{})", target[0], target[1])).unwrap();
        let r = tile_to_shape(&b, &t).unwrap();
        prop_assert_eq!(r.rank(), 2);
        for (i, want) in target.iter().enumerate() {
            prop_assert_eq!(r.mode(i).unwrap().size().unwrap().value, *want);
        }
    }
}

#[test]
fn tile_to_shape_refuses_a_target_the_block_does_not_divide() {
    let b = CuteLayout::parse("(_2,_3):(_1,_2)").unwrap();
    let e = tile_to_shape(&b, &IntTuple::parse("(_4,_8)").unwrap()).unwrap_err();
    assert!(e.to_string().contains("mode 1"), "{e}");
}

/// Every pair of small flat compact layouts (block of rank ≤ 3, tiler of
/// rank ≤ 2, extents 1..=4, strides compact in every order, static and
/// dynamic stride mixes): when a product returns a layout, mode 0 is the
/// block, and the whole is a permutation of `0..size(A)·size(B)` (the
/// complement reaches every repetition, as for the divides).
#[test]
fn every_small_pair_has_a_covering_product() {
    let a_set = small_flat_layouts(3, &[0, 0b1, 0b10, 0b111]);
    let b_set = small_flat_layouts(2, &[0, 0b11]);
    let (mut ok, mut refused) = (0, 0);
    for a in &a_set {
        for b in &b_set {
            let n = a.size().unwrap().value * b.size().unwrap().value;
            let want: Vec<i64> = (0..n).collect();
            let sorted = |l: &CuteLayout| {
                let mut v = image(l);
                v.sort();
                v
            };
            let t = Tiler::layout(*b);
            let Ok(r) = logical_product(a, &t) else {
                refused += 1;
                continue;
            };
            ok += 1;
            assert_eq!(r.rank(), 2, "{a} x {b} = {r}");
            assert_eq!(image(&r.mode(0).unwrap()), image(a), "{a} x {b} = {r}");
            assert_eq!(sorted(&r), want, "{a} x {b} = {r}");
            for z in [
                zipped_product(a, &t).unwrap(),
                tiled_product(a, &t).unwrap(),
            ] {
                assert_eq!(sorted(&z), want, "{a} x {b}: {z}");
            }
            for p in [blocked_product(a, b), raked_product(a, b)] {
                let p = p.unwrap();
                assert_eq!(p.rank(), a.rank().max(b.rank()), "{a} x {b}: {p}");
                assert_eq!(sorted(&p), want, "{a} x {b}: {p}");
            }
        }
    }
    assert!(
        ok > 50_000 && refused > 50_000,
        "ok {ok}, refused {refused}"
    );
}

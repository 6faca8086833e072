//! The divides: CuTe's post-conditions over random layouts (NVIDIA/cutlass
//! `test/unit/cute/core/logical_divide.cpp` checks the same).

mod algebra_gen;
use algebra_gen::{image, layout, small_flat_layouts, small_layout, tiler, Strides};
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

/// Checks a divide of `a` by the layout `b` against its definition
/// `A ∘ (B, complement(B, shape(coalesce(A))))`: the size is
/// `size(B) · size(complement)`, the complement reaches every index of A,
/// and the result is A at those indices.
fn check_divide(a: &CuteLayout, b: &CuteLayout, r: &CuteLayout) -> Result<(), String> {
    let rest = complement(b, coalesce(a).unwrap().shape()).map_err(|e| e.to_string())?;
    let both = CuteLayout::concat(&[*b, rest]).unwrap();
    let m = both.size().unwrap().value;
    if r.size().unwrap().value != m {
        return Err(format!(
            "size {} != size(B) x size({rest}) = {m}",
            r.size().unwrap().value
        ));
    }
    let n = a.size().unwrap().value;
    let mut hit = vec![false; n as usize];
    for i in 0..m {
        let j = both.call(i).unwrap();
        if (0..n).contains(&j) {
            hit[j as usize] = true;
            if r.call(i).unwrap() != a.call(j).unwrap() {
                return Err(format!("r({i}) != A({j})"));
            }
        }
    }
    match hit.iter().position(|h| !h) {
        Some(j) => Err(format!("A({j}) is not covered by (B, {rest})")),
        None => Ok(()),
    }
}

/// The case the proptest found: a dynamic unit stride keeps
/// `coalesce((_8,_2):(1,_8))` at shape `(_8,_2)`, and CuTe's folded
/// `ceil_div((_8,_2), _12)` is `(_1,_1)`: the complement `_2:_1` stopped
/// at 12 of A's 16 elements and the divide returned
/// `((_3,_2),_2):((_2,_6),1)`. The complement now reaches 16 as with a
/// static stride, and the divide is refused (A's dynamic stride does not
/// compose with the complement's stride 12, as `composition` says).
#[test]
fn a_dynamic_stride_does_not_shorten_the_complement() {
    let b = CuteLayout::parse("(_3,_2):(_2,_6)").unwrap();
    let t = Tiler::layout(b);
    let cotarget = IntTuple::parse("(_8,_2)").unwrap();
    assert_eq!(
        complement(&b, &cotarget).unwrap().to_text().as_str(),
        "(_2,_2):(_1,_12)"
    );
    let dynamic = CuteLayout::parse("(_8,_2):(1,_8)").unwrap();
    for r in [
        logical_divide(&dynamic, &t),
        zipped_divide(&dynamic, &t),
        tiled_divide(&dynamic, &t),
        flat_divide(&dynamic, &t),
    ] {
        assert!(r.is_err(), "{r:?}");
    }
    let rest = CuteLayout::parse("(_2,_2):(_1,_12)").unwrap();
    assert_eq!(
        logical_divide(&dynamic, &t).unwrap_err().kind,
        composition(&dynamic, &rest).unwrap_err().kind
    );
    // with the stride static, A coalesces to _16:_1 and all is defined
    let fixed = CuteLayout::parse("(_8,_2):(_1,_8)").unwrap();
    let r = logical_divide(&fixed, &t).unwrap();
    assert_eq!(r.to_text().as_str(), "((_3,_2),(_2,_2)):((_2,_6),(_1,_12))");
    check_divide(&fixed, &b, &r).unwrap();
    // the proptest's own shrink of the same cause: `(_3,_2)` by `_4`
    let a = CuteLayout::parse("(_3,_2):(_1,3)").unwrap();
    let b = CuteLayout::parse("_2:_2").unwrap();
    assert_eq!(
        complement(&b, a.shape()).unwrap().to_text().as_str(),
        "(_2,_2):(_1,_4)"
    );
    if let Ok(r) = logical_divide(&a, &Tiler::layout(b)) {
        check_divide(&a, &b, &r).unwrap();
    }
}

/// Every pair of small flat layouts (A of rank ≤ 3, B of rank ≤ 2, extents
/// 1..=4, compact strides in every order, static/dynamic stride mixes)
/// plus rank-4 A: whenever a divide returns a layout, it is the
/// definition's, covers A, and the three rearrangements hold the same
/// indices.
#[test]
fn every_small_pair_divides_to_a_covering_layout() {
    let mut a_set = small_flat_layouts(3, &[0, 0b1, 0b10, 0b101, 0b111]);
    a_set.extend(
        small_flat_layouts(4, &[0, 0b1, 0b1111])
            .into_iter()
            // rank 4 without unit extents (those filter to a lower rank)
            .filter(|l| {
                l.rank() == 4
                    && (0..4).all(|k| l.shape().mode(k).unwrap().as_int().unwrap().value > 1)
            }),
    );
    let b_set = small_flat_layouts(2, &[0, 0b11]);
    let (mut ok, mut refused) = (0, 0);
    for a in &a_set {
        for b in &b_set {
            let t = Tiler::layout(*b);
            let Ok(r) = logical_divide(a, &t) else {
                refused += 1;
                for r in [
                    zipped_divide(a, &t),
                    tiled_divide(a, &t),
                    flat_divide(a, &t),
                ] {
                    assert!(r.is_err(), "{a} / {b}: logical refused, {r:?}");
                }
                continue;
            };
            ok += 1;
            if let Err(e) = check_divide(a, b, &r) {
                panic!("logical_divide({a}, {b}) = {r}: {e}");
            }
            let mut want = image(&r);
            want.sort();
            for z in [
                zipped_divide(a, &t),
                tiled_divide(a, &t),
                flat_divide(a, &t),
            ] {
                let z = z.unwrap();
                let mut got = image(&z);
                got.sort();
                assert_eq!(got, want, "{a} / {b}: {z} vs {r}");
            }
        }
    }
    // the sweep exercises both outcomes
    assert!(
        ok > 100_000 && refused > 100_000,
        "ok {ok}, refused {refused}"
    );
}

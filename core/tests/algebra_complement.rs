//! `complement`: CuTe's post-conditions (NVIDIA/cutlass
//! `test/unit/cute/core/complement.cpp`, numbered as in `layout.hpp`).

mod algebra_gen;
use algebra_gen::{image, layout, small_flat_layouts, Strides};
use proptest::prelude::*;
use std::collections::BTreeSet;
use tilelayout_core::algebra::{complement, filter, CuteLayout, IntTuple};

fn check(a: &CuteLayout, cotarget: i64) {
    let r = complement(a, &IntTuple::fixed(cotarget)).unwrap();
    let both = CuteLayout::concat(&[*a, r]).unwrap();
    // Post 1: cosize(make_layout(a, r)) >= size(cotarget)
    assert!(both.cosize().unwrap().value >= cotarget, "{a} {r}");
    // Post 2: cosize(r) >= round_up(size(cotarget), cosize(a)) / cosize(filter(a))
    let fa = filter(a).unwrap();
    let ca = fa.cosize().unwrap().value;
    let up = (cotarget + ca - 1) / ca * ca;
    assert!(r.cosize().unwrap().value >= up / ca, "{a} {r}");
    // Post 3: ordered
    let ri = image(&r);
    for w in ri.windows(2) {
        assert!(w[0] < w[1], "{a} {r}");
    }
    // Post 4: disjoint from a (except index 0)
    let ai: BTreeSet<i64> = image(a).into_iter().collect();
    for &x in &ri[1..] {
        assert!(!ai.contains(&x), "{a} {r} {x}");
    }
    // and together they are injective
    let mut seen = BTreeSet::new();
    for x in image(&both) {
        assert!(seen.insert(x), "{a} {r} repeats {x}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn complement_post_conditions(
        a in layout(Strides::Gaps, 1.0),
        k in 1i64..=4,
    ) {
        let c = filter(&a).unwrap().cosize().unwrap().value;
        check(&a, c * k);
    }

    /// Of a compact layout within its size: nothing is left.
    #[test]
    fn complement_of_compact_is_trivial(a in layout(Strides::Compact, 1.0)) {
        let n = a.size().unwrap().value;
        let r = complement(&a, &IntTuple::fixed(n)).unwrap();
        prop_assert_eq!(r.size().unwrap().value, 1);
    }
}

#[test]
fn non_injective_is_an_error() {
    let a = CuteLayout::parse("(_4,_4):(_1,_2)").unwrap();
    assert!(complement(&a, &IntTuple::fixed(16)).is_err());
}

/// CuTe's `ceil_div(tuple, int)`: the division folded across the modes.
fn cute_fold_size(d: &[i64], n: i64) -> i64 {
    let (mut out, mut rest) = (1, n);
    for &x in d {
        out *= (x + rest - 1) / rest;
        rest = (rest + x - 1) / x;
    }
    out
}

/// Post 1 with a tuple cotarget (what `logical_divide` passes when a
/// dynamic stride keeps `coalesce(A)` a tuple): CuTe's folded
/// `ceil_div((_8,_2), _12)` is `(_1,_1)`, one repetition short of 16; the
/// rest mode must still reach `size(cotarget)`, with CuTe's size wherever
/// the fold covers. Every static compact layout of rank ≤ 2 (extents
/// 1..=4, either order) against every cotarget `(x,y)` and `(x,y,z)` with
/// extents 1..=8.
#[test]
fn tuple_cotarget_is_covered() {
    let dims: Vec<Vec<i64>> = (1..=8)
        .flat_map(|x| (1..=8).map(move |y| vec![x, y]))
        .chain((1..=8).flat_map(|x| (1..=8).flat_map(move |y| (1..=8).map(move |z| vec![x, y, z]))))
        .collect();
    let (mut as_cute, mut fixed) = (0, 0);
    for a in small_flat_layouts(2, &[0]) {
        // a compact layout spans its size; the complement is the rest mode
        let span = a.size().unwrap().value;
        for d in &dims {
            let s: Vec<String> = d.iter().map(|v| format!("_{v}")).collect();
            let cotarget = IntTuple::parse(&format!("({})", s.join(","))).unwrap();
            let n: i64 = d.iter().product();
            let r = complement(&a, &cotarget).unwrap();
            let both = CuteLayout::concat(&[a, r]).unwrap();
            let hit: BTreeSet<i64> = image(&both).into_iter().collect();
            assert!(
                (0..n).all(|j| hit.contains(&j)),
                "complement({a}, {cotarget}) = {r}"
            );
            let folded = cute_fold_size(d, span);
            let size = r.size().unwrap().value;
            if folded * span >= n {
                assert_eq!(size, folded, "complement({a}, {cotarget}) = {r}");
                as_cute += 1;
            } else {
                assert_eq!(
                    size,
                    (n + span - 1) / span,
                    "complement({a}, {cotarget}) = {r}"
                );
                fixed += 1;
            }
        }
    }
    assert!(
        as_cute > 10_000 && fixed > 1_000,
        "as CuTe {as_cute}, fixed {fixed}"
    );
}

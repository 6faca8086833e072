//! `complement`: CuTe's post-conditions (NVIDIA/cutlass
//! `test/unit/cute/core/complement.cpp`, numbered as in `layout.hpp`).

mod algebra_gen;
use algebra_gen::{image, layout, Strides};
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

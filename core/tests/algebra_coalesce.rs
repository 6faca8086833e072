//! `coalesce` and `filter`: CuTe's post-conditions over random layouts
//! (NVIDIA/cutlass `test/unit/cute/core/coalesce.cpp` checks the same).

mod algebra_gen;
use algebra_gen::{image, layout, Strides};
use proptest::prelude::*;
use std::collections::BTreeSet;
use tilelayout_core::algebra::{coalesce, coalesce_by, filter, IntTuple};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Post 1: same size; Post 2: depth <= 1; Post 3: same function.
    #[test]
    fn coalesce_keeps_the_function(l in layout(Strides::Any, 0.8)) {
        let c = coalesce(&l).unwrap();
        prop_assert_eq!(c.size().unwrap().value, l.size().unwrap().value);
        prop_assert!(c.depth() <= 1);
        prop_assert_eq!(image(&c), image(&l));
    }

    /// A static layout coalesces to the fewest modes: no two neighbouring
    /// modes of the result could be merged, and no static 1 is left.
    #[test]
    fn coalesce_of_static_is_minimal(l in layout(Strides::Any, 1.0)) {
        let c = coalesce(&l).unwrap().flatten();
        let n = c.shape().leaf_count();
        for k in 0..n {
            let s = c.shape().leaf(k).unwrap();
            prop_assert!(n == 1 || s.value != 1);
            if k + 1 < n {
                let d = c.stride().leaf(k).unwrap();
                let d2 = c.stride().leaf(k + 1).unwrap();
                prop_assert!(s.value * d.value != d2.value, "{} could merge", c);
            }
        }
    }

    /// By-mode coalesce keeps the rank and each mode's function.
    #[test]
    fn coalesce_by_profile_keeps_rank_and_modes(l in layout(Strides::Any, 0.8)) {
        let r = l.rank();
        let p = IntTuple::parse(&format!("({})", vec!["_1"; r].join(","))).unwrap();
        let c = coalesce_by(&l, &p).unwrap();
        if !l.shape().is_int() {
            prop_assert_eq!(c.rank(), r);
        }
        prop_assert_eq!(image(&c), image(&l));
    }

    /// filter keeps the set of indices and drops stride-0 and size-1 modes.
    #[test]
    fn filter_keeps_the_image_set(l in layout(Strides::Any, 1.0)) {
        let f = filter(&l).unwrap();
        let a: BTreeSet<i64> = image(&l).into_iter().collect();
        let b: BTreeSet<i64> = image(&f).into_iter().collect();
        prop_assert_eq!(a, b);
        let flat = f.flatten();
        for k in 0..flat.shape().leaf_count() {
            if flat.shape().leaf_count() > 1 {
                prop_assert!(flat.stride().leaf(k).unwrap().value != 0);
            }
        }
    }
}

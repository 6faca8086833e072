//! Inverses and common vectors: CuTe's post-conditions over random layouts
//! (NVIDIA/cutlass `test/unit/cute/core/inverse_left.cpp`,
//! `inverse_right.cpp`, `mixedbits.cpp` check the same).

mod algebra_gen;
use algebra_gen::{layout, Strides};
use proptest::prelude::*;
use tilelayout_core::algebra::{
    left_inverse, max_common_layout, max_common_vector, right_inverse, CuteLayout,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// right_inverse post: `A(R(i)) == i` for `i < size(R)`; for a compact
    /// static layout `R` covers all of it.
    #[test]
    fn right_inverse_post(a in layout(Strides::Any, 0.8)) {
        let r = right_inverse(&a).unwrap();
        for i in 0..r.size().unwrap().value {
            prop_assert_eq!(a.call(r.call(i).unwrap()).unwrap(), i, "{} {}", a, r);
        }
    }

    #[test]
    fn right_inverse_of_compact_is_total(a in layout(Strides::Compact, 1.0)) {
        let r = right_inverse(&a).unwrap();
        prop_assert_eq!(r.size().unwrap().value, a.size().unwrap().value);
    }

    /// left_inverse post: `A(L(A(i))) == A(i)`, and for an injective layout
    /// `L(A(i)) == i`.
    #[test]
    fn left_inverse_post(a in layout(Strides::Gaps, 1.0)) {
        let l = left_inverse(&a).unwrap();
        for i in 0..a.size().unwrap().value {
            let x = a.call(i).unwrap();
            prop_assert_eq!(l.call(x).unwrap(), i, "{} {}", a, l);
        }
    }

    /// max_common_layout post: `a(R(i)) == i == b(R(i))`; its size is
    /// max_common_vector.
    #[test]
    fn max_common(a in layout(Strides::Compact, 1.0)) {
        let b = CuteLayout::column_major(*a.shape()).unwrap();
        let (Ok(r), Ok(n)) = (max_common_layout(&a, &b), max_common_vector(&a, &b)) else {
            return Ok(());
        };
        prop_assert_eq!(r.size().unwrap().value, n.value);
        for i in 0..n.value {
            let j = r.call(i).unwrap();
            prop_assert_eq!(a.call(j).unwrap(), i);
            prop_assert_eq!(b.call(j).unwrap(), i);
        }
    }
}

#[test]
fn common_vector_of_a_layout_with_itself_is_its_contiguous_run() {
    let a = CuteLayout::parse("(_4,_8):(_1,_4)").unwrap();
    assert_eq!(max_common_vector(&a, &a).unwrap().value, 32);
    let b = CuteLayout::parse("(_4,_8):(_8,_1)").unwrap();
    assert_eq!(max_common_vector(&a, &b).unwrap().value, 1);
}

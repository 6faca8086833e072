//! `upcast` and `downcast` against their meaning: the same memory seen in
//! wider or narrower elements.

use proptest::prelude::*;
use tilelayout_core::algebra::{downcast, upcast, AlgebraErrorKind, CuteLayout, IntTuple};

fn compact(dims: &[i64], row_major: bool) -> CuteLayout {
    let s: Vec<String> = dims.iter().map(|v| format!("_{v}")).collect();
    let l =
        CuteLayout::column_major(IntTuple::parse(&format!("({})", s.join(","))).unwrap()).unwrap();
    if !row_major {
        return l;
    }
    // strides reversed: the last mode contiguous
    let mut d = vec![0i64; dims.len()];
    let mut cur = 1;
    for i in (0..dims.len()).rev() {
        d[i] = cur;
        cur *= dims[i];
    }
    let ds: Vec<String> = d.iter().map(|v| format!("_{v}")).collect();
    CuteLayout::parse(&format!("({}):({})", s.join(","), ds.join(","))).unwrap()
}

proptest! {
    /// upcast by n of a layout whose contiguous mode is a multiple of n:
    /// wide element `i` covers narrow elements `n*U(i) .. n*U(i)+n`, the
    /// ones at `L(j)` for the `j` with the same other coordinates.
    #[test]
    fn upcast_groups_contiguous_elements(
        dims in prop::collection::vec(1i64..=4, 1..=3),
        row_major in any::<bool>(),
        n in prop_oneof![Just(2i64), Just(4)],
    ) {
        let mut dims = dims;
        let k = if row_major { dims.len() - 1 } else { 0 };
        dims[k] *= n;
        let l = compact(&dims, row_major);
        let u = upcast(&l, n).unwrap();
        prop_assert_eq!(u.size().unwrap().value * n, l.size().unwrap().value);
        // downcast of a compact layout is compact over n times the elements
        let d = downcast(&l, n).unwrap();
        let mut img: Vec<i64> = (0..d.size().unwrap().value).map(|i| d.call(i).unwrap()).collect();
        img.sort();
        prop_assert_eq!(img, (0..l.size().unwrap().value * n).collect::<Vec<_>>());
        let mut wide: Vec<i64> = (0..u.size().unwrap().value).map(|i| u.call(i).unwrap()).collect();
        wide.sort();
        let mut narrow: Vec<i64> = (0..l.size().unwrap().value).map(|i| l.call(i).unwrap() / n).collect();
        narrow.sort();
        narrow.dedup();
        prop_assert_eq!(wide, narrow);
    }
}

#[test]
fn cast_preconditions() {
    let l = CuteLayout::parse("(_4,_3):(_3,_1)").unwrap();
    assert!(matches!(
        upcast(&l, 2).unwrap_err().kind,
        AlgebraErrorKind::CastDivisibility { mode: 1, .. }
            | AlgebraErrorKind::CastDivisibility { mode: 0, .. }
    ));
    let l = CuteLayout::parse("(_4,_3):(_3,_2)").unwrap();
    assert_eq!(
        downcast(&l, 2).unwrap_err().kind,
        AlgebraErrorKind::NotAdjacent
    );
    assert!(upcast(&l, 0).is_err());
    // a dynamic stride that is not a multiple of the factor (CuTe truncates)
    let l = CuteLayout::parse("(_8,_2):(1,_8)").unwrap();
    assert!(upcast(&l, 2).is_err());
}

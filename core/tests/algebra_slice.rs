//! Slicing: `slice(c, L)(i) + slice_offset == L(c with the _ filled by the
//! coordinate of i)`, exhaustively over small layouts.

mod algebra_gen;
use algebra_gen::{layout, Strides};
use proptest::prelude::*;
use tilelayout_core::algebra::{slice, slice_offset, CuteLayout, IntTuple, SliceCoord};

proptest! {
    /// Slicing mode `k` of a rank-2 layout at each index of the other.
    #[test]
    fn slice_rows_and_columns(a in layout(Strides::Any, 0.8), b in layout(Strides::Any, 0.8)) {
        let l = CuteLayout::concat(&[a, b]).unwrap();
        let (na, nb) = (a.size().unwrap().value, b.size().unwrap().value);
        prop_assume!(na * nb <= 4096);
        for j in 0..nb.min(8) {
            let c = SliceCoord::parse(&format!("(_,{j})")).unwrap();
            let s = slice(&l, &c).unwrap();
            let off = slice_offset(&l, &c).unwrap().value;
            prop_assert_eq!(s.rank(), 1);
            for i in 0..na {
                let full = IntTuple::parse(&format!("({i},{j})")).unwrap();
                prop_assert_eq!(s.call(i).unwrap() + off, l.crd2idx(&full).unwrap().value);
            }
        }
    }
}

#[test]
fn nested_and_trivial_slices() {
    let l = CuteLayout::parse("((_2,_3),(_4,_5)):((_1,_2),(_6,_24))").unwrap();
    let s = |c: &str| {
        slice(&l, &SliceCoord::parse(c).unwrap())
            .unwrap()
            .to_string()
    };
    assert_eq!(s("_"), "((_2,_3),(_4,_5)):((_1,_2),(_6,_24))");
    assert_eq!(s("(_,_)"), "((_2,_3),(_4,_5)):((_1,_2),(_6,_24))");
    assert_eq!(s("((_,1),(_,_))"), "(_2,_4,_5):(_1,_6,_24)");
    assert_eq!(s("(1,_)"), "((_4,_5)):((_6,_24))");
    assert_eq!(s("(1,2)"), "():()");
    assert!(slice(&l, &SliceCoord::parse("(_,_,_)").unwrap()).is_err());
    let e = SliceCoord::parse("(_,x)").unwrap_err();
    assert_eq!(e.span.start, 3);
}

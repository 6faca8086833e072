//! CuTe's worked examples (NVIDIA/cutlass `media/docs/cpp/cute/01_layout.md`
//! and `02_layout_algebra.md`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4), and CuTe issue #3513, as
//! tests: the printed results are the documents' own.

use tilelayout_core::algebra::{
    coalesce, coalesce_by, complement, composition, composition_tiler, evaluate, logical_divide,
    logical_product, zipped_divide, AlgebraErrorKind, CuteLayout, IntTuple, Op, Tiler,
};

#[track_caller]
fn l(s: &str) -> CuteLayout {
    CuteLayout::parse(s).unwrap()
}

#[track_caller]
fn t(s: &str) -> Tiler {
    Tiler::parse(s).unwrap()
}

#[test]
fn coalesce_examples() {
    let a = l("(_2,(_1,_6)):(_1,(_6,_2))");
    assert_eq!(coalesce(&a).unwrap().to_string(), "_12:_1");
    let p = IntTuple::parse("(_1,_1)").unwrap();
    assert_eq!(coalesce_by(&a, &p).unwrap().to_string(), "(_2,_6):(_1,_2)");
}

#[test]
fn composition_examples() {
    // the document derives ((2,2),3):((24,2),8) by hand; CuTe itself keeps
    // the dynamic size-1 mode, and so do we
    let r = composition(&l("(6,2):(8,2)"), &l("(4,3):(3,1)")).unwrap();
    assert_eq!(r.to_string(), "((2,2),(3,1)):((24,2),(8,2))");
    // the static and the dynamic spelling of the same composition
    let r = composition(&l("(_10,_2):(_16,_4)"), &l("(_5,_4):(_1,_5)")).unwrap();
    assert_eq!(r.to_string(), "(_5,(_2,_2)):(_16,(_80,_4))");
    let r = composition(&l("(10,2):(16,4)"), &l("(5,4):(1,5)")).unwrap();
    assert_eq!(r.to_string(), "((5,1),(2,2)):((16,4),(80,4))");
    // the trivial cases
    assert_eq!(
        composition(&l("20:2"), &l("5:4")).unwrap().to_string(),
        "5:8"
    );
    assert_eq!(
        composition(&l("20:2"), &l("4:1")).unwrap().to_string(),
        "4:2"
    );
    // by-mode tilers
    let a = l("(12,(4,8)):(59,(13,1))");
    let r = composition_tiler(&a, &t("(_3:_4,_8:_2)")).unwrap();
    assert_eq!(r.to_string(), "(_3,(2,4)):(236,(26,1))");
    let r = composition_tiler(&a, &t("(_3,_8)")).unwrap();
    assert_eq!(r.to_string(), "(_3,(4,2)):(59,(13,1))");
}

#[test]
fn complement_examples() {
    let c = |s: &str| complement(&l(s), &IntTuple::fixed(24)).unwrap().to_string();
    assert_eq!(c("_4:_1"), "_6:_4");
    assert_eq!(c("_6:_4"), "_4:_1");
    assert_eq!(c("(_4,_6):(_1,_4)"), "_1:_0");
    assert_eq!(c("_4:_2"), "(_2,_3):(_1,_8)");
    assert_eq!(c("(_2,_4):(_1,_6)"), "_3:_2");
    assert_eq!(c("(_2,_2):(_1,_6)"), "(_3,_2):(_2,_12)");
}

#[test]
fn divide_examples() {
    let r = logical_divide(&l("(_4,_2,_3):(_2,_1,_8)"), &t("_4:_2")).unwrap();
    assert_eq!(r.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
    let a = l("(_9,(_4,_8)):(_59,(_13,_1))");
    let tiler = t("(_3:_3,(_2,_4):(_1,_8))");
    let ld = logical_divide(&a, &tiler).unwrap();
    // ((TileM,RestM), (TileN,RestN)) with shape ((3,3), (8,4))
    assert_eq!(ld.mode(0).unwrap().size().unwrap().value, 9);
    assert_eq!(ld.mode(0).unwrap().mode(0).unwrap().to_string(), "_3:_177");
    let zd = zipped_divide(&a, &tiler).unwrap();
    // the tile is the composition (3,(2,4)):(177,(13,2))
    assert_eq!(
        zd.mode(0).unwrap().to_string(),
        "(_3,(_2,_4)):(_177,(_13,_2))"
    );
    assert_eq!(zd.mode(1).unwrap().size().unwrap().value, 12);
}

#[test]
fn product_examples() {
    let r = logical_product(&l("(_2,_2):(_4,_1)"), &t("_6:_1")).unwrap();
    assert_eq!(r.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
}

/// NVIDIA/cutlass issue #3513: `zipped_divide` of a static 384-element
/// layout by a dynamic 128 returns a 288-element layout in CuTe; here it is
/// an error naming the mode. A dynamic tiler that divides (12) works.
#[test]
fn issue_3513_dynamic_tiler_that_does_not_divide_is_an_error() {
    let a = "(_12,(_4,_8)):(_7,(_1,_30))";
    let e = evaluate(Op::ZippedDivide, &[a, "128"]).unwrap_err();
    // mode 0 of the layout (shape 12) cannot hold tiles of 128 evenly
    assert_eq!(
        e.kind,
        AlgebraErrorKind::ShapeDivisibility {
            mode: 0,
            shape: 128,
            divisor: 12
        }
    );
    assert_eq!(
        e.to_string(),
        "shape divisibility: in mode 0 of the left layout, 128 is not divisible by 12; \
         make the tile a divisor of the mode"
    );
    let ok = evaluate(Op::ZippedDivide, &[a, "12"]).unwrap();
    let ok = match ok {
        tilelayout_core::algebra::Value::Layout(l) => l,
        v => panic!("{v}"),
    };
    assert_eq!(ok.size().unwrap().value, 384);
}

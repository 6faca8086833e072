//! The operation types on and into swizzled layouts (`LogicalDivide<Sw o
//! _0 o L, T>`, `SwizzleComposition<Sw, L>`, `CompositionSwizzle<L, Sw>`,
//! `CompositionComposed<L, Sw o _0 o B>`, …) against the core's value
//! functions on the same operands: the same text, and on every index the
//! type's own folded `index`/`offset` equal the value's `call`; and the
//! verdicts of failing types, which name the operation that failed.

use tilelayout::algebra::{
    composition_composed, composition_swizzle, swizzle_composition, AnyLayout, ComposedLayout,
    CuteLayout, IntTuple, Swizzle, SwizzledInverse, Tiler,
};
use tilelayout::{
    cute, AlgebraLayout, BlockedProduct, ByMode, Coalesce, CoalesceBy, Complement, ComplementTo,
    ComposedAlgebraLayout, Composition, CompositionComposed, CompositionSwizzle, CuteType,
    Downcast, Filter, FilterZeros, FlatDivide, LeftInverse, LogicalDivide, LogicalProduct,
    MaxCommonVector, RakedProduct, RightInverse, Sw, SwizzleComposition, TileToShape,
    TileToShapeOrdered, TiledDivide, TiledProduct, Upcast, ZippedDivide, ZippedProduct, C,
};

/// The top-level coordinate of the 1-D index `i` (colexicographic, the
/// last mode unbounded), from the value's mode sizes.
fn top_coord<const N: usize>(l: &CuteLayout, i: usize) -> [usize; N] {
    let mut c = [0; N];
    let mut rest = i;
    for (m, x) in c.iter_mut().enumerate() {
        if m + 1 == N {
            *x = rest;
        } else {
            let s = l.mode(m).unwrap().size().unwrap().value as usize;
            *x = rest % s;
            rest /= s;
        }
    }
    c
}

/// `A` is the core's swizzled layout `want`: text, size and every index
/// by `index` and `offset`.
#[track_caller]
fn swizzled_agree<A: ComposedAlgebraLayout, const N: usize>(want: ComposedLayout) {
    assert!(A::VERDICT.is_ok(), "{:?}", A::VERDICT);
    assert_eq!(A::LAYOUT, want);
    assert_eq!(A::TEXT, want.to_text().as_str());
    assert_eq!(A::RANK, N, "{}", A::TEXT);
    assert_eq!(A::SIZE as i64, want.size().unwrap().value);
    for i in 0..A::SIZE {
        let at = want.call(i as i64).unwrap();
        assert_eq!(A::index(i) as i64, at, "{} at {i}", A::TEXT);
        let c: [usize; N] = top_coord(&want.layout, i);
        assert_eq!(A::offset(c) as i64, at, "{} at {c:?}", A::TEXT);
    }
}

/// `A` is the core's plain layout `want` on every index.
#[track_caller]
fn plain_agree<A: AlgebraLayout, const N: usize>(want: CuteLayout) {
    assert!(A::VERDICT.is_ok(), "{:?}", A::VERDICT);
    assert_eq!(A::LAYOUT, want);
    assert_eq!(A::TEXT, want.to_text().as_str());
    for i in 0..A::SIZE {
        let at = want.call(i as i64).unwrap();
        assert_eq!(A::index(i) as i64, at, "{} at {i}", A::TEXT);
        let c: [usize; N] = A::idx2crd(i);
        assert_eq!(A::offset(c) as i64, at, "{} at {c:?}", A::TEXT);
    }
}

fn composed(text: &str) -> ComposedLayout {
    ComposedLayout::parse(text).unwrap()
}

fn tiler(text: &str) -> Tiler {
    Tiler::parse(text).unwrap()
}

fn layout(text: &str) -> CuteLayout {
    CuteLayout::parse(text).unwrap()
}

fn shape(text: &str) -> IntTuple {
    IntTuple::parse(text).unwrap()
}

type S64 = cute!(Sw<3,3,3> o _0 o (_8,_64):(_64,_1));
const S64: &str = "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)";
type S16 = cute!(Sw<2,0,-3> o _0 o (_8,_8):(_8,_1));
const S16: &str = "Sw<2,0,-3> o _0 o (_8,_8):(_8,_1)";
type Off = cute!(Sw<2,1,2> o _8 o (_4,_16):(_16,_1));
const OFF: &str = "Sw<2,1,2> o _8 o (_4,_16):(_16,_1)";

/// Every operation CuTe applies to the inner layout of a swizzled layout,
/// as a type, equals the core's `ComposedLayout` method on the same
/// operands.
#[test]
fn operations_on_swizzled_layouts_are_the_cores() {
    let s64 = composed(S64);
    let s16 = composed(S16);
    let off = composed(OFF);
    swizzled_agree::<Coalesce<S64>, 2>(s64.coalesce().unwrap());
    swizzled_agree::<Coalesce<Off>, 2>(off.coalesce().unwrap());
    swizzled_agree::<CoalesceBy<S16, (C<1>, C<1>)>, 2>(s16.coalesce_by(&shape("(_1,_1)")).unwrap());
    swizzled_agree::<Composition<S64, ByMode<(C<4>, C<16>)>>, 2>(
        s64.composition(&tiler("(_4,_16)")).unwrap(),
    );
    swizzled_agree::<LogicalDivide<S64, ByMode<(C<2>, C<8>)>>, 2>(
        s64.logical_divide(&tiler("(_2,_8)")).unwrap(),
    );
    swizzled_agree::<ZippedDivide<Off, ByMode<(C<2>, C<4>)>>, 2>(
        off.zipped_divide(&tiler("(_2,_4)")).unwrap(),
    );
    swizzled_agree::<TiledDivide<S16, ByMode<(C<2>, C<2>)>>, 3>(
        s16.tiled_divide(&tiler("(_2,_2)")).unwrap(),
    );
    swizzled_agree::<FlatDivide<S16, ByMode<(C<4>, C<2>)>>, 4>(
        s16.flat_divide(&tiler("(_4,_2)")).unwrap(),
    );
    swizzled_agree::<LogicalProduct<S16, cute!(_2:_1)>, 2>(
        s16.logical_product(&tiler("_2:_1")).unwrap(),
    );
    swizzled_agree::<ZippedProduct<S16, ByMode<(C<2>, C<1>)>>, 2>(
        s16.zipped_product(&tiler("(_2,_1)")).unwrap(),
    );
    swizzled_agree::<TiledProduct<S16, ByMode<(C<1>, C<2>)>>, 3>(
        s16.tiled_product(&tiler("(_1,_2)")).unwrap(),
    );
    swizzled_agree::<BlockedProduct<S16, cute!((_2,_1):(_1,_2))>, 2>(
        s16.blocked_product(&layout("(_2,_1):(_1,_2)")).unwrap(),
    );
    swizzled_agree::<RakedProduct<S16, cute!((_1,_2):(_1,_1))>, 2>(
        s16.raked_product(&layout("(_1,_2):(_1,_1)")).unwrap(),
    );
    swizzled_agree::<TileToShape<S16, (C<16>, C<8>)>, 2>(
        s16.tile_to_shape(&shape("(_16,_8)")).unwrap(),
    );
    swizzled_agree::<TileToShapeOrdered<S16, (C<16>, C<16>), (C<2>, C<1>)>, 2>(
        s16.tile_to_shape_ordered(&shape("(_16,_16)"), &shape("(_2,_1)"))
            .unwrap(),
    );
    swizzled_agree::<Upcast<S64, 2>, 2>(s64.upcast(2).unwrap());
    swizzled_agree::<Downcast<S64, 2>, 2>(s64.downcast(2).unwrap());
    let inverse = |r: SwizzledInverse| match r {
        SwizzledInverse::Composed(c) => c,
        SwizzledInverse::Input(i) => panic!("{i}"),
    };
    swizzled_agree::<RightInverse<S64>, 2>(inverse(s64.right_inverse().unwrap()));
    swizzled_agree::<LeftInverse<S16>, 2>(inverse(s16.left_inverse().unwrap()));
    // the complement of a swizzled layout is its inner layout's, plain
    plain_agree::<Complement<S64>, 1>(s64.complement().unwrap());
    plain_agree::<ComplementTo<Off, C<256>>, 1>(off.complement_to(&shape("_256")).unwrap());
    // nested: a divide of a product of a swizzled layout
    let nested = s16
        .logical_product(&tiler("_2:_1"))
        .unwrap()
        .logical_divide(&tiler("_4:_1"))
        .unwrap();
    swizzled_agree::<LogicalDivide<LogicalProduct<S16, cute!(_2:_1)>, cute!(_4:_1)>, 2>(nested);
}

/// Composition with a swizzle on either side, against the core.
#[test]
fn composition_with_a_swizzle_is_the_cores() {
    let sw = Swizzle::new(3, 3, 3).unwrap();
    let l = layout("(_8,_64):(_64,_1)");
    let AnyLayout::Swizzled(want) = swizzle_composition(&sw, &l) else {
        panic!("a swizzle of 3 bits")
    };
    swizzled_agree::<SwizzleComposition<Sw<3, 3, 3>, cute!((_8,_64):(_64,_1))>, 2>(want);
    // negative shift
    let sw = Swizzle::new(2, 0, -2).unwrap();
    let l = layout("(_4,_4):(_4,_1)");
    let AnyLayout::Swizzled(want) = swizzle_composition(&sw, &l) else {
        panic!("a swizzle of 2 bits")
    };
    swizzled_agree::<SwizzleComposition<Sw<2, 0, -2>, cute!((_4,_4):(_4,_1))>, 2>(want);

    for (a, b) in [
        ("(_8,_8):(_8,_1)", (2, 0, 3)),
        ("(_8,_8):(_1,_8)", (3, 0, 3)),
    ] {
        let sw = Swizzle::new(b.0, b.1, b.2).unwrap();
        let r = composition_swizzle(&layout(a), &sw).unwrap();
        let AnyLayout::Swizzled(want) = r else {
            panic!("{r}")
        };
        if a.starts_with("(_8,_8):(_8,_1)") {
            swizzled_agree::<CompositionSwizzle<cute!((_8,_8):(_8,_1)), Sw<2, 0, 3>>, 2>(want);
        } else {
            swizzled_agree::<CompositionSwizzle<cute!((_8,_8):(_1,_8)), Sw<3, 0, 3>>, 2>(want);
        }
    }

    let r = composition_composed(
        &layout("(_8,_8):(_1,_8)"),
        &composed("Sw<2,0,3> o _0 o _32:_1"),
    );
    let AnyLayout::Swizzled(want) = r.unwrap() else {
        panic!("swizzled")
    };
    swizzled_agree::<CompositionComposed<cute!((_8,_8):(_1,_8)), cute!(Sw<2,0,3> o _0 o _32:_1)>, 1>(
        want,
    );
    let r = composition_composed(
        &layout("(_8,_64):(_64,_1)"),
        &composed("Sw<3,3,3> o _0 o (_8,_64):(_1,_8)"),
    );
    let AnyLayout::Swizzled(want) = r.unwrap() else {
        panic!("swizzled")
    };
    swizzled_agree::<
        CompositionComposed<cute!((_8,_64):(_64,_1)), cute!(Sw<3,3,3> o _0 o (_8,_64):(_1,_8))>,
        2,
    >(want);
}

/// A swizzle of no bits is the identity: the core gives the plain layout,
/// which the type prints, and it folds the same offsets.
#[test]
fn a_swizzle_of_no_bits_prints_the_plain_layout() {
    type A = SwizzleComposition<Sw<0, 4, 3>, cute!((_4,_8):(_8,_1))>;
    let AnyLayout::Plain(l) = swizzle_composition(&Swizzle::NONE, &layout("(_4,_8):(_8,_1)"))
    else {
        panic!("plain")
    };
    assert_eq!(A::TEXT, l.to_text().as_str());
    for i in 0..A::SIZE {
        assert_eq!(A::index(i) as i64, l.call(i as i64).unwrap());
    }
}

/// `filter_zeros` on plain layouts, against the core.
#[test]
fn filter_zeros_is_the_cores() {
    let want = tilelayout::algebra::filter_zeros(&layout("(_4,(_2,_3)):(_0,(_1,_0))"));
    plain_agree::<FilterZeros<cute!((_4,(_2,_3)):(_0,(_1,_0)))>, 2>(want);
    assert_eq!(want.to_text().as_str(), "(_1,(_2,_1)):(_0,(_1,_0))");
    assert!(<FilterZeros<S16>>::VERDICT.message().is_some());
}

/// `tile_to_shape` with an order, on plain layouts: CuTe's documented
/// `Step<_2,_1>` example and the core on more targets.
#[test]
fn tile_to_shape_ordered_is_the_cores() {
    plain_agree::<TileToShapeOrdered<cute!((_2,_2):(_1,_2)), (C<4>, C<6>), (C<2>, C<1>)>, 2>(
        layout("((_2,_2),(_2,_3)):((_1,_12),(_2,_4))"),
    );
    let b = layout("(_4,_2):(_2,_1)");
    let want = tilelayout::algebra::tile_to_shape_ordered(
        &b,
        &shape("(_16,_12,_3)"),
        &shape("(_1,_3,_2)"),
    )
    .unwrap();
    plain_agree::<
        TileToShapeOrdered<cute!((_4,_2):(_2,_1)), (C<16>, C<12>, C<3>), (C<1>, C<3>, C<2>)>,
        3,
    >(want);
}

/// Failing types: the verdict names the operation that failed (the
/// innermost), the core's message, and the operands; types built on a
/// failed one carry its verdict unchanged; nothing panics to compute it.
#[test]
fn verdicts_name_the_failed_operation() {
    type Bad = ZippedDivide<cute!((_12,(_4,_8)):(_7,(_1,_30))), C<128>>;
    let m = Bad::VERDICT.message().unwrap().to_owned();
    assert_eq!(
        m,
        "ZippedDivide<A, B>: shape divisibility: in mode 0 of the left layout, 128 is not \
         divisible by 12; make the tile a divisor of the mode (A = (_12,(_4,_8)):(_7,(_1,_30)), \
         B = _128)"
    );
    assert_eq!(
        <Coalesce<LogicalProduct<Bad, C<2>>>>::VERDICT.message(),
        Some(m.as_str())
    );
    assert_eq!(<Upcast<Bad, 2>>::VERDICT.message(), Some(m.as_str()));
    assert_eq!(
        <MaxCommonVector<Bad, Bad>>::VERDICT.message(),
        Some(m.as_str())
    );
    // the core's error as the verdict's middle part
    let core = tilelayout::algebra::upcast(&layout("(_4,_3):(_3,_1)"), 2).unwrap_err();
    let v = <Upcast<cute!((_4,_3):(_3,_1)), 2>>::VERDICT;
    assert!(v
        .message()
        .unwrap()
        .starts_with(&format!("Upcast<A, N>: {core}")));
    // the mode of a by-mode tiler where the condition failed
    let v = <Composition<cute!((_4,(_4,_3)):(_1,(_1,_5))), ByMode<(C<2>, cute!(_3:_3))>>>::VERDICT;
    assert!(
        v.message()
            .unwrap()
            .contains("; at mode 1 of the right operand"),
        "{v:?}"
    );
    // swizzled operands where only plain ones are defined
    let v = <Filter<S64>>::VERDICT;
    assert!(
        v.message().unwrap().starts_with("Filter<A>: not supported"),
        "{v:?}"
    );
    let v = <SwizzleComposition<Sw<3, 3, 2>, cute!(_8:_1)>>::VERDICT;
    assert!(
        v.message().unwrap().starts_with("Sw<3,3,2>: swizzle"),
        "{v:?}"
    );
    let v = <CompositionComposed<cute!(_8:_1), cute!(_8:_1)>>::VERDICT;
    assert!(
        v.message().unwrap().contains("use Composition<L, B>"),
        "{v:?}"
    );
    // good types
    assert!(<LogicalDivide<S64, C<8>>>::VERDICT.is_ok());
    assert!(<CompositionSwizzle<cute!((_8,_8):(_8,_1)), Sw<2, 0, 3>>>::VERDICT.is_ok());
}

tilelayout::assert_cute!(
    LogicalDivide<S64, ByMode<(C<2>, C<8>)>>,
    Upcast<S64, 2>,
    Complement<S64>,
    SwizzleComposition<Sw<3, 3, 3>, cute!((_8,_64):(_64,_1))>,
    CompositionSwizzle<cute!((_8,_8):(_8,_1)), Sw<2, 0, 3>>,
    TileToShapeOrdered<cute!((_2,_2):(_1,_2)), (C<4>, C<6>), (C<2>, C<1>)>,
);

/// `A` folds the core's swizzled layout `want` on every 1-D index.
#[track_caller]
fn same_indices<A: ComposedAlgebraLayout>(want: ComposedLayout) {
    assert_eq!(A::TEXT, want.to_text().as_str());
    assert_eq!(A::SIZE as i64, want.size().unwrap().value, "{}", A::TEXT);
    for i in 0..A::SIZE {
        assert_eq!(
            A::index(i) as i64,
            want.call(i as i64).unwrap(),
            "{} at {i}",
            A::TEXT
        );
    }
}

/// Each swizzled layout below through every operation with operands that
/// fit it: the type equals the core's method on the parsed text.
macro_rules! grid {
    ($($t:ty = $text:expr;)+) => {$({
        type L = $t;
        let c = composed($text);
        same_indices::<Coalesce<L>>(c.coalesce().unwrap());
        same_indices::<CoalesceBy<L, (C<1>, C<1>)>>(c.coalesce_by(&shape("(_1,_1)")).unwrap());
        same_indices::<Composition<L, ByMode<(C<2>, C<4>)>>>(
            c.composition(&tiler("(_2,_4)")).unwrap(),
        );
        same_indices::<LogicalDivide<L, C<2>>>(c.logical_divide(&tiler("_2")).unwrap());
        same_indices::<ZippedDivide<L, ByMode<(C<2>, C<2>)>>>(
            c.zipped_divide(&tiler("(_2,_2)")).unwrap(),
        );
        same_indices::<TiledDivide<L, ByMode<(C<4>, C<2>)>>>(
            c.tiled_divide(&tiler("(_4,_2)")).unwrap(),
        );
        same_indices::<FlatDivide<L, ByMode<(C<2>, C<4>)>>>(
            c.flat_divide(&tiler("(_2,_4)")).unwrap(),
        );
        same_indices::<LogicalProduct<L, cute!(_2:_1)>>(
            c.logical_product(&tiler("_2:_1")).unwrap(),
        );
        same_indices::<ZippedProduct<L, ByMode<(C<1>, C<2>)>>>(
            c.zipped_product(&tiler("(_1,_2)")).unwrap(),
        );
        same_indices::<TiledProduct<L, ByMode<(C<2>, C<1>)>>>(
            c.tiled_product(&tiler("(_2,_1)")).unwrap(),
        );
        same_indices::<BlockedProduct<L, cute!((_2,_1):(_1,_2))>>(
            c.blocked_product(&layout("(_2,_1):(_1,_2)")).unwrap(),
        );
        same_indices::<RakedProduct<L, cute!((_1,_2):(_1,_1))>>(
            c.raked_product(&layout("(_1,_2):(_1,_1)")).unwrap(),
        );
        same_indices::<TileToShape<L, (C<16>, C<64>)>>(
            c.tile_to_shape(&shape("(_16,_64)")).unwrap(),
        );
        same_indices::<TileToShapeOrdered<L, (C<16>, C<64>), (C<2>, C<1>)>>(
            c.tile_to_shape_ordered(&shape("(_16,_64)"), &shape("(_2,_1)")).unwrap(),
        );
        same_indices::<Upcast<L, 2>>(c.upcast(2).unwrap());
        same_indices::<Downcast<L, 4>>(c.downcast(4).unwrap());
        let cm = c.complement().unwrap();
        assert_eq!(<Complement<L> as AlgebraLayout>::TEXT, cm.to_text().as_str());
        for i in 0..<Complement<L> as AlgebraLayout>::SIZE {
            assert_eq!(<Complement<L> as AlgebraLayout>::index(i) as i64, cm.call(i as i64).unwrap());
        }
    })+};
}

#[test]
fn swizzled_layouts_through_every_operation() {
    grid! {
        S64 = S64;
        S16 = S16;
        Off = OFF;
        cute!(Sw<1,2,1> o _0 o (_4,_16):(_1,_4)) = "Sw<1,2,1> o _0 o (_4,_16):(_1,_4)";
        cute!(Sw<3,4,3> o _0 o (_8,(_8,_8)):(_64,(_1,_8))) = "Sw<3,4,3> o _0 o (_8,(_8,_8)):(_64,(_1,_8))";
    }
}

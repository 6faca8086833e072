//! CuTe's layout algebra as types (`Composition<A, B>`, `LogicalDivide<A,
//! Tiler>`, …) against CuTe's own outputs: every result type's text is what
//! CuTe printed (its documented examples, and lines of
//! `core/tests/data/cute_vectors.tsv` with static operands), and its index
//! functions (their own code, not the core's) agree on every index with
//! CuTe's printed layout evaluated by the value algebra.

use tilelayout::algebra::{CuteLayout as Value, Int, IntTuple};
use tilelayout::{
    assert_cute, cute, AlgebraLayout, BlockedProduct, ByMode, Coalesce, CoalesceBy, Complement,
    ComplementTo, Composition, Downcast, Filter, FlatDivide, LeftInverse, LogicalDivide,
    LogicalProduct, MaxCommonLayout, MaxCommonVector, RakedProduct, RightInverse, TileToShape,
    TiledDivide, TiledProduct, Upcast, ZippedDivide, ZippedProduct, C,
};

/// `A` is CuTe's `want`: same text, constants, and every index by
/// `index`, `offset` and `idx2crd`.
fn agree<A: AlgebraLayout, const N: usize>(want: &str) {
    let v = Value::parse(want).unwrap();
    assert_eq!(A::TEXT, want);
    assert_eq!(A::SIZE as i64, v.size().unwrap().value, "{want}");
    assert_eq!(A::COSIZE as i64, v.cosize().unwrap().value, "{want}");
    assert_eq!((A::RANK, A::DEPTH), (v.rank(), v.depth()), "{want}");
    for i in 0..A::SIZE {
        let at = v.call(i as i64).unwrap();
        assert_eq!(A::index(i) as i64, at, "{want} at {i}");
        let c: [usize; N] = A::idx2crd(i);
        assert_eq!(A::offset(c) as i64, at, "{want} at {c:?}");
        let mut t = IntTuple::EMPTY;
        for &x in &c {
            t = t.push_int(Int::dynamic(x as i64)).unwrap();
        }
        if v.shape().is_int() {
            t = IntTuple::dynamic(c[0] as i64);
        }
        assert_eq!(v.crd2idx(&t).unwrap().value, at, "{want} at {c:?}");
    }
}

/// CuTe's worked examples (NVIDIA/cutlass 7107b05535f8977f5ecb9d01ee203205b1fd9bc4,
/// `media/docs/cpp/cute/02_layout_algebra.md`), static throughout.
#[test]
fn cute_documented_examples() {
    agree::<Coalesce<cute!((_2,(_1,_6)):(_1,(_6,_2)))>, 1>("_12:_1");
    agree::<CoalesceBy<cute!((_2,(_1,_6)):(_1,(_6,_2))), (C<1>, C<1>)>, 2>("(_2,_6):(_1,_2)");
    agree::<Composition<cute!((_6,_2):(_8,_2)), cute!((_4,_3):(_3,_1))>, 2>(
        "((_2,_2),_3):((_24,_2),_8)",
    );
    // by-mode composition: mode 0 by 3:4, mode 1 by 8:2
    agree::<
        Composition<cute!((_12,(_4,_8)):(_59,(_13,_1))), ByMode<(cute!(_3:_4), cute!(_8:_2))>>,
        2,
    >("(_3,(_2,_4)):(_236,(_26,_1))");
    agree::<ComplementTo<cute!((_2,_2):(_1,_6)), C<24>>, 2>("(_3,_2):(_2,_12)");
    agree::<ComplementTo<cute!(_4:_1), C<24>>, 1>("_6:_4");
    agree::<LogicalDivide<cute!((_4,_2,_3):(_2,_1,_8)), cute!(_4:_2)>, 2>(
        "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))",
    );
    agree::<LogicalProduct<cute!((_2,_2):(_4,_1)), cute!(_6:_1)>, 2>(
        "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))",
    );
    agree::<BlockedProduct<cute!((_2,_5):(_5,_1)), cute!((_3,_4):(_1,_3))>, 2>(
        "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))",
    );
    agree::<RakedProduct<cute!((_2,_5):(_5,_1)), cute!((_3,_4):(_1,_3))>, 2>(
        "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))",
    );
    agree::<TiledDivide<cute!((_8,_64):(_64,_1)), ByMode<(C<2>, C<8>)>>, 3>(
        "((_2,_8),_4,_8):((_64,_1),_128,_8)",
    );
    agree::<TileToShape<cute!((_2,_2):(_1,_2)), (C<4>, C<6>)>, 2>(
        "((_2,_2),(_2,_3)):((_1,_4),(_2,_8))",
    );
    agree::<RightInverse<cute!((_4,_8):(_8,_1))>, 2>("(_8,_4):(_4,_1)");
}

/// Operation types nest (each result as the value algebra gives it, step
/// by step: `tilelayout cute`).
#[test]
fn operation_types_nest() {
    type A = cute!((_4,_8):(_8,_1));
    type B = Composition<A, RightInverse<A>>;
    // A o A⁻¹ is the identity on A's codomain
    agree::<Coalesce<B>, 1>("_32:_1");
    type P = BlockedProduct<cute!((_2,_2):(_1,_2)), cute!((_2,_4):(_1,_2))>;
    agree::<P, 2>("((_2,_2),(_2,_4)):((_1,_4),(_2,_8))");
    agree::<ZippedDivide<P, ByMode<(C<2>, C<2>)>>, 2>("((_2,_2),(_2,_4)):((_1,_2),(_4,_8))");
    agree::<Upcast<P, 2>, 2>("((_1,_2),(_2,_4)):((_1,_2),(_1,_4))");
    agree::<Filter<Upcast<P, 2>>, 3>("(_2,_2,_4):(_2,_1,_4)");
    agree::<Downcast<Upcast<P, 2>, 2>, 2>("((_2,_2),(_4,_4)):((_1,_4),(_1,_8))");
    // the constants are usable in const items
    const N: usize = <ZippedDivide<P, ByMode<(C<2>, C<2>)>> as AlgebraLayout>::COSIZE;
    assert_eq!(N, 32);
}

assert_cute!(
    LogicalDivide<cute!((_4,_2,_3):(_2,_1,_8)), cute!(_4:_2)>,
    Complement<cute!((_2,_2):(_1,_6))>,
    LeftInverse<cute!((_4,_8):(_8,_1))>,
    MaxCommonLayout<cute!((_4,_8):(_1,_4)), cute!((_4,_8):(_1,_4))>,
    FlatDivide<cute!((_8,_8):(_1,_8)), ByMode<(C<2>, C<4>)>>,
    ZippedProduct<cute!((_2,_2):(_1,_2)), C<3>>,
    TiledProduct<cute!((_2,_2):(_1,_2)), ByMode<(C<3>, C<2>)>>,
);

/// `max_common_vector`, an integer: CuTe's vectors with static operands.
#[test]
fn max_common_vector_is_cutes() {
    assert_eq!(
        MaxCommonVector::<
            cute!("((_2,_4,_4),(_2,_8)):((_4,_512,_1),(_256,_16))"),
            cute!("((_4)):((_1))"),
        >::VALUE,
        1
    );
    assert_eq!(MaxCommonVector::<cute!("(_8,(_1,_2)):(_4,(_4,_1))"), cute!("((_4,_2,_16)):((_2,_1,_8))")>::VALUE, 1);
    assert_eq!(
        MaxCommonVector::<cute!("_4:_1"), cute!("((_1,_1,_2),_2):((_2,_4,_1),_2)")>::VALUE,
        4
    );
    assert_eq!(
        MaxCommonVector::<cute!("((_6)):((_1))"), cute!("(_16):(_1)")>::VALUE,
        16
    );
    assert_eq!(
        MaxCommonVector::<cute!("((_4,_4,_6)):((_1,_24,_4))"), cute!("_1:_1")>::VALUE,
        1
    );
    assert_eq!(
        MaxCommonVector::<
            cute!("((_2),(_1,_2,_8),_2):((_16),(_8,_4,_32),_1)"),
            cute!("((_1,_16)):((_16,_1))"),
        >::VALUE,
        1
    );
    assert_eq!(
        MaxCommonVector::<cute!("(_4,_6):(_6,_1)"), cute!("(_4):(_1)")>::VALUE,
        1
    );
    assert_eq!(
        MaxCommonVector::<cute!("(_2):(_1)"), cute!("(_1):(_1)")>::VALUE,
        1
    );
}

/// Lines of CuTe's vectors with static operands, up to 10 per operation
/// (generated by `python3 tools/gen-type-tests/cute_ops.py 10`).
#[test]
fn cute_vectors_as_types() {
    agree::<Coalesce<cute!("(_4):(_16)")>, 1>("_4:_16");
    agree::<CoalesceBy<cute!("(_4):(_16)"), (C<1>,)>, 1>("(_4):(_16)");
    agree::<Filter<cute!("(_4):(_16)")>, 1>("_4:_16");
    agree::<Complement<cute!("((_4)):((_1))")>, 1>("_1:_0");
    agree::<ComplementTo<cute!("((_4)):((_1))"), C<16>>, 1>("_4:_4");
    agree::<RightInverse<cute!("((_4)):((_1))")>, 1>("_4:_1");
    agree::<LeftInverse<cute!("((_4)):((_1))")>, 1>("_4:_1");
    agree::<
        Composition<cute!("((_2,_4,_4),(_2,_8)):((_4,_512,_1),(_256,_16))"), cute!("(_2):(_1)")>,
        1,
    >("(_2):(_4)");
    agree::<Composition<cute!("(_4):(_16)"), cute!("_1:_12")>, 1>("_1:_192");
    agree::<Composition<cute!("(_4):(_16)"), ByMode<(C<4>,)>>, 1>("(_4):(_16)");
    agree::<
        ZippedDivide<
            cute!("((_2,_4,_4),(_2,_8)):((_4,_512,_1),(_256,_16))"),
            cute!("(_2,_2):(_2,_4)"),
        >,
        2,
    >("((_2,_2),(_2,(_4,_2,_8))):((_512,_1024),(_4,(_1,_256,_16)))");
    agree::<FlatDivide<cute!("((_2,_4,_4),(_2,_8)):((_4,_512,_1),(_256,_16))"), ByMode<(C<8>,)>>, 3>(
        "(((_2,_4)),_4,(_2,_8)):(((_4,_512)),_1,(_256,_16))",
    );
    agree::<LogicalProduct<cute!("((_4)):((_1))"), cute!("_3:_1")>, 2>("(((_4)),_3):(((_1)),_4)");
    agree::<ZippedProduct<cute!("((_4)):((_1))"), cute!("(_2,_3):(_1,_2)")>, 2>(
        "(((_4)),(_2,_3)):(((_1)),(_4,_8))",
    );
    agree::<TiledProduct<cute!("((_4)):((_1))"), cute!("_4:_1")>, 2>("(((_4)),_4):(((_1)),_4)");
    agree::<BlockedProduct<cute!("(_3):(_1)"), cute!("(_2,_1):(_1,_2)")>, 2>(
        "((_3,_2),(_1,_1)):((_1,_3),(_0,_6))",
    );
    agree::<RakedProduct<cute!("(_2,_3):(_1,_2)"), cute!("(_4,_2):(_2,_16)")>, 2>(
        "((_4,_2),(_2,_3)):((_12,_1),(_96,_2))",
    );
    agree::<
        MaxCommonLayout<
            cute!("((_2,_4,_4),(_2,_8)):((_4,_512,_1),(_256,_16))"),
            cute!("((_4)):((_1))"),
        >,
        1,
    >("_1:_0");
    agree::<Upcast<cute!("(_4):(_16)"), 4>, 1>("(_4):(_4)");
    agree::<Downcast<cute!("((_2,_4,_4),(_2,_8)):((_4,_512,_1),(_256,_16))"), 4>, 2>(
        "((_2,_4,_16),(_2,_8)):((_16,_2048,_1),(_1024,_64))",
    );
    agree::<TileToShape<cute!("(_4,_2):(_2,_16)"), (C<16>, C<12>)>, 2>(
        "((_4,(_2,_2)),(_2,_6)):((_2,(_1,_8)),(_16,_32))",
    );
    agree::<Coalesce<cute!("_3:_1")>, 1>("_3:_1");
    agree::<CoalesceBy<cute!("_3:_1"), (C<1>,)>, 1>("(_3):(_1)");
    agree::<Filter<cute!("_3:_1")>, 1>("_3:_1");
    agree::<Complement<cute!("((_4,_2,_16)):((_2,_1,_8))")>, 1>("_1:_0");
    agree::<ComplementTo<cute!("((_4,_2,_16)):((_2,_1,_8))"), C<16>>, 1>("_1:_0");
    agree::<RightInverse<cute!("((_4,_2,_16)):((_2,_1,_8))")>, 3>("(_2,_4,_16):(_4,_1,_8)");
    agree::<LeftInverse<cute!("((_4,_2,_16)):((_2,_1,_8))")>, 3>("(_2,_4,_16):(_4,_1,_8)");
    agree::<Composition<cute!("(_8,(_1,_2)):(_4,(_4,_1))"), cute!("(_4,_2):(_1,_4)")>, 2>(
        "(_4,_2):(_4,_16)",
    );
    agree::<Composition<cute!("_3:_1"), cute!("(_3):(_1)")>, 1>("(_3):(_1)");
    agree::<Composition<cute!("_3:_1"), ByMode<(cute!("(_2,_2):(_1,_2)"),)>>, 1>(
        "((_2,_2)):((_1,_2))",
    );
    agree::<LogicalDivide<cute!("(_8,(_1,_2)):(_4,(_4,_1))"), ByMode<(C<4>,)>>, 2>(
        "((_4,_2),(_1,_2)):((_4,_16),(_4,_1))",
    );
    agree::<ZippedDivide<cute!("(_8,(_1,_2)):(_4,(_4,_1))"), ByMode<(cute!("(_1,_4):(_2,_4)"),)>>, 2>(
        "(((_1,_4)),(_4,(_1,_2))):(((_8,_16)),(_4,(_4,_1)))",
    );
    agree::<TiledDivide<cute!("(_8,(_1,_2)):(_4,(_4,_1))"), ByMode<(C<3>,)>>, 3>(
        "((_3),_3,(_1,_2)):((_4),_12,(_4,_1))",
    );
    agree::<FlatDivide<cute!("(_8,(_1,_2)):(_4,(_4,_1))"), cute!("(_1,_4):(_2,_2)")>, 4>(
        "(_1,_4,_2,_2):(_1,_8,_4,_1)",
    );
    agree::<LogicalProduct<cute!("((_4,_2,_16)):((_2,_1,_8))"), ByMode<(C<4>,)>>, 1>(
        "(((_4,_2,_16),_4)):(((_2,_1,_8),_128))",
    );
    agree::<ZippedProduct<cute!("((_4,_2,_16)):((_2,_1,_8))"), cute!("_3:_1")>, 2>(
        "(((_4,_2,_16)),_3):(((_2,_1,_8)),_128)",
    );
    agree::<TiledProduct<cute!("((_4,_2,_16)):((_2,_1,_8))"), cute!("(_1,_1):(_1,_2)")>, 3>(
        "(((_4,_2,_16)),_1,_1):(((_2,_1,_8)),_0,_0)",
    );
    agree::<BlockedProduct<cute!("(_1,_2):(_1,_2)"), cute!("_2:_1")>, 2>(
        "((_1,_2),(_2,_1)):((_1,_1),(_2,_0))",
    );
    agree::<RakedProduct<cute!("(_3):(_1)"), cute!("(_2,_2):(_1,_2)")>, 2>(
        "((_2,_3),(_2,_1)):((_3,_1),(_6,_0))",
    );
    agree::<
        MaxCommonLayout<cute!("(_8,(_1,_2)):(_4,(_4,_1))"), cute!("((_4,_2,_16)):((_2,_1,_8))")>,
        1,
    >("_1:_0");
    agree::<Upcast<cute!("_3:_1"), 2>, 1>("_2:_1");
    agree::<Downcast<cute!("(_8,(_1,_2)):(_4,(_4,_1))"), 2>, 2>("(_8,(_1,_4)):(_8,(_8,_1))");
    agree::<TileToShape<cute!("_1:_2"), (C<4>, C<4>)>, 2>("((_1,_4),(_1,_4)):((_2,_1),(_0,_4))");
    agree::<Complement<cute!("_4:_1")>, 1>("_1:_0");
    agree::<ComplementTo<cute!("_4:_1"), C<24>>, 1>("_6:_4");
    agree::<RightInverse<cute!("_4:_1")>, 1>("_4:_1");
    agree::<LeftInverse<cute!("_4:_1")>, 1>("_4:_1");
    agree::<LogicalProduct<cute!("_4:_1"), cute!("(_2):(_1)")>, 2>("(_4,(_2)):(_1,(_4))");
    agree::<BlockedProduct<cute!("(_2,_2):(_1,_2)"), cute!("(_1):(_2)")>, 2>(
        "((_2,_1),(_2,_1)):((_1,_0),(_2,_0))",
    );
    agree::<TileToShape<cute!("(_4,_4):(_1,_8)"), (C<16>, C<8>)>, 2>(
        "((_4,(_2,_2)),(_4,_2)):((_1,(_4,_32)),(_8,_64))",
    );
    agree::<Coalesce<cute!("(_1,_2):(_2,_1)")>, 1>("_2:_1");
    agree::<CoalesceBy<cute!("(_1,_2):(_2,_1)"), (C<1>,)>, 2>("(_1,_2):(_0,_1)");
    agree::<Filter<cute!("(_1,_2):(_2,_1)")>, 1>("_2:_1");
    agree::<Complement<cute!("((_1,_1,_2),_2):((_2,_4,_1),_2)")>, 1>("_1:_0");
    agree::<ComplementTo<cute!("((_1,_1,_2),_2):((_2,_4,_1),_2)"), C<24>>, 1>("_6:_4");
    agree::<RightInverse<cute!("((_1,_1,_2),_2):((_2,_4,_1),_2)")>, 1>("_4:_1");
    agree::<LeftInverse<cute!("((_1,_1,_2),_2):((_2,_4,_1),_2)")>, 1>("_4:_1");
    agree::<Composition<cute!("_4:_1"), cute!("(_2,_1):(_1,_2)")>, 2>("(_2,_1):(_1,_2)");
    agree::<Composition<cute!("(_1,_2):(_2,_1)"), cute!("(_2,(_2)):(_1,(_2))")>, 2>(
        "(_2,(_2)):(_1,(_2))",
    );
    agree::<Composition<cute!("(_1,_2):(_2,_1)"), ByMode<(cute!("(_2,_2):(_1,_4)"),)>>, 1>(
        "((_2,_2)):((_2,_8))",
    );
    agree::<LogicalDivide<cute!("_4:_1"), cute!("(_1):(_1)")>, 2>("((_1),_4):((_1),_1)");
    agree::<TiledDivide<cute!("_4:_1"), cute!("(_1):(_1)")>, 2>("((_1),_4):((_1),_1)");
    agree::<FlatDivide<cute!("_4:_1"), ByMode<(cute!("(_2,_4):(_1,_4)"),)>>, 2>(
        "(((_2,_4)),(_2)):(((_1,_4)),(_2))",
    );
    agree::<LogicalProduct<cute!("((_1,_1,_2),_2):((_2,_4,_1),_2)"), cute!("(_2):(_1)")>, 2>(
        "(((_1,_1,_2),_2),(_2)):(((_2,_4,_1),_2),(_4))",
    );
    agree::<ZippedProduct<cute!("((_1,_1,_2),_2):((_2,_4,_1),_2)"), cute!("_1:_2")>, 2>(
        "(((_1,_1,_2),_2),_1):(((_2,_4,_1),_2),_0)",
    );
    agree::<TiledProduct<cute!("((_1,_1,_2),_2):((_2,_4,_1),_2)"), ByMode<(C<3>,)>>, 3>(
        "(((_1,_1,_2)),_3,_2):(((_2,_4,_1)),_2,_2)",
    );
    agree::<BlockedProduct<cute!("(_2):(_2)"), cute!("(_4,_2):(_1,_8)")>, 2>(
        "((_2,(_2,_2)),(_1,_2)):((_2,(_1,_4)),(_0,_16))",
    );
    agree::<RakedProduct<cute!("(_2):(_1)"), cute!("(_2):(_2)")>, 1>("((_2,_2)):((_4,_1))");
    agree::<MaxCommonLayout<cute!("_4:_1"), cute!("((_1,_1,_2),_2):((_2,_4,_1),_2)")>, 1>("_4:_1");
    agree::<Upcast<cute!("(_1,_2):(_2,_1)"), 2>, 2>("(_1,_1):(_1,_1)");
    agree::<Downcast<cute!("_4:_1"), 2>, 1>("_8:_1");
    agree::<TileToShape<cute!("(_1,_1):(_1,_1)"), (C<8>, C<8>)>, 2>(
        "((_1,_8),(_1,_8)):((_1,_1),(_1,_8))",
    );
    agree::<Coalesce<cute!("((_2,_2)):((_1,_2))")>, 1>("_4:_1");
    agree::<CoalesceBy<cute!("((_2,_2)):((_1,_2))"), (C<1>,)>, 1>("(_4):(_1)");
    agree::<Filter<cute!("((_2,_2)):((_1,_2))")>, 1>("_4:_1");
    agree::<Complement<cute!("(_16):(_1)")>, 1>("_1:_0");
    agree::<ComplementTo<cute!("(_16):(_1)"), C<24>>, 1>("_2:_16");
    agree::<RightInverse<cute!("(_16):(_1)")>, 1>("_16:_1");
    agree::<LeftInverse<cute!("(_16):(_1)")>, 1>("_16:_1");
    agree::<Composition<cute!("((_6)):((_1))"), cute!("_1:_1")>, 1>("_1:_1");
    agree::<LogicalDivide<cute!("((_6)):((_1))"), cute!("(_2,_1):(_2,_8)")>, 2>(
        "((_2,_1),(_2,_2)):((_2,_8),(_1,_4))",
    );
    agree::<ZippedDivide<cute!("((_6)):((_1))"), ByMode<(C<8>,)>>, 2>("((_8),(_1)):((_1),(_0))");
    agree::<TiledDivide<cute!("((_6)):((_1))"), cute!("_2:_2")>, 3>("(_2,_2,_2):(_2,_1,_4)");
    agree::<FlatDivide<cute!("((_6)):((_1))"), cute!("_2:_1")>, 2>("(_2,_3):(_1,_2)");
    agree::<LogicalProduct<cute!("(_16):(_1)"), cute!("(_3,_2):(_1,_3)")>, 2>(
        "((_16),(_3,_2)):((_1),(_16,_48))",
    );
    agree::<ZippedProduct<cute!("(_16):(_1)"), ByMode<(C<4>,)>>, 2>("((_16),(_4)):((_1),(_16))");
    agree::<TiledProduct<cute!("(_16):(_1)"), cute!("_2:_2")>, 2>("((_16),_2):((_1),_32)");
    agree::<BlockedProduct<cute!("(_1):(_1)"), cute!("(_1,_4):(_2,_2)")>, 2>(
        "((_1,_1),(_1,_4)):((_1,_2),(_0,_2))",
    );
    agree::<MaxCommonLayout<cute!("((_6)):((_1))"), cute!("(_16):(_1)")>, 1>("_16:_1");
    agree::<Upcast<cute!("((_2,_2)):((_1,_2))"), 4>, 1>("((_1,_1)):((_1,_1))");
    agree::<Downcast<cute!("((_6)):((_1))"), 4>, 1>("((_24)):((_1))");
    agree::<Coalesce<cute!("(_4,_2,(_8)):(_16,_1,(_2))")>, 2>("(_4,_16):(_16,_1)");
    agree::<CoalesceBy<cute!("(_4,_2,(_8)):(_16,_1,(_2))"), (C<1>, C<1>, C<1>)>, 3>(
        "(_4,_2,_8):(_16,_1,_2)",
    );
    agree::<Filter<cute!("(_4,_2,(_8)):(_16,_1,(_2))")>, 2>("(_4,_16):(_16,_1)");
    agree::<RightInverse<cute!("_1:_1")>, 1>("_1:_0");
    agree::<LeftInverse<cute!("_1:_1")>, 1>("_1:_0");
    agree::<ZippedDivide<cute!("((_4,_4,_6)):((_1,_24,_4))"), ByMode<(C<8>,)>>, 2>(
        "(((_4,_2)),((_2,_6))):(((_1,_24)),((_48,_4)))",
    );
    agree::<TiledDivide<cute!("((_4,_4,_6)):((_1,_24,_4))"), cute!("(_2,_1):(_1,_4)")>, 4>(
        "((_2,_1),_2,_4,_6):((_1,_4),_2,_24,_4)",
    );
    agree::<LogicalProduct<cute!("_1:_1"), cute!("(_1,_1):(_2,_4)")>, 2>(
        "(_1,(_1,_1)):(_1,(_0,_0))",
    );
    agree::<ZippedProduct<cute!("_1:_1"), cute!("(_1):(_1)")>, 2>("(_1,(_1)):(_1,(_0))");
    agree::<TiledProduct<cute!("_1:_1"), cute!("(_4,_1):(_1,_8)")>, 3>("(_1,_4,_1):(_1,_1,_8)");
    agree::<BlockedProduct<cute!("_1:_2"), cute!("(_2):(_1)")>, 1>("((_1,(_2))):((_2,(_1)))");
    agree::<RakedProduct<cute!("_4:_1"), cute!("(_4,_4):(_1,_8)")>, 2>(
        "((_4,_4),(_4,_1)):((_4,_1),(_32,_0))",
    );
    agree::<MaxCommonLayout<cute!("((_4,_4,_6)):((_1,_24,_4))"), cute!("_1:_1")>, 1>("_1:_0");
    agree::<Upcast<cute!("(_4,_2,(_8)):(_16,_1,(_2))"), 2>, 3>("(_4,_1,(_8)):(_8,_1,(_1))");
    agree::<Downcast<cute!("((_4,_4,_6)):((_1,_24,_4))"), 2>, 1>("((_8,_4,_6)):((_1,_48,_8))");
    agree::<Filter<cute!("((_4,_3),(_16,_4,_2)):((_512,_4096),(_16,_1,_8))")>, 5>(
        "(_4,_3,_16,_4,_2):(_512,_4096,_16,_1,_8)",
    );
    agree::<RightInverse<cute!("((_1,_16)):((_16,_1))")>, 1>("_16:_1");
    agree::<LeftInverse<cute!("((_1,_16)):((_16,_1))")>, 1>("_16:_1");
    agree::<
        LogicalDivide<cute!("((_2),(_1,_2,_8),_2):((_16),(_8,_4,_32),_1)"), ByMode<(C<3>, C<2>)>>,
        3,
    >("((_3,_1),(_2,_8),_2):((_16,_0),(_4,_32),_1)");
    agree::<
        ZippedDivide<
            cute!("((_2),(_1,_2,_8),_2):((_16),(_8,_4,_32),_1)"),
            ByMode<(C<3>, cute!("(_2,_3):(_1,_4)"))>,
        >,
        2,
    >("((_3,(_2,_3)),(_1,(_2,_2),_2)):((_16,(_4,_64)),(_0,(_32,_192),_1))");
    agree::<
        TiledDivide<
            cute!("((_2),(_1,_2,_8),_2):((_16),(_8,_4,_32),_1)"),
            ByMode<(cute!("(_2,_3):(_1,_4)"),)>,
        >,
        4,
    >("(((_2,_3)),_2,(_1,_2,_8),_2):(((_16,_64)),_32,(_8,_4,_32),_1)");
    agree::<
        FlatDivide<cute!("((_2),(_1,_2,_8),_2):((_16),(_8,_4,_32),_1)"), cute!("(_2,_4):(_2,_8)")>,
        5,
    >("(_2,_4,_2,_2,_2):(_4,_64,_16,_32,_1)");
    agree::<LogicalProduct<cute!("((_1,_16)):((_16,_1))"), cute!("_1:_2")>, 2>(
        "(((_1,_16)),_1):(((_16,_1)),_0)",
    );
    agree::<BlockedProduct<cute!("_2:_2"), cute!("(_4,_2):(_2,_16)")>, 2>(
        "((_2,_4),(_1,_2)):((_2,_4),(_0,_32))",
    );
    agree::<RakedProduct<cute!("(_4):(_2)"), cute!("(_4):(_2)")>, 1>("((_4,_4)):((_8,_2))");
    agree::<
        MaxCommonLayout<
            cute!("((_2),(_1,_2,_8),_2):((_16),(_8,_4,_32),_1)"),
            cute!("((_1,_16)):((_16,_1))"),
        >,
        1,
    >("_1:_0");
    agree::<Upcast<cute!("((_4,_3),(_16,_4,_2)):((_512,_4096),(_16,_1,_8))"), 4>, 2>(
        "((_4,_3),(_16,_1,_2)):((_128,_1024),(_4,_1,_2))",
    );
    agree::<Downcast<cute!("((_2),(_1,_2,_8),_2):((_16),(_8,_4,_32),_1)"), 4>, 3>(
        "((_2),(_1,_2,_8),_8):((_64),(_32,_16,_128),_1)",
    );
    agree::<TiledDivide<cute!("_4:_1"), ByMode<(cute!("(_1,_1):(_1,_2)"),)>>, 2>(
        "(((_1,_1)),(_4)):(((_1,_2)),(_1))",
    );
    agree::<BlockedProduct<cute!("(_2):(_2)"), cute!("(_2):(_2)")>, 1>("((_2,_2)):((_2,_4))");
    agree::<Downcast<cute!("_4:_1"), 2>, 1>("_8:_1");
    agree::<TileToShape<cute!("(_2):(_1)"), (C<16>, C<12>)>, 2>(
        "((_2,_8),(_1,_12)):((_1,_2),(_0,_16))",
    );
    agree::<Filter<cute!("_4:_1")>, 1>("_4:_1");
    agree::<RightInverse<cute!("(_4):(_1)")>, 1>("_4:_1");
    agree::<LeftInverse<cute!("(_4):(_1)")>, 1>("_4:_1");
    agree::<LogicalDivide<cute!("(_4,_6):(_6,_1)"), cute!("_4:_1")>, 2>("(_4,_6):(_6,_1)");
    agree::<ZippedDivide<cute!("(_4,_6):(_6,_1)"), ByMode<(C<8>,)>>, 2>(
        "((_8),(_1,_6)):((_6),(_0,_1))",
    );
    agree::<FlatDivide<cute!("(_4,_6):(_6,_1)"), ByMode<(cute!("(_1,_1):(_1,_2)"),)>>, 3>(
        "(((_1,_1)),_4,_6):(((_6,_12)),_6,_1)",
    );
    agree::<LogicalProduct<cute!("(_4):(_1)"), cute!("(_1):(_1)")>, 2>("((_4),(_1)):((_1),(_0))");
    agree::<ZippedProduct<cute!("(_4):(_1)"), cute!("(_2):(_2)")>, 2>("((_4),(_2)):((_1),(_8))");
    agree::<TiledProduct<cute!("(_4):(_1)"), ByMode<(cute!("(_2,_2):(_1,_4)"),)>>, 2>(
        "((_4),((_2,_2))):((_1),((_4,_16)))",
    );
    agree::<BlockedProduct<cute!("(_4):(_1)"), cute!("(_2,_1):(_2,_4)")>, 2>(
        "((_4,_2),(_1,_1)):((_1,_8),(_0,_16))",
    );
    agree::<MaxCommonLayout<cute!("(_4,_6):(_6,_1)"), cute!("(_4):(_1)")>, 1>("_1:_0");
    agree::<Upcast<cute!("_4:_1"), 2>, 1>("_2:_1");
    agree::<Downcast<cute!("(_4,_6):(_6,_1)"), 2>, 2>("(_4,_12):(_12,_1)");
    agree::<TileToShape<cute!("(_2,_2):(_2,_4)"), (C<4>, C<12>)>, 2>(
        "((_2,_2),(_2,_6)):((_2,_1),(_4,_8))",
    );
    agree::<Filter<cute!("((_4,_8,_8)):((_4,_16,_32))")>, 2>("(_32,_8):(_4,_32)");
    agree::<RightInverse<cute!("(_1):(_1)")>, 1>("_1:_0");
    agree::<LeftInverse<cute!("(_1):(_1)")>, 1>("_1:_0");
    agree::<LogicalDivide<cute!("(_2):(_1)"), ByMode<(C<2>,)>>, 1>("((_2,_1)):((_1,_0))");
    agree::<ZippedDivide<cute!("(_2):(_1)"), cute!("_4:_1")>, 2>("(_4,_1):(_1,_0)");
    agree::<TiledDivide<cute!("(_2):(_1)"), cute!("(_4):(_1)")>, 2>("((_4),_1):((_1),_0)");
    agree::<FlatDivide<cute!("(_2):(_1)"), cute!("(_2,_3):(_2,_8)")>, 4>(
        "(_2,_3,_2,_2):(_2,_8,_1,_4)",
    );
    agree::<LogicalProduct<cute!("(_1):(_1)"), ByMode<(C<4>,)>>, 1>("((_1,_4)):((_1,_1))");
    agree::<ZippedProduct<cute!("(_1):(_1)"), cute!("(_4,_2):(_2,_16)")>, 2>(
        "((_1),(_4,_2)):((_1),(_2,_16))",
    );
    agree::<TiledProduct<cute!("(_1):(_1)"), ByMode<(cute!("_3:_2"),)>>, 2>(
        "((_1),(_3)):((_1),(_2))",
    );
    agree::<RakedProduct<cute!("(_2):(_1)"), cute!("(_1,_3):(_2,_2)")>, 2>(
        "((_1,_2),(_3,_1)):((_4,_1),(_4,_0))",
    );
    agree::<MaxCommonLayout<cute!("(_2):(_1)"), cute!("(_1):(_1)")>, 1>("_1:_0");
    agree::<Upcast<cute!("((_4,_8,_8)):((_4,_16,_32))"), 4>, 1>("((_4,_8,_8)):((_1,_4,_8))");
    agree::<Downcast<cute!("(_2):(_1)"), 4>, 1>("(_8):(_1)");
    agree::<TileToShape<cute!("(_1,_2):(_2,_4)"), (C<4>, C<4>)>, 2>(
        "((_1,_4),(_2,_2)):((_2,_1),(_4,_8))",
    );
    agree::<Filter<cute!("_6:_1")>, 1>("_6:_1");
    agree::<RightInverse<cute!("((_2,_4)):((_4,_1))")>, 2>("(_4,_2):(_2,_1)");
    agree::<LeftInverse<cute!("((_2,_4)):((_4,_1))")>, 2>("(_4,_2):(_2,_1)");
    agree::<LogicalDivide<cute!("(_2,(_4,_8,_4)):(_32,(_64,_1,_8))"), cute!("(_2,_2):(_1,_4)")>, 2>(
        "((_2,_2),(_2,_32)):((_32,_128),(_64,_1))",
    );
    agree::<ZippedDivide<cute!("(_2,(_4,_8,_4)):(_32,(_64,_1,_8))"), cute!("(_1,_2):(_2,_2)")>, 2>(
        "((_1,_2),(_2,(_2,_32))):((_1,_64),(_32,(_128,_1)))",
    );
    agree::<FlatDivide<cute!("(_2,(_4,_8,_4)):(_32,(_64,_1,_8))"), ByMode<(cute!("_4:_1"),)>>, 3>(
        "((_4),_1,(_4,_8,_4)):((_32),_0,(_64,_1,_8))",
    );
    agree::<LogicalProduct<cute!("((_2,_4)):((_4,_1))"), cute!("_2:_1")>, 2>(
        "(((_2,_4)),_2):(((_4,_1)),_8)",
    );
    agree::<ZippedProduct<cute!("((_2,_4)):((_4,_1))"), ByMode<(cute!("(_4,_4):(_1,_4)"),)>>, 2>(
        "(((_2,_4)),((_4,_4))):(((_4,_1)),((_8,_32)))",
    );
    agree::<TiledProduct<cute!("((_2,_4)):((_4,_1))"), cute!("_4:_2")>, 2>(
        "(((_2,_4)),_4):(((_4,_1)),_16)",
    );
    agree::<BlockedProduct<cute!("(_3,_2):(_1,_3)"), cute!("(_1,_2):(_2,_2)")>, 2>(
        "((_3,_1),(_2,_2)):((_1,_12),(_3,_12))",
    );
    agree::<
        MaxCommonLayout<cute!("(_2,(_4,_8,_4)):(_32,(_64,_1,_8))"), cute!("((_2,_4)):((_4,_1))")>,
        1,
    >("_1:_0");
    agree::<Upcast<cute!("_6:_1"), 4>, 1>("_2:_1");
    agree::<Downcast<cute!("(_2,(_4,_8,_4)):(_32,(_64,_1,_8))"), 4>, 2>(
        "(_2,(_4,_32,_4)):(_128,(_256,_1,_32))",
    );
    agree::<TileToShape<cute!("_4:_2"), (C<8>, C<12>)>, 2>("((_4,_2),(_1,_12)):((_2,_1),(_0,_8))");
    agree::<Filter<cute!("(_1,(_16,_8,_2),_3):(_32,(_8,_16,_12),_3)")>, 4>(
        "(_16,_8,_2,_3):(_8,_16,_12,_3)",
    );
    agree::<RakedProduct<cute!("(_1,_2):(_2,_4)"), cute!("(_3,_1):(_1,_6)")>, 2>(
        "((_3,_1),(_1,_2)):((_1,_2),(_6,_4))",
    );
    agree::<LogicalDivide<cute!("(_2):(_1)"), cute!("(_2,_1):(_1,_2)")>, 2>(
        "((_2,_1),_1):((_1,_2),_0)",
    );
    agree::<ZippedDivide<cute!("(_2):(_1)"), ByMode<(C<2>,)>>, 2>("((_2),(_1)):((_1),(_0))");
    agree::<TiledDivide<cute!("(_2):(_1)"), ByMode<(cute!("(_1):(_1)"),)>>, 2>(
        "(((_1)),(_2)):(((_1)),(_1))",
    );
    agree::<FlatDivide<cute!("(_2):(_1)"), cute!("(_1):(_2)")>, 2>("((_1),_2):((_2),_1)");
    agree::<ZippedProduct<cute!("(_4,_6,_4):(_1,_8,_48)"), ByMode<(C<8>,)>>, 2>(
        "((_4),(_8,_6,_4)):((_1),(_4,_8,_48))",
    );
    agree::<TiledProduct<cute!("(_4,_6,_4):(_1,_8,_48)"), cute!("(_2,_2):(_2,_8)")>, 3>(
        "((_4,_6,_4),_2,_2):((_1,_8,_48),_192,_768)",
    );
    agree::<RakedProduct<cute!("(_4,_4):(_2,_16)"), cute!("(_2):(_1)")>, 2>(
        "((_2,_4),(_1,_4)):((_1,_2),(_0,_16))",
    );
    agree::<MaxCommonLayout<cute!("(_2):(_1)"), cute!("(_4,_6,_4):(_1,_8,_48)")>, 1>("_4:_1");
    agree::<Upcast<cute!("_2:_1"), 4>, 1>("_1:_1");
    agree::<TileToShape<cute!("(_1,_3):(_2,_2)"), (C<4>, C<12>)>, 2>(
        "((_1,(_2,_2)),(_3,_4)):((_2,(_1,_6)),(_2,_12))",
    );
    agree::<
        LogicalDivide<
            cute!("((_1,_2),(_1,_16,_2),(_4,_2,_4)):((_32,_64),(_32,_128,_1),(_4096,_32,_4))"),
            ByMode<(C<3>, C<2>)>,
        >,
        3,
    >("((_3,_1),(_2,(_8,_2)),(_4,_2,_4)):((_64,_0),(_128,(_256,_1)),(_4096,_32,_4))");
    agree::<
        ZippedDivide<
            cute!("((_1,_2),(_1,_16,_2),(_4,_2,_4)):((_32,_64),(_32,_128,_1),(_4096,_32,_4))"),
            cute!("(_1):(_1)"),
        >,
        2,
    >("((_1),(_32,_2,_4,_2,_4)):((_4),(_64,_1,_4096,_32,_4))");
    agree::<
        TiledDivide<
            cute!("((_1,_2),(_1,_16,_2),(_4,_2,_4)):((_32,_64),(_32,_128,_1),(_4096,_32,_4))"),
            cute!("(_4,_2):(_2,_16)"),
        >,
        4,
    >("((_4,_2),_2,_2,(_2,_4,_2,_4)):((_128,_1024),_64,_512,(_1,_4096,_32,_4))");
    agree::<FlatDivide<cute!("((_1,_2),(_1,_16,_2),(_4,_2,_4)):((_32,_64),(_32,_128,_1),(_4096,_32,_4))"), ByMode<(cute!("(_1,_2):(_2,_4)"), cute!("(_1,_2):(_1,_2)"),)>>, 5>("((_1,_2),(_1,_2),_4,(_2,(_4,_2)),(_4,_2,_4)):((_128,_256),(_1,_256),_64,(_128,(_512,_1)),(_4096,_32,_4))");
    agree::<ZippedProduct<cute!("(_2,_3,_2):(_1,_4,_24)"), ByMode<(cute!("(_2,_3):(_1,_2)"),)>>, 2>(
        "((_2),((_2,_3),_3,_2)):((_1),((_2,_4),_4,_24))",
    );
    agree::<TiledProduct<cute!("(_2,_3,_2):(_1,_4,_24)"), cute!("(_2,_2):(_1,_4)")>, 3>(
        "((_2,_3,_2),_2,_2):((_1,_4,_24),_2,_48)",
    );
    agree::<RakedProduct<cute!("(_2):(_1)"), cute!("(_3,_3):(_1,_3)")>, 2>(
        "((_3,_2),(_3,_1)):((_2,_1),(_6,_0))",
    );
    agree::<TileToShape<cute!("(_1,_2):(_1,_2)"), (C<4>, C<8>)>, 2>(
        "((_1,(_2,_2)),(_2,_4)):((_1,(_1,_4)),(_2,_8))",
    );
    agree::<LogicalDivide<cute!("(_6,(_8)):(_1,(_6))"), cute!("(_2,_2):(_1,_4)")>, 2>(
        "((_2,_2),(_2,_6)):((_1,_4),(_2,_8))",
    );
    agree::<TiledDivide<cute!("(_6,(_8)):(_1,(_6))"), cute!("(_4,_4):(_2,_8)")>, 3>(
        "((_4,_4),_2,_2):((_2,_8),_1,_32)",
    );
    agree::<RakedProduct<cute!("(_3):(_2)"), cute!("_2:_2")>, 1>("((_2,(_3))):((_6,(_2)))");
}

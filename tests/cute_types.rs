//! CuTe layouts as types agree with the algebra's values (the same core
//! computes both, but the type's index functions are their own code):
//! every index of every layout below, and `FromXla` agrees with the XLA
//! layout type's own `offset` on every coordinate.

use core::marker::PhantomData;

use tilelayout::algebra::{CuteLayout as Value, Int, IntTuple};
use tilelayout::{
    assert_cute, cute, layout, AlgebraLayout, Append, Cute, Flatten, FromXla, Get, Layout, Leaf,
};

fn agree<A: AlgebraLayout, const N: usize>(text: &str) {
    let v = Value::parse(text).unwrap();
    assert_eq!(A::LAYOUT, v, "{text}");
    assert_eq!(A::TEXT, v.to_string(), "{text}");
    assert_eq!(A::SIZE as i64, v.size().unwrap().value, "{text}");
    assert_eq!(A::COSIZE as i64, v.cosize().unwrap().value, "{text}");
    assert_eq!((A::RANK, A::DEPTH), (v.rank(), v.depth()), "{text}");
    for i in 0..A::SIZE {
        let want = v.call(i as i64).unwrap();
        assert_eq!(A::index(i) as i64, want, "{text} at {i}");
        // one coordinate per mode, each an integer within its mode
        let c: [usize; N] = A::idx2crd(i);
        let mut t = IntTuple::EMPTY;
        for (m, &x) in c.iter().enumerate() {
            let mode_size = v.mode(m).unwrap().size().unwrap().value as usize;
            assert!(m + 1 == N || x < mode_size, "{text} at {i}: {c:?}");
            t = t.push_int(Int::dynamic(x as i64)).unwrap();
        }
        if v.shape().is_int() {
            t = IntTuple::dynamic(c[0] as i64);
        }
        assert_eq!(
            A::offset(c) as i64,
            v.crd2idx(&t).unwrap().value,
            "{text} {c:?}"
        );
        assert_eq!(A::offset(c) as i64, want, "{text} {c:?}");
    }
}

#[test]
fn written_layouts_agree_with_values() {
    agree::<cute!((_2,(_3,_4)):(_12,(_4,_1))), 2>("(_2,(_3,_4)):(_12,(_4,_1))");
    agree::<cute!((_9,(_4,_8)):(_59,(_13,_1))), 2>("(_9,(_4,_8)):(_59,(_13,_1))");
    agree::<cute!((8,(2,4)):(1,(8,16))), 2>("(8,(2,4)):(1,(8,16))");
    agree::<cute!(_8:_1), 1>("_8:_1");
    agree::<cute!((_8):(_1)), 1>("(_8):(_1)");
    agree::<cute!((4,_2):(-1,_4)), 2>("(4,_2):(-1,_4)");
    agree::<cute!(((_2,_2),(_2,_3)):((_2,_12),(_1,_4))), 2>("((_2,_2),(_2,_3)):((_2,_12),(_1,_4))");
    agree::<cute!((_4,(_2,(_3,_2)),_1):(_1,(_0,(_4,_12)),_0)), 3>(
        "(_4,(_2,(_3,_2)),_1):(_1,(_0,(_4,_12)),_0)",
    );
    // the string form, for text pasted from CuTe's output
    agree::<cute!("((_2,_4),_8):((_8,_16),_1)"), 2>("((_2,_4),_8):((_8,_16),_1)");
    // a hand-written type is the same type as the macro's
    same::<Cute<(Leaf<2, 12>, (Leaf<3, 4>, Leaf<4, 1>))>>(
        PhantomData::<cute!((_2,(_3,_4)):(_12,(_4,_1)))>,
    );
    same::<Cute<(Leaf<8, 1, false, false>, Leaf<4, -1, true, false>)>>(
        PhantomData::<cute!((8,_4):(1,-1))>,
    );
}

/// Compiles only when the argument's type is `T`.
fn same<T>(_: PhantomData<T>) {}

type A = cute!((_2,(_3,_4)):(_12,(_4,_1)));
assert_cute!(A, Flatten<A>, Get<A, 1>, Append<A, cute!(_5:_24)>);

#[test]
fn operation_types_are_the_core_operations() {
    agree::<Flatten<A>, 3>("(_2,_3,_4):(_12,_4,_1)");
    agree::<Get<A, 1>, 2>("(_3,_4):(_4,_1)");
    agree::<Get<Get<A, 1>, 0>, 1>("_3:_4");
    agree::<Append<A, cute!(_5:_24)>, 3>("(_2,(_3,_4),_5):(_12,(_4,_1),_24)");
    // constants fold: usable in const items
    const S: usize = <Get<A, 1> as AlgebraLayout>::SIZE;
    const C: usize = <Append<A, cute!(_5:_24)> as AlgebraLayout>::COSIZE;
    assert_eq!((S, C), (12, 120));
}

/// Every coordinate of an XLA layout type, by its own `offset` and by its
/// lowering as a CuTe layout type.
fn xla_agrees<X: Layout, const N: usize>() {
    let dims: [usize; N] = core::array::from_fn(|d| X::DIMS[d]);
    let n: usize = dims.iter().product();
    for mut i in 0..n {
        let c: [usize; N] = core::array::from_fn(|d| {
            let x = i % dims[d];
            i /= dims[d];
            x
        });
        assert_eq!(
            FromXla::<X>::offset(c),
            X::offset(c) as isize,
            "{} at {c:?}",
            X::TEXT
        );
    }
}

#[test]
fn from_xla_agrees_with_the_layout_types() {
    xla_agrees::<layout!(f32[3,5]{1,0:T(2,2)}), 2>();
    xla_agrees::<layout!(bf16[8,1,12,160]{3,2,0,1:T(8,128)(2,1)}), 4>();
    xla_agrees::<layout!(bf16[8,3,256]{2,1,0:T(2,*,128)}), 3>();
    xla_agrees::<layout!(s8[5,7,300]{0,2,1:T(8,128)(4,1)L(1024)}), 3>();
    xla_agrees::<layout!(f32[7]{0:T(4)(2)}), 1>();
    // tiles that cut a digit, whose parts meet again in memory
    xla_agrees::<layout!(f32[6]{0:T(4)(3)}), 1>();
    xla_agrees::<layout!(f32[3,5]{1,0:T(*,4)}), 2>();
    xla_agrees::<layout!(f32[4]{0:T(3)(2)}), 1>();
    xla_agrees::<layout!(pred[3,4,5]{0,1,2}), 3>();
    assert_eq!(
        <FromXla<layout!(f32[3,5]{1,0:T(2,2)})> as AlgebraLayout>::TEXT,
        "((_2,_2),(_2,_3)):((_2,_12),(_1,_4))"
    );
}

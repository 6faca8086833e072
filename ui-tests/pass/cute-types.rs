// CuTe layouts as types: constants and index functions.
use tilelayout::*;

type A = cute!((_2,(_3,_4)):(_12,(_4,_1)));
assert_cute!(A, Flatten<A>, Get<A, 1>, FromXla<layout!(f32[3,5]{1,0:T(2,2)})>);

const SIZE: usize = <A as AlgebraLayout>::SIZE;

fn main() {
    assert_eq!(SIZE, 24);
    assert_eq!(A::index(7), 13);
    assert_eq!(A::offset([1, 2]), 12 + 8);
    assert_eq!(<Get<A, 1> as AlgebraLayout>::TEXT, "(_3,_4):(_4,_1)");
    assert_eq!(FromXla::<layout!(f32[3,5]{1,0:T(2,2)})>::offset([2, 3]), 17);
}

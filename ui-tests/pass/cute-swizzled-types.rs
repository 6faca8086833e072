// A swizzled CuTe layout as a type: `Sw<B,M,S> o offset o layout`, parsed
// by the core's notation parser, folds to the inner layout's arithmetic
// plus one swizzle.
use tilelayout::*;

type A = cute!(Sw<3,4,3> o _0 o (8,64):(64,1));
type N = cute!("Sw<2,0,-2> o _0 o (_4,_4):(_4,_1)");

fn main() {
    assert_eq!(A::TEXT, "Sw<3,4,3> o _0 o (8,64):(64,1)");
    assert_eq!(A::offset([2, 0]), 128 ^ 16);
    assert_eq!(N::TEXT, "Sw<2,0,-2> o _0 o (_4,_4):(_4,_1)");
    assert_eq!(N::offset([0, 1]), 5);
}

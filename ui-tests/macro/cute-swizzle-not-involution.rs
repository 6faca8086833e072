// `Sw<3,3,2>` is not a swizzle (|S| < B): one error at the swizzle's tokens,
// in the notation the user wrote.
use tilelayout::*;

type A = cute!(Sw<3,3,2> o _0 o (8,64):(64,1));

fn main() {}

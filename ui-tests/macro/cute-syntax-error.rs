// A stride tuple missing its comma: the error points at the token.
use tilelayout::*;

type A = cute!((_2,_3):(_1 _2));

fn main() {}

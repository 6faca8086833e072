// Shape and stride must be the same tree.
use tilelayout::*;

type A = cute!((_2,_3):(_1,(_2,_4)));

fn main() {}

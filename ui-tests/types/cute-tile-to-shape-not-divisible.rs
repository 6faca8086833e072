// A 2x2 block cannot fill a 4x5 target: mode 1's 5 is not a multiple of 2.
use tilelayout::*;

assert_cute!(TileToShape<cute!((_2,_2):(_1,_2)), (C<4>, C<5>)>);

fn main() {}

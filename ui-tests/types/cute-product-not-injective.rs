// A logical product needs the block's complement, and (_2,_2):(_1,_1) maps
// two coordinates to the same offset: the error names the mode.
use tilelayout::*;

assert_cute!(LogicalProduct<cute!((_2,_2):(_1,_1)), cute!(_4:_1)>);

fn main() {}

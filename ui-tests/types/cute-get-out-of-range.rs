// Mode 5 of a rank-2 layout: the error names the mode and the rank.
use tilelayout::*;

assert_cute!(Get<cute!((_2,_3):(_1,_2)), 5>);

fn main() {}

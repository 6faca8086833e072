// Upcasting by 2 a layout whose stride 3 and 2 divide neither each other.
use tilelayout::*;

assert_cute!(Upcast<cute!((_4,_3):(_3,_1)), 2>);

fn main() {}

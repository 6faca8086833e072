// Downcasting splits each element; without a stride-1 mode the parts of
// an element would not be adjacent.
use tilelayout::*;

assert_cute!(Downcast<cute!((_4,_2):(_2,_4)), 2>);

fn main() {}

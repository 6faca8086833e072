// The complement of a layout that maps two coordinates to one offset.
use tilelayout::*;

assert_cute!(ComplementTo<cute!((_4,_2):(_1,_1)), C<24>>);

fn main() {}

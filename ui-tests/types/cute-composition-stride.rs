// Composing (_4,_3):(_1,_5) with _3:_3: stride 3 does not divide mode 0's
// shape 4 and the selection wraps past it; the error names the mode.
use tilelayout::*;

assert_cute!(Composition<cute!((_4,_3):(_1,_5)), cute!(_3:_3)>);

fn main() {}

// Composing (_4,_4):(_4,_1) with Sw<2,0,3>: the swizzle's bits do not map
// to a swizzle through the layout, so no Sw' o L is the composition.
use tilelayout::*;

assert_cute!(CompositionSwizzle<cute!((_4,_4):(_4,_1)), Sw<2, 0, 3>>);

fn main() {}

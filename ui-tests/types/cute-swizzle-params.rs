// Sw<3,3,2> is not a swizzle (|S| < B): the error names it as written.
use tilelayout::*;

assert_cute!(SwizzleComposition<Sw<3, 3, 2>, cute!((_8,_64):(_64,_1))>);

fn main() {}

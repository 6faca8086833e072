// COMBINE as the most-minor tile dim has nothing to combine into.
use tilelayout::*;

assert_layout!(Tiled<BF16, Dims<2, 3, 1004>, T<2, 128, COMBINE>>);

fn main() {}

// Few elements, but the padded tile makes the slot count 3 * (2^63 - 1).
use tilelayout::*;

assert_layout!(Tiled<S8, Dims<3, 5>, T<3, 9223372036854775807>>);

fn main() {}

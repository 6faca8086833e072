// Few elements, but the padded tile makes the slot count 3 * (2^63 - 1).
type Bad = tilelayout::layout!(s8[3,5]{1,0:T(3,9223372036854775807)});

fn main() {}

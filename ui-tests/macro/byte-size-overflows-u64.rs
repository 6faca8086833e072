// The slot count 2 * (2^63 - 1) fits in u64; four bytes each do not.
type Bad = tilelayout::layout!(f32[2,5]{1,0:T(2,9223372036854775807)});

fn main() {}

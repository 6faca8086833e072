// A dim above 2^63 - 1.
type Bad = tilelayout::layout!(f32[3,99999999999999999999]);

fn main() {}

// The product of the dims does not fit in i64 (2^32 * 2^32).
type Bad = tilelayout::layout!(s8[4294967296,4294967296]);

fn main() {}

// Layout types have at most 8 dims.
type Bad = tilelayout::layout!(f32[1,2,3,4,5,6,7,8,9]);

fn main() {}

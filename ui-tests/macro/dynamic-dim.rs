// Layout types need static dims; `<=5` is a bounded dynamic dim.
type Bad = tilelayout::layout!(f32[3,<=5]);

fn main() {}

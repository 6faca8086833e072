// Text after a complete shape.
type Bad = tilelayout::layout!(f32[3,5]{1,0} f32[2]);

fn main() {}

// `M(…)` is for dynamic shapes, which layout types do not have.
type Bad = tilelayout::layout!(f32[3,5]{1,0:M(8)});

fn main() {}

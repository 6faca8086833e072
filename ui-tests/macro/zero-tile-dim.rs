// A tile dim of 0: tile dims must be positive or `*`.
type Bad = tilelayout::layout!(f32[3,5]{1,0:T(2,0)});

fn main() {}

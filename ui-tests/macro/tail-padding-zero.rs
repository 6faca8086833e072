// `L(0)`: the tail padding alignment must be at least 1.
type Bad = tilelayout::layout!(f32[3,5]{1,0:T(2,2)L(0)});

fn main() {}

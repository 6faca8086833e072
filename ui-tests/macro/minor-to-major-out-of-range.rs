// minor_to_major names dim 2 of a rank-2 shape.
type Bad = tilelayout::layout!(f32[3,5]{2,0:T(2,2)});

fn main() {}

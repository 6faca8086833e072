// minor_to_major needs one entry per dim: 1 entry for rank 2.
type Bad = tilelayout::layout!(f32[3,5]{0:T(2,2)});

fn main() {}

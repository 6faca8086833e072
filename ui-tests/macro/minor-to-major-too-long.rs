// minor_to_major needs one entry per dim: 3 entries for rank 2.
type Bad = tilelayout::layout!(f32[3,5]{2,1,0});

fn main() {}

// minor_to_major lists dim 1 twice.
type Bad = tilelayout::layout!(f32[3,5]{1,1:T(2,2)});

fn main() {}

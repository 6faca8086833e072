// Layout types take tiles of at most 8 dims.
type Bad = tilelayout::layout!(f32[3,5]{1,0:T(1,1,1,1,1,1,1,1,1)});

fn main() {}

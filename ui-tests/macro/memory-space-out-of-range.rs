// `S(128)` does not fit in XLA's 8-bit memory space.
type Bad = tilelayout::layout!(f32[3,5]{1,0:S(128)});

fn main() {}

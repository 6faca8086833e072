// A negative tile dim.
type Bad = tilelayout::layout!(f32[3,5]{1,0:T(-2,2)});

fn main() {}

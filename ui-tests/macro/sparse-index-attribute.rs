// `#(u32)`, an obsolete sparse attribute, on a dense array.
type Bad = tilelayout::layout!(f32[3,5]{1,0:#(u32)});

fn main() {}

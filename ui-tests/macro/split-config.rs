// Split configs `SC(…)` are not represented in layout types.
type Bad = tilelayout::layout!(f32[8,1024]{1,0:T(8,128)SC(1:512)});

fn main() {}

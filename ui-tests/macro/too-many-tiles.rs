// At most 8 tiles.
type Bad = tilelayout::layout!(f32[256]{0:T(128)(64)(32)(16)(8)(4)(2)(1)(1)});

fn main() {}

// The string form can hold text that tokens cannot: an unclosed `[`.
type Bad = tilelayout::layout!("f32[3,5{1,0}");

fn main() {}

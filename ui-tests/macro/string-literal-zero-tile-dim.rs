// The string form: the error names the byte offset in the literal.
type Bad = tilelayout::layout!("f32[3,5]{1,0:T(2,0)}");

fn main() {}

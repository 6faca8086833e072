// Escapes are not read in the string form.
type Bad = tilelayout::layout!("f32[3,5]\n");

fn main() {}

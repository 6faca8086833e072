// An empty string holds no shape.
type Bad = tilelayout::layout!("");

fn main() {}

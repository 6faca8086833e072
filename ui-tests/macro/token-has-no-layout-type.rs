// `token` has no dims and no layout type.
type Bad = tilelayout::layout!(token[]);

fn main() {}

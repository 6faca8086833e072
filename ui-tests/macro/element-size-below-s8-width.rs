// E(4) is narrower than an s8 value.
type Bad = tilelayout::layout!(s8[16]{0:E(4)});

fn main() {}

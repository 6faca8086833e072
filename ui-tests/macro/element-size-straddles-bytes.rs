// E(6) for s4: a 6-bit element would straddle byte boundaries.
type Bad = tilelayout::layout!(s4[16]{0:E(6)});

fn main() {}

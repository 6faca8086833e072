// Not an XLA element type.
type Bad = tilelayout::layout!(f33[3,5]{1,0});

fn main() {}

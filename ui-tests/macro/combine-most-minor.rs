// `*` as the most-minor tile dim has nothing to combine into.
type Bad = tilelayout::layout!(bf16[2,3,1004]{2,1,0:T(2,128,*)});

fn main() {}

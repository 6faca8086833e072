// Attributes come in XLA's fixed order `T L # * E S SC M`; `E` before `L` is wrong.
type Bad = tilelayout::layout!(s8[256]{0:T(128)E(8)L(2)});

fn main() {}

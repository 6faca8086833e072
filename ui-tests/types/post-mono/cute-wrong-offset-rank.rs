// A rank-2 CuTe layout type indexed with 3 coordinates.
use tilelayout::*;

fn main() {
    let _ = <cute!((_2,_3):(_1,_2)) as AlgebraLayout>::offset([1, 2, 3]);
}

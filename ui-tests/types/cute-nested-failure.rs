// A failure deep in a nest of operation types is reported once, by the
// operation that failed, with its operands.
use tilelayout::*;

type Tile = ZippedDivide<cute!((_12,(_4,_8)):(_7,(_1,_30))), C<128>>;
assert_cute!(Coalesce<LogicalProduct<Tile, cute!(_2:_1)>>);

fn main() {}

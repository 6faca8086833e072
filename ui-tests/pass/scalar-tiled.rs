// A scalar with a tile: `f32[]{:T(128)}` (XLA pads scalars to a tile).
use tilelayout::{assert_layout, layout, Layout, Dims, Tiled, F32, T};

type Hand = Tiled<F32, Dims, T<128>>;
type Text = layout!(f32[]{:T(128)});

assert_layout!(Hand);

fn same(l: Text) -> Hand {
    l
}

fn main() {
    let _ = same(Hand::default());
    assert_eq!(Text::RANK, 0);
    assert_eq!(Text::ELEMENTS, 1);
    assert_eq!(Text::TEXT, "f32[]{:T(128)}");
    assert_eq!(Text::offset([]), 0);
}

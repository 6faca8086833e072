// `s4` packed two to a byte with `E(4)`.
use tilelayout::{layout, Attrs, Descending, Layout, Dims, Tiled, S4, T};

type Hand = Tiled<S4, Dims<16, 256>, T<8, 128>, Descending, Attrs<1, 4, 0>>;
type Text = layout!(s4[16,256]{1,0:T(8,128)E(4)});

fn same(l: Text) -> Hand {
    l
}

fn main() {
    let _ = same(Hand::default());
    assert_eq!(Text::TEXT, "s4[16,256]{1,0:T(8,128)E(4)}");
    assert_eq!(Text::SLOTS, 16 * 256);
    assert_eq!(Text::BYTES, 16 * 256 / 2);
}

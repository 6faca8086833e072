// The TPU bf16 layout: two tile levels and an explicit minor_to_major, by
// hand and from the text.
use tilelayout::{assert_layout, layout, Layout, MinorToMajor, Dims, Tiled, BF16, T};

type Hand = Tiled<BF16, Dims<8, 1, 1280, 16384>, (T<8, 128>, T<2, 1>), MinorToMajor<3, 2, 0, 1>>;
type Text = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)});

assert_layout!(Hand, Text);

fn same(l: Hand) -> Text {
    l
}

fn main() {
    let _ = same(Text::default());
    assert_eq!(Text::TEXT, "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}");
    assert_eq!(Text::XLA_BYTES, 8 * 1280 * 16384 * 2);
    assert_eq!(Text::offset([0, 0, 1, 0]), 1); // rows 0 and 1 share a word
    assert_eq!(Text::offset([0, 0, 0, 1]), 2);
    assert_eq!(Text::coords::<4>(1), Some([0, 0, 1, 0]));
}

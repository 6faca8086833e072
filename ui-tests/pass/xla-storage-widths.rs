// Storage widths XLA accepts: s8 in 4 bits (XLA's GPU int4 path), pred in
// a 32-bit word (older TPUs), f4e2m1fn packed, the 6-bit floats.
use tilelayout::{layout, layout_array, Attrs, Descending, Layout, Pred, Dims, Tiled, S8, T};

type Hand = Tiled<S8, Dims<3, 7>, (), Descending, Attrs<1, 4, 0>>;
type Text = layout!(s8[3,7]{1,0:E(4)});

fn same(l: Text) -> Hand {
    l
}

type Pred32 = Tiled<Pred, Dims<8, 128>, T<8, 128>, Descending, Attrs<1, 32, 0>>;

fn main() {
    let _ = same(Hand::default());
    assert_eq!((Text::SLOTS, Text::BYTES), (21, 11));
    assert_eq!(Pred32::TEXT, "pred[8,128]{1,0:T(8,128)E(32)}");
    assert_eq!(Pred32::BYTES, 8 * 128 * 4);
    let mut a = <layout_array!(pred[8,128]{1,0:T(8,128)E(32)})>::default();
    a.set([1, 2], true);
    assert!(a.get([1, 2]));
    let mut f = <layout_array!(f4e2m1fn[4,32]{1,0:E(4)})>::default();
    f.set([0, 1], 0x7);
    assert_eq!(f.units()[0], 0x70);
    assert_eq!(<layout!(f6e3m2fn[5]{0})>::BYTES, 5);
}

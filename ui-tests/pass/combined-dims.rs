// `*` combines a dim into the next more-minor one: `T(2,*,*,128)`, with
// `COMBINE` as its hand-written spelling.
use tilelayout::{layout, Layout, Dims, Tiled, BF16, COMBINE, T};

type Hand = Tiled<BF16, Dims<8, 2, 3, 1004>, T<2, COMBINE, COMBINE, 128>>;
type Text = layout!(bf16[8,2,3,1004]{3,2,1,0:T(2,*,*,128)});

fn same(l: Text) -> Hand {
    l
}

fn main() {
    let _ = same(Hand::default());
    assert_eq!(Hand::TEXT, "bf16[8,2,3,1004]{3,2,1,0:T(2,*,*,128)}");
    assert_eq!(Hand::ELEMENTS, 8 * 2 * 3 * 1004);
    assert!(Hand::SLOTS >= Hand::ELEMENTS);
    let slot = Hand::offset([7, 1, 2, 1003]);
    assert_eq!(Hand::coords::<4>(slot), Some([7, 1, 2, 1003]));
}

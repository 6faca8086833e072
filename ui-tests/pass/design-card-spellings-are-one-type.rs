// The design card's two spellings of `f32[3,5]{1,0:T(2,2)}` are one type:
// a function taking the hand-written type accepts the macro's, and back.
use tilelayout::{layout, Layout, Dims, Tiled, F32, T};

type Hand = Tiled<F32, Dims<3, 5>, T<2, 2>>;
type Text = layout!(f32[3,5]{1,0:T(2,2)});
type Literal = layout!("f32[3,5]{1,0:T(2,2)}");

fn takes_hand(l: Hand) -> Hand {
    l
}

fn takes_text(l: Text) -> Text {
    l
}

fn main() {
    let from_text: Text = Text::default();
    let hand: Hand = takes_hand(from_text);
    let _: Text = takes_text(hand);
    let _: Hand = takes_hand(Literal::default());
    assert_eq!(Hand::TEXT, "f32[3,5]{1,0:T(2,2)}");
    assert_eq!((Text::ELEMENTS, Text::SLOTS, Text::BYTES), (15, 24, 96));
    assert_eq!(Text::offset([2, 3]), 17);
}

//! The index functions whose release assembly `.ci/check-asm` inspects: no
//! calls, no loops, no divide instructions. Run it to see their values.
use tilelayout::{layout, Layout};

/// `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`, the design card's layout.
pub type Bf16Tpu = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)});

/// The offset of a coordinate under [`Bf16Tpu`].
#[no_mangle]
#[inline(never)]
pub fn tilelayout_offset_bf16(i: [usize; 4]) -> usize {
    Bf16Tpu::offset(i)
}

/// The same, written by hand.
#[no_mangle]
#[inline(never)]
pub fn hand_offset_bf16(i: [usize; 4]) -> usize {
    // physical order (1, 0, 2, 3): dims (1, 8, 1280, 16384); T(8,128) on the
    // last two, then (2,1) on the 8×128 tile.
    let (a, b, c, d) = (i[1], i[0], i[2], i[3]);
    let _ = a; // size-1 dim
    let tiles_per_row = 16384 / 128;
    let tile = (b * (1280 / 8) + c / 8) * tiles_per_row + d / 128;
    let (r, col) = (c % 8, d % 128);
    tile * 1024 + (r / 2) * 256 + col * 2 + (r % 2)
}

fn main() {
    let i = [std::hint::black_box(5), 0, 1000, 9999];
    println!("{} {}", tilelayout_offset_bf16(i), hand_offset_bf16(i));
    assert_eq!(tilelayout_offset_bf16(i), hand_offset_bf16(i));
}

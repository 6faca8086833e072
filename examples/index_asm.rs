//! The index functions whose release assembly `.ci/check-asm` inspects on
//! x86-64: no calls, no loops, no divide instructions. They live in
//! `nostd-example/src/offsets.rs` (compiled here too, and for
//! `thumbv7em-none-eabihf` there), typed next to hand-written.
//!
//! Run it to see that the two agree:
//! `cargo run --release --example index_asm`.

#[path = "../nostd-example/src/offsets.rs"]
mod offsets;

use offsets::{
    hand_offset_bf16, hand_offset_cute, hand_offset_f32, tilelayout_offset_bf16,
    tilelayout_offset_cute, tilelayout_offset_f32, Bf16Tpu,
};
use std::hint::black_box;
use tilelayout::Layout;

fn main() {
    let mut checked = 0usize;
    for i0 in 0..8 {
        for i2 in (0..1280).step_by(7) {
            for i3 in (0..16384).step_by(251).chain([16383]) {
                let i = black_box([i0, 0, i2, i3]);
                let typed = tilelayout_offset_bf16(i[0], i[1], i[2], i[3]);
                assert_eq!(typed, hand_offset_bf16(i[0], i[1], i[2], i[3]), "{i:?}");
                checked += 1;
            }
        }
    }
    for row in 0..3 {
        for col in 0..5 {
            let (r, c) = black_box((row, col));
            assert_eq!(
                tilelayout_offset_f32(r, c),
                hand_offset_f32(r, c),
                "({r},{c})"
            );
            checked += 1;
        }
    }
    for t in 0..256 {
        for r in 0..32 {
            let (t, r) = black_box((t, r));
            assert_eq!(
                tilelayout_offset_cute(t, r),
                hand_offset_cute(t, r),
                "({t},{r})"
            );
            checked += 1;
        }
    }
    println!(
        "{}: typed and hand-written offsets agree on {checked} coordinates",
        Bf16Tpu::TEXT
    );
    println!(
        "(5,0,1000,9999) -> slot {}",
        tilelayout_offset_bf16(black_box(5), 0, 1000, 9999)
    );
}

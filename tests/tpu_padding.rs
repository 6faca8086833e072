//! Padding reports: the seed's example and the sizes SPEC states.

use tilelayout::tpu::{padding_report, tpu_layout, tpu_layout_for_text};
use tilelayout::value::{parse_shape, ErrorKind, PrimitiveType};

#[track_caller]
fn report(text: &str) -> tilelayout::tpu::PaddingReport {
    padding_report(&parse_shape(text).unwrap()).unwrap()
}

#[test]
fn f32_3x5_in_one_8x128_tile_uses_15_of_1024_slots() {
    let r = report("f32[3,5]{1,0:T(8,128)}");
    assert_eq!((r.elements, r.slots), (15, 1024));
    assert_eq!(
        (r.bytes, r.xla_bytes, r.unpadded_bytes, r.padding_bytes),
        (4096, 4096, 60, 4036)
    );
    assert!((r.padding_percent - 4036.0 * 100.0 / 4096.0).abs() < 1e-9);
    // The policy picks the small (4,128) tile instead: half the storage.
    let s = tpu_layout(PrimitiveType::F32, &[3, 5], None).unwrap();
    let r = padding_report(&s).unwrap();
    assert_eq!((r.slots, r.bytes, r.padding_bytes), (512, 2048, 1988));
}

#[test]
fn spec_sizes() {
    let r = report("bf16[16,1280,40]{2,1,0:T(8,128)(2,1)}");
    assert_eq!(
        (r.bytes, r.xla_bytes, r.unpadded_bytes),
        (5242880, 5242880, 1638400)
    );
    assert_eq!(r.padding_bytes, 5242880 - 1638400);
    let r = report("u8[327680,327680]{1,0:T(8,128)(4,1)}");
    assert_eq!(
        (r.xla_bytes, r.padding_bytes, r.padding_percent),
        (107374182400, 0, 0.0)
    );
}

#[test]
fn no_padding_when_tiles_divide() {
    let r = tpu_layout_for_text("bf16[1024,1024]").unwrap().report;
    assert_eq!(
        (
            r.bytes,
            r.unpadded_bytes,
            r.padding_bytes,
            r.padding_percent
        ),
        (2097152, 2097152, 0, 0.0)
    );
}

#[test]
fn packed_and_sub_byte_sizes() {
    // 4-bit packed: 1024 slots of 4 bits.
    let r = tpu_layout_for_text("s4[8,128]").unwrap().report;
    assert_eq!(
        (r.slots, r.bytes, r.xla_bytes, r.unpadded_bytes),
        (1024, 512, 512, 512)
    );
    // pred takes a byte: a scalar in T(512) is 512 bytes, 1 of them used.
    let r = tpu_layout_for_text("pred[]").unwrap().report;
    assert_eq!(
        (r.slots, r.bytes, r.unpadded_bytes, r.padding_bytes),
        (512, 512, 1, 511)
    );
    // The 1-bit format would store the same scalar in 4096 bits.
    let r = report("pred[]{:T(32,128)(32,1)E(1)}");
    assert_eq!((r.slots, r.bytes, r.unpadded_bytes), (4096, 512, 1));
}

#[test]
fn display_is_one_line() {
    let r = report("f32[3,5]{1,0:T(8,128)}");
    assert_eq!(
        r.to_string(),
        "4096 bytes (XLA 4096), 60 for 15 elements, 4036 padding (98.5%)"
    );
}

#[test]
fn errors_pass_through() {
    let e = padding_report(&parse_shape("f32[<=3,5]{1,0:T(8,128)}").unwrap()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::DynamicShape);
    let e = padding_report(&parse_shape("f32[3,5]{1,0:T(0,128)}").unwrap()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ZeroTileDim { tile: 0, dim: 0 });
}

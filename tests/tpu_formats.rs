//! The named TPU formats print as XLA writes them and are what the
//! builders produce.

use tilelayout::tpu::{self, *};
use tilelayout::value::{parse_layout, write_attributes, PrimitiveType, Shape, TextBuf, XlaLayout};

fn attrs(l: &XlaLayout) -> String {
    let mut t = TextBuf::<64>::new();
    write_attributes(&mut t, l);
    t.as_str().to_owned()
}

#[test]
fn named_formats_print_their_text() {
    let table: [(&str, XlaLayout, &str); 9] = [
        ("UNTILED", UNTILED, ""),
        ("TILE_8_128", TILE_8_128, "T(8,128)"),
        ("TILE_1_128", TILE_1_128, "T(1,128)"),
        ("TILE_2_128", TILE_2_128, "T(2,128)"),
        ("TILE_4_128", TILE_4_128, "T(4,128)"),
        ("TILE_16BIT", TILE_16BIT, "T(8,128)(2,1)"),
        ("TILE_8BIT", TILE_8BIT, "T(8,128)(4,1)"),
        ("TILE_4BIT", TILE_4BIT, "T(8,128)(8,1)E(4)"),
        ("TILE_1BIT", TILE_1BIT, "T(32,128)(32,1)E(1)"),
    ];
    for (name, format, text) in table {
        assert_eq!(attrs(&format), text, "{name}");
        assert!(
            format.minor_to_major().is_empty(),
            "{name} carries no minor_to_major"
        );
        // The layout text parses back to the same format.
        let layout_text = if text.is_empty() {
            "{}".to_owned()
        } else {
            format!("{{:{text}}}")
        };
        assert_eq!(format.to_string(), layout_text, "{name}");
        assert_eq!(parse_layout(&layout_text).unwrap(), format, "{name}");
    }
}

#[test]
fn formats_on_shapes_match_the_seeds() {
    let on = |ty, dims: &[u64], m2m: &[i64], f| {
        Shape::new(ty, dims)
            .unwrap()
            .with_layout(with_minor_to_major(f, m2m).unwrap())
            .to_string()
    };
    use PrimitiveType::*;
    assert_eq!(
        on(F32, &[3, 5], &[1, 0], TILE_8_128),
        "f32[3,5]{1,0:T(8,128)}"
    );
    assert_eq!(
        on(BF16, &[2, 1024], &[1, 0], tile_2d(4, BF16).unwrap()),
        "bf16[2,1024]{1,0:T(4,128)(2,1)}"
    );
    assert_eq!(
        on(U8, &[327680, 327680], &[1, 0], TILE_8BIT),
        "u8[327680,327680]{1,0:T(8,128)(4,1)}"
    );
    assert_eq!(
        on(S4, &[3, 5], &[1, 0], TILE_4BIT),
        "s4[3,5]{1,0:T(8,128)(8,1)E(4)}"
    );
    assert_eq!(
        on(Pred, &[64, 128], &[1, 0], TILE_1BIT),
        "pred[64,128]{1,0:T(32,128)(32,1)E(1)}"
    );
    assert_eq!(
        on(F32, &[], &[], tile_scalar(F32).unwrap()),
        "f32[]{:T(128)}"
    );
    assert_eq!(
        on(BF16, &[2048], &[0], tile_1d(1024, BF16).unwrap()),
        "bf16[2048]{0:T(1024)(128)(2,1)}"
    );
    assert_eq!(on(F32, &[3, 5], &[1, 0], UNTILED), "f32[3,5]{1,0}");
}

#[test]
fn every_format_is_valid_on_a_shape() {
    for f in [
        UNTILED, TILE_8_128, TILE_1_128, TILE_2_128, TILE_4_128, TILE_16BIT, TILE_8BIT, TILE_4BIT,
        TILE_1BIT,
    ] {
        let s = Shape::new(PrimitiveType::BF16, &[7, 300])
            .unwrap()
            .with_layout(with_minor_to_major(f, &[1, 0]).unwrap());
        s.validate().unwrap_or_else(|e| panic!("{s}: {e}"));
    }
}

#[test]
fn packing_follows_the_element_width() {
    use PrimitiveType::*;
    let table = [
        (F32, Some(1)),
        (S32, Some(1)),
        (U32, Some(1)),
        (BF16, Some(2)),
        (F16, Some(2)),
        (S16, Some(2)),
        (S8, Some(4)),
        (U8, Some(4)),
        (F8E4M3FN, Some(4)),
        (Pred, Some(4)),
        (S4, Some(8)),
        (U4, Some(8)),
        (F4E2M1FN, Some(8)),
        (S1, None),
        (U2, None),
        (F64, None),
        (S64, None),
        (C64, None),
        (Token, None),
    ];
    for (ty, p) in table {
        assert_eq!(tpu::packing(ty), p, "{}", ty.name());
    }
    assert_eq!(tpu::element_size_in_bits(S4), 4);
    assert_eq!(tpu::element_size_in_bits(S8), 0);
}

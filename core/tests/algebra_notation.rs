//! CuTe's notation: print ∘ parse is the identity on everything printed,
//! parse ∘ print on random values, errors carry byte positions, and no
//! input makes the parser panic.

mod algebra_gen;
use algebra_gen::{layout, tiler, Strides};
use proptest::prelude::*;
use tilelayout_core::algebra::{
    evaluate, AlgebraErrorKind, AnyLayout, ComposedLayout, CuteLayout, IntTuple, Op, Tiler,
    MAX_DEPTH, MAX_NODES,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn layout_round_trip(l in layout(Strides::Any, 0.5)) {
        let text = l.to_string();
        let back = CuteLayout::parse(&text).unwrap();
        prop_assert_eq!(back, l);
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn tiler_round_trip(t in tiler()) {
        let text = t.to_string();
        prop_assert_eq!(Tiler::parse(&text).unwrap(), t);
    }

    #[test]
    fn composed_round_trip(l in layout(Strides::Any, 0.5), b in 0i32..4, m in 0i32..4, s in 4i32..6, neg in any::<bool>(), off in -5i64..5) {
        let s = if neg { -s } else { s };
        let text = format!("Sw<{b},{m},{s}> o {off} o {l}");
        let c = ComposedLayout::parse(&text).unwrap();
        prop_assert_eq!(c.to_string(), text);
    }

    /// Arbitrary bytes: an error or a value, never a panic; errors point
    /// inside the input (or at its end).
    #[test]
    fn arbitrary_input_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let text = String::from_utf8_lossy(&bytes);
        for r in [CuteLayout::parse(&text).err(), IntTuple::parse(&text).err(), AnyLayout::parse(&text).err(), Tiler::parse(&text).err()].into_iter().flatten() {
            prop_assert!(r.span.is_none() || r.span.start as usize <= text.len());
        }
        for op in Op::ALL {
            let _ = evaluate(op, &[&text, &text]);
        }
    }

    /// Text made of the notation's own characters, to reach deeper.
    #[test]
    fn notation_soup_never_panics(s in "[()_,:0-9 -]{0,40}") {
        if let Ok(l) = CuteLayout::parse(&s) {
            prop_assert_eq!(CuteLayout::parse(&l.to_string()).unwrap(), l);
        }
        for op in Op::ALL {
            let _ = evaluate(op, &[&s, "(_2,_2)"]);
            let _ = evaluate(op, &["(_4,(2,_3)):(_1,(4,_8))", &s]);
        }
    }
}

#[test]
fn hostile_inputs() {
    let deep = format!(
        "{}1{}:{}1{}",
        "(".repeat(1000),
        ")".repeat(1000),
        "(".repeat(1000),
        ")".repeat(1000)
    );
    assert_eq!(
        CuteLayout::parse(&deep).unwrap_err().kind,
        AlgebraErrorKind::TooDeep
    );
    let ok_depth = format!("{}1{}", "(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
    assert!(IntTuple::parse(&ok_depth).is_ok());
    let too_deep = format!(
        "{}1{}",
        "(".repeat(MAX_DEPTH + 1),
        ")".repeat(MAX_DEPTH + 1)
    );
    let e = IntTuple::parse(&too_deep).unwrap_err();
    assert_eq!(
        (e.kind, e.span.start),
        (AlgebraErrorKind::TooDeep, MAX_DEPTH as u32)
    );
    let wide = format!("({})", vec!["1"; MAX_NODES].join(","));
    assert_eq!(
        IntTuple::parse(&wide).unwrap_err().kind,
        AlgebraErrorKind::TooManyNodes
    );
    let fits = format!("({})", vec!["1"; MAX_NODES - 1].join(","));
    assert!(IntTuple::parse(&fits).is_ok());
    for huge in [
        "9223372036854775808:1",
        "_99999999999999999999999:1",
        "1:-9223372036854775809",
    ] {
        assert_eq!(
            CuteLayout::parse(huge).unwrap_err().kind,
            AlgebraErrorKind::IntegerTooLarge,
            "{huge}"
        );
    }
    assert!(CuteLayout::parse("1:-9223372036854775808").is_ok());
    for bad in [
        "((1,2):(1,2)",
        "(1,2)):(1,2)",
        "(1,2):(1,2",
        ")",
        "(",
        ":",
        "",
        "(,)",
        "(1,):(1,)",
        "_:_",
        "--1:1",
        "1:1:1",
    ] {
        assert!(CuteLayout::parse(bad).is_err(), "{bad}");
    }
    // overflowing sizes and cosizes are errors, not panics
    let big = CuteLayout::parse("(_4294967296,_4294967296):(_4294967296,_1)").unwrap();
    assert_eq!(big.size().unwrap_err().kind, AlgebraErrorKind::Overflow);
    assert!(big.cosize().is_err());
    assert!(evaluate(
        Op::Coalesce,
        &["(_4294967296,_4294967296):(_1,_4294967296)"]
    )
    .is_err());
    assert!(evaluate(
        Op::Complement,
        &["(_3037000500,_3037000500):(_1,_3037000501)"]
    )
    .is_err());
}

#[test]
fn error_messages_say_where() {
    let e = CuteLayout::parse("(_2,_3):(_1;_2)").unwrap_err();
    assert_eq!(e.to_string(), "expected `,` or `)`, found `;` at byte 11");
    let e = CuteLayout::parse("(_2,_3):(_1,").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unexpected end of input, expected an integer or `(` at byte 12"
    );
}

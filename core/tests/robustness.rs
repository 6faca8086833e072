//! Bad input never panics: megabytes of garbage, 10,000 nested
//! parentheses, integers past `u64` and exactly at 2^63−1 / 2^63, every
//! truncation of every row of the vectors file, random byte mutations of
//! real shapes. Every failure is a typed [`Error`] whose span lies inside
//! the input (on character boundaries), and a few messages are checked
//! word for word.

mod common;

use tilelayout_core::{
    canonicalize, parse_layout, parse_shape, parse_shape_with, parse_tile, parse_valid_shape, walk,
    Error, ErrorKind, Event, ParseOptions, MAX_NESTING,
};

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The span is inside `text`, on character boundaries, and the message
/// reads as one (non-empty, with its position when it has one).
fn check_error(text: &str, e: &Error, what: &str) {
    let (s, end) = (e.span.start as usize, e.span.end as usize);
    assert!(
        s <= end && end <= text.len(),
        "{what}: span {s}..{end} outside {} bytes: {e:?}",
        text.len()
    );
    assert!(
        text.get(s..end).is_some(),
        "{what}: span {s}..{end} not on char boundaries in {text:?}"
    );
    let msg = e.to_string();
    assert!(
        !e.message().as_str().is_empty() && !e.message().overflowed(),
        "{what}: {e:?}"
    );
    if end > 0 {
        assert!(msg.ends_with(&format!(" at byte {s}")), "{what}: {msg}");
    }
}

/// Runs every text entry point on `text`; panics only on a broken contract.
/// Returns whether `parse_shape` accepted it.
fn every_entry_point(text: &str) -> bool {
    let strict = ParseOptions { strict: true };
    let mut parsed = false;
    match parse_shape(text) {
        Ok(s) => {
            parsed = true;
            let _ = s.validate();
            let _ = s.sizes();
            if let Ok(t) = s.tiling() {
                let zero = vec![0u64; s.rank()];
                let _ = t.offset(&zero);
                let _ = t.coords(0);
                let _ = t.coords(t.slots().saturating_sub(1));
            }
            // printing is a fixed point
            let printed = s.to_string();
            match parse_shape(&printed) {
                Ok(again) => assert_eq!(again.to_string(), printed, "{text:?}"),
                Err(e) if common::prints_unreadable(&s) => {
                    assert_eq!(e.kind, ErrorKind::TrailingInput)
                }
                Err(e) => panic!("{text:?} printed {printed:?}: {e}"),
            }
        }
        Err(e) => check_error(text, &e, "parse_shape"),
    }
    if let Err(e) = parse_valid_shape(text) {
        check_error(text, &e, "parse_valid_shape");
    }
    if let Err(e) = parse_shape_with(text, strict) {
        check_error(text, &e, "strict parse_shape_with");
    }
    let mut out = String::new();
    let mut unreadable = false;
    let _ = walk(text, Default::default(), |ev| {
        if let Event::Array { shape, .. } = ev {
            unreadable |= common::prints_unreadable(shape);
        }
    });
    match canonicalize(text, Default::default(), &mut out) {
        Ok(()) if unreadable => {}
        Ok(()) => {
            let mut again = String::new();
            canonicalize(&out, Default::default(), &mut again)
                .unwrap_or_else(|e| panic!("{text:?} canonicalized {out:?}: {e}"));
            assert_eq!(again, out, "{text:?}");
        }
        Err(e) => {
            check_error(text, &e, "canonicalize");
            assert!(out.is_empty(), "canonicalize wrote output before an error");
        }
    }
    let mut arrays = 0;
    if let Err(e) = walk(text, strict, |ev| {
        if let Event::Array { shape, spans, .. } = ev {
            arrays += 1;
            if let Err(e) = shape.validate() {
                check_error(text, &spans.locate(e), "walk + locate");
            }
        }
    }) {
        check_error(text, &e, "walk");
    }
    if let Err(e) = parse_layout(text) {
        check_error(text, &e, "parse_layout");
    }
    if let Err(e) = parse_tile(text) {
        check_error(text, &e, "parse_tile");
    }
    parsed
}

const ALPHABET: &[u8] = b"f32bs8pred[]{}(),:*<=?TLESCMD#P0123456789 -_/\n\t\xc3\xa9";

#[test]
fn megabytes_of_garbage() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // 2 MB of uniformly random bytes, as one text (lossy UTF-8) …
    let bytes: Vec<u8> = (0..2 << 20).map(|_| rng.next() as u8).collect();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    assert!(text.len() > 2 << 20);
    assert!(!every_entry_point(&text));
    // … 2 MB of the shape alphabet as one text (a long run of digits
    // included) …
    let mut shapeish: Vec<u8> = (0..2 << 20)
        .map(|_| ALPHABET[rng.below(ALPHABET.len())])
        .collect();
    shapeish.splice(
        0..0,
        b"f32["
            .iter()
            .copied()
            .chain(std::iter::repeat_n(b'7', 1 << 20)),
    );
    let text = String::from_utf8_lossy(&shapeish).into_owned();
    assert!(!every_entry_point(&text));
    // … and 4 MB of it in short pieces, some of which parse.
    let mut parsed = 0;
    let mut total = 0;
    let mut pieces = 0;
    while total < 4 << 20 {
        let len = 1 + rng.below(40);
        let mut piece: Vec<u8> = b"f32[".to_vec();
        piece.truncate(rng.below(5));
        piece.extend((0..len).map(|_| ALPHABET[rng.below(ALPHABET.len())]));
        let text = String::from_utf8_lossy(&piece).into_owned();
        total += text.len();
        pieces += 1;
        parsed += every_entry_point(&text) as usize;
    }
    println!("garbage: {pieces} pieces, {parsed} parsed");
}

#[test]
fn ten_thousand_nested_parentheses() {
    for (open, close) in [("(", ")"), ("b(", ")"), ("(b(", "))")] {
        let text = format!("{}f32[]{}", open.repeat(10_000), close.repeat(10_000));
        let e = walk(&text, Default::default(), |_| {}).unwrap_err();
        assert_eq!(e.kind, ErrorKind::TooDeep, "{open}");
        check_error(&text, &e, "walk");
        let mut out = String::new();
        let e = canonicalize(&text, Default::default(), &mut out).unwrap_err();
        assert_eq!(e.kind, ErrorKind::TooDeep);
        assert!(out.is_empty());
        every_entry_point(&text);
        // unclosed, and closed without opening
        every_entry_point(&open.repeat(10_000));
        every_entry_point(&format!("f32[]{}", close.repeat(10_000)));
    }
    // inside a layout and a tile
    every_entry_point(&format!("f32[2]{{0:T{}}}", "(".repeat(10_000)));
    every_entry_point(&format!("f32[2]{{0:T{}}}", "(1)".repeat(10_000)));
    every_entry_point(&format!("f32[2]{}", "{".repeat(10_000)));
    every_entry_point(&format!("f32{}", "[".repeat(10_000)));
    let e = parse_shape(&"(".repeat(10_000)).unwrap_err();
    assert_eq!(e.span.start, 0);
    let e = parse_shape(&format!("f32[2]{{0:T{}}}", "(1)".repeat(10_000))).unwrap_err();
    assert_eq!(e.kind, ErrorKind::TooManyTiles);
    assert_eq!(e.span.start as usize, 10 + 3 * tilelayout_core::MAX_TILES);
}

#[test]
fn nesting_limit_is_exact() {
    let nest = |n: usize| format!("{}f32[]{}", "(".repeat(n), ")".repeat(n));
    let mut depth = 0;
    let mut max = 0;
    walk(&nest(MAX_NESTING), Default::default(), |e| match e {
        Event::TupleStart { .. } => {
            depth += 1;
            max = max.max(depth);
        }
        Event::TupleEnd => depth -= 1,
        _ => {}
    })
    .unwrap();
    assert_eq!((max, depth), (MAX_NESTING, 0));
    let e = walk(&nest(MAX_NESTING + 1), Default::default(), |_| {}).unwrap_err();
    assert_eq!(e.kind, ErrorKind::TooDeep);
    assert_eq!(
        (e.span.start, e.span.end),
        (MAX_NESTING as u32, MAX_NESTING as u32 + 1)
    );
}

#[test]
fn integers_at_and_past_the_i64_limit() {
    const MAX: &str = "9223372036854775807"; // 2^63 − 1
    const OVER: &str = "9223372036854775808"; // 2^63
                                              // 2^63 − 1 is accepted everywhere an integer goes …
    let s = parse_shape(&format!("u8[{MAX}]{{0:T({MAX})L({MAX})E({MAX})M({MAX})}}")).unwrap();
    assert_eq!(s.dims()[0].size(), Some(i64::MAX as u64));
    assert_eq!(s.layout().tiles()[0].to_string(), format!("({MAX})"));
    assert_eq!(
        s.to_string(),
        format!("u8[{MAX}]{{0:T({MAX})L({MAX})E({MAX})M({MAX})}}")
    );
    // … and sizes that do not fit are errors, not wrap-around.
    assert_eq!(s.sizes().unwrap_err().kind, ErrorKind::SizeOverflow);
    let f64s = parse_valid_shape(&format!("f64[{MAX}]")).unwrap();
    assert_eq!(f64s.sizes().unwrap_err().kind, ErrorKind::SizeOverflow);
    let u8s = parse_valid_shape(&format!("u8[{MAX}]"))
        .unwrap()
        .sizes()
        .unwrap();
    assert_eq!(
        (u8s.elements, u8s.bytes),
        (i64::MAX as u64, i64::MAX as u64)
    );
    // tiling past u64: T(4) makes 2^63 − 1 into (2^61, 4); the second tile
    // (1,8) pads the 4 to 8: 2^61 · 8 = 2^64 slots
    let text = format!("u8[{MAX}]{{0:T(4)(1,8)}}");
    let e = parse_valid_shape(&text).unwrap_err();
    assert_eq!(e.kind, ErrorKind::SizeOverflow);
    check_error(&text, &e, "overflow");
    let t = parse_valid_shape(&format!("u8[{MAX}]{{0:T(4)(1,4)}}"))
        .unwrap()
        .tiling()
        .unwrap();
    assert_eq!(t.slots(), 1 << 63);
    assert_eq!(
        t.offset(&[i64::MAX as u64 - 1]).unwrap(),
        i64::MAX as u64 - 1
    );
    assert_eq!(t.coords((1 << 63) - 1).unwrap(), None);
    // the dims' product past i64 (XLA's own rule)
    let e = parse_valid_shape("f32[4294967296,4294967296]").unwrap_err();
    assert_eq!(e.kind, ErrorKind::DimsOverflow);
    // 2^63 and beyond u64 are refused where they stand, in every position.
    for big in [
        OVER,
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999999999999999",
    ] {
        for (text, at) in [
            (format!("f32[{big}]"), 4),
            (format!("f32[<={big}]"), 6),
            (format!("f32[2]{{{big}}}"), 7),
            (format!("f32[2]{{-{big}}}"), 7),
            (format!("f32[2]{{0:T({big})}}"), 11),
            (format!("f32[2]{{0:L({big})}}"), 11),
            (format!("f32[2]{{0:E({big})}}"), 11),
            (format!("f32[2]{{0:S({big})}}"), 11),
            (format!("f32[2]{{0:SC({big}:1)}}"), 12),
            (format!("f32[2]{{0:SC(0:{big})}}"), 14),
            (format!("f32[2]{{0:M({big})}}"), 11),
        ] {
            let e = parse_shape(&text).unwrap_err();
            assert_eq!(e.span.start, at, "{text}: {e}");
            if !text.contains("S(") {
                assert_eq!(e.kind, ErrorKind::IntegerTooLarge, "{text}");
                let end = text.find(big).unwrap() + big.len();
                assert_eq!(e.span.end as usize, end, "{text}");
            }
            check_error(&text, &e, &text);
            every_entry_point(&text);
        }
    }
    // a tile of 2^63 (XLA silently reads it as `*`) is refused, not combined
    let e = parse_tile(&format!("({OVER},2)")).unwrap_err();
    assert_eq!(
        (e.kind, e.span.start, e.span.end),
        (ErrorKind::IntegerTooLarge, 1, 20)
    );
    // i64::MIN in minor_to_major is refused too (its magnitude is 2^63)
    assert_eq!(
        parse_layout(&format!("{{-{OVER}}}")).unwrap_err().kind,
        ErrorKind::IntegerTooLarge
    );
    let l = parse_layout(&format!("{{-{MAX}}}")).unwrap();
    assert_eq!(l.minor_to_major(), &[-i64::MAX]);
    let e = parse_valid_shape(&format!("f32[2]{{-{MAX}}}")).unwrap_err();
    assert_eq!(
        e.kind,
        ErrorKind::MinorToMajorRange {
            position: 0,
            value: -i64::MAX
        }
    );
    assert_eq!((e.span.start, e.span.end), (7, 27));
    // a megabyte of digits
    let digits = "9".repeat(1 << 20);
    let e = parse_shape(&format!("f32[{digits}]")).unwrap_err();
    assert_eq!(
        (e.kind, e.span.start as usize, e.span.end as usize),
        (ErrorKind::IntegerTooLarge, 4, 4 + (1 << 20))
    );
    let zeros = format!("{}7", "0".repeat(1 << 20));
    assert_eq!(
        parse_shape(&format!("f32[{zeros}]")).unwrap().to_string(),
        "f32[7]{0}"
    );
}

/// The text of every row: the input column, and the shape before `@`.
fn vector_texts() -> Vec<String> {
    let mut out = Vec::new();
    for (_, cols) in common::rows("xla_vectors_dev.tsv") {
        let input = &cols[1];
        out.push(input.clone());
        if let Some((shape, _)) = input.rsplit_once('@') {
            out.push(shape.to_owned());
        }
    }
    for (_, cols) in common::rows("real_shapes_dev.tsv") {
        out.push(cols[0].clone());
    }
    out
}

#[test]
fn every_truncation_of_every_vector() {
    let texts = vector_texts();
    let mut cases = 0;
    for text in &texts {
        for (end, _) in text.char_indices().chain([(text.len(), ' ')]) {
            every_entry_point(&text[..end]);
            // a truncation is either a shape itself or a located error at
            // (or before) its end
            if let Err(e) = parse_shape(&text[..end]) {
                assert!(e.span.start as usize <= end);
            }
            cases += 1;
        }
    }
    println!("truncations: {cases} prefixes of {} texts", texts.len());
    assert!(cases > 20_000);
}

#[test]
fn random_mutations_of_real_shapes() {
    let texts = vector_texts();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut parsed = 0;
    let mut cases = 0;
    for text in &texts {
        for _ in 0..150 {
            let mut b = text.as_bytes().to_vec();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(b.len() + 1);
                match rng.below(6) {
                    0 if i < b.len() => b[i] = rng.next() as u8,
                    1 if i < b.len() => b[i] = ALPHABET[rng.below(ALPHABET.len())],
                    2 => b.insert(i, ALPHABET[rng.below(ALPHABET.len())]),
                    3 if i < b.len() => {
                        b.remove(i);
                    }
                    4 => {
                        // duplicate a slice
                        let j = rng.below(b.len() + 1);
                        let (lo, hi) = (i.min(j), i.max(j));
                        let dup: Vec<u8> = b[lo..hi].to_vec();
                        b.splice(hi..hi, dup);
                    }
                    _ if i < b.len() => b[i] ^= 1 << rng.below(8),
                    _ => {}
                }
            }
            let text = String::from_utf8_lossy(&b);
            parsed += every_entry_point(&text) as usize;
            cases += 1;
        }
    }
    println!("mutations: {cases} cases, {parsed} still parse");
    assert!(parsed > 0 && parsed < cases);
}

#[test]
fn an_empty_written_layout_prints_as_xla_does() {
    let s = parse_shape("s32[8]{:}").unwrap();
    assert_eq!(
        s.validate().unwrap_err().kind,
        ErrorKind::MinorToMajorLength { rank: 1, found: 0 }
    );
    assert_eq!(s.to_string(), "s32[8]{}");
    assert!(common::prints_unreadable(&s));
    assert_eq!(
        parse_shape("s32[8]{}").unwrap_err().kind,
        ErrorKind::TrailingInput
    );
    // rank 0: `{:}` is the default layout and prints as nothing
    assert_eq!(parse_shape("f32[]{:}").unwrap().to_string(), "f32[]");
}

#[test]
fn messages_read_well() {
    let msg = |text: &str| parse_valid_shape(text).unwrap_err().to_string();
    let cases = [
        ("f32[3,5]{1,0:T(2;2)}", "expected `,` or `)` in the tile, found `;` at byte 16"),
        ("f32[3,5", "unexpected end of input, expected `,` or `]` at byte 7"),
        (
            "f32[3,5]{1,1}",
            "minor_to_major lists dim 1 twice; it must be a permutation of the dims at byte 11",
        ),
        ("f32[3,5]{1,0:T(0,2)}", "tile 0 has a zero dim (dim 0); tile dims must be positive or `*` at byte 15"),
        (
            "f32[9223372036854775808]",
            "integer too large; XLA stores it in i64 (at most 9223372036854775807) at byte 4",
        ),
        (
            "f32[3,5]{1,0:S(1)T(2,2)}",
            "layout attribute `T` is repeated or out of order; XLA's order is T L # * E S SC M at byte 17",
        ),
        ("f32[3,5]{1,0:L(0)}", "L(0): tail padding alignment must be at least 1 at byte 13"),
        (
            "bf16[2,3,1004]{2,1,0:T(2,128,*)}",
            "tile 0 ends in `*`; `*` combines a dim into the next more-minor one, so it cannot be the last at byte 22",
        ),
        ("f32[3]{0} x", "unexpected text after the end of the shape at byte 10"),
        ("f32[3]{0:T(é)}", "expected a tile dim: a positive integer or `*`, found a non-printable or non-ASCII byte at byte 11"),
        ("f32[-1,5]", "expected a non-negative integer, found `-` at byte 4"),
        ("f33[2]", "unknown element type; expected an XLA type such as f32, bf16, s8, s4, pred, f8e4m3fn at byte 0"),
    ];
    let mut wrong = Vec::new();
    for (text, want) in cases {
        let got = msg(text);
        if got != want {
            wrong.push(format!("{text}\n  got:  {got}\n  want: {want}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // tuples: the deep-nesting error points at the `(` that is one too many
    let e = walk(&"(".repeat(100), Default::default(), |_| {}).unwrap_err();
    assert_eq!(e.span.start as usize, MAX_NESTING);
}

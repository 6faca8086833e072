//! Properties of the semantics on random layouts (proptest): rank 0–6,
//! dims up to a few hundred, 0–3 tiles (`*` included, tiles longer than
//! the shape included), random `minor_to_major`, `L`, `E` and element type.
//!
//! 1. `offset` is injective on sampled coordinates;
//! 2. every offset is `< slots()`;
//! 3. `coords(offset(c)) == c`;
//! 4. on small layouts, exactly `slots() - elements()` slots are padding and
//!    every other slot maps back to itself;
//! 5. print → parse → print is a fixed point, and parse(print(s)) == s
//!    (also for non-canonical spellings of the same shape);
//! 6. `sizes()` agrees with the definitions (SPEC §2), computed here from
//!    the dims alone;
//! 7. on arbitrary (mostly invalid) text and values, `validate`, `sizes`,
//!    `tiling`, `offset` and `coords` return errors and never panic.

mod common;

use proptest::prelude::*;
use proptest::test_runner::Config;
use std::collections::HashMap;
use tilelayout_core::{
    canonicalize, parse_layout, parse_shape, parse_tile, parse_valid_shape, Dim, ErrorKind,
    PrimitiveType, Shape, Sizes, Tile, TileDim, XlaLayout,
};

// ---- generators -------------------------------------------------------------

/// A tile dim: small sizes often, large ones sometimes, `*` sometimes.
fn tile_dim() -> impl Strategy<Value = TileDim> {
    prop_oneof![
        6 => (1u64..=8).prop_map(TileDim::Size),
        2 => prop::sample::select(vec![16u64, 32, 128, 256]).prop_map(TileDim::Size),
        1 => (1u64..=300).prop_map(TileDim::Size),
        3 => Just(TileDim::Combine),
    ]
}

/// A valid tile of rank 1..=max_rank: `*` anywhere but last.
fn tile(max_rank: usize) -> impl Strategy<Value = Tile> {
    (
        prop::collection::vec(tile_dim(), 0..max_rank),
        tile_dim().prop_filter("not *", |d| *d != TileDim::Combine),
    )
        .prop_map(|(mut dims, last)| {
            dims.push(last);
            let mut t = Tile::EMPTY;
            for d in dims {
                assert!(t.push(d));
            }
            t
        })
}

fn dim() -> impl Strategy<Value = u64> {
    prop_oneof![5 => 0u64..=9, 3 => 1u64..=300, 1 => Just(0u64)]
}

fn element_type() -> impl Strategy<Value = PrimitiveType> {
    prop::sample::select(
        PrimitiveType::ALL
            .iter()
            .copied()
            .filter(|t| t.is_array_type())
            .collect::<Vec<_>>(),
    )
}

/// A valid array shape with a random layout.
fn valid_shape() -> impl Strategy<Value = Shape> {
    (0usize..=6)
        .prop_flat_map(|rank| {
            (
                element_type(),
                prop::collection::vec(dim(), rank),
                Just((0..rank).collect::<Vec<usize>>()).prop_shuffle(),
                prop::collection::vec(tile(rank + 2), 0..=3),
                prop_oneof![3 => Just(1u64), 1 => 1u64..=300],
                prop_oneof![3 => Just(0u64), 1 => 1u64..=64],
                prop_oneof![3 => Just(0i8), 1 => any::<i8>()],
            )
        })
        .prop_map(|(ty, dims, m2m, tiles, l, e, s)| {
            let mut layout = XlaLayout::EMPTY;
            for d in m2m {
                assert!(layout.push_minor_to_major(d as i64));
            }
            for t in tiles {
                assert!(layout.push_tile(t));
            }
            layout.tail_padding_alignment_in_elements = l;
            layout.element_size_in_bits = e;
            layout.memory_space = s;
            Shape::new(ty, &dims).unwrap().with_layout(layout)
        })
}

fn static_dims(s: &Shape) -> Vec<u64> {
    s.dims().iter().map(|d| d.size().unwrap()).collect()
}

// ---- an independent model of the sizes (SPEC §2) ----------------------------

/// The physical dims, then the dims after each tile level, from the
/// definitions: combine `*` dims, left-pad with 1s, ⌈d/t⌉ then t. `None` if
/// a count overflows u64.
fn model_levels(s: &Shape) -> Option<Vec<Vec<u64>>> {
    let dims = static_dims(s);
    let m2m = s.layout().minor_to_major();
    let mut cur: Vec<u64> = m2m.iter().rev().map(|&l| dims[l as usize]).collect();
    let mut levels = vec![cur.clone()];
    for t in s.layout().tiles() {
        let k = t.rank();
        while cur.len() < k {
            cur.insert(0, 1);
        }
        let base = cur.len() - k;
        let mut outer = cur[..base].to_vec();
        let mut inner = Vec::new();
        let mut acc: u64 = 1;
        for j in 0..k {
            acc = acc.checked_mul(cur[base + j])?;
            if let TileDim::Size(n) = t.dim(j) {
                outer.push(acc.div_ceil(n));
                inner.push(n);
                acc = 1;
            }
        }
        outer.extend(inner);
        // every level's slot count must fit
        outer.iter().try_fold(1u64, |p, &d| p.checked_mul(d))?;
        cur = outer;
        levels.push(cur.clone());
    }
    Some(levels)
}

fn product(d: &[u64]) -> u64 {
    d.iter().product()
}

fn bytes_of(count: u64, bits: u64) -> Option<u64> {
    u64::try_from((count as u128 * bits as u128).div_ceil(8)).ok()
}

// ---- properties --------------------------------------------------------------

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(2048))]

    /// (1)–(3) on sampled coordinates, and (6) the sizes, on any valid shape.
    #[test]
    fn offsets_are_injective_in_range_and_invert(s in valid_shape(), raw in prop::collection::vec(any::<u64>(), 64 * 6)) {
        let levels = model_levels(&s);
        let align = s.layout().tail_padding_alignment_in_elements;
        let expanded = levels.as_ref().map(|l| product(l.last().unwrap()));
        let slots = expanded.and_then(|n| n.div_ceil(align).checked_mul(align));
        let t = match (s.tiling(), slots) {
            (Ok(t), Some(_)) => t,
            (Err(e), None) => {
                // the model overflowed: so must the core, with a typed error
                prop_assert_eq!(e.kind, ErrorKind::SizeOverflow, "{}", s);
                prop_assert_eq!(s.validate().unwrap_err().kind, ErrorKind::SizeOverflow);
                return Ok(());
            }
            (r, _) => return Err(TestCaseError::fail(format!("{s}: tiling {r:?}, model slots {slots:?}"))),
        };
        prop_assert!(s.validate().is_ok());
        let levels = levels.unwrap();
        let dims = static_dims(&s);
        let elements = product(&dims);
        prop_assert_eq!(t.elements(), elements);
        prop_assert_eq!(t.expanded_dims(), &levels.last().unwrap()[..], "{}", s);
        prop_assert_eq!(t.physical_dims().as_slice().to_vec(), levels[0].clone(), "{}", s);
        for (l, want) in levels.iter().enumerate().skip(1) {
            prop_assert_eq!(t.dims_after_level(l - 1).unwrap().as_slice().to_vec(), want.clone(), "{} level {}", s, l - 1);
        }
        prop_assert!(t.dims_after_level(levels.len() - 1).is_none());
        prop_assert_eq!(t.expanded_slots(), expanded.unwrap());
        prop_assert_eq!(t.slots(), slots.unwrap(), "{}", s);
        // (6) sizes, each from its definition; None where it overflows u64
        let bits = match s.layout().element_size_in_bits {
            0 => 8 * s.element_type().byte_width() as u64,
            e => e,
        };
        prop_assert_eq!(s.storage_bits(), bits);
        let xla_count = if s.layout().tiles().is_empty() {
            Some(elements)
        } else {
            product(&levels[1]).div_ceil(align).checked_mul(align)
        };
        let xla_bytes = xla_count.and_then(|n| match s.layout().element_size_in_bits {
            0 => n.checked_mul(s.element_type().byte_width() as u64),
            e => bytes_of(n, e),
        });
        let want = (|| {
            Some(Sizes {
                elements,
                slots: t.slots(),
                bytes: bytes_of(t.slots(), bits)?,
                xla_bytes: xla_bytes?,
                unpadded_bytes: bytes_of(elements, bits)?,
            })
        })();
        match (s.sizes(), want) {
            (Ok(got), Some(want)) => {
                prop_assert_eq!(got, want, "{}", s);
                prop_assert_eq!(got.padding_bytes(), got.bytes - got.unpadded_bytes);
                let pct = got.padding_percent();
                prop_assert!((0.0..100.0).contains(&pct) || (pct == 100.0 && elements == 0), "{s}: {pct}");
            }
            (Err(e), None) => prop_assert_eq!(e.kind, ErrorKind::SizeOverflow),
            (got, want) => return Err(TestCaseError::fail(format!("{s}: sizes {got:?}, model {want:?}"))),
        }
        // (1)-(3) on sampled coordinates
        if elements == 0 {
            if !dims.is_empty() {
                prop_assert!(t.offset(&[0; 6][..dims.len()]).is_err());
            }
            return Ok(());
        }
        let mut seen: HashMap<u64, Vec<u64>> = HashMap::new();
        for sample in raw.chunks(6) {
            let c: Vec<u64> = dims.iter().zip(sample).map(|(&d, &r)| r % d).collect();
            let off = t.offset(&c).unwrap();
            prop_assert!(off < t.slots(), "{s}: offset({c:?}) = {off} >= {}", t.slots());
            prop_assert_eq!(t.offset_unchecked(&c), off);
            let back = t.coords(off).unwrap();
            prop_assert_eq!(back.map(|b| b.as_slice().to_vec()), Some(c.clone()), "{} at {}", s, off);
            if let Some(prev) = seen.insert(off, c.clone()) {
                prop_assert_eq!(&prev, &c, "{}: two coordinates at slot {}", s, off);
            }
        }
        // the corners too
        let last: Vec<u64> = dims.iter().map(|d| d - 1).collect();
        prop_assert!(t.offset(&last).unwrap() < t.slots());
        prop_assert!(t.coords(t.slots()).is_err());
        let mut over = last.clone();
        if let Some(x) = over.first_mut() {
            *x += 1;
            prop_assert!(matches!(t.offset(&over).unwrap_err().kind, ErrorKind::IndexOutOfBounds { .. }), "{}", s);
        }
        prop_assert!(matches!(t.offset(&[0; 7]).unwrap_err().kind, ErrorKind::IndexRank { .. }), "{}", s);
    }

    /// (4) On layouts of at most 2^14 slots: every slot is padding or maps
    /// back to itself, and the padding count is `slots - elements`.
    #[test]
    fn padding_is_exactly_the_unmapped_slots(s in valid_shape()) {
        let Ok(t) = s.tiling() else { return Ok(()) };
        prop_assume!(t.slots() <= 1 << 14);
        let mut padding = 0u64;
        for (slot, c) in t.slots_in_order().enumerate() {
            match c {
                None => padding += 1,
                Some(c) => prop_assert_eq!(t.offset(c.as_slice()).unwrap(), slot as u64, "{}", s),
            }
        }
        prop_assert_eq!(padding, t.slots() - t.elements(), "{}", s);
    }

    /// (5) Printing and parsing: a fixed point, and the same value back.
    #[test]
    fn print_parse_round_trip(s in valid_shape()) {
        // (valid_shape can overflow u64 slots; tests 1-2 cover that case)
        prop_assume!(s.validate().is_ok());
        let text = s.to_string();
        let p = parse_shape(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        prop_assert_eq!(p.to_string(), text.clone());
        prop_assert_eq!(p.element_type(), s.element_type());
        prop_assert_eq!(p.dims(), s.dims());
        prop_assert_eq!(p.layout(), s.layout(), "{}", text);
        prop_assert_eq!(parse_valid_shape(&text).unwrap(), p);
        // the layout and each tile alone
        let l = s.layout().to_string();
        prop_assert_eq!(&parse_layout(&l).unwrap(), s.layout(), "{}", l);
        for t in s.layout().tiles() {
            prop_assert_eq!(parse_tile(&t.to_string()).unwrap(), *t);
        }
        // canonicalize agrees with Display, also as a tuple element
        let mut c = String::new();
        canonicalize(&text, Default::default(), &mut c).unwrap();
        prop_assert_eq!(&c, &text);
        let mut c = String::new();
        canonicalize(&format!("(f32[], {text})"), Default::default(), &mut c).unwrap();
        prop_assert_eq!(c, format!("(f32[], {text})"));
    }

    /// (5) Non-canonical spellings (uppercase type, spaces, comments,
    /// leading zeros) parse to the same shape and print canonically.
    #[test]
    fn noncanonical_spellings_print_canonically(s in valid_shape(), space in prop::sample::select(vec![" ", "  ", "\t", "\n", " /* x */ "]), zeros in 0usize..3) {
        let text = s.to_string();
        let mut odd = String::new();
        let mut prev_digit = false;
        for (i, ch) in text.char_indices() {
            if i < s.element_type().name().len() {
                odd.push(ch.to_ascii_uppercase());
                continue;
            }
            if ch.is_ascii_digit() && !prev_digit && !text[..i].ends_with('-') {
                odd.push_str(&"0".repeat(zeros));
            }
            prev_digit = ch.is_ascii_digit();
            if matches!(ch, '[' | ']' | ',' | '{' | '}' | '(' | ')' | ':') {
                odd.push_str(space);
                odd.push(ch);
                odd.push_str(space);
            } else {
                odd.push(ch);
            }
        }
        let p = parse_shape(&odd).unwrap_or_else(|e| panic!("{odd:?}: {e}"));
        prop_assert_eq!(p.to_string(), text.clone(), "{:?}", odd);
        prop_assert_eq!(p.layout(), s.layout());
    }
}

// ---- (7) never a panic -----------------------------------------------------

/// Text that is shape-like but mostly invalid: random dims, `minor_to_major`
/// entries, tiles and attributes, with big, zero and negative numbers.
fn shape_like_text() -> impl Strategy<Value = String> {
    let int = prop_oneof![
        6 => (0u64..=9).prop_map(|v| v.to_string()),
        2 => (0u64..=300).prop_map(|v| v.to_string()),
        1 => Just("9223372036854775807".to_string()),
        1 => Just("9223372036854775808".to_string()),
        1 => Just("4294967296".to_string()),
        1 => Just("-1".to_string()),
        1 => any::<u64>().prop_map(|v| v.to_string()),
    ];
    let dimtok = prop_oneof![
        6 => int.clone(),
        1 => int.clone().prop_map(|v| format!("<={v}")),
        1 => Just("?".to_string()),
    ];
    let tdim = prop_oneof![4 => int.clone(), 1 => Just("*".to_string())];
    let tile = prop::collection::vec(tdim, 0..5).prop_map(|v| format!("({})", v.join(",")));
    let split = (int.clone(), prop::collection::vec(int.clone(), 0..4))
        .prop_map(|(d, v)| format!("({d}:{})", v.join(",")));
    let attrs = (
        prop::collection::vec(tile, 0..4),
        prop::option::of(int.clone()),
        prop::option::of(int.clone()),
        prop::option::of(prop_oneof![
            int.clone(),
            Just("127".into()),
            Just("-128".into()),
            Just("128".into())
        ]),
        prop::collection::vec(split, 0..3),
        prop::option::of(int.clone()),
    )
        .prop_map(|(tiles, l, e, s, sc, m)| {
            let mut a = String::new();
            if !tiles.is_empty() {
                a += &format!("T{}", tiles.concat());
            }
            if let Some(l) = l {
                a += &format!("L({l})");
            }
            if let Some(e) = e {
                a += &format!("E({e})");
            }
            if let Some(s) = s {
                a += &format!("S({s})");
            }
            if !sc.is_empty() {
                a += &format!("SC{}", sc.concat());
            }
            if let Some(m) = m {
                a += &format!("M({m})");
            }
            a
        });
    let layout = (
        prop::collection::vec(int.clone(), 0..8),
        prop::option::of(attrs),
    )
        .prop_map(|(m, a)| match a {
            Some(a) => format!("{{{}:{a}}}", m.join(",")),
            None => format!("{{{}}}", m.join(",")),
        });
    let ty = prop::sample::select(vec![
        "f32", "bf16", "s4", "pred", "u8", "F32", "token", "opaque", "c128", "s1",
    ]);
    (
        ty,
        prop::collection::vec(dimtok, 0..8),
        prop::option::of(layout),
    )
        .prop_map(|(ty, dims, layout)| {
            format!("{ty}[{}]{}", dims.join(","), layout.unwrap_or_default())
        })
}

/// Everything one can ask of a shape; returns normally for any shape.
fn exercise(s: &Shape, raw: &[u64]) {
    let _ = s.validate();
    let _ = s.to_string();
    let _ = s.storage_bits();
    if let Ok(sz) = s.sizes() {
        let _ = sz.padding_percent();
        assert!(s.validate().is_ok(), "sizes of an invalid shape: {s}");
    }
    match s.tiling() {
        Ok(t) => {
            assert!(s.validate().is_ok(), "tiling of an invalid shape: {s}");
            let dims: Vec<u64> = s.dims().iter().map(|d| d.size().unwrap()).collect();
            for r in raw.chunks(dims.len().max(1)).take(8) {
                let c: Vec<u64> = dims
                    .iter()
                    .zip(r)
                    .map(|(&d, &x)| if d == 0 { x } else { x % d })
                    .collect();
                if let Ok(o) = t.offset(&c) {
                    assert!(o < t.slots());
                }
                let _ = t.offset(r);
                let _ = t.coords(r[0]);
                if t.slots() > 0 {
                    let _ = t.coords(r[0] % t.slots());
                }
            }
            for l in 0..=t.level_count() {
                let _ = t.dims_after_level(l);
            }
        }
        Err(e) => {
            if s.validate().is_ok() {
                // valid but no tiling: dynamic dims or a size limit
                assert!(
                    matches!(
                        e.kind,
                        ErrorKind::DynamicShape
                            | ErrorKind::NotAnArray
                            | ErrorKind::SizeOverflow
                            | ErrorKind::ExpandedTooLong
                    ),
                    "{s}: {e:?}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(config(4096))]

    /// (7) Arbitrary shape-like text: parsing gives a value or a located
    /// error; a parsed value never makes validate/sizes/offset/coords panic,
    /// and prints back to text that parses to the same value (valid or not).
    #[test]
    fn arbitrary_parsed_shapes_never_panic(text in shape_like_text(), raw in prop::collection::vec(any::<u64>(), 8)) {
        match parse_shape(&text) {
            Ok(s) => {
                exercise(&s, &raw);
                let printed = s.to_string();
                if common::prints_unreadable(&s) {
                    // `f32[2]{:}` prints as XLA does, `f32[2]{}`, which
                    // does not read back (see robustness.rs)
                    prop_assert!(parse_shape(&printed).is_err());
                    return Ok(());
                }
                let p = parse_shape(&printed).unwrap_or_else(|e| panic!("{text} → {printed}: {e}"));
                prop_assert_eq!(p.to_string(), printed.clone());
                prop_assert_eq!(p.dims(), s.dims());
                // token and opaque print no layout (as XLA): an invalid
                // `token[]{:S(1)}` prints as `token[]`
                if s.element_type().is_array_type() {
                    prop_assert_eq!(p.layout(), s.layout(), "{}", printed);
                }
                // located validation errors point into the text
                if let Err(e) = parse_valid_shape(&text) {
                    prop_assert!(e.span.start <= e.span.end && e.span.end as usize <= text.len(), "{text}: {e:?}");
                }
            }
            Err(e) => {
                prop_assert!(e.span.start <= e.span.end && e.span.end as usize <= text.len(), "{text}: {e:?}");
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }

    /// (7) Arbitrary values built through the API (no parser limits: `E`
    /// and tile dims up to u64::MAX, any `minor_to_major` entry, `L(0)`,
    /// `*` last, empty tiles) never make anything panic.
    #[test]
    fn arbitrary_constructed_shapes_never_panic(
        dims in prop::collection::vec(prop_oneof![0u64..=5, any::<u64>(), Just(u64::MAX)], 0..7),
        m2m in prop::collection::vec(prop_oneof![-1i64..=7, any::<i64>()], 0..8),
        tiles in prop::collection::vec(prop::collection::vec(prop_oneof![
            4 => (0u64..=5).prop_map(TileDim::Size),
            1 => any::<u64>().prop_filter("not the * sentinel", |&v| v != u64::MAX).prop_map(TileDim::Size),
            1 => Just(TileDim::Combine),
        ], 0..5), 0..4),
        l in prop_oneof![0u64..=3, any::<u64>()],
        e in prop_oneof![0u64..=9, any::<u64>()],
        ty in element_type(),
        raw in prop::collection::vec(any::<u64>(), 8),
    ) {
        let mut layout = XlaLayout::EMPTY;
        for d in m2m {
            layout.push_minor_to_major(d);
        }
        for t in tiles {
            let mut tile = Tile::EMPTY;
            for d in t {
                tile.push(d);
            }
            layout.push_tile(tile);
        }
        layout.tail_padding_alignment_in_elements = l;
        layout.element_size_in_bits = e;
        let s = Shape::new(ty, &dims).unwrap().with_layout(layout);
        exercise(&s, &raw);
    }
}

#[test]
fn dynamic_dims_have_no_sizes_but_validate() {
    let s = parse_shape("f32[<=4,?]{1,0:T(2,2)}").unwrap();
    assert_eq!(s.dims(), &[Dim::Bounded(4), Dim::Unbounded]);
    assert!(s.validate().is_ok());
    assert_eq!(s.sizes().unwrap_err().kind, ErrorKind::DynamicShape);
    assert_eq!(s.tiling().unwrap_err().kind, ErrorKind::DynamicShape);
}

//! Fuzz target `parse`: bytes → text → every entry point of the core.
//!
//! Checks, beyond "no panic": errors carry a span inside the input; a
//! parsed shape prints to text that parses back to the same value (except
//! the XLA-faithful `s32[8]{:}` → `s32[8]{}` case and the layout of
//! `token`/`opaque`, which is not printed); sizes and tilings exist only for
//! valid shapes; `coords(offset(c)) == c` and `offset(c) < slots`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tilelayout_core::{
    canonicalize, parse_layout, parse_shape, parse_tile, parse_valid_shape, walk, Error, Event,
    Shape,
};

fn span_inside(text: &str, e: &Error) {
    let (s, end) = (e.span.start as usize, e.span.end as usize);
    assert!(
        s <= end && end <= text.len(),
        "span {s}..{end} outside {} bytes: {e:?}",
        text.len()
    );
    assert!(
        text.get(s..end).is_some(),
        "span {s}..{end} splits a character: {e:?}"
    );
    let _ = e.to_string();
}

/// `s32[8]{:}` prints as `s32[8]{}` (as XLA does), which does not read back.
fn prints_unreadable(s: &Shape) -> bool {
    s.element_type().is_array_type()
        && s.rank() > 0
        && s.layout().minor_to_major().is_empty()
        && !s.layout().has_attributes()
}

fn check_shape(s: &Shape, seed: &[u8]) {
    let valid = s.validate().is_ok();
    if let Ok(z) = s.sizes() {
        assert!(valid);
        assert!(z.bytes >= z.unpadded_bytes && z.slots >= z.elements);
        let _ = z.padding_percent();
    }
    if let Ok(t) = s.tiling() {
        assert!(valid);
        let dims: Vec<u64> = s.dims().iter().map(|d| d.size().unwrap()).collect();
        if t.elements() > 0 {
            // a few coordinates from the input bytes, and the last element
            let mut coords = vec![dims.iter().map(|d| d - 1).collect::<Vec<_>>()];
            for chunk in seed.chunks(8).take(4) {
                let mut x = 0u64;
                for &b in chunk {
                    x = x.wrapping_mul(257).wrapping_add(b as u64);
                }
                coords.push(
                    dims.iter()
                        .map(|&d| {
                            x = x.rotate_left(7) ^ 0x9E37;
                            x % d
                        })
                        .collect(),
                );
            }
            for c in coords {
                let off = t.offset(&c).expect("in-bounds offset");
                assert!(off < t.slots());
                let back = t.coords(off).expect("slot in range").expect("not padding");
                assert_eq!(back.as_slice(), &c[..]);
            }
        }
        assert!(t.coords(t.slots()).is_err());
        for slot in [0, t.slots() / 2, t.slots().saturating_sub(1)] {
            if slot < t.slots() {
                if let Some(c) = t.coords(slot).unwrap() {
                    assert_eq!(t.offset(c.as_slice()).unwrap(), slot);
                }
            }
        }
    }
    // print → parse is the identity
    let printed = s.to_string();
    match parse_shape(&printed) {
        Ok(p) => {
            assert_eq!(p.to_string(), printed);
            assert_eq!(p.element_type(), s.element_type());
            assert_eq!(p.dims(), s.dims());
            if s.element_type().is_array_type() {
                assert_eq!(p.layout(), s.layout(), "{printed}");
            }
        }
        Err(e) => assert!(prints_unreadable(s), "{printed:?} does not parse: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_shape(text) {
        Ok(s) => check_shape(&s, data),
        Err(e) => span_inside(text, &e),
    }
    if let Err(e) = parse_valid_shape(text) {
        span_inside(text, &e);
    }
    let mut unreadable = false;
    let walked = walk(text, Default::default(), |e| {
        if let Event::Array { shape, spans, .. } = e {
            unreadable |= prints_unreadable(shape);
            if let Err(err) = shape.validate() {
                span_inside(text, &spans.locate(err));
            }
        }
    });
    let mut out = String::new();
    match canonicalize(text, Default::default(), &mut out) {
        Ok(()) => {
            assert!(walked.is_ok());
            if !unreadable {
                let mut again = String::new();
                canonicalize(&out, Default::default(), &mut again).expect("canonical text parses");
                assert_eq!(again, out);
            }
        }
        Err(e) => {
            assert!(walked.is_err() && out.is_empty());
            span_inside(text, &e);
        }
    }
    match parse_layout(text) {
        Ok(l) => assert_eq!(parse_layout(&l.to_string()).unwrap(), l),
        Err(e) => span_inside(text, &e),
    }
    match parse_tile(text) {
        Ok(t) => assert_eq!(parse_tile(&t.to_string()).unwrap(), t),
        Err(e) => span_inside(text, &e),
    }
});

//! The check behind the fuzz target `runtime`, shared with the regression
//! test that replays the committed corpus (`tests/fuzz_regressions.rs`).
//!
//! Shape text goes through the runtime path: parse, validate, print and
//! parse again, sizes (at the bound for bounded dynamic dims), tiling; for
//! small arrays every slot's coordinates and every coordinate's offset
//! (the two are inverse, offsets injective and below the slot count, the
//! compiled program agrees), a view of the storage (values read back where
//! they were written), and a relayout to row-major and back.

use tilelayout::storage::{packed, Element, RelayoutPlan, Strided, TiledArray, Unit};
use tilelayout::value::{check_element_size, parse_shape, Shape, Tiling};

/// Most slots for the exhaustive checks.
const MAX_SLOTS: u64 = 1 << 12;

/// Runs one fuzz case (any bytes are a valid case).
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(shape) = parse_shape(text) else {
        return;
    };
    let valid = shape.validate().is_ok();
    let printed = shape.to_string();
    if let Ok(again) = parse_shape(&printed) {
        assert_eq!(again.to_string(), printed, "print → parse → print");
    }
    if let Ok(z) = shape.sizes() {
        assert!(valid && shape.is_static());
        assert_eq!(shape.sizes_at_bound(), Ok(z));
    }
    let Ok(s) = shape.at_bound() else {
        return;
    };
    let (Ok(t), Ok(z)) = (s.tiling(), s.sizes()) else {
        return;
    };
    assert!(valid, "{text}: tiled but invalid");
    assert_eq!((z.slots, z.elements), (t.slots(), t.elements()));
    assert!(z.bytes >= z.unpadded_bytes && z.slots >= z.elements);
    if t.slots() > MAX_SLOTS {
        return;
    }
    let dims = s.static_dims().unwrap()[..s.rank()].to_vec();
    let all = coords(&dims);
    assert_eq!(all.len() as u64, t.elements());
    // offsets: in range, injective, inverse of coords; the program agrees
    let program = t.program();
    let mut owner = vec![None; t.slots() as usize];
    for c in &all {
        let off = t.offset(c).unwrap();
        assert!(off < t.slots());
        assert_eq!(t.offset_unchecked(c), off);
        if program.fits() {
            assert_eq!(program.run(c), off);
        }
        assert!(
            owner[off as usize].is_none(),
            "{text}: two coordinates at slot {off}"
        );
        owner[off as usize] = Some(c.clone());
    }
    for (slot, o) in owner.iter().enumerate() {
        let back = t.coords(slot as u64).unwrap();
        assert_eq!(
            back.as_ref().map(|c| c.as_slice().to_vec()),
            *o,
            "{text}: slot {slot}"
        );
    }
    assert!(t.coords(t.slots()).is_err());
    // storage: views and relayout under the one storage rule
    let bits = s.storage_bits();
    let storable = check_element_size(s.layout().element_size_in_bits).is_ok();
    let ty = s.element_type();
    match (ty.byte_width(), bits) {
        (1, 1..=8) => storage::<u8>(&s, &t, &dims, &all, storable),
        (2, 16) => storage::<u16>(&s, &t, &dims, &all, storable),
        (4, 32) => storage::<u32>(&s, &t, &dims, &all, storable),
        (8, 64) => storage::<u64>(&s, &t, &dims, &all, storable),
        _ => {}
    }
    if ty == tilelayout::value::PrimitiveType::Pred {
        let r = TiledArray::<bool>::from_fn(&s, |c| c.iter().sum::<u64>() % 3 == 0);
        assert_eq!(r.is_ok(), storable, "{text}: pred view");
        if let Ok(a) = r {
            for c in &all {
                assert_eq!(a.get(c).unwrap(), c.iter().sum::<u64>() % 3 == 0);
            }
        }
    }
}

/// The value stored for coordinates `c`, masked to `bits`.
fn value(c: &[u64], bits: u64) -> u64 {
    let h = c
        .iter()
        .fold(0x51u64, |h, &x| h.wrapping_mul(31).wrapping_add(x + 1));
    if bits >= 64 {
        h
    } else {
        h & ((1 << bits) - 1)
    }
}

/// Raw unsigned units: a view that reads back what was written, and a
/// relayout to row-major that puts each value at its row-major index.
fn storage<E>(s: &Shape, t: &Tiling, dims: &[u64], all: &[Vec<u64>], storable: bool)
where
    E: Element<Unit = E> + Unit + TryFrom<u64> + Into<u64>,
{
    let bits = s.storage_bits();
    let make = |c: &[u64]| E::try_from(value(c, bits)).ok().unwrap();
    let a = match TiledArray::<E>::from_fn(s, make) {
        Ok(a) => a,
        Err(e) => {
            assert!(!storable, "{s}: storable but no view: {e}");
            return;
        }
    };
    assert!(storable, "{s}: a view of unstorable E");
    for c in all {
        assert_eq!(a.get(c).unwrap().into(), value(c, bits), "{s} at {c:?}");
    }
    assert_eq!(a.iter().count() as u64, t.elements());
    // an empty array's row-major strides can overflow (its other
    // dimensions' product need not fit): a typed error, and nothing to move
    let rows = match Strided::row_major(dims, bits as u32) {
        Ok(rows) => rows,
        Err(e) => {
            assert_eq!(t.elements(), 0, "{s}: no row-major strides ({e:?})");
            return;
        }
    };
    let plan = RelayoutPlan::new(s, rows).unwrap();
    let mut out = vec![E::try_from(0).ok().unwrap(); plan.dst_units(size_of::<E>()) as usize];
    plan.execute(a.units(), &mut out).unwrap();
    for (i, c) in all.iter().enumerate() {
        let got: u64 = if bits < 8 {
            packed::get(bytemuck::cast_slice(&out), i, bits as u32) as u64
        } else {
            out[i].into()
        };
        assert_eq!(got, value(c, bits), "{s}: row-major element {i}");
    }
    let back = RelayoutPlan::new(rows, s).unwrap();
    let mut again = vec![E::try_from(0).ok().unwrap(); a.units().len()];
    back.execute(&out, &mut again).unwrap();
    let b = TiledArray::<E>::from_units(s, again).unwrap();
    for c in all {
        assert_eq!(
            b.get(c).unwrap(),
            a.get(c).unwrap(),
            "{s}: round trip at {c:?}"
        );
    }
}

#[path = "coords.rs"]
mod coords;
use coords::coords;

//! Storage widths XLA accepts: elements stored below their type's width
//! (`s8[…]{…:E(4)}`, XLA's GPU int4 path), above it (`pred` in 32-bit
//! words, as older TPUs store it), the 6-bit floats, and relayouts that
//! would change the element type. Each case goes through the layout type,
//! the runtime view and a relayout, which apply one storage rule.

use tilelayout::storage::{
    ArrayLayout, CompiledShape, RelayoutPlan, StorageError, Strided, TiledArray, TiledView,
    TypedArray, TypedStorage,
};
use tilelayout::value::{parse_shape, PrimitiveType, Shape};
use tilelayout::{layout, Layout};

fn shape(s: &str) -> Shape {
    parse_shape(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// An s8 value that fits `bits` bits, from a counter.
fn small(i: u64, bits: u32) -> i8 {
    let span = 1i64 << bits;
    ((i as i64 * 7 + 3).rem_euclid(span) - span / 2) as i8
}

#[test]
fn s8_in_four_bits_round_trips_through_view_and_relayout() {
    for text in [
        "s8[21]{0:E(4)}",
        "s8[3,7]{1,0:E(4)}",
        "s8[3,7]{0,1:E(4)}",
        "s8[5,9]{1,0:T(2,4)E(4)}",
        "s8[9]{0:E(2)}",
        "s8[9]{0:E(1)}",
    ] {
        let s = shape(text);
        let bits = s.storage_bits() as u32;
        let dims = s.static_dims().unwrap()[..s.rank()].to_vec();
        let a = TiledArray::<i8>::from_fn(&s, |c| {
            let lin = c.iter().zip(&dims).fold(0, |acc, (x, d)| acc * d + x);
            small(lin, bits)
        })
        .unwrap();
        // storage: ceil(slots · bits / 8) bytes, as XLA sizes it
        let sizes = s.sizes().unwrap();
        assert_eq!(a.units().len() as u64, sizes.bytes, "{text}");
        // every element reads back sign-extended
        let mut lin = 0;
        for v in a.iter() {
            assert_eq!(v, small(lin, bits), "{text} element {lin}");
            lin += 1;
        }
        // and a relayout to a packed row-major buffer gives them in order
        let rows = Strided::row_major(&dims, bits).unwrap();
        let plan = RelayoutPlan::new(s, rows).unwrap();
        let mut out = vec![0u8; plan.dst_units(1) as usize];
        plan.execute(bytemuck::cast_slice(a.units()), &mut out)
            .unwrap();
        let packed = CompiledShape::new(&shape(&format!(
            "s8[{}]{{0:E({bits})}}",
            out.len() * 8 / bits as usize
        )))
        .unwrap();
        let back = TiledView::<i8>::new(&packed, bytemuck::cast_slice(&out)).unwrap();
        for (i, v) in back.iter().take(lin as usize).enumerate() {
            assert_eq!(
                v,
                small(i as u64, bits),
                "{text} after relayout, element {i}"
            );
        }
    }
}

#[test]
fn s8_store_keeps_only_the_low_bits_as_xla_packs() {
    let s = shape("s8[4]{0:E(4)}");
    let mut a = TiledArray::<i8>::new(&s, 0).unwrap();
    a.set(&[0], 7).unwrap();
    a.set(&[1], -8).unwrap();
    a.set(&[2], 0x1F).unwrap(); // 31 keeps 0xF: reads -1
    assert_eq!(a.units(), &[0x87u8 as i8, 0x0F]);
    assert_eq!(a.iter().collect::<Vec<_>>(), [7, -8, -1, 0]);
}

#[test]
fn pred_in_32_bit_words() {
    let s = shape("pred[16,256]{1,0:T(8,128)E(32)}");
    assert_eq!(s.sizes().unwrap().bytes, 16 * 256 * 4);
    let a = TiledArray::<bool>::from_fn(&s, |c| (c[0] * 3 + c[1]) % 5 == 0).unwrap();
    assert_eq!(a.units().len(), 16 * 256 * 4);
    let v = a.view();
    for i in 0..16 {
        for j in 0..256 {
            let want = (i * 3 + j) % 5 == 0;
            assert_eq!(v.get(&[i, j]).unwrap(), want);
            // the little-endian word 0 or 1
            let slot = v.slot_of(&[i, j]).unwrap();
            let word = &a.units()[4 * slot..4 * slot + 4];
            assert_eq!(word, &[want as u8, 0, 0, 0]);
        }
    }
    // any set bit of the word reads as true
    let mut units = a.units().to_vec();
    let slot = v.slot_of(&[0, 1]).unwrap();
    units[4 * slot + 3] = 0x80;
    assert!(
        TiledView::<bool>::new(&CompiledShape::new(&s).unwrap(), &units)
            .unwrap()
            .get(&[0, 1])
            .unwrap()
    );
    // relayout on 32-bit units to row-major and back
    let rows = Strided::row_major(&[16, 256], 32).unwrap();
    let words: Vec<u32> = a
        .units()
        .chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    let mut flat = vec![7u32; 16 * 256];
    RelayoutPlan::new(s, rows)
        .unwrap()
        .execute(&words, &mut flat)
        .unwrap();
    for (k, w) in flat.iter().enumerate() {
        assert_eq!(*w, ((k / 256 * 3 + k % 256) % 5 == 0) as u32);
    }
    let mut again = vec![0u32; words.len()];
    RelayoutPlan::new(rows, s)
        .unwrap()
        .execute(&flat, &mut again)
        .unwrap();
    assert_eq!(again, words);
}

#[test]
fn layout_types_for_what_xla_accepts() {
    type S8x4 = layout!(s8[3,7]{1,0:E(4)});
    assert_eq!((S8x4::SLOTS, S8x4::BYTES), (21, 11));
    let mut a = TypedArray::<S8x4, 11>::default();
    a.set([2, 6], -3);
    assert_eq!(a.get([2, 6]), -3);
    assert_eq!(a.get([2, 5]), 0);

    type Pred32 = layout!(pred[8,128]{1,0:T(8,128)E(32)});
    assert_eq!(<Pred32 as TypedStorage>::UNITS, 8 * 128 * 4);
    let mut p = TypedArray::<Pred32, { 8 * 128 * 4 }>::default();
    p.set([7, 127], true);
    assert!(p.get([7, 127]) && !p.get([7, 126]));
    assert_eq!(&p.units()[4 * 1023..], &[1, 0, 0, 0]);

    type F4 = layout!(f4e2m1fn[4,32]{1,0:E(4)});
    let mut f = TypedArray::<F4, 64>::default();
    f.set([1, 3], 0xA); // raw bits of one f4e2m1fn
    assert_eq!(f.get([1, 3]), 0xA);
    assert_eq!(f.units()[(32 + 3) / 2], 0xA0);

    // XLA's GPU int4 path, one-dimensional: a type, a typed array and a
    // runtime view of the same bytes
    type S8x4Flat = layout!(s8[21]{0:E(4)});
    assert_eq!((S8x4Flat::SLOTS, S8x4Flat::BYTES), (21, 11));
    let mut flat = TypedArray::<S8x4Flat, 11>::default();
    for i in 0..21 {
        flat.set([i], small(i as u64, 4));
    }
    let compiled = CompiledShape::new(&shape("s8[21]{0:E(4)}")).unwrap();
    let view = TiledView::<i8>::new(&compiled, flat.units()).unwrap();
    for i in 0..21 {
        assert_eq!(view.get(&[i]).unwrap(), small(i, 4), "element {i}");
    }

    type F6 = layout!(f6e2m3fn[2,3]{1,0});
    assert_eq!((F6::SLOTS, F6::BYTES), (6, 6));
}

#[test]
fn six_bit_floats_are_element_types() {
    for (name, t) in [
        ("f6e2m3fn", PrimitiveType::F6E2M3FN),
        ("f6e3m2fn", PrimitiveType::F6E3M2FN),
    ] {
        assert_eq!(PrimitiveType::from_name(name, true), Some(t));
        assert_eq!((t.bit_width(), t.byte_width()), (6, 1));
        let s = shape(&format!("{name}[3,5]{{1,0:T(2,2)}}"));
        assert_eq!(s.to_string(), format!("{name}[3,5]{{1,0:T(2,2)}}"));
        let z = s.sizes().unwrap();
        assert_eq!((z.slots, z.bytes), (24, 24));
        let a = TiledArray::<u8>::from_fn(&s, |c| (c[0] * 5 + c[1]) as u8).unwrap();
        assert_eq!(a.get(&[2, 3]).unwrap(), 13);
    }
}

#[test]
fn relayout_between_element_types_needs_reinterpret() {
    for (a, b) in [
        ("f32[8,128]{1,0:T(8,128)}", "s32[8,128]{0,1}"),
        ("bf16[16,128]{1,0:T(8,128)(2,1)}", "f16[16,128]{1,0}"),
        ("s4[8,128]{1,0:T(8,128)E(4)}", "u4[8,128]{1,0:E(4)}"),
        ("pred[8,128]{1,0:T(8,128)}", "s8[8,128]{1,0}"),
    ] {
        let (sa, sb) = (shape(a), shape(b));
        assert_eq!(
            RelayoutPlan::new(sa, sb).unwrap_err(),
            StorageError::ElementTypeMismatch {
                src: sa.element_type(),
                dst: sb.element_type()
            },
            "{a} -> {b}"
        );
        assert!(RelayoutPlan::reinterpret(sa, sb).is_ok(), "{a} -> {b}");
        // const planning agrees
        let e = RelayoutPlan::between(&ArrayLayout::Tiled(sa), &ArrayLayout::Tiled(sb));
        assert!(matches!(e, Err(StorageError::ElementTypeMismatch { .. })));
    }
    let msg = RelayoutPlan::new(shape("f32[2]{0}"), shape("s32[2]{0}"))
        .unwrap_err()
        .to_string();
    assert!(msg.contains("reinterpret"), "{msg}");
    // the bits move unchanged
    let f = shape("f32[8,128]{1,0:T(8,128)}");
    let s = shape("s32[8,128]{0,1}");
    let src: Vec<u32> = (0..1024).map(|i| (i as f32 * 0.5).to_bits()).collect();
    let mut dst = vec![0u32; 1024];
    RelayoutPlan::reinterpret(f, s)
        .unwrap()
        .execute(&src, &mut dst)
        .unwrap();
    for i in 0..8 {
        for j in 0..128 {
            assert_eq!(f32::from_bits(dst[j * 8 + i]), (i * 128 + j) as f32 * 0.5);
        }
    }
}

#[test]
fn bounded_dynamic_dims_are_sized_and_relaid_out_at_their_bound() {
    for (text, elements, xla_bytes) in [
        ("f32[<=4194304]{0:T(1024)}", 4194304, 16777216),
        ("s32[<=4096]{0:T(8)M(1024)}", 4096, 16384),
        ("f32[4,<=4]{1,0:D(D,C)}", 16, 64),
    ] {
        let s = shape(text);
        assert!(s.sizes().is_err(), "{text}: dynamic, no static sizes");
        let z = s.sizes_at_bound().unwrap();
        assert_eq!((z.elements, z.xla_bytes), (elements, xla_bytes), "{text}");
    }
    let s = shape("f32[5,<=6]{0,1:T(2,4)}");
    let rows = Strided::row_major(&[5, 6], 32).unwrap();
    let src: Vec<u32> = (0..30).collect();
    let plan = RelayoutPlan::new(rows, s).unwrap();
    let mut dst = vec![0u32; plan.dst_units(4) as usize];
    plan.execute(&src, &mut dst).unwrap();
    let t = s.at_bound().unwrap().tiling().unwrap();
    for i in 0..5u64 {
        for j in 0..6u64 {
            assert_eq!(dst[t.offset(&[i, j]).unwrap() as usize], (i * 6 + j) as u32);
        }
    }
    assert!(RelayoutPlan::new(rows, shape("f32[5,?]{0,1}")).is_err());
}

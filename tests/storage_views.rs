//! Views and owned arrays over runtime layouts: access by coordinates,
//! typed errors, iteration orders, padding, and the packings XLA uses.

use half::bf16;
use tilelayout::storage::{
    i4, u2, CompiledShape, StorageError, TiledArray, TiledView, TiledViewMut,
};
use tilelayout::value::{parse_shape, ErrorKind, PrimitiveType};

fn shape(t: &str) -> tilelayout::value::Shape {
    parse_shape(t).unwrap()
}

#[test]
fn get_and_set_agree_with_tiling_offsets() {
    let s = shape("f32[3,5]{1,0:T(2,2)}");
    let t = s.tiling().unwrap();
    let a = TiledArray::<f32>::from_fn(&s, |c| (10 * c[0] + c[1]) as f32).unwrap();
    for i in 0..3 {
        for j in 0..5 {
            let slot = t.offset(&[i, j]).unwrap() as usize;
            assert_eq!(a.units()[slot], (10 * i + j) as f32);
            assert_eq!(a.get(&[i, j]).unwrap(), (10 * i + j) as f32);
        }
    }
    assert_eq!(a.view().slot_of(&[2, 3]).unwrap(), 17);
}

#[test]
fn bad_input_gives_typed_errors() {
    let s = shape("f32[3,5]{1,0:T(2,2)}");
    let c = CompiledShape::new(&s).unwrap();
    let units = [0f32; 24];
    assert_eq!(
        TiledView::<f32>::new(&c, &units[..23]).unwrap_err(),
        StorageError::Length {
            expected: 24,
            found: 23
        }
    );
    assert_eq!(
        TiledView::<i32>::new(&c, &[0; 24]).unwrap_err(),
        StorageError::ElementType {
            shape: PrimitiveType::F32,
            element: "i32"
        }
    );
    let v = TiledView::<f32>::new(&c, &units).unwrap();
    match v.get(&[3, 0]).unwrap_err() {
        StorageError::Index(e) => assert_eq!(
            e.kind,
            ErrorKind::IndexOutOfBounds {
                dim: 0,
                index: 3,
                size: 3
            }
        ),
        e => panic!("{e}"),
    }
    match v.get(&[1]).unwrap_err() {
        StorageError::Index(e) => assert_eq!(e.kind, ErrorKind::IndexRank { rank: 2, found: 1 }),
        e => panic!("{e}"),
    }
    // f32 cannot be stored in 16 bits, s4 not in 16, pred not in 24
    let e = TiledArray::<f32>::new(&shape("f32[4]{0:E(16)}"), 0.0).unwrap_err();
    assert_eq!(e, StorageError::ElementSize { bits: 16 });
    let e = TiledArray::<i4>::new(&shape("s4[4]{0:E(16)}"), i4::default()).unwrap_err();
    assert_eq!(e, StorageError::ElementSize { bits: 16 });
    let e = TiledArray::<bool>::new(&shape("pred[4]{0:E(24)}"), false).unwrap_err();
    assert_eq!(e, StorageError::ElementSize { bits: 24 });
    // invalid and dynamic shapes
    assert!(matches!(
        TiledArray::<f32>::new(&shape("f32[3]{0:T(0)}"), 0.0),
        Err(StorageError::Shape(_))
    ));
    assert!(matches!(
        TiledArray::<f32>::new(&shape("f32[<=3]"), 0.0),
        Err(StorageError::Shape(_))
    ));
}

#[test]
fn raw_unsigned_units_accept_any_type_of_their_width() {
    let s = shape("f8e4m3fn[4]{0}");
    let a = TiledArray::<u8>::from_units(&s, vec![1, 2, 3, 4]).unwrap();
    assert_eq!(a.get(&[2]).unwrap(), 3);
    assert!(TiledArray::<u32>::new(&shape("f32[2]"), 0).is_ok());
    assert!(TiledArray::<u16>::new(&shape("f32[2]"), 0).is_err());
}

#[test]
fn iteration_orders_logical_and_memory() {
    let s = shape("s32[3,5]{0,1:T(2,2)}");
    let a = TiledArray::<i32>::from_fn(&s, |c| (10 * c[0] + c[1]) as i32).unwrap();
    let logical: Vec<i32> = a.iter().collect();
    let want: Vec<i32> = (0..3)
        .flat_map(|i| (0..5).map(move |j| 10 * i + j))
        .collect();
    assert_eq!(logical, want);
    let t = s.tiling().unwrap();
    let mut last = None;
    let mut n = 0;
    for (c, v) in a.iter_memory() {
        let slot = t.offset(c.as_slice()).unwrap();
        assert!(last.is_none_or(|l| slot > l), "memory order");
        last = Some(slot);
        assert_eq!(v, (10 * c.as_slice()[0] + c.as_slice()[1]) as i32);
        n += 1;
    }
    assert_eq!(n, 15);
}

#[test]
fn padding_holds_fill_value_and_elements_survive() {
    let s = shape("f32[3,5]{1,0:T(2,2)}");
    let mut a = TiledArray::<f32>::from_fn(&s, |c| (c[0] * 5 + c[1]) as f32).unwrap();
    // from_fn leaves padding as zero bits
    for p in [9, 11, 14, 15, 18, 19, 21, 22, 23] {
        assert_eq!(a.units()[p], 0.0);
    }
    a.fill_padding(-1.0);
    for p in [9, 11, 14, 15, 18, 19, 21, 22, 23] {
        assert_eq!(a.units()[p], -1.0);
    }
    assert_eq!(
        a.iter().collect::<Vec<_>>(),
        (0..15).map(|x| x as f32).collect::<Vec<_>>()
    );
    // L(n) tail padding is padding too
    let s = shape("f32[3]{0:L(4)}");
    let mut a = TiledArray::<f32>::from_fn(&s, |c| c[0] as f32 + 1.0).unwrap();
    a.fill_padding(9.0);
    assert_eq!(a.units(), &[1.0, 2.0, 3.0, 9.0]);
}

/// SPEC §4: under `(8,128)(2,1)` the two bf16 in each 32-bit word are rows
/// 2k and 2k+1 of one column.
#[test]
fn bf16_pairs_rows_2k_and_2k_plus_1_in_each_word() {
    let s = shape("bf16[16,256]{1,0:T(8,128)(2,1)}");
    let a =
        TiledArray::<bf16>::from_fn(&s, |c| bf16::from_f32((c[0] * 1000 + c[1]) as f32)).unwrap();
    // The 32-bit words as the (little-endian) device holds them, built
    // from the units: a `Vec<bf16>` need not be 4-aligned, so it is not
    // cast to `&[u32]`.
    let units = a.units();
    let word =
        |k: usize| u32::from(units[2 * k].to_bits()) | u32::from(units[2 * k + 1].to_bits()) << 16;
    for i in (0..16).step_by(2) {
        for j in 0..256 {
            let slot = a.view().slot_of(&[i, j]).unwrap();
            assert_eq!(slot % 2, 0);
            let w = word(slot / 2);
            let (lo, hi) = (bf16::from_bits(w as u16), bf16::from_bits((w >> 16) as u16));
            assert_eq!(lo, a.get(&[i, j]).unwrap(), "row 2k in the low half");
            assert_eq!(hi, a.get(&[i + 1, j]).unwrap(), "row 2k+1 in the high half");
        }
    }
}

/// SPEC §4: under `(8,128)(4,1)` four s8 rows share a 32-bit word.
#[test]
fn s8_packs_four_rows_into_each_word() {
    let s = shape("s8[8,256]{1,0:T(8,128)(4,1)}");
    let a = TiledArray::<i8>::from_fn(&s, |c| (c[0] as i8) * 16 + (c[1] % 16) as i8).unwrap();
    // The words' bytes in memory order (a `Vec<i8>` need not be 4-aligned,
    // so it is not cast to `&[u32]`).
    let bytes: &[u8] = bytemuck::cast_slice(a.units());
    for i in (0..8).step_by(4) {
        for j in 0..256 {
            let slot = a.view().slot_of(&[i, j]).unwrap();
            assert_eq!(slot % 4, 0);
            let w = &bytes[slot..slot + 4];
            for k in 0..4 {
                assert_eq!(w[k as usize] as i8, a.get(&[i + k, j]).unwrap());
            }
        }
    }
}

/// XLA's sub-byte order, observed: jaxlib 0.10.2's CPU client stores
/// `s4[8]{0:E(4)}` holding [1,-2,3,7,-8,0,5,-1] as bytes e1 73 08 f5,
/// `s2[8]{0:E(2)}` holding [1,-2,0,-1,1,1,-2,0] as c9 25, and
/// `u2[8]{0:E(2)}` holding [0,1,2,3,3,2,1,0] as e4 1b: element 2k in the
/// low nibble (little-endian within the byte), as `PackIntN` documents.
#[test]
fn packed_bit_order_matches_xla_bytes() {
    let s = shape("s4[8]{0:E(4)}");
    let vals = [1i8, -2, 3, 7, -8, 0, 5, -1];
    let a = TiledArray::<i4>::from_fn(&s, |c| i4::new(vals[c[0] as usize]).unwrap()).unwrap();
    assert_eq!(a.units(), &[0xe1, 0x73, 0x08, 0xf5]);
    let back: Vec<i8> = a.iter().map(i4::get).collect();
    assert_eq!(back, vals);

    let s = shape("s2[8]{0:E(2)}");
    let vals = [1i8, -2, 0, -1, 1, 1, -2, 0];
    let a = TiledArray::<tilelayout::storage::i2>::from_fn(&s, |c| {
        tilelayout::storage::i2::new(vals[c[0] as usize]).unwrap()
    })
    .unwrap();
    assert_eq!(a.units(), &[0xc9, 0x25]);

    let s = shape("u2[8]{0:E(2)}");
    let vals = [0u8, 1, 2, 3, 3, 2, 1, 0];
    let a = TiledArray::<u2>::from_fn(&s, |c| u2::new(vals[c[0] as usize]).unwrap()).unwrap();
    assert_eq!(a.units(), &[0xe4, 0x1b]);
    // without E(n), one value per byte, sign-extended
    let s = shape("s4[3]{0}");
    let a = TiledArray::<i4>::from_fn(&s, |c| i4::new(-(c[0] as i8)).unwrap()).unwrap();
    assert_eq!(a.units(), &[0x00, 0xff, 0xfe]);
}

#[test]
fn pred_takes_one_bit_under_e1() {
    let s = shape("pred[10]{0:E(1)}");
    let a = TiledArray::<bool>::from_fn(&s, |c| c[0] % 3 == 0).unwrap();
    assert_eq!(a.units().len(), 2);
    assert_eq!(a.units(), &[0b0100_1001, 0b10]);
    let s = shape("pred[3]{0}");
    let a = TiledArray::<bool>::from_fn(&s, |c| c[0] != 1).unwrap();
    assert_eq!(a.units(), &[1, 0, 1]);
}

/// Setting one packed element never changes another: every slot of small
/// packed arrays, every width, starting from all-ones and all-zeros bytes.
#[test]
fn sub_byte_set_never_clobbers_neighbours() {
    for (text, bits) in [
        ("u4[2,3]{1,0:T(2,2)E(4)}", 4u32),
        ("u2[3,5]{0,1:E(2)}", 2),
        ("u1[3,7]{1,0:T(2,4)E(1)}", 1),
    ] {
        let s = shape(text);
        let c = CompiledShape::new(&s).unwrap();
        let t = s.tiling().unwrap();
        let dims = s.static_dims().unwrap();
        let n = t.slots().div_ceil(8 / bits as u64) as usize;
        for start in [0x00u8, 0xff, 0x5a] {
            for i in 0..dims[0] {
                for j in 0..dims[1] {
                    let mut units = vec![start; n];
                    let before = units.clone();
                    // u8 reads the raw bits of a packed slot too
                    let raw = TiledViewMut::<u8>::new(&c, &mut units).unwrap();
                    let stored = raw.get(&[i, j]).unwrap();
                    assert_eq!(
                        stored,
                        tilelayout::storage::packed::get(
                            &before,
                            t.offset(&[i, j]).unwrap() as usize,
                            bits
                        )
                    );
                    let slot = t.offset(&[i, j]).unwrap() as usize;
                    match bits {
                        4 => {
                            let mut v =
                                TiledViewMut::<tilelayout::storage::u4>::new(&c, &mut units)
                                    .unwrap();
                            v.set(&[i, j], tilelayout::storage::u4::new(0b1010).unwrap())
                                .unwrap();
                        }
                        2 => {
                            let mut v = TiledViewMut::<u2>::new(&c, &mut units).unwrap();
                            v.set(&[i, j], u2::new(0b10).unwrap()).unwrap();
                        }
                        _ => {
                            let mut v =
                                TiledViewMut::<tilelayout::storage::u1>::new(&c, &mut units)
                                    .unwrap();
                            v.set(&[i, j], tilelayout::storage::u1::new(!start & 1).unwrap())
                                .unwrap();
                        }
                    }
                    let per = (8 / bits) as usize;
                    for other in (0..n * per).filter(|&o| o != slot) {
                        let get = |b: &[u8]| {
                            (b[other / per] >> ((other % per) as u32 * bits)) & ((1 << bits) - 1)
                        };
                        assert_eq!(
                            get(&units),
                            get(&before),
                            "{text}: set ({i},{j}) changed slot {other}"
                        );
                    }
                }
            }
        }
    }
}

//! Inputs found by fuzzing and probing the public APIs that used to panic,
//! abort or wrap: each now returns an error or a documented result, in
//! debug and release builds alike.

use tilelayout::storage::{packed, RelayoutPlan, StorageError, Strided, TiledArray};
use tilelayout::value::parse_shape;
use tilelayout::{layout, Layout};

#[test]
fn planning_with_tiles_far_above_the_dims_does_not_overflow() {
    for text in [
        "s8[0]{0:T(9223372036854775807)(8,1)}",
        "pred[0]{0:T(9223372036854775807)(8,128)(2,1)E(1)}",
        "f32[0,5]{1,0:T(4611686018427387904,4611686018427387904)}",
    ] {
        let s = parse_shape(text).unwrap();
        let t = s.tiling().unwrap();
        let bits = s.storage_bits() as u32;
        let dims = s.static_dims().unwrap()[..s.rank()].to_vec();
        let rows = Strided::row_major(&dims, bits).unwrap();
        for plan in [
            RelayoutPlan::new(s, rows).unwrap(),
            RelayoutPlan::new(rows, s).unwrap(),
        ] {
            // nothing to move; the call still checks lengths and returns
            if bits == 32 {
                let src = vec![0u32; plan.src_units(4) as usize];
                let mut dst = vec![0u32; plan.dst_units(4) as usize];
                plan.execute(&src, &mut dst).unwrap();
            } else {
                let src = vec![0u8; plan.src_units(1) as usize];
                let mut dst = vec![0u8; plan.dst_units(1) as usize];
                plan.execute(&src, &mut dst).unwrap();
            }
        }
        assert_eq!(t.elements(), 0, "{text}");
    }
}

// A tile dim of 2^63-1 does not fit a 32-bit `usize` const parameter: the
// layout type exists on 64-bit targets only. On a 32-bit target `layout!`
// says so at its line ("9223372036854775807 does not fit in usize on a 32-bit
// target; …"; the rule's unit test in core/src/validate.rs runs both widths).
#[cfg(target_pointer_width = "64")]
#[test]
fn typed_copy_of_an_empty_array_with_a_huge_tile_compiles_and_runs() {
    type L = layout!(s8[0]{0:T(9223372036854775807)(8,1)});
    let a = tilelayout::storage::TypedArray::<L, { L::SLOTS }>::default();
    let mut rows: [i8; 0] = [];
    a.view().copy_to_row_major(&mut rows).unwrap();
}

#[test]
fn arrays_too_large_to_allocate_are_errors() {
    let too_large = Err(StorageError::TooLarge);
    let s = parse_shape("f32[2305843009213693952]").unwrap(); // 2^61 (capacity overflow)
    assert_eq!(TiledArray::<f32>::new(&s, 0.0).map(|_| ()), too_large);
    // On 64-bit targets these fit `usize` and fail in the allocator, which
    // Miri would try to satisfy from the host's memory: natively only.
    if cfg!(miri) && usize::BITS == 64 {
        return;
    }
    let s = parse_shape("u8[1099511627776]").unwrap(); // 2^40 (allocation fails)
    assert_eq!(TiledArray::<u8>::new(&s, 0).map(|_| ()), too_large);
    assert_eq!(TiledArray::<u8>::from_fn(&s, |_| 0).map(|_| ()), too_large);
    let s = parse_shape("pred[9223372036854775807]{0:E(1)}").unwrap();
    assert_eq!(TiledArray::<bool>::new(&s, false).map(|_| ()), too_large);
}

/// On 32-bit targets sizes past `usize` are errors before any allocation
/// (Miri runs this on `i686-unknown-linux-gnu`).
#[test]
#[cfg(target_pointer_width = "32")]
fn sizes_past_usize_are_too_large_on_32_bit_targets() {
    let s = parse_shape("u8[4294967296]").unwrap(); // 2^32 bytes
    assert_eq!(
        TiledArray::<u8>::new(&s, 0).map(|_| ()),
        Err(StorageError::TooLarge)
    );
    let t = parse_shape("f32[1073741824]{0:T(1024)}").unwrap(); // 2^32 bytes
    assert_eq!(
        tilelayout::storage::TiledView::<f32>::new(
            &tilelayout::storage::CompiledShape::new(&t).unwrap(),
            &[]
        )
        .unwrap_err(),
        StorageError::TooLarge
    );
    // slots fit usize, so a plan exists; its byte count is the caller's
    assert!(RelayoutPlan::new(t, Strided::row_major(&[1 << 30], 32).unwrap()).is_ok());
    let e = parse_shape("f32[2147483648]").unwrap(); // 2^31 slots, 2^33 bytes
    assert_eq!(
        TiledArray::<f32>::new(&e, 0.0).map(|_| ()),
        Err(StorageError::TooLarge)
    );
}
#[test]
fn packed_access_with_hostile_arguments_is_an_error() {
    assert!(packed::try_get(&[], 0, 4).is_err());
    assert!(packed::try_get(&[0], 0, 0).is_err());
    assert!(packed::try_set(&mut [], 0, 4, 1).is_err());
    assert!(packed::try_set(&mut [0], 0, 0, 1).is_err());
    assert!(packed::try_set(&mut [0], usize::MAX, 1, 1).is_err());
    // the unchecked forms panic, as documented (no division by zero, no
    // read or write past the slice), in debug and release alike
    for bits in [0, 3] {
        assert!(std::panic::catch_unwind(|| packed::get(&[0], 0, bits)).is_err());
        assert!(std::panic::catch_unwind(|| packed::set(&mut [0], 0, bits, 1)).is_err());
    }
    assert!(std::panic::catch_unwind(|| packed::get(&[], 0, 4)).is_err());
    assert!(std::panic::catch_unwind(|| packed::set(&mut [], 0, 4, 1)).is_err());
}

#[test]
fn unchecked_offsets_and_programs_never_panic() {
    let t = parse_shape("f32[3,5]{1,0:T(2,2)}")
        .unwrap()
        .tiling()
        .unwrap();
    let p = t.program();
    for idx in [
        &[u64::MAX, u64::MAX][..],
        &[u64::MAX, 1],
        &[1],
        &[],
        &[1, 2, 3],
    ] {
        let _ = t.offset_unchecked(idx);
        let _ = p.run(idx);
    }
    // in bounds, both are the checked offset
    assert_eq!(t.offset_unchecked(&[2, 3]), 17);
    assert_eq!(p.run(&[2, 3]), 17);
}

//! The 2- and 1-bit packings on their zip kernels: rows of `u2`/`s2`
//! slots ↔ `(16,128)(16,1)E(2)` (sixteen rows to a 32-bit column, the TPU
//! word packing that `(8,128)(8,1)E(4)` does for nibbles) and rows of
//! `pred` ↔ `(32,128)(32,1)E(1)` (the 1-bit format of the tiled-layout
//! docs), checked slot by slot against the element-wise definition at
//! every SIMD level (`relayout_common::check`), with uneven dims (padding
//! and remainders of slots that do not fill a byte), tiles narrower than
//! a byte column, gapped rows and the kernel each plan picks.

mod relayout_common;
use relayout_common::{check, levels_agree, shape, strided};
use tilelayout::storage::{ArrayLayout, Kernel};

/// Rows ↔ tiles of `ty` with `attrs`, both directions, every strided
/// layout of `dims` (row-major, column-major, gapped); returns the kernels
/// of the row-major pair.
fn both_ways(ty: &str, bits: u32, dims: &[u64], attrs: &str) -> (Kernel, Kernel) {
    let t = ArrayLayout::from(shape(ty, dims, &[1, 0], attrs));
    let ss = strided(dims, bits);
    let mut kernels = None;
    for s in &ss {
        let s = ArrayLayout::from(*s);
        let pair = (check(s, t, bits, None), check(t, s, bits, None));
        kernels.get_or_insert(pair);
    }
    kernels.unwrap()
}

#[test]
#[cfg_attr(
    miri,
    ignore = "slow interpreted (the kernels: bit_zips_on_one_simd_step_…)"
)]
fn two_bit_rows_and_sixteen_row_tiles_agree_with_offsets() {
    let cases: &[(&[u64], &str)] = &[
        (&[32, 256], "T(16,128)(16,1)E(2)"),
        (&[16, 128], "T(16,128)(16,1)E(2)"),
        (&[35, 300], "T(16,128)(16,1)E(2)"),
        (&[17, 6], "T(16,128)(16,1)E(2)"),
        (&[48, 40], "T(16,8)(16,1)E(2)"),
        (&[20, 22], "T(16,2)(16,1)E(2)"),
    ];
    for &(dims, attrs) in cases {
        for ty in ["u2", "s2"] {
            both_ways(ty, 2, dims, attrs);
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "slow interpreted (the kernels: bit_zips_on_one_simd_step_…)"
)]
fn one_bit_rows_and_thirty_two_row_tiles_agree_with_offsets() {
    let cases: &[(&[u64], &str)] = &[
        (&[64, 256], "T(32,128)(32,1)E(1)"),
        (&[32, 128], "T(32,128)(32,1)E(1)"),
        (&[70, 130], "T(32,128)(32,1)E(1)"),
        (&[33, 9], "T(32,128)(32,1)E(1)"),
        (&[64, 24], "T(32,16)(32,1)E(1)"),
        (&[40, 13], "T(32,4)(32,1)E(1)"),
    ];
    for &(dims, attrs) in cases {
        both_ways("pred", 1, dims, attrs);
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "slow interpreted (the kernels: bit_zips_on_one_simd_step_…)"
)]
fn sub_byte_packings_take_the_zip_kernels() {
    assert_eq!(
        both_ways("u2", 2, &[32, 256], "T(16,128)(16,1)E(2)"),
        (Kernel::Interleave(16), Kernel::Deinterleave(16))
    );
    assert_eq!(
        both_ways("pred", 1, &[64, 256], "T(32,128)(32,1)E(1)"),
        (Kernel::Interleave(32), Kernel::Deinterleave(32))
    );
    assert_eq!(
        both_ways("s4", 4, &[16, 256], "T(8,128)(8,1)E(4)"),
        (Kernel::Interleave(8), Kernel::Deinterleave(8))
    );
}

/// The nibble zips' streaming stores (`avx2::put` from the nibble kernels;
/// the AVX2 level under Miri with `-C target-feature=+avx2`): 80 byte
/// columns, enough for the wide kernel after an alignment head.
#[test]
fn streaming_nibble_zips_match_the_definition() {
    let t = ArrayLayout::from(shape("s4", &[8, 160], &[1, 0], "T(8,160)(8,1)E(4)"));
    let rows = ArrayLayout::from(strided(&[8, 160], 4)[0]);
    assert_eq!(check(rows, t, 4, Some(true)), Kernel::Interleave(8));
    assert_eq!(check(t, rows, 4, Some(true)), Kernel::Deinterleave(8));
}

/// The 2- and 1-bit zips' SIMD kernels on one whole step each (AVX2: 32
/// byte columns): natively against the element-wise definition; under Miri
/// (with `-C target-feature=+avx2` every level up to AVX2 runs their unsafe
/// loads and stores) each level against the portable kernels, the
/// definition being too slow interpreted.
#[test]
fn bit_zips_on_one_simd_step_match_the_definition() {
    for (ty, bits, dims, attrs) in [
        ("u2", 2, [16u64, 128], "T(16,128)(16,1)E(2)"),
        ("pred", 1, [32, 256], "T(32,128)(32,1)E(1)"),
    ] {
        let t = ArrayLayout::from(shape(ty, &dims, &[1, 0], attrs));
        let rows = ArrayLayout::from(strided(&dims, bits)[0]);
        let k = (32 / bits) as u8;
        let agree = if cfg!(miri) {
            levels_agree
        } else {
            |s, d, b| check(s, d, b, None)
        };
        assert_eq!(agree(rows, t, bits), Kernel::Interleave(k));
        assert_eq!(agree(t, rows, bits), Kernel::Deinterleave(k));
    }
}

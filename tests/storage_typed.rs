//! Typed views and arrays agree with the runtime views and with the
//! element-wise definition (`Layout::offset`).

use half::bf16;
use tilelayout::storage::{
    i4, StorageError, TiledArray, TypedArray, TypedStorage, TypedView, TypedViewMut,
};
use tilelayout::{layout, layout_array, Layout};

/// Under Miri (interpreted: the whole suite must run in a minute or two)
/// `agree!` visits every fifth column of every row (5 is coprime to the
/// tile widths, so the visited columns fall at many positions within a
/// tile, and every row parity of the bf16 pairing appears); natively, all.
const COLUMN_STEP: usize = if cfg!(miri) { 5 } else { 1 };

/// Writes a distinct value at every element through the typed array and
/// through the runtime array; the storage must be identical, and every
/// element must sit at `L::offset`.
macro_rules! agree {
    ($val:expr; $($text:tt)+) => {{
        type L = layout!($($text)+);
        let mut typed = <layout_array!($($text)+)>::default();
        let mut runtime = TiledArray::new(&L::SHAPE, $val(0)).unwrap();
        runtime.units_mut().fill(Default::default());
        let dims = L::DIMS;
        let mut n = 0usize;
        for i in 0..dims[0] {
            for j in (0..dims[1]).step_by(COLUMN_STEP) {
                n += 1;
                typed.set([i, j], $val(n));
                runtime.set(&[i as u64, j as u64], $val(n)).unwrap();
            }
        }
        assert_eq!(typed.units(), runtime.units(), "{}", L::TEXT);
        let mut n = 0usize;
        for i in 0..dims[0] {
            for j in (0..dims[1]).step_by(COLUMN_STEP) {
                n += 1;
                assert_eq!(typed.get([i, j]), $val(n));
                assert_eq!(typed.runtime().get(&[i as u64, j as u64]).unwrap(), $val(n));
            }
        }
        assert_eq!(typed.units().len(), <L as TypedStorage>::UNITS);
    }};
}

#[test]
fn typed_arrays_store_like_the_runtime_arrays() {
    agree!(|n: usize| n as f32; f32[3,5]{1,0:T(2,2)});
    agree!(|n: usize| n as f32; f32[10,7]{0,1:T(4,2)(2,1)});
    agree!(|n: usize| bf16::from_f32(n as f32); bf16[16,300]{1,0:T(8,128)(2,1)});
    agree!(|n: usize| (n % 251) as i8; s8[9,130]{1,0:T(8,128)(4,1)});
    agree!(|n: usize| i4::new((n % 16) as i8 - 8).unwrap(); s4[5,9]{1,0:E(4)});
    agree!(|n: usize| i4::new((n % 16) as i8 - 8).unwrap(); s4[6,20]{0,1:T(8,128)(8,1)E(4)});
    agree!(|n: usize| n.is_multiple_of(3); pred[7,33]{1,0:E(1)});
}

#[test]
fn bf16_rows_2k_and_2k_plus_1_share_a_word() {
    type L = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
    for k in 0..8 {
        for j in [0, 1, 127, 128, 255] {
            let even = L::offset([2 * k, j]);
            assert_eq!(L::offset([2 * k + 1, j]), even + 1);
            assert_eq!(even % 2, 0, "a 32-bit word starts at an even bf16 slot");
        }
    }
}

#[test]
fn sub_byte_neighbours_are_never_clobbered() {
    let mut a = <layout_array!(s4[4,8]{1,0:E(4)})>::default();
    let v = |x: i8| i4::new(x).unwrap();
    for i in 0..4 {
        for j in 0..8 {
            a.set([i, j], v(((i * 8 + j) % 16) as i8 - 8));
        }
    }
    a.set([2, 5], v(7));
    for i in 0..4 {
        for j in 0..8 {
            let want = if (i, j) == (2, 5) {
                7
            } else {
                ((i * 8 + j) % 16) as i8 - 8
            };
            assert_eq!(a.get([i, j]).get(), want, "({i},{j})");
        }
    }
}

#[test]
fn views_check_their_length_and_indices() {
    type L = layout!(f32[3,5]{1,0:T(2,2)});
    let buf = [0.0f32; 23];
    assert_eq!(
        TypedView::<L>::new(&buf).err(),
        Some(StorageError::Length {
            expected: 24,
            found: 23
        })
    );
    let mut buf = [0.0f32; 24];
    let mut v = TypedViewMut::<L>::new(&mut buf).unwrap();
    assert!(v.try_set([2, 3], 1.5));
    assert!(!v.try_set([3, 0], 1.5));
    assert_eq!(v.try_get([2, 4]), Some(0.0));
    assert_eq!(v.try_get([0, 5]), None);
    assert_eq!(buf[17], 1.5);
}

#[test]
fn padding_fill_reaches_exactly_the_padding() {
    type L = layout!(f32[3,5]{1,0:T(2,2)});
    let mut a = TypedArray::<L, 24>::filled(1.0);
    a.fill_padding(-1.0);
    let padding: Vec<usize> = (0..24).filter(|&s| a.units()[s] == -1.0).collect();
    assert_eq!(padding, [9, 11, 14, 15, 18, 19, 21, 22, 23]);
}

#[test]
fn relayout_from_and_to_row_major() {
    type L = layout!(bf16[40,300]{1,0:T(8,128)(2,1)});
    let src: Vec<bf16> = (0..40 * 300).map(|n| bf16::from_f32(n as f32)).collect();
    let mut a = <layout_array!(bf16[40,300]{1,0:T(8,128)(2,1)})>::default();
    a.view_mut().copy_from_row_major(&src).unwrap();
    for i in 0..40 {
        for j in 0..300 {
            assert_eq!(a.units()[L::offset([i, j])], src[i * 300 + j]);
        }
    }
    let mut back = vec![bf16::ZERO; 40 * 300];
    a.view().copy_to_row_major(&mut back).unwrap();
    assert_eq!(back, src);

    type P = layout!(s4[9,40]{1,0:T(8,128)(8,1)E(4)});
    let packed: Vec<u8> = (0..9 * 40 / 2).map(|n| (n * 37 % 256) as u8).collect();
    let mut p = <layout_array!(s4[9,40]{1,0:T(8,128)(8,1)E(4)})>::default();
    p.view_mut().copy_from_row_major(&packed).unwrap();
    let mut out = vec![0u8; packed.len()];
    p.view().copy_to_row_major(&mut out).unwrap();
    assert_eq!(out, packed);
    assert_eq!(<P as TypedStorage>::UNITS, P::BYTES);
}

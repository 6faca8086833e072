//! Byte units of wide slots: `pred[…]{…E(32)}` (pred in a 32-bit word, as
//! older TPUs store it) is held in `u8` units, four a slot. Relayouts and
//! typed copies take such byte buffers at any alignment and write the
//! same bytes as the same plan on `u32` units.

use tilelayout::storage::{Kernel, RelayoutPlan, Strided};
use tilelayout::value::parse_shape;
use tilelayout::{layout, layout_array, Layout};

/// Runs `plan` on `u32` units and on byte units starting at every offset
/// of a 4-byte word: the bytes must be the same.
fn bytes_agree_with_words(plan: &RelayoutPlan) -> Kernel {
    let (sn, dn) = (plan.src_units(4) as usize, plan.dst_units(4) as usize);
    let src: Vec<u32> = (0..sn as u32).map(|i| i.wrapping_mul(2654435761)).collect();
    let mut want = vec![0xA5A5_A5A5u32; dn];
    plan.execute(&src, &mut want).unwrap();
    let want: Vec<u8> = want.iter().flat_map(|w| w.to_le_bytes()).collect();
    let src: Vec<u8> = src.iter().flat_map(|w| w.to_le_bytes()).collect();
    for shift in 0..4 {
        let mut s = vec![0u8; shift];
        s.extend_from_slice(&src);
        let mut d = vec![0xA5u8; shift + 4 * dn];
        plan.execute(&s[shift..], &mut d[shift..]).unwrap();
        assert!(d[shift..] == want[..], "shift {shift}: {:?}", plan.stats());
    }
    plan.stats().kernel
}

#[test]
fn byte_units_of_32_bit_slots_move_like_words() {
    let rows = Strided::row_major(&[64, 256], 32).unwrap();
    let cols = Strided::column_major(&[64, 256], 32).unwrap();
    let t = parse_shape("pred[64,256]{1,0:T(8,128)E(32)}").unwrap();
    let tt = parse_shape("pred[64,256]{0,1:T(8,128)E(32)}").unwrap();
    let padded = parse_shape("pred[10,130]{1,0:T(8,128)E(32)}").unwrap();
    let prows = Strided::row_major(&[10, 130], 32).unwrap();
    let mut kernels = vec![
        bytes_agree_with_words(&RelayoutPlan::new(rows, t).unwrap()),
        bytes_agree_with_words(&RelayoutPlan::new(t, rows).unwrap()),
        bytes_agree_with_words(&RelayoutPlan::new(cols, t).unwrap()),
        bytes_agree_with_words(&RelayoutPlan::new(t, tt).unwrap()),
        bytes_agree_with_words(&RelayoutPlan::new(prows, padded).unwrap()),
        bytes_agree_with_words(&RelayoutPlan::new(padded, prows).unwrap()),
    ];
    kernels.dedup();
    // runs, a transpose (gather with `alloc`) and more: all on loops
    assert!(kernels.len() >= 2, "{kernels:?}");
    assert!(!kernels.contains(&Kernel::Elementwise), "{kernels:?}");
}

#[test]
fn pred_in_32_bit_words_has_typed_copies() {
    type L = layout!(pred[10,130]{1,0:T(8,128)E(32)});
    let mut a = <layout_array!(pred[10,130]{1,0:T(8,128)E(32)})>::default();
    // row-major source in the same storage: 4 bytes a pred
    let truth = |i: usize, j: usize| (i * 7 + j).is_multiple_of(3);
    let mut rows = vec![0u8; 10 * 130 * 4];
    for i in 0..10 {
        for j in 0..130 {
            rows[(i * 130 + j) * 4] = truth(i, j) as u8;
        }
    }
    a.view_mut().copy_from_row_major(&rows).unwrap();
    for i in 0..10 {
        for j in 0..130 {
            assert_eq!(a.get([i, j]), truth(i, j), "({i}, {j})");
            let slot = L::offset([i, j]);
            assert_eq!(a.units()[4 * slot], truth(i, j) as u8);
        }
    }
    let mut back = vec![0xFFu8; rows.len()];
    a.view().copy_to_row_major(&mut back).unwrap();
    assert_eq!(back, rows);
    // a wrong length is an error, not a panic
    assert!(a.view_mut().copy_from_row_major(&rows[1..]).is_err());
}

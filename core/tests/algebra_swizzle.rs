//! Swizzles and swizzled layouts: the functor's bit rule against an
//! independent bit-by-bit formulation, involution, notation, and the
//! algebra on `Sw o offset o layout` (NVIDIA/cutlass
//! `include/cute/swizzle.hpp`, `swizzle_layout.hpp`).

use proptest::prelude::*;
use tilelayout_core::algebra::{evaluate, AnyLayout, ComposedLayout, Op, Swizzle, Tiler};

/// Bit `b` of `x`.
fn bit(x: i64, b: i32) -> i64 {
    (x >> b) & 1
}

proptest! {
    /// `Sw<B,M,S>` flips bit `M + max(0,-S) + k` by bit `M + max(0,S) + k`
    /// for `k < B`, and nothing else; it is an involution.
    #[test]
    fn swizzle_bit_rule(b in 0i32..5, m in 0i32..5, s in -8i32..9, x in 0i64..1 << 20) {
        prop_assume!(s.abs() >= b);
        let sw = Swizzle::new(b, m, s).unwrap();
        let y = sw.apply(x);
        let (src, dst) = (m + s.max(0), m + (-s).max(0));
        for k in 0..40 {
            let want = if k >= dst && k < dst + b {
                bit(x, k) ^ bit(x, src + (k - dst))
            } else {
                bit(x, k)
            };
            prop_assert_eq!(bit(y, k), want, "bit {}", k);
        }
        prop_assert_eq!(sw.apply(y), x);
    }

    /// Swizzled layouts: composition keeps the swizzle, inverses invert.
    #[test]
    fn swizzled_inverse(b in 1i32..4, m in 0i32..3, rows in 1u32..4, cols in 1u32..4) {
        let (r, c) = (1i64 << rows, 1i64 << cols);
        let text = format!("Sw<{b},{m},{b}> o _0 o (_{r},_{c}):(_{c},_1)");
        let Ok(cl) = ComposedLayout::parse(&text) else { return Ok(()) };
        // refused when the swizzle reads bits past the layout's codomain
        if let Ok(inv) = cl.right_inverse() {
            for i in 0..inv.size().unwrap().value {
                prop_assert_eq!(cl.call(inv.call(i).unwrap()).unwrap(), i);
            }
        }
        let sub = cl.composition(&Tiler::parse(&format!("(_{r},_1)")).unwrap()).unwrap();
        for i in 0..r {
            prop_assert_eq!(sub.call(i).unwrap(), cl.call(i).unwrap());
        }
    }
}

#[test]
fn negative_shift_and_notation() {
    // CuTe's Swizzle<2,0,-2>: bits 0..2 flip bits 2..4
    let sw = Swizzle::parse("Sw<2,0,-2>").unwrap();
    assert_eq!(sw.apply(0b01), 0b0101);
    assert_eq!(sw.to_string(), "Sw<2,0,-2>");
    let c = AnyLayout::parse("Sw<2,0,-2> o _0 o (_4,_4):(_1,_4)").unwrap();
    assert_eq!(c.to_string(), "Sw<2,0,-2> o _0 o (_4,_4):(_1,_4)");
    // printed by CuTe for the same inputs
    let v = evaluate(Op::RightInverse, &["Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"]).unwrap();
    assert_eq!(v.to_string(), "Sw<3,0,-6> o _0 o (_64,_8):(_8,_1)");
    let AnyLayout::Swizzled(c) = AnyLayout::parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)").unwrap()
    else {
        unreachable!()
    };
    for i in 0..512 {
        assert_eq!(c.call(v.call(i).unwrap()).unwrap(), i);
    }
    let v = evaluate(Op::LeftInverse, &["Sw<2,0,2> o _0 o (_4,_4):(_4,_1)"]).unwrap();
    assert_eq!(v.to_string(), "Sw<2,0,-2> o _0 o (_4,_4):(_4,_1)");
    // CuTe refuses this one at compile time (its masks leave the domain)
    assert!(evaluate(Op::RightInverse, &["Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"]).is_err());
    // a non-zero offset keeps the swizzle on the input side
    let v = evaluate(Op::RightInverse, &["Sw<2,0,2> o 16 o (_4,_4):(_4,_1)"]).unwrap();
    assert_eq!(v.to_string(), "(_4,_4):(_4,_1) o -16 o Sw<2,0,2>");
    let v = evaluate(
        Op::LogicalDivide,
        &["Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "(_8,_8)"],
    )
    .unwrap();
    assert_eq!(
        v.to_string(),
        "Sw<3,4,3> o _0 o ((_8,_1),(_8,_8)):((_64,_0),(_1,_8))"
    );
}

/// TileFusion's swizzled shared tile: a 64-wide row whose 8-row blocks keep
/// the row stride, `Sw<3,3,3> o _0 o (_8,_64):(_64,_1)` (bf16, 16-byte
/// units); every 8x8 block of units is a permutation of its rows.
#[test]
fn row_stride_kept_under_swizzle() {
    let c = ComposedLayout::parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)").unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..512 {
        assert!(seen.insert(c.call(i).unwrap()));
    }
    assert_eq!(seen.len(), 512);
    assert_eq!(*seen.iter().next_back().unwrap(), 511);
}

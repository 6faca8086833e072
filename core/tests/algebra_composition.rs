//! `composition`: CuTe's post-conditions over random layouts (NVIDIA/cutlass
//! `test/unit/cute/core/composition.cpp` checks the same), and the
//! divisibility conditions it always checks.

mod algebra_gen;
use algebra_gen::{image, layout, small_layout, tiler, Strides};
use proptest::prelude::*;
use tilelayout_core::algebra::{
    composition, composition_tiler, AlgebraErrorKind, CuteLayout, IntTuple, Tiler,
};

/// The reference: `A(B(i))` for every `i` of `B` (`None` where `B(i)` is
/// outside `A`'s domain, where CuTe promises nothing).
fn composed(a: &CuteLayout, b: &CuteLayout) -> Vec<Option<i64>> {
    let n = a.size().unwrap().value;
    image(b)
        .into_iter()
        .map(|j| (0..n).contains(&j).then(|| a.call(j).unwrap()))
        .collect()
}

/// The result agrees with the reference wherever that is defined.
fn agrees(r: &CuteLayout, want: &[Option<i64>]) -> bool {
    image(r)
        .iter()
        .zip(want)
        .all(|(x, w)| w.is_none_or(|w| *x == w))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Post 1: compatible(B, R) (same size); Post 2: R(i) == A(B(i)).
    /// Errors are only the divisibility conditions, and on half of the
    /// inputs or more there is none.
    #[test]
    fn composition_is_function_composition(
        a in layout(Strides::Gaps, 0.8),
        b in small_layout(),
    ) {
        match composition(&a, &b) {
            Ok(r) => {
                prop_assert_eq!(r.size().unwrap().value, b.size().unwrap().value);
                prop_assert!(agrees(&r, &composed(&a, &b)), "{} o {} = {}", a, b, r);
            }
            Err(e) => prop_assert!(matches!(
                e.kind,
                AlgebraErrorKind::StrideDivisibility { .. }
                    | AlgebraErrorKind::StrideWraps { .. }
                    | AlgebraErrorKind::ShapeDivisibility { .. }
                    | AlgebraErrorKind::ModesCarry { .. }
            ), "{}", e),
        }
    }

    /// Any layout composed with a compact one that covers it is itself.
    #[test]
    fn composition_with_identity(a in layout(Strides::Any, 0.8)) {
        let n = a.size().unwrap();
        let id = CuteLayout::new(IntTuple::int(n), IntTuple::fixed(1)).unwrap();
        let r = composition(&a, &id).unwrap();
        prop_assert_eq!(image(&r), image(&a));
    }

    /// A by-mode tiler composes mode by mode.
    #[test]
    fn tiler_composes_by_mode(a in layout(Strides::Compact, 0.8), t in tiler()) {
        if let Ok(r) = composition_tiler(&a, &t) {
            if t.is_by_mode() {
                prop_assert_eq!(r.rank(), t.rank());
                for i in 0..t.rank() {
                    let ri = r.mode(i).unwrap();
                    let (ai, ti) = (a.mode(i).unwrap(), t.mode(i).unwrap());
                    prop_assert!(agrees(&ri, &composed(&ai, &ti)), "{} o {} = {}", ai, ti, ri);
                }
            } else {
                prop_assert!(agrees(&r, &composed(&a, &t.mode(0).unwrap())));
            }
        }
    }
}

/// Exhaustive over small static left layouts and right layouts `s:d`: an
/// error exactly when the result could not be a layout of `s` elements
/// equal to `A(B(i))` built by CuTe's rules, i.e. when a divisibility
/// condition fails; when it succeeds the function is right.
#[test]
fn exhaustive_small() {
    let lefts = [
        "(_4,_6):(_1,_4)",
        "(_2,_3,_4):(_1,_2,_6)",
        "(_6,_4):(_4,_1)",
        "_12:_1",
    ];
    let mut ok = 0;
    let mut err = 0;
    for a in lefts {
        let a = CuteLayout::parse(a).unwrap();
        for s in 1..=12 {
            for d in 0..=12 {
                let b = CuteLayout::parse(&format!("_{s}:_{d}")).unwrap();
                match composition(&a, &b) {
                    Ok(r) => {
                        ok += 1;
                        assert!(agrees(&r, &composed(&a, &b)), "{a} o {b} = {r}");
                    }
                    Err(_) => err += 1,
                }
            }
        }
    }
    assert!(ok > 100 && err > 50, "ok {ok} err {err}");
}

/// The divisibility errors name the mode of the left layout.
#[test]
fn divisibility_errors_name_the_mode() {
    let a = CuteLayout::parse("(_4,_6):(_1,_8)").unwrap();
    let e = composition(&a, &CuteLayout::parse("_3:_3").unwrap()).unwrap_err();
    assert_eq!(
        e.kind,
        AlgebraErrorKind::StrideWraps {
            mode: 0,
            shape: 4,
            stride: 3
        }
    );
    let e = composition(&a, &CuteLayout::parse("_6:_1").unwrap()).unwrap_err();
    assert_eq!(
        e.kind,
        AlgebraErrorKind::ShapeDivisibility {
            mode: 0,
            shape: 6,
            divisor: 4
        }
    );
    assert!(e.to_string().contains("mode 0"), "{e}");
}

/// A failed precondition names the mode of the right operand the user
/// wrote (the top-level mode, then the path into nested modes), not the
/// position inside the sub-composition where it was found.
#[test]
fn errors_name_the_mode_of_the_right_operand() {
    use tilelayout_core::algebra::{logical_divide, zipped_divide};
    let lhs = CuteLayout::parse("(_6,_4):(_1,_100)").unwrap();
    // mode 1 of a right layout: 4 elements every 4 wrap past the mode of 6
    let e = composition(&lhs, &CuteLayout::parse("(_2,_4):(_1,_4)").unwrap()).unwrap_err();
    assert_eq!(e.path.modes(), &[1]);
    assert!(
        e.to_string().ends_with("; at mode 1 of the right operand"),
        "{e}"
    );
    // a nested tiler: mode 0 of mode 1
    let a = CuteLayout::parse("(_8,((_6,_4),_2)):(_1,((_1,_100),_1000))").unwrap();
    let t = Tiler::parse("(_2,(_4:_4,_2))").unwrap();
    for e in [
        composition_tiler(&a, &t).unwrap_err(),
        logical_divide(&a, &t).unwrap_err(),
    ] {
        assert_eq!(e.path.modes(), &[1, 0], "{e}");
        assert!(
            e.to_string()
                .ends_with("; at mode (1,0) of the right operand"),
            "{e}"
        );
    }
    // a by-mode tiler: its mode 1
    let a = CuteLayout::parse("(_8,(_6,_4)):(_1,(_1,_100))").unwrap();
    let e = logical_divide(&a, &Tiler::parse("(_2,_4:_4)").unwrap()).unwrap_err();
    assert_eq!(e.path.modes(), &[1], "{e}");
    // a single tiler is the whole right operand: no path, as before
    let a = CuteLayout::parse("(_12,(_4,_8)):(_7,(_1,_30))").unwrap();
    let e = zipped_divide(&a, &Tiler::parse("128").unwrap()).unwrap_err();
    assert!(e.path.is_empty());
    assert_eq!(
        e.to_string(),
        "shape divisibility: in mode 0 of the left layout, 128 is not divisible by 12; make the tile a divisor of the mode"
    );
}

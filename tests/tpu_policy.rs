//! The TPU policy on the seeds' and SPEC's examples, its rules at their
//! edges, and its errors.

use tilelayout::tpu::{tpu_choice, tpu_layout, tpu_layout_for_text, Rule, TpuError};
use tilelayout::value::{ErrorKind, PrimitiveType, PrimitiveType::*};

#[track_caller]
fn chosen(ty: PrimitiveType, dims: &[u64], m2m: Option<&[i64]>) -> String {
    tpu_layout(ty, dims, m2m).unwrap().to_string()
}

#[test]
fn seeds_examples() {
    // Seed 002 §9: 32-bit (8,128); second-minor 1–2 → (2,128) [the data
    // says (1,128) for 1]; 3–4 → (4,128); 16-bit (8,128)(2,1); 8-bit
    // (8,128)(4,1).
    assert_eq!(
        chosen(F32, &[1024, 1024], None),
        "f32[1024,1024]{1,0:T(8,128)}"
    );
    assert_eq!(chosen(F32, &[2, 1024], None), "f32[2,1024]{1,0:T(2,128)}");
    assert_eq!(chosen(F32, &[1, 1024], None), "f32[1,1024]{1,0:T(1,128)}");
    assert_eq!(chosen(F32, &[3, 1024], None), "f32[3,1024]{1,0:T(4,128)}");
    assert_eq!(chosen(F32, &[4, 1024], None), "f32[4,1024]{1,0:T(4,128)}");
    assert_eq!(chosen(F32, &[5, 1024], None), "f32[5,1024]{1,0:T(8,128)}");
    assert_eq!(
        chosen(BF16, &[1024, 1024], None),
        "bf16[1024,1024]{1,0:T(8,128)(2,1)}"
    );
    assert_eq!(
        chosen(S8, &[1024, 1024], None),
        "s8[1024,1024]{1,0:T(8,128)(4,1)}"
    );
    assert_eq!(
        chosen(U8, &[327680, 327680], None),
        "u8[327680,327680]{1,0:T(8,128)(4,1)}"
    );
    // SPEC §4: real output has small tiles for 16-bit too, rank-1 and scalars.
    assert_eq!(
        chosen(BF16, &[2, 1024], None),
        "bf16[2,1024]{1,0:T(2,128)(2,1)}"
    );
    assert_eq!(chosen(F32, &[100], None), "f32[100]{0:T(128)}");
    assert_eq!(chosen(F32, &[512], None), "f32[512]{0:T(512)}");
    assert_eq!(chosen(F32, &[1 << 20], None), "f32[1048576]{0:T(1024)}");
    assert_eq!(chosen(S32, &[], None), "s32[]{:T(128)}");
    assert_eq!(chosen(BF16, &[], None), "bf16[]{:T(256)}");
    assert_eq!(
        chosen(BF16, &[16, 1280, 40], None),
        "bf16[16,1280,40]{2,1,0:T(8,128)(2,1)}"
    );
}

#[test]
fn real_compiler_examples() {
    // Rows of tests/data/real_shapes_dev.tsv and the HLO dumps.
    let rows = [
        "f32[256,1]{0,1:T(1,128)}",
        "f32[512,3]{0,1:T(4,128)}",
        "f32[1,128,1,1]{1,3,2,0:T(1,128)}",
        "u32[3,4]{1,0:T(4,128)}",
        "bf16[1,128,1,32,2]{1,4,3,2,0:T(2,128)(2,1)}",
        "bf16[3,512]{1,0:T(4,128)(2,1)}",
        "pred[1024,1]{0,1:T(4,128)(4,1)}",
        "s8[1,1,1]{2,1,0:T(4,128)(4,1)}",
        "pred[1,128,151936]{2,1,0:T(8,128)(4,1)}",
        "bf16[128]{0:T(256)(128)(2,1)}",
        "bf16[1536]{0:T(1024)(128)(2,1)}",
        "s8[4194304]{0:T(1024)(128)(4,1)}",
        "s32[256]{0:T(256)}",
        "pred[]{:T(512)}",
        "f32[128,1,576]{0,2,1:T(8,128)}",
    ];
    for row in rows {
        let shape = tilelayout::value::parse_shape(row).unwrap();
        let dims: Vec<u64> = shape.dims().iter().map(|d| d.size().unwrap()).collect();
        let got = tpu_layout(
            shape.element_type(),
            &dims,
            Some(shape.layout().minor_to_major()),
        )
        .unwrap();
        assert_eq!(got.to_string(), row);
    }
}

#[test]
fn rules_are_reported() {
    let rule = |ty, d: &[u64]| tpu_choice(ty, d, None).unwrap().rule;
    assert_eq!(rule(F32, &[]), Rule::Scalar);
    assert_eq!(rule(F32, &[7]), Rule::Rank1);
    assert_eq!(rule(F32, &[4, 7]), Rule::SmallSecondMinor);
    assert_eq!(rule(F32, &[8, 7]), Rule::Standard);
    // A packed word needs p rows: 8-bit never goes below 4 rows, 4-bit
    // never below 8 (so it is always standard).
    assert_eq!(chosen(S8, &[2, 7], None), "s8[2,7]{1,0:T(4,128)(4,1)}");
    assert_eq!(chosen(S4, &[1, 7], None), "s4[1,7]{1,0:T(8,128)(8,1)E(4)}");
    assert_eq!(rule(S4, &[1, 7]), Rule::Standard);
    assert_eq!(
        chosen(S4, &[5000], None),
        "s4[5000]{0:T(1024)(128)(8,1)E(4)}"
    );
    assert_eq!(chosen(U4, &[], None), "u4[]{:T(1024)E(4)}");
}

#[test]
fn zero_sized_dims_are_fine() {
    assert_eq!(chosen(F32, &[0], None), "f32[0]{0:T(128)}");
    assert_eq!(chosen(F32, &[0, 256], None), "f32[0,256]{1,0:T(1,128)}");
}

#[test]
fn errors_are_typed() {
    assert_eq!(
        tpu_layout(F64, &[8, 128], None),
        Err(TpuError::UnsupportedType {
            ty: F64,
            span: tilelayout::value::Span::NONE
        })
    );
    let core = |r: Result<_, TpuError>| match r {
        Err(TpuError::Core(e)) => e.kind,
        other => panic!("expected a core error, got {other:?}"),
    };
    assert_eq!(
        core(tpu_layout(F32, &[3, 5], Some(&[0]))),
        ErrorKind::MinorToMajorLength { rank: 2, found: 1 }
    );
    assert_eq!(
        core(tpu_layout(F32, &[3, 5], Some(&[0, 2]))),
        ErrorKind::MinorToMajorRange {
            position: 1,
            value: 2
        }
    );
    assert_eq!(
        core(tpu_layout(F32, &[3, 5], Some(&[1, 1]))),
        ErrorKind::MinorToMajorRepeat {
            position: 1,
            value: 1
        }
    );
    assert_eq!(
        core(tpu_layout(F32, &[1 << 40, 1 << 40], None)),
        ErrorKind::DimsOverflow
    );
    assert_eq!(
        core(tpu_layout(F32, &[1; 17], None)),
        ErrorKind::TooManyDims
    );
}

#[test]
fn text_entry_point() {
    let a = tpu_layout_for_text("f32[3,5]{0,1}").unwrap();
    assert_eq!(a.shape.to_string(), "f32[3,5]{0,1:T(8,128)}");
    assert_eq!(a.rule, Rule::Standard);
    assert_eq!(
        (a.report.elements, a.report.slots, a.report.bytes),
        (15, 1024, 4096)
    );
    let a = tpu_layout_for_text("BF16[2,1024]").unwrap();
    assert_eq!(a.shape.to_string(), "bf16[2,1024]{1,0:T(2,128)(2,1)}");
    assert_eq!(
        tpu_layout_for_text("f32[]").unwrap().shape.to_string(),
        "f32[]{:T(128)}"
    );
    assert_eq!(
        tpu_layout_for_text("s32[]{:}").unwrap().shape.to_string(),
        "s32[]{:T(128)}"
    );
    assert_eq!(
        tpu_layout_for_text("f32[3,5]{0,1: }")
            .unwrap()
            .shape
            .to_string(),
        "f32[3,5]{0,1:T(8,128)}"
    );
    // XLA's parser refuses `s32[]{}`; so does the core.
    assert!(matches!(
        tpu_layout_for_text("s32[]{}"),
        Err(TpuError::Core(_))
    ));

    // Errors with positions.
    let err = |t| tpu_layout_for_text(t).unwrap_err();
    let e = err("f32[3,5]{1,0:T(8,128)}");
    assert_eq!(
        e,
        TpuError::AttributesGiven {
            span: tilelayout::value::Span::new(12, 21)
        }
    );
    assert!(e.to_string().contains("give only minor_to_major"));
    assert!(matches!(
        err("f32[3,5]{1,0:S(1)}"),
        TpuError::AttributesGiven { .. }
    ));
    assert!(matches!(
        err("f32[3,5]{1,0:D(D,D)}"),
        TpuError::AttributesGiven { .. }
    ));
    let e = err("f64[3,5]");
    assert!(matches!(e, TpuError::UnsupportedType { ty: F64, .. }));
    assert_eq!((e.span().start, e.span().end), (0, 3));
    assert_eq!(
        e.to_string(),
        "no TPU format is known for element type f64 (supported: 32-, 16-, 8- and 4-bit types and pred) at byte 0"
    );
    let e = err("f32[3,5]{1,1}");
    assert!(
        matches!(e, TpuError::Core(c) if c.kind == ErrorKind::MinorToMajorRepeat { position: 1, value: 1 })
    );
    assert_eq!(e.span().start, 11);
    let e = err("f32[<=3,5]");
    assert!(matches!(e, TpuError::Core(c) if c.kind == ErrorKind::DynamicShape));
    assert!(matches!(err("f32[3,5"), TpuError::Core(_)));
    assert!(matches!(err("(f32[3], f32[4])"), TpuError::Core(_)));
    assert!(matches!(err("i32[3]"), TpuError::Core(c) if c.kind == ErrorKind::UnknownType));
}

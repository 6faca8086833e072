//! Relayout between XLA/TPU tilings, strided arrays and CuTe layouts
//! (swizzled or not), against a brute-force reference written here from
//! CuTe's definitions: mode `k`'s coordinate split over its sub-modes
//! first-fastest, dotted with the strides, plus the offset, through
//! `Sw<B,M,S>`'s `x ^ shiftr(x & yyy, S)` (NVIDIA/cutlass
//! `include/cute/layout.hpp` `crd2idx`, `include/cute/swizzle.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4); the tiled side by the core's
//! `Tiling::offset`.

mod relayout_common;
use proptest::prelude::*;
use tilelayout::algebra::ComposedLayout;
use tilelayout::storage::{ArrayLayout, CuteStorage, Kernel, RelayoutPlan, StorageError, Strided};
use tilelayout::value::{parse_shape, PrimitiveType, Shape};

const SENTINEL: u16 = 0xBEEF;

/// CuTe's index of `coords`, from the definition (not the crate's path).
fn cute_index(c: &ComposedLayout, coords: &[u64]) -> u64 {
    let (shape, stride) = (c.layout.shape(), c.layout.stride());
    let rank = c.layout.rank();
    let mut x: i64 = c.offset.value;
    for (k, &ck) in coords.iter().enumerate() {
        let start = shape.mode_leaf_start(k);
        let end = if k + 1 < rank {
            shape.mode_leaf_start(k + 1)
        } else {
            shape.leaf_count()
        };
        let mut rest = ck as i64;
        for leaf in start..end {
            let n = shape.leaf(leaf).unwrap().value;
            x += (rest % n) * stride.leaf(leaf).unwrap().value;
            rest /= n;
        }
        assert_eq!(rest, 0, "coordinate {ck} past mode {k}");
    }
    let sw = c.swizzle;
    let (b, m, s) = (sw.bits() as i64, sw.base() as i64, sw.shift() as i64);
    let yyy = ((1i64 << b) - 1) << (m + s.max(0));
    let y = x & yyy;
    (x ^ if s >= 0 { y >> s } else { y << -s }) as u64
}

/// Every coordinate of `dims`, row-major.
fn coords(dims: &[u64]) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for &n in dims {
        out = out
            .into_iter()
            .flat_map(|c| {
                (0..n).map(move |i| {
                    let mut c = c.clone();
                    c.push(i);
                    c
                })
            })
            .collect();
    }
    out
}

/// One side as the reference sees it: its element offsets and slots, and
/// whether unmapped slots become padding (zero) or stay.
enum Ref<'a> {
    Tiled(&'a Shape),
    Rows(&'a [u64]),
    Cute(&'a ComposedLayout, u64),
}

impl Ref<'_> {
    fn offset(&self, c: &[u64]) -> usize {
        match self {
            Ref::Tiled(s) => s.tiling().unwrap().offset(c).unwrap() as usize,
            Ref::Rows(dims) => c.iter().zip(*dims).fold(0, |a, (x, n)| a * n + x) as usize,
            Ref::Cute(l, _) => cute_index(l, c) as usize,
        }
    }
    fn slots(&self) -> usize {
        match self {
            Ref::Tiled(s) => s.tiling().unwrap().slots() as usize,
            Ref::Rows(dims) => dims.iter().product::<u64>() as usize,
            Ref::Cute(_, slots) => *slots as usize,
        }
    }
    fn layout(&self) -> ArrayLayout {
        match self {
            Ref::Tiled(s) => ArrayLayout::Tiled(**s),
            Ref::Rows(dims) => ArrayLayout::Strided(Strided::row_major(dims, 16).unwrap()),
            Ref::Cute(l, _) => ArrayLayout::cute(l, PrimitiveType::BF16).unwrap(),
        }
    }
}

/// Runs `src → dst` over `dims` and checks every destination slot against
/// the reference: elements moved, tiled padding zero, other slots kept.
/// Returns the plan's kernel.
fn check(dims: &[u64], src: &Ref, dst: &Ref) -> Kernel {
    let plan = RelayoutPlan::new(src.layout(), dst.layout()).unwrap();
    let input: Vec<u16> = (0..src.slots()).map(|i| (i % 40_000) as u16 + 1).collect();
    let mut out = vec![SENTINEL; dst.slots()];
    plan.execute(&input, &mut out).unwrap();
    let pad = if matches!(dst, Ref::Tiled(_)) {
        0
    } else {
        SENTINEL
    };
    let mut want = vec![pad; dst.slots()];
    for c in coords(dims) {
        want[dst.offset(&c)] = input[src.offset(&c)];
    }
    assert_eq!(out, want, "{dims:?}");
    plan.stats().kernel
}

fn composed(text: &str) -> ComposedLayout {
    ComposedLayout::parse(text).unwrap()
}

fn cute_slots(l: &ComposedLayout) -> u64 {
    CuteStorage::new(l, PrimitiveType::BF16).unwrap().slots()
}

#[test]
fn tpu_tiles_into_tilefusion_swizzled_shared_memory_and_back() {
    // TileFusion's swizzled shared tile of 64 × 64 halves (rows of 128 B):
    // Sw<3,3,3> over a row-major (64,64)
    for (tpu, cute, dims) in [
        (
            "bf16[64,64]{1,0:T(8,128)(2,1)}",
            "Sw<3,3,3> o _0 o (_64,_64):(_64,_1)",
            [64u64, 64],
        ),
        (
            "bf16[16,128]{1,0:T(8,128)(2,1)}",
            "Sw<3,3,3> o _0 o (_16,_128):(_128,_1)",
            [16, 128],
        ),
        (
            "bf16[64,64]{0,1:T(8,128)(2,1)}",
            "Sw<2,3,3> o _0 o (_64,_64):(_1,_64)",
            [64, 64],
        ),
    ] {
        let shape = parse_shape(tpu).unwrap();
        let l = composed(cute);
        let slots = cute_slots(&l);
        assert_eq!(slots, dims.iter().product::<u64>(), "cosize of {cute}");
        let (t, c) = (Ref::Tiled(&shape), Ref::Cute(&l, slots));
        // swizzled: the element-wise path, the core's offset per element
        assert_eq!(check(&dims, &t, &c), Kernel::Elementwise, "{tpu} -> {cute}");
        assert_eq!(check(&dims, &c, &t), Kernel::Elementwise, "{cute} -> {tpu}");
        let rows = Ref::Rows(&dims);
        check(&dims, &rows, &c);
        check(&dims, &c, &rows);
    }
}

#[test]
fn nested_unswizzled_layouts_run_on_loop_kernels() {
    for (tpu, cute, dims) in [
        (
            "bf16[8,64]{1,0:T(8,128)(2,1)}",
            "_0 o (_8,(_8,_8)):(_8,(_1,_64))",
            vec![8u64, 64],
        ),
        (
            "bf16[64,64]{1,0:T(8,128)(2,1)}",
            "_0 o ((_8,_8),(_8,_8)):((_8,_512),(_1,_64))",
            vec![64, 64],
        ),
        (
            "bf16[16,128]{1,0:T(8,128)(2,1)}",
            "_0 o (_16,_128):(_128,_1)",
            vec![16, 128],
        ),
        // gapped: every other row of 64 left out
        (
            "bf16[16,64]{1,0:T(8,128)(2,1)}",
            "_0 o (_16,_64):(_128,_1)",
            vec![16, 64],
        ),
    ] {
        let shape = parse_shape(tpu).unwrap();
        let l = match ComposedLayout::parse(cute) {
            Ok(l) => l,
            Err(_) => {
                let plain = tilelayout::algebra::CuteLayout::parse(&cute[5..]).unwrap();
                *CuteStorage::plain(&plain, PrimitiveType::BF16)
                    .unwrap()
                    .layout()
            }
        };
        let slots = cute_slots(&l);
        let (t, c, rows) = (Ref::Tiled(&shape), Ref::Cute(&l, slots), Ref::Rows(&dims));
        for (a, b) in [(&t, &c), (&c, &t), (&rows, &c), (&c, &rows)] {
            let k = check(&dims, a, b);
            assert_ne!(k, Kernel::Elementwise, "{tpu} / {cute}: {k:?}");
        }
    }
}

#[test]
fn every_width_and_simd_level_writes_the_same_bytes() {
    // the shared checker: elements by the core's offsets, unmapped slots
    // kept, tiled padding written, every SIMD level identical
    for (ty, bits) in [
        (PrimitiveType::S8, 8u32),
        (PrimitiveType::BF16, 16),
        (PrimitiveType::F32, 32),
        (PrimitiveType::F64, 64),
    ] {
        let name = ty.name();
        let tiled =
            ArrayLayout::Tiled(parse_shape(&format!("{name}[8,64]{{1,0:T(8,128)}}")).unwrap());
        let rows = ArrayLayout::Strided(Strided::row_major(&[8, 64], bits).unwrap());
        for cute in [
            "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)",
            "Sw<2,0,4> o _0 o (_8,_64):(_1,_8)",
        ] {
            let c = ArrayLayout::cute(&composed(cute), ty).unwrap();
            for (a, b) in [(tiled, c), (c, tiled), (rows, c), (c, rows)] {
                relayout_common::check(a, b, bits, None);
            }
        }
        let nested = tilelayout::algebra::CuteLayout::parse("(_8,(_8,_8)):(_8,(_1,_128))").unwrap();
        let c = ArrayLayout::Cute(CuteStorage::plain(&nested, ty).unwrap());
        for (a, b) in [(tiled, c), (c, tiled), (rows, c), (c, rows)] {
            let k = relayout_common::check(a, b, bits, None);
            assert_ne!(k, Kernel::Elementwise, "{name}");
        }
    }
}

#[test]
fn invalid_cute_sides_are_typed_errors() {
    let bf = PrimitiveType::BF16;
    let neg = tilelayout::algebra::CuteLayout::parse("(4,(2,3)):(1,(-4,8))").unwrap();
    assert_eq!(
        CuteStorage::plain(&neg, bf),
        Err(StorageError::CuteLayout {
            leaf: Some(1),
            problem: "negative stride"
        })
    );
    let wide = format!("({}):({})", ["1"; 17].join(","), ["1"; 17].join(","));
    let wide = tilelayout::algebra::CuteLayout::parse(&wide).unwrap();
    assert!(matches!(
        CuteStorage::plain(&wide, bf),
        Err(StorageError::CuteLayout { leaf: None, .. })
    ));
    let huge = tilelayout::algebra::CuteLayout::parse("(4,4):(4611686018427387904,1)").unwrap();
    let e = CuteStorage::plain(&huge, bf).unwrap_err();
    assert!(matches!(e, StorageError::CuteLayout { .. }), "{e}");
    assert!(e.to_string().contains("overflow"), "{e}");
    let ok = tilelayout::algebra::CuteLayout::parse("(4,4):(4,1)").unwrap();
    assert!(matches!(
        CuteStorage::plain(&ok, PrimitiveType::Token),
        Err(StorageError::ElementSize { bits: 0 })
    ));
    // dims: mode k's size is dim k
    let c = CuteStorage::plain(&ok, bf).unwrap();
    let other = parse_shape("bf16[4,8]{1,0}").unwrap();
    assert!(matches!(
        RelayoutPlan::new(other, c),
        Err(StorageError::DimsMismatch)
    ));
    assert!(matches!(
        RelayoutPlan::new(c, other),
        Err(StorageError::DimsMismatch)
    ));
    let f = parse_shape("f16[4,4]{1,0}").unwrap();
    assert!(matches!(
        RelayoutPlan::new(f, c),
        Err(StorageError::ElementTypeMismatch { .. })
    ));
    assert!(RelayoutPlan::reinterpret(f, c).is_ok());
}

/// A random nested layout: `rank` modes of 1–3 leaves of size 1–4, the
/// leaves ordered by `perm` in memory, each stride the product of the
/// earlier (in memory) leaves' sizes times a gap factor; swizzled or not.
fn layout_text(modes: &[Vec<u64>], order: &[usize], gaps: &[u64], swizzle: Option<u8>) -> String {
    let leaves: Vec<u64> = modes.iter().flatten().copied().collect();
    let mut strides = vec![0u64; leaves.len()];
    let mut acc = 1u64;
    for (j, &leaf) in order.iter().enumerate() {
        acc *= gaps[j % gaps.len()];
        strides[leaf] = acc;
        acc *= leaves[leaf];
    }
    let mut k = 0;
    let mut shape = vec![];
    let mut stride = vec![];
    for m in modes {
        let part = |v: &[u64]| {
            let s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            if s.len() == 1 {
                s[0].clone()
            } else {
                format!("({})", s.join(","))
            }
        };
        shape.push(part(m));
        stride.push(part(&strides[k..k + m.len()]));
        k += m.len();
    }
    let body = format!("({}):({})", shape.join(","), stride.join(","));
    match swizzle {
        Some(b) => format!("Sw<{b},1,2> o _0 o {body}"),
        None => format!("_0 o {body}"),
    }
}

fn modes() -> impl Strategy<Value = Vec<Vec<u64>>> {
    prop::collection::vec(prop::collection::vec(1u64..=4, 1..=3), 1..=3)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: if cfg!(miri) { 4 } else { 256 },
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_nested_layouts_agree_with_the_reference(
        modes in modes(),
        seed in any::<u64>(),
        gaps in prop::collection::vec(prop_oneof![3 => Just(1u64), 1 => Just(2u64), 1 => Just(3u64)], 1..=4),
        swizzle in prop_oneof![2 => Just(None), 1 => (1u8..=2).prop_map(Some)],
    ) {
        let n: usize = modes.iter().map(Vec::len).sum();
        let mut order: Vec<usize> = (0..n).collect();
        // a permutation from the seed (Fisher–Yates)
        let mut s = seed;
        for i in (1..n).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            order.swap(i, (s >> 33) as usize % (i + 1));
        }
        let text = layout_text(&modes, &order, &gaps, swizzle);
        let l = ComposedLayout::parse(&text).or_else(|_| {
            tilelayout::algebra::CuteLayout::parse(&text[5..]).map(|p| {
                *CuteStorage::plain(&p, PrimitiveType::BF16).unwrap().layout()
            })
        }).unwrap();
        let dims: Vec<u64> = modes.iter().map(|m| m.iter().product()).collect();
        let slots = cute_slots(&l);
        let c = Ref::Cute(&l, slots);
        let rows = Ref::Rows(&dims);
        let ds: Vec<String> = dims.iter().map(u64::to_string).collect();
        let m2m: Vec<String> = (0..dims.len()).rev().map(|d| d.to_string()).collect();
        let tile = ["T(4)", "T(2,4)", "T(2,2,2)"][dims.len() - 1];
        let tiled = parse_shape(&format!("bf16[{}]{{{}:{tile}}}", ds.join(","), m2m.join(","))).unwrap();
        let t = Ref::Tiled(&tiled);
        for (a, b) in [(&rows, &c), (&c, &rows), (&t, &c), (&c, &t)] {
            let k = check(&dims, a, b);
            if swizzle.is_some() {
                prop_assert_eq!(k, Kernel::Elementwise, "{}", text);
            } else if matches!(a, Ref::Rows(_)) || matches!(b, Ref::Rows(_)) {
                // one digit a dim on the strided side: always a common
                // refinement, so loops
                prop_assert_ne!(k, Kernel::Elementwise, "{}", text);
            }
        }
    }
}

#[test]
fn offsets_and_swizzles_past_the_cosize_are_covered() {
    // an offset shifts every element (element-wise: no digits for it)
    let shifted = composed("Sw<0,4,3> o _16 o (_8,_8):(_8,_1)");
    assert_eq!(cute_slots(&shifted), 80);
    let dims = [8u64, 8];
    let rows = Ref::Rows(&dims);
    let c = Ref::Cute(&shifted, 80);
    assert_eq!(check(&dims, &rows, &c), Kernel::Elementwise);
    check(&dims, &c, &rows);
    // indices 32..48 swizzle onto 48..64: past CuTe's cosize of 48, so
    // the storage is the power of two covering them
    let past = composed("Sw<1,4,1> o _0 o (_48):(_1)");
    assert_eq!(cute_slots(&past), 64);
    assert_eq!(cute_index(&past, &[32]), 48);
    let dims = [48u64];
    let (rows, c) = (Ref::Rows(&dims), Ref::Cute(&past, 64));
    check(&dims, &rows, &c);
    check(&dims, &c, &rows);
}

#[test]
fn plans_with_cute_sides_are_compile_time_constants() {
    const SMEM: ArrayLayout = {
        let Ok(l) = ComposedLayout::parse("Sw<3,3,3> o _0 o (_64,_64):(_64,_1)") else {
            panic!("layout")
        };
        match ArrayLayout::cute(&l, PrimitiveType::BF16) {
            Ok(a) => a,
            Err(_) => panic!("side"),
        }
    };
    const ROWS: ArrayLayout = match Strided::row_major(&[64, 64], 16) {
        Ok(s) => ArrayLayout::Strided(s),
        Err(_) => panic!("rows"),
    };
    const PLAN: Result<RelayoutPlan, StorageError> = RelayoutPlan::between(&ROWS, &SMEM);
    let plan = PLAN.unwrap();
    let src: Vec<u16> = (0..4096).map(|i| i as u16).collect();
    let mut dst = vec![0u16; 4096];
    plan.execute(&src, &mut dst).unwrap();
    let l = composed("Sw<3,3,3> o _0 o (_64,_64):(_64,_1)");
    for (i, j) in [(0u64, 0u64), (2, 1), (63, 63), (17, 40)] {
        assert_eq!(dst[cute_index(&l, &[i, j]) as usize], (i * 64 + j) as u16);
    }
}

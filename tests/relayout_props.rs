//! Properties on random layouts and data (proptest):
//! 1. every relayout agrees with the element-wise definition (elements
//!    land at `Tiling::offset`, padding holds the padding value, strided
//!    gaps keep their content);
//! 2. a round trip (there and back) is the identity on the elements;
//! 3. so is every plan made for another machine's caches, streaming, with
//!    streamed runs walked either way (`Caches::favour_writes`).

mod relayout_common;
use proptest::prelude::*;
use relayout_common::{check, check_plan, coords, offset, perms, read, shape, strided};
use tilelayout::storage::{ArrayLayout, Caches, RelayoutPlan, Strided};

/// Cases per property: 400 natively; 8 under Miri (interpreted), with no
/// regression file (Miri isolates the file system; the file's cases run
/// natively).
fn config() -> ProptestConfig {
    if cfg!(miri) {
        ProptestConfig {
            cases: 8,
            failure_persistence: None,
            ..ProptestConfig::default()
        }
    } else {
        ProptestConfig::with_cases(400)
    }
}

const WIDTHS: &[(u32, &str, &str)] = &[
    (4, "s4", "E(4)"),
    (8, "s8", ""),
    (16, "bf16", ""),
    (32, "f32", ""),
    (64, "f64", ""),
];

fn tile() -> impl Strategy<Value = Vec<String>> {
    let dim = prop_oneof![4 => prop::sample::select(vec![1u64, 2, 3, 4, 8]).prop_map(|d| d.to_string()), 1 => Just("*".to_string())];
    prop::collection::vec(dim, 1..=3).prop_map(|mut t| {
        // a `*` may not be the most minor tile dim
        if t.last().is_some_and(|d| d == "*") {
            *t.last_mut().unwrap() = "2".into();
        }
        t
    })
}

#[derive(Debug, Clone)]
struct Case {
    dims: Vec<u64>,
    width: usize,
    layouts: [Side; 2],
}

#[derive(Debug, Clone)]
enum Side {
    Tiled {
        m2m: usize,
        tiles: Vec<Vec<String>>,
        align: u64,
    },
    Strided(usize),
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![
        3 => (0..6usize, prop::collection::vec(tile(), 0..=2), prop::sample::select(vec![1u64, 1, 3]))
            .prop_map(|(m2m, tiles, align)| Side::Tiled { m2m, tiles, align }),
        1 => (0..3usize).prop_map(Side::Strided),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::collection::vec(1..=9u64, 1..=3),
        0..WIDTHS.len(),
        side(),
        side(),
    )
        .prop_map(|(dims, width, a, b)| Case {
            dims,
            width,
            layouts: [a, b],
        })
}

fn layout(c: &Case, s: &Side) -> ArrayLayout {
    let (bits, ty, e) = WIDTHS[c.width];
    match s {
        Side::Strided(k) => ArrayLayout::from(strided(&c.dims, bits)[*k]),
        Side::Tiled { m2m, tiles, align } => {
            let ps = perms(c.dims.len());
            let t: String = tiles.iter().map(|t| format!("({})", t.join(","))).collect();
            let mut attrs = if t.is_empty() {
                String::new()
            } else {
                format!("T{t}")
            };
            if *align > 1 {
                attrs.push_str(&format!("L({align})"));
            }
            attrs.push_str(e);
            ArrayLayout::from(shape(ty, &c.dims, &ps[m2m % ps.len()], &attrs))
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn relayout_agrees_with_the_definition(c in case()) {
        let (a, b) = (layout(&c, &c.layouts[0]), layout(&c, &c.layouts[1]));
        let bits = WIDTHS[c.width].0;
        check(a, b, bits, None);
        check(b, a, bits, Some(true));
    }

    /// Caches so small that every case streams by their rule, so the
    /// plans take the walks streaming stores want, both of them.
    #[test]
    fn plans_for_other_caches_agree_with_the_definition(c in case()) {
        let (a, b) = (layout(&c, &c.layouts[0]), layout(&c, &c.layouts[1]));
        let bits = WIDTHS[c.width].0;
        for favour_writes in [true, false] {
            let tiny = Caches { l1d: 32 << 10, l2: 1, last: 2, favour_writes };
            for (from, to) in [(a, b), (b, a)] {
                let plan = RelayoutPlan::for_caches(from, to, &tiny).unwrap();
                check_plan(&plan.with_streaming(Some(true)), from, to, bits);
            }
        }
    }

    #[test]
    fn round_trip_is_identity_on_elements(c in case(), seed in any::<u64>()) {
        let (a, b) = (layout(&c, &c.layouts[0]), layout(&c, &c.layouts[1]));
        let bits = WIDTHS[c.width].0;
        let there = RelayoutPlan::new(a, b).unwrap();
        let back = RelayoutPlan::new(b, a).unwrap();
        let (sa, sb) = (there.src_units(1) as usize, there.dst_units(1) as usize);
        // u64 storage so that the byte slices cast to any unit
        let words = |n: usize| vec![0u64; n.div_ceil(8)];
        let mut data = words(sa);
        for (i, b) in bytemuck::cast_slice_mut::<u64, u8>(&mut data).iter_mut().enumerate() {
            *b = (seed.wrapping_mul(i as u64 + 1) >> 17) as u8;
        }
        let (mut mid, mut again) = (words(sb), words(sa));
        let data = &bytemuck::cast_slice::<u64, u8>(&data)[..sa];
        let mid = &mut bytemuck::cast_slice_mut::<u64, u8>(&mut mid)[..sb];
        let again = &mut bytemuck::cast_slice_mut::<u64, u8>(&mut again)[..sa];
        run(&there, data, mid, bits);
        run(&back, mid, again, bits);
        for x in coords(&c.dims) {
            let o = offset(&a, &x) as usize;
            prop_assert_eq!(read(again, o, bits), read(data, o, bits), "element {:?}", x);
        }
    }
}

fn run(plan: &RelayoutPlan, src: &[u8], dst: &mut [u8], bits: u32) {
    match bits {
        1 | 2 | 4 | 8 => plan.execute::<u8>(src, dst).unwrap(),
        16 => plan
            .execute::<u16>(bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst))
            .unwrap(),
        32 => plan
            .execute::<u32>(bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst))
            .unwrap(),
        _ => plan
            .execute::<u64>(bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst))
            .unwrap(),
    }
}

#[test]
fn strided_with_zero_dims_is_empty() {
    let s = Strided::row_major(&[0, 5], 32).unwrap();
    assert_eq!(s.slots(), 0);
    let t = shape("f32", &[0, 5], &[1, 0], "T(2,2)");
    let plan = RelayoutPlan::new(s, t).unwrap();
    plan.execute::<f32>(&[], &mut []).unwrap();
}

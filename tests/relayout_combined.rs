//! Combined dims (`*`) on real kernels: a `*` group whose tile cuts meet
//! again in memory is an ordinary affine layout after lowering, so its
//! relayout runs on loops; one that is not affine in the dims is affine in
//! the combined coordinate, and runs on loops over the merged dims when
//! the other side's offsets are functions of it too (row-major storage
//! is). All are byte-identical to the element-wise definition.
//!
//! 1. every shape with `*` in `tests/data` (the XLA vectors and the real
//!    shapes), both directions against row-major storage, on loops;
//! 2. random `*` tilings (proptest), every direction, every width;
//! 3. an affine lowering always gives a real kernel, and row-major ↔ a
//!    tiling with `*` only in its first tile always does.

mod relayout_common;
use proptest::prelude::*;
use relayout_common::{check, perms, shape, strided};
use tilelayout::storage::{ArrayLayout, Kernel, RelayoutPlan, Strided};
use tilelayout::value::{lower, parse_shape, Lowered, Shape, TileDim};

/// Every array shape with a `*` tile dim in the data files that is valid
/// and static.
fn data_shapes() -> Vec<Shape> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut out: Vec<Shape> = Vec::new();
    for file in ["xla_vectors_dev.tsv", "real_shapes_dev.tsv"] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for field in text.lines().flat_map(|l| l.split('\t')) {
            let field = field.split('@').next().unwrap();
            if !field.contains('*') || !field.contains("T(") {
                continue;
            }
            let Ok(s) = parse_shape(field) else { continue };
            if s.tiling().is_err() || !s.to_string().contains('*') || out.contains(&s) {
                continue;
            }
            out.push(s);
        }
    }
    out
}

fn dims_of(s: &Shape) -> Vec<u64> {
    s.static_dims().unwrap()[..s.rank()].to_vec()
}

fn bits_of(s: &Shape) -> u32 {
    s.storage_bits() as u32
}

fn affine(s: &Shape) -> bool {
    matches!(lower(s), Ok(Lowered::Affine(_)))
}

/// Post 3: a real kernel when the lowering is affine or (`merged`: the
/// other side is row-major) the `*` sits in the first tile only.
#[track_caller]
fn real_kernel_where_expected(s: &Shape, k: Kernel, merged: bool) {
    let first_only = s.layout().tiles()[1..]
        .iter()
        .all(|t| (0..t.rank()).all(|i| matches!(t.dim(i), TileDim::Size(_))));
    if affine(s) || (merged && first_only) {
        assert_ne!(k, Kernel::Elementwise, "{s}");
    }
}

#[test]
fn every_combined_dim_shape_in_the_data_agrees_with_offsets() {
    let shapes = data_shapes();
    assert!(shapes.len() >= 3, "{shapes:?}");
    let (mut checked, mut on_loops) = (0, 0);
    for s in &shapes {
        let dims = dims_of(s);
        let elements: u64 = dims.iter().product();
        let m2m: Vec<usize> = s
            .layout()
            .minor_to_major()
            .iter()
            .map(|&d| d as usize)
            .collect();
        let descending: Vec<usize> = (0..dims.len()).rev().collect();
        let ascending: Vec<usize> = (0..dims.len()).collect();
        // row-major storage combines like a descending `minor_to_major`,
        // column-major like an ascending one
        for (k, order) in [(0, descending), (1, ascending)] {
            let plain = strided(&dims, bits_of(s))[k];
            // the largest (f32[123,456,789]) is planned, not moved, in
            // debug builds
            let (to, from) = if elements <= 1 << 20 {
                checked += 1;
                (
                    check(plain.into(), (*s).into(), bits_of(s), None),
                    check((*s).into(), plain.into(), bits_of(s), None),
                )
            } else {
                (
                    RelayoutPlan::new(plain, *s).unwrap().stats().kernel,
                    RelayoutPlan::new(*s, plain).unwrap().stats().kernel,
                )
            };
            eprintln!("{s} with {order:?} storage: {to:?} / {from:?}");
            let merged = m2m == order;
            real_kernel_where_expected(s, to, merged);
            real_kernel_where_expected(s, from, merged);
            on_loops += usize::from(merged && to != Kernel::Elementwise);
        }
    }
    // every shape on loops from the storage order it combines like
    assert_eq!(on_loops, shapes.len());
    eprintln!(
        "{} shapes with `*`: {checked} relayouts moved and checked, {on_loops} on loops",
        shapes.len()
    );
}

/// The benchmark's case, `f32[64,128,1024]` rows → `T(2,*,128)`, and a
/// smaller one of the same form moved and checked: runs copied whole.
#[test]
fn combined_rows_into_tiles_run_whole_rows() {
    let t = parse_shape("f32[64,128,1024]{2,1,0:T(2,*,128)}").unwrap();
    let rows = Strided::row_major(&[64, 128, 1024], 32).unwrap();
    let st = RelayoutPlan::new(rows, t).unwrap().stats();
    assert_eq!(st.kernel, Kernel::Runs, "{st:?}");
    assert_eq!(st.block.1, 128, "{st:?}");
    let st = RelayoutPlan::new(t, rows).unwrap().stats();
    assert_eq!(st.kernel, Kernel::Runs, "{st:?}");
    let small = shape("f32", &[4, 16, 256], &[2, 1, 0], "T(2,*,128)");
    let rows = strided(&[4, 16, 256], 32)[0];
    assert_eq!(check(rows.into(), small.into(), 32, None), Kernel::Runs);
    assert_eq!(check(small.into(), rows.into(), 32, None), Kernel::Runs);
    // bf16 pairs under a `*` group: the zip kernel
    let bf = shape("bf16", &[4, 16, 256], &[2, 1, 0], "T(8,*,128)(2,1)");
    let rows = strided(&[4, 16, 256], 16)[0];
    assert_eq!(
        check(rows.into(), bf.into(), 16, None),
        Kernel::Interleave(2)
    );
}

/// Widths, element types and `E(n)` of the random cases.
const WIDTHS: &[(u32, &str, &str)] = &[
    (4, "s4", "E(4)"),
    (8, "s8", ""),
    (16, "bf16", ""),
    (32, "f32", ""),
];

fn combined_tile(rank: usize) -> impl Strategy<Value = String> {
    // tile dims from {1, 2, 4, 8, *}, at least one `*`, never last
    let dim = prop::sample::select(vec!["1", "2", "4", "8", "*"]);
    (
        prop::collection::vec(dim, rank..=rank),
        0..rank.saturating_sub(1).max(1),
    )
        .prop_map(move |(mut t, star)| {
            if rank > 1 {
                t[star] = "*";
            }
            if t[rank - 1] == "*" {
                t[rank - 1] = "4";
            }
            format!("T({})", t.join(","))
        })
}

fn combined_case() -> impl Strategy<Value = (Vec<u64>, usize, String, usize)> {
    (2..=3usize)
        .prop_flat_map(|rank| {
            (
                prop::collection::vec(
                    prop::sample::select(vec![1u64, 2, 3, 4, 6, 8, 16]),
                    rank..=rank,
                ),
                0..WIDTHS.len(),
                // tiles as long as the shape, or one longer (left padding)
                prop_oneof![combined_tile(rank), combined_tile(rank + 1)],
                0..6usize,
            )
        })
        .prop_filter("rank of the m2m", |(d, _, _, m)| *m < perms(d.len()).len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }))]

    #[test]
    fn random_combined_tilings_agree_with_offsets(
        (dims, w, tile, m) in combined_case()
    ) {
        let (bits, ty, e) = WIDTHS[w];
        let m2m = &perms(dims.len())[m];
        let s = shape(ty, &dims, m2m, &format!("{tile}{e}"));
        for (i, rows) in strided(&dims, bits).into_iter().enumerate() {
            let to = check(rows.into(), s.into(), bits, None);
            let from = check(s.into(), rows.into(), bits, None);
            // (row-major, m2m descending: the `*` groups are contiguous)
            let merged = i == 0 && m == 0;
            real_kernel_where_expected(&s, to, merged);
            real_kernel_where_expected(&s, from, merged);
        }
        // tiled to tiled: the same dims with the default layout's tiles
        let plain: ArrayLayout = shape(ty, &dims, m2m, e).into();
        check(plain, s.into(), bits, None);
        check(s.into(), plain, bits, None);
    }
}

//! Padded tilings against the element-wise definition: a last tile column
//! cut at every width 1..127, partial tiles in both dims, for 4-byte
//! slots and the bf16/s8 packings, both directions and every SIMD level
//! ([`check`]). These are the blocks the walker splits once per run and
//! replays (a tile row's last tile cut short, its padding written inline).

mod relayout_common;
use relayout_common::{check, shape, strided};
use tilelayout::storage::{ArrayLayout, RelayoutPlan, Strided};

/// Rows ↔ tiled, every strided order of `dims` (row-major, column-major,
/// gapped), both ways.
fn both_ways(ty: &str, bits: u32, dims: &[u64], m2m: &[usize], tiles: &str) {
    let t: ArrayLayout = shape(ty, dims, m2m, tiles).into();
    for s in strided(dims, bits) {
        check(s.into(), t, bits, None);
        check(t, s.into(), bits, None);
    }
}

#[test]
fn every_padding_width_of_the_last_tile_column_agrees_with_offsets() {
    // 11 rows: one whole tile row and one cut at 3
    for w in 1..=127 {
        both_ways("f32", 32, &[11, 128 + w], &[1, 0], "T(8,128)");
    }
}

#[test]
fn packed_tiles_cut_in_both_dims_agree_with_offsets() {
    let widths = [1, 2, 15, 63, 64, 65, 104, 127];
    for (ty, bits, tiles) in [
        ("bf16", 16, "T(8,128)(2,1)"),
        ("s8", 8, "T(8,128)(4,1)"),
        ("f32", 32, "T(8,128)"),
    ] {
        for rows in [1, 7, 9, 17] {
            for w in widths {
                both_ways(ty, bits, &[rows, 128 + w], &[1, 0], tiles);
            }
        }
        // the transposed tiling, and a leading dim around the tiles
        both_ways(ty, bits, &[9, 200], &[0, 1], tiles);
        both_ways(ty, bits, &[3, 9, 200], &[2, 1, 0], tiles);
        both_ways(ty, bits, &[3, 9, 200], &[1, 2, 0], tiles);
    }
}

#[test]
fn the_benchmarked_padded_shape_agrees_with_offsets() {
    // f32[1000,1000] ↔ T(8,128) (1000 = 7·128 + 104), cut to 100 rows
    // to keep the element-wise reference quick
    both_ways("f32", 32, &[100, 1000], &[1, 0], "T(8,128)");
    both_ways("f32", 32, &[1000, 100], &[1, 0], "T(8,128)");
}

#[test]
fn a_plan_runs_again_the_same_after_parts_of_it_ran() {
    // the split is recorded per run: reusing a plan (and its clones) must
    // not carry anything over between runs
    let t = shape("f32", &[11, 200], &[1, 0], "T(8,128)");
    let r = Strided::row_major(&[11, 200], 32).unwrap();
    let plan = RelayoutPlan::new(r, t).unwrap();
    let src: Vec<f32> = (0..2200).map(|i| i as f32).collect();
    let mut first = vec![1.0f32; plan.dst_units(4) as usize];
    plan.execute(&src, &mut first).unwrap();
    let small = Strided::row_major(&[11, 5], 32).unwrap();
    let other = RelayoutPlan::new(small, shape("f32", &[11, 5], &[1, 0], "T(8,128)")).unwrap();
    let mut scratch = vec![0.0f32; other.dst_units(4) as usize];
    other.execute(&src[..55], &mut scratch).unwrap();
    let mut again = vec![2.0f32; first.len()];
    plan.clone().execute(&src, &mut again).unwrap();
    assert_eq!(first, again);
}

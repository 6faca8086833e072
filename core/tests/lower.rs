//! The lowering of tilings into the layout algebra agrees with the core's
//! index math ([`Tiling::offset`], [`Tiling::coords`]): every coordinate
//! and every slot of every small layout (rank ≤ 3, one or two tiles with
//! dims in {1,2,3,*}), and the corners plus a sample of coordinates and
//! slots of every real shape in the data, and random larger layouts
//! (proptest).

mod common;

use tilelayout_core::__private::{index_program, Op};
use tilelayout_core::algebra::CuteLayout;
use tilelayout_core::{
    lower, padded_grid, parse_shape, to_xla, Lowered, PrimitiveType, Shape, Tile, TileDim, Tiling,
    XlaLayout,
};

/// Every tile of rank 1..=3 with dims in {1,2,3,*}, `*` not last.
fn all_tiles(max_rank: usize) -> Vec<Vec<Option<u64>>> {
    let choices = [Some(1), Some(2), Some(3), None];
    let mut out = Vec::new();
    for k in 1..=max_rank {
        for code in 0..choices.len().pow(k as u32) {
            let t: Vec<Option<u64>> = (0..k)
                .map(|p| choices[(code / choices.len().pow(p as u32)) % choices.len()])
                .collect();
            if t[k - 1].is_some() {
                out.push(t);
            }
        }
    }
    out
}

fn to_tile(t: &[Option<u64>]) -> Tile {
    let mut tile = Tile::EMPTY;
    for d in t {
        assert!(tile.push(match d {
            Some(n) => TileDim::Size(*n),
            None => TileDim::Combine,
        }));
    }
    tile
}

/// Every coordinate of `dims`, the first dim fastest.
fn all_coords(dims: &[u64]) -> Vec<Vec<u64>> {
    let n: u64 = dims.iter().product();
    (0..n)
        .map(|mut i| {
            dims.iter()
                .map(|&d| {
                    let c = i % d;
                    i /= d;
                    c
                })
                .collect()
        })
        .collect()
}

/// Everything about `lowered` that can be compared with `t` exactly.
fn agree_everywhere(shape: &Shape, t: &Tiling, lowered: &Lowered) {
    let dims: Vec<u64> = shape.static_dims().unwrap()[..shape.rank()].to_vec();
    // the straight-line program the layout types run, built from the
    // lowering (or the tiling's own when not affine)
    let program = index_program(shape).unwrap();
    assert!(program.fits(), "{shape}");
    for c in all_coords(&dims) {
        assert_eq!(
            lowered.offset(&c).unwrap(),
            t.offset(&c).unwrap(),
            "{shape} at {c:?}"
        );
        assert_eq!(
            program.run(&c),
            t.offset(&c).unwrap(),
            "{shape} program at {c:?}"
        );
    }
    for slot in 0..t.slots() {
        assert_eq!(
            lowered.coords(slot).unwrap(),
            t.coords(slot).unwrap(),
            "{shape} slot {slot}"
        );
    }
    assert!(lowered.coords(t.slots()).is_err());
    if let Lowered::Affine(a) = lowered {
        // the layout's own function, over the padded grid, hits the
        // tiling's offsets for the logical coordinates
        let l = a.layout();
        assert!(
            l.cosize().unwrap().value as u64 <= t.slots().max(1),
            "{shape}: {l}"
        );
        assert_eq!(a.bounds(), &dims[..]);
        // the program is the one read off this layout's leaves: the
        // lowering and the program come from one build step
        assert_eq!(
            program.ops(),
            &program_of_layout(l, dims.len())[..],
            "{shape}: {l}"
        );
    }
}

/// The index program read off a lowered layout's leaves, mode `d` being
/// logical dim `d` (CuTe's colexicographic split of an integer
/// coordinate): per mode, `Load`, a `DivMod` by each leaf of size > 1
/// below the last one with a stride (with an `Acc` when its stride is
/// not 0), and an `Acc` of the rest times that last stride. Registers are
/// numbered in the order they are defined, as the core's builder does.
fn program_of_layout(l: &CuteLayout, rank: usize) -> Vec<Op> {
    let leaf = |k: usize| {
        (
            l.shape().leaf(k).unwrap().value as u64,
            l.stride().leaf(k).unwrap().value as u64,
        )
    };
    let (mut ops, mut next) = (Vec::new(), 0u8);
    let mut reg = || {
        next += 1;
        next - 1
    };
    for d in 0..rank {
        let start = l.shape().mode_leaf_start(d);
        let end = if d + 1 < rank {
            l.shape().mode_leaf_start(d + 1)
        } else {
            l.shape().leaf_count()
        };
        let counts: Vec<(u64, u64)> = (start..end)
            .map(leaf)
            .filter(|&(size, _)| size > 1)
            .collect();
        let Some(last) = counts.iter().rposition(|&(_, stride)| stride != 0) else {
            continue;
        };
        let mut rest = reg();
        ops.push(Op::Load {
            dst: rest,
            dim: d as u8,
        });
        for &(size, stride) in &counts[..last] {
            let (q, r) = (reg(), reg());
            ops.push(Op::DivMod {
                q,
                r,
                src: rest,
                t: size,
            });
            if stride != 0 {
                ops.push(Op::Acc { src: r, stride });
            }
            rest = q;
        }
        ops.push(Op::Acc {
            src: rest,
            stride: counts[last].1,
        });
    }
    ops
}

/// Checks every small layout of physical rank `rank` with dims ≤ `max`:
/// affine ones agree with the tiling, not-affine ones are checked by brute
/// force; returns (checked, affine).
fn check(rank: usize, max: u64, tile_rank: usize, two_tiles: bool) -> (u64, u64) {
    let tiles = all_tiles(tile_rank);
    let mut seqs: Vec<Vec<&Vec<Option<u64>>>> = tiles.iter().map(|t| vec![t]).collect();
    if two_tiles {
        for a in &tiles {
            for b in &tiles {
                seqs.push(vec![a, b]);
            }
        }
    }
    let (mut checked, mut affine) = (0, 0);
    let (mut not_affine, mut coincide) = (0u64, 0u64);
    for phys in common::tuples(rank, &(1..=max).collect::<Vec<u64>>()) {
        for perm in common::permutations(rank) {
            let mut logical = vec![0u64; rank];
            for (p, &l) in perm.iter().enumerate() {
                logical[l] = phys[p];
            }
            for seq in std::iter::once(vec![]).chain(seqs.iter().cloned()) {
                let mut layout = XlaLayout::EMPTY;
                for &l in perm.iter().rev() {
                    assert!(layout.push_minor_to_major(l as i64));
                }
                for t in &seq {
                    assert!(layout.push_tile(to_tile(t)));
                }
                let shape = Shape::new(PrimitiveType::F32, &logical)
                    .unwrap()
                    .with_layout(layout);
                let t = shape.tiling().unwrap();
                let lowered = lower(&shape).unwrap();
                agree_everywhere(&shape, &t, &lowered);
                // one tile without `*` never cuts through a digit
                let plain = seq.len() <= 1 && seq.iter().all(|t| t.iter().all(Option::is_some));
                padded_grid_agrees(&shape, &t, &lowered, plain);
                checked += 1;
                if let Lowered::Affine(a) = &lowered {
                    affine += 1;
                    if let Some(back) = to_xla(a.layout(), PrimitiveType::F32) {
                        // by construction: the shape found lowers to the layout
                        let Lowered::Affine(b) = lower(&back).unwrap() else {
                            panic!("{shape} -> {back}: not affine")
                        };
                        assert_eq!(b.layout(), a.layout(), "{shape} -> {back}");
                    } else {
                        // no tile, or one tile of plain sizes that divide
                        // the dims: always found
                        let plain_even = seq.is_empty()
                            || (seq.len() == 1
                                && seq[0].len() <= rank
                                && seq[0].iter().rev().zip(perm.iter().rev()).all(|(t, &l)| {
                                    t.is_some_and(|t| logical[l].is_multiple_of(t))
                                }));
                        assert!(!plain_even, "{shape}: {} not found as XLA", a.layout());
                    }
                } else {
                    assert!(!seq.is_empty(), "{shape}: untiled but not affine");
                    // the claim is true: no layout with one mode per dim
                    // has these offsets
                    not_affine += 1;
                    if expressible(&logical, &t) {
                        coincide += 1;
                    }
                }
            }
        }
    }
    // the brute-force check agrees with "not affine" but for tiny dims
    // where a cut digit takes a value or two (under 5 %)
    assert!(
        coincide * 20 < not_affine.max(1),
        "{coincide} of {not_affine}"
    );
    eprintln!("rank {rank}: {not_affine} not affine, {coincide} of them coincide with a layout");
    (checked, affine)
}

/// [`padded_grid`] Post 1 (the leaves give the tiling's offsets) and
/// Post 2 (their positions are distinct slots of the grid covering every
/// element; all of the grid when `full`).
fn padded_grid_agrees(shape: &Shape, t: &Tiling, lowered: &Lowered, full: bool) {
    let grid = padded_grid(shape).unwrap();
    assert_eq!(
        grid.is_some(),
        matches!(lowered, Lowered::Affine(_)),
        "{shape}"
    );
    let Some(grid) = grid else { return };
    let dims: Vec<u64> = shape.static_dims().unwrap()[..shape.rank()].to_vec();
    assert_eq!(grid.bounds(), &dims[..]);
    let leaves = grid.leaves();
    for l in leaves {
        assert!(
            1 <= l.size && l.size <= l.extent && l.extent > 1,
            "{shape}: {l:?}"
        );
    }
    let mut used = vec![false; t.slots() as usize];
    for c in all_coords(&dims) {
        let mut slot = 0;
        for l in leaves {
            if let Some(d) = l.dim {
                let top = !leaves.iter().any(|m| m.dim == Some(d) && m.below > l.below);
                let v = c[d as usize] / l.below;
                assert!(v < l.size || !top, "{shape}: {l:?} at {c:?}");
                slot += if top { v } else { v % l.size } * l.stride;
            }
        }
        assert_eq!(slot, t.offset(&c).unwrap(), "{shape} at {c:?}");
        used[slot as usize] = true;
    }
    let mut seen = vec![false; t.expanded_slots() as usize];
    let count: u64 = leaves.iter().map(|l| l.extent).product();
    for mut i in 0..count {
        let mut slot = 0;
        for l in leaves {
            slot += (i % l.extent) * l.stride;
            i /= l.extent;
        }
        assert!(!seen[slot as usize], "{shape}: slot {slot} twice");
        seen[slot as usize] = true;
    }
    for (slot, u) in used.iter().enumerate() {
        assert!(
            !u || seen[slot],
            "{shape}: element slot {slot} not in the grid"
        );
    }
    if full {
        assert_eq!(count, t.expanded_slots(), "{shape}: grid not covered");
    }
}

/// Whether some CuTe layout with one mode per dim gives `t`'s offsets on
/// the logical coordinates, by brute force and independently of the
/// lowering: the offset must be a sum of one function per dim, and each
/// such function a sum of digits `((x / below) % size) * stride` (the top
/// digit without `% size`).
fn expressible(dims: &[u64], t: &Tiling) -> bool {
    let off = |c: &[u64]| t.offset(c).unwrap() as i64;
    let rank = dims.len();
    let per_dim: Vec<Vec<i64>> = (0..rank)
        .map(|d| {
            (0..dims[d])
                .map(|x| {
                    let mut c = vec![0; rank];
                    c[d] = x;
                    off(&c)
                })
                .collect()
        })
        .collect();
    let separable = all_coords(dims)
        .iter()
        .all(|c| off(c) == (0..rank).map(|d| per_dim[d][c[d] as usize]).sum::<i64>());
    separable && per_dim.iter().all(|g| digit_form(g))
}

/// Whether `g` on `0..g.len()` is `Σ ((x / below_k) % size_k) * stride_k`
/// with the last digit unbounded.
fn digit_form(g: &[i64]) -> bool {
    let n = g.len();
    if n <= 1 {
        return true;
    }
    let st = g[1];
    if (0..n).all(|x| g[x] == x as i64 * st) {
        return true;
    }
    (2..n).any(|s0| {
        (0..n).all(|x| g[x] == (x % s0) as i64 * st + g[(x / s0) * s0])
            && digit_form(&(0..n.div_ceil(s0)).map(|y| g[y * s0]).collect::<Vec<_>>())
    })
}

#[test]
fn not_affine_is_checked_independently() {
    // x % 3 cut at 2, the parts at strides 4 and 1
    let s = parse_shape("f32[4]{0:T(3)(2,2)}").unwrap();
    assert!(matches!(lower(&s).unwrap(), Lowered::NotAffine(_)));
    assert!(!expressible(&[4], &s.tiling().unwrap()));
    // x % 4 cut at 3, the parts side by side: x % 4 again
    let s = parse_shape("f32[6]{0:T(4)(3)}").unwrap();
    let Lowered::Affine(a) = lower(&s).unwrap() else {
        panic!()
    };
    assert_eq!(a.layout().to_string(), "((_4,_2)):((_1,_6))");
    assert!(expressible(&[6], &s.tiling().unwrap()));
    // a `*` group cut across its dims, the parts apart (dim 0's digit
    // between them)
    let s = parse_shape("f32[2,3,5]{2,1,0:T(2,*,4)}").unwrap();
    assert!(matches!(lower(&s).unwrap(), Lowered::NotAffine(_)));
    assert!(!expressible(&[2, 3, 5], &s.tiling().unwrap()));
    // ... and side by side: padded row-major
    let s = parse_shape("f32[3,5]{1,0:T(*,4)}").unwrap();
    assert!(matches!(lower(&s).unwrap(), Lowered::Affine(_)));
    // a size-1 dim above an uneven cut is no obstacle
    let s = parse_shape("f32[1,3]{1,0:T(*,2)}").unwrap();
    assert!(matches!(lower(&s).unwrap(), Lowered::Affine(_)));
    assert!(expressible(&[1, 3], &s.tiling().unwrap()));
    // the checker accepts what the lowering calls affine
    let s = parse_shape("f32[3,5]{1,0:T(2,2)}").unwrap();
    assert!(expressible(&[3, 5], &s.tiling().unwrap()));
}

#[test]
fn every_small_layout_rank_0_to_2_with_two_tiles() {
    let mut total = (0, 0);
    for rank in 0..=2 {
        let (c, a) = check(rank, if rank < 2 { 5 } else { 4 }, 3, true);
        total = (total.0 + c, total.1 + a);
    }
    // both kinds occur (more than nine in ten are affine); every one agrees
    assert!(total.0 > 100_000, "{total:?}");
    assert!(total.1 * 10 > total.0 * 9 && total.1 < total.0, "{total:?}");
    eprintln!("rank ≤ 2: {} layouts, {} affine", total.0, total.1);
}

#[test]
fn every_small_layout_rank_3_with_one_tile() {
    let (c, a) = check(3, 4, 3, false);
    assert!(c > 10_000, "{c}");
    eprintln!("rank 3: {c} layouts, {a} affine");
}

#[test]
fn seed_figure_and_not_affine_example() {
    let s = parse_shape("f32[3,5]{1,0:T(2,2)}").unwrap();
    let Lowered::Affine(a) = lower(&s).unwrap() else {
        panic!()
    };
    assert_eq!(
        a.layout().to_string(),
        "((_2,_2),(_2,_3)):((_2,_12),(_1,_4))"
    );
    // (x % 3) / 2 at stride 4, (x % 3) % 2 at stride 1
    let s = parse_shape("f32[4]{0:T(3)(2,2)}").unwrap();
    let Lowered::NotAffine(n) = lower(&s).unwrap() else {
        panic!()
    };
    assert_eq!((n.level(), n.tile_dim()), (1, 1));
    assert!(
        n.describe().as_str().contains("(2,2)"),
        "{}",
        n.describe().as_str()
    );
    // E(4) scales the offsets to bits
    let s = parse_shape("s4[8,256]{1,0:T(8,128)(2,1)E(4)}").unwrap();
    let Lowered::Affine(a) = lower(&s).unwrap() else {
        panic!()
    };
    assert_eq!(
        a.layout().to_string(),
        "((_2,_4),(_128,_2)):((_1,_256),(_2,_1024))"
    );
    assert_eq!(
        a.bit_layout().unwrap().to_string(),
        "((_2,_4),(_128,_2)):((_4,_1024),(_8,_4096))"
    );
    // L(n) pads the end
    let s = parse_shape("f32[3]{0:L(8)}").unwrap();
    let Lowered::Affine(a) = lower(&s).unwrap() else {
        panic!()
    };
    assert_eq!(
        (a.slots(), a.layout().to_string().as_str()),
        (8, "(_3):(_1)")
    );
    assert_eq!(a.coords(5).unwrap(), None);
}

#[test]
fn to_xla_finds_tilings() {
    for (cute, xla) in [
        (
            "(_8,(_128,_2)):(_128,(_1,_1024))",
            "f32[8,256]{1,0:T(8,128)}",
        ),
        (
            "((_2,_2),(_2,_3)):((_2,_12),(_1,_4))",
            "f32[4,6]{1,0:T(2,2)}",
        ),
        ("(_4,_3):(_1,_4)", "f32[4,3]{0,1}"),
        ("(_4,_3):(_3,_1)", "f32[4,3]{1,0}"),
    ] {
        let l = CuteLayout::parse(cute).unwrap();
        let s = to_xla(&l, PrimitiveType::F32).unwrap_or_else(|| panic!("{cute}"));
        assert_eq!(s.to_string(), xla, "{cute}");
    }
    // not a tiling: strides that overlap, a deeper mode
    for cute in [
        "(_4,_3):(_1,_1)",
        "((_2,(_2,_2))):((_1,(_2,_4)))",
        "(_4,_3):(_2,_8)",
    ] {
        let l = CuteLayout::parse(cute).unwrap();
        assert_eq!(to_xla(&l, PrimitiveType::F32), None, "{cute}");
    }
}

/// A small deterministic generator for sample coordinates.
fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

#[test]
fn every_real_shape_corners_and_samples() {
    let (mut seen, mut affine) = (0, 0);
    for (line, cols) in common::rows("real_shapes_dev.tsv") {
        let Ok(shape) = parse_shape(&cols[0]) else {
            continue;
        };
        let Ok(t) = shape.tiling() else {
            continue;
        };
        if t.elements() == 0 {
            assert!(lower(&shape).is_err(), "line {line}: {shape}");
            continue;
        }
        let lowered = lower(&shape).unwrap_or_else(|e| panic!("line {line}: {shape}: {e}"));
        seen += 1;
        if matches!(lowered, Lowered::Affine(_)) {
            affine += 1;
        }
        let dims: Vec<u64> = shape.static_dims().unwrap()[..shape.rank()].to_vec();
        let mut coords: Vec<Vec<u64>> = (0..1u64 << dims.len())
            .map(|m| {
                dims.iter()
                    .enumerate()
                    .map(|(d, &n)| if m >> d & 1 == 1 { n - 1 } else { 0 })
                    .collect()
            })
            .collect();
        let mut st = line as u64;
        for _ in 0..200 {
            coords.push(dims.iter().map(|&n| lcg(&mut st) % n).collect());
        }
        let program = index_program(&shape).unwrap();
        assert!(program.fits(), "line {line}: {shape}");
        for c in &coords {
            let want = t.offset(c).unwrap();
            assert_eq!(
                lowered.offset(c).unwrap(),
                want,
                "line {line}: {shape} {c:?}"
            );
            assert_eq!(program.run(c), want, "line {line}: {shape} program {c:?}");
            assert_eq!(
                lowered.coords(want).unwrap().unwrap().as_slice(),
                &c[..],
                "line {line}: {shape}"
            );
        }
        for _ in 0..200 {
            let slot = lcg(&mut st) % t.slots();
            assert_eq!(
                lowered.coords(slot).unwrap(),
                t.coords(slot).unwrap(),
                "line {line}: {shape} slot {slot}"
            );
        }
    }
    assert!(seen > 300, "{seen}");
    // every real tiling is affine
    assert_eq!(affine, seen);
    eprintln!("{seen} real shapes, {affine} affine");
}

mod large {
    //! Larger layouts than the exhaustive tests reach: random ranks, dims,
    //! orders and one or two tiles of real tile sizes, compared with the
    //! core's index math at random coordinates and slots.

    use super::*;
    use proptest::prelude::*;

    fn arb_tile() -> impl Strategy<Value = Vec<Option<u64>>> {
        let size = prop_oneof![
            Just(Some(1u64)),
            Just(Some(2)),
            Just(Some(3)),
            Just(Some(4)),
            Just(Some(8)),
            Just(Some(128)),
            Just(None)
        ];
        (
            prop::collection::vec(size, 0..3),
            prop_oneof![Just(1u64), Just(2), Just(8), Just(128), Just(5)],
        )
            .prop_map(|(mut t, last)| {
                t.push(Some(last));
                t
            })
    }

    fn arb_shape() -> impl Strategy<Value = Shape> {
        (1usize..=4)
            .prop_flat_map(|rank| {
                (
                    prop::collection::vec(1u64..=300, rank),
                    Just((0..rank).collect::<Vec<usize>>()).prop_shuffle(),
                    prop::collection::vec(arb_tile(), 1..=2),
                )
            })
            .prop_map(|(dims, order, tiles)| {
                let mut layout = XlaLayout::EMPTY;
                for &l in &order {
                    assert!(layout.push_minor_to_major(l as i64));
                }
                for t in &tiles {
                    assert!(layout.push_tile(to_tile(t)));
                }
                Shape::new(PrimitiveType::BF16, &dims)
                    .unwrap()
                    .with_layout(layout)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        #[test]
        fn lowering_agrees_with_the_tiling(shape in arb_shape(), seed in any::<u64>()) {
            let t = shape.tiling().unwrap();
            let lowered = lower(&shape).unwrap();
            let dims: Vec<u64> = shape.static_dims().unwrap()[..shape.rank()].to_vec();
            let program = index_program(&shape).unwrap();
            let mut st = seed;
            for _ in 0..64 {
                let c: Vec<u64> = dims.iter().map(|&n| lcg(&mut st) % n).collect();
                prop_assert_eq!(lowered.offset(&c).unwrap(), t.offset(&c).unwrap(), "{} {:?}", shape, c);
                if program.fits() {
                    prop_assert_eq!(program.run(&c), t.offset(&c).unwrap(), "{} program {:?}", shape, c);
                }
                let slot = lcg(&mut st) % t.slots();
                prop_assert_eq!(lowered.coords(slot).unwrap(), t.coords(slot).unwrap(), "{} {}", shape, slot);
            }
        }
    }
}

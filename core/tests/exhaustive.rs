//! An independent check of the tiling semantics (SPEC §2) over a whole small
//! space: every layout of rank ≤ 3 with dims ≤ 5, every `minor_to_major`
//! order, and one or two tiles of rank ≤ 3 with tile dims in 1..=3 or `*`
//! (`*` anywhere but the most-minor position; tiles may be longer than the
//! shape).
//!
//! The reference here is the seed's pad → reshape → transpose formulation,
//! carried out literally on a materialized array of element ids: nothing in
//! it comes from `core/src/tiling.rs`. Every layout is then compared with
//! [`Tiling`]: each element's slot, each slot's element (or padding), the
//! slot count, the padding count and the final expanded dims.

mod common;
use tilelayout_core::{PrimitiveType, Shape, Tile, TileDim, Tiling, XlaLayout};

/// A materialized array: dims (row-major, most major first) and, per slot,
/// the id of the element stored there (`None` = padding).
#[derive(Clone, Debug)]
struct Explicit {
    dims: Vec<usize>,
    data: Vec<Option<u32>>,
}

fn row_major_strides(dims: &[usize]) -> Vec<usize> {
    let mut s = vec![1; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * dims[i + 1];
    }
    s
}

/// Advances row-major coordinates `c` within `dims` by one, telling `moved`
/// each dim that changed and whether it wrapped to 0.
fn odometer(c: &mut [usize], dims: &[usize], mut moved: impl FnMut(usize, bool)) {
    for d in (0..c.len()).rev() {
        c[d] += 1;
        if c[d] < dims[d] {
            moved(d, false);
            return;
        }
        c[d] = 0;
        moved(d, true);
    }
}

impl Explicit {
    /// The array of ids `0..n` in row-major order.
    fn iota(dims: &[usize]) -> Explicit {
        let n: usize = dims.iter().product();
        Explicit {
            dims: dims.to_vec(),
            data: (0..n as u32).map(Some).collect(),
        }
    }

    /// A reshape: the same data read with other dims (a bitcast).
    fn reshape(mut self, dims: Vec<usize>) -> Explicit {
        assert_eq!(
            dims.iter().product::<usize>(),
            self.data.len(),
            "reshape keeps the size"
        );
        self.dims = dims;
        self
    }

    /// Transpose: new dim `j` is old dim `perm[j]`.
    fn transpose(&self, perm: &[usize]) -> Explicit {
        let new_dims: Vec<usize> = perm.iter().map(|&p| self.dims[p]).collect();
        let old_strides = row_major_strides(&self.dims);
        // the old stride of each new dim: walking the new array in row-major
        // order, the source moves by these
        let step: Vec<usize> = perm.iter().map(|&p| old_strides[p]).collect();
        let n = self.data.len();
        let mut data = Vec::with_capacity(n);
        let mut c = vec![0usize; new_dims.len()];
        let mut src = 0usize;
        for _ in 0..n {
            data.push(self.data[src]);
            odometer(&mut c, &new_dims, |d, wrapped| {
                if wrapped {
                    src -= (new_dims[d] - 1) * step[d];
                } else {
                    src += step[d];
                }
            });
        }
        Explicit {
            dims: new_dims,
            data,
        }
    }

    /// Pads each dim `d` at its end to `to[d]` with padding slots.
    fn pad(&self, to: &[usize]) -> Explicit {
        let n: usize = to.iter().product();
        let old_strides = row_major_strides(&self.dims);
        let mut data = Vec::with_capacity(n);
        let mut c = vec![0usize; to.len()];
        for _ in 0..n {
            let inside = c.iter().zip(&self.dims).all(|(&x, &d)| x < d);
            data.push(if inside {
                self.data[c
                    .iter()
                    .zip(&old_strides)
                    .map(|(&x, &s)| x * s)
                    .sum::<usize>()]
            } else {
                None
            });
            odometer(&mut c, to, |_, _| {});
        }
        Explicit {
            dims: to.to_vec(),
            data,
        }
    }

    /// Applies one tile (`None` = `*`) as the seed describes it.
    fn tile(self, tile: &[Option<usize>]) -> Explicit {
        let k = tile.len();
        // Left-pad the shape with 1s if the tile is longer (a reshape).
        let mut a = self;
        if k > a.dims.len() {
            let mut dims = vec![1; k - a.dims.len()];
            dims.extend(&a.dims);
            a = a.reshape(dims);
        }
        let base = a.dims.len() - k;
        // Combine: a `*` merges its dim into the next more-minor one (a
        // reshape: adjacent row-major dims merge without moving data).
        let mut dims: Vec<usize> = a.dims[..base].to_vec();
        let mut t: Vec<usize> = Vec::new();
        let mut acc = 1;
        for (j, td) in tile.iter().enumerate() {
            acc *= a.dims[base + j];
            if let Some(size) = td {
                dims.push(acc);
                t.push(*size);
                acc = 1;
            }
        }
        assert_eq!(acc, 1, "a tile ends in a size");
        let a = a.reshape(dims);
        let g = t.len();
        // Pad each tiled dim to a multiple of its tile.
        let mut padded = a.dims.clone();
        for q in 0..g {
            padded[base + q] = padded[base + q].div_ceil(t[q]) * t[q];
        }
        let a = a.pad(&padded);
        // Reshape each tiled dim d into (d / t, t).
        let mut dims: Vec<usize> = padded[..base].to_vec();
        for q in 0..g {
            dims.push(padded[base + q] / t[q]);
            dims.push(t[q]);
        }
        let a = a.reshape(dims);
        // Transpose the tile dims to the minor end, keeping their order.
        let mut perm: Vec<usize> = (0..base).collect();
        perm.extend((0..g).map(|q| base + 2 * q));
        perm.extend((0..g).map(|q| base + 2 * q + 1));
        a.transpose(&perm)
    }
}

/// Every tile of rank 1..=3 with dims in {1,2,3,*}, `*` not last.
fn all_tiles() -> Vec<Vec<Option<usize>>> {
    let choices = [Some(1), Some(2), Some(3), None];
    let mut out = Vec::new();
    for k in 1..=3usize {
        let mut idx = vec![0usize; k];
        loop {
            let t: Vec<Option<usize>> = idx.iter().map(|&i| choices[i]).collect();
            if t[k - 1].is_some() {
                out.push(t);
            }
            let mut p = 0;
            while p < k {
                idx[p] += 1;
                if idx[p] < choices.len() {
                    break;
                }
                idx[p] = 0;
                p += 1;
            }
            if p == k {
                break;
            }
        }
    }
    out
}

fn to_tile(t: &[Option<usize>]) -> Tile {
    let mut tile = Tile::EMPTY;
    for d in t {
        assert!(tile.push(match d {
            Some(n) => TileDim::Size(*n as u64),
            None => TileDim::Combine,
        }));
    }
    tile
}

/// Compares one layout with the explicit array built on its physical dims.
/// `phys_to_logical` maps physical position (most major first) → logical dim.
fn compare(
    t: &Tiling,
    ex: &Explicit,
    phys_dims: &[usize],
    phys_to_logical: &[usize],
    what: &dyn Fn() -> String,
) {
    let rank = phys_dims.len();
    let elements: usize = phys_dims.iter().product();
    assert_eq!(t.slots(), ex.data.len() as u64, "slots of {}", what());
    assert_eq!(t.elements(), elements as u64, "elements of {}", what());
    let ex_dims: Vec<u64> = ex.dims.iter().map(|&d| d as u64).collect();
    assert_eq!(
        t.expanded_dims(),
        &ex_dims[..],
        "expanded dims of {}",
        what()
    );
    let mut seen = vec![false; elements];
    let mut padding = 0u64;
    let mut logical = [0u64; 3];
    let logical = &mut logical[..rank];
    for (slot, cell) in ex.data.iter().enumerate() {
        let slot = slot as u64;
        let got = t
            .coords(slot)
            .unwrap_or_else(|e| panic!("coords({slot}) of {}: {e}", what()));
        match cell {
            None => {
                padding += 1;
                assert!(
                    got.is_none(),
                    "slot {slot} of {} is padding, coords gave {got:?}",
                    what()
                );
            }
            Some(id) => {
                let mut id = *id as usize;
                assert!(
                    !seen[id],
                    "element {id} twice in the explicit array of {}",
                    what()
                );
                seen[id] = true;
                for p in (0..rank).rev() {
                    logical[phys_to_logical[p]] = (id % phys_dims[p]) as u64;
                    id /= phys_dims[p];
                }
                let off = t
                    .offset(logical)
                    .unwrap_or_else(|e| panic!("offset({logical:?}) of {}: {e}", what()));
                assert_eq!(off, slot, "offset({logical:?}) of {}", what());
                let back = got.unwrap_or_else(|| panic!("coords({slot}) of {} is padding", what()));
                assert_eq!(back.as_slice(), &*logical, "coords({slot}) of {}", what());
            }
        }
    }
    assert!(
        seen.iter().all(|&s| s),
        "every element is placed in {}",
        what()
    );
    assert_eq!(padding, t.slots() - t.elements(), "padding of {}", what());
    assert!(
        t.coords(t.slots()).is_err(),
        "coords past the end of {}",
        what()
    );
}

/// Checks every layout whose physical rank is `rank` and whose first tile is
/// number `shard` modulo `shards` (so the test runner's threads share the
/// work); returns the count.
fn check_rank(rank: usize, shard: usize, shards: usize) -> u64 {
    let tiles = all_tiles();
    let perms = common::permutations(rank);
    let mut checked = 0u64;
    for phys in common::tuples(rank, &(0..=5).collect::<Vec<usize>>()) {
        let base = Explicit::iota(&phys);
        // Tile sequences: one tile, or two.
        for t1 in tiles.iter().skip(shard).step_by(shards) {
            let after1 = base.clone().tile(t1);
            for second in std::iter::once(None).chain((0..tiles.len()).map(Some)) {
                let ex = match second {
                    None => after1.clone(),
                    Some(j) => after1.clone().tile(&tiles[j]),
                };
                let mut layout_tiles = vec![to_tile(t1)];
                if let Some(j) = second {
                    layout_tiles.push(to_tile(&tiles[j]));
                }
                for perm in &perms {
                    // perm[p] = the logical dim at physical position p
                    // (most major first); minor_to_major is perm reversed.
                    let mut logical = vec![0u64; rank];
                    for (p, &l) in perm.iter().enumerate() {
                        logical[l] = phys[p] as u64;
                    }
                    let mut layout = XlaLayout::EMPTY;
                    for &l in perm.iter().rev() {
                        assert!(layout.push_minor_to_major(l as i64));
                    }
                    for t in &layout_tiles {
                        assert!(layout.push_tile(*t));
                    }
                    let shape = Shape::new(PrimitiveType::F32, &logical)
                        .unwrap()
                        .with_layout(layout);
                    let what = || format!("{shape}");
                    shape
                        .validate()
                        .unwrap_or_else(|e| panic!("{}: {e}", what()));
                    let t = shape.tiling().unwrap_or_else(|e| panic!("{}: {e}", what()));
                    compare(&t, &ex, &phys, perm, &what);
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[test]
fn explicit_array_matches_the_seed_examples() {
    // Figure 1: f32[3,5] tiled 2×2; element (2,3) at 17; padding as drawn.
    let ex = Explicit::iota(&[3, 5]).tile(&[Some(2), Some(2)]);
    assert_eq!(ex.dims, [2, 3, 2, 2]);
    assert_eq!(ex.data.iter().position(|&c| c == Some(2 * 5 + 3)), Some(17));
    let padding: Vec<usize> = (0..ex.data.len())
        .filter(|&s| ex.data[s].is_none())
        .collect();
    assert_eq!(padding, [9, 11, 14, 15, 18, 19, 21, 22, 23]);
    // Figure 2: 4×8 by (2,4)(2,1): row r goes to r%2 + 16·(r/2) + 2j.
    let ex = Explicit::iota(&[4, 8])
        .tile(&[Some(2), Some(4)])
        .tile(&[Some(2), Some(1)]);
    for r in 0..4 {
        for j in 0..8 {
            let at = ex
                .data
                .iter()
                .position(|&c| c == Some((r * 8 + j) as u32))
                .unwrap();
            assert_eq!(at, r % 2 + 16 * (r / 2) + 2 * j, "({r},{j})");
        }
    }
    // Combining: (*,2) on [3,5] merges to [15] rows... of a rank-2 tile:
    // dims (3,5) become (15) tiled by 2 → 8 tiles of 2, one padding slot.
    let ex = Explicit::iota(&[3, 5]).tile(&[None, Some(2)]);
    assert_eq!(ex.dims, [8, 2]);
    assert_eq!(ex.data[..15], (0..15).map(Some).collect::<Vec<_>>()[..]);
    assert_eq!(ex.data[15], None);
}

/// The number of tiles in [`all_tiles`]: 3 of rank 1, 4·3 of rank 2,
/// 4·4·3 of rank 3.
const TILES: u64 = 3 + 12 + 48;
/// Tile sequences: one tile, or one followed by any second.
const SEQUENCES: u64 = TILES * (1 + TILES);

#[test]
fn every_small_layout_rank_0_and_1() {
    assert_eq!(all_tiles().len() as u64, TILES);
    let n = check_rank(0, 0, 1) + check_rank(1, 0, 1);
    println!("rank 0-1: {n} layouts checked");
    assert_eq!(n, 7 * SEQUENCES);
}

#[test]
fn every_small_layout_rank_2() {
    let n = check_rank(2, 0, 1);
    println!("rank 2: {n} layouts checked");
    assert_eq!(n, 36 * 2 * SEQUENCES);
}

/// Rank 3 is 5.2 million layouts: split in two so both cores work.
#[test]
fn every_small_layout_rank_3_odd_first_tiles() {
    let n = check_rank(3, 1, 2);
    println!("rank 3, first tile odd: {n} layouts checked");
    assert_eq!(n, 216 * 6 * (TILES / 2) * (1 + TILES));
}

#[test]
fn every_small_layout_rank_3_even_first_tiles() {
    let n = check_rank(3, 0, 2);
    println!("rank 3, first tile even: {n} layouts checked");
    assert_eq!(n, 216 * 6 * (TILES / 2 + 1) * (1 + TILES));
}

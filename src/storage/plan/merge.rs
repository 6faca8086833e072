//! Combined dims (`*`) merged on both sides: a relayout over the combined
//! coordinate.
//!
//! A `*` in a side's first tile combines a dim into the next more minor
//! one: `bf16[2,3,1004]{2,1,0:T(2,*,128)}` tiles `x = 1004·j + k` as one
//! dim of 3012. Cut at 128, `x % 128` is no function of `k`'s digits (1004
//! is no multiple of 128), so the tiling is not affine in `(i, j, k)`; but
//! it is the tiling of `bf16[2,3012]{1,0:T(2,128)}` applied to `(i, x)`,
//! and row-major storage of `(i, j, k)` is row-major storage of `(i, x)`.
//! Where the other side's offset is a function of `x` too (strided with
//! `stride_j = 1004 · stride_k`, or tiled with the same `*` groups), the
//! relayout runs over the merged dims, on loops.
//!
//! Post: offsets of the merged sides at the merged coordinates are the
//! sides' offsets at the original ones (the relayout agreement tests check
//! the bytes).

use super::{ArrayLayout, Strided};
use crate::value::{Shape, Tile, TileDim, XlaLayout, MAX_RANK};

/// Both sides over merged dims.
pub(crate) struct Merged {
    pub(crate) src: ArrayLayout,
    pub(crate) dst: ArrayLayout,
    pub(crate) dims: [u64; MAX_RANK],
    pub(crate) rank: usize,
}

/// `NONE`: the dim is not combined into another.
const NONE: u8 = u8::MAX;

/// For each logical dim, the dim a side's `*` combines it into (the next
/// more minor physical dim), or [`NONE`]; `None` if the side has a `*`
/// outside its first tile (not handled).
const fn joins(a: &ArrayLayout) -> Option<[u8; MAX_RANK]> {
    let mut j = [NONE; MAX_RANK];
    let ArrayLayout::Tiled(s) = a else {
        return Some(j);
    };
    let Ok(t) = s.tiling() else {
        return None;
    };
    let tiles = s.layout().tiles();
    let rank = t.rank();
    let mut level = 0;
    while level < tiles.len() {
        let tile = &tiles[level];
        let k = tile.rank();
        let mut i = 0;
        while i < k {
            if matches!(tile.dim(i), TileDim::Combine) {
                if level > 0 {
                    return None;
                }
                // tile dim i sits on physical dim rank - k + i (a `*` on
                // the left padding combines a dim of size 1: nothing)
                if i + rank >= k {
                    let p = rank + i - k;
                    // (valid: a `*` is never the most minor tile dim)
                    if p + 1 >= rank {
                        return None;
                    }
                    j[t.physical_to_logical(p)] = t.physical_to_logical(p + 1) as u8;
                }
            }
            i += 1;
        }
        level += 1;
    }
    Some(j)
}

const fn any(j: &[u8; MAX_RANK]) -> bool {
    let mut d = 0;
    while d < MAX_RANK {
        if j[d] != NONE {
            return true;
        }
        d += 1;
    }
    false
}

/// The sides over merged dims, when a side combines dims and both sides'
/// offsets are functions of the combined coordinates; `None` otherwise.
pub(crate) const fn merge(
    src: &ArrayLayout,
    dst: &ArrayLayout,
    dims: &[u64; MAX_RANK],
    rank: usize,
) -> Option<Merged> {
    let (Some(js), Some(jd)) = (joins(src), joins(dst)) else {
        return None;
    };
    let j = if any(&js) { js } else { jd };
    if !any(&j) {
        return None;
    }
    // both sides must combine alike: a tiled side with the same groups,
    // or a strided side whose strides chain along them
    let (Some(ms), Some(md)) = (
        merged_side(src, &js, &j, dims, rank),
        merged_side(dst, &jd, &j, dims, rank),
    ) else {
        return None;
    };
    let (out, n) = merged_dims(&j, dims, rank);
    Some(Merged {
        src: ms,
        dst: md,
        dims: out,
        rank: n,
    })
}

/// The merged dims: each kept dim (not combined into another) times the
/// dims combined into it, in the order of the logical dims; and how many.
const fn merged_dims(
    j: &[u8; MAX_RANK],
    dims: &[u64; MAX_RANK],
    rank: usize,
) -> ([u64; MAX_RANK], usize) {
    let mut out = [0u64; MAX_RANK];
    let mut n = 0;
    let mut d = 0;
    while d < rank {
        if j[d] == NONE {
            out[n] = size(j, dims, d);
            n += 1;
        }
        d += 1;
    }
    (out, n)
}

/// The size of kept dim `d` with every dim combined into it (a chain).
const fn size(j: &[u8; MAX_RANK], dims: &[u64; MAX_RANK], d: usize) -> u64 {
    let mut s = dims[d];
    let mut from = d;
    // the dim combined into `from`, if any
    loop {
        let mut next = NONE as usize;
        let mut e = 0;
        while e < MAX_RANK {
            if j[e] as usize == from {
                next = e;
            }
            e += 1;
        }
        if next == NONE as usize {
            return s;
        }
        s = s.saturating_mul(dims[next]);
        from = next;
    }
}

/// The merged index of logical dim `d` (kept dims in order).
const fn renumber(j: &[u8; MAX_RANK], d: usize) -> usize {
    let mut n = 0;
    let mut e = 0;
    while e < d {
        if j[e] == NONE {
            n += 1;
        }
        e += 1;
    }
    n
}

/// One side over the merged dims (`own`: its own joins, `j`: the groups).
const fn merged_side(
    a: &ArrayLayout,
    own: &[u8; MAX_RANK],
    j: &[u8; MAX_RANK],
    dims: &[u64; MAX_RANK],
    rank: usize,
) -> Option<ArrayLayout> {
    match a {
        ArrayLayout::Strided(s) => {
            let st = s.strides();
            let (md, n) = merged_dims(j, dims, rank);
            let mut ms = [0u64; MAX_RANK];
            let mut d = 0;
            while d < rank {
                if j[d] == NONE {
                    ms[renumber(j, d)] = st[d];
                } else if dims[d] > 1 {
                    // x_d moves the combined coordinate by the sizes of
                    // the dims after it in its group, down to the kept one
                    let mut prod: u64 = 1;
                    let mut g = j[d] as usize;
                    loop {
                        prod = match prod.checked_mul(dims[g]) {
                            Some(v) => v,
                            None => return None,
                        };
                        if j[g] == NONE {
                            break;
                        }
                        g = j[g] as usize;
                    }
                    match st[g].checked_mul(prod) {
                        Some(want) if want == st[d] => {}
                        _ => return None,
                    }
                }
                d += 1;
            }
            match Strided::new(md.split_at(n).0, ms.split_at(n).0, s.bits()) {
                Ok(s) => Some(ArrayLayout::Strided(s)),
                Err(_) => None,
            }
        }
        // (a CuTe side is not planned over combined dims)
        ArrayLayout::Cute(_) => None,
        ArrayLayout::Tiled(s) => {
            let mut d = 0;
            while d < MAX_RANK {
                if own[d] != j[d] {
                    return None;
                }
                d += 1;
            }
            merged_shape(s, j, dims, rank)
        }
    }
}

/// `s` with its `*` groups as single dims and its first tile without `*`.
const fn merged_shape(
    s: &Shape,
    j: &[u8; MAX_RANK],
    dims: &[u64; MAX_RANK],
    rank: usize,
) -> Option<ArrayLayout> {
    let (md, n) = merged_dims(j, dims, rank);
    let old = s.layout();
    let mut l = XlaLayout::EMPTY;
    let m2m = old.minor_to_major();
    let mut i = 0;
    while i < m2m.len() {
        let d = m2m[i] as usize;
        if j[d] == NONE && !l.push_minor_to_major(renumber(j, d) as i64) {
            return None;
        }
        i += 1;
    }
    let tiles = old.tiles();
    let mut t = 0;
    while t < tiles.len() {
        let mut tile = Tile::EMPTY;
        let mut i = 0;
        while i < tiles[t].rank() {
            let td = tiles[t].dim(i);
            if !matches!(td, TileDim::Combine) && !tile.push(td) {
                return None;
            }
            i += 1;
        }
        if !l.push_tile(tile) {
            return None;
        }
        t += 1;
    }
    l.tail_padding_alignment_in_elements = old.tail_padding_alignment_in_elements;
    l.element_size_in_bits = old.element_size_in_bits;
    match Shape::new(s.element_type(), md.split_at(n).0) {
        Some(m) => Some(ArrayLayout::Tiled(m.with_layout(l))),
        None => None,
    }
}

//! The element-wise definition of a relayout side, shared by the fuzz
//! check `relayout` and the relayout tests (`tests/relayout_common`): how
//! many storage slots it has and which slot each logical coordinate maps
//! to, written from each layout's own definition rather than the planner's.

use tilelayout::storage::ArrayLayout;

/// The storage slots of `a` (`u64::MAX` for a tiled side without a tiling,
/// which no plan accepts).
pub fn slots(a: &ArrayLayout) -> u64 {
    match a {
        ArrayLayout::Tiled(s) => s.tiling().map_or(u64::MAX, |t| t.slots()),
        ArrayLayout::Strided(s) => s.slots(),
        ArrayLayout::Cute(c) => c.slots(),
    }
}

/// The slot of coordinate `c` (the definition a plan must match): the
/// tiling's offset, the strides' dot product, or the core's CuTe offset of
/// the colexicographic 1-D index.
pub fn offset(a: &ArrayLayout, c: &[u64]) -> u64 {
    match a {
        ArrayLayout::Tiled(s) => s.tiling().unwrap().offset(c).unwrap(),
        ArrayLayout::Strided(s) => c.iter().zip(s.strides()).map(|(x, y)| x * y).sum(),
        ArrayLayout::Cute(l) => {
            let (mut idx, mut scale) = (0u64, 1u64);
            for (x, n) in c.iter().zip(l.dims()) {
                idx += x * scale;
                scale *= n;
            }
            l.layout().call(idx as i64).unwrap() as u64
        }
    }
}

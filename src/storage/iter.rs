//! Iteration over a view: in logical order and in memory order.

use super::element::Element;
use super::meta::Meta;
use crate::value::{Index, MAX_RANK};

/// The elements of a view in logical order: row-major over the dims as
/// written (`a[0,0], a[0,1], …`), whatever the layout. Made by
/// [`TiledView::iter`](super::TiledView::iter).
///
/// ```
/// use tilelayout::storage::TiledArray;
/// use tilelayout::value::parse_shape;
/// let s = parse_shape("s32[2,3]{0,1}")?; // column-major
/// let a = TiledArray::<i32>::from_units(&s, vec![0, 10, 1, 11, 2, 12])?;
/// assert_eq!(a.view().iter().collect::<Vec<_>>(), [0, 1, 2, 10, 11, 12]);
/// # Ok::<(), tilelayout::storage::StorageError>(())
/// ```
#[derive(Clone, Debug)]
pub struct LogicalIter<'v, E: Element> {
    meta: Meta<'v>,
    units: &'v [E::Unit],
    coords: [u64; MAX_RANK],
    left: u64,
}

impl<'v, E: Element> LogicalIter<'v, E> {
    pub(crate) fn new(meta: Meta<'v>, units: &'v [E::Unit]) -> Self {
        LogicalIter {
            meta,
            units,
            coords: [0; MAX_RANK],
            left: meta.tiling().elements(),
        }
    }
}

impl<E: Element> Iterator for LogicalIter<'_, E> {
    type Item = E;

    fn next(&mut self) -> Option<E> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let t = self.meta.tiling();
        let rank = t.rank();
        let slot = t.offset_unchecked(&self.coords[..rank]);
        // odometer step, last dim fastest
        let dims = self.meta.shape().dims();
        let mut d = rank;
        while d > 0 {
            d -= 1;
            self.coords[d] += 1;
            if Some(self.coords[d]) < dims[d].size() {
                break;
            }
            self.coords[d] = 0;
        }
        Some(E::load(self.units, slot as usize, self.meta.bits))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.left).unwrap_or(usize::MAX);
        (n, Some(n))
    }
}

/// `(coordinates, element)` for every non-padding slot of a view, in memory
/// order. Made by [`TiledView::iter_memory`](super::TiledView::iter_memory).
///
/// ```
/// use tilelayout::storage::TiledArray;
/// use tilelayout::value::parse_shape;
/// let s = parse_shape("s32[4,8]{1,0:T(2,4)(2,1)}")?;
/// let a = TiledArray::<i32>::from_fn(&s, |c| (10 * c[0] + c[1]) as i32)?;
/// let first: Vec<_> = a.view().iter_memory().take(3).map(|(_, v)| v).collect();
/// assert_eq!(first, [0, 10, 1]); // rows 0 and 1 interleaved
/// # Ok::<(), tilelayout::storage::StorageError>(())
/// ```
#[derive(Clone, Debug)]
pub struct MemoryIter<'v, E: Element> {
    meta: Meta<'v>,
    units: &'v [E::Unit],
    slot: u64,
}

impl<'v, E: Element> MemoryIter<'v, E> {
    pub(crate) fn new(meta: Meta<'v>, units: &'v [E::Unit]) -> Self {
        MemoryIter {
            meta,
            units,
            slot: 0,
        }
    }
}

impl<E: Element> Iterator for MemoryIter<'_, E> {
    type Item = (Index, E);

    fn next(&mut self) -> Option<(Index, E)> {
        let t = self.meta.tiling();
        while self.slot < t.expanded_slots() {
            let s = self.slot;
            self.slot += 1;
            if let Ok(Some(c)) = t.coords(s) {
                return Some((c, E::load(self.units, s as usize, self.meta.bits)));
            }
        }
        None
    }
}

//! The two sides of a copy plan: memory tiles (global or shared, one tile
//! for the thread block) and register tiles (one per warp), and how each
//! reads and writes a 128-bit vector.

use super::matrix::{vector_run, Layout2, Shape2};
use super::reg_tile::{BaseTile, RegTile, WARP_SIZE};
use super::tile::{MemTile, Space, Storage, StorageMut};
use super::vector::{Vector, VECTOR_BYTES};
use crate::algebra::ComposedLayout;

/// A side of a copy: a memory tile (one tile for the thread block) or
/// register tiles (one tile per warp).
pub trait CopyEndpoint {
    /// Element type (`Default` gives the initial value of a lane's staging
    /// registers).
    type Elem: Copy + Default;
    /// Memory: the tile's rows. Registers: the rows of each warp's tile.
    const ROWS: usize;
    /// Memory: the tile's columns. Registers: the columns of each warp's tile.
    const COLS: usize;
    /// `None` for a memory tile; `Some(n)` for register tiles of `n` warps.
    const WARPS: Option<usize>;
    /// Memory: the contiguous run along a row,
    /// [`vector_run`]`(&L::LAYOUT, 1)`. Registers: ignored.
    const ROW_RUN: usize;
    /// Memory: the contiguous run along a column,
    /// [`vector_run`]`(&L::LAYOUT, 0)`. Registers: ignored.
    const COL_RUN: usize;
    /// Shared memory: the layout of the tile (its accesses meet banks).
    /// Global memory and registers: `None`.
    const SHARED_LAYOUT: Option<&'static ComposedLayout> = None;
}

/// A side a plan reads from.
pub trait CopySource: CopyEndpoint {
    /// Reads the element at tile coordinates `(i, j)` (in `warp`'s region).
    fn read(&self, warp: usize, i: usize, j: usize) -> Self::Elem;
    /// Returns the `v.len` elements of vector `v` (moved by a lane of
    /// `warp`), in order. A memory tile lends the contiguous run of its
    /// storage (the 128-bit load); register tiles gather the elements from
    /// their owner lanes into `staging` (the moving lane's registers).
    fn load<'a>(
        &'a self,
        warp: usize,
        v: &Vector,
        staging: &'a mut [Self::Elem; VECTOR_BYTES],
    ) -> &'a [Self::Elem];
}

/// A side a plan writes to.
pub trait CopyDest: CopyEndpoint {
    /// Writes `src[..v.len]` as vector `v` (moved by a lane of `warp`).
    fn write_vector(&mut self, warp: usize, v: &Vector, src: &[Self::Elem]);
}

impl<Sp: Space, D: Storage, L: Layout2, V: Shape2> CopyEndpoint for MemTile<Sp, D, L, V>
where
    D::Elem: Default,
{
    type Elem = D::Elem;
    const ROWS: usize = V::ROWS;
    const COLS: usize = V::COLS;
    const WARPS: Option<usize> = None;
    const ROW_RUN: usize = vector_run(&L::LAYOUT, 1);
    const COL_RUN: usize = vector_run(&L::LAYOUT, 0);
    const SHARED_LAYOUT: Option<&'static ComposedLayout> =
        if Sp::BANKED { Some(&L::LAYOUT) } else { None };
}

/// Checks (in debug builds) that a vector is contiguous in a memory tile.
#[inline(always)]
fn debug_check_contiguous<Sp: Space, D, L: Layout2, V: Shape2>(
    tile: &MemTile<Sp, D, L, V>,
    v: &Vector,
    first: usize,
) {
    if cfg!(debug_assertions) {
        let (r0, c0) = tile.origin();
        for t in 0..v.len {
            let (i, j) = v.element(t);
            debug_assert_eq!(
                L::offset(r0 + i, c0 + j),
                first + t,
                "vector not contiguous"
            );
        }
        debug_assert_eq!(first % v.len, 0, "vector not aligned");
    }
}

impl<Sp: Space, D: Storage, L: Layout2, V: Shape2> CopySource for MemTile<Sp, D, L, V>
where
    D::Elem: Default,
{
    #[inline(always)]
    fn read(&self, _warp: usize, i: usize, j: usize) -> Self::Elem {
        self.get(i, j)
    }

    #[inline(always)]
    fn load<'a>(
        &'a self,
        _warp: usize,
        v: &Vector,
        _staging: &'a mut [Self::Elem; VECTOR_BYTES],
    ) -> &'a [Self::Elem] {
        let first = self.offset_in_range(v.row, v.col);
        debug_check_contiguous(self, v, first);
        // (the layout's extent, `COSIZE`, is a constant: with it the range
        // check folds against the constant offsets of the plan)
        &self.storage()[..L::COSIZE][first..first + v.len]
    }
}

impl<Sp: Space, D: StorageMut, L: Layout2, V: Shape2> CopyDest for MemTile<Sp, D, L, V>
where
    D::Elem: Default,
{
    #[inline(always)]
    fn write_vector(&mut self, _warp: usize, v: &Vector, src: &[Self::Elem]) {
        let first = self.offset_in_range(v.row, v.col);
        debug_check_contiguous(self, v, first);
        self.storage_mut()[..L::COSIZE][first..first + v.len].copy_from_slice(&src[..v.len]);
    }
}

/// Register tiles of `N` warps: `regs[warp][lane]` is lane `lane`'s
/// [`RegTile`]; each warp's tile is its region of the copied tile.
impl<D: Storage, B: BaseTile, L: Layout2, const N: usize> CopyEndpoint
    for [[RegTile<D, B, L>; WARP_SIZE]; N]
where
    D::Elem: Default,
{
    type Elem = D::Elem;
    const ROWS: usize = RegTile::<D, B, L>::ROWS;
    const COLS: usize = RegTile::<D, B, L>::COLS;
    const WARPS: Option<usize> = Some(N);
    const ROW_RUN: usize = 1;
    const COL_RUN: usize = 1;
}

impl<D: Storage, B: BaseTile, L: Layout2, const N: usize> CopySource
    for [[RegTile<D, B, L>; WARP_SIZE]; N]
where
    D::Elem: Default,
{
    #[inline(always)]
    fn read(&self, warp: usize, i: usize, j: usize) -> Self::Elem {
        let (lane, reg) = RegTile::<D, B, L>::owner(i % Self::ROWS, j % Self::COLS);
        self[warp][lane].regs()[reg]
    }

    #[inline(always)]
    fn load<'a>(
        &'a self,
        warp: usize,
        v: &Vector,
        staging: &'a mut [Self::Elem; VECTOR_BYTES],
    ) -> &'a [Self::Elem] {
        let lanes = &self[warp];
        for (t, o) in staging[..v.len].iter_mut().enumerate() {
            let (i, j) = v.element(t);
            let (lane, reg) = RegTile::<D, B, L>::owner(i % Self::ROWS, j % Self::COLS);
            *o = lanes[lane].regs()[reg];
        }
        &staging[..v.len]
    }
}

impl<D: StorageMut, B: BaseTile, L: Layout2, const N: usize> CopyDest
    for [[RegTile<D, B, L>; WARP_SIZE]; N]
where
    D::Elem: Default,
{
    #[inline(always)]
    fn write_vector(&mut self, warp: usize, v: &Vector, src: &[Self::Elem]) {
        let lanes = &mut self[warp];
        for (t, s) in src[..v.len].iter().enumerate() {
            let (i, j) = v.element(t);
            let (lane, reg) = RegTile::<D, B, L>::owner(i % Self::ROWS, j % Self::COLS);
            lanes[lane].regs_mut()[reg] = *s;
        }
    }
}

//! `TileIterator`: partitions a tile into sub-tiles of a fixed shape.
//!
//! TileFusion's `GTileIterator` / `STileIterator`: a tile of `R × C` is split
//! into `(R / r) × (C / c)` sub-tiles of `r × c`; `(i, j)` picks one,
//! `(i, _)` and `(_, j)` walk a strip. Each sub-tile is a view on the same
//! storage with the parent's layout (strides, blocks, swizzle), so reading
//! it costs what reading the parent costs.

use core::marker::PhantomData;

use super::matrix::{Layout2, Shape2, TileShape};
use super::tile::{MemTile, Space, Storage, StorageMut};

/// Partitions the tile `T` into sub-tiles of shape `S` (a [`TileShape`]).
///
/// | TileFusion        | here              |
/// |-------------------|-------------------|
/// | `iter(i, j)`      | [`get(i, j)`](Self::get) (and [`get_mut`](Self::get_mut)) |
/// | `iter(i, _)`      | [`row(i)`](Self::row): sub-tiles `(i, 0), (i, 1), …` |
/// | `iter(_, j)`      | [`col(j)`](Self::col): sub-tiles `(0, j), (1, j), …` |
///
/// Sub-tile `(i, j)` has origin `(origin.0 + i·r, origin.1 + j·c)` in the
/// parent's layout and keeps that layout: for a strided parent its element
/// `(a, b)` is at `parent(i·r, j·c) + a·RS + b·CS`.
///
/// # Examples
///
/// ```
/// use tilelayout::gpu::{GlobalTile, Layout2, RowMajor};
/// let data: Vec<u32> = (0..8 * 12).collect();
/// let tiles = GlobalTile::<_, RowMajor<8, 12>>::new(&data[..]).tiles::<4, 3>();
/// assert_eq!((tiles.rows(), tiles.cols()), (2, 4));
/// let t = tiles.get(1, 2);
/// assert_eq!(t.get(0, 0), 4 * 12 + 6); // the parent's (4, 6)
/// assert_eq!(t.get(1, 2), 5 * 12 + 8); // strides (12, 1) kept
/// // the strip (1, _)
/// let firsts: Vec<u32> = tiles.row(1).map(|t| t.get(0, 0)).collect();
/// assert_eq!(firsts, [48, 51, 54, 57]);
/// // sub-tiles partition again
/// let inner = tiles.get(1, 2).tiles::<2, 3>();
/// assert_eq!(inner.get(1, 0).get(0, 0), 6 * 12 + 6);
/// ```
///
/// # Compile-time errors
///
/// The sub-tile shape must divide the tile:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{GlobalTile, RowMajor};
/// let data = [0u8; 64];
/// let tiles = GlobalTile::<_, RowMajor<8, 8>>::new(&data[..]).tiles::<3, 4>();
/// let _ = tiles.get(0, 0);
/// ```
pub struct TileIterator<T, S> {
    tile: T,
    _shape: PhantomData<fn() -> S>,
}

impl<T: core::fmt::Debug, S> core::fmt::Debug for TileIterator<T, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TileIterator")
            .field("tile", &self.tile)
            .finish()
    }
}

impl<Sp, D, L, V, const R: usize, const C: usize>
    TileIterator<MemTile<Sp, D, L, V>, TileShape<R, C>>
where
    Sp: Space,
    D: Storage,
    L: Layout2,
    V: Shape2,
{
    const CHECK: () = {
        assert!(
            R > 0 && C > 0,
            "TileIterator<MemTile, TileShape<r, c>> requires a non-empty sub-tile shape"
        );
        assert!(
            V::ROWS % R == 0,
            "TileIterator<MemTile, TileShape<r, c>> requires r to divide the tile's rows: choose a sub-tile shape that divides the tile"
        );
        assert!(
            V::COLS % C == 0,
            "TileIterator<MemTile, TileShape<r, c>> requires c to divide the tile's columns: choose a sub-tile shape that divides the tile"
        );
    };

    /// Number of sub-tiles along the rows, `V::ROWS / R`.
    pub const ROWS: usize = {
        let () = Self::CHECK;
        V::ROWS / R
    };

    /// Number of sub-tiles along the columns, `V::COLS / C`.
    pub const COLS: usize = {
        let () = Self::CHECK;
        V::COLS / C
    };

    /// Partitions `tile`.
    pub fn new(tile: MemTile<Sp, D, L, V>) -> Self {
        let () = Self::CHECK;
        Self {
            tile,
            _shape: PhantomData,
        }
    }

    /// Returns [`ROWS`](Self::ROWS), the number of sub-tiles along the rows.
    #[must_use]
    pub fn rows(&self) -> usize {
        Self::ROWS
    }

    /// Returns [`COLS`](Self::COLS), the number of sub-tiles along the columns.
    #[must_use]
    pub fn cols(&self) -> usize {
        Self::COLS
    }

    /// Returns the partitioned tile.
    pub fn into_inner(self) -> MemTile<Sp, D, L, V> {
        self.tile
    }

    /// Returns the origin of sub-tile `(i, j)` in the layout.
    #[track_caller]
    fn sub_origin(&self, i: usize, j: usize) -> (usize, usize) {
        assert!(
            i < Self::ROWS && j < Self::COLS,
            "TileIterator: sub-tile (i, j) out of range"
        );
        let (r0, c0) = self.tile.origin();
        (r0 + i * R, c0 + j * C)
    }

    /// Returns sub-tile `(i, j)` (TileFusion's `iter(i, j)`).
    ///
    /// # Panics
    ///
    /// If `i >= ROWS` or `j >= COLS`.
    #[track_caller]
    pub fn get(&self, i: usize, j: usize) -> MemTile<Sp, &[D::Elem], L, TileShape<R, C>> {
        let (r0, c0) = self.sub_origin(i, j);
        MemTile::<Sp, &[D::Elem], L, V>::window(self.tile.storage(), r0, c0)
    }

    /// Returns the strip `(i, _)`: sub-tiles `(i, 0)`, `(i, 1)`, …
    ///
    /// # Panics
    ///
    /// If `i >= ROWS`.
    #[track_caller]
    pub fn row(
        &self,
        i: usize,
    ) -> impl ExactSizeIterator<Item = MemTile<Sp, &[D::Elem], L, TileShape<R, C>>> + '_ {
        assert!(i < Self::ROWS, "TileIterator: strip row out of range");
        (0..Self::COLS).map(move |j| self.get(i, j))
    }

    /// Returns the strip `(_, j)`: sub-tiles `(0, j)`, `(1, j)`, …
    ///
    /// # Panics
    ///
    /// If `j >= COLS`.
    #[track_caller]
    pub fn col(
        &self,
        j: usize,
    ) -> impl ExactSizeIterator<Item = MemTile<Sp, &[D::Elem], L, TileShape<R, C>>> + '_ {
        assert!(j < Self::COLS, "TileIterator: strip column out of range");
        (0..Self::ROWS).map(move |i| self.get(i, j))
    }
}

impl<Sp, D, L, V, const R: usize, const C: usize>
    TileIterator<MemTile<Sp, D, L, V>, TileShape<R, C>>
where
    Sp: Space,
    D: StorageMut,
    L: Layout2,
    V: Shape2,
{
    /// Returns sub-tile `(i, j)` for writing.
    ///
    /// ```
    /// use tilelayout::gpu::{GlobalTile, RowMajor};
    /// let mut data = [0u8; 16];
    /// let mut tiles = GlobalTile::<_, RowMajor<4, 4>>::new(&mut data[..]).tiles::<2, 2>();
    /// tiles.get_mut(1, 0).fill(7);
    /// assert_eq!(data, [0, 0, 0, 0, 0, 0, 0, 0, 7, 7, 0, 0, 7, 7, 0, 0]);
    /// ```
    ///
    /// # Panics
    ///
    /// If `i >= ROWS` or `j >= COLS`.
    #[track_caller]
    pub fn get_mut(
        &mut self,
        i: usize,
        j: usize,
    ) -> MemTile<Sp, &mut [D::Elem], L, TileShape<R, C>> {
        let (r0, c0) = self.sub_origin(i, j);
        MemTile::<Sp, &mut [D::Elem], L, V>::window(self.tile.storage_mut(), r0, c0)
    }
}

impl<Sp: Space, D: Storage, L: Layout2, V: Shape2> MemTile<Sp, D, L, V> {
    /// Partitions this tile into sub-tiles of `R × C` (TileFusion's
    /// `TileIterator<MemTile, TileShape<R, C>>`); see [`TileIterator`].
    pub fn tiles<const R: usize, const C: usize>(self) -> TileIterator<Self, TileShape<R, C>> {
        TileIterator::new(self)
    }
}

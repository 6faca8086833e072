//! Global and shared memory tiles: typed views over slices.
//!
//! A tile is storage plus a layout: element `(i, j)` lives at
//! `L::offset(i, j)` of the storage. On a GPU the memory space matters; on the
//! CPU it is a marker ([`Global`], [`Shared`]) that keeps the two apart in
//! signatures, as TileFusion's `GlobalTile` and `SharedTile` do.

use core::marker::PhantomData;

use super::matrix::{Layout2, Shape2};
use super::sealed::Sealed;

// ---------------------------------------------------------------------------
// Storage
// ---------------------------------------------------------------------------

/// Something that holds a slice of elements: `&[T]`, `&mut [T]`, `[T; N]`,
/// `&[T; N]`, `&mut [T; N]` and (with `alloc`) `Vec<T>`.
///
/// Arrays and references to arrays keep their length in the type, which
/// lets the compiler drop bounds checks it can prove.
///
/// A tile is generic over its storage so the same type reads a borrowed
/// slice, writes a mutable one, or owns an array (register storage).
pub trait Storage {
    /// The element type.
    type Elem: Copy;
    /// Returns the elements.
    fn as_slice(&self) -> &[Self::Elem];
}

/// [`Storage`] that can be written.
pub trait StorageMut: Storage {
    /// Returns the elements, mutably.
    fn as_mut_slice(&mut self) -> &mut [Self::Elem];
}

impl<T: Copy> Storage for &[T] {
    type Elem = T;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        self
    }
}

impl<T: Copy> Storage for &mut [T] {
    type Elem = T;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        self
    }
}

impl<T: Copy> StorageMut for &mut [T] {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}

impl<T: Copy, const N: usize> Storage for [T; N] {
    type Elem = T;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        self
    }
}

impl<T: Copy, const N: usize> StorageMut for [T; N] {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}

impl<T: Copy, const N: usize> Storage for &[T; N] {
    type Elem = T;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        *self
    }
}

impl<T: Copy, const N: usize> Storage for &mut [T; N] {
    type Elem = T;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        *self
    }
}

impl<T: Copy, const N: usize> StorageMut for &mut [T; N] {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        *self
    }
}

#[cfg(feature = "alloc")]
impl<T: Copy> Storage for alloc::vec::Vec<T> {
    type Elem = T;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        self
    }
}

#[cfg(feature = "alloc")]
impl<T: Copy> StorageMut for alloc::vec::Vec<T> {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}

// ---------------------------------------------------------------------------
// Memory spaces
// ---------------------------------------------------------------------------

/// A memory space marker: [`Global`] or [`Shared`].
pub trait Space: Sealed {
    /// The space's name, for messages.
    const NAME: &'static str;
    /// Whether accesses are served by banks (shared memory), so that a
    /// copy plan counts their conflicts.
    const BANKED: bool;
}

/// Global (device) memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Global;

/// Shared memory (of a thread block).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Shared;

impl Sealed for Global {}
impl Sealed for Shared {}
impl Space for Global {
    const NAME: &'static str = "global";
    const BANKED: bool = false;
}
impl Space for Shared {
    const NAME: &'static str = "shared";
    const BANKED: bool = true;
}

/// A marker that owns nothing and is `Send + Sync` whatever `T` is.
type Phantom<T> = PhantomData<fn() -> T>;

// ---------------------------------------------------------------------------
// Tiles
// ---------------------------------------------------------------------------

/// A tile in memory space `Sp`: storage `D` laid out by `L`, seen through a
/// window of shape `V` (the whole layout by default).
///
/// Element `(i, j)` of the view, `i < V::ROWS`, `j < V::COLS`, is element
/// `(row0 + i, col0 + j)` of the layout, at storage offset
/// `L::offset(row0 + i, col0 + j)`. A whole tile has origin `(0, 0)` and
/// `V = L`; the sub-tiles of a [`TileIterator`](super::TileIterator) keep the parent's `L` (its
/// strides, blocks and swizzle) and get `V = TileShape<r, c>` and an origin.
///
/// # Invariants
///
/// - the storage holds at least `L::COSIZE` elements (checked by
///   [`new`](Self::new)), so every offset of the layout is in bounds;
/// - the window lies inside the layout: `row0 + V::ROWS <= L::ROWS`,
///   `col0 + V::COLS <= L::COLS`, and the origin is a multiple of the window
///   shape (sub-tiles are only made by [`TileIterator`](super::TileIterator)).
///
/// Use the aliases [`GlobalTile`] and [`SharedTile`].
///
/// # Examples
///
/// ```
/// use tilelayout::gpu::{GlobalTile, RowMajor, SharedTile, SwizzledRowMajor, Bytes128};
/// let data: Vec<f32> = (0..64 * 64).map(|x| x as f32).collect();
/// let g = GlobalTile::<_, RowMajor<64, 64>>::new(&data[..]);
/// assert_eq!(g.get(2, 3), 131.0);
///
/// let mut buf = [0.0f32; 64 * 64];
/// let mut s = SharedTile::<_, SwizzledRowMajor<f32, Bytes128, 64, 64>>::new(&mut buf[..]);
/// s.set(9, 37, 1.5);
/// assert_eq!(s.get(9, 37), 1.5);
/// // row 9, 16-byte chunk 37 / 4 = 9 is stored at chunk 9 ^ (9 mod 8) = 8
/// assert_eq!(buf[9 * 64 + 8 * 4 + 1], 1.5);
/// ```
pub struct MemTile<Sp, D, L, V = L> {
    data: D,
    row0: usize,
    col0: usize,
    _marker: Phantom<(Sp, L, V)>,
}

/// A tile in global memory: `MemTile<Global, D, L, V>`.
pub type GlobalTile<D, L, V = L> = MemTile<Global, D, L, V>;

/// A tile in shared memory: `MemTile<Shared, D, L, V>`; `L` is its physical
/// layout, e.g. [`SwizzledRowMajor`](super::SwizzledRowMajor) for a swizzled
/// tile (TileFusion's `is_swizzled = true`) or `RowMajor` for a plain one.
pub type SharedTile<D, L, V = L> = MemTile<Shared, D, L, V>;

impl<Sp, D: Clone, L, V> Clone for MemTile<Sp, D, L, V> {
    fn clone(&self) -> Self {
        Self {
            data: self.data.clone(),
            row0: self.row0,
            col0: self.col0,
            _marker: PhantomData,
        }
    }
}

impl<Sp, D: Copy, L, V> Copy for MemTile<Sp, D, L, V> {}

impl<Sp: Space, D, L: Layout2, V: Shape2> core::fmt::Debug for MemTile<Sp, D, L, V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MemTile")
            .field("space", &Sp::NAME)
            .field("layout", &format_args!("{}", L::LAYOUT))
            .field("rows", &V::ROWS)
            .field("cols", &V::COLS)
            .field("origin", &(self.row0, self.col0))
            .finish()
    }
}

impl<Sp: Space, D: Storage, L: Layout2> MemTile<Sp, D, L> {
    /// Returns the whole tile over `data`.
    ///
    /// # Panics
    ///
    /// If `data` holds fewer than `L::COSIZE` elements.
    #[track_caller]
    pub fn new(data: D) -> Self {
        match Self::try_new(data) {
            Some(t) => t,
            None => panic!("tile storage is shorter than the layout's COSIZE"),
        }
    }

    /// Returns the whole tile over `data`, or `None` if `data` holds fewer
    /// than `L::COSIZE` elements.
    pub fn try_new(data: D) -> Option<Self> {
        if data.as_slice().len() < L::COSIZE {
            return None;
        }
        Some(Self {
            data,
            row0: 0,
            col0: 0,
            _marker: PhantomData,
        })
    }
}

impl<Sp: Space, D, L: Layout2, V: Shape2> MemTile<Sp, D, L, V> {
    /// Number of rows of the view.
    pub const ROWS: usize = V::ROWS;
    /// Number of columns of the view.
    pub const COLS: usize = V::COLS;

    /// Returns a view on the same storage (sub-tile constructor for
    /// [`TileIterator`](super::TileIterator); the caller keeps the invariants).
    pub(crate) fn window<W: Shape2>(data: D, row0: usize, col0: usize) -> MemTile<Sp, D, L, W> {
        debug_assert!(row0 + W::ROWS <= L::ROWS && col0 + W::COLS <= L::COLS);
        MemTile {
            data,
            row0,
            col0,
            _marker: PhantomData,
        }
    }

    /// Returns the origin of this view in the layout, `(row0, col0)`.
    #[must_use]
    pub fn origin(&self) -> (usize, usize) {
        (self.row0, self.col0)
    }

    /// Returns the storage offset of element `(i, j)`.
    ///
    /// # Panics
    ///
    /// If `i >= V::ROWS` or `j >= V::COLS`.
    #[inline(always)]
    #[track_caller]
    #[must_use]
    pub fn offset(&self, i: usize, j: usize) -> usize {
        assert!(i < V::ROWS && j < V::COLS, "tile index (i, j) out of range");
        L::offset(self.row0 + i, self.col0 + j)
    }

    /// [`offset`](Self::offset) for callers that already know `(i, j)` is in
    /// range (a copy plan); out of range it is only checked in debug builds,
    /// and the storage access after it is still bounds-checked.
    #[inline(always)]
    pub(crate) fn offset_in_range(&self, i: usize, j: usize) -> usize {
        debug_assert!(i < V::ROWS && j < V::COLS, "tile index (i, j) out of range");
        L::offset(self.row0 + i, self.col0 + j)
    }

    /// Returns the storage.
    pub fn into_inner(self) -> D {
        self.data
    }
}

impl<Sp: Space, D: Storage, L: Layout2, V: Shape2> MemTile<Sp, D, L, V> {
    /// Returns element `(i, j)`.
    ///
    /// # Panics
    ///
    /// If `i >= V::ROWS` or `j >= V::COLS`.
    #[inline(always)]
    #[track_caller]
    #[must_use]
    pub fn get(&self, i: usize, j: usize) -> D::Elem {
        self.data.as_slice()[self.offset(i, j)]
    }

    /// Returns the whole storage (all of it, not only this view's elements).
    pub fn storage(&self) -> &[D::Elem] {
        self.data.as_slice()
    }

    /// Returns a shared view of the same window.
    pub fn reborrow(&self) -> MemTile<Sp, &[D::Elem], L, V> {
        MemTile {
            data: self.data.as_slice(),
            row0: self.row0,
            col0: self.col0,
            _marker: PhantomData,
        }
    }
}

impl<Sp: Space, D: StorageMut, L: Layout2, V: Shape2> MemTile<Sp, D, L, V> {
    /// Sets element `(i, j)` to `value`.
    ///
    /// # Panics
    ///
    /// If `i >= V::ROWS` or `j >= V::COLS`.
    #[inline(always)]
    #[track_caller]
    pub fn set(&mut self, i: usize, j: usize, value: D::Elem) {
        let o = self.offset(i, j);
        self.data.as_mut_slice()[o] = value;
    }

    /// Returns the whole storage, mutably.
    pub fn storage_mut(&mut self) -> &mut [D::Elem] {
        self.data.as_mut_slice()
    }

    /// Returns a mutable view of the same window.
    pub fn reborrow_mut(&mut self) -> MemTile<Sp, &mut [D::Elem], L, V> {
        MemTile {
            data: self.data.as_mut_slice(),
            row0: self.row0,
            col0: self.col0,
            _marker: PhantomData,
        }
    }

    /// Sets every element of the view to `value`.
    pub fn fill(&mut self, value: D::Elem) {
        for i in 0..V::ROWS {
            for j in 0..V::COLS {
                self.set(i, j, value);
            }
        }
    }
}

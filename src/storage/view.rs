//! Borrowed views over the storage of a runtime layout.

use core::marker::PhantomData;

use super::element::Element;
use super::error::StorageError;
use super::iter::{LogicalIter, MemoryIter};
use super::meta::{CompiledShape, Meta};
use crate::value::{Shape, Tiling};

/// A read-only view of an array stored in a runtime layout: element type
/// `E` over a slice of `E::Unit` (the element itself, or `u8` for packed
/// sub-byte types). It borrows both the storage and the
/// [`CompiledShape`], so it is a few words and `Copy`.
///
/// # Examples
/// The bf16 pairing of `(8,128)(2,1)`: the two bf16 in each 32-bit word are
/// rows `2k` and `2k+1` of one column.
/// ```
/// use half::bf16;
/// use tilelayout::storage::{CompiledShape, TiledView};
/// use tilelayout::value::parse_shape;
/// let s = CompiledShape::new(&parse_shape("bf16[8,128]{1,0:T(8,128)(2,1)}")?)?;
/// let units: Vec<bf16> = (0..1024).map(|i| bf16::from_f32(i as f32)).collect();
/// let v = TiledView::<bf16>::new(&s, &units)?;
/// assert_eq!(v.slot_of(&[0, 5])?, 10);
/// assert_eq!(v.slot_of(&[1, 5])?, 11);
/// assert_eq!(v.get(&[1, 5])?, bf16::from_f32(11.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TiledView<'a, E: Element> {
    pub(crate) meta: Meta<'a>,
    pub(crate) units: &'a [E::Unit],
}

/// A mutable view of an array stored in a runtime layout (see
/// [`TiledView`]).
#[derive(Debug)]
pub struct TiledViewMut<'a, E: Element> {
    pub(crate) meta: Meta<'a>,
    pub(crate) units: &'a mut [E::Unit],
    _e: PhantomData<E>,
}

macro_rules! read_api {
    () => {
        /// The shape.
        pub fn shape(&self) -> &'a Shape {
            self.meta.shape()
        }

        /// The compiled tiling.
        pub fn tiling(&self) -> &'a Tiling {
            self.meta.tiling()
        }

        /// Bits per slot in storage (`E(n)`, else the type's byte width).
        pub fn storage_bits(&self) -> u32 {
            self.meta.bits
        }

        /// The storage.
        pub fn units(&self) -> &[E::Unit] {
            self.units
        }

        /// The slot of logical coordinates `index`.
        ///
        /// # Errors
        /// [`StorageError::Index`] for the wrong rank or an out-of-bounds
        /// coordinate.
        pub fn slot_of(&self, index: &[u64]) -> Result<usize, StorageError> {
            self.meta.slot_of(index)
        }

        /// The element at logical coordinates `index`.
        ///
        /// # Errors
        /// As [`Self::slot_of`].
        pub fn get(&self, index: &[u64]) -> Result<E, StorageError> {
            let s = self.meta.slot_of(index)?;
            Ok(E::load(self.units, s, self.meta.bits))
        }

        /// The content of storage slot `slot` (padding included), or `None`
        /// past the end.
        pub fn get_slot(&self, slot: usize) -> Option<E> {
            (slot < self.meta.tiling().slots() as usize)
                .then(|| E::load(self.units, slot, self.meta.bits))
        }

        /// The elements in logical order (row-major over the dims as
        /// written, whatever the layout).
        pub fn iter(&self) -> LogicalIter<'_, E> {
            LogicalIter::new(self.meta, self.units)
        }

        /// `(coordinates, element)` for every non-padding slot, in memory
        /// order.
        pub fn iter_memory(&self) -> MemoryIter<'_, E> {
            MemoryIter::new(self.meta, self.units)
        }
    };
}

impl<'a, E: Element> TiledView<'a, E> {
    /// A view of `units` as an array of `shape`.
    ///
    /// # Errors
    /// In this order ([`CompiledShape::new`] has already rejected a shape
    /// that is invalid, dynamic or not an array):
    /// [`StorageError::ElementType`] if `E` cannot hold its element type;
    /// [`StorageError::ElementSize`] if its storage width is not one `E`
    /// supports; [`StorageError::TooLarge`]; [`StorageError::Length`]
    /// unless `units` has exactly the layout's storage length (`slots`
    /// units, or `bytes` for packed types).
    pub fn new(shape: &'a CompiledShape, units: &'a [E::Unit]) -> Result<Self, StorageError> {
        let meta = Meta::new::<E>(shape)?;
        meta.check_len::<E>(units.len())?;
        Ok(TiledView { meta, units })
    }

    read_api!();
}

impl<'a, E: Element> TiledViewMut<'a, E> {
    /// A mutable view of `units` as an array of `shape`.
    ///
    /// # Errors
    /// As [`TiledView::new`].
    pub fn new(shape: &'a CompiledShape, units: &'a mut [E::Unit]) -> Result<Self, StorageError> {
        let meta = Meta::new::<E>(shape)?;
        meta.check_len::<E>(units.len())?;
        Ok(TiledViewMut {
            meta,
            units,
            _e: PhantomData,
        })
    }

    #[cfg(feature = "alloc")]
    pub(crate) fn from_parts(meta: Meta<'a>, units: &'a mut [E::Unit]) -> Self {
        TiledViewMut {
            meta,
            units,
            _e: PhantomData,
        }
    }

    read_api!();

    /// A read-only view of the same storage.
    pub fn as_view(&self) -> TiledView<'_, E> {
        TiledView {
            meta: self.meta,
            units: self.units,
        }
    }

    /// The storage, mutably.
    pub fn units_mut(&mut self) -> &mut [E::Unit] {
        self.units
    }

    /// Sets the element at logical coordinates `index`; no other element
    /// changes (sub-byte neighbours in the same byte keep their bits).
    ///
    /// # Errors
    /// As [`TiledView::slot_of`].
    pub fn set(&mut self, index: &[u64], v: E) -> Result<(), StorageError> {
        let s = self.meta.slot_of(index)?;
        E::store(self.units, s, self.meta.bits, v);
        Ok(())
    }

    /// Writes `v` into every padding slot (slots no element maps to,
    /// including the `L(n)` tail); elements keep their values. Bits of a
    /// packed last byte past the final slot are left as they are.
    ///
    /// ```
    /// use tilelayout::storage::{CompiledShape, TiledViewMut};
    /// use tilelayout::value::parse_shape;
    /// let s = CompiledShape::new(&parse_shape("s32[3]{0:T(4)}")?)?;
    /// let mut units = [1, 2, 3, 4];
    /// TiledViewMut::<i32>::new(&s, &mut units)?.fill_padding(-1);
    /// assert_eq!(units, [1, 2, 3, -1]);
    /// # Ok::<(), tilelayout::storage::StorageError>(())
    /// ```
    pub fn fill_padding(&mut self, v: E) {
        let t = self.meta.tiling();
        if t.slots() == t.elements() {
            return;
        }
        for slot in 0..t.slots() {
            if let Ok(None) = t.coords(slot) {
                E::store(self.units, slot as usize, self.meta.bits, v);
            }
        }
    }

    /// Writes `v` into every slot, padding included.
    pub fn fill(&mut self, v: E) {
        for slot in 0..self.meta.tiling().slots() as usize {
            E::store(self.units, slot, self.meta.bits, v);
        }
    }
}

//! Borrowed views over the storage of a runtime layout.

use core::marker::PhantomData;
use core::mem::size_of;

use super::element::Element;
use super::error::StorageError;
use super::iter::{LogicalIter, MemoryIter};
use crate::value::{bits_to_bytes, Shape, Tiling};

/// What a view knows about its layout, computed once: the shape, its
/// compiled tiling, the storage width and the storage length in units.
///
/// Invariant: `units` is the exact storage length for `tiling.slots()`
/// slots of `bits` bits, and every slot index fits `usize`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Meta {
    pub(crate) shape: Shape,
    pub(crate) tiling: Tiling,
    pub(crate) bits: u32,
    pub(crate) units: usize,
}

impl Meta {
    /// Checks `shape` against the element type `E` (see
    /// [`TiledView::new`] for the order of the checks).
    pub(crate) fn new<E: Element>(shape: &Shape) -> Result<Meta, StorageError> {
        let tiling = shape.tiling()?;
        if !E::accepts(shape.element_type()) {
            return Err(StorageError::ElementType {
                shape: shape.element_type(),
                element: E::NAME,
            });
        }
        let bits = shape.storage_bits();
        if !E::storage_ok(bits) {
            return Err(StorageError::ElementSize { bits });
        }
        let bytes = bits_to_bytes(tiling.slots(), bits)?;
        let units = bytes / size_of::<E::Unit>() as u64;
        if usize::try_from(tiling.slots()).is_err() || usize::try_from(bytes).is_err() {
            return Err(StorageError::TooLarge);
        }
        Ok(Meta {
            shape: *shape,
            tiling,
            bits: bits as u32,
            units: units as usize,
        })
    }

    pub(crate) fn check_len(&self, found: usize) -> Result<(), StorageError> {
        if found != self.units {
            return Err(StorageError::Length {
                expected: self.units as u64,
                found,
            });
        }
        Ok(())
    }

    /// The slot of `index`, checked.
    pub(crate) fn slot_of(&self, index: &[u64]) -> Result<usize, StorageError> {
        let s = self.tiling.offset(index).map_err(StorageError::Index)?;
        // fits: every slot is < slots(), which fits usize (checked in new)
        Ok(s as usize)
    }
}

/// A read-only view of an array stored in a runtime layout: element type
/// `E` over a slice of `E::Unit` (the element itself, or `u8` for packed
/// sub-byte types).
///
/// # Examples
/// The bf16 pairing of `(8,128)(2,1)`: the two bf16 in each 32-bit word are
/// rows `2k` and `2k+1` of one column.
/// ```
/// use half::bf16;
/// use tilelayout::storage::TiledView;
/// use tilelayout::value::parse_shape;
/// let s = parse_shape("bf16[8,128]{1,0:T(8,128)(2,1)}")?;
/// let units: Vec<bf16> = (0..1024).map(|i| bf16::from_f32(i as f32)).collect();
/// let v = TiledView::<bf16>::new(&s, &units)?;
/// assert_eq!(v.slot_of(&[0, 5])?, 10);
/// assert_eq!(v.slot_of(&[1, 5])?, 11);
/// assert_eq!(v.get(&[1, 5])?, bf16::from_f32(11.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TiledView<'a, E: Element> {
    pub(crate) meta: Meta,
    pub(crate) units: &'a [E::Unit],
}

/// A mutable view of an array stored in a runtime layout (see
/// [`TiledView`]).
#[derive(Debug)]
pub struct TiledViewMut<'a, E: Element> {
    pub(crate) meta: Meta,
    pub(crate) units: &'a mut [E::Unit],
    _e: PhantomData<E>,
}

macro_rules! read_api {
    () => {
        /// The shape.
        pub fn shape(&self) -> &Shape {
            &self.meta.shape
        }

        /// The compiled tiling.
        pub fn tiling(&self) -> &Tiling {
            &self.meta.tiling
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
            (slot < self.meta.tiling.slots() as usize)
                .then(|| E::load(self.units, slot, self.meta.bits))
        }

        /// The elements in logical order (row-major over the dims as
        /// written, whatever the layout).
        pub fn iter(&self) -> LogicalIter<'_, E> {
            LogicalIter::new(&self.meta, self.units)
        }

        /// `(coordinates, element)` for every non-padding slot, in memory
        /// order.
        pub fn iter_memory(&self) -> MemoryIter<'_, E> {
            MemoryIter::new(&self.meta, self.units)
        }
    };
}

impl<'a, E: Element> TiledView<'a, E> {
    /// A view of `units` as an array of `shape`.
    ///
    /// # Errors
    /// In this order: [`StorageError::Shape`] if the shape is invalid,
    /// dynamic or not an array; [`StorageError::ElementType`] if `E` cannot
    /// hold its element type; [`StorageError::ElementSize`] if its storage
    /// width is not one `E` supports; [`StorageError::TooLarge`];
    /// [`StorageError::Length`] unless `units` has exactly the layout's
    /// storage length (`slots` units, or `bytes` for packed types).
    pub fn new(shape: &Shape, units: &'a [E::Unit]) -> Result<Self, StorageError> {
        let meta = Meta::new::<E>(shape)?;
        meta.check_len(units.len())?;
        Ok(TiledView { meta, units })
    }

    read_api!();
}

impl<'a, E: Element> TiledViewMut<'a, E> {
    /// A mutable view of `units` as an array of `shape`.
    ///
    /// # Errors
    /// As [`TiledView::new`].
    pub fn new(shape: &Shape, units: &'a mut [E::Unit]) -> Result<Self, StorageError> {
        let meta = Meta::new::<E>(shape)?;
        meta.check_len(units.len())?;
        Ok(TiledViewMut {
            meta,
            units,
            _e: PhantomData,
        })
    }

    #[cfg(feature = "alloc")]
    pub(crate) fn from_parts(meta: Meta, units: &'a mut [E::Unit]) -> Self {
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
    /// use tilelayout::storage::TiledViewMut;
    /// use tilelayout::value::parse_shape;
    /// let s = parse_shape("s32[3]{0:T(4)}")?;
    /// let mut units = [1, 2, 3, 4];
    /// TiledViewMut::<i32>::new(&s, &mut units)?.fill_padding(-1);
    /// assert_eq!(units, [1, 2, 3, -1]);
    /// # Ok::<(), tilelayout::storage::StorageError>(())
    /// ```
    pub fn fill_padding(&mut self, v: E) {
        let t = &self.meta.tiling;
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
        for slot in 0..self.meta.tiling.slots() as usize {
            E::store(self.units, slot, self.meta.bits, v);
        }
    }
}

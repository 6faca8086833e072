//! An owned array in a runtime layout (`alloc`).

use alloc::vec::Vec;

use super::element::Element;
use super::error::StorageError;
use super::iter::{LogicalIter, MemoryIter};
use super::meta::CompiledShape;
use super::meta::Meta;
use super::view::{TiledView, TiledViewMut};
use crate::value::{Shape, Tiling, MAX_RANK};

/// An array of element type `E` that owns its storage, laid out as `shape`
/// says (padding included).
///
/// # Examples
/// Under `(8,128)(4,1)` four s8 rows share each 32-bit word:
/// ```
/// use tilelayout::storage::TiledArray;
/// use tilelayout::value::parse_shape;
/// let s = parse_shape("s8[8,128]{1,0:T(8,128)(4,1)}")?;
/// let a = TiledArray::<i8>::from_fn(&s, |c| c[0] as i8)?;
/// assert_eq!(&a.units()[..8], &[0, 1, 2, 3, 0, 1, 2, 3]); // column 0, then 1
/// assert_eq!(&a.units()[512..516], &[4, 5, 6, 7]);
/// # Ok::<(), tilelayout::storage::StorageError>(())
/// ```
///
/// The array owns its [`CompiledShape`] (the tiling is compiled once, when
/// the array is made); its views borrow it.
#[derive(Clone, Debug)]
pub struct TiledArray<E: Element> {
    compiled: CompiledShape,
    bits: u32,
    units: Vec<E::Unit>,
}

impl<E: Element> TiledArray<E> {
    /// An array of `shape` with every slot (padding included) set to
    /// `fill`.
    ///
    /// # Errors
    /// As [`TiledView::new`], except that the length is the array's own;
    /// [`StorageError::TooLarge`] also when the allocator cannot provide the
    /// storage (the allocation is fallible: no abort, no panic).
    pub fn new(shape: &Shape, fill: E) -> Result<Self, StorageError> {
        let compiled = CompiledShape::new(shape)?;
        let meta = Meta::new::<E>(&compiled)?;
        let (bits, units) = (meta.bits, zeroed_units::<E>(meta.len::<E>())?);
        let mut a = TiledArray {
            compiled,
            bits,
            units,
        };
        a.view_mut().fill(fill);
        Ok(a)
    }

    /// An array of `shape` over `units`, which must have the layout's
    /// storage length.
    ///
    /// # Errors
    /// As [`TiledView::new`].
    pub fn from_units(shape: &Shape, units: Vec<E::Unit>) -> Result<Self, StorageError> {
        let compiled = CompiledShape::new(shape)?;
        let meta = Meta::new::<E>(&compiled)?;
        meta.check_len::<E>(units.len())?;
        let bits = meta.bits;
        Ok(TiledArray {
            compiled,
            bits,
            units,
        })
    }

    /// An array of `shape` whose element at coordinates `c` is `f(c)`;
    /// padding holds zero units (all bits clear).
    ///
    /// # Errors
    /// As [`TiledArray::new`].
    pub fn from_fn(shape: &Shape, mut f: impl FnMut(&[u64]) -> E) -> Result<Self, StorageError> {
        let compiled = CompiledShape::new(shape)?;
        let meta = Meta::new::<E>(&compiled)?;
        let mut units = zeroed_units::<E>(meta.len::<E>())?;
        let t = meta.tiling();
        let rank = t.rank();
        let logical = shape.static_dims()?;
        let mut c = [0u64; MAX_RANK];
        for _ in 0..t.elements() {
            let slot = t.offset_unchecked(&c[..rank]) as usize;
            E::store(&mut units, slot, meta.bits, f(&c[..rank]));
            let mut d = rank;
            while d > 0 {
                d -= 1;
                c[d] += 1;
                if c[d] < logical[d] {
                    break;
                }
                c[d] = 0;
            }
        }
        let bits = meta.bits;
        Ok(TiledArray {
            compiled,
            bits,
            units,
        })
    }

    /// The shape.
    pub fn shape(&self) -> &Shape {
        self.compiled.shape()
    }

    /// The compiled tiling.
    pub fn tiling(&self) -> &Tiling {
        self.compiled.tiling()
    }

    /// The compiled shape, which the array's views borrow.
    pub fn compiled(&self) -> &CompiledShape {
        &self.compiled
    }

    /// What the views need: the compiled shape, checked for `E` when the
    /// array was made (same width, same length).
    fn meta(&self) -> Meta<'_> {
        Meta {
            compiled: &self.compiled,
            bits: self.bits,
        }
    }

    /// The storage.
    pub fn units(&self) -> &[E::Unit] {
        &self.units
    }

    /// The storage, mutably.
    pub fn units_mut(&mut self) -> &mut [E::Unit] {
        &mut self.units
    }

    /// The storage, given up.
    pub fn into_units(self) -> Vec<E::Unit> {
        self.units
    }

    /// A read-only view.
    pub fn view(&self) -> TiledView<'_, E> {
        TiledView {
            meta: self.meta(),
            units: &self.units,
        }
    }

    /// A mutable view.
    pub fn view_mut(&mut self) -> TiledViewMut<'_, E> {
        let meta = Meta {
            compiled: &self.compiled,
            bits: self.bits,
        };
        TiledViewMut::from_parts(meta, &mut self.units)
    }

    /// The element at `index`.
    ///
    /// # Errors
    /// [`StorageError::Index`].
    pub fn get(&self, index: &[u64]) -> Result<E, StorageError> {
        self.view().get(index)
    }

    /// Sets the element at `index`.
    ///
    /// # Errors
    /// [`StorageError::Index`].
    pub fn set(&mut self, index: &[u64], v: E) -> Result<(), StorageError> {
        self.view_mut().set(index, v)
    }

    /// Writes `v` into every padding slot.
    pub fn fill_padding(&mut self, v: E) {
        self.view_mut().fill_padding(v)
    }

    /// The elements in logical order.
    pub fn iter(&self) -> LogicalIter<'_, E> {
        LogicalIter::new(self.meta(), &self.units)
    }

    /// `(coordinates, element)` for every non-padding slot, in memory
    /// order.
    pub fn iter_memory(&self) -> MemoryIter<'_, E> {
        MemoryIter::new(self.meta(), &self.units)
    }
}

/// `n` default units, allocated fallibly.
fn zeroed_units<E: Element>(n: usize) -> Result<Vec<E::Unit>, StorageError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| StorageError::TooLarge)?;
    v.resize(n, E::Unit::default());
    Ok(v)
}

impl<E: Element> PartialEq for TiledArray<E> {
    /// Same shape and same storage (padding included).
    fn eq(&self, other: &Self) -> bool {
        self.compiled.shape() == other.compiled.shape() && self.units == other.units
    }
}

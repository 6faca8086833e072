//! What a view knows about its layout (the compiled shape, and the width
//! checked for its element type), computed once and shared by the
//! views, the owned arrays and the iterators (its own file so that the
//! views and the iterators do not import each other).

use core::mem::size_of;

use super::element::Element;
use super::error::StorageError;
use crate::value::{bits_to_bytes, Shape, Tiling};

/// A shape with its tiling compiled once: what views borrow and owned
/// arrays own, so that a view is a few words (a reference to this, the
/// storage slice and the storage width), not a copy of the tiling.
///
/// Invariant: `tiling` is `shape.tiling()`.
///
/// ```
/// use tilelayout::storage::{CompiledShape, TiledView};
/// use tilelayout::value::parse_shape;
/// let c = CompiledShape::new(&parse_shape("f32[3,5]{1,0:T(2,2)}")?)?;
/// let units = [0.0f32; 24];
/// let v = TiledView::<f32>::new(&c, &units)?;
/// assert_eq!(v.slot_of(&[2, 3])?, 17);
/// # Ok::<(), tilelayout::storage::StorageError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompiledShape {
    shape: Shape,
    tiling: Tiling,
}

impl CompiledShape {
    /// Validates `shape` and compiles its tiling.
    ///
    /// # Errors
    /// [`StorageError::Shape`] if the shape is invalid, dynamic or not an
    /// array.
    pub fn new(shape: &Shape) -> Result<CompiledShape, StorageError> {
        Ok(CompiledShape {
            shape: *shape,
            tiling: shape.tiling()?,
        })
    }

    /// From a shape and its tiling, already compiled (layout types' own
    /// constants). Pre: `tiling` is `shape.tiling()`.
    pub(crate) const fn from_parts(shape: Shape, tiling: Tiling) -> CompiledShape {
        CompiledShape { shape, tiling }
    }

    /// The shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The compiled tiling.
    pub fn tiling(&self) -> &Tiling {
        &self.tiling
    }
}

/// What a view adds to its compiled shape, checked for the element type
/// once: the storage width.
///
/// Invariant: `compiled`'s element type and `bits` suit the view's element
/// type; the storage length (`Meta::len`) and every slot index fit
/// `usize`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Meta<'a> {
    pub(crate) compiled: &'a CompiledShape,
    pub(crate) bits: u32,
}

impl<'a> Meta<'a> {
    /// Checks `compiled` against the element type `E` (see
    /// [`TiledView::new`](super::TiledView::new) for the order of the checks).
    pub(crate) fn new<E: Element>(compiled: &'a CompiledShape) -> Result<Self, StorageError> {
        let shape = &compiled.shape;
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
        let slots = compiled.tiling.slots();
        let bytes = bits_to_bytes(slots, bits)?;
        if usize::try_from(slots).is_err() || usize::try_from(bytes).is_err() {
            return Err(StorageError::TooLarge);
        }
        Ok(Meta {
            compiled,
            bits: bits as u32,
        })
    }

    /// The storage length in units of `E` (the element type `new` checked).
    pub(crate) fn len<E: Element>(&self) -> usize {
        let slots = self.compiled.tiling.slots();
        // fits: checked in `new`
        let bytes = bits_to_bytes(slots, self.bits as u64).unwrap_or(0);
        (bytes / size_of::<E::Unit>() as u64) as usize
    }

    pub(crate) fn tiling(&self) -> &'a Tiling {
        &self.compiled.tiling
    }

    pub(crate) fn shape(&self) -> &'a Shape {
        &self.compiled.shape
    }

    pub(crate) fn check_len<E: Element>(&self, found: usize) -> Result<(), StorageError> {
        let expected = self.len::<E>();
        if found != expected {
            return Err(StorageError::Length {
                expected: expected as u64,
                found,
            });
        }
        Ok(())
    }

    /// The slot of `index`, checked.
    pub(crate) fn slot_of(&self, index: &[u64]) -> Result<usize, StorageError> {
        let s = self.tiling().offset(index).map_err(StorageError::Index)?;
        // fits: every slot is < slots(), which fits usize (checked in new)
        Ok(s as usize)
    }
}

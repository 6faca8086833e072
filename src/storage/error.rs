//! The one error type of the storage module.

use core::fmt;

use crate::value::{Error, PrimitiveType};

/// Why a view, an array or a relayout plan could not be made or used.
///
/// Map: construction checks the shape ([`StorageError::Shape`]), then the
/// element type against the Rust type ([`StorageError::ElementType`],
/// [`StorageError::ElementSize`]), then the storage length
/// ([`StorageError::Length`]); access checks coordinates
/// ([`StorageError::Index`]); plans check that both sides describe the same
/// logical array ([`StorageError::DimsMismatch`],
/// [`StorageError::WidthMismatch`], [`StorageError::Strides`]).
///
/// # Examples
/// ```
/// use tilelayout::storage::{CompiledShape, StorageError, TiledView};
/// use tilelayout::value::parse_shape;
/// let s = CompiledShape::new(&parse_shape("f32[3,5]{1,0:T(2,2)}")?)?;
/// let e = TiledView::<f32>::new(&s, &[0.0; 15]).unwrap_err();
/// assert_eq!(e, StorageError::Length { expected: 24, found: 15 });
/// assert_eq!(e.to_string(), "storage has 15 units, the layout needs 24");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StorageError {
    /// The shape is invalid, dynamic or not an array (the core's error).
    Shape(Error),
    /// Coordinates of the wrong rank or out of bounds (the core's
    /// `IndexRank` / `IndexOutOfBounds`).
    Index(Error),
    /// The storage slice does not have the length the layout needs
    /// (`slots` units for whole-byte elements, `bytes` for packed ones).
    Length {
        /// Units the layout needs.
        expected: u64,
        /// Units given.
        found: usize,
    },
    /// The Rust element type cannot hold the shape's element type.
    ElementType {
        /// The shape's element type.
        shape: PrimitiveType,
        /// The Rust type's name.
        element: &'static str,
    },
    /// The storage width (`E(n)`, else the type's byte width) is not one the
    /// element type can be stored in ([`super::Packing`]): whole-byte types
    /// need their own width; integers take 1, 2, 4 or 8 bits; `bool` any
    /// power of two up to 128.
    ElementSize {
        /// The storage width in bits.
        bits: u64,
    },
    /// A size does not fit `usize` on this target, or the allocator cannot
    /// provide the storage.
    TooLarge,
    /// A relayout between arrays of different logical dims.
    DimsMismatch,
    /// A relayout between two tiled layouts of different element types
    /// (`f32` → `s32`, `bf16` → `f16`): the bits would be reinterpreted.
    /// [`super::RelayoutPlan::reinterpret`] asks for that explicitly.
    ElementTypeMismatch {
        /// The source's element type.
        src: PrimitiveType,
        /// The destination's element type.
        dst: PrimitiveType,
    },
    /// A relayout between different storage widths.
    WidthMismatch {
        /// Source bits per element.
        src: u64,
        /// Destination bits per element.
        dst: u64,
    },
    /// A strided description with a stride list of the wrong length, or
    /// whose largest offset overflows.
    Strides,
    /// A CuTe layout that cannot be relayout storage
    /// ([`super::CuteStorage::new`]).
    CuteLayout {
        /// The integer mode (flattened leaf, first is 0) at fault, if one is.
        leaf: Option<u32>,
        /// What is wrong.
        problem: &'static str,
    },
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Shape(e) => write!(f, "invalid shape: {e}"),
            StorageError::Index(e) => write!(f, "bad coordinates: {}", e.message().as_str()),
            StorageError::Length { expected, found } => {
                write!(f, "storage has {found} units, the layout needs {expected}")
            }
            StorageError::ElementType { shape, element } => {
                write!(f, "a {shape} array cannot be accessed as {element}")
            }
            StorageError::ElementSize { bits } => {
                write!(
                    f,
                    "storage width of {bits} bits is not supported for this element type"
                )
            }
            StorageError::TooLarge => {
                f.write_str("size does not fit usize on this target or cannot be allocated")
            }
            StorageError::DimsMismatch => f.write_str("source and destination have different dims"),
            StorageError::ElementTypeMismatch { src, dst } => write!(
                f,
                "source holds {src}, destination {dst}: a relayout keeps the element type \
                 (RelayoutPlan::reinterpret moves the bits unchanged)"
            ),
            StorageError::WidthMismatch { src, dst } => {
                write!(f, "source stores {src} bits per element, destination {dst}")
            }
            StorageError::CuteLayout { leaf, problem } => match leaf {
                Some(k) => write!(
                    f,
                    "CuTe layout cannot be storage: {problem} at integer mode {k} \
                     (counting leaves from 0)"
                ),
                None => write!(f, "CuTe layout cannot be storage: {problem}"),
            },
            StorageError::Strides => {
                f.write_str("strides must have one entry per dim and keep offsets within u64")
            }
        }
    }
}

impl core::error::Error for StorageError {}

impl From<Error> for StorageError {
    fn from(e: Error) -> Self {
        StorageError::Shape(e)
    }
}

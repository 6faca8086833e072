//! tilelayout.
#![no_std]
#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

/// The runtime model: XLA shapes, layouts and tilings as values, with the
/// parser, printer, validation, sizes and index math (re-exported from
/// `tilelayout-core`, the one implementation the types and the `layout!`
/// macro also evaluate).
pub mod value {
    pub use tilelayout_core::*;
}

/// Storage for runtime layouts: views and owned arrays over tiled buffers,
/// packed sub-byte elements, and relayout between strided and tiled
/// layouts at memory speed.
pub mod storage;

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

/// TPU formats: the tiles XLA's TPU compiler gives an array (named
/// formats, the policy calibrated on compiler output, padding reports).
pub mod tpu;

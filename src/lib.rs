//! tilelayout.
#![no_std]
#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;
pub use tilelayout_core as core_model;
/// GPU tiles: TileFusion's concepts (tiles, layouts, swizzle, register tiles, iterators, copy plans) on CuTe's definitions.
pub mod gpu;

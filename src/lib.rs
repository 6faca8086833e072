//! tilelayout.
#![no_std]
#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;
pub use tilelayout_core as core_model;
pub mod gpu;

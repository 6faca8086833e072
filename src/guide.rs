//! A guide to layouts, in pictures: each chapter builds on the last, and
//! every example in it is a test.
//!
//! 1. [An XLA layout](xla_layout): dims, slots, the memory map.
//! 2. [`minor_to_major`]: which dim is contiguous; the
//!    physical dims; stacked grids.
//! 3. [One tile](one_tile): tiles, padding, XLA's Figure 1.
//! 4. [Repeated tiles](repeated_tiles): tiles of tiles, XLA's Figure 2.
//! 5. [Packing](packing): two bf16 in a 32-bit word, two `s4` in a byte.
//! 6. [TPU formats](tpu_formats): the tiles XLA's TPU compiler picks;
//!    pictures of large arrays.
//! 7. [Relayout](relayout): moving an array between layouts.
//! 8. [The layout algebra](layout_algebra): CuTe's layouts and their
//!    operations, swizzles, and XLA tilings lowered into them.
//! 9. [GPU tiles](gpu_tiles): bank groups and the swizzle, register tiles'
//!    lanes, copy plans.
//!
//! The pictures are [`crate::draw`]'s, the same as
//! `tilelayout draw LAYOUT` prints (`--svg FILE` for a coloured one).

#[doc = include_str!("../docs/guide/01-xla-layout.md")]
pub mod xla_layout {}

#[doc = include_str!("../docs/guide/02-minor-to-major.md")]
pub mod minor_to_major {}

#[doc = include_str!("../docs/guide/03-one-tile.md")]
pub mod one_tile {}

#[doc = include_str!("../docs/guide/04-repeated-tiles.md")]
pub mod repeated_tiles {}

#[doc = include_str!("../docs/guide/05-packing.md")]
pub mod packing {}

#[doc = include_str!("../docs/guide/06-tpu-formats.md")]
pub mod tpu_formats {}

#[doc = include_str!("../docs/guide/07-relayout.md")]
pub mod relayout {}

#[doc = include_str!("../docs/guide/08-layout-algebra.md")]
pub mod layout_algebra {}

#[doc = include_str!("../docs/guide/09-gpu-tiles.md")]
pub mod gpu_tiles {}

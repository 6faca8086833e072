//! Element types, in one place at the bottom of the crate: the type-level
//! markers that name an XLA element type in a layout type ([`dtype`]:
//! `F32`, `BF16`, `S4`, … and their trait `Dtype`), and the Rust values
//! arrays hold: Rust's own numbers, [`half`]'s `f16` and `bf16`, and the
//! sub-byte integers [`i4`], [`u4`], [`i2`], [`u2`], [`i1`], [`u1`].
//!
//! The two spellings never meet: markers are XLA's names in capitals (`S4`
//! as in `PrimitiveType::S4`), values are Rust's (`i4` as `i8`, `bf16`).
//! A marker names its value type: `<S4 as Dtype>::Value` is `i4`.
//!
//! This module imports nothing else from the crate (the type layer,
//! storage and the GPU tiles import it), which `tests/module_graph.rs`
//! checks.
//!
//! ```
//! use tilelayout::scalar::{bf16, i4};
//! let x = bf16::from_f32(1.5);
//! let n = i4::new(-8).unwrap();
//! assert_eq!((x.to_f32(), n.get()), (1.5, -8));
//! ```

pub mod dtype;
mod sub_byte;

pub use half::{bf16, f16};
pub use sub_byte::{i1, i2, i4, u1, u2, u4};

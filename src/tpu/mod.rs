//! TPU formats: the layouts XLA's TPU compiler gives arrays, as values, the
//! policy that picks one for a shape, and how much of it is padding.
//!
//! ```
//! use tilelayout::{tpu, value::PrimitiveType};
//! // A named format (a `Layout` with tiles and no `minor_to_major`).
//! assert_eq!(tpu::TILE_16BIT.to_string(), "{:T(8,128)(2,1)}");
//! // The policy: small second-minor dims get small tiles.
//! let s = tpu::tpu_layout(PrimitiveType::BF16, &[2, 1024], None)?;
//! assert_eq!(s.to_string(), "bf16[2,1024]{1,0:T(2,128)(2,1)}");
//! // The padding it costs: f32[3,5] in one (8,128) tile uses 15 of 1024 slots.
//! let r = tpu::padding_report(&tpu::tpu_layout(PrimitiveType::F32, &[3, 5], Some(&[0, 1]))?)?;
//! assert_eq!((r.elements, r.slots, r.padding_bytes), (15, 1024, 4036));
//! // Text in, shape and report out (what `tilelayout tpu` prints).
//! let a = tpu::tpu_layout_for_text("f32[3,5]")?;
//! assert_eq!(a.shape.to_string(), "f32[3,5]{1,0:T(4,128)}");
//! # Ok::<(), tpu::TpuError>(())
//! ```
//!
//! - [`formats`](crate::tpu::formats): the named formats
//!   ([`UNTILED`](crate::tpu::UNTILED), [`TILE_8_128`](crate::tpu::TILE_8_128),
//!   the small tiles, [`TILE_16BIT`](crate::tpu::TILE_16BIT),
//!   [`TILE_8BIT`](crate::tpu::TILE_8BIT), [`TILE_4BIT`](crate::tpu::TILE_4BIT),
//!   [`TILE_1BIT`](crate::tpu::TILE_1BIT)) and their `const fn` builders;
//! - [`policy`](crate::tpu::policy): the rules, with the evidence each rests
//!   on ([`tpu_layout`](crate::tpu::tpu_layout),
//!   [`tpu_choice`](crate::tpu::tpu_choice));
//! - [`padding_report`](crate::tpu::padding_report): exact and XLA bytes,
//!   padding bytes and percent;
//! - [`tpu_layout_for_text`](crate::tpu::tpu_layout_for_text): the CLI's
//!   entry point;
//! - [`check_layout`](crate::tpu::check_layout): whether a tiled layout is
//!   the policy's, and what differs.
//!
//! (Links spell `crate::tpu::…` because this text is joined with the
//! `pub mod tpu` doc in `lib.rs` and resolved from the crate root.)
//!
//! Everything but `Display` and [`check_layout`](crate::tpu::check_layout)
//! is `const fn`, so a type-level alias can call it; nothing allocates.

pub mod formats;
pub mod policy;

mod check;
mod error;
mod padding;
mod query;
mod types;

pub use check::{check_layout, LayoutCheck};
pub use error::TpuError;
pub use formats::{
    element_size_in_bits, packing, tile_1d, tile_2d, tile_scalar, with_minor_to_major, LANES,
    MAX_RANK1_TILE, TILE_16BIT, TILE_1BIT, TILE_1_128, TILE_2_128, TILE_4BIT, TILE_4_128,
    TILE_8BIT, TILE_8_128, UNTILED,
};
pub use padding::{padding_report, PaddingReport};
pub use policy::{
    rank1_tile_len, second_minor_rows, tpu_choice, tpu_choice_for, tpu_layout, Rule, TpuChoice,
};
pub use query::{tpu_layout_for_text, TpuAnswer};
pub use types::{
    Tile16Bit, Tile1Bit, Tile1x128, Tile2x128, Tile4Bit, Tile4x128, Tile8Bit, Tile8x128, TpuAttrs,
    TpuTiled, TpuTiles,
};

//! The one implementation of XLA's tiled-layout semantics: parsing,
//! printing, validation, sizes and index math, as `const fn` over values
//! of fixed capacity. No allocation, no dependencies, no `unsafe`.
//!
//! The `tilelayout` crate re-exports all of this and adds layout *types*
//! on top; its `layout!` macro calls this same code at compile time.
//!
//! # In order
//! 1. **Notation** ([`parse_shape`], [`parse_layout`], [`canonicalize`]):
//!    `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`: element type, dims,
//!    then the layout: `minor_to_major` and the attributes `T` (tiles),
//!    `L`, `E`, `S`, `SC`, `M`. [`Shape`]'s `Display` prints what XLA prints.
//! 2. **Validation** ([`Shape::validate`]): XLA's rules and ours, as a
//!    separate step (XLA prints invalid layouts too).
//! 3. **Physical dims** ([`Tiling::physical_dims`]): the dims read in
//!    `minor_to_major` reversed, most major first.
//! 4. **Tiles** ([`Tiling::dims_after_level`]): each tile splits the most
//!    minor dims into tile-count dims and tile dims; `*` combines dims.
//! 5. **Slots and padding** ([`Tiling::offset`], [`Tiling::coords`]): the
//!    linear index is row-major in the final expanded shape; slots no
//!    element maps to are padding.
//! 6. **Sizes** ([`Shape::sizes`]): exact slots and bytes, and XLA's
//!    `ArraySize`.
//!
//! ```
//! use tilelayout::value::parse_valid_shape;
//! let s = parse_valid_shape("f32[3,5]{1,0:T(2,2)}")?;
//! let t = s.tiling()?;
//! assert_eq!(t.offset(&[2, 3])?, 17);
//! assert_eq!(t.slots(), 24);
//! # Ok::<(), tilelayout::value::Error>(())
//! ```
//!
//! 7. **CuTe's layout algebra** ([`algebra`]): hierarchical shape:stride
//!    layouts, swizzles and CuTe's operations, in CuTe's notation.
//! 8. **Tilings in the algebra** ([`lower`], [`to_xla`]): a tiling as a
//!    CuTe layout over the padded tile grid plus the logical bounds, or
//!    [`Lowered::NotAffine`] with the exact [`Tiling`] when a tile splits
//!    an earlier one unevenly; the layout's leaves with the padding around
//!    them ([`padded_grid`], what the relayout planner loops over); and a
//!    CuTe layout as an XLA shape.
//!
//! # Limits
//! Values have fixed capacity so that they work without an allocator and in
//! `const fn`: [`MAX_RANK`] dims, [`MAX_TILES`] tile levels of at most
//! [`MAX_TILE_RANK`] dims, [`MAX_SPLIT_CONFIGS`] split configs of
//! [`MAX_SPLIT_INDICES`] indices, tilings of at most [`MAX_EXPANDED_RANK`]
//! expanded dims, and tuples nested [`MAX_NESTING`] deep. Real programs use
//! rank ≤ 8 and ≤ 3 tile levels. Exceeding a limit is an error, not a panic.
#![no_std]
#![forbid(unsafe_code)]

pub mod algebra;
mod dtype;
mod error;
mod index;
mod lower;
mod parse;
mod print;
mod program;
mod shape;
mod size;
mod text;
mod tiling;
mod tuple;
mod validate;

pub use dtype::PrimitiveType;
pub use error::{Attr, Error, ErrorKind, Span};
pub use index::{ExpandedDims, Index};
pub use lower::{
    lower, padded_grid, to_xla, AffineTiling, GridLeaf, LowerError, Lowered, NotAffine, PaddedGrid,
    TO_XLA_MAX_RANK,
};
pub use parse::{
    parse_layout, parse_layout_with, parse_shape, parse_shape_with, parse_tile, parse_valid_shape,
    ParseOptions,
};
pub use print::{
    write_attributes, write_layout, write_shape, write_shape_no_layout, write_tile, MAX_TEXT,
};
pub use shape::{Dim, Shape, Spans, SplitConfig, Tile, TileDim, XlaLayout};
pub use size::{bits_to_bytes, Sizes};
pub use text::TextBuf;
pub use tiling::{SlotIter, Tiling};
pub use tuple::{canonicalize, walk, Event};
pub use validate::{check_element_size, validate_tile};

/// The type layer's machinery: the straight-line index program a layout
/// type unrolls. Not API: it may change in any release.
#[doc(hidden)] // reason: internal to `tilelayout`'s layout types
pub mod __private {
    pub use crate::lower::{index_program, tiling_program};
    pub use crate::program::{Op, Program, MAX_OPS, MAX_REGS, NO_REG};
}

/// Most dims in a shape.
pub const MAX_RANK: usize = 16;
/// Most tile levels in a layout.
pub const MAX_TILES: usize = 8;
/// Most dims in one tile.
pub const MAX_TILE_RANK: usize = 16;
/// Most split configs in a layout.
pub const MAX_SPLIT_CONFIGS: usize = 4;
/// Most indices in one split config.
pub const MAX_SPLIT_INDICES: usize = 8;
/// Most dims of a tiling's expanded shape.
pub const MAX_EXPANDED_RANK: usize = 64;
/// Deepest tuple nesting.
pub const MAX_NESTING: usize = 64;

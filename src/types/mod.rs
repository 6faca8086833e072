//! Layouts as types: the type parameters ([`params`]), the element markers
//! ([`element`]) and the [`Layout`] trait with [`Tiled`] ([`layout`]).

pub mod element;
pub mod layout;
pub mod params;

pub use element::*;
pub use layout::{const_offset, Layout, Tiled, Untiled};
pub use params::{
    AttrSet, Attrs, Descending, Dims, MinorToMajor, Order, Shape, Tile, Tiles, COMBINE,
    MAX_TYPE_RANK, T,
};

/// Capacity of a layout type's canonical text: enough for 8 dims, 8 tiles of
/// 8 dims and the attributes, with 20-digit numbers.
pub(crate) const TEXT_CAP: usize = 1024;

// The crate's own invariants, checked when it compiles.
// The type layer's limits fit inside the core's capacities.
static_assertions::const_assert!(params::MAX_TYPE_RANK <= crate::value::MAX_RANK);
static_assertions::const_assert!(params::MAX_TYPE_RANK <= crate::value::MAX_TILES);
static_assertions::const_assert!(params::MAX_TYPE_RANK <= crate::value::MAX_TILE_RANK);
// The canonical text of any layout type fits its buffer: 8 dims, 8 tiles of
// 8 dims, 8 minor_to_major entries (20 bytes each, with separators) and the
// attributes.
static_assertions::const_assert!(TEXT_CAP >= 13 + 8 * 21 + 8 * 21 + 8 * (8 * 21 + 2) + 3 * 24 + 8);
// The `*` marker cannot be confused with an absent parameter.
static_assertions::const_assert_ne!(params::COMBINE, params::NO_DIM);
// Layout types are zero-sized markers, freely copied and shared.
static_assertions::assert_eq_size!(Tiled<F32, Shape<3, 5>, T<2, 2>>, ());
static_assertions::assert_impl_all!(Tiled<BF16, Shape<8, 128>, (T<8, 128>, T<2, 1>)>: Copy, Send, Sync);

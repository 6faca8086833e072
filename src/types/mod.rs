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

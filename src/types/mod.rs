//! Layouts as types: the type parameters ([`params`]), the element markers
//! ([`element`]) and the [`Layout`] trait with [`Tiled`] ([`layout`]);
//! CuTe's layouts as types, [`AlgebraLayout`] with [`Cute`] and the
//! operation types ([`cute`]), and CuTe's layout algebra as operation
//! types ([`cute_ops`]).

pub mod cute;
pub mod cute_ops;
pub mod element;
pub mod layout;
pub mod params;

pub use cute::{AlgebraLayout, Append, Cute, Flatten, FromXla, Get, Leaf, Modes};
pub use cute_ops::{
    BlockedProduct, ByMode, Coalesce, CoalesceBy, Complement, ComplementTo, Composition, Downcast,
    Filter, FlatDivide, LeftInverse, LogicalDivide, LogicalProduct, MaxCommonLayout,
    MaxCommonVector, RakedProduct, RightInverse, ShapeOperand, TileToShape, TiledDivide,
    TiledProduct, TilerMode, TilerModes, TilerOperand, Upcast, ZippedDivide, ZippedProduct, C,
};
pub use element::*;
pub use layout::{const_offset, Layout, Tiled, Untiled};
pub use params::{
    AttrSet, Attrs, Descending, Dims, MinorToMajor, Order, Shape, Tile, Tiles, COMBINE,
    MAX_TYPE_RANK, T,
};

/// Capacity of a layout type's canonical text (each used `TEXT` keeps one
/// buffer of this size in read-only data). Real layouts take under 100
/// bytes; a longer text is a compile error naming this limit.
pub(crate) const TEXT_CAP: usize = 512;

// The crate's own invariants, checked when it compiles.
// The type layer's limits fit inside the core's capacities.
static_assertions::const_assert!(params::MAX_TYPE_RANK <= crate::value::MAX_RANK);
static_assertions::const_assert!(params::MAX_TYPE_RANK <= crate::value::MAX_TILES);
static_assertions::const_assert!(params::MAX_TYPE_RANK <= crate::value::MAX_TILE_RANK);
// Room for a rank-8 layout with three tiles of 5-digit dims and every
// attribute (longer texts are a compile error when `TEXT` is used).
static_assertions::const_assert!(TEXT_CAP >= 13 + 8 * 21 + 8 * 3 + 3 * (8 * 6 + 2) + 3 * 24 + 8);
// The `*` marker cannot be confused with an absent parameter.
static_assertions::const_assert_ne!(params::COMBINE, params::NO_DIM);
// Layout types are zero-sized markers, freely copied and shared.
static_assertions::assert_eq_size!(Tiled<F32, Shape<3, 5>, T<2, 2>>, ());
static_assertions::assert_impl_all!(Tiled<BF16, Shape<8, 128>, (T<8, 128>, T<2, 1>)>: Copy, Send, Sync);

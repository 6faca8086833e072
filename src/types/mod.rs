//! Layouts as types: the type parameters ([`params`]), the element markers
//! ([`crate::scalar::dtype`]), the [`Layout`] trait with [`Tiled`] ([`layout`]) and the
//! [`Verdict`] of its compile-time checks ([`verdict`]);
//! CuTe's layouts as types, [`CuteType`], [`AlgebraLayout`] with [`Cute`]
//! and the structural operation types ([`cute`]), CuTe's layout algebra
//! as operation types ([`cute_ops`]), and composition with a swizzle
//! ([`cute_swizzled`]).
//!
//! # When mistakes are caught
//!
//! `layout!` checks its text while it expands, so its errors appear at
//! `cargo check`, once, on the offending token. A hand-written type is
//! checked by constants the compiler evaluates only where they are used
//! (post-monomorphization). Its checks never fail by themselves: they
//! compute a [`Verdict`] ([`Layout::VERDICT`]), and
//! [`assert_layout!`](crate::assert_layout) turns a failed verdict into one
//! error at its own line, at `cargo check`, naming the type in XLA's text
//! (about seven lines). Without it, a constant used in built code fails
//! with the same message, located at the constant in this library, with a
//! note at the user's line (rustc's form of post-monomorphization errors,
//! which also prints the type's parameters). CuTe layout and operation
//! types work the same way: every constant derives from
//! [`CuteType::RESULT`], computed without panicking (a failed operation
//! deep in a nest of operation types is carried out unchanged), and
//! [`assert_cute!`](crate::assert_cute) turns its [`CuteType::VERDICT`]
//! into one error at its own line naming the operation that failed, the
//! mode and what to change, with the operands in CuTe's notation. The GPU
//! layout types ([`gpu`](crate::gpu): strided, block, swizzled layouts,
//! shared and register tiles) are CuTe types too: `assert_cute!` takes
//! them, and their `offset` checks the verdict in one constant. Each row
//! is pinned by a case in `ui-tests/` or a `compile_fail` doctest.
//!
//! | mistake | example | caught at |
//! |---|---|---|
//! | any rule in `layout!` text (syntax, XLA's rules, `*` most minor, `E(n)` not storable, dynamic dims, rank above 8) | `layout!(f32[3,5]{1,0:T(0,2)})` | `cargo check`, one error at the token |
//! | a `layout!` value past the target's `usize` (a 32-bit target) | `layout!(s8[0]{0:T(9223372036854775807)})` | `cargo check`, one error at the macro |
//! | a use of a `layout!` that failed | `type Bad = layout!(…); Bad::SLOTS` | nothing more (the macro stands for a valid type) |
//! | an invalid hand-written type under `assert_layout!` | `assert_layout!(Tiled<F32, Dims<3, 5>, T<0, 2>>)` | `cargo check`, one error at the macro |
//! | a parameter after an absent one, under `assert_layout!` | `assert_layout!(Tiled<F32, Dims<3, { usize::MAX }, 5>>)` | `cargo check`, one error at the macro |
//! | an invalid hand-written type, used | `Tiled<F32, Dims<3, 5>, T<0, 2>>::SLOTS` | `cargo build` |
//! | an invalid hand-written type, never used | `type Bad = Tiled<F32, Dims<3, 5>, T<0, 2>>;` | never (no code depends on it) |
//! | a wrong number of coordinates | `L::offset([1, 2, 3])` for a rank-2 `L` | `cargo build` |
//! | a value type that cannot be stored in the layout's `E(n)` | `TypedArray<Tiled<F32, Dims<4>, (), Descending, Attrs<1, 16, 0>>, 4>` | `cargo build` |
//! | a `TypedArray` length other than the layout's units | `TypedArray<layout!(f32[3,5]{1,0:T(2,2)}), 23>` | `cargo build` |
//! | a syntax error in `cute!` text | `cute!((_2,_3):(_1))` | `cargo check`, one error at the token |
//! | an invalid CuTe type under `assert_cute!` (a failed precondition of any operation type, a bad hand-written `Cute<…>`, `Sw<B,M,S>` with `\|S\| < B`, a tiling `FromXla` cannot lower) | `assert_cute!(Get<cute!((_2,_3):(_1,_2)), 2>)` | `cargo check`, one error at the macro |
//! | an invalid CuTe type, used | `Upcast<cute!((_4,_3):(_3,_1)), 2>::offset([1, 2])` | `cargo build` |
//! | a wrong number of coordinates for a CuTe type | `A::offset([1, 2, 3])` for a rank-2 `A` | `cargo build` |
//! | an invalid GPU layout type under `assert_cute!` (`Swizzle<B, M, S>` with `\|S\| < B`, a swizzle wider than the layout, a zero-size layout, a shared tile's stride not a power of two, a block that does not divide) | `assert_cute!(Swizzled<RowMajor<64, 64>, Swizzle<3, 3, 2>>)` | `cargo check`, one error at the macro |
//! | an invalid GPU layout type, used | `Swizzled::<RowMajor<64, 64>, Swizzle<3, 3, 2>>::offset(1, 2)` | `cargo build`, one error with a note at the use |
//! | an invalid `gpu::Swizzle<B, M, S>` (`\|S\| < B`) applied alone | `Swizzle::<3, 3, 2>::apply(x)` | `cargo build` |
//!
//! The `cargo build` errors name the rule and the layout in XLA's text:
//!
//! ```compile_fail,E0080
//! use tilelayout::{Layout, Dims, Tiled, F32, T};
//! // error: invalid layout type f32[3,5]{1,0:T(0,2)}: tile 0 has a zero dim …
//! let _ = <Tiled<F32, Dims<3, 5>, T<0, 2>>>::SLOTS;
//! ```
//!
//! ```compile_fail,E0080
//! use tilelayout::{layout, Layout};
//! let _ = <layout!(f32[3,5]{1,0:T(2,2)})>::offset([1, 2, 3]); // rank 2
//! ```
//!
//! ```compile_fail,E0080
//! use tilelayout::{storage::TypedArray, Attrs, Descending, Dims, Tiled, F32};
//! // f32 cannot be stored in 16 bits
//! let a = TypedArray::<Tiled<F32, Dims<4>, (), Descending, Attrs<1, 16, 0>>, 4>::default();
//! let _ = a.get([0]);
//! ```
//!
//! ```compile_fail,E0080
//! use tilelayout::{cute, AlgebraLayout, Upcast};
//! // error: Upcast<A, N>: cast: stride 3 of mode 0 and the factor 2 divide neither each other; …
//! let _ = <Upcast<cute!((_4,_3):(_3,_1)), 2>>::offset([1, 2]);
//! ```
//!
//! ```compile_fail,E0080
//! use tilelayout::{cute, AlgebraLayout};
//! let _ = <cute!((_2,_3):(_1,_2))>::offset([1, 2, 3]); // rank 2
//! ```
//!
//! ```compile_fail,E0080
//! use tilelayout::gpu::{Layout2, RowMajor, Swizzle, Swizzled};
//! // error: Sw<3,3,2>: swizzle Sw<B,M,S> needs … |S| >= B …; … use Swizzle<3, 3, 3>
//! let _ = Swizzled::<RowMajor<64, 64>, Swizzle<3, 3, 2>>::offset(1, 2);
//! ```
//!
//! A verdict can also be read as a value, in code or in a test:
//!
//! ```
//! use tilelayout::{Layout, Dims, Tiled, F32, T};
//! let v = <Tiled<F32, Dims<3, { usize::MAX }, 5>>>::VERDICT;
//! assert!(v.message().unwrap().contains("Dims<…>: parameter 2 follows an absent one"));
//! ```

pub mod cute;
pub mod cute_composed;
pub(crate) mod cute_index;
pub mod cute_ops;
pub mod cute_result;
pub mod cute_swizzled;
pub mod layout;
pub mod params;
pub mod verdict;

use crate::scalar::dtype::{BF16, F32};
pub use cute::{AlgebraLayout, Append, Cute, Flatten, FromXla, Get, Leaf, Modes};
pub use cute_composed::{ComposedAlgebraLayout, CuteComposed};
pub use cute_ops::{
    BlockedProduct, ByMode, Coalesce, CoalesceBy, Complement, ComplementTo, Composition, Downcast,
    Filter, FilterZeros, FlatDivide, LeftInverse, LogicalDivide, LogicalProduct, MaxCommonLayout,
    MaxCommonVector, PlainOperand, RakedProduct, RightInverse, ShapeOperand, TileToShape,
    TileToShapeOrdered, TiledDivide, TiledProduct, TilerMode, TilerModes, TilerOperand, Upcast,
    ZippedDivide, ZippedProduct, C,
};
pub use cute_result::CuteType;
pub use cute_swizzled::{
    CompositionComposed, CompositionSwizzle, Sw, SwizzleComposition, SwizzleOperand,
};
pub use layout::{const_offset, Layout, Tiled, Untiled};
pub use params::{
    AttrSet, Attrs, Descending, Dims, DimsParam, MinorToMajor, Order, TileParam, Tiles, COMBINE,
    MAX_TYPE_RANK, T,
};
pub use verdict::Verdict;

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
static_assertions::assert_eq_size!(Tiled<F32, Dims<3, 5>, T<2, 2>>, ());
static_assertions::assert_impl_all!(Tiled<BF16, Dims<8, 128>, (T<8, 128>, T<2, 1>)>: Copy, Send, Sync);

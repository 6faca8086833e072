//! CuTe's layout algebra on values: hierarchical integer tuples, layouts,
//! swizzles, and the operations on them, as `const fn` over fixed-capacity
//! values, following NVIDIA/cutlass's CuTe (`include/cute/layout.hpp` and
//! friends, commit 7107b05535f8977f5ecb9d01ee203205b1fd9bc4) exactly,
//! including its notation and which integers are static (`_4`) or
//! dynamic (`4`).
//!
//! # In order
//! 1. **IntTuple** ([`IntTuple`], [`Int`]): an integer or a tuple of
//!    IntTuples; `rank`, `depth`, `size`.
//! 2. **Layout** ([`Layout`]): congruent shape and stride; a function
//!    from coordinates to indices ([`Layout::crd2idx`], [`Layout::call`],
//!    [`Layout::idx2crd`], colexicographic: the first mode fastest).
//!
//! ```
//! use tilelayout_core::algebra::Layout;
//! let l = Layout::parse("(_2,(_3,_4)):(_12,(_4,_1))")?;
//! assert_eq!((l.rank(), l.depth()), (2, 2));
//! assert_eq!(l.to_text().as_str(), "(_2,(_3,_4)):(_12,(_4,_1))");
//! # Ok::<(), tilelayout_core::algebra::AlgebraError>(())
//! ```
//! 3. **Swizzle** ([`Swizzle`], [`ComposedLayout`]): `Sw<B,M,S> o offset
//!    o layout`, any sign of `S`.
//!
//! # Limits
//! A tuple holds at most [`MAX_NODES`] integers and tuples, nested at most
//! [`MAX_DEPTH`] deep; printed text fits [`MAX_TEXT`] bytes. Integers are
//! `i64` and every operation's arithmetic is checked. Exceeding a limit or
//! overflowing is an [`AlgebraError`], never a panic.

mod cast;
mod coalesce;
mod complement;
mod composition;
mod divide;
mod error;
mod eval;
mod inverse;
mod layout;
mod notation;
mod product;
mod slice;
mod swizzle;
mod tiler;
mod tuple;

pub use cast::{downcast, upcast};
pub use coalesce::{coalesce, coalesce_by, coalesce_shape, filter, filter_zeros};
pub use complement::{complement, complement_self};
pub use composition::{composition, composition_tiler};
pub use divide::{flat_divide, logical_divide, tiled_divide, zipped_divide};
pub use inverse::{left_inverse, max_common_layout, max_common_vector, right_inverse};
pub use product::{
    blocked_product, logical_product, raked_product, tile_to_shape, tiled_product, zipped_product,
};
pub use slice::{slice, slice_offset, SliceCoord};
pub use tiler::{Tiler, MAX_TILER_MODES};

pub use error::{AlgebraError, AlgebraErrorKind};
pub use eval::{evaluate, Op, Value};
pub use layout::{crd2idx, idx2crd, Layout};
pub use notation::{
    write_composed, write_int, write_int_tuple, write_layout, write_swizzle, write_swizzled_input,
    write_tiler, AnyLayout,
};
pub use swizzle::{ComposedLayout, Swizzle, SwizzledInput, SwizzledInverse};
pub use tuple::{Int, IntTuple};

/// Most nodes (integers plus tuples) in one [`IntTuple`].
pub const MAX_NODES: usize = 64;
/// Deepest nesting of an [`IntTuple`] (`_4` has depth 0, `(_4)` depth 1).
pub const MAX_DEPTH: usize = 8;
/// Bytes of the text buffer the printer fills: enough for any value
/// within [`MAX_NODES`] (each integer prints in at most 21 bytes).
pub const MAX_TEXT: usize = 4096;

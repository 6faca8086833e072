//! The swizzled shared-memory formats of TileFusion's `SharedTile`.
//!
//! The formats and why they agree with CuTe are documented on [`SwizzleAtom`].

use half::{bf16, f16};

use super::block::{BlockedColMajor, BlockedRowMajor};
use super::matrix::{ColMajor, Layout2, RowMajor};
use super::swizzle::{Swizzle, SwizzleFn, Swizzled};

/// Marker: swizzle blocks whose rows are 128 bytes (eight 16-byte chunks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bytes128;

/// Marker: swizzle blocks whose rows are 64 bytes (four 16-byte chunks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bytes64;

/// The swizzle atom for an element type at a row width `W`
/// ([`Bytes128`] or [`Bytes64`]).
///
/// A swizzled shared tile is cut into blocks whose rows are 128 (or 64)
/// bytes; each block is swizzled so that the 16-byte chunks of its rows land
/// in different banks. SPEC §5 names the four formats:
///
/// | element | row width | swizzle             | block (row-major tile) |
/// |---------|-----------|---------------------|------------------------|
/// | half    | 128 B     | `Swizzle<3, 3, 3>`  | 8 × 64                 |
/// | float   | 128 B     | `Swizzle<3, 2, 3>`  | 8 × 32                 |
/// | half    | 64 B      | `Swizzle<2, 3, 2>`  | 4 × 32                 |
/// | float   | 64 B      | `Swizzle<2, 2, 2>`  | 4 × 16                 |
///
/// In every row `M` is log2 of the elements in 16 bytes (a 128-bit vector
/// stays whole), `B` is log2 of the 16-byte chunks in a row, and the block has
/// `2^B` rows so that `M + S + B` covers exactly one block: the swizzle of a
/// block offset never leaves the block.
///
/// That is why the two descriptions agree: swizzling inside each block
/// (TileFusion) and applying the swizzle to the whole tile's blocked offsets
/// (CuTe's `composition(Swizzle, tile_to_shape(block, shape))`) give the same
/// physical offset for every element, because the block base is a multiple of
/// `2^(M+S+B)` and passes through the swizzle unchanged. `tests/gpu_shared.rs`
/// checks both against each other and against the formula.
///
/// Blocks of a row-major tile are stored in row-major order, blocks of a
/// column-major tile (the transposed block) in column-major order. Ours: the
/// seed does not fix the block order; this one keeps each strip of `2^B`
/// rows (columns) of the tile contiguous, as in the unswizzled tile.
///
/// Implemented for `f32`, [`half::f16`] and [`half::bf16`] (which has the
/// layout of `f16`).
///
/// ```
/// use tilelayout::gpu::{Bytes128, Shape2, SwizzleAtom, SwizzleFn};
/// type A = <f32 as SwizzleAtom<Bytes128>>::RowBlock;
/// assert_eq!((A::ROWS, A::COLS), (8, 32));
/// type S = <f32 as SwizzleAtom<Bytes128>>::Swizzle;
/// assert_eq!((S::BITS, S::BASE, S::SHIFT), (3, 2, 3));
/// ```
pub trait SwizzleAtom<W>: Copy {
    /// The swizzle applied to the offsets of a block.
    type Swizzle: SwizzleFn;
    /// The block of a row-major tile (rows of `W` bytes).
    type RowBlock: Layout2;
    /// The block of a column-major tile (columns of `W` bytes).
    type ColBlock: Layout2;
}

impl SwizzleAtom<Bytes128> for f16 {
    type Swizzle = Swizzle<3, 3, 3>;
    type RowBlock = RowMajor<8, 64>;
    type ColBlock = ColMajor<64, 8>;
}

impl SwizzleAtom<Bytes128> for bf16 {
    type Swizzle = Swizzle<3, 3, 3>;
    type RowBlock = RowMajor<8, 64>;
    type ColBlock = ColMajor<64, 8>;
}

impl SwizzleAtom<Bytes128> for f32 {
    type Swizzle = Swizzle<3, 2, 3>;
    type RowBlock = RowMajor<8, 32>;
    type ColBlock = ColMajor<32, 8>;
}

impl SwizzleAtom<Bytes64> for f16 {
    type Swizzle = Swizzle<2, 3, 2>;
    type RowBlock = RowMajor<4, 32>;
    type ColBlock = ColMajor<32, 4>;
}

impl SwizzleAtom<Bytes64> for bf16 {
    type Swizzle = Swizzle<2, 3, 2>;
    type RowBlock = RowMajor<4, 32>;
    type ColBlock = ColMajor<32, 4>;
}

impl SwizzleAtom<Bytes64> for f32 {
    type Swizzle = Swizzle<2, 2, 2>;
    type RowBlock = RowMajor<4, 16>;
    type ColBlock = ColMajor<16, 4>;
}

/// The physical layout of TileFusion's swizzled row-major `SharedTile` of
/// `R × C` elements of `T`, with `W`-byte swizzle rows.
///
/// Expands to
/// `Swizzled<BlockedRowMajor<R, C, <T as SwizzleAtom<W>>::RowBlock>, <T as SwizzleAtom<W>>::Swizzle>`;
/// e.g. `SwizzledRowMajor<f32, Bytes128, 64, 64>` is
/// `Swizzled<BlockedRowMajor<64, 64, RowMajor<8, 32>>, Swizzle<3, 2, 3>>`.
///
/// # Examples
///
/// ```
/// use tilelayout::gpu::{Bytes128, Layout2, SwizzledRowMajor};
/// type L = SwizzledRowMajor<f32, Bytes128, 64, 64>;
/// // element (9, 37): block (1, 1) = block 3; in it row 1, chunk 1 → 1 ^ 1 = 0
/// assert_eq!(L::offset(9, 37), 3 * 256 + 32 + 0 * 4 + 1);
/// ```
///
/// # Compile-time errors
///
/// The block must divide the tile:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{Bytes128, Layout2, SwizzledRowMajor};
/// use half::f16;
/// // a 128-byte half block is 64 columns wide
/// let _ = SwizzledRowMajor::<f16, Bytes128, 64, 32>::offset(0, 0);
/// ```
pub type SwizzledRowMajor<T, W, const R: usize, const C: usize> = Swizzled<
    BlockedRowMajor<R, C, <T as SwizzleAtom<W>>::RowBlock>,
    <T as SwizzleAtom<W>>::Swizzle,
>;

/// The physical layout of a swizzled column-major `SharedTile`: the transpose
/// of [`SwizzledRowMajor`].
///
/// Expands to
/// `Swizzled<BlockedColMajor<R, C, <T as SwizzleAtom<W>>::ColBlock>, <T as SwizzleAtom<W>>::Swizzle>`.
///
/// ```
/// use tilelayout::gpu::{Bytes128, Layout2, SwizzledColMajor, SwizzledRowMajor};
/// type C = SwizzledColMajor<f32, Bytes128, 64, 64>;
/// type R = SwizzledRowMajor<f32, Bytes128, 64, 64>;
/// assert_eq!(C::offset(37, 9), R::offset(9, 37));
/// ```
pub type SwizzledColMajor<T, W, const R: usize, const C: usize> = Swizzled<
    BlockedColMajor<R, C, <T as SwizzleAtom<W>>::ColBlock>,
    <T as SwizzleAtom<W>>::Swizzle,
>;

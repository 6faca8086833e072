//! The swizzled shared-memory tiles of TileFusion's `SharedTile`.
//!
//! The swizzle atoms are documented on [`SwizzleAtom`], the tiles on
//! [`SwizzledRowMajor`] and [`SwizzledColMajor`].

// reason: the results are computed at compile time only, in const fns,
// which cannot box their errors
#![allow(clippy::result_large_err)]

use core::marker::PhantomData;

use crate::scalar::{bf16, f16};

use super::matrix::{strided, ColMajor, Layout2, RowMajor, Shape2};
use super::result::strided_result;
use super::sealed::Sealed;
use super::swizzle::{Swizzle, SwizzleFn};
use crate::algebra::{AnyLayout, ComposedLayout, CuteLayout, Int};
use crate::types::cute_composed::swizzle_verdict;
use crate::types::cute_result::{finish, CuteType};
use crate::types::verdict::Verdict;
use crate::value::TextBuf;

/// Marker: swizzle blocks whose rows are 128 bytes (eight 16-byte chunks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bytes128;

/// Marker: swizzle blocks whose rows are 64 bytes (four 16-byte chunks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bytes64;

/// The swizzle atom for an element type at a swizzle width `W`
/// ([`Bytes128`] or [`Bytes64`]): TileFusion's `SwizzleBaseTileShape`.
///
/// | element | width | swizzle (`Swizzle<B, M, S>`) | block (row-major tile) |
/// |---------|-------|------------------------------|------------------------|
/// | half    | 128 B | `Swizzle<3, 3, 3>`           | 8 × 64                 |
/// | float   | 128 B | `Swizzle<3, 2, 3>`           | 8 × 32                 |
/// | half    | 64 B  | `Swizzle<2, 3, 2>`           | 4 × 32                 |
/// | float   | 64 B  | `Swizzle<2, 2, 2>`           | 4 × 16                 |
///
/// `M` is log2 of the elements in 16 bytes (a 128-bit vector stays whole),
/// `B = S` is log2 of the 16-byte chunks in a `W`-byte row, and the block has
/// `2^B` rows. Inside a block, chunk `c` of row `r` is stored at chunk
/// `c ^ r`: the 16-byte vectors of a column of chunks fall in different banks.
/// How the blocks sit in the tile is the tile's business: see
/// [`SwizzledRowMajor`] (they keep the tile's row stride; they are not
/// contiguous).
///
/// Implemented for `f32`, [`half::f16`] and [`half::bf16`] (the layout of
/// `f16`, as TileFusion's `HalfType`).
///
/// ```
/// use tilelayout::gpu::{Bytes128, Shape2, SwizzleAtom, SwizzleFn};
/// type A = <f32 as SwizzleAtom<Bytes128>>::RowBlock;
/// assert_eq!((A::ROWS, A::COLS), (8, 32));
/// type S = <f32 as SwizzleAtom<Bytes128>>::Swizzle;
/// assert_eq!((S::BITS, S::BASE, S::SHIFT), (3, 2, 3));
/// ```
pub trait SwizzleAtom<W>: Copy {
    /// The atom's swizzle, on the offsets of a contiguous block.
    type Swizzle: SwizzleFn;
    /// The swizzle block of a row-major tile (`2^B` rows of `W` bytes).
    type RowBlock: Layout2;
    /// The swizzle block of a column-major tile (the transpose).
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

/// TileFusion's swizzled row-major `SharedTile<T, RowMajor<R, C, RS>, true, W>`:
/// `R × C` elements of `T`, row stride `RS` (default `C`), swizzled with the
/// atom of `T` at `W` bytes ([`SwizzleAtom`]).
///
/// # The map
///
/// ```text
/// offset(i, j) = i·RS + (j ^ ((i mod 2^B) << M))
/// ```
///
/// i.e. the 16-byte chunk `j >> M` of row `i` moves to chunk
/// `(j >> M) ^ (i mod 2^B)` of the same row. As a layout of the algebra
/// ([`Layout2::LAYOUT`]) it is CuTe's
/// `composition(Swizzle<B, M, log2(RS) − M>, (R, C):(RS, 1))`, the swizzle
/// applied to the strided offsets, the row's low `B` bits sitting at bit
/// `log2 RS` (so `RS` must be a power of two), which is how TileFusion's
/// `SharedTile::fetch_physical_offset`
/// comes out: its `TileLayout` places the `2^B × 2^(M+B)` swizzle blocks at
/// row stride `RS·2^B` and column stride `2^(M+B)`, its `NonSwizzled`
/// in-block layout keeps the row stride `RS` ([`TILES`](Self::TILES),
/// [`IN_TILE`](Self::IN_TILE)). The blocks are not contiguous: an 8×32 `f32`
/// block of a 64-column tile spans 8 rows of 64.
///
/// `tests/gpu_shared.rs` compares every offset with the maps TileFusion's own
/// code computes (f32/f16/bf16, 128 and 64 bytes) and with CuTe's
/// composition.
///
/// `COSIZE` is the strided layout's; a row run is `2^M` elements (one
/// 16-byte vector), a column run 1 ([`vector_run`](super::vector_run)).
///
/// # Examples
///
/// ```
/// use tilelayout::gpu::{Bytes128, Layout2, Swizzle, Swizzled, RowMajor, SwizzledRowMajor};
/// type L = SwizzledRowMajor<f32, Bytes128, 64, 64>;
/// // row 9 (9 mod 8 = 1), columns 36..40 (chunk 9) → chunk 9 ^ 1 = 8
/// assert_eq!(L::offset(9, 37), 9 * 64 + 8 * 4 + 1);
/// assert_eq!(L::LAYOUT.to_string(), "Sw<3,2,4> o _0 o (_64,_64):(_64,_1)");
/// // CuTe: composition(Swizzle<3, 2, 6 − 2>, RowMajor<64, 64>)
/// type Cute = Swizzled<RowMajor<64, 64>, Swizzle<3, 2, 4>>;
/// assert!((0..64).all(|i| (0..64).all(|j| L::offset(i, j) == Cute::offset(i, j))));
/// ```
///
/// # Compile-time errors
///
/// The tile must be made of whole swizzle blocks:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{Bytes128, Layout2, SwizzledRowMajor};
/// use half::f16;
/// // a 128-byte half block is 64 columns wide
/// let _ = SwizzledRowMajor::<f16, Bytes128, 64, 32>::offset(0, 0);
/// ```
///
/// The row stride must hold a row:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{Bytes128, Layout2, SwizzledRowMajor};
/// let _ = SwizzledRowMajor::<f32, Bytes128, 8, 64, 32>::offset(0, 0);
/// ```
///
/// and be a power of two (the swizzle reads the row's bits at `log2 RS`):
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{Bytes128, Layout2, SwizzledRowMajor};
/// let _ = SwizzledRowMajor::<f32, Bytes128, 8, 64, 96>::offset(0, 0);
/// ```
pub struct SwizzledRowMajor<T, W, const R: usize, const C: usize, const RS: usize = C>(
    PhantomData<fn() -> (T, W)>,
);

/// TileFusion's swizzled column-major `SharedTile<T, ColMajor<R, C, CS>, true, W>`:
/// the transpose of [`SwizzledRowMajor`], column stride `CS` (default `R`).
///
/// ```text
/// offset(i, j) = (i ^ ((j mod 2^B) << M)) + j·CS
/// ```
///
/// ```
/// use tilelayout::gpu::{Bytes64, Layout2, SwizzledColMajor, SwizzledRowMajor};
/// use half::bf16;
/// type C = SwizzledColMajor<bf16, Bytes64, 64, 32>;
/// type R = SwizzledRowMajor<bf16, Bytes64, 32, 64>;
/// assert_eq!(C::offset(37, 9), R::offset(9, 37));
/// ```
pub struct SwizzledColMajor<T, W, const R: usize, const C: usize, const CS: usize = R>(
    PhantomData<fn() -> (T, W)>,
);

/// What both orientations share: `(B, M)` of the atom and the checks, the
/// verdict naming the tile `ty<T, W, R, C, stride>` on failure.
/// `rows × cols` here are along the strided and the contiguous coordinate.
#[allow(clippy::too_many_arguments)] // reason: the tile's parameters, named as the user wrote them
const fn check_tile(
    ty: &str,
    (r, c): (usize, usize),
    lines: usize,
    width: usize,
    stride: usize,
    b: u32,
    m: u32,
) -> Result<(), Verdict> {
    let block_lines = 1usize << b;
    let block_width = 1usize << (m + b);
    let problem = if lines == 0 || !lines.is_multiple_of(block_lines) {
        "must be made of whole swizzle blocks: its strided extent (rows of a row-major tile) must be a non-zero multiple of 2^B = "
    } else if width == 0 || !width.is_multiple_of(block_width) {
        "must be made of whole swizzle blocks: its contiguous extent (columns of a row-major tile) must be a non-zero multiple of 2^(M+B) (one swizzle row of W bytes) = "
    } else if stride < width {
        "needs its stride (RS of a row-major tile) to hold a whole line: use a stride of at least "
    } else if !stride.is_power_of_two() {
        "needs a power-of-two stride (RS of a row-major tile): its swizzle reads the row's bits at log2(stride); use a stride of "
    } else {
        return Ok(());
    };
    let hint = if lines == 0 || !lines.is_multiple_of(block_lines) {
        block_lines
    } else if width == 0 || !width.is_multiple_of(block_width) {
        block_width
    } else if stride < width {
        width
    } else {
        stride.next_power_of_two()
    };
    let mut t = TextBuf::<96>::new();
    t.push_str(ty);
    t.push_str("<T, W, ");
    t.push_u64(r as u64);
    t.push_str(", ");
    t.push_u64(c as u64);
    t.push_str(", ");
    t.push_u64(stride as u64);
    t.push_str(">: a swizzled shared tile ");
    let mut n = TextBuf::<24>::new();
    n.push_u64(hint as u64);
    Err(Verdict::fail(&[t.as_str(), problem, n.as_str()]))
}

// Follows microsoft/TileFusion@ddc570d96e2fcda2bceb518dab6878d5ee5daba7: include/types/shared.hpp (SharedTile::fetch_physical_offset,
// TileLayout, NonSwizzled), include/types/swizzle.hpp (SwizzleBaseTileShape,
// SwizzledLayout); and NVIDIA/cutlass@7107b05535f8977f5ecb9d01ee203205b1fd9bc4: include/cute/swizzle.hpp.
macro_rules! impl_swizzled_tile {
    ($ty:ident, $stride:ident, $col_major:literal, $rows:ident, $cols:ident) => {
        impl<T, W, const R: usize, const C: usize, const $stride: usize> Sealed
            for $ty<T, W, R, C, $stride>
        {
        }

        impl<T, W, const R: usize, const C: usize, const $stride: usize> Clone
            for $ty<T, W, R, C, $stride>
        {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<T, W, const R: usize, const C: usize, const $stride: usize> Copy
            for $ty<T, W, R, C, $stride>
        {
        }
        impl<T, W, const R: usize, const C: usize, const $stride: usize> core::fmt::Debug
            for $ty<T, W, R, C, $stride>
        {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(stringify!($ty))
            }
        }

        impl<T: SwizzleAtom<W>, W, const R: usize, const C: usize, const $stride: usize> Shape2
            for $ty<T, W, R, C, $stride>
        {
            const ROWS: usize = R;
            const COLS: usize = C;
        }

        impl<T: SwizzleAtom<W>, W, const R: usize, const C: usize, const $stride: usize>
            $ty<T, W, R, C, $stride>
        {
            /// `B` of the atom: the low `B` bits of the strided coordinate
            /// are XORed into the contiguous one.
            pub const BITS: u32 = <T::Swizzle as SwizzleFn>::BITS;
            /// `M` of the atom: runs of `2^M` elements (16 bytes) stay whole.
            pub const BASE: u32 = <T::Swizzle as SwizzleFn>::BASE;

            const CHECKED: Result<(), Verdict> = check_tile(
                stringify!($ty),
                (R, C),
                $rows,
                $cols,
                $stride,
                Self::BITS,
                Self::BASE,
            );
            const CHECK: () = match Self::CHECKED {
                Ok(()) => (),
                Err(v) => v.check(),
            };

            /// The strided layout before the swizzle (computed without
            /// panicking).
            const STRIDED: Result<AnyLayout, Verdict> = if $col_major {
                strided_result(R, C, 1, $stride, stringify!($ty))
            } else {
                strided_result(R, C, $stride, 1, stringify!($ty))
            };

            /// TileFusion's `TileLayout`: where each swizzle block starts
            /// (a grid of `R / block rows × C / block cols` blocks).
            pub const TILES: CuteLayout = {
                let () = Self::CHECK;
                let (bl, bw) = (1usize << Self::BITS, 1usize << (Self::BASE + Self::BITS));
                if $col_major {
                    strided(R / bw, C / bl, bw, $stride * bl)
                } else {
                    strided(R / bl, C / bw, $stride * bl, bw)
                }
            };

            /// TileFusion's `NonSwizzled` in-block layout: one swizzle block
            /// with the tile's stride, before its swizzle.
            pub const IN_TILE: CuteLayout = {
                let () = Self::CHECK;
                let (bl, bw) = (1usize << Self::BITS, 1usize << (Self::BASE + Self::BITS));
                if $col_major {
                    strided(bw, bl, 1, $stride)
                } else {
                    strided(bl, bw, $stride, 1)
                }
            };
        }

        impl<
                T: SwizzleAtom<W> + 'static,
                W: 'static,
                const R: usize,
                const C: usize,
                const $stride: usize,
            > CuteType for $ty<T, W, R, C, $stride>
        {
            // CuTe's composition(Swizzle<B, M, log2(stride) - M>, strided)
            const RESULT: Result<AnyLayout, Verdict> = match Self::CHECKED {
                Err(v) => Err(v),
                Ok(()) => {
                    let shift = $stride.trailing_zeros() as i32 - Self::BASE as i32;
                    match (
                        swizzle_verdict(Self::BITS as i32, Self::BASE as i32, shift),
                        Self::STRIDED,
                    ) {
                        (Err(v), _) | (_, Err(v)) => Err(v),
                        (Ok(sw), Ok(AnyLayout::Plain(l))) => finish(
                            Ok(AnyLayout::Swizzled(ComposedLayout::new(
                                sw,
                                Int::fixed(0),
                                l,
                            ))),
                            stringify!($ty),
                            "",
                        ),
                        (Ok(_), Ok(AnyLayout::Swizzled(c))) => Ok(AnyLayout::Swizzled(c)),
                    }
                }
            };
        }

        impl<
                T: SwizzleAtom<W> + 'static,
                W: 'static,
                const R: usize,
                const C: usize,
                const $stride: usize,
            > Layout2 for $ty<T, W, R, C, $stride>
        {
        }
    };
}

impl_swizzled_tile!(SwizzledRowMajor, RS, false, R, C);
impl_swizzled_tile!(SwizzledColMajor, CS, true, C, R);

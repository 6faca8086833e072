//! GPU tiles as types: TileFusion's concepts on CuTe's definitions.
//!
//! ```
//! use tilelayout::gpu::{
//!     copy, BaseTileRowMajor, Bytes128, GlobalTile, RegTile, RowMajor, SharedTile, SwizzledRowMajor,
//! };
//! // A 64×64 float matrix in global memory, cut into 32×32 tiles.
//! let data: Vec<f32> = (0..64 * 64).map(|x| x as f32).collect();
//! let tiles = GlobalTile::<_, RowMajor<64, 64>>::new(&data[..]).tiles::<32, 32>();
//! let g = tiles.get(1, 0); // rows 32.., columns 0..
//!
//! // 4 warps (2×2) copy it into swizzled shared memory, 128 bits per lane …
//! let mut buf = [0.0f32; 32 * 32];
//! let mut s = SharedTile::<_, SwizzledRowMajor<f32, Bytes128, 32, 32>>::new(&mut buf[..]);
//! copy::<RowMajor<2, 2>, _, _>(&g, &mut s);
//! assert_eq!(s.get(1, 4), data[33 * 64 + 4]);
//! // row 1, columns 8..12 (16-byte chunk 2) are stored in chunk 2 ^ 1 = 3
//! assert_eq!(s.storage()[32 + 12], data[33 * 64 + 8]);
//!
//! // … and one warp loads it into 2×2 register base tiles of 16×16.
//! type Reg = RegTile<[f32; 32], BaseTileRowMajor, RowMajor<2, 2>>;
//! let mut regs = [[Reg::filled(0.0); 32]; 1];
//! copy::<RowMajor<1, 1>, _, _>(&s, &mut regs);
//! let (lane, reg) = Reg::owner(17, 3); // element (17, 3): lane 5
//! assert_eq!(regs[0][lane].regs()[reg], data[(32 + 17) * 64 + 3]);
//! ```
//!
//! # Concepts, in order
//!
//! Every layout here *is* a layout of the [algebra](crate::algebra): its
//! [`Layout2::LAYOUT`] is the core's `Sw<B,M,S> o _0 o (shape):(stride)`,
//! built by the core's `const fn`s, and `offset(i, j)` folds it to
//! straight-line code as the [`cute!`](crate::cute!) types do. The GPU
//! vocabulary (tiles, warps, lanes, copy plans) is a way of naming them.
//!
//! 1. **Matrix layout** ([`MatrixLayout<R, C, RS, CS>`](MatrixLayout),
//!    [`RowMajor`], [`ColMajor`]): CuTe's `(R,C):(RS,CS)`. Every layout
//!    implements [`Layout2`]: `ROWS`, `COLS`, `LAYOUT`, `COSIZE` (the span
//!    of offsets, CuTe's cosize) and `offset(i, j)`, `#[inline(always)]`
//!    with all parameters known at compile time, so it folds.
//!    [`const_offset`] is the same function as a `const fn`;
//!    [`vector_run`] is a layout's contiguity, from the algebra's
//!    `max_common_vector`.
//! 2. **Block layout** ([`Blocked<Outer, Inner>`](Blocked),
//!    [`BlockedRowMajor`], [`BlockedColMajor`]): CuTe's
//!    `blocked_product(Inner, Outer)`, an outer layout over blocks, an inner
//!    layout inside each contiguous block. A block layout is a layout, so
//!    blocks nest to any depth; a block that does not divide the shape is a
//!    compile-time error.
//! 3. **Swizzle** ([`Swizzle<B, M, S>`](Swizzle),
//!    [`Swizzled<L, Sw>`](Swizzled)): the core's
//!    [`algebra::Swizzle`](crate::algebra::Swizzle), CuTe's XOR of bits
//!    `[M+S, M+S+B)` into `[M, M+B)` (a negative `S` the other way round, as
//!    CuTe's `Swizzle<2, 0, -2>`), alone or composed with a layout
//!    (`Sw<B,M,S> o _0 o L`); rejected at compile time, with the core's
//!    message, when it is not an involution (`|S| < B`) or does not fit the
//!    layout.
//! 4. **Swizzled shared tiles** ([`SwizzledRowMajor`], [`SwizzledColMajor`]):
//!    TileFusion's `SharedTile<T, RowMajor<R, C>, true, W>` for
//!    `f16`/`bf16`/`f32` at 128- and 64-byte swizzles ([`Bytes128`],
//!    [`Bytes64`]): the 16-byte chunk `c` of row `i` is stored at chunk
//!    `c ^ (i mod 2^B)` of the same row, the row stride kept — CuTe's
//!    `composition(Swizzle<B, M, log2(stride) − M>, layout)`.
//! 5. **Tiles** ([`GlobalTile`], [`SharedTile`]): storage (`&[T]`,
//!    `&mut [T]`, `[T; N]`, `Vec<T>`) seen through a layout; `get(i, j)`,
//!    `set(i, j, v)`.
//! 6. **Tile iterator** ([`TileIterator`]): a tile cut into sub-tiles of a
//!    fixed shape that keep the parent's layout; `get(i, j)`, `row(i)` for
//!    `(i, _)`, `col(j)` for `(_, j)`; the shape must divide.
//! 7. **Copy plan** ([`CopyPlan<Src, Dst, W, R>`](CopyPlan), [`copy`]):
//!    TileFusion's global→shared loader as a type: a warp layout `W` splits
//!    the tile among warps (shared as the reuse mode `R` says: [`Cont`],
//!    [`RowReuseCont`], [`ColReuseCont`]), each warp covers its region with
//!    base tiles of at most one 128-byte line of 128-bit vectors
//!    (`WarpBaseTileShape`); the plan answers `(warp, lane, step) → vector`
//!    with no allocation, counts its shared-memory bank conflicts at compile
//!    time ([`CopyPlan::SHARED_CONFLICTS`]), and runs on the CPU lane by lane
//!    between memory tiles and register tiles.
//! 8. **Register tiles** ([`BaseTileRowMajor`], [`BaseTileColMajor`],
//!    [`AccTileRowMajor`], [`AccTileColMajor`], [`RegTile<D, B, L>`](RegTile)):
//!    the 16×16 base tiles of `mma.m16n8k16` — operands (`A`, `B`) and
//!    accumulators (`C`) as distinct types, each a layout from `(i, j)` to
//!    `lane·8 + slot` whose right inverse gives the element a lane holds —
//!    and a thread's registers for a grid of base tiles ([`WARP_SIZE`]
//!    lanes, [`FRAGMENT_SLOTS`] registers per lane and base tile).
//! 9. **`ldmatrix`** ([`LdMatrix`], [`Operand`], [`ldmatrix`]): the
//!    shared-memory row each lane hands `ldmatrix.x4` per operand base tile,
//!    TileFusion's shared→register loader, with its bank-conflict degree;
//!    and `ldmatrix` itself simulated on the CPU (`.x1/.x2/.x4`, `.trans`),
//!    each lane receiving what the PTX ISA says, so a plan runs as the
//!    hardware would run it ([`LdMatrix::run`]).
//! 10. **Accumulator stores** ([`StorePlan`]): which lane writes which 4- or
//!     8-byte pieces of an accumulator register tile where in shared memory
//!     (TileFusion's register→shared storer), with its bank-conflict degree.
//!
//! The maps are TileFusion's (microsoft/TileFusion), offset by offset, lane
//! by lane and slot by slot, checked against what its own code computes; the
//! fragment layouts are the PTX ISA's for `mma.m16n8k16`, on which
//! TileFusion and CuTe agree (see [`BaseTile`]).
//!
//! [`sgemm`] puts it all together: a CPU SGEMM shaped like a TileFusion GEMM
//! kernel, with [`sgemm_hand_indexed`], the same kernel indexed by hand.
//!
//! # Compile-time checks
//!
//! Every layout type here is a [`CuteType`](crate::CuteType): its layout
//! is computed without panicking, as the layout or the
//! [`Verdict`](crate::Verdict) of the first check that failed, naming the
//! type as written (`Sw<3,3,2>`, `MatrixLayout<0, 64, 64, 1>`,
//! `BlockedRowMajor<64, 60, Inner>`) and what to change.
//! [`assert_cute!`](crate::assert_cute) turns a failed verdict into one
//! error at its own line at `cargo check`:
//!
//! ```text
//! error[E0080]: evaluation panicked: Sw<3,3,2>: swizzle Sw<B,M,S> needs B >= 0, M >= 0, |S| >= B and its masks within 62 bits; the shift must be at least the bits: use Swizzle<3, 3, 3>
//!  --> src/main.rs:3:1
//!   |
//! 3 | assert_cute!(Swizzled<RowMajor<64, 64>, Swizzle<3, 3, 2>>);
//!   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ evaluation of `_` failed here
//! ```
//!
//! ```
//! use tilelayout::assert_cute;
//! use tilelayout::gpu::{Bytes128, RowMajor, Swizzle, Swizzled, SwizzledRowMajor};
//! assert_cute!(Swizzled<RowMajor<64, 64>, Swizzle<3, 3, 3>>, SwizzledRowMajor<f32, Bytes128, 64, 64>);
//! ```
//!
//! Without it, the check happens where the type is used (after
//! monomorphization, at `cargo build`/`cargo test`): `offset` checks the
//! verdict in one constant, so the same message is one error with a note
//! at the user's line. The other types' checks (tile iterators, copy and
//! store plans, `ldmatrix` plans) are `const` assertions evaluated where
//! they are used. Each check is pinned by a `compile_fail` doctest on the
//! item that makes it or a case in `ui-tests/`.
//!
//! Everything here is `no_std` and allocation-free except the `Vec` storage
//! impl (feature `alloc`).

mod banks;
mod block;
mod copy_endpoint;
mod copy_plan;
mod ldmatrix;
mod ldmatrix_sim;
mod matrix;
mod product;
mod reg_tile;
mod result;
mod sgemm;
mod shared;
mod store_plan;
mod swizzle;
mod tile;
mod tile_iter;
mod vector;
mod warp_region;
mod warp_reuse;

pub use block::{Blocked, BlockedColMajor, BlockedRowMajor};
pub use copy_endpoint::{CopyDest, CopyEndpoint, CopySource};
pub use copy_plan::{copy, CopyPlan};
pub use ldmatrix::{LdMatrix, Operand};
pub use ldmatrix_sim::{ldmatrix, LdMatrixError, LDMATRIX_ROW};
pub use matrix::{
    const_offset, layout_of, vector_run, ColMajor, Layout2, LayoutValue, MatrixLayout, RowMajor,
    Shape2, TileShape,
};
pub use reg_tile::{
    AccTileColMajor, AccTileRowMajor, BaseTile, BaseTileColMajor, BaseTileRowMajor, RegTile,
    FRAGMENT_SLOTS, WARP_SIZE,
};
pub use sgemm::{mma, sgemm, sgemm_hand_indexed, BLOCK_K, BLOCK_M, BLOCK_N};
pub use shared::{Bytes128, Bytes64, SwizzleAtom, SwizzledColMajor, SwizzledRowMajor};
pub use store_plan::{Accumulator, StorePlan, PIECES};
pub use swizzle::{Swizzle, SwizzleFn, Swizzled};
pub use tile::{Global, GlobalTile, MemTile, Shared, SharedTile, Space, Storage, StorageMut};
pub use tile_iter::TileIterator;
pub use vector::{Axis, Vector, CACHE_LINE_BYTES, VECTOR_BYTES};
pub use warp_reuse::{ColReuseCont, Cont, RowReuseCont, WarpReuse};

/// Sealing for the layout, swizzle and space traits: their implementations
/// carry promises (a layout of the algebra of the right shape, CuTe's
/// swizzle) that outside types could not keep.
mod sealed {
    /// The seal.
    pub trait Sealed {}
}

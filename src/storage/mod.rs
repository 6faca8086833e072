//! Storage for runtime layouts: views over tiled buffers, packed sub-byte
//! elements, and the relayout engine that moves arrays between plain
//! (strided) buffers and tiled layouts at memory speed.
//!
//! # In order
//! 1. **Elements** ([`Element`](crate::storage::Element), [`Unit`](crate::storage::Unit)): the Rust value type of an array
//!    (`f32`, [`half::bf16`], `i8`, [`i4`](crate::storage::i4), `bool`, …) and the *unit* its
//!    storage slice holds: the value type itself for whole-byte types, `u8`
//!    for sub-byte ones.
//! 2. **Packing** ([`packed`](crate::storage::packed)): with `E(n)` below 8, `8/n` elements share a
//!    byte, element `k` of a byte in bits `[n·k, n·k+n)`: little-endian
//!    within the byte, as XLA's `PackIntN` packs (see [`packed`](crate::storage::packed)).
//! 3. **Views** ([`TiledView`](crate::storage::TiledView), [`TiledViewMut`](crate::storage::TiledViewMut)) and, with `alloc`, the
//!    owned `TiledArray`: get/set by logical coordinates, iteration in
//!    logical and in memory order, padding fill. A view borrows its
//!    storage and a [`CompiledShape`](crate::storage::CompiledShape) (the shape with its tiling
//!    compiled once); an array owns both.
//! 4. **Relayout** ([`RelayoutPlan`](crate::storage::RelayoutPlan), no allocator needed): a plan computed once
//!    for a source and a destination [`ArrayLayout`](crate::storage::ArrayLayout) (a tiled
//!    [`Shape`](crate::value::Shape), any [`Strided`](crate::storage::Strided) array, or a
//!    [`CuteStorage`](crate::storage::CuteStorage) layout, swizzled or not), executed many
//!    times by blocked loops over the longest runs both sides share.
//!
//! # The relayout engine
//! [`RelayoutPlan::new`](crate::storage::RelayoutPlan::new) describes both
//! sides as *digits* of each logical coordinate (the leaves of the layout
//! the core lowers a tiling to, [`padded_grid`](crate::value::padded_grid):
//! tile splits are mixed radices), takes their common refinement and gets one loop nest in which
//! both offsets are affine: `(count, source stride, destination stride)`
//! per loop. Neighbouring loops that stay affine on both sides merge (a
//! 128-element row of `T(8,128)` is one run in row-major and tiled
//! storage). The two innermost loops pick a kernel: runs copied whole,
//! rows zipped into packed words (`(8,128)(2,1)`, `(8,128)(4,1)`, the
//! nibbles of `(8,128)(8,1)E(4)`, the 2- and 1-bit slots of
//! `(16,128)(16,1)E(2)` and `(32,128)(32,1)E(1)`) or unzipped, the `k × k` blocks of a
//! transpose between packed tilings moved whole, 8 × 8 tile transposes
//! (16 × 16 with AVX-512) into a staging block, or a small 2-D block; the
//! outer loops are ordered for sequential reads (or writes) and the last
//! two run inside the kernel. Block, gather chunk and stage sizes are derived from the host's
//! caches ([`Caches`](crate::storage::Caches); a compile-time plan assumes
//! [`Caches::FALLBACK`](crate::storage::Caches::FALLBACK)). Large
//! destinations are written with non-temporal stores, and the zips and
//! tile transposes prefetch the source blocks they will read next (across
//! the calls of the outer loops, so the next band's rows are in flight). With the `parallel` feature,
//! `RelayoutPlan::execute_parallel` splits a loop whose values own
//! disjoint destination ranges across scoped threads.
//!
//! Planning needs no allocator and is a `const fn`
//! ([`RelayoutPlan::between`](crate::storage::RelayoutPlan::between)):
//! digits and loops live in fixed-capacity lists (64 loops while planning;
//! a plan keeps at most 16 outer loops, 12 gather loops and 18 dims, in
//! `usize` fields; a layout needing more takes the element-wise path). So
//! relayout works in `no_std` firmware, and for layout types the plan is a
//! compile-time constant of what running it needs (800 bytes on
//! thumbv7em): [`TypedViewMut::copy_from_row_major`](crate::storage::TypedViewMut::copy_from_row_major)
//! costs only the copy. When that plan is one kernel over at most two
//! loops with no padding (a few tiles), the copy runs with its loops in the
//! code: counts and strides are constants of the layout type, the SIMD
//! kernels entered through functions monomorphized per plan (a `bf16[8,128]`
//! tile moves in about memcpy's time instead of 4.5 times it).
//! Without `alloc` the tile transposes, which stage blocks in an allocated
//! buffer, run as 2-D blocks instead. Layouts whose tiling is not affine (a later tile, or
//! a combined-dim `*` group, cut so that the parts do not meet again in
//! memory: see [`lower`](crate::value::lower)), unless the cut `*` group is
//! affine in its combined coordinate on both sides (row-major storage of a
//! `{2,1,0:T(2,*,128)}` array is), fall back to one element at a
//! time by [`Tiling::offset`](crate::value::Tiling::offset),
//! the definition the fast paths are tested against.
//!
//! `unsafe` is confined to `kernels.rs` and `simd/`: non-temporal stores
//! (`_mm_stream_si128`, `_mm256_stream_si256`, `_mm_sfence`), calls into
//! `#[target_feature]` functions (SSE2 is baseline; AVX2 is detected at
//! run time with `std`) and prefetch hints. `tests/relayout_miri.rs` runs
//! every such block under Miri (`cargo +nightly miri test --test
//! relayout_miri`, and with `RUSTFLAGS="-C target-feature=+avx2"` for the
//! AVX2 paths; the typed copies' entries into them,
//! `tests/relayout_typed_fast.rs`); Miri cannot execute `movntdq`, so there
//! the same aligned pointer takes a plain store.
//!
//! ```
//! use tilelayout::storage::{CompiledShape, TiledArray, TiledView};
//! use tilelayout::value::parse_shape;
//! let shape = parse_shape("f32[3,5]{1,0:T(2,2)}")?;
//! let mut a = TiledArray::<f32>::new(&shape, 0.0)?;
//! a.set(&[2, 3], 7.5)?;
//! assert_eq!(a.units()[17], 7.5); // element (2,3) lives in slot 17
//! assert_eq!(a.units().len(), 24); // 24 slots, 9 of them padding
//! let compiled = CompiledShape::new(&shape)?; // the tiling, compiled once
//! let v = TiledView::<f32>::new(&compiled, a.units())?;
//! assert_eq!(v.get(&[2, 3])?, 7.5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod element;
mod error;
mod iter;
mod meta;
pub mod packed;
mod typed;
mod view;

#[cfg(feature = "alloc")]
mod array;
mod bitzip;
mod caches;
mod choose;
mod fixed;
mod kernels;
mod nest;
mod nibbles;
mod plan;
mod relayout;
mod simd;
mod walk;

pub use crate::scalar::{i1, i2, i4, u1, u2, u4};
pub use element::{Element, Packing, Unit};
pub use error::StorageError;
pub use iter::{LogicalIter, MemoryIter};
pub use meta::CompiledShape;
pub use typed::{TypedArray, TypedStorage, TypedView, TypedViewMut, UnitOf, ValueOf};
pub use view::{TiledView, TiledViewMut};

#[cfg(feature = "alloc")]
pub use array::TiledArray;
pub use caches::Caches;
pub use nest::Kernel;
pub use plan::{ArrayLayout, CuteStorage, Strided};
pub use relayout::{PlanStats, RelayoutPlan};
pub use simd::Simd;

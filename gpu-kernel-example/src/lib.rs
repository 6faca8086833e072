//! `tilelayout` inside GPU kernels: device functions that compute the index
//! maps a CUDA kernel needs, built for `nvptx64-nvidia-cuda`.
//!
//! ```text
//! rustup +nightly component add rust-src
//! cd gpu-kernel-example
//! cargo +nightly rustc --release --target nvptx64-nvidia-cuda -Zbuild-std=core -- --emit asm
//! ```
//!
//! Each `#[no_mangle] extern "C"` function becomes a `.visible .func` of the
//! PTX module, callable from CUDA C++ (declare it `extern "C" __device__`
//! and link the module) or from a Rust kernel. `.ci/check-ptx` builds this
//! crate, checks that none of these functions has a branch, a division or a
//! call, and, where `ptxas` is available, that `ptxas --gpu-name sm_80`
//! accepts the module.
//!
//! The functions take plain integers (thread and element coordinates) and
//! return offsets: what a kernel then does with them (`ld.shared`,
//! `cp.async`, `ldmatrix`, `mma`) stays in the kernel.
#![no_std]

use half::bf16;
use tilelayout::gpu::{
    AccTileRowMajor, BaseTile, BaseTileRowMajor, Bytes128, CopyPlan, GlobalTile, LdMatrix,
    RowMajor, RowReuseCont, SharedTile, SwizzledRowMajor,
};
use tilelayout::{layout, Layout};

/// `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`, a TPU layout of XLA.
pub type Bf16Tpu = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)});

/// The element offset of `(i0, i1, i2, i3)` under [`Bf16Tpu`].
#[no_mangle]
#[inline(never)]
pub extern "C" fn tl_xla_offset_bf16(i0: usize, i1: usize, i2: usize, i3: usize) -> usize {
    Bf16Tpu::offset([i0, i1, i2, i3])
}

/// A 64×64 bf16 shared tile, swizzled at 128 bytes as TileFusion lays it out.
pub type SharedA = SwizzledRowMajor<bf16, Bytes128, 64, 64>;

/// The shared-memory element offset of `(i, j)` in [`SharedA`].
#[no_mangle]
#[inline(never)]
pub extern "C" fn tl_swizzled_offset(i: usize, j: usize) -> usize {
    <SharedA as tilelayout::gpu::Layout2>::offset(i, j)
}

/// The copy of a 64×64 bf16 tile from row-major global memory into
/// [`SharedA`] by 4 warps (2×2), 128 bits per lane.
pub type LoadA<'a> =
    CopyPlan<GlobalTile<&'a [bf16], RowMajor<64, 64>>, SharedTile<&'a mut [bf16], SharedA>, RowMajor<2, 2>>;

/// One step of [`LoadA`]: for thread `tid` (of 128) at `step` (of
/// [`LoadA::STEPS`]), the global and the shared offsets of the 16 bytes it
/// copies (`cp.async.cg.shared.global [shared], [global], 16`), packed as
/// `global << 32 | shared`.
#[no_mangle]
#[inline(never)]
pub extern "C" fn tl_copy_step(tid: u32, step: u32) -> u64 {
    let (warp, lane) = (tid as usize / 32 % 4, tid as usize % 32);
    let (wr, wc) = (warp / 2, warp % 2);
    let v = LoadA::vector_in(wr, wc, lane, step as usize % LoadA::STEPS);
    let global = <RowMajor<64, 64> as tilelayout::gpu::Layout2>::offset(v.row, v.col);
    let shared = <SharedA as tilelayout::gpu::Layout2>::offset(v.row, v.col);
    ((global as u64) << 32) | shared as u64
}

/// The row of element `(i, j)` of a 16×16 accumulator (`mma.m16n8k16`'s
/// `C`, two `n8` halves) held by which lane in which register, packed as
/// `lane << 8 | slot`.
#[no_mangle]
#[inline(never)]
pub extern "C" fn tl_acc_lane_slot(i: usize, j: usize) -> u32 {
    let (lane, slot) = AccTileRowMajor::lane_slot(i % 16, j % 16);
    ((lane as u32) << 8) | slot as u32
}

/// The shared offset lane `lane` hands `ldmatrix.x4` for base tile
/// `(i, j)` (of 2×4) of warp `warp` (of 2×2) loading operand `A` from
/// [`SharedA`], the warps of a row sharing it.
#[no_mangle]
#[inline(never)]
pub extern "C" fn tl_ldmatrix_row(warp: usize, lane: usize, i: usize, j: usize) -> usize {
    type P = LdMatrix<SharedA, BaseTileRowMajor, RowMajor<2, 4>, RowMajor<2, 2>, RowReuseCont>;
    let (r, c) = P::row_at(warp % 4 / 2, warp % 2, lane % 32, i % 2, j % 4);
    <SharedA as tilelayout::gpu::Layout2>::offset(r, c)
}

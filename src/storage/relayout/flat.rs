//! The typed copies' fast path: a plan that is a compile-time constant
//! and is one kernel over at most two loops runs with its loops in the
//! code.
//!
//! A typed copy of a small tile (`bf16[8,128]` rows ↔
//! `{1,0:T(8,128)(2,1)}`, 2 KiB) moves in tens of nanoseconds, so what the
//! general executor pays per call before and around the kernel (reading
//! the kept nest, the bounds walk, the streaming decision, the kernels'
//! block iterators, the slicing checks) was most of its cost. Here the
//! plan's [`Flat`] form is a constant of the layout type ([`KnownPlan`]):
//! the executor below is generic over it and `#[inline(always)]`, and the
//! SIMD kernels are entered through [`known`](crate::storage::simd::known),
//! whose `#[target_feature]` functions are monomorphized per plan, so the
//! compiler sees every count and stride.
//!
//! The bytes written are the general executor's: the same kernels on the
//! same blocks (its `walk.free` → `block_rep2` → kernel sequence for a
//! nest whose loops are all free), with plain stores — the fast path is
//! taken only where the general one would not stream either.

use core::marker::PhantomData;
use core::mem::size_of;

use super::{Exec, Fill, Kernel};
use crate::storage::caches::Caches;
use crate::storage::element::Unit;
use crate::storage::nest::{Loop, FREE};
use crate::storage::simd::known::{self, KnownBlocks};
use crate::storage::simd::{self, Blocks, Isa};

/// A plan that is one kernel call over at most two loops, every value of
/// every loop in bounds, no destination padding: `c2` (outer) and `c`
/// repeat the kernel's block `a` × `b` ([`Loop::ONE`] when absent).
///
/// Invariant (from [`Exec::flat`]): the kernel is [`Kernel::Runs`], or a
/// zip or unzip of 2 × 16-bit or 4 × 8-bit slots; `unit` is the slot's
/// byte width; the loops cover `dst_slots` destination slots exactly once
/// from `src_slots` source slots.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flat {
    kernel: Kernel,
    c2: Loop,
    c: Loop,
    a: Loop,
    b: Loop,
    unit: usize,
    src_slots: usize,
    dst_slots: usize,
}

impl Exec {
    /// The plan as a [`Flat`], if it is one.
    pub(crate) const fn flat(&self) -> Option<Flat> {
        let Some(nest) = &self.nest else {
            return None;
        };
        // (the cheap refusals first: the general executor asks on every
        // call)
        let (da, db) = nest.block_dims();
        if self.empty
            || !matches!(self.fill, Fill::None)
            || nest.outer_packed().len() > 2
            || da != FREE
            || db != FREE
        {
            return None;
        }
        let (outer, a, b, kernel) = nest.parts();
        let unit = (self.bits / 8) as usize;
        let kernel_ok = match kernel {
            Kernel::Runs => true,
            Kernel::Interleave(k) | Kernel::Deinterleave(k) => {
                (k == 2 && unit == 2) || (k == 4 && unit == 1)
            }
            _ => false,
        };
        let (c2, c) = match outer {
            [] => (Loop::ONE, Loop::ONE),
            [c] => (Loop::ONE, c.unpack()),
            [c2, c] => (c2.unpack(), c.unpack()),
            _ => return None,
        };
        let free = c2.dim == FREE && c.dim == FREE && a.dim == FREE && b.dim == FREE;
        // (a zip of `k × k` squares takes its own kernel: not here)
        let square = match kernel {
            Kernel::Interleave(k) => {
                let k = k as u64;
                a.n == k && b.n == k && a.src == 1 && b.src == k && a.dst == k && b.dst == 1
            }
            _ => false,
        };
        let max = usize::MAX as u64;
        if !kernel_ok
            || !free
            || square
            || self.empty
            || !matches!(self.fill, Fill::None)
            || !self.bits.is_multiple_of(8)
            || self.bits > 64
            || self.src_slots > max
            || self.dst_slots > max
        {
            return None;
        }
        Some(Flat {
            kernel,
            c2,
            c,
            a,
            b,
            unit,
            src_slots: self.src_slots as usize,
            dst_slots: self.dst_slots as usize,
        })
    }
}

impl Flat {
    /// The kernel's blocks, as the general executor hands them to a zip
    /// (`block_rep2`: rows on the source side) or an unzip (the same
    /// blocks with the sides swapped).
    const fn blocks(&self) -> Blocks {
        let (c2, c, a, b) = (&self.c2, &self.c, &self.a, &self.b);
        let (len, rs, inner, outer) = match self.kernel {
            Kernel::Deinterleave(_) => (b.n, a.dst, (c.n, c.dst, c.src), (c2.n, c2.dst, c2.src)),
            _ => (a.n, b.src, (c.n, c.src, c.dst), (c2.n, c2.src, c2.dst)),
        };
        Blocks {
            len: len as usize,
            rs: rs as usize,
            count: inner.0 as usize,
            rstep: inner.1 as usize,
            pstep: inner.2 as usize,
            count2: outer.0 as usize,
            rstep2: outer.1 as usize,
            pstep2: outer.2 as usize,
            next: 0,
        }
    }
}

impl Flat {
    /// Runs the plan from `src` into `dst` (lengths checked by the caller)
    /// with plain stores: the general executor's path for a [`Flat`]
    /// plan that does not stream. These are the kernels its walk reaches
    /// (`walk.free` → `block_rep2` → the zip, unzip or runs), on the same
    /// blocks, called directly: the walk's layers (the bounds test, the
    /// free loops, the block repeats, the streaming and extent checks)
    /// were most of a small plan's fixed cost. `false` (nothing written)
    /// if `T` is not the slot width.
    #[inline]
    pub(crate) fn run_plain<T: Unit>(&self, isa: Isa, src: &[T], dst: &mut [T]) -> bool {
        if size_of::<T>() != self.unit {
            return false;
        }
        let bl = self.blocks();
        match self.kernel {
            Kernel::Runs => runs(self, src, dst),
            Kernel::Interleave(2) => {
                let (r, p) = (bl.rows_extent(2), bl.packed_extent(2));
                let d: &mut [u16] = bytemuck::cast_slice_mut(dst);
                simd::zip2_u16(isa, &bytemuck::cast_slice(src)[..r], &mut d[..p], bl, false);
            }
            Kernel::Deinterleave(2) => {
                let (r, p) = (bl.rows_extent(2), bl.packed_extent(2));
                let d: &mut [u16] = bytemuck::cast_slice_mut(dst);
                simd::unzip2_u16(isa, &bytemuck::cast_slice(src)[..p], &mut d[..r], bl, false);
            }
            Kernel::Interleave(_) => {
                let (r, p) = (bl.rows_extent(4), bl.packed_extent(4));
                let d: &mut [u8] = bytemuck::cast_slice_mut(dst);
                simd::zip4_u8(isa, &bytemuck::cast_slice(src)[..r], &mut d[..p], bl, false);
            }
            Kernel::Deinterleave(_) => {
                let (r, p) = (bl.rows_extent(4), bl.packed_extent(4));
                let d: &mut [u8] = bytemuck::cast_slice_mut(dst);
                simd::unzip4_u8(isa, &bytemuck::cast_slice(src)[..p], &mut d[..r], bl, false);
            }
            // ([`Exec::flat`] admits no other kernel)
            _ => return false,
        }
        true
    }
}

/// A type whose plan is a compile-time constant ([`Exec::flat`] of it).
pub(crate) trait KnownPlan {
    /// The plan, if it is a [`Flat`].
    const FLAT: Option<Flat>;
}

/// The kernel blocks of plan `P`, for [`known`]'s kernels.
struct Known<P>(PhantomData<P>);

impl<P: KnownPlan> KnownBlocks for Known<P> {
    const BLOCKS: Blocks = match &P::FLAT {
        Some(f) => f.blocks(),
        None => Blocks {
            len: 0,
            rs: 0,
            count: 0,
            rstep: 0,
            pstep: 0,
            count2: 0,
            rstep2: 0,
            pstep2: 0,
            next: 0,
        },
    };
}

/// Runs plan `P` from `src` into `dst` if it is a [`Flat`], both lengths
/// are the plan's, `U` is its slot width and the general executor would
/// not stream ([`Caches::streams`] is false for its sizes); `false`
/// (nothing written) otherwise, for the caller to take the general path
/// (which reports the errors).
#[inline(always)]
pub(crate) fn run<P: KnownPlan, U: Unit>(src: &[U], dst: &mut [U]) -> bool {
    let Some(f) = P::FLAT else {
        return false;
    };
    if size_of::<U>() != f.unit
        || src.len() != f.src_slots
        || dst.len() != f.dst_slots
        || Caches::host().streams((f.src_slots * f.unit) as u64, (f.dst_slots * f.unit) as u64)
    {
        return false;
    }
    let isa = Isa::new(None);
    match f.kernel {
        Kernel::Runs => runs(&f, src, dst),
        Kernel::Interleave(2) => {
            let bl = &Known::<P>::BLOCKS;
            known::zip2_u16::<Known<P>>(
                isa,
                &bytemuck::cast_slice(src)[..bl.rows_extent(2)],
                &mut bytemuck::cast_slice_mut(dst)[..bl.packed_extent(2)],
            );
        }
        Kernel::Interleave(_) => {
            let bl = &Known::<P>::BLOCKS;
            known::zip4_u8::<Known<P>>(
                isa,
                &bytemuck::cast_slice(src)[..bl.rows_extent(4)],
                &mut bytemuck::cast_slice_mut(dst)[..bl.packed_extent(4)],
            );
        }
        Kernel::Deinterleave(2) => {
            let bl = &Known::<P>::BLOCKS;
            known::unzip2_u16::<Known<P>>(
                isa,
                &bytemuck::cast_slice(src)[..bl.packed_extent(2)],
                &mut bytemuck::cast_slice_mut(dst)[..bl.rows_extent(2)],
            );
        }
        Kernel::Deinterleave(_) => {
            let bl = &Known::<P>::BLOCKS;
            known::unzip4_u8::<Known<P>>(
                isa,
                &bytemuck::cast_slice(src)[..bl.packed_extent(4)],
                &mut bytemuck::cast_slice_mut(dst)[..bl.rows_extent(4)],
            );
        }
        // ([`Exec::flat`] admits no other kernel)
        _ => return false,
    }
    true
}

/// The runs of a [`Kernel::Runs`] plan: `c2.n × c.n × a.n` runs of `b.n`
/// slots.
#[inline(always)]
fn runs<U: Unit>(f: &Flat, src: &[U], dst: &mut [U]) {
    let (c2, c, a) = (&f.c2, &f.c, &f.a);
    let n = f.b.n as usize;
    for u in 0..c2.n as usize {
        for v in 0..c.n as usize {
            for i in 0..a.n as usize {
                let s = u * c2.src as usize + v * c.src as usize + i * a.src as usize;
                let d = u * c2.dst as usize + v * c.dst as usize + i * a.dst as usize;
                dst[d..d + n].copy_from_slice(&src[s..s + n]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::storage::{RelayoutPlan, Strided};
    use crate::value::parse_shape;

    /// Whether the plans rows → `text` and back are [`super::Flat`].
    fn flat(text: &str, dims: [u64; 2], bits: u32) -> [bool; 2] {
        let t = parse_shape(text).unwrap();
        let r = Strided::row_major(&dims, bits).unwrap();
        let is = |p: RelayoutPlan| p.exec().and_then(|e| e.flat()).is_some();
        [
            is(RelayoutPlan::new(r, t).unwrap()),
            is(RelayoutPlan::new(t, r).unwrap()),
        ]
    }

    #[test]
    fn small_tiles_are_flat_and_padded_or_deep_nests_are_not() {
        // the cases of tests/relayout_typed_fast.rs
        assert_eq!(
            flat("bf16[8,128]{1,0:T(8,128)(2,1)}", [8, 128], 16),
            [true; 2]
        );
        assert_eq!(
            flat("bf16[16,128]{1,0:T(8,128)(2,1)}", [16, 128], 16),
            [true; 2]
        );
        assert_eq!(flat("s8[8,128]{1,0:T(8,128)(4,1)}", [8, 128], 8), [true; 2]);
        assert_eq!(flat("f32[8,128]{1,0:T(8,128)}", [8, 128], 32), [true; 2]);
        assert_eq!(flat("f32[16,256]{1,0:T(8,128)}", [16, 256], 32), [true; 2]);
        // three loops around the zip; padding
        assert_eq!(
            flat("bf16[16,256]{1,0:T(8,128)(2,1)}", [16, 256], 16),
            [false; 2]
        );
        assert_eq!(flat("f32[3,5]{1,0:T(2,2)}", [3, 5], 32), [false; 2]);
    }
}

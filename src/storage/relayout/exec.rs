//! Running a plan: [`Exec`], what execution needs and nothing more, so
//! that a plan kept as a compile-time constant (one per layout type the
//! typed copies use) stays small.

use core::mem::size_of;

use super::{Kernel, PlanStats, Sides};
use crate::storage::caches::Caches;
use crate::storage::element::Unit;
use crate::storage::error::StorageError;
use crate::storage::kernels::{self, Mover};
use crate::storage::nest::{Kept, Loop, KEPT_DIMS};
use crate::storage::simd::{Isa, Simd};
use crate::storage::walk::Walk;
use crate::value::bits_to_bytes;

use super::wide::WideBytes;

/// How destination padding is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fill {
    /// There is none.
    None,
    /// While copying: the loops cover the destination densely.
    Inline,
    /// In a pass before copying.
    Prefill,
}

/// What running a plan needs: the kept loop nest (`None`: the element-wise
/// path, which needs the plan's sides as well), how padding is filled and
/// the storage sizes.
///
/// Invariant: `dst_tail <= dst_slots`; with `fill == Inline` the nest's
/// loops cover the destination's slots below `dst_tail` exactly once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Exec {
    pub(crate) nest: Option<Kept>,
    pub(crate) src_slots: u64,
    pub(crate) dst_slots: u64,
    /// Where the destination's tail padding (`L(n)`) starts.
    pub(crate) dst_tail: u64,
    pub(crate) bits: u32,
    pub(crate) fill: Fill,
    /// The source holds no element (a dim of size 0): nothing moves.
    pub(crate) empty: bool,
    pub(crate) streaming: Option<bool>,
    pub(crate) simd: Option<Simd>,
}

/// One part of a plan run on its own: the values `values` of the outermost
/// loop of `nest` (the plan's loops, the split one first), whose
/// destination slots are a contiguous range (`last`: the part that ends the
/// destination, which also writes the tail padding).
#[derive(Clone, Debug)]
pub(crate) struct Part<'n> {
    pub(crate) nest: &'n Kept,
    pub(crate) values: core::ops::Range<u64>,
    pub(crate) last: bool,
}

impl Exec {
    /// What the plan does.
    pub(crate) fn stats(&self) -> PlanStats {
        let (kernel, outer_loops, block) = match &self.nest {
            Some(n) => (n.kernel, n.outer_len(), (n.a().n, n.b().n)),
            None => (Kernel::Elementwise, 0, (0, 0)),
        };
        PlanStats {
            kernel,
            outer_loops,
            block,
            inline_padding: self.fill == Fill::Inline,
            streaming: self.streams(),
        }
    }

    /// Storage units the source needs (slots, or bytes when packed).
    #[inline]
    pub(crate) fn src_units(&self, unit_bytes: usize) -> u64 {
        units(self.src_slots, self.bits, unit_bytes)
    }

    /// Storage units the destination needs.
    #[inline]
    pub(crate) fn dst_units(&self, unit_bytes: usize) -> u64 {
        units(self.dst_slots, self.bits, unit_bytes)
    }

    fn streams(&self) -> bool {
        let kernel_ok = match &self.nest {
            // (packed sub-byte slots: the zips into 32-bit columns stream,
            // and the nibble unzip into its 8 rows; the other kernels
            // there store plainly. The 2- and 1-bit unzips store 16 or 32
            // rows a step, unaligned on a plain `Vec`: streamed, every
            // line was written in pieces — u2[8192²] tiles → rows 3.2
            // GB/s streamed vs 5.7 plain, pred 2.1 vs 3.2, data not in
            // cache, one thread, Zen 4. The other way, the 2- and 1-bit
            // zips gain more from streaming than the common rule gives
            // them: at 2–4 MiB a side, data not in cache, pred rows →
            // tiles 2.9 GB/s plain vs 6.6 streamed, u2 5.9 vs 10.6; warm in
            // the L3 streaming loses 12–20% (pred 9.5–10 vs 7.7, u2 16–18
            // vs 15.7). Left on the common rule, which picks the warm
            // crossover)
            Some(n) => {
                n.kernel != Kernel::Block
                    && (self.bits >= 8
                        || matches!(n.kernel, Kernel::Interleave(k)
                            if k as u32 * self.bits == 32)
                        || matches!(n.kernel, Kernel::Deinterleave(k)
                            if k as u32 * self.bits == 32 && k <= 8))
            }
            None => false,
        };
        // (the size only when asked: the division and the caches' atomics
        // were a fixed cost of every small plan's call; the footprint is
        // both sides: these kernels read each source line once and write
        // each destination line whole, see `Caches::streams`)
        kernel_ok
            && cfg!(target_arch = "x86_64")
            && self.streaming.unwrap_or_else(|| {
                let (src, dst) = (
                    units(self.src_slots, self.bits, 1),
                    units(self.dst_slots, self.bits, 1),
                );
                !self.unzips_below_avx512() && Caches::host().streams(src, dst)
            })
    }

    /// An unzip (tiles → 2, 4 or 8 rows) run by the AVX2 or SSE2 kernels:
    /// left to plain stores unless streaming is asked for. Those kernels
    /// write their rows a line or half a line at a time in turn, and on
    /// the one AVX2-only host measured (AMD EPYC Zen 3 under KVM, L2
    /// 512 KiB, L3 32 MiB) streaming them lost to plain stores, [4096,
    /// 4096] tiles → rows at 5.3–6.3 GB/s streamed against 7.6–10.2
    /// plain (memcpy 9–10 GB/s): bf16 0.62x → 0.86x memcpy, s8 0.59x →
    /// 0.83x, s4 0.35x → 0.86x (plain `Vec`s, same run). Neither a
    /// prefetch distance, nor runs of 128–512 bytes per row before the
    /// next row (5.5 → at most 7.4 GB/s), nor 16-byte stores closed the
    /// gap; the zips (one packed stream) and the gathers (a stage copied
    /// out row run by row run) gain from streaming on that host and keep
    /// it. A plain store's worst case is its read for ownership, a third
    /// more traffic; a streaming store's here was 2.5x slower. The
    /// AVX-512 unzips store whole lines and stream (measured on Zen 4).
    fn unzips_below_avx512(&self) -> bool {
        matches!(&self.nest, Some(n) if matches!(n.kernel, Kernel::Deinterleave(_)))
            && !Isa::new(self.simd).avx512()
    }

    /// Checks the unit width and both lengths, as
    /// [`RelayoutPlan::execute`](super::RelayoutPlan::execute) documents,
    /// then runs the plan (on loops: the element-wise path is the caller's).
    ///
    /// # Errors
    /// As [`RelayoutPlan::execute`](super::RelayoutPlan::execute).
    pub(crate) fn execute_with_padding<U: Unit>(
        &self,
        src: &[U],
        dst: &mut [U],
        pad: U,
    ) -> Result<(), StorageError> {
        self.check(src, dst)?;
        self.run_part(src, dst, pad, None, None);
        Ok(())
    }

    /// The unit width and both lengths, as
    /// [`RelayoutPlan::execute`](super::RelayoutPlan::execute) documents.
    pub(crate) fn check<U: Unit>(&self, src: &[U], dst: &[U]) -> Result<(), StorageError> {
        let ub = size_of::<U>();
        let packed = self.bits < 8;
        // bytes of wider slots: `pred` in `E(16)`..`E(128)` ([`WideBytes`])
        let wide_bytes = ub == 1 && self.bits > 8;
        if (packed && ub != 1) || (!packed && !wide_bytes && 8 * ub as u32 != self.bits) {
            return Err(StorageError::ElementSize {
                bits: self.bits as u64,
            });
        }
        for (len, need) in [
            (src.len(), self.src_units(ub)),
            (dst.len(), self.dst_units(ub)),
        ] {
            if len as u64 != need {
                return Err(StorageError::Length {
                    expected: need,
                    found: len,
                });
            }
        }
        Ok(())
    }

    /// Runs the plan (`part: None`) or one part of it into `dst`, the part's
    /// destination range (after [`Exec::check`]); `sides` for the
    /// element-wise path.
    pub(crate) fn run_part<U: Unit>(
        &self,
        src: &[U],
        dst: &mut [U],
        pad: U,
        part: Option<&Part>,
        sides: Option<&Sides>,
    ) {
        let nt = self.streams();
        // (unpacked only for a gather nest)
        let unpacked;
        let gather: &[Loop] = match &self.nest {
            Some(n) if n.kernel == Kernel::Gather => {
                unpacked = n.gather();
                &unpacked
            }
            _ => &[],
        };
        if size_of::<U>() == 1 && self.bits > 8 {
            let (s, d): (&[u8], &mut [u8]) =
                (bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst));
            let width = self.bits as usize / 8;
            let slots = (d.len() / width) as u64;
            let pad = bytemuck::bytes_of(&pad)[0];
            self.run(
                &mut WideBytes {
                    src: s,
                    dst: d,
                    width,
                    pad,
                    gather,
                },
                part,
                slots,
                sides,
            );
            return;
        }
        if self.bits < 8 {
            let (s, d): (&[u8], &mut [u8]) =
                (bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst));
            let pad = bytemuck::bytes_of(&pad)[0];
            let slots = d.len() as u64 * 8 / self.bits as u64;
            self.run(
                &mut kernels::BitMover {
                    src: s,
                    dst: d,
                    bits: self.bits,
                    pad,
                    isa: Isa::new(self.simd),
                    gather,
                    ahead: 0,
                    nt,
                },
                part,
                slots,
                sides,
            );
            return;
        }
        // a flat plan that does not stream: its kernels called directly
        let flat = match part {
            None if !nt => self.flat(),
            _ => None,
        };
        macro_rules! go {
            ($src:expr, $dst:expr, $pad:expr) => {{
                let d = $dst;
                if let Some(f) = &flat {
                    if f.run_plain(Isa::new(self.simd), $src, d) {
                        return;
                    }
                }
                let slots = d.len() as u64;
                self.run(
                    &mut kernels::UnitMover {
                        src: $src,
                        dst: d,
                        pad: $pad,
                        nt,
                        isa: Isa::new(self.simd),
                        #[cfg(feature = "alloc")]
                        gather,
                        #[cfg(feature = "alloc")]
                        stage: alloc::vec![$pad; self.stage_len(size_of_val(&$pad))],
                        #[cfg(feature = "alloc")]
                        pending: None,
                        next: 0,
                        ahead: None,
                        #[cfg(all(target_arch = "x86_64", feature = "alloc"))]
                        joiner: nt.then(kernels::stream::Joiner::new),
                        first_slot: 0,
                    },
                    part,
                    slots,
                    sides,
                );
            }};
        }
        use bytemuck::{cast, cast_slice as c, cast_slice_mut as cm};
        // the kernels are written for the unsigned unit of each width
        match size_of::<U>() {
            1 => go!(c::<U, u8>(src), cm::<U, u8>(dst), cast::<U, u8>(pad)),
            2 => go!(c::<U, u16>(src), cm::<U, u16>(dst), cast::<U, u16>(pad)),
            4 => go!(c::<U, u32>(src), cm::<U, u32>(dst), cast::<U, u32>(pad)),
            8 => go!(c::<U, u64>(src), cm::<U, u64>(dst), cast::<U, u64>(pad)),
            _ => go!(src, dst, pad),
        }
    }

    #[cfg(feature = "alloc")]
    fn stage_len(&self, z: usize) -> usize {
        match &self.nest {
            // (two halves, for `UnitMover::gather_overlapped`, and a
            // line's worth more, to start them on a line)
            Some(n) if n.kernel == Kernel::Gather => {
                2 * kernels::stage_half((n.a().n * n.b().n) as usize, z) + 64
            }
            _ => 0,
        }
    }

    /// Runs the plan, or one part of it (`dst_slots`: the slots of the
    /// mover's destination).
    fn run<M: Mover>(&self, m: &mut M, part: Option<&Part>, dst_slots: u64, sides: Option<&Sides>) {
        if self.fill == Fill::Prefill {
            m.pad(0, dst_slots as usize);
        }
        match &self.nest {
            None => {
                if let Some(sides) = sides {
                    sides.elementwise(m);
                }
            }
            Some(nest) => {
                let nest = part.map_or(nest, |p| p.nest);
                let fill = self.fill == Fill::Inline;
                let split = Walk::split(nest, fill);
                let walk = Walk::new(nest, fill, split.as_ref());
                // the dims' offsets fixed by the loops walked so far (only
                // for bounded walks: zeroing it was a fixed cost of every
                // call)
                let mut e = [0u64; KEPT_DIMS];
                let n = walk.sizes().len();
                // the part's first slot (a part's offsets are its own)
                let mut first = 0;
                match part {
                    // every value of every loop in bounds: plain loops, no
                    // bounds to track (a small tile's whole cost otherwise)
                    None if !self.empty && walk.all_free() => walk.free(m, 0, 0, 0),
                    None if !self.empty => walk.walk(m, 0, 0, 0, &mut e[..n]),
                    None if walk.fill => walk.pad_tree(m, 0, 0),
                    None => {}
                    Some(p) => {
                        if let Some(l) = nest.outer(0) {
                            first = p.values.start * l.dst;
                            let s = (p.values.start * l.src) as usize;
                            walk.values(m, 0, p.values.clone(), s, 0, &mut e[..n]);
                        }
                    }
                }
                let last = part.is_none_or(|p| p.last);
                if walk.fill && last {
                    let tail = self.dst_tail;
                    m.pad((tail - first) as usize, (self.dst_slots - tail) as usize);
                }
            }
        }
        m.finish();
    }
}

/// (inline: with `unit_bytes` a `size_of` the division folds to a shift;
/// a run-time division was a fixed cost of every call's length check)
#[inline]
fn units(slots: u64, bits: u32, unit_bytes: usize) -> u64 {
    bits_to_bytes(slots, bits as u64).unwrap_or(u64::MAX) / unit_bytes.max(1) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{RelayoutPlan, Strided};

    /// The plans row-major → `{ty}[16384,16384]{1,0:{tile}}` and back
    /// (past every host's streaming threshold; planning allocates nothing).
    fn zip_and_unzip(ty: &str, bits: u32, tile: &str) -> (RelayoutPlan, RelayoutPlan) {
        let n = 16384;
        let t = crate::value::parse_shape(&alloc::format!("{ty}[{n},{n}]{{1,0:{tile}}}")).unwrap();
        let r = Strided::row_major(&[n, n], bits).unwrap();
        (
            RelayoutPlan::new(r, t).unwrap(),
            RelayoutPlan::new(t, r).unwrap(),
        )
    }

    /// The unzips into 2, 4 and 8 rows stream by themselves only at the
    /// AVX-512 level (`Exec::unzips_below_avx512`); asked to, they stream
    /// at every level; the zips stream at every level.
    #[test]
    fn the_unzips_stream_by_themselves_at_the_avx512_level_only() {
        use crate::storage::Simd;
        let x86 = cfg!(target_arch = "x86_64");
        let avx512 = x86 && Simd::detected() >= Simd::Avx512;
        for (ty, bits, tile) in [
            ("bf16", 16u32, "T(8,128)(2,1)"),
            ("s8", 8, "T(8,128)(4,1)"),
            ("s4", 4, "T(8,128)(8,1)E(4)"),
        ] {
            let (zip, unzip) = zip_and_unzip(ty, bits, tile);
            for (level, want) in [
                (None, avx512),
                (Some(Simd::Avx512), avx512),
                (Some(Simd::Avx2), false),
                (Some(Simd::Sse2), false),
            ] {
                let plan = unzip.clone().with_simd(level);
                assert_eq!(plan.stats().streaming, want, "{ty} {level:?}");
                let forced = plan.with_streaming(Some(true)).stats().streaming;
                assert_eq!(forced, x86, "{ty} {level:?} asked");
                let zip = zip.clone().with_simd(level).stats().streaming;
                assert_eq!(zip, x86, "{ty} {level:?} zip");
            }
        }
    }

    #[test]
    fn only_the_sub_byte_unzips_of_many_rows_store_plainly() {
        // (arrays past every host's streaming threshold: 32–128 MiB a
        // side, the 105 MiB L3 seen so far streams from 26 MiB; planning
        // allocates nothing)
        for (ty, bits, tile, to_tiles, rows_back) in [
            ("s4", 4u32, "T(8,128)(8,1)E(4)", true, true),
            ("u2", 2, "T(16,128)(16,1)E(2)", true, false),
            ("pred", 1, "T(32,128)(32,1)E(1)", true, false),
        ] {
            let (zip, unzip) = zip_and_unzip(ty, bits, tile);
            assert_eq!(
                zip.stats().streaming,
                to_tiles && cfg!(target_arch = "x86_64"),
                "{ty}"
            );
            // (by themselves, the nibble unzips stream at the AVX-512
            // level only: the test above)
            let avx512 = crate::storage::Simd::detected() >= crate::storage::Simd::Avx512;
            assert_eq!(
                unzip.stats().streaming,
                rows_back && avx512 && cfg!(target_arch = "x86_64"),
                "{ty}"
            );
            // not even when asked
            let forced = unzip.with_streaming(Some(true)).stats().streaming;
            assert_eq!(forced, rows_back && cfg!(target_arch = "x86_64"), "{ty}");
        }
    }

    #[test]
    fn a_kept_plan_fits_a_kib_on_32_bit_targets() {
        // What a typed copy keeps per layout type and direction (the
        // constant is a `Result<Option<Exec>, StorageError>`). On
        // thumbv7em (32-bit `usize`, not testable here) `nm --size-sort`
        // on nostd-example's release build shows 800 bytes a constant;
        // on 64-bit targets the loops' `usize` fields double.
        if cfg!(target_pointer_width = "64") {
            assert_eq!(size_of::<Result<Option<Exec>, StorageError>>(), 1408);
        }
    }
}

//! The host's data caches, and the relayout thresholds derived from them
//! (when to stream the destination, how far ahead to prefetch, which walk
//! streamed runs take), so that they follow the machine instead of the one
//! they were first measured on.
//!
//! Sizes come from CPUID on x86-64 (the deterministic cache parameters:
//! leaf 4 on Intel, 0x8000_001D on AMD; else AMD's 0x8000_0005/6), the
//! walk from its vendor string; read once per process and kept in atomics
//! (no allocator, no `std` needed).
//! Elsewhere, under Miri, and where CPUID reports nothing:
//! [`Caches::FALLBACK`].

use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// [`Caches::host`], once read (0: not yet).
static L1D: AtomicUsize = AtomicUsize::new(0);
/// See [`L1D`].
static L2: AtomicUsize = AtomicUsize::new(0);
/// See [`L1D`].
static LAST: AtomicUsize = AtomicUsize::new(0);
/// See [`L1D`].
static FAVOUR_WRITES: AtomicBool = AtomicBool::new(false);

/// Data cache sizes, in bytes, as one core sees them, and the walk its
/// memory takes streaming stores fastest in.
///
/// ```
/// use tilelayout::storage::Caches;
///
/// let c = Caches::host();
/// assert!(c.l1d >= 4 << 10 && c.last >= c.l1d);
/// // a copy streams once source and destination fill half the last level
/// let t = c.streaming_threshold() as u64;
/// assert!(c.streams(t, t) && !c.streams(t / 2, t / 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caches {
    /// Level-1 data cache.
    pub l1d: usize,
    /// Level-2 cache.
    pub l2: usize,
    /// The last level (L3 where there is one, else L2): on parts whose L3
    /// is split per core complex, the slice this core shares; at most 16
    /// MiB for each thread CPUID says shares it (a virtual machine sees
    /// its host's whole L3, which the host's other guests use too).
    pub last: usize,
    /// Whether streamed runs walk for the writes: few destination streams,
    /// each written up to a 4 KiB page a visit, though the source is then
    /// read several streams at once (f32 rows → `T(8,128)` a tile a block,
    /// 8 rows read and one stream written; `T(8,128)` → rows 8 tiles a
    /// block, 4 KiB of each of 8 rows a visit). Otherwise they walk in the
    /// source's order, one sequential read stream (a source row's 32 runs
    /// into 32 tiles; a tile's 8 runs into 8 rows).
    ///
    /// [`Caches::host`] sets it on Intel parts, where the walk for the
    /// writes was measured faster, and not on others, where it was
    /// measured slower. f32\[4096²\], plain `Vec`s 16 bytes into a line,
    /// streamed, ratio to memcpy in the same run, the walk in source order
    /// → the walk for the writes: Intel Xeon guest (CPUID family 6 model
    /// 167, KVM, 2 vCPU; L1d 48 KiB, L2 2 MiB, L3 105 MiB), three full
    /// bench runs each, rows → `T(8,128)` 0.67× → 0.89×, back 0.65× →
    /// 0.87×; AMD EPYC Zen 4 guest (family 25 model 17, KVM, 2 vCPU; L1d
    /// 32 KiB, L2 1 MiB, L3 32 MiB), two to four runs each, rows →
    /// `T(8,128)` 1.03–1.09× → 0.90–0.92×, back 1.02–1.45× → 0.72–0.85×
    /// (with the next 8 tiles prefetched as these are read, 0.82–1.03×,
    /// still below the source's order). The vendor stands for what was measured on one
    /// part of each; a machine that differs can be planned for with
    /// [`RelayoutPlan::for_caches`](crate::storage::RelayoutPlan::for_caches).
    pub favour_writes: bool,
}

impl Caches {
    /// Assumed when the CPU does not say: 32 KiB L1d, 1 MiB L2, 32 MiB
    /// L3 (the smallest last level among the hosts the kernels were
    /// measured on).
    pub const FALLBACK: Caches = Caches {
        l1d: 32 << 10,
        l2: 1 << 20,
        last: 32 << 20,
        favour_writes: false,
    };

    /// This host's caches (CPUID, read once), or [`Caches::FALLBACK`].
    #[inline]
    pub fn host() -> Caches {
        let last = LAST.load(Ordering::Relaxed);
        if last != 0 {
            return Caches {
                l1d: L1D.load(Ordering::Relaxed),
                l2: L2.load(Ordering::Relaxed),
                last,
                favour_writes: FAVOUR_WRITES.load(Ordering::Relaxed),
            };
        }
        Self::first_read()
    }

    /// The first [`Caches::host`]: CPUID read and kept (out of line, so
    /// that the calls after it are three loads where they inline).
    #[cold]
    #[inline(never)]
    fn first_read() -> Caches {
        // (two threads may both read CPUID the first time: same answer)
        let c = read().unwrap_or(Caches::FALLBACK);
        L1D.store(c.l1d, Ordering::Relaxed);
        L2.store(c.l2, Ordering::Relaxed);
        FAVOUR_WRITES.store(c.favour_writes, Ordering::Relaxed);
        LAST.store(c.last, Ordering::Relaxed);
        c
    }

    /// Whether a relayout reading `src` bytes and writing `dst` bytes
    /// should write with non-temporal (streaming) stores: when its
    /// footprint, source plus destination, fills half the last level or
    /// more, and the destination outgrows the L2.
    ///
    /// The kernels that stream (zips, unzips, runs, staged gathers) read
    /// each source line once and write each destination line whole, so
    /// what a plain store costs is the read of a destination line it is
    /// about to overwrite, and what it buys is a destination still in
    /// cache afterwards. One copy of data not in cache (what a user does
    /// with a large array) gains from streaming at every size above the
    /// L2; data already in cache loses from it until the footprint no
    /// longer fits. Measured on this rule's first host (Zen 4, 32 MiB L3,
    /// buffers 16 bytes into a line, GB/s of glibc's memcpy vs an AVX2
    /// streaming copy): warm 8 MiB 33 vs 28, 12 MiB 24 vs 28, 16 MiB 18
    /// vs 28; evicted first 8 MiB 11.5 vs 13.6, 16 MiB 11.3 vs 13.4. Half
    /// the last level for the footprint sits at the warm crossover and is,
    /// for a copy between equal sizes, glibc's own default since 2.38
    /// (`non_temporal_threshold = shared / 4` in
    /// bminor/glibc `sysdeps/x86/dl-cacheinfo.h`, 0da58e8be087). (glibc
    /// 2.36 on that host computes 240 MiB from AMD's CPUID, so its memcpy
    /// there never streams below that: the bench's ratios compare with
    /// plain stores.)
    ///
    /// On 32, 48 and 105 MiB last levels a copy between equal sizes
    /// streams from 8, 12 and 26.25 MiB of destination; a destination
    /// under the L2 (1–2 MiB on those hosts) never streams: a consumer
    /// reads it from the core's own cache. ([`Caches::host`] counts at
    /// most 16 MiB of last level for each thread CPUID says shares it, so
    /// a 2-vCPU guest of a larger host counts 32 MiB and streams from 8.)
    pub const fn streams(&self, src: u64, dst: u64) -> bool {
        dst >= self.l2 as u64 && src.saturating_add(dst) >= self.last as u64 / 2
    }

    /// The destination size (bytes) from which a relayout between equal
    /// sizes streams ([`Caches::streams`]): a quarter of the last level,
    /// at least the L2. 8 MiB on a 32 MiB L3, 12 MiB on 48 MiB.
    pub fn streaming_threshold(&self) -> usize {
        (self.last / 4).max(self.l2)
    }

    /// How far ahead (bytes of source) the streaming zips prefetch: one
    /// L1d's worth, so the lines prefetched and not yet read fit in L1
    /// (measured on a 32 KiB L1d: 8 KiB 1.0x, 16 KiB 0.95–1.0x, 32 KiB
    /// 1.0–1.1x of memcpy), kept within 16–64 KiB.
    pub fn prefetch_ahead(&self) -> usize {
        self.l1d.clamp(16 << 10, 64 << 10)
    }
}

/// The sizes CPUID reports, if it does.
#[cfg(all(target_arch = "x86_64", not(miri)))]
fn read() -> Option<Caches> {
    use raw_cpuid::{CacheType, CpuId};
    let cpu = CpuId::new();
    let (mut l1d, mut l2, mut l3) = (0, 0, 0);
    for p in cpu.get_cache_parameters().into_iter().flatten() {
        let size = p
            .associativity()
            .saturating_mul(p.physical_line_partitions())
            .saturating_mul(p.coherency_line_size())
            .saturating_mul(p.sets());
        match (p.level(), p.cache_type()) {
            (1, CacheType::Data | CacheType::Unified) => l1d = size,
            (2, CacheType::Data | CacheType::Unified) => l2 = size,
            (3, CacheType::Data | CacheType::Unified) => {
                l3 = last_level_share(size, p.max_cores_for_cache())
            }
            _ => {}
        }
    }
    // AMD parts without the deterministic leaf
    if l1d == 0 {
        if let Some(i) = cpu.get_l1_cache_and_tlb_info() {
            l1d = i.dcache_size() as usize * 1024;
        }
    }
    if l2 == 0 || l3 == 0 {
        if let Some(i) = cpu.get_l2_l3_cache_and_tlb_info() {
            if l2 == 0 {
                l2 = i.l2cache_size() as usize * 1024;
            }
            if l3 == 0 {
                l3 = i.l3cache_size() as usize * (512 << 10);
            }
        }
    }
    let last = if l3 > 0 { l3 } else { l2 };
    let intel = cpu
        .get_vendor_info()
        .is_some_and(|v| v.as_str() == "GenuineIntel");
    (l1d > 0 && last > 0).then_some(Caches {
        l1d,
        l2: if l2 > 0 { l2 } else { last },
        last,
        favour_writes: intel,
    })
}

#[cfg(not(all(target_arch = "x86_64", not(miri))))]
fn read() -> Option<Caches> {
    None
}

/// The most last-level cache one thread is taken to have: 16 MiB. No
/// x86-64 part gives a thread more of its L3 (AMD's X3D parts, the most,
/// 96 MiB to 8 cores and 16 threads; EPYC and Xeon parts 2–5 MiB a core),
/// so an L3 that CPUID says is larger than this for each thread sharing
/// it is a virtual machine's view of a host's whole cache, which the
/// host's other guests share.
const LAST_LEVEL_PER_THREAD: usize = 16 << 20;

/// The part of an L3 of `size` bytes, shared by `sharing` threads (CPUID's
/// count), that a relayout can count on: all of it, but at most
/// [`LAST_LEVEL_PER_THREAD`] for each of those threads.
///
/// Why: on an Intel Xeon guest (2 vCPU, KVM; L2 2 MiB) CPUID reports an
/// L3 of 480 MiB shared by 2 threads, which made a copy stream only from
/// 120 MiB of destination; glibc's `memcpy` there, warm, ran 14.8 GB/s
/// between 16 MiB buffers, 9.5 between 32 MiB ones and 5.7 between 64
/// MiB ones (what stays in cache is nearer 32 MiB than 480), and bf16
/// [4096,4096] rows → `(8,128)(2,1)` (32 MiB each side) ran 5.2–5.6
/// GB/s with plain stores against 10.2–11.1 streamed. Counted as 32 MiB,
/// a copy there streams from 8 MiB, as on a 32 MiB host.
#[cfg_attr(not(all(target_arch = "x86_64", not(miri))), allow(dead_code))]
fn last_level_share(size: usize, sharing: usize) -> usize {
    size.min(sharing.max(1).saturating_mul(LAST_LEVEL_PER_THREAD))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_is_read_once_and_sane() {
        let c = Caches::host();
        assert_eq!(c, Caches::host());
        assert!(c.l1d >= 4 << 10 && c.l1d <= c.l2 && c.l2 <= c.last, "{c:?}");
        assert!(c.streaming_threshold() >= c.l1d);
        let t = c.streaming_threshold() as u64;
        assert!(c.streams(t, t) && !c.streams(t - 1, t - 1));
    }

    /// The hosts seen so far (L2, last level): Zen 4 (1 MiB, 32 MiB),
    /// Ice Lake (1.25 MiB, 48 MiB), Sapphire Rapids (2 MiB, 105 MiB).
    const HOSTS: [(usize, usize); 3] = [
        (1 << 20, 32 << 20),
        (5 << 18, 48 << 20),
        (2 << 20, 105 << 20),
    ];

    #[test]
    fn streams_from_half_the_last_level_of_footprint() {
        for (l2, last) in HOSTS {
            let c = Caches {
                l1d: 48 << 10,
                l2,
                last,
                ..Caches::FALLBACK
            };
            let (half, q) = (last as u64 / 2, last as u64 / 4);
            // a copy between equal sizes: from a quarter of the last level
            assert!(c.streams(q, q), "{c:?}");
            assert!(!c.streams(q - 64, q - 64), "{c:?}");
            // the footprint counts both sides: a small source with a large
            // destination (padding) or the other way round
            assert!(c.streams(half - 3 * q / 2, 3 * q / 2), "{c:?}");
            assert!(c.streams(half - l2 as u64, l2 as u64), "{c:?}");
            assert!(!c.streams(half - l2 as u64, l2 as u64 - 1), "{c:?}");
            assert!(!c.streams(half / 2, half / 2 - 1), "{c:?}");
            // huge sizes saturate instead of wrapping
            assert!(c.streams(u64::MAX, u64::MAX));
            assert!(!c.streams(u64::MAX, 0));
        }
        // the s4[4096,4096] zip (8 MiB each side) streams on the 32 MiB
        // host, not on the larger ones, where 16 MiB stays in cache
        let s4 = 8 << 20;
        let on = HOSTS.map(|(l2, last)| {
            Caches {
                l1d: 48 << 10,
                l2,
                last,
                ..Caches::FALLBACK
            }
            .streams(s4, s4)
        });
        assert_eq!(on, [true, false, false]);
    }

    /// The hosts' L3 as CPUID gives it (size, threads sharing it): bare
    /// metal keeps all of it, a guest's view of a large host is cut to 16
    /// MiB a thread sharing it.
    #[test]
    fn last_level_is_at_most_16_mib_a_sharing_thread() {
        const M: usize = 1 << 20;
        // Zen 4 guest, 2 vCPU, 32 MiB; a bare 8-core Zen 4 CCD; an X3D CCD
        assert_eq!(last_level_share(32 * M, 2), 32 * M);
        assert_eq!(last_level_share(32 * M, 16), 32 * M);
        assert_eq!(last_level_share(96 * M, 16), 96 * M);
        // Xeon guests, 2 vCPU: Ice Lake 48 MiB, Sapphire Rapids 105 MiB,
        // the 480 MiB one; bare metal, 480 MiB for 240 threads
        assert_eq!(last_level_share(48 * M, 2), 32 * M);
        assert_eq!(last_level_share(105 * M, 2), 32 * M);
        assert_eq!(last_level_share(480 * M, 2), 32 * M);
        assert_eq!(last_level_share(480 * M, 240), 480 * M);
        // a count of 0 counts as one thread; no overflow
        assert_eq!(last_level_share(480 * M, 0), 16 * M);
        assert_eq!(last_level_share(usize::MAX, usize::MAX), usize::MAX);
        // the 480 MiB guest streams from 8 MiB, as a 32 MiB host does
        let c = Caches {
            l1d: 48 << 10,
            l2: 2 * M,
            last: last_level_share(480 * M, 2),
            ..Caches::FALLBACK
        };
        assert_eq!(c.streaming_threshold(), 8 * M);
    }

    #[test]
    fn thresholds_follow_the_caches() {
        let c = |l1d, last: usize| Caches {
            l1d,
            l2: last.min(1 << 20),
            last,
            ..Caches::FALLBACK
        };
        // a copy between equal sizes on 32, 48 and 105 MiB last levels
        assert_eq!(c(32 << 10, 32 << 20).streaming_threshold(), 8 << 20);
        assert_eq!(c(48 << 10, 48 << 20).streaming_threshold(), 12 << 20);
        assert_eq!(c(48 << 10, 105 << 20).streaming_threshold(), 105 << 18);
        // (a small last level: the L2 bounds it below)
        assert_eq!(c(8 << 10, 2 << 20).streaming_threshold(), 1 << 20);
        assert_eq!(c(32 << 10, 32 << 20).prefetch_ahead(), 32 << 10);
        assert_eq!(c(48 << 10, 32 << 20).prefetch_ahead(), 48 << 10);
        assert_eq!(c(8 << 10, 32 << 20).prefetch_ahead(), 16 << 10);
    }
}

//! The host's data caches, and the relayout thresholds derived from them
//! (when to stream the destination, how far ahead to prefetch), so that
//! they follow the machine instead of the one they were first measured on.
//!
//! Sizes come from CPUID on x86-64 (the deterministic cache parameters:
//! leaf 4 on Intel, 0x8000_001D on AMD; else AMD's 0x8000_0005/6), read
//! once per process and kept in atomics (no allocator, no `std` needed).
//! Elsewhere, under Miri, and where CPUID reports nothing:
//! [`Caches::FALLBACK`].

use core::sync::atomic::{AtomicUsize, Ordering};

/// [`Caches::host`], once read (0: not yet).
static L1D: AtomicUsize = AtomicUsize::new(0);
/// See [`L1D`].
static L2: AtomicUsize = AtomicUsize::new(0);
/// See [`L1D`].
static LAST: AtomicUsize = AtomicUsize::new(0);

/// Data cache sizes, in bytes, as one core sees them.
///
/// ```
/// use tilelayout::storage::Caches;
///
/// let c = Caches::host();
/// assert!(c.l1d >= 4 << 10 && c.last >= c.l1d);
/// // streaming pays once source and destination outgrow the last level
/// assert_eq!(c.streaming_threshold(), c.last * 3 / 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caches {
    /// Level-1 data cache.
    pub l1d: usize,
    /// Level-2 cache.
    pub l2: usize,
    /// The last level (L3 where there is one, else L2): on parts whose L3
    /// is split per core complex, the slice this core shares.
    pub last: usize,
}

impl Caches {
    /// Assumed when the CPU does not say: 32 KiB L1d, 1 MiB L2, 32 MiB
    /// L3 (the smallest last level among the hosts the kernels were
    /// measured on).
    pub const FALLBACK: Caches = Caches {
        l1d: 32 << 10,
        l2: 1 << 20,
        last: 32 << 20,
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
        LAST.store(c.last, Ordering::Relaxed);
        c
    }

    /// The destination size (bytes) from which a relayout writes with
    /// non-temporal stores: from there source and destination together
    /// (about twice the destination) pass 3/4 of the last-level cache,
    /// where glibc's memcpy turns to non-temporal stores too. 12 MiB on a
    /// 32 MiB L3 (the constant measured there), 18 MiB on 48 MiB.
    pub fn streaming_threshold(&self) -> usize {
        self.last / 8 * 3
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
            (3, CacheType::Data | CacheType::Unified) => l3 = size,
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
    (l1d > 0 && last > 0).then_some(Caches {
        l1d,
        l2: if l2 > 0 { l2 } else { last },
        last,
    })
}

#[cfg(not(all(target_arch = "x86_64", not(miri))))]
fn read() -> Option<Caches> {
    None
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
    }

    #[test]
    fn thresholds_follow_the_caches() {
        let c = |l1d, last| Caches {
            l1d,
            l2: last,
            last,
        };
        // the value measured on a 32 MiB L3, and what 48 and 105 MiB give
        assert_eq!(c(32 << 10, 32 << 20).streaming_threshold(), 12 << 20);
        assert_eq!(c(48 << 10, 48 << 20).streaming_threshold(), 18 << 20);
        assert!(c(48 << 10, 105 << 20).streaming_threshold() > 39 << 20);
        assert_eq!(c(32 << 10, 32 << 20).prefetch_ahead(), 32 << 10);
        assert_eq!(c(48 << 10, 32 << 20).prefetch_ahead(), 48 << 10);
        assert_eq!(c(8 << 10, 32 << 20).prefetch_ahead(), 16 << 10);
    }
}

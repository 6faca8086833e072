//! Relayout on several threads (feature `parallel`): the values of the
//! outermost loop of a plan split into chunks whose destination slots are
//! contiguous ranges, claimed in order by the calling thread and up to
//! `threads − 1` scoped threads (`std::thread::scope`, no pool, no
//! dependency) until none is left.
//!
//! Chunks rather than one part per thread: starting a thread costs tens of
//! microseconds (30–100 µs measured on a 2-vCPU KVM guest, the longer when
//! the other core was idle) and a thread can be descheduled by other work;
//! with a fixed half each, the call waits for the late thread's whole half
//! (a `pred[4096²]` relayout, 2 MiB, takes 200–600 µs alone). Claimed
//! chunks let the calling thread start at once and whoever is running take
//! the rest; see [`chunks`] for their size.
//!
//! Every chunk makes the whole plan's streaming decision: the destination
//! of all threads together passes through the one last-level cache they
//! share, so a thread's share alone would under-count it (and with it
//! turn streaming off for large arrays split many ways).

use core::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::exec::Part;
use super::RelayoutPlan;
use crate::storage::element::Unit;
use crate::storage::error::StorageError;
use crate::storage::nest::{Kept, Loop};
use crate::storage::walk::valid;

/// The fewest destination bytes a chunk gets from the size rule: a chunk's
/// fixed cost (claiming it, setting up its walk, a store fence when
/// streaming) is about a microsecond, 2–4% of moving 256 KiB at 10–20 GB/s.
/// Not a cache size: the rule amortizes per-chunk work, which does not
/// scale with the caches.
const CHUNK_BYTES: u64 = 256 << 10;

/// Chunks per thread at most: a thread that starts late or is descheduled
/// holds the call up by at most one chunk, an eighth of a thread's share.
const CHUNKS_PER_THREAD: u64 = 8;

/// How many chunks [`RelayoutPlan::execute_parallel`] cuts `parts` values
/// (of a destination of `bytes`) into for `threads` threads: at most
/// [`CHUNKS_PER_THREAD`] per thread, none smaller than [`CHUNK_BYTES`]
/// (a smaller destination is one chunk: on one thread), never more than
/// the values.
///
/// Post: 1 ≤ result ≤ max(1, parts).
fn chunks(parts: u64, bytes: u64, threads: u64) -> u64 {
    (bytes / CHUNK_BYTES)
        .min(threads.saturating_mul(CHUNKS_PER_THREAD))
        .min(parts)
        .max(1)
}

impl RelayoutPlan {
    /// As [`RelayoutPlan::execute`], on up to `threads` threads (the calling
    /// thread is one of them; `0` means [`std::thread::available_parallelism`]).
    ///
    /// The outermost loop of the plan is split into chunks: each moves the
    /// elements of a contiguous range of destination slots, so the result
    /// is the same as [`RelayoutPlan::execute`]'s. The threads claim chunks
    /// in order until none is left; a chunk holds at least 256 KiB of
    /// destination, so small relayouts run on the calling thread alone
    /// (starting a thread costs more than they take). Plans whose outermost
    /// loop does not own disjoint destination ranges
    /// ([`RelayoutPlan::parallel_parts`] is 1) run on the calling thread.
    ///
    /// # Errors
    /// As [`RelayoutPlan::execute`].
    ///
    /// # Examples
    /// ```
    /// use tilelayout::storage::{RelayoutPlan, Strided};
    /// use tilelayout::value::parse_shape;
    /// let tiled = parse_shape("f32[1024,1024]{1,0:T(8,128)}")?;
    /// let plan = RelayoutPlan::new(Strided::row_major(&[1024, 1024], 32)?, tiled)?;
    /// let src: Vec<f32> = (0..1024 * 1024).map(|i| i as f32).collect();
    /// let (mut one, mut two) = (vec![0.0f32; 1024 * 1024], vec![0.0f32; 1024 * 1024]);
    /// plan.execute(&src, &mut one)?;
    /// plan.execute_parallel(&src, &mut two, 2)?; // 4 MiB: 16 chunks
    /// assert_eq!(one, two);
    /// assert_eq!(plan.parallel_parts(), 128); // the 8-row bands
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn execute_parallel<U: Unit>(
        &self,
        src: &[U],
        dst: &mut [U],
        threads: usize,
    ) -> Result<(), StorageError> {
        self.execute_parallel_with_padding(src, dst, U::zeroed(), threads)
    }

    /// As [`RelayoutPlan::execute_parallel`], writing `pad` into destination
    /// padding (as [`RelayoutPlan::execute_with_padding`]).
    ///
    /// # Errors
    /// As [`RelayoutPlan::execute`].
    pub fn execute_parallel_with_padding<U: Unit>(
        &self,
        src: &[U],
        dst: &mut [U],
        pad: U,
        threads: usize,
    ) -> Result<(), StorageError> {
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        } as u64;
        let bytes = core::mem::size_of_val(dst) as u64;
        let n = chunks(self.parallel_parts(), bytes, threads);
        self.execute_in_chunks(src, dst, pad, threads as usize, n as usize)
    }

    /// [`RelayoutPlan::execute_parallel_with_padding`] with the number of
    /// chunks given (at most [`RelayoutPlan::parallel_parts`]; more are
    /// clamped) instead of the size rule, so that small arrays split too.
    ///
    /// # Errors
    /// As [`RelayoutPlan::execute`].
    #[doc(hidden)] // reason: for tests and the fuzzer; the size rule is the API
    pub fn execute_in_chunks<U: Unit>(
        &self,
        src: &[U],
        dst: &mut [U],
        pad: U,
        threads: usize,
        chunks: usize,
    ) -> Result<(), StorageError> {
        self.exec.check(src, dst)?;
        let split = self.split();
        let parts = split.as_ref().map_or(1, |(nest, _)| first_values(nest));
        let n = parts.min(chunks as u64);
        let threads = threads.min(n as usize);
        let Some((nest, step)) = split.filter(|_| n > 1 && threads > 1) else {
            self.exec.run_part(src, dst, pad, None, Some(&self.sides));
            return Ok(());
        };
        let nest = &nest;
        // chunk k takes values [parts·k/n, parts·(k+1)/n) of the outermost
        // loop, that is units [start·step, end·step) of the destination;
        // the last chunk also takes the values with no element (padding,
        // if any) and the destination to its end (the tail padding)
        let unit = |value: u64| (value * step) as usize;
        let mut cut = alloc::vec::Vec::with_capacity(n as usize);
        let (mut rest, mut at) = (dst, 0usize);
        for k in 0..n {
            let last = k + 1 == n;
            let end = if last {
                nest.outer(0).map_or(0, |l| l.n)
            } else {
                parts * (k + 1) / n
            };
            let values = parts * k / n..end;
            let len = if last {
                rest.len()
            } else {
                unit(values.end) - at
            };
            let (chunk, tail) = core::mem::take(&mut rest).split_at_mut(len);
            (rest, at) = (tail, at + len);
            cut.push(Mutex::new(Some((chunk, Part { nest, values, last }))));
        }
        // chunks are claimed in order, each once (the counter hands every
        // index out once; the lock only moves the slice out)
        let next = AtomicUsize::new(0);
        let work = || {
            while let Some(slot) = cut.get(next.fetch_add(1, Ordering::Relaxed)) {
                let job = slot.lock().map_or(None, |mut j| j.take());
                if let Some((chunk, part)) = job {
                    self.exec
                        .run_part(src, chunk, pad, Some(&part), Some(&self.sides));
                }
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..threads {
                // (if the system cannot give a thread, fewer threads claim
                // the chunks)
                let _ = std::thread::Builder::new().spawn_scoped(scope, work);
            }
            work();
        });
        Ok(())
    }

    /// How many parts [`RelayoutPlan::execute_parallel`] can split this plan
    /// into: the values that hold elements of a loop each of whose values
    /// writes its own contiguous range of destination storage units (for
    /// packed storage, whole bytes); 1 if no loop does.
    pub fn parallel_parts(&self) -> u64 {
        self.split().map_or(1, |(nest, _)| first_values(&nest))
    }

    /// The plan's loops with the loop to split first, and the destination
    /// storage units per value of it: of the loops whose values write
    /// disjoint ranges (each value's destination stride at least the span
    /// of all the other loops), the longest.
    fn split(&self) -> Option<(Kept, u64)> {
        let nest = self.exec.nest.as_ref()?;
        if self.exec.src_slots == 0 {
            return None;
        }
        let bits = self.exec.bits;
        // the destination slots spanned by a loop's values
        let span = |l: &Loop| (l.n - 1) * l.dst;
        let outer = || (0..nest.outer_len()).filter_map(|i| nest.outer(i));
        let all = outer()
            .chain([nest.a(), nest.b()])
            .map(|l| span(&l))
            .sum::<u64>();
        let (i, l) = outer()
            .enumerate()
            .filter(|(_, l)| l.n > 1 && l.dst > all - span(l))
            .filter(|(_, l)| bits >= 8 || (l.dst * bits as u64).is_multiple_of(8))
            .max_by_key(|(_, l)| l.n)?;
        let step = match bits {
            b if b >= 8 => l.dst,
            b => l.dst * b as u64 / 8,
        };
        Some((nest.with_outermost(i), step))
    }
}

/// The values of the outermost loop of `nest` that hold elements.
fn first_values(nest: &Kept) -> u64 {
    let sizes = nest.sizes();
    let zeros = [0u64; crate::storage::nest::KEPT_DIMS];
    nest.outer(0)
        .map_or(1, |l| valid(&l, &zeros[..sizes.len()], sizes).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_keep_to_their_bounds() {
        for parts in [1u64, 2, 7, 128, 512] {
            for bytes in [
                0u64,
                1,
                CHUNK_BYTES - 1,
                CHUNK_BYTES,
                3 * CHUNK_BYTES,
                64 << 20,
            ] {
                for threads in [1u64, 2, 3, 64, u64::MAX] {
                    let n = chunks(parts, bytes, threads);
                    assert!(n >= 1 && n <= parts, "{parts} {bytes} {threads}: {n}");
                    assert!(n == 1 || bytes / n >= CHUNK_BYTES, "{bytes}: {n}");
                    assert!(n <= threads.saturating_mul(CHUNKS_PER_THREAD));
                }
            }
        }
        // the benchmark's cases on 2 threads: f32[4096²] (64 MiB, 512
        // bands) 16 chunks of 4 MiB; pred[4096²] (2 MiB, 128 bands) 8 of
        // 256 KiB; s4[1024²] (512 KiB) 2; f32[256²] (256 KiB) one
        assert_eq!(chunks(512, 64 << 20, 2), 16);
        assert_eq!(chunks(128, 2 << 20, 2), 8);
        assert_eq!(chunks(128, 512 << 10, 2), 2);
        assert_eq!(chunks(32, 256 << 10, 2), 1);
    }
}

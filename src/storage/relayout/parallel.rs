//! Relayout on several threads (feature `parallel`): the values of the
//! outermost loop of a plan split into parts whose destination slots are
//! contiguous ranges, one part per scoped thread (`std::thread::scope`, no
//! pool, no dependency).
//!
//! The split is balanced to one value of that loop (a band of tiles, for
//! rows → tiles: 512 parts of 128 KiB for f32[4096²] → `T(8,128)`), and
//! every part makes the whole plan's streaming decision: the destination
//! of all threads together passes through the one last-level cache they
//! share, so a thread's share alone would under-count it (and with it
//! turn streaming off for large arrays split many ways).

use super::exec::Part;
use super::RelayoutPlan;
use crate::storage::element::Unit;
use crate::storage::error::StorageError;
use crate::storage::nest::{Kept, Loop};
use crate::storage::walk::valid;

impl RelayoutPlan {
    /// As [`RelayoutPlan::execute`], on up to `threads` threads (the calling
    /// thread is one of them; `0` means [`std::thread::available_parallelism`]).
    ///
    /// The outermost loop of the plan is split: each thread moves the
    /// elements of a contiguous range of destination slots, so the result is
    /// the same as [`RelayoutPlan::execute`]'s. Plans whose outermost loop
    /// does not own disjoint destination ranges
    /// ([`RelayoutPlan::parallel_parts`] is 1) run on the calling thread.
    ///
    /// # Errors
    /// As [`RelayoutPlan::execute`].
    ///
    /// # Examples
    /// ```
    /// use tilelayout::storage::{RelayoutPlan, Strided};
    /// use tilelayout::value::parse_shape;
    /// let tiled = parse_shape("f32[64,256]{1,0:T(8,128)}")?;
    /// let plan = RelayoutPlan::new(Strided::row_major(&[64, 256], 32)?, tiled)?;
    /// let src: Vec<f32> = (0..64 * 256).map(|i| i as f32).collect();
    /// let (mut one, mut two) = (vec![0.0f32; 64 * 256], vec![0.0f32; 64 * 256]);
    /// plan.execute(&src, &mut one)?;
    /// plan.execute_parallel(&src, &mut two, 2)?;
    /// assert_eq!(one, two);
    /// assert_eq!(plan.parallel_parts(), 8); // the 8-row bands
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
        self.exec.check(src, dst)?;
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        } as u64;
        let split = self.split();
        let parts = split.as_ref().map_or(1, |(nest, _)| first_values(nest));
        let n = threads.min(parts);
        let Some((nest, step)) = split.filter(|_| n > 1) else {
            self.exec.run_part(src, dst, pad, None, Some(&self.sides));
            return Ok(());
        };
        let nest = &nest;
        // part k takes values [parts·k/n, parts·(k+1)/n) of the outermost
        // loop, that is units [start·step, end·step) of the destination;
        // the last part also takes the values with no element (padding,
        // if any) and the destination to its end (the tail padding)
        let unit = |value: u64| (value * step) as usize;
        let mut parts_of_dst = alloc::vec::Vec::with_capacity(n as usize);
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
            parts_of_dst.push(std::sync::Mutex::new(Some((
                chunk,
                Part { nest, values, last },
            ))));
        }
        // each part is taken once: by its thread, or here if the system
        // cannot give one
        let run = |slot: &std::sync::Mutex<Option<(&mut [U], Part<'_>)>>| {
            let job = slot.lock().map_or(None, |mut j| j.take());
            if let Some((chunk, part)) = job {
                self.exec
                    .run_part(src, chunk, pad, Some(&part), Some(&self.sides));
            }
        };
        std::thread::scope(|scope| {
            for slot in &parts_of_dst[1..] {
                if std::thread::Builder::new()
                    .spawn_scoped(scope, || run(slot))
                    .is_err()
                {
                    run(slot);
                }
            }
            run(&parts_of_dst[0]);
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

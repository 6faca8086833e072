//! A kernel block whose bounds no outer loop moves, split once per run.
//!
//! The block's loops (`a`, `b`) are digits of at most two dims. When no
//! outer loop is a digit of those dims, their offsets are 0 at every visit
//! of the block, so the walker's bounded block (whole rows, rows cut short,
//! the padding past them) comes out the same each time. A padded tiling
//! makes such blocks: `f32[1000,1000]` rows → `{1,0:T(8,128)}` has the
//! eight tile columns of a row as its block, the last one cut at
//! 1000 = 7·128 + 104, on each of the 1000 rows. The walker records that
//! split once ([`Split::record`]) and replays it at every visit
//! ([`Split::replay`]): the same kernel calls and padding runs at the
//! same offsets, so the bytes written are the bounded walk's, without its
//! per-visit bounds arithmetic (a division per row, the run search).

use crate::storage::fixed::Fixed;
use crate::storage::kernels::Mover;
use crate::storage::nest::{Kernel, Loop};

/// Most kernel calls a recorded split keeps (a block cut in one dim
/// splits into whole rows and one short run; cut in both, a few more).
const CALLS: usize = 4;
/// Most padding runs it keeps (one per row of the cut pattern when the
/// padding is contiguous within a row).
const PADS: usize = 8;

/// One recorded kernel call, at offsets relative to the block's.
#[derive(Clone, Copy)]
struct Call {
    k: Kernel,
    a: Loop,
    b: Loop,
    s: usize,
    d: usize,
}

/// Recorded padding: `count` runs of `len` slots, `step` apart, the first
/// at `d` (relative to the block's destination offset).
#[derive(Clone, Copy)]
struct Pads {
    d: usize,
    len: usize,
    count: usize,
    step: usize,
}

/// The kernel calls and padding one visit of a block makes, recorded.
///
/// Invariant: replaying it at offsets `(s, d)` makes the calls and pads
/// the recording mover was given for the block at `(0, 0)`, shifted by
/// `(s, d)`, in the same order.
pub(crate) struct Split {
    calls: Fixed<Call, CALLS>,
    pads: Fixed<Pads, PADS>,
    /// A call or pad did not fit (or an element-wise move was asked for):
    /// the recording is incomplete and must not be used.
    overflow: bool,
}

impl Split {
    /// Records what `visit` does to a mover: `None` if it does not fit
    /// the split's room, or if it is the one whole block `(k, a, b)` at
    /// offset 0 (nothing to save then: the walker's free loops run it).
    pub(crate) fn record(
        k: Kernel,
        a: &Loop,
        b: &Loop,
        visit: impl FnOnce(&mut Split),
    ) -> Option<Split> {
        let none = Call {
            k,
            a: Loop::ONE,
            b: Loop::ONE,
            s: 0,
            d: 0,
        };
        let zero = Pads {
            d: 0,
            len: 0,
            count: 0,
            step: 0,
        };
        let mut split = Split {
            calls: Fixed::empty(none),
            pads: Fixed::empty(zero),
            overflow: false,
        };
        visit(&mut split);
        let whole = match (&*split.calls, &*split.pads) {
            ([c], []) => c.k == k && c.a == *a && c.b == *b && c.s == 0 && c.d == 0,
            _ => false,
        };
        (!split.overflow && !whole).then_some(split)
    }

    /// The recorded calls and padding, at source and destination offsets
    /// `s` and `d`.
    #[inline]
    pub(crate) fn replay<M: Mover>(&self, m: &mut M, s: usize, d: usize) {
        for c in self.calls.iter() {
            m.block(c.k, &c.a, &c.b, s + c.s, d + c.d);
        }
        for p in self.pads.iter() {
            for i in 0..p.count {
                m.pad(d + p.d + i * p.step, p.len);
            }
        }
    }

    /// [`Split::replay`] at the `l.n` values of a loop around the block
    /// (`l.src`/`l.dst` apart): each recorded call once for them all,
    /// as [`Mover::block_rep`] (a kernel that moves several blocks a call
    /// pays its call once), then the padding runs. The slots written are
    /// the replays' (calls and padding runs write disjoint slots, so
    /// their order does not matter).
    #[inline]
    pub(crate) fn replay_rep<M: Mover>(&self, m: &mut M, l: &Loop, s: usize, d: usize) {
        for c in self.calls.iter() {
            m.block_rep(c.k, l, &c.a, &c.b, s + c.s, d + c.d);
        }
        for v in 0..l.n as usize {
            let dv = d + v * l.dst as usize;
            for p in self.pads.iter() {
                for i in 0..p.count {
                    m.pad(dv + p.d + i * p.step, p.len);
                }
            }
        }
    }
}

impl Mover for Split {
    fn block(&mut self, k: Kernel, a: &Loop, b: &Loop, s: usize, d: usize) {
        let c = Call {
            k,
            a: *a,
            b: *b,
            s,
            d,
        };
        self.overflow |= !self.calls.push(c);
    }

    fn one(&mut self, _s: usize, _d: usize) {
        // (the walker's blocks move through `block`; never recorded)
        self.overflow = true;
    }

    fn pad(&mut self, d: usize, len: usize) {
        // runs of the same length at a constant step merge into one
        if let Some(p) = self.pads.last_mut() {
            if p.len == len && d > p.d {
                if p.count == 1 {
                    (p.count, p.step) = (2, d - p.d);
                    return;
                }
                if d == p.d + p.count * p.step {
                    p.count += 1;
                    return;
                }
            }
        }
        let p = Pads {
            d,
            len,
            count: 1,
            step: 0,
        };
        self.overflow |= !self.pads.push(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call or a pad a mover was asked for.
    type Entry = (Option<Kernel>, usize, usize, u64, u64);

    /// What a mover was asked to do, in order.
    struct Log(Fixed<Entry, 32>);

    impl Log {
        fn new() -> Self {
            Log(Fixed::empty((None, 0, 0, 0, 0)))
        }
    }

    impl Mover for Log {
        fn block(&mut self, k: Kernel, a: &Loop, b: &Loop, s: usize, d: usize) {
            assert!(self.0.push((Some(k), s, d, a.n, b.n)));
        }
        fn one(&mut self, _: usize, _: usize) {
            unreachable!()
        }
        fn pad(&mut self, d: usize, len: usize) {
            assert!(self.0.push((None, 0, d, len as u64, 0)));
        }
    }

    fn rows(n: u64, src: u64, dst: u64) -> Loop {
        Loop {
            n,
            src,
            dst,
            dim: 1,
            w: 128,
        }
    }

    /// The runs of a padded tile row's block (f32[1000] rows into
    /// `T(8,128)`) from source slot `s` to destination slot `d`: 7 whole
    /// rows of 128 slots, the last row's 104.
    fn padded_tile_row_runs<M: Mover>(m: &mut M, s: usize, d: usize) {
        let b = rows(128, 1, 1);
        m.block(Kernel::Runs, &rows(7, 128, 1024), &b, s, d);
        m.block(
            Kernel::Runs,
            &rows(1, 128, 1024),
            &rows(104, 1, 1),
            s + 896,
            d + 7168,
        );
    }

    #[test]
    fn a_replay_repeats_the_recorded_calls_and_merged_pads_at_an_offset() {
        let (a, b) = (rows(8, 128, 1024), rows(128, 1, 1));
        let record = |m: &mut Split| {
            padded_tile_row_runs(m, 0, 0);
            for r in 0..3 {
                m.pad(7272 + r * 128, 24);
            }
            m.pad(9000, 5);
        };
        let split = Split::record(Kernel::Runs, &a, &b, record).unwrap();
        assert_eq!(split.pads.len(), 2, "three equal runs merge into one");
        let mut got = Log::new();
        split.replay(&mut got, 10, 100);
        let mut want = Log::new();
        padded_tile_row_runs(&mut want, 10, 100);
        for r in 0..3 {
            want.pad(7372 + r * 128, 24);
        }
        want.pad(9100, 5);
        assert_eq!(*got.0, *want.0);
    }

    #[test]
    fn a_whole_block_or_an_overflow_records_nothing() {
        let (a, b) = (rows(8, 128, 1024), rows(128, 1, 1));
        let whole = |m: &mut Split| m.block(Kernel::Runs, &a, &b, 0, 0);
        assert!(Split::record(Kernel::Runs, &a, &b, whole).is_none());
        let many = |m: &mut Split| {
            for i in 0..=CALLS {
                m.block(Kernel::Runs, &a, &b, i, i);
            }
        };
        assert!(Split::record(Kernel::Runs, &a, &b, many).is_none());
        let scattered = |m: &mut Split| {
            for i in 0..=PADS {
                m.pad(i * i * 10, i + 1);
            }
        };
        assert!(Split::record(Kernel::Runs, &a, &b, scattered).is_none());
    }

    /// A repeated replay makes the same calls and padding runs as one
    /// replay at each of the loop's values (in another order: the calls
    /// first).
    #[test]
    fn a_repeated_replay_writes_what_each_replay_writes() {
        let (a, b) = (rows(8, 128, 1024), rows(128, 1, 1));
        let record = |m: &mut Split| {
            padded_tile_row_runs(m, 0, 0);
            m.pad(7272, 24);
        };
        let split = Split::record(Kernel::Runs, &a, &b, record).unwrap();
        let l = rows(8, 1000, 128);
        let mut got = Log::new();
        split.replay_rep(&mut got, &l, 10, 100);
        let mut want = Log::new();
        for v in 0..8 {
            split.replay(&mut want, 10 + v * 1000, 100 + v * 128);
        }
        assert_eq!(got.0.len(), 8 * 3);
        let sorted = |l: &Log| {
            let mut v: alloc::vec::Vec<Entry> = l.0.iter().copied().collect();
            v.sort_unstable_by_key(|e| (e.1, e.2, e.3, e.4, e.0.is_some()));
            v
        };
        assert_eq!(sorted(&got), sorted(&want));
    }
}

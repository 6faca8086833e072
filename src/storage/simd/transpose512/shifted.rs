//! The line writer of [`lines::rows`] for rows a fixed number of slots
//! into their lines ([`rows`]): the same lines written the same way,
//! with the offset a constant, so that the join of two pieces is one
//! `valignd` with its shift in the instruction (no `match` per line), the
//! first group peeled out of the loop (no test per line), and the lines
//! inside the rows streamed through one pointer, their bounds and line
//! offset checked once per call instead of per line.
//!
//! [`panel()`](super::panel()), [`direct()`](super::direct()) and the
//! packed unit transposes (`squares::direct`) write through it. Measured
//! in `panel` (same
//! case and rounds as its figures, wall clock): the shift a constant but
//! each line checked as `lines::rows` checks it, 7.4–8.4 GB/s, about as
//! fast as `lines::rows` itself (7.0–7.8); checked once per call, 9.2–9.4:
//! per-line checks kept LLVM from unrolling the 16 rows, so every join
//! went through the stack.

use core::arch::x86_64::*;

use super::lines::{self, line, put, store_line};

/// `$f::<S>` for the destination rows of `$to` in `$dst` (32-bit slots),
/// `S` the shift of [`rows`] for the offset in its line where the first
/// row starts, which every row shares (strides in whole lines): the
/// direct kernels' dispatch to one monomorphised body per offset (with a
/// literal after `$f`, `$f::<S, literal>`).
macro_rules! by_shift {
    ($dst:expr, $to:expr, $f:ident $(, $w:literal)?) => {
        match $dst.as_ptr().wrapping_add($to.d).addr() / 4 % 16 {
            0 => $f::<0 $(, $w)?>,
            1 => $f::<15 $(, $w)?>,
            2 => $f::<14 $(, $w)?>,
            3 => $f::<13 $(, $w)?>,
            4 => $f::<12 $(, $w)?>,
            5 => $f::<11 $(, $w)?>,
            6 => $f::<10 $(, $w)?>,
            7 => $f::<9 $(, $w)?>,
            8 => $f::<8 $(, $w)?>,
            9 => $f::<7 $(, $w)?>,
            10 => $f::<6 $(, $w)?>,
            11 => $f::<5 $(, $w)?>,
            12 => $f::<4 $(, $w)?>,
            13 => $f::<3 $(, $w)?>,
            14 => $f::<2 $(, $w)?>,
            _ => $f::<1 $(, $w)?>,
        }
    };
}
pub(crate) use by_shift;

/// [`lines::rows`] for `P` rows that all start `(16 - S) % 16` slots
/// into a line (`S < 16`, checked; `S = 0`, rows on lines, is
/// `lines::rows`' own aligned loop), each of `16 · groups` slots, written
/// from `piece(g)`, the `g`-th 16 slots of every row (`g` from 0 up, once
/// each).
///
/// Pre: `dst[at[k] .. at[k] + 16 · groups]` are in bounds and disjoint.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn rows<const P: usize, const S: i32>(
    dst: &mut [u32],
    at: &[usize; P],
    groups: usize,
    nt: bool,
    mut piece: impl FnMut(usize) -> [__m512; P],
) {
    const { assert!(S < 16) };
    if S == 0 {
        return lines::rows(dst, at, groups, nt, piece);
    }
    let m = (16 - S) as usize;
    let len = 16 * groups;
    // every line the loop below streams, row k's slots `16g - m ..
    // 16g - m + 16` for `0 < g < groups`, lies inside `at[k] .. at[k] +
    // len`, on a whole line: both checked here once per call instead of
    // per line
    let meets_next = ends(dst, at, len, m, nt);
    let base = dst.as_mut_ptr();
    let first = piece(0);
    let mut carry = first;
    for g in 1..groups {
        let v = piece(g);
        for k in 0..P {
            let p = base.wrapping_add(at[k] + 16 * g - m);
            // SAFETY: `p` is the line `at[k] + 16g - m .. + 16` of `dst`,
            // inside `at[k] .. at[k] + len` (`16 - m ≤ 16g - m` and
            // `16g - m + 16 ≤ len - m`), which is inside `dst` (asserted
            // above), so valid for a 64-byte write; `base` comes from the
            // exclusive borrow `dst`, not used otherwise until after the
            // loop (`piece` borrows other buffers), so the write aliases
            // nothing live; `dst + at[k]` is `m` slots into a line
            // (asserted by `ends` above), so `p` is 64-byte aligned, as `vmovntps`
            // and `vmovaps` require; the CPU has AVX-512 F (this
            // function's target feature). A streaming store is weakly
            // ordered: the mover's `finish` fences after the last one, as
            // for every streaming store.
            unsafe { store_line(p, join::<S>(v[k], carry[k]), nt) };
        }
        carry = v;
    }
    // the partial lines at the rows' ends, as `lines::rows` writes them
    for k in 0..P {
        if meets_next(k) {
            line(dst, at[k] + len - m, join::<S>(first[k + 1], carry[k]), nt);
        } else {
            put(dst, at[k] + len - m, carry[k], 16 - m, m);
        }
        if k == 0 || !meets_next(k - 1) {
            put(dst, at[k], first[k], 0, 16 - m);
        }
    }
}

/// [`rows`] with the pieces read on the destination's lines: for `P`
/// rows that all start `m = 16 - S` slots into a line (`0 < S < 16`,
/// `groups ≥ 2`), each of `16 · groups` slots, `piece(Some(j))` gives
/// slots `S + 16j .. S + 16j + 16` of every row (`j < groups - 1`), each
/// one whole line as it is, streamed if `nt` (else an ordinary aligned
/// store), and `piece(None)` every row's first `S` slots then its last
/// `m`: those two partial lines are joined with the adjacent row's where
/// it follows in the destination (the one line they share), else stored
/// plainly, fetched for writing first. No two pieces are joined across a
/// line, as [`rows`] joins every line of rows off their lines: the
/// transposes' source rows are read from the destination line's first
/// slot instead.
///
/// Why (AMD EPYC Zen 4, KVM, 2 vCPU; L1d 32 KiB, L2 1 MiB, L3 32 MiB;
/// f32[4096,4096], streamed, plain `Vec`s placed by `RELAYOUT_AT`, three
/// runs of the bench alternated with [`rows`], ratio to memcpy): the
/// tile transposes `{1,0:T(8,128)}` → `{0,1:T(8,128)}` ([`direct`]) at
/// 16 → 16 bytes into a line 0.85–0.90× → 0.94–1.03×, at 32 → 48
/// 0.66–0.72× → 0.80–1.01×, at 0 → 32 0.81–0.99× → 0.88–1.00×; tiles →
/// column-major ([`columns`]) 0.59–0.61× → 0.63–0.67×, 0.55–0.64× →
/// 0.68–0.80× at 0 → 32 (a scratch loop at 0 → 16, ten alternations of
/// 21 calls: 6.9 → 7.7 GB/s, medians); column-major → tiles ([`panel`])
/// about the same, 0.71–0.89× → 0.73–0.80× at 16 → 16 and 0.84–0.92× →
/// 0.89–1.02× at 0 → 32; on lines [`rows`] runs, unchanged. A diagnostic
/// build of [`rows`] that stored each piece unjoined (wrong output) read
/// about as much faster: the join of each line, with the carried pieces
/// live across the loop (with the new piece, all 32 vector registers),
/// cost it.
///
/// [`direct`]: fn@super::direct
/// [`columns`]: fn@super::columns
/// [`panel`]: fn@super::panel
///
/// Pre: `dst[at[k] .. at[k] + 16 · groups]` are in bounds and disjoint.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn windowed<const P: usize, const S: i32>(
    dst: &mut [u32],
    at: &[usize; P],
    groups: usize,
    nt: bool,
    mut piece: impl FnMut(Option<usize>) -> [__m512; P],
) {
    // (not a `const` assertion: dispatch by `by_shift!` instantiates
    // `S = 0` too, which it never calls here)
    assert!(
        0 < S && S < 16 && groups >= 2,
        "rows off their lines, a whole line inside each"
    );
    let (e, m) = (S as usize, (16 - S) as usize);
    let len = 16 * groups;
    let meets_next = ends(dst, at, len, m, nt);
    let base = dst.as_mut_ptr();
    for j in 0..groups - 1 {
        let v = piece(Some(j));
        for (k, &v) in v.iter().enumerate() {
            let p = base.wrapping_add(at[k] + e + 16 * j);
            // SAFETY: `p` is the line `at[k] + e + 16j .. + 16` of `dst`:
            // with `j ≤ groups - 2` it ends by `at[k] + len - m`, inside
            // `at[k] .. at[k] + len`, which is inside `dst` (asserted
            // above), so valid for a 64-byte write; `base` comes from the
            // exclusive borrow `dst`, not used otherwise until after the
            // loop (`piece` reads other buffers), so the write aliases
            // nothing live; `dst + at[k]` is `m` slots into a line
            // (asserted by `ends` above), so `p`, `e = 16 - m` slots on, is 64-byte
            // aligned, as `vmovntps` and `vmovaps` require; the CPU has
            // AVX-512 F (this function's target feature). A streaming
            // store is weakly ordered: the mover's `finish` fences after
            // the last one, as for every streaming store.
            unsafe { store_line(p, v, nt) };
        }
    }
    // each row's first `e` slots, then its last `m`
    let v = piece(None);
    for k in 0..P {
        if meets_next(k) {
            // row k's last `m` slots, then row k + 1's first `e`
            line(dst, at[k] + len - m, join::<S>(v[k + 1], v[k]), nt);
        } else {
            put(dst, at[k] + len - m, v[k], e, m);
        }
        if k == 0 || !meets_next(k - 1) {
            put(dst, at[k], v[k], 0, e);
        }
    }
}

/// What [`rows`] and [`windowed`] check and hint before their loops:
/// every row `at[k] .. at[k] + len` inside `dst` and `m` slots into a
/// line (asserted, so that the loops' lines need no checks of their
/// own); with `nt`, the partial lines at the rows' ends — stored plainly
/// after the loop, each read from memory first with the stores behind it
/// waiting — fetched for writing now, while the loop streams. Returns
/// whether row `k` meets the next (`at[k + 1] == at[k] + len`: the line
/// where `k` ends is the next row's first, written whole by a join).
///
/// (The hints measured on an Intel Xeon guest, 2 vCPU, KVM; L1d 48 KiB,
/// L2 2 MiB; destination 16 bytes into a line, the bench, alternated
/// with the build before: bf16 [2048, 4096] packed tile transposes 5.9 →
/// 6.5 GB/s (0.83× → 1.01× of memcpy), s8 0.73× → 0.79×; f32 tile
/// transposes and column-major → tiles no change, 0.80–0.84× and
/// 0.65–0.68× either way.)
#[inline(always)]
fn ends<'a, const P: usize>(
    dst: &[u32],
    at: &'a [usize; P],
    len: usize,
    m: usize,
    nt: bool,
) -> impl Fn(usize) -> bool + 'a {
    for &a in at {
        assert!(
            a.checked_add(len).is_some_and(|x| x <= dst.len())
                && dst.as_ptr().wrapping_add(a).addr() / 4 % 16 == m,
            "a destination row inside `dst`, {m} slots into a line"
        );
    }
    let meets_next = move |k: usize| k + 1 < P && at[k + 1] == at[k] + len;
    if nt {
        for (k, &a) in at.iter().enumerate() {
            if k == 0 || !meets_next(k - 1) {
                super::super::prefetch_w(dst.as_ptr().wrapping_add(a));
            }
            if !meets_next(k) {
                super::super::prefetch_w(dst.as_ptr().wrapping_add(a + len - 1));
            }
        }
    }
    meets_next
}

/// The 16 slots of a line that starts `16 - S` slots before `v`'s: the
/// last `16 - S` of `prev`, then the first `S` of `v`.
#[target_feature(enable = "avx512f")]
#[inline]
fn join<const S: i32>(v: __m512, prev: __m512) -> __m512 {
    let (a, b) = (_mm512_castps_si512(v), _mm512_castps_si512(prev));
    // `valignd`: the 32 slots `a:b` shifted down by `S`
    _mm512_castsi512_ps(_mm512_alignr_epi32::<S>(a, b))
}

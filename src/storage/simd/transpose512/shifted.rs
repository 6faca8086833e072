//! The line writer of [`lines::rows`] for rows a fixed number of slots
//! into their lines ([`rows`]): the same lines written the same way,
//! with the offset a constant, so that the join of two pieces is one
//! `valignd` with its shift in the instruction (no `match` per line) and
//! the first group is peeled out of the loop (no test per line).
//!
//! [`panel`](super::panel) writes through it: its pass over the panel is
//! the one place where the line writer's own instructions, not memory,
//! bound a direct transpose (see the figures there).

use core::arch::x86_64::*;

use super::lines::{self, put_slots, stream_line};

/// [`lines::rows`] for 16 rows that all start `(16 - S) % 16` slots
/// into a line (`S < 16`, checked; `S = 0`, rows on lines, is
/// `lines::rows`' own aligned loop), each of `16 · groups` slots, written
/// from `piece(g)`, the `g`-th 16 slots of every row (`g` from 0 up, once
/// each).
///
/// Pre: `dst[at[k] .. at[k] + 16 · groups]` are in bounds and disjoint.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn rows<const S: i32>(
    dst: &mut [u32],
    at: &[usize; 16],
    groups: usize,
    mut piece: impl FnMut(usize) -> [__m512; 16],
) {
    const { assert!(S < 16) };
    if S == 0 {
        return lines::rows(dst, at, groups, piece);
    }
    let m = (16 - S) as usize;
    debug_assert_eq!(dst.as_ptr().wrapping_add(at[0]).addr() / 4 % 16, m);
    let len = 16 * groups;
    let first = piece(0);
    let mut carry = first;
    for g in 1..groups {
        let v = piece(g);
        for k in 0..16 {
            stream_line(dst, at[k] + 16 * g - m, join::<S>(v[k], carry[k]));
        }
        carry = v;
    }
    // the partial lines at the rows' ends, as `lines::rows` writes them
    for k in 0..16 {
        if k + 1 < 16 && at[k + 1] == at[k] + len {
            stream_line(dst, at[k] + len - m, join::<S>(first[k + 1], carry[k]));
        } else {
            put_slots(dst, at[k] + len - m, carry[k], 16 - m, m);
        }
        if k == 0 || at[k - 1] + len != at[k] {
            put_slots(dst, at[k], first[k], 0, 16 - m);
        }
    }
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

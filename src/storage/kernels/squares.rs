//! The `k × k` blocks of a transpose between packed tilings, moved whole.

use super::super::nest::Loop;

/// Whether the zip block `a` × `b` of `k` rows is a `k × k` transpose
/// whose slots are `k²` contiguous ones on both sides (slot `i + k·j` of
/// the source to `k·i + j` of the destination): what a transpose between
/// two packed tilings (`{1,0:T(8,128)(2,1)}` → `{0,1:T(8,128)(2,1)}`)
/// leaves innermost, the pairs of rows becoming pairs of columns.
#[inline]
pub(super) const fn square(k: u8, a: &Loop, b: &Loop) -> bool {
    let k = k as u64;
    a.n == k && b.n == k && a.src == 1 && b.src == k && a.dst == k && b.dst == 1
}

/// The `c2.n × c.n` [`square`] blocks of a `block_rep2` call, each moved
/// whole: `k²` slots read, transposed, written (one call for what took a
/// kernel call per block: measured on bf16[2048,4096], 0.08x → 0.43–0.54x
/// of memcpy).
///
/// Tried and not kept (bf16[2048,4096], plain `Vec`s, AMD EPYC Zen 4,
/// load average 13–16; 0.47× of memcpy as is in the same runs): the
/// call's 512 destination bytes staged on the stack and streamed out
/// (0.39×); prefetching the lines the calls reach one or two groups of
/// 16 tiles later (0.29–0.33×); the outer loops in source order, so that
/// each call reads whole source lines (0.39–0.43×; s8 0.54–0.56×, as is).
/// The calls are read-latency-bound (the profile's hot instruction is the
/// shuffle waiting on each 8-byte load).
pub(super) fn squares<T: Copy>(
    k: u8,
    src: &[T],
    s: usize,
    dst: &mut [T],
    d: usize,
    c: &Loop,
    c2: &Loop,
) {
    let at = |u: usize, v: usize| {
        (
            s + u * c2.src as usize + v * c.src as usize,
            d + u * c2.dst as usize + v * c.dst as usize,
        )
    };
    /// One `K × K` block (`K` a constant: unrolled).
    #[inline(always)]
    fn one<T: Copy, const K: usize>(i: &[T], o: &mut [T]) {
        let (i, o) = (&i[..K * K], &mut o[..K * K]);
        for r in 0..K {
            for q in 0..K {
                o[K * r + q] = i[r + K * q];
            }
        }
    }
    let kk = k as usize * k as usize;
    for u in 0..c2.n as usize {
        for v in 0..c.n as usize {
            let (so, dof) = at(u, v);
            let (i, o) = (&src[so..so + kk], &mut dst[dof..dof + kk]);
            match k {
                2 => one::<T, 2>(i, o),
                4 => one::<T, 4>(i, o),
                _ => one::<T, 8>(i, o),
            }
        }
    }
}

/// Whether the gather loops `loops` (source order) end in a `k × k`
/// [`square`] of `bytes`-wide slots that
/// [`simd::squares::gather_squares`](super::simd::squares::gather_squares) moves as one
/// unit: `k = 2` for 2-byte slots (8-byte units), `k = 4` for 1-byte slots
/// (16-byte units); the innermost loop contiguous in the source, the one
/// around it contiguous in the stage.
pub(crate) const fn square_unit(loops: &[Loop], bytes: usize) -> Option<u8> {
    let k = match bytes {
        2 => 2,
        1 => 4,
        _ => return None,
    };
    match loops {
        [.., c, r] if square(k, r, c) => Some(k),
        _ => None,
    }
}

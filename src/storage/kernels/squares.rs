//! The `k × k` blocks of a transpose between packed tilings, moved whole.

use super::super::nest::Loop;
#[cfg(feature = "alloc")]
use super::gather_rows;
#[cfg(feature = "alloc")]
use super::simd::{squares::gather_units, Isa};
#[cfg(feature = "alloc")]
use core::mem::size_of;

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
/// [`square`] of `bytes`-wide slots that [`gather_squares`] moves as one
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

/// A gather block whose loops end in a [`square_unit`] of `k`, from `src`
/// at `s` into the stage `out`: the loops around the square run as in any
/// gather block (source order), each of their slots a `k²`-slot unit read
/// whole, transposed in a register and written whole — the stage then
/// holds the destination chunks as for a plain tile transpose of units.
/// `ahead`: the source offset of the next block less this one's,
/// prefetched as this one is read.
///
/// When the loops' strides are whole units, they go to
/// [`simd::squares::gather_units`](super::simd::squares::gather_units)
/// as a tile transpose of units (adjacent loops merged), where the level
/// has one.
#[cfg(feature = "alloc")]
pub(crate) fn gather_squares<T: bytemuck::Pod>(
    isa: Isa,
    k: u8,
    src: &[T],
    s: usize,
    loops: &[Loop],
    out: &mut [T],
    ahead: Option<isize>,
) {
    let z = size_of::<T>();
    let kk = k as usize * k as usize;
    let (i8s, o8s): (&[u8], &mut [u8]) = (bytemuck::cast_slice(src), bytemuck::cast_slice_mut(out));
    if let Some((ul, n)) = unit_loops(&loops[..loops.len().saturating_sub(2)], kk as u64) {
        let u = kk * z;
        let ahead = ahead.map(|x| x * z as isize);
        if gather_units(isa, u, i8s, s * z, &ul[..n], o8s, ahead) {
            return;
        }
    }
    let mut unit = |so: usize, o: usize| {
        let (i, o) = (&i8s[so * z..(so + kk) * z], &mut o8s[o * z..(o + kk) * z]);
        match (k, z) {
            (2, 2) => o.copy_from_slice(&swap2x16(bytemuck::pod_read_unaligned(i)).to_ne_bytes()),
            (4, 1) => o.copy_from_slice(&swap4x8(bytemuck::pod_read_unaligned(i)).to_ne_bytes()),
            // (`square_unit` admits no other pair)
            _ => unreachable!("square units are 2 × 2 of 2 bytes or 4 × 4 of 1 byte"),
        }
    };
    let rest = &loops[..loops.len().saturating_sub(2)];
    if rest.is_empty() {
        unit(s, 0);
        return;
    }
    gather_rows(rest, s, |sb, db, n, si, di| {
        if let (Some(x), true) = (ahead, si == kk) {
            // the next block's source: the same contiguous row `x` away
            for j in (0..n * kk).step_by((64 / z).max(1)) {
                super::simd::prefetch(src.as_ptr().wrapping_add(sb + j).wrapping_offset(x));
            }
        }
        for j in 0..n {
            unit(sb + j * si, db + j * di);
        }
    });
}

/// The loops `rest` (source order) with their strides in `kk`-slot
/// units, adjacent loops that chain on both sides merged, and how many
/// there are; `None` if a stride is not whole units or there are more
/// than 16.
#[cfg(feature = "alloc")]
fn unit_loops(rest: &[Loop], kk: u64) -> Option<([Loop; 16], usize)> {
    let mut ul = [Loop::ONE; 16];
    let mut n = 0usize;
    for l in rest {
        if l.src % kk != 0 || l.dst % kk != 0 {
            return None;
        }
        let l = Loop {
            src: l.src / kk,
            dst: l.dst / kk,
            ..*l
        };
        match n.checked_sub(1).map(|i| ul[i]) {
            // `l` inside the previous loop, which continues it on both
            // sides: one loop
            Some(o) if o.src == l.src * l.n && o.dst == l.dst * l.n => {
                ul[n - 1] = Loop { n: o.n * l.n, ..l };
            }
            _ => {
                *ul.get_mut(n)? = l;
                n += 1;
            }
        }
    }
    Some((ul, n))
}

/// The 2 × 2 transpose of the 16-bit slots of a unit read from memory
/// (slot `i` at bytes `2i..2i+2`): slots 1 and 2 exchange. Independent of
/// byte order, since the slots keep their bytes and the unit is written
/// back the way it was read.
#[cfg(feature = "alloc")]
#[inline(always)]
fn swap2x16(x: u64) -> u64 {
    // slots 1 and 2 are bits 16..48 in either byte order (1 the lower
    // half on little-endian hosts, 2 on big-endian ones): the exchange of
    // the two halves is the same
    let t = ((x >> 16) ^ x) & 0xFFFF_0000;
    x ^ t ^ (t << 16)
}

/// The 4 × 4 transpose of the bytes of a unit (byte `r + 4c` to `4r + c`):
/// two delta swaps, exchanging the low bits of `r` and `c` (bytes 3
/// apart), then the high bits (bytes 6 apart).
#[cfg(feature = "alloc")]
#[inline(always)]
fn swap4x8(x: u128) -> u128 {
    // byte masks built from the byte positions, so that they follow the
    // host's byte order (`from_ne_bytes`)
    const fn mask(bytes: [usize; 4]) -> u128 {
        let mut m = [0u8; 16];
        let mut i = 0;
        while i < 4 {
            m[bytes[i]] = 0xFF;
            i += 1;
        }
        u128::from_ne_bytes(m)
    }
    fn delta(x: u128, m: u128, d: u32) -> u128 {
        if cfg!(target_endian = "little") {
            let t = ((x >> d) ^ x) & m;
            x ^ t ^ (t << d)
        } else {
            let t = ((x << d) ^ x) & m;
            x ^ t ^ (t >> d)
        }
    }
    let x = delta(x, mask([1, 3, 9, 11]), 24);
    delta(x, mask([2, 3, 6, 7]), 48)
}

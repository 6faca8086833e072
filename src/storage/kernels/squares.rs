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
/// Measured (AMD EPYC Zen 4, 32 KiB L1d, 1 MiB L2, 32 MiB L3; the bench
/// with `RELAYOUT_CLOCK=cpu`, old and new builds alternated three times,
/// seven runs each, load average 9.5–11; ratio to memcpy, plain `Vec`s /
/// 64-byte aligned): `bf16[2048,4096]` `{1,0:T(8,128)(2,1)}` →
/// `{0,1:T(8,128)(2,1)}` 0.49–0.50× / 0.45–0.50× as [`squares`] → 0.76–0.77×
/// / 0.71–0.78×; s8 `(4,1)` 0.53–0.55× / 0.50–0.55× → 0.52–0.56× /
/// 0.64–0.66×. Slot by slot (no register transposes) the same nests took
/// 0.23–0.28×; without the unit transposes' source prefetch s8 took
/// 0.42–0.47×.
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

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use crate::storage::nest::FREE;
    use crate::storage::simd::Simd;
    use alloc::vec::Vec;

    fn l(n: u64, src: u64, dst: u64) -> Loop {
        Loop {
            n,
            src,
            dst,
            dim: FREE,
            w: 1,
        }
    }

    /// `out[Σ iᵢ·dstᵢ] = src[s + Σ iᵢ·srcᵢ]` over every index of `loops`:
    /// the definition of a gather block, slot by slot.
    fn by_definition<T: Copy>(src: &[T], s: usize, loops: &[Loop], out: &mut [T]) {
        let total: u64 = loops.iter().map(|l| l.n).product();
        for mut i in 0..total {
            let (mut so, mut d) = (s, 0);
            for l in loops.iter().rev() {
                let x = (i % l.n) as usize;
                i /= l.n;
                so += x * l.src as usize;
                d += x * l.dst as usize;
            }
            out[d] = src[so];
        }
    }

    #[test]
    fn unit_swaps_transpose_the_squares() {
        let x = u64::from_ne_bytes(bytemuck::cast([1u16, 2, 3, 4]));
        let y: [u16; 4] = bytemuck::cast(swap2x16(x).to_ne_bytes());
        assert_eq!(y, [1, 3, 2, 4]);
        let b: [u8; 16] = core::array::from_fn(|i| i as u8 + 10);
        let y = swap4x8(u128::from_ne_bytes(b)).to_ne_bytes();
        for r in 0..4 {
            for c in 0..4 {
                assert_eq!(y[4 * r + c], b[r + 4 * c]);
            }
        }
    }

    /// Gather blocks between packed tilings at every level, against the
    /// definition: loops that make unit transposes the registers take
    /// (the AVX2 level's, which must run where the CPU has AVX2), loops
    /// whose counts they do not take, and strides that are not whole units
    /// (both slot by slot).
    #[test]
    fn gather_squares_match_the_definition_at_every_level() {
        fn run<T: bytemuck::Pod + PartialEq + core::fmt::Debug>(
            k: u8,
            loops: &[Loop],
            units: Option<(usize, bool)>,
            val: impl Fn(usize) -> T,
        ) {
            let (slots, stage) = (4096, 2048);
            let src: Vec<T> = (0..slots).map(&val).collect();
            let mut want = alloc::vec![val(0); stage];
            by_definition(&src, 3 * k as usize * k as usize, loops, &mut want);
            assert_eq!(square_unit(loops, size_of::<T>()), Some(k));
            for level in Simd::ALL {
                let isa = Isa::new(Some(level));
                let mut out = alloc::vec![val(0); stage];
                let s = 3 * k as usize * k as usize;
                gather_squares(isa, k, &src, s, loops, &mut out, Some(64));
                assert_eq!(out, want, "{level:?} {loops:?}");
                if let Some((u, fits)) = units {
                    // the unit loops reach the register transposes exactly
                    // at AVX2 and above, where the loops fit
                    let kk = k as u64 * k as u64;
                    let (ul, n) = unit_loops(&loops[..loops.len() - 2], kk).unwrap();
                    let mut o = alloc::vec![val(0); stage];
                    let ran = gather_units(
                        isa,
                        u,
                        bytemuck::cast_slice(&src),
                        s * size_of::<T>(),
                        &ul[..n],
                        bytemuck::cast_slice_mut(&mut o),
                        None,
                    );
                    let avx2 = Simd::detected() >= Simd::Avx2;
                    assert_eq!(ran, fits && avx2 && level >= Simd::Avx2, "{level:?}");
                    if ran {
                        assert_eq!(o, want, "{level:?} units");
                    }
                }
            }
        }
        let v16 = |i: usize| (i as u16).wrapping_mul(40503).wrapping_add(7);
        let v8 = |i: usize| (i as u8).wrapping_mul(167) ^ (i >> 8) as u8;
        let sq2 = [l(2, 2, 1), l(2, 1, 2)];
        let sq4 = [l(4, 4, 1), l(4, 1, 4)];
        // bf16: 2 × 8 rows of 12 units (source rows 24 units apart, in
        // two pieces that merge), stage rows of 8 units
        let bf = [l(2, 800, 512), l(8, 96, 4), l(3, 16, 128), l(4, 4, 32)];
        run::<u16>(2, &[&bf[..], &sq2].concat(), Some((8, true)), v16);
        // counts the 4 × 4 registers do not take (6 rows)
        let odd = [l(6, 96, 4), l(12, 4, 24)];
        run::<u16>(2, &[&odd[..], &sq2].concat(), Some((8, false)), v16);
        // strides in half units: slot by slot
        let half = [l(4, 98, 4), l(8, 2, 16)];
        run::<u16>(2, &[&half[..], &sq2].concat(), None, v16);
        // s8: 2 × 2 of 16-byte units, in 3 × 2 rows of 6 units
        let s8 = [l(3, 16 * 16, 16 * 12), l(2, 16 * 8, 16), l(6, 16, 32)];
        run::<u8>(4, &[&s8[..], &sq4].concat(), Some((16, true)), v8);
        let odd8 = [l(3, 16 * 8, 16), l(4, 16, 48)];
        run::<u8>(4, &[&odd8[..], &sq4].concat(), Some((16, false)), v8);
    }
}

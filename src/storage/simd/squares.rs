//! The gather blocks of a transpose between packed tilings
//! ([`gather_squares`]): each `k × k` square of slots is
//! one unit (8 bytes for 2 × 2 of 16 bits, 16 bytes for 4 × 4 of 8 bits),
//! and the block a tile transpose of units, the squares themselves
//! transposed in each unit by a byte shuffle. AVX2 transposes 4 × 4
//! (8-byte units) or 2 × 2 (16-byte units) at a time, 32 bytes of each
//! source row; AVX-512 4 × 8 or 2 × 4, a whole 64-byte line of each
//! source row, by two-source permutes (`vpermt2q`).
//!
//! ```text
//!   dst[d + c·ds + r] = T(src[s + r·ss + c])      (in units) r < R, c < C
//! ```
//!
//! with `T` the in-unit transpose (slots `i + k·j` to `k·i + j`).
//! [`NextSource`] hints the next block's source while a block's stage
//! is copied out. Streaming blocks skip the stage at the AVX-512 level
//! where their shape allows ([`gather_direct`]: whole source lines of 8
//! or 4 rows a step, transposed in registers straight into the
//! destination's lines).

use core::mem::size_of;

use super::Isa;
use crate::storage::kernels::gather_rows;
use crate::storage::nest::Loop;

mod direct;
mod next;
pub(crate) use direct::gather_direct;
#[cfg(test)]
pub(crate) use direct::takes_direct;
pub(crate) use next::NextSource;

/// Runs a gather block of `u`-byte units (8 or 16) from the bytes `src`
/// at byte `s` into the stage bytes `out`, if the level has a register
/// transpose for it and the unit loops `loops` (source order, strides in
/// units) end in one ([`tail`]): the innermost loop contiguous in the
/// source, the one around it contiguous in the stage, their counts
/// multiples of the block's columns and rows (AVX-512's blocks where they
/// fit, else AVX2's, which also take source rows split in runs). Returns
/// whether it ran. `ahead`: the source byte offset
/// of the next block less this one's, prefetched as this one is read;
/// `tick(k, of)` after each of the AVX2 blocks' `of` row groups (the
/// AVX-512 blocks take no ticks: [`gather_squares_ticked`] runs below
/// them only).
#[allow(clippy::too_many_arguments)] // reason: the gather's arguments and the tick, flat
pub(crate) fn gather_units(
    isa: Isa,
    u: usize,
    src: &[u8],
    s: usize,
    loops: &[Loop],
    out: &mut [u8],
    ahead: Option<isize>,
    tick: impl FnMut(usize, usize),
) -> bool {
    // (rows, columns) of a block in units: AVX2 a square of two 32-byte
    // registers' worth, AVX-512 whole 64-byte lines of each source row
    let (avx2, avx512) = match u {
        8 => ((4, 4), (4, 8)),
        16 => ((2, 2), (2, 4)),
        _ => return false,
    };
    #[cfg(target_arch = "x86_64")]
    if let Some(t) = tail(loops, avx512, false).filter(|_| isa.avx512()) {
        // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most the
        // detected level).
        unsafe { avx512_units(u, src, s, t, out, ahead) };
        return true;
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(t) = tail(loops, avx2, true).filter(|_| isa.avx2()) {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        unsafe { avx2_units(u, src, s, t, out, ahead, tick) };
        return true;
    }
    let _ = (isa, src, s, out, ahead, avx512, avx2, tick);
    false
}

/// [`gather_units`] at the AVX2 level (so that the block transposes
/// inline into the loops): square blocks of 32 bytes of each row,
/// stepped through by [`rows32`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_units(
    u: usize,
    src: &[u8],
    s: usize,
    t: Tail,
    out: &mut [u8],
    ahead: Option<isize>,
    tick: impl FnMut(usize, usize),
) {
    // (each group a closure of this function, so compiled for AVX2 even
    // where it is not inlined into the loops around it; `go!(rows and
    // columns, unit bytes, runs, transpose)`. Rows in runs a loop of
    // their own: with it in the one-run loop, that loop spilled and ran
    // 4-5% slower, s8[128,65536] streaming)
    macro_rules! go {
        ($r:literal, $u:literal, $runs:literal, $t:ident) => {{
            let group = |g: Group, out: &mut [u8], h: &Hints| {
                rows32::<$r, $runs>(g, out, h, |a, o, ds| avx2::$t(a, o, ds))
            };
            blocks(($r, $r), $u, src, s, t, out, ahead, group, tick)
        }};
    }
    match (u, t.runs) {
        (8, 1) => go!(4, 8, false, t4_u64),
        (8, _) => go!(4, 8, true, t4_u64),
        (_, 1) => go!(2, 16, false, t2_u128),
        _ => go!(2, 16, true, t2_u128),
    }
}

/// [`gather_units`] at the AVX-512 level: blocks that read whole 64-byte
/// lines of each source row (4 rows of 8 units, 2 rows of 4).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn avx512_units(u: usize, src: &[u8], s: usize, t: Tail, out: &mut [u8], ahead: Option<isize>) {
    // block `k` of a group reads 64 bytes of each row from `so + 64·k`
    // and writes its `cols` columns from `d + cols·k·ds`
    if u == 8 {
        let group = |g: Group, out: &mut [u8], h: &Hints| {
            for k in 0..g.nc {
                h.at(&g, k);
                avx512::t4x8_u64(g.src, g.so + 64 * k, g.ss, out, g.d + 8 * k * g.ds, g.ds);
            }
        };
        blocks((4, 8), 8, src, s, t, out, ahead, group, |_, _| {});
    } else {
        let group = |g: Group, out: &mut [u8], h: &Hints| {
            for k in 0..g.nc {
                h.at(&g, k);
                avx512::t2x4_u128(g.src, g.so + 64 * k, g.ss, out, g.d + 4 * k * g.ds, g.ds);
            }
        };
        blocks((2, 4), 16, src, s, t, out, ahead, group, |_, _| {});
    }
}

/// One row group of a unit gather block (bytes): `runs × nc` block
/// transposes whose rows start at `src[so + r·ss]` (contiguous through
/// the runs), their columns in the stage from `d`, `ds` apart in a run,
/// the runs `dr` apart. (Only AVX2's blocks take more than one run.)
#[derive(Clone, Copy)]
struct Group<'a> {
    src: &'a [u8],
    so: usize,
    ss: usize,
    d: usize,
    ds: usize,
    nc: usize,
    runs: usize,
    dr: usize,
}

/// The end of a unit gather block's loops that register blocks of
/// `rows × cols` units take: each source row's `runs × n` units
/// contiguous in the source, unit `j` of run `q` at `q·dr + j·ds` in the
/// stage; the rows loop, contiguous in the stage, last of `outer`.
#[derive(Clone, Copy)]
pub(super) struct Tail<'a> {
    all: &'a [Loop],
    outer: &'a [Loop],
    n: u64,
    ds: u64,
    runs: u64,
    dr: u64,
}

/// The [`Tail`] of `loops` for blocks of `(rows, cols)` units: the
/// innermost loop contiguous in the source, `cols` dividing its count,
/// the rows loop around it contiguous in the stage, `rows` dividing its
/// count; or, with `split`, the innermost two loops one source row
/// (strides chaining on the source side only: a stage chunk that holds
/// several destination tiles), the rows loop around them.
///
/// Measured (AMD EPYC Zen 3 without AVX-512: 32 KiB L1d, 512 KiB L2,
/// 32 MiB L3; `{1,0:T(8,128)(k,1)}` → `{0,1:T(8,128)(k,1)}`, plain
/// `Vec`s): before the runs such blocks went slot by slot. s8[256,32768]
/// (streaming) 2.3 → 9.4–9.6 GB/s, bf16 1.7 → 9.4–10.4 GB/s;
/// s8[512,512] 2.5 → 8.6 GB/s, s8[256,256] and bf16[256,256] 2.6 and
/// 1.8 → 8.2 and 8.4 GB/s. Blocks of one run are unchanged (within 2%).
fn tail(loops: &[Loop], (rows, cols): (u64, u64), split: bool) -> Option<Tail<'_>> {
    let rows_fit = |outer: &[Loop]| matches!(outer, [.., y] if y.dst == 1 && y.n % rows == 0);
    match loops {
        [outer @ .., x] if x.src == 1 && x.n % cols == 0 && rows_fit(outer) => Some(Tail {
            all: loops,
            outer,
            n: x.n,
            ds: x.dst,
            runs: 1,
            dr: 0,
        }),
        [outer @ .., x1, x0]
            if split && x0.src == 1 && x1.src == x0.n && x0.n % cols == 0 && rows_fit(outer) =>
        {
            Some(Tail {
                all: loops,
                outer,
                n: x0.n,
                ds: x0.dst,
                runs: x1.n,
                dr: x1.dst,
            })
        }
        _ => None,
    }
}

/// The hints of a row group's blocks, [`Hints::at`] before block `k`:
/// a new line of each of its `rows` rows every `every` blocks (a block
/// reads `w` bytes of each), hinted in the next gather block (`ahead`
/// bytes on) into L2 and one sweep on (`next` bytes) into L1.
struct Hints {
    rows: usize,
    w: usize,
    every: usize,
    ahead: Option<isize>,
    next: Option<usize>,
}

impl Hints {
    #[inline(always)]
    fn at(&self, g: &Group, k: usize) {
        if !k.is_multiple_of(self.every) {
            return;
        }
        for r in 0..self.rows {
            let at = g.src.as_ptr().wrapping_add(g.so + self.w * k + r * g.ss);
            if let Some(x) = self.ahead {
                super::prefetch_l2(at.wrapping_offset(x));
            }
            if let Some(o) = self.next {
                super::prefetch(at.wrapping_add(o));
            }
        }
    }
}

/// A row group of square blocks that read 32 bytes of each of `R` rows
/// and write `R` columns (AVX2's), `t(rows, stage, ds)`: the rows are
/// sliced once and stepped through in 32-byte pieces, the stage from the
/// block's first column, so that `t` has no offsets left to check.
///
/// Measured (AMD EPYC Zen 3, L1d 32 KiB, L2 512 KiB, L3 32 MiB, no
/// AVX-512; s8[2048,4096] `{1,0:T(8,128)(4,1)}` → `{0,1:T(8,128)(4,1)}`,
/// streaming, the gather blocks alone without their copy-out): a call of
/// the transpose per block on offsets, each load and store
/// bounds-checked and the offsets spilled, ran 11.3 GB/s; unchecked
/// accesses 19.2 GB/s; these slices 17 GB/s. The whole relayout, with
/// the overlapped copy-out: 7.8–8.2 → 10.2–10.5 GB/s.
/// With `RUNS`, the group's rows are in `g.runs` runs; without, in one.
#[inline(always)]
fn rows32<const R: usize, const RUNS: bool>(
    g: Group,
    out: &mut [u8],
    h: &Hints,
    mut t: impl FnMut([&[u8]; R], &mut [u8], usize),
) {
    let runs = if RUNS { g.runs } else { 1 };
    let rows: [&[u8]; R] = core::array::from_fn(|r| &g.src[g.so + r * g.ss..][..32 * g.nc * runs]);
    let st = &mut out[g.d..];
    if !RUNS {
        for k in 0..g.nc {
            h.at(&g, k);
            let a = core::array::from_fn(|r| &rows[r][32 * k..32 * k + 32]);
            t(a, &mut st[R * k * g.ds..], g.ds);
        }
        return;
    }
    // (as one iterator: nested loops ran 20% slower, s8[256,32768])
    let nc = g.nc;
    for (q, k) in (0..runs).flat_map(|q| (0..nc).map(move |k| (q, k))) {
        let b = q * nc + k;
        h.at(&g, b);
        let a = core::array::from_fn(|r| &rows[r][32 * b..32 * b + 32]);
        t(a, &mut st[q * g.dr + R * k * g.ds..], g.ds);
    }
}

/// The loops of a unit gather block around `group`, which runs the block
/// transposes (`side.0` rows × `side.1` columns of `u`-byte units) of
/// each row group ([`Group`], with its [`Hints`]), the same order and
/// prefetching as the 32-bit tile transposes (`transpose_loops`); `t`
/// the block's loops' [`Tail`] for that side.
#[allow(clippy::too_many_arguments)] // reason: the block's shape, both sides and the transpose
#[inline(always)]
fn blocks(
    side: (usize, usize),
    u: usize,
    src: &[u8],
    s: usize,
    t: Tail,
    out: &mut [u8],
    ahead: Option<isize>,
    mut group: impl FnMut(Group, &mut [u8], &Hints),
    mut tick: impl FnMut(usize, usize),
) {
    let [around @ .., y] = t.outer else {
        return;
    };
    let of = around
        .iter()
        .fold(y.n as usize / side.0, |k, l| k.saturating_mul(l.n as usize));
    let mut done = 0;
    let (sy, sx) = side;
    let (ss, ds) = (y.src as usize * u, t.ds as usize * u);
    let (nr, nc) = (y.n as usize / sy, t.n as usize / sx);
    // the rows the outermost loop's next value reads, one sweep ahead,
    // into L1 (as `transpose_loops` does, in bytes)
    let next = super::transpose_loops::next_sweep(t.all, u as u64).map(|o| o * u);
    // one block reads `sx · u` bytes of each row (32 or 64): a new line
    // of each row every `every` blocks
    let every = (64 / (sx * u)).max(1);
    let h = Hints {
        rows: sy,
        w: sx * u,
        every,
        ahead,
        next,
    };
    // (`gather_rows` steps in units; the block's offsets are in bytes)
    for tr in 0..nr {
        gather_rows(t.outer, 0, |sb, db, _, _, _| {
            let so = s + sb * u + sy * tr * ss;
            let g = Group {
                src,
                so,
                ss,
                d: db * u + sy * tr * u,
                ds,
                nc,
                runs: t.runs as usize,
                dr: t.dr as usize * u,
            };
            group(g, out, &h);
            done += 1;
            tick(done, of);
        });
    }
}

/// A gather block whose loops end in a `kernels::square_unit` of `k`, from `src`
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
/// `{0,1:T(8,128)(2,1)}` 0.49–0.50× / 0.45–0.50× as `kernels::squares` →
/// 0.76–0.77× / 0.71–0.78× (AVX2 blocks). Slot by slot (no register
/// transposes) the same nests took 0.23–0.28×; without the unit
/// transposes' source prefetch s8 took 0.42–0.47×. The AVX-512 blocks
/// (whole source lines) against the AVX2 ones, same clock, eight
/// rounds of seven runs alternated, load average 5–6: bf16 0.76× /
/// 0.77× → 0.83× / 0.85× (median of the rounds). Tried with them and not
/// kept (same case and s8, streaming): the next block's source
/// prefetched two or four blocks ahead instead of one (0.68–0.80×
/// against 0.74–0.85×), into L1 or non-temporally instead of L2
/// (0.59–0.68×), without the next sweep's L1 prefetch (0.64×).
///
/// When the loops' strides are whole units, they go to [`gather_units`]
/// as a tile transpose of units (adjacent loops merged), where the level
/// has one.
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
    if let Some((u, ul, n)) = unit_block(k, z, loops) {
        let ahead = ahead.map(|x| x * z as isize);
        if gather_units(isa, u, i8s, s * z, &ul[..n], o8s, ahead, |_, _| {}) {
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
                super::prefetch(src.as_ptr().wrapping_add(sb + j).wrapping_offset(x));
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

/// [`gather_squares`] at the AVX2 level (below AVX-512) where the loops
/// end in a `kernels::square_unit` and are a tile transpose of units the
/// level has blocks for, `tick(k, of)`
/// after each of the block's `of` row groups; `false`, and nothing done,
/// elsewhere.
pub(crate) fn gather_squares_ticked<T: bytemuck::Pod>(
    isa: Isa,
    src: &[T],
    s: usize,
    loops: &[Loop],
    out: &mut [T],
    ahead: Option<isize>,
    tick: impl FnMut(usize, usize),
) -> bool {
    if !isa.avx2() || isa.avx512() {
        return false;
    }
    let z = size_of::<T>();
    let Some((u, ul, n)) =
        crate::storage::kernels::square_unit(loops, z).and_then(|k| unit_block(k, z, loops))
    else {
        return false;
    };
    let (i8s, o8s): (&[u8], &mut [u8]) = (bytemuck::cast_slice(src), bytemuck::cast_slice_mut(out));
    let ahead = ahead.map(|x| x * z as isize);
    gather_units(isa, u, i8s, s * z, &ul[..n], o8s, ahead, tick)
}

/// The unit bytes and unit loops (`unit_loops`, and how many) of a block
/// of `z`-byte slots whose loops end in `k × k` squares.
fn unit_block(k: u8, z: usize, loops: &[Loop]) -> Option<(usize, [Loop; 16], usize)> {
    let kk = k as usize * k as usize;
    let (ul, n) = unit_loops(&loops[..loops.len().saturating_sub(2)], kk as u64)?;
    Some((kk * z, ul, n))
}

/// The 2 × 2 transpose of the 16-bit slots of a unit read from memory
/// (slot `i` at bytes `2i..2i+2`): slots 1 and 2 exchange. Independent of
/// byte order, since the slots keep their bytes and the unit is written
/// back the way it was read.
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

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;

    /// A 32-byte load of `b` (32 bytes long).
    #[inline(always)]
    fn load(b: &[u8]) -> __m256i {
        bytemuck::pod_read_unaligned(&b[..32])
    }

    /// A 32-byte store to `b[o..o + 32]`.
    #[inline(always)]
    fn store(b: &mut [u8], o: usize, v: __m256i) {
        b[o..o + 32].copy_from_slice(bytemuck::bytes_of(&v));
    }

    /// A 4 × 4 transpose of 8-byte units, each a 2 × 2 square of 16-bit
    /// slots transposed too (slots 1 and 2 exchanged): row `r` of the
    /// source is `rows[r]` (32 bytes), column `c` of the result goes to
    /// `dst[c·ds..]`.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn t4_u64(rows: [&[u8]; 4], dst: &mut [u8], ds: usize) {
        let a = rows.map(load);
        // pairs within 128-bit lanes, then lanes
        let t0 = _mm256_unpacklo_epi64(a[0], a[1]);
        let t1 = _mm256_unpackhi_epi64(a[0], a[1]);
        let t2 = _mm256_unpacklo_epi64(a[2], a[3]);
        let t3 = _mm256_unpackhi_epi64(a[2], a[3]);
        let o = [
            _mm256_permute2x128_si256::<0x20>(t0, t2),
            _mm256_permute2x128_si256::<0x20>(t1, t3),
            _mm256_permute2x128_si256::<0x31>(t0, t2),
            _mm256_permute2x128_si256::<0x31>(t1, t3),
        ];
        for (c, v) in o.into_iter().enumerate() {
            // 16-bit slots 0, 2, 1, 3 of each unit
            let v = _mm256_shufflehi_epi16::<0xD8>(_mm256_shufflelo_epi16::<0xD8>(v));
            store(dst, c * ds, v);
        }
    }

    /// A 2 × 2 transpose of 16-byte units, each a 4 × 4 square of bytes
    /// transposed too (byte `r + 4c` to `4r + c`): as [`t4_u64`].
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn t2_u128(rows: [&[u8]; 2], dst: &mut [u8], ds: usize) {
        let [a0, a1] = rows.map(load);
        let m = _mm256_setr_epi8(
            0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6,
            10, 14, 3, 7, 11, 15,
        );
        let o = [
            _mm256_permute2x128_si256::<0x20>(a0, a1),
            _mm256_permute2x128_si256::<0x31>(a0, a1),
        ];
        for (c, v) in o.into_iter().enumerate() {
            store(dst, c * ds, _mm256_shuffle_epi8(v, m));
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::arch::x86_64::*;

    /// A 64-byte load from `b[o..o + 64]` (two 32-byte halves: `Pod`
    /// has no 64-byte vectors).
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) fn load(b: &[u8], o: usize) -> __m512i {
        let b = &b[o..o + 64];
        let lo: __m256i = bytemuck::pod_read_unaligned(&b[..32]);
        let hi: __m256i = bytemuck::pod_read_unaligned(&b[32..]);
        _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
    }

    /// The two 32-byte halves of `v` to `b[o..o + 32]` and
    /// `b[p..p + 32]`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn store2(b: &mut [u8], o: usize, p: usize, v: __m512i) {
        let (lo, hi) = (_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
        b[o..o + 32].copy_from_slice(bytemuck::bytes_of(&lo));
        b[p..p + 32].copy_from_slice(bytemuck::bytes_of(&hi));
    }

    /// The `vpshufb` pattern of the in-unit transpose of `u`-byte units
    /// (8: the 16-bit slots 0, 2, 1, 3 of each unit; 16: byte `r + 4c`
    /// to `4r + c`).
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) fn in_unit(u: usize) -> __m512i {
        if u == 8 {
            _mm512_set4_epi32(0x0F0E_0B0A, 0x0D0C_0908, 0x0706_0302, 0x0504_0100)
        } else {
            _mm512_set4_epi32(0x0F0B_0703, 0x0E0A_0602, 0x0D09_0501, 0x0C08_0400)
        }
    }

    /// A 4 × 8 transpose of 8-byte units (4 source rows of one 64-byte
    /// line each), each a 2 × 2 square of 16-bit slots transposed too:
    /// row `r` of the source at `s + r·ss`, column `c` of the result (4
    /// units) at `d + c·ds` (bytes).
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) fn t4x8_u64(src: &[u8], s: usize, ss: usize, dst: &mut [u8], d: usize, ds: usize) {
        // 16-bit slots 0, 2, 1, 3 of each unit, in the source rows
        let sw = in_unit(8);
        let a = [0, 1, 2, 3].map(|r| _mm512_shuffle_epi8(load(src, s + r * ss), sw));
        // within 128-bit lanes: rows 0 and 1 (2 and 3) of columns 2l and
        // 2l + 1 of lane l
        let t0 = _mm512_unpacklo_epi64(a[0], a[1]);
        let t1 = _mm512_unpackhi_epi64(a[0], a[1]);
        let t2 = _mm512_unpacklo_epi64(a[2], a[3]);
        let t3 = _mm512_unpackhi_epi64(a[2], a[3]);
        // lanes l of both (index 8+ the second source): columns 2l in the
        // low half, 2l' in the high
        let lo = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
        let hi = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
        // columns 0 | 2, 4 | 6 (from t0, t2); 1 | 3, 5 | 7 (t1, t3)
        let (c02, c46) = (
            _mm512_permutex2var_epi64(t0, lo, t2),
            _mm512_permutex2var_epi64(t0, hi, t2),
        );
        let (c13, c57) = (
            _mm512_permutex2var_epi64(t1, lo, t3),
            _mm512_permutex2var_epi64(t1, hi, t3),
        );
        store2(dst, d, d + 2 * ds, c02);
        store2(dst, d + 4 * ds, d + 6 * ds, c46);
        store2(dst, d + ds, d + 3 * ds, c13);
        store2(dst, d + 5 * ds, d + 7 * ds, c57);
    }

    /// A 2 × 4 transpose of 16-byte units (2 source rows of one 64-byte
    /// line each), each a 4 × 4 square of bytes transposed too (byte
    /// `r + 4c` to `4r + c`): as [`t4x8_u64`], each column 2 units.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub(super) fn t2x4_u128(src: &[u8], s: usize, ss: usize, dst: &mut [u8], d: usize, ds: usize) {
        let sw = in_unit(16);
        let a0 = _mm512_shuffle_epi8(load(src, s), sw);
        let a1 = _mm512_shuffle_epi8(load(src, s + ss), sw);
        // units c of both rows (index 8+ the second source): columns 0 | 1
        // and 2 | 3
        let lo = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
        let hi = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
        store2(dst, d, d + ds, _mm512_permutex2var_epi64(a0, lo, a1));
        store2(
            dst,
            d + 2 * ds,
            d + 3 * ds,
            _mm512_permutex2var_epi64(a0, hi, a1),
        );
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use crate::storage::kernels::square_unit;
    use crate::storage::simd::Simd;
    use alloc::vec::Vec;

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
    /// (the AVX2 level's, which must run where the CPU has AVX2, and the
    /// AVX-512 level's, which must run where it has AVX-512), loops whose
    /// counts only AVX2 takes or neither takes, and strides that are not
    /// whole units (both slot by slot); and the AVX2 level's blocks with
    /// ticks between row groups (`gather_squares_ticked`), which no other
    /// level runs.
    #[test]
    fn gather_squares_match_the_definition_at_every_level() {
        let l = Loop::free;
        /// How the unit loops fit the register blocks: the unit bytes,
        /// whether AVX2's blocks take them, whether AVX-512's do.
        type Fits = Option<(usize, bool, bool)>;
        fn run<T: bytemuck::Pod + PartialEq + core::fmt::Debug>(
            k: u8,
            loops: &[Loop],
            units: Fits,
            val: impl Fn(usize) -> T,
        ) {
            let (slots, stage) = (8192, 4096);
            let src: Vec<T> = (0..slots).map(&val).collect();
            let mut want = alloc::vec![val(0); stage];
            super::super::gather_by_definition(&src, 3 * k as usize * k as usize, loops, &mut want);
            assert_eq!(square_unit(loops, size_of::<T>()), Some(k));
            for level in Simd::ALL {
                let isa = Isa::new(Some(level));
                let mut out = alloc::vec![val(0); stage];
                let s = 3 * k as usize * k as usize;
                gather_squares(isa, k, &src, s, loops, &mut out, Some(64));
                assert_eq!(out, want, "{level:?} {loops:?}");
                if let Some((u, fits2, fits512)) = units {
                    // the unit loops reach the register transposes exactly
                    // at the levels the CPU runs, where the loops fit
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
                        |_, _| {},
                    );
                    let at = |l: Simd| Simd::detected() >= l && level >= l;
                    let want_ran = (fits512 && at(Simd::Avx512)) || (fits2 && at(Simd::Avx2));
                    assert_eq!(ran, want_ran, "{level:?} {loops:?}");
                    if ran {
                        assert_eq!(o, want, "{level:?} units");
                    }
                    // with ticks: at the AVX2 level only, where its
                    // blocks fit; each row group counted once, in order
                    let mut o = alloc::vec![val(0); stage];
                    let mut ticks = Vec::new();
                    let ran =
                        gather_squares_ticked(isa, &src, s, loops, &mut o, Some(64), |k, of| {
                            ticks.push((k, of))
                        });
                    let avx2 = isa.avx2() && !isa.avx512();
                    assert_eq!(ran, fits2 && avx2, "{level:?} {loops:?} ticked");
                    if ran {
                        assert_eq!(o, want, "{level:?} ticked");
                        let n = ticks.len();
                        let each: Vec<_> = (1..=n).map(|k| (k, n)).collect();
                        assert!(n > 0 && ticks == each, "{ticks:?}");
                    } else {
                        assert!(ticks.is_empty() && o.iter().all(|x| *x == val(0)));
                    }
                }
            }
        }
        let v16 = |i: usize| (i as u16).wrapping_mul(40503).wrapping_add(7);
        let v8 = |i: usize| (i as u8).wrapping_mul(167) ^ (i >> 8) as u8;
        let sq2 = [l(2, 2, 1), l(2, 1, 2)];
        let sq4 = [l(4, 4, 1), l(4, 1, 4)];
        // bf16: 2 × 8 rows of 12 units (source rows 24 units apart, in
        // two pieces that merge), stage rows of 8 units: AVX2's 4 × 4
        // blocks, not AVX-512's 4 × 8
        let bf = [l(2, 800, 512), l(8, 96, 4), l(3, 16, 128), l(4, 4, 32)];
        run::<u16>(2, &[&bf[..], &sq2].concat(), Some((8, true, false)), v16);
        // 2 × 3 tiles of 4 rows of 16 units (a packed tile's rows, 20
        // units apart), the tiles' rows one stage column: both
        let tiles = [l(2, 1600, 768), l(3, 320, 16), l(4, 80, 4), l(16, 4, 48)];
        run::<u16>(2, &[&tiles[..], &sq2].concat(), Some((8, true, true)), v16);
        // counts the registers do not take (6 rows)
        let odd = [l(6, 96, 4), l(12, 4, 24)];
        run::<u16>(2, &[&odd[..], &sq2].concat(), Some((8, false, false)), v16);
        // strides in half units: slot by slot
        let half = [l(4, 98, 4), l(8, 2, 16)];
        run::<u16>(2, &[&half[..], &sq2].concat(), None, v16);
        // s8: 2 × 2 of 16-byte units, in 3 × 2 rows of 6 units (AVX2
        // only); 3 × 2 rows of 8 units (both)
        let s8 = [l(3, 16 * 16, 16 * 12), l(2, 16 * 8, 16), l(6, 16, 32)];
        run::<u8>(4, &[&s8[..], &sq4].concat(), Some((16, true, false)), v8);
        let s8w = [l(3, 16 * 20, 16 * 16), l(2, 16 * 10, 16), l(8, 16, 32)];
        run::<u8>(4, &[&s8w[..], &sq4].concat(), Some((16, true, true)), v8);
        let odd8 = [l(3, 16 * 8, 16), l(4, 16, 48)];
        run::<u8>(4, &[&odd8[..], &sq4].concat(), Some((16, false, false)), v8);
        // source rows in runs whose stage strides do not chain (a stage
        // chunk of several destination tiles): AVX2 only, its blocks
        // within a run. s8: 3 × 2 rows of 3 runs of 4 units, the runs
        // 32 units apart in the stage; bf16: 2 × 4 rows of 2 runs of 8
        let split8 = [l(3, 1600, 32), l(2, 640, 16), l(3, 64, 512), l(4, 16, 96)];
        run::<u8>(
            4,
            &[&split8[..], &sq4].concat(),
            Some((16, true, false)),
            v8,
        );
        let split16 = [l(2, 600, 16), l(4, 120, 4), l(2, 32, 320), l(8, 4, 32)];
        run::<u16>(
            2,
            &[&split16[..], &sq2].concat(),
            Some((8, true, false)),
            v16,
        );
        // a run shorter than a block's columns: neither
        let short = [l(2, 640, 16), l(2, 48, 512), l(3, 16, 96)];
        run::<u8>(
            4,
            &[&short[..], &sq4].concat(),
            Some((16, false, false)),
            v8,
        );
    }
}

//! Zip and unzip of rows: the register-level interleave behind the
//! `(8,128)(2,1)` (bf16) and `(8,128)(4,1)` (s8) packings, and of
//! sub-byte rows into 32-bit columns (`(8,128)(8,1)E(4)` in `nibbles`,
//! `(16,128)(16,1)E(2)` and `(32,128)(32,1)E(1)` in `bitzip`).
//!
//! ```text
//!   zip2:  a0 a1 a2 …  +  b0 b1 b2 …   →  a0 b0 a1 b1 a2 b2 …
//!   zip4:  a, b, c, d                  →  a0 b0 c0 d0 a1 b1 c1 d1 …
//!   unzip: the inverse
//! ```
//!
//! On x86-64 the 16-bit ×2 and 8-bit ×4 cases use AVX2 when the CPU has it
//! (detected at run time, with `std`), else SSE2 unpack and pack
//! instructions (baseline on every x86-64 CPU); elsewhere, and for other
//! widths, portable loops. Every function takes equal-length rows
//! (`out.len() == K · row.len()`) and is checked against the portable loop
//! by the tests below and `tests/relayout_*.rs`.
//!
//! Which path runs is an [`Isa`]: a level the CPU is known to have (its
//! only constructor clamps a wish to the detected level), so the SIMD
//! calls' obligation is carried by the value passed in. A plan can ask for
//! a lower level ([`Simd`], `RelayoutPlan::with_simd`), and the
//! environment variable `TILELAYOUT_SIMD` (`portable`, `sse2`, `avx2`,
//! `avx512`;
//! read once, with `std`) caps the detected level for a whole process:
//! that is how the tests run every path on one machine.

/// A SIMD level of the relayout kernels, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Simd {
    /// Plain Rust loops (every target).
    Portable,
    /// SSE2 (the x86-64 baseline).
    Sse2,
    /// AVX2, with 32-byte non-temporal stores (x86-64, detected with
    /// `std`, or enabled at compile time).
    Avx2,
    /// AVX-512 F and BW (the 16-bit zip, the nibble zips of `E(4)` and
    /// the 2- and 1-bit zips of `E(2)`/`E(1)`, the 16 × 16 tile transposes
    /// of 32-bit slots; the other kernels run their AVX2 version at this
    /// level).
    Avx512,
}

impl Simd {
    /// Every level, lowest first.
    pub const ALL: [Simd; 4] = [Simd::Portable, Simd::Sse2, Simd::Avx2, Simd::Avx512];

    /// The highest level this CPU runs, capped by `TILELAYOUT_SIMD` (read
    /// once per process, with `std`).
    pub fn detected() -> Simd {
        #[cfg(feature = "std")]
        {
            static LEVEL: std::sync::OnceLock<Simd> = std::sync::OnceLock::new();
            *LEVEL.get_or_init(|| {
                let cap = std::env::var("TILELAYOUT_SIMD")
                    .ok()
                    .and_then(|v| Simd::from_name(&v));
                let cpu = cpu_level();
                cap.map_or(cpu, |c| c.min(cpu))
            })
        }
        #[cfg(not(feature = "std"))]
        cpu_level()
    }

    /// The level named `name` (as [`Simd::name`] spells it; case and
    /// surrounding white space ignored).
    ///
    /// ```
    /// use tilelayout::storage::Simd;
    /// assert_eq!(Simd::from_name(" AVX2\n"), Some(Simd::Avx2));
    /// assert_eq!(Simd::from_name("neon"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Simd> {
        Simd::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The level's name, as `TILELAYOUT_SIMD` spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Simd::Portable => "portable",
            Simd::Sse2 => "sse2",
            Simd::Avx2 => "avx2",
            Simd::Avx512 => "avx512",
        }
    }
}

/// What the CPU has (without the environment's cap).
fn cpu_level() -> Simd {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    {
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw") {
            return Simd::Avx512;
        }
        if std::is_x86_feature_detected!("avx2") {
            return Simd::Avx2;
        }
    }
    #[cfg(all(target_arch = "x86_64", not(feature = "std"), target_feature = "avx2"))]
    return Simd::Avx2;
    #[allow(unreachable_code)] // reason: with compile-time AVX2 the return above
    if cfg!(target_arch = "x86_64") {
        Simd::Sse2
    } else {
        Simd::Portable
    }
}

/// A [`Simd`] level this CPU is known to run: the proof the SIMD paths'
/// `unsafe` calls rely on. The only constructor clamps to
/// [`Simd::detected`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Isa(Simd);

impl Isa {
    /// `want` (default: the highest), lowered to what the CPU runs.
    pub(crate) fn new(want: Option<Simd>) -> Isa {
        let cpu = Simd::detected();
        Isa(want.map_or(cpu, |w| w.min(cpu)))
    }

    /// AVX-512 F and BW (proved present).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline]
    pub(crate) fn avx512(self) -> bool {
        cfg!(target_arch = "x86_64") && self.0 >= Simd::Avx512
    }

    /// AVX2 (proved present).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline]
    fn avx2(self) -> bool {
        cfg!(target_arch = "x86_64") && self.0 >= Simd::Avx2
    }

    /// SSE2 (proved present).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline]
    fn sse2(self) -> bool {
        cfg!(target_arch = "x86_64") && self.0 >= Simd::Sse2
    }
}

/// `out[K·c + k] = rows[k][c]`, portable.
pub(crate) fn zip<T: Copy, const K: usize>(rows: [&[T]; K], out: &mut [T]) {
    for (c, o) in out.chunks_exact_mut(K).enumerate() {
        for k in 0..K {
            o[k] = rows[k][c];
        }
    }
}

/// `rows[k][c] = inp[K·c + k]`, portable.
pub(crate) fn unzip<T: Copy, const K: usize>(inp: &[T], rows: [&mut [T]; K]) {
    for (k, row) in rows.into_iter().enumerate() {
        for (o, g) in row.iter_mut().zip(inp.chunks_exact(K)) {
            *o = g[k];
        }
    }
}

/// Where the blocks of a zip or unzip sit: two nested runs of blocks.
/// Block `(i, j)` (`i < count2`, `j < count`) has `K` rows of `len` slots
/// on the rows side, row `r` at `i·rstep2 + j·rstep + r·rs`, and `K·len`
/// packed slots on the packed side at `i·pstep2 + j·pstep`. Pre: `rs ≥
/// len`, and on the side written the blocks do not overlap.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blocks {
    pub(crate) len: usize,
    pub(crate) rs: usize,
    pub(crate) count: usize,
    pub(crate) rstep: usize,
    pub(crate) pstep: usize,
    pub(crate) count2: usize,
    pub(crate) rstep2: usize,
    pub(crate) pstep2: usize,
    /// Rows-side offset from these blocks to the next call's (the calls
    /// repeat at this step; 0: unknown), for prefetching across calls.
    pub(crate) next: usize,
}

impl Blocks {
    /// One block.
    pub(crate) fn one(len: usize, rs: usize) -> Blocks {
        Blocks {
            len,
            rs,
            count: 1,
            rstep: 0,
            pstep: 0,
            count2: 1,
            rstep2: 0,
            pstep2: 0,
            next: 0,
        }
    }

    /// For each block in the order of [`Blocks::each`], the rows-side
    /// offset of the block `t` blocks later, continuing into the following
    /// calls' blocks (every [`Blocks::next`]) past the last one; `None`
    /// there when the step is unknown. Counters, no division per block.
    #[cfg_attr(not(all(target_arch = "x86_64", feature = "std")), allow(dead_code))]
    pub(crate) fn ahead(&self, t: usize) -> impl Iterator<Item = Option<usize>> + '_ {
        let total = self.count * self.count2;
        let (mut call, mut i, mut j) = match total {
            0 => (0, 0, 0),
            _ => (t / total, t % total / self.count, t % self.count),
        };
        let mut at = i * self.rstep2 + j * self.rstep;
        (0..total).map(move |_| {
            let here = (call == 0 || self.next != 0).then(|| call * self.next + at);
            j += 1;
            at += self.rstep;
            if j == self.count {
                (i, j) = (i + 1, 0);
                at = i * self.rstep2;
                if i == self.count2 {
                    (call, i) = (call + 1, 0);
                    at = 0;
                }
            }
            here
        })
    }

    /// Every block as `(rows side offset, packed side offset)`.
    pub(crate) fn each(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.count2).flat_map(move |i| {
            (0..self.count).map(move |j| {
                (
                    i * self.rstep2 + j * self.rstep,
                    i * self.pstep2 + j * self.pstep,
                )
            })
        })
    }

    /// Slots the rows side spans for `k` rows.
    pub(crate) fn rows_extent(&self, k: usize) -> usize {
        if self.count == 0 || self.count2 == 0 {
            return 0;
        }
        (self.count2 - 1) * self.rstep2
            + (self.count - 1) * self.rstep
            + (k - 1) * self.rs
            + self.len
    }

    /// Slots the packed side spans for `k` rows.
    pub(crate) fn packed_extent(&self, k: usize) -> usize {
        if self.count == 0 || self.count2 == 0 {
            return 0;
        }
        (self.count2 - 1) * self.pstep2 + (self.count - 1) * self.pstep + k * self.len
    }
}

/// `K` mutable rows of `n` slots, `rs` apart from slot `d`. Pre: `rs ≥ n`.
#[inline]
pub(crate) fn rows_mut<T, const K: usize>(
    dst: &mut [T],
    d: usize,
    rs: usize,
    n: usize,
) -> [&mut [T]; K] {
    let mut rest = &mut dst[d..];
    core::array::from_fn(|k| {
        let (head, tail) = core::mem::take(&mut rest).split_at_mut(if k + 1 < K { rs } else { n });
        rest = tail;
        &mut head[..n]
    })
}

/// `K` rows of `n` slots, `rs` apart from slot `d` (the rows a zip
/// reads, sliced once; the x86-64 kernels').
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn rows_of<T, const K: usize>(src: &[T], d: usize, rs: usize, n: usize) -> [&[T]; K] {
    core::array::from_fn(|k| &src[d + k * rs..][..n])
}

/// Runs `one(rows, packed)` on every block of a zip.
#[inline(always)]
fn each_zip<T, const K: usize>(
    rows: &[T],
    out: &mut [T],
    bl: Blocks,
    mut one: impl FnMut([&[T]; K], &mut [T]),
) {
    for (ro, po) in bl.each() {
        let r = core::array::from_fn(|k| &rows[ro + k * bl.rs..ro + k * bl.rs + bl.len]);
        one(r, &mut out[po..po + K * bl.len]);
    }
}

/// Runs `one(packed, rows)` on every block of an unzip.
#[inline(always)]
fn each_unzip<T, const K: usize>(
    inp: &[T],
    rows: &mut [T],
    bl: Blocks,
    mut one: impl FnMut(&[T], [&mut [T]; K]),
) {
    for (ro, po) in bl.each() {
        one(
            &inp[po..po + K * bl.len],
            rows_mut::<T, K>(rows, ro, bl.rs, bl.len),
        );
    }
}

/// Two 16-bit rows zipped, block by block.
pub(crate) fn zip2_u16(isa: Isa, rows: &[u16], out: &mut [u16], bl: Blocks, nt: bool) {
    // (plain stores at AVX2: `known`'s block loops)
    #[cfg(target_arch = "x86_64")]
    if !nt && known::zip2_u16_blocks(isa, rows, out, &bl) {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if isa.avx512() {
        // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most the
        // detected level).
        return unsafe { avx512::zip2_u16(rows, out, bl, nt) };
    }
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { avx2::zip2_u16(rows, out, bl, nt) };
    }
    let _ = (nt, isa); // SSE2 and portable paths store plainly
    each_zip::<u16, 2>(rows, out, bl, |[x, y], o| {
        #[cfg(target_arch = "x86_64")]
        if isa.sse2() {
            // SAFETY: `sse2` is part of the x86-64 baseline, so the target
            // feature the callee is compiled for is always present.
            return unsafe { sse2::zip2_u16(x, y, o) };
        }
        zip::<u16, 2>([x, y], o);
    });
}

/// Four 8-bit rows zipped, block by block.
pub(crate) fn zip4_u8(isa: Isa, rows: &[u8], out: &mut [u8], bl: Blocks, nt: bool) {
    // (plain stores at AVX2 and AVX-512: `known`'s block loops)
    #[cfg(target_arch = "x86_64")]
    if !nt && known::zip4_u8_blocks(isa, rows, out, &bl) {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { avx2::zip4_u8(rows, out, bl, nt) };
    }
    let _ = (nt, isa);
    each_zip::<u8, 4>(rows, out, bl, |r, o| {
        #[cfg(target_arch = "x86_64")]
        if isa.sse2() {
            // SAFETY: as in `zip2_u16`.
            return unsafe { sse2::zip4_u8(r, o) };
        }
        zip::<u8, 4>(r, o);
    });
}

/// Blocks of 16-bit pairs split into two rows.
pub(crate) fn unzip2_u16(isa: Isa, inp: &[u16], rows: &mut [u16], bl: Blocks, nt: bool) {
    // (plain stores at AVX-512 and AVX2: `known`'s block loops; the
    // streaming unzip with its line-aligned windows is AVX2's)
    #[cfg(target_arch = "x86_64")]
    if !nt && known::unzip2_u16_blocks(isa, inp, rows, &bl) {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if isa.avx512() {
        // SAFETY: the CPU has AVX-512 F and BW, and so AVX2 (`isa` is at
        // most the detected level).
        return unsafe { avx512::unzip2_u16(inp, rows, bl, nt) };
    }
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // (streaming: plain stores took `known`'s blocks above)
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { avx2::unzip2_u16(inp, rows, bl) };
    }
    let _ = (nt, isa);
    each_unzip::<u16, 2>(inp, rows, bl, |i, [x, y]| {
        #[cfg(target_arch = "x86_64")]
        if isa.sse2() {
            // SAFETY: as in `zip2_u16`.
            return unsafe { sse2::unzip2_u16(i, x, y) };
        }
        unzip::<u16, 2>(i, [x, y]);
    });
}

/// Blocks of 8-bit quads split into four rows.
pub(crate) fn unzip4_u8(isa: Isa, inp: &[u8], rows: &mut [u8], bl: Blocks, nt: bool) {
    // (plain stores at AVX2 and AVX-512: `known`'s block loops)
    #[cfg(target_arch = "x86_64")]
    if !nt && known::unzip4_u8_blocks(isa, inp, rows, &bl) {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if isa.avx512() {
        // SAFETY: the CPU has AVX-512 F and BW, and so AVX2 (`isa` is at
        // most the detected level).
        return unsafe { avx512::unzip4_u8(inp, rows, bl, nt) };
    }
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        // (streaming: plain stores took `known`'s blocks above)
        // SAFETY: the CPU has AVX2 (`isa` is at most the detected level).
        return unsafe { avx2::unzip4_u8(inp, rows, bl) };
    }
    let _ = (nt, isa);
    each_unzip::<u8, 4>(inp, rows, bl, |i, r| {
        #[cfg(target_arch = "x86_64")]
        if isa.sse2() {
            // SAFETY: as in `zip2_u16`.
            return unsafe { sse2::unzip4_u8(i, r) };
        }
        unzip::<u8, 4>(i, r);
    });
}

pub(crate) use subbyte::{unzip8_nibbles, unzip_bits, zip8_nibbles, zip_bits};

/// Whether the zip kernels for `k` rows of `bytes`-wide elements store
/// non-temporally themselves (AVX2 paths), so callers need no staging.
pub(crate) fn streams_directly(isa: Isa, k: usize, bytes: usize) -> bool {
    matches!((k, bytes), (2, 2) | (4, 1)) && isa.avx2()
}

/// A prefetch hint for the line at `p` into every level (`prefetcht0`;
/// any address: a hint never faults, and `p` is never dereferenced;
/// callers form it with `wrapping_add`). A no-op off x86-64 and under
/// Miri.
///
/// Not the non-temporal hint (`prefetchnta`), which the zips used until
/// it was measured on an Intel Xeon with a non-inclusive L3 (2 vCPU, KVM;
/// L1d 48 KiB, L2 2 MiB, CPUID's L3 480 MiB; AVX-512): there a line it
/// fetches from memory goes to L1 alone, and one evicted before its use
/// is read from memory again. bf16[4096,4096] rows → `(8,128)(2,1)`,
/// streaming, plain `Vec`, GB/s of the plan (memcpy 6.7–7.0): 4.2–4.6
/// with `prefetchnta`, 10.2–11.1 with `prefetcht0`, 8.7–9.4 with no
/// software prefetch; s8 → `(8,128)(4,1)` 4.1–4.9, 10.8–11.8 and
/// 8.9–9.9. On AMD EPYC Zen 4 the two hints had measured the same
/// (`avx2::unzip::Seg::ahead`); the gather transposes' next source tile
/// had taken `prefetcht0` there already, as faster than the
/// non-temporal hint.
#[inline(always)]
#[cfg_attr(
    not(any(feature = "alloc", all(target_arch = "x86_64", feature = "std"))),
    allow(dead_code)
)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: `_mm_prefetch` only hints the cache: the address need not be
    // valid, and SSE is part of the x86-64 baseline.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast())
    };
    let _ = p;
}

/// A hint that the line at `p` is about to be written (`prefetchw`: the
/// line fetched for ownership; any address, as [`prefetch`]). A no-op
/// under Miri, and on a CPU without the instruction (PRFCHW), which runs
/// it as a `nop`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn prefetch_w<T>(p: *const T) {
    #[cfg(not(miri))]
    // SAFETY: as in `prefetch`: `_mm_prefetch` only hints the cache.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_ET0};
        _mm_prefetch::<_MM_HINT_ET0>(p.cast())
    };
    let _ = p;
}

/// [`prefetch_w`] of the first and the last line of the `n` slots from
/// `p` (`n > 0`): a run's ends, which take plain stores when the lines
/// between them stream.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn prefetch_w_ends<T>(p: *const T, n: usize) {
    prefetch_w(p);
    prefetch_w(p.wrapping_add(n - 1));
}

/// As [`prefetch`], into L2 (`prefetcht1`): for lines read far ahead of
/// their use (a whole gather stage, more than L1d holds), which a
/// non-temporal hint would bring to L1 only to be evicted before use.
#[inline(always)]
#[cfg(feature = "alloc")]
pub(crate) fn prefetch_l2<T>(p: *const T) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: as in `prefetch`.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};
        _mm_prefetch::<_MM_HINT_T1>(p.cast())
    };
    let _ = p;
}

/// The same operations 32 bytes at a time; each hands its remainder to
/// the SSE2 version.
#[cfg(target_arch = "x86_64")]
mod avx2;

/// Which sub-byte zip runs: the SIMD kernels from an aligned column, the
/// portable ones for the rest.
mod subbyte;

/// The nibble zip, SSE2, AVX2 and AVX-512.
#[cfg(target_arch = "x86_64")]
mod nibbles;

/// The 2- and 1-bit zips, AVX2 and AVX-512.
#[cfg(target_arch = "x86_64")]
mod bitzip;

/// The gather blocks of transposes between packed tilings (unit transposes).
#[cfg(feature = "alloc")]
pub(crate) mod squares;
/// The 8 × 8 tile transposes of gather blocks (32-bit slots).
#[cfg(feature = "alloc")]
pub(crate) mod transpose;
/// The 16 × 16 tile transposes of gather blocks at the AVX-512 level.
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
mod transpose512;
/// The loops around the 8 × 8 transposes (every level's).
#[cfg(feature = "alloc")]
mod transpose_loops;

/// The 16-bit zip 64 bytes at a time (AVX-512 F + BW; the nibble zips'
/// AVX-512 versions are in `nibbles`).
#[cfg(target_arch = "x86_64")]
mod avx512;

/// A block's plain runs, 64 bytes a move (AVX-512).
#[cfg(target_arch = "x86_64")]
mod runs;
#[cfg(target_arch = "x86_64")]
pub(crate) use runs::Runs;

/// Whether [`copy_runs`] copies at this level (AVX-512).
#[inline]
pub(crate) fn copies_runs_at_once(isa: Isa) -> bool {
    cfg!(target_arch = "x86_64") && isa.avx512()
}

/// Copies the runs `r` from `src` into `dst` at the AVX-512 level, `true`;
/// below it nothing, `false` (the caller copies a run at a time).
///
/// # Panics
/// If a run reaches past `src` or `dst`.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn copy_runs(isa: Isa, src: &[u8], dst: &mut [u8], r: Runs) -> bool {
    if copies_runs_at_once(isa) {
        // SAFETY: the CPU has AVX-512 F and BW (`isa` is at most the
        // detected level).
        unsafe { runs::copy_runs(src, dst, r) };
        return true;
    }
    false
}

/// The zips and unzips on blocks known at compile time (typed copies).
pub(crate) mod known;
/// AVX2 unzips of one contiguous block (for `known`).
#[cfg(target_arch = "x86_64")]
mod unzip_blocks;

#[cfg(target_arch = "x86_64")]
mod sse2;

/// `out[Σ iᵢ·dstᵢ] = src[s + Σ iᵢ·srcᵢ]` over every index of `loops`:
/// the definition of a gather block, slot by slot (for the tests of the
/// tile and unit transposes).
#[cfg(all(test, feature = "alloc"))]
pub(crate) fn gather_by_definition<T: Copy>(
    src: &[T],
    s: usize,
    loops: &[crate::storage::nest::Loop],
    out: &mut [T],
) {
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

/// For the tests of the kernels that write a gather block straight into
/// the destination: `run(isa, out, d)` writes the block whose definition
/// is `stage` into `out`, a buffer that starts on a line, `d` slots into
/// it (stage slot `t` at `d + t / foot · chunk + t % foot`), and returns
/// which kernel ran, if one did; for every `d` in `0..offsets` at every
/// level, checks that `expect(level, d)` ran, that where one ran every
/// chunk holds the stage (slots no loop reaches unwritten) and where none
/// did nothing was written, and that the slots around `out` are
/// untouched. `fill` marks unwritten slots; `what` names the case in the
/// messages. Returns how many runs a kernel took.
#[cfg(all(test, feature = "alloc"))]
#[allow(clippy::too_many_arguments)] // reason: the case, its chunk map and the two closures, flat
pub(crate) fn check_chunks_at_every_offset<T, R>(
    what: &dyn core::fmt::Debug,
    stage: &[T],
    (foot, chunk): (usize, usize),
    offsets: usize,
    fill: T,
    mut run: impl FnMut(Isa, &mut [T], usize) -> Option<R>,
    expect: impl Fn(Simd, usize) -> Option<R>,
) -> usize
where
    T: bytemuck::Pod + PartialEq + core::fmt::Debug,
    R: PartialEq + core::fmt::Debug,
{
    let line = 64 / size_of::<T>();
    let mut ran_at = 0;
    for d in 0..offsets {
        let len = d + stage.len().div_ceil(foot) * chunk + line;
        let mut want = alloc::vec![fill; len];
        for (t, &v) in stage.iter().enumerate() {
            want[d + t / foot * chunk + t % foot] = v;
        }
        for level in Simd::ALL {
            // the slice on a line (the allocator's alignment drifts with
            // the length, so a fresh buffer per `d` would not give every
            // offset), `d` slots into it
            let mut buf = alloc::vec![fill; len + line];
            let a = buf.as_ptr().addr().wrapping_neg() % 64 / size_of::<T>();
            let out = &mut buf[a..a + len];
            assert!(out.as_ptr().addr().is_multiple_of(64));
            let ran = run(Isa::new(Some(level)), out, d);
            assert_eq!(ran, expect(level, d), "{what:?} d={d} {level:?}");
            if ran.is_some() {
                ran_at += 1;
                assert!(*out == want[..], "{what:?} d={d} {level:?}");
            } else {
                assert!(
                    out.iter().all(|x| *x == fill),
                    "{what:?} d={d} {level:?}: written"
                );
            }
            let (head, tail) = buf.split_at(a + len);
            assert!(
                head[..a].iter().chain(tail).all(|x| *x == fill),
                "{what:?} d={d}: outside"
            );
        }
    }
    ran_at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ahead_walks_the_blocks_in_order_and_into_the_next_calls() {
        let bl = Blocks {
            count: 3,
            rstep: 10,
            count2: 4,
            rstep2: 1000,
            next: 100_000,
            ..Blocks::one(8, 16)
        };
        // the rows-side offsets of this call's blocks and the next three's
        let order: alloc::vec::Vec<usize> = (0..4)
            .flat_map(|call| bl.each().map(move |(r, _)| call * 100_000 + r))
            .collect();
        for t in 0..36 {
            let got: alloc::vec::Vec<_> = bl.ahead(t).collect();
            let want: alloc::vec::Vec<_> = (0..12).map(|q| Some(order[q + t])).collect();
            assert_eq!(got, want, "t {t}");
        }
        let unknown = Blocks { next: 0, ..bl };
        let got: alloc::vec::Vec<_> = unknown.ahead(5).collect();
        let want: alloc::vec::Vec<_> = (0..12)
            .map(|q| (q + 5 < 12).then(|| order[q + 5]))
            .collect();
        assert_eq!(got, want);
        let empty = Blocks { count: 0, ..bl };
        assert_eq!(empty.ahead(1).count(), 0);
    }

    #[test]
    fn every_level_is_named_back() {
        for level in Simd::ALL {
            assert_eq!(Simd::from_name(level.name()), Some(level));
        }
        assert_eq!(Simd::from_name(""), None);
    }

    #[test]
    fn isa_never_exceeds_the_detected_level() {
        for level in Simd::ALL {
            assert_eq!(Isa::new(Some(level)).0, level.min(Simd::detected()));
        }
        assert_eq!(Isa::new(None).0, Simd::detected());
    }

    #[test]
    fn simd_zips_match_the_portable_loops() {
        for level in Simd::ALL {
            zips_at(Isa::new(Some(level)));
        }
    }

    /// The unzips (16-bit ×2, 8-bit ×4) over bands of blocks that
    /// continue the same rows, streaming and not: rows starting on a line
    /// and 8 to 56 bytes into one (streaming, the joined windows with a
    /// head, `avx2::Seg`; plain, `known`'s block loops with their
    /// prefetch), several 64-byte steps per window and a tail, at every
    /// level, against the portable unzip block by block; with a line
    /// between rows, and with rows that continue each other (the lines
    /// where they meet streamed whole, `Seg::joins`).
    #[test]
    fn unzips_of_joined_blocks_match_block_by_block() {
        fn band<T: bytemuck::Pod + PartialEq + core::fmt::Debug, const K: usize>(
            unzip_at: impl Fn(Isa, &[T], &mut [T], Blocks, bool),
        ) {
            let b = core::mem::size_of::<T>();
            for gap in [64 / b, 0] {
                band_with::<T, K>(&unzip_at, gap);
            }
        }
        fn band_with<T: bytemuck::Pod + PartialEq + core::fmt::Debug, const K: usize>(
            unzip_at: &impl Fn(Isa, &[T], &mut [T], Blocks, bool),
            gap: usize,
        ) {
            let (len, count2, count) = (128usize, 5usize, 3usize);
            let b = core::mem::size_of::<T>();
            let rs = count2 * len + gap;
            let bl = Blocks {
                len,
                rs,
                count,
                rstep: K * rs,
                pstep: K * len,
                count2,
                rstep2: len,
                pstep2: count * K * len,
                next: 0,
            };
            // (a `Vec<T>`: a `Vec<u8>` need not be aligned for `T`)
            let mut packed = alloc::vec![T::zeroed(); bl.packed_extent(K)];
            let bytes = bytemuck::cast_slice_mut::<T, u8>(&mut packed);
            for (i, x) in bytes.iter_mut().enumerate() {
                *x = (i * 131 + i / 7) as u8;
            }
            let packed = &packed[..];
            let extent = bl.rows_extent(K);
            let mut want = alloc::vec![T::zeroed(); extent];
            for (ro, po) in bl.each() {
                let r = rows_mut::<T, K>(&mut want, ro, rs, len);
                unzip::<T, K>(&packed[po..po + K * len], r);
            }
            let mut buf = alloc::vec![T::zeroed(); extent + 128 / b];
            for (level, nt) in Simd::ALL.into_iter().flat_map(|l| [(l, false), (l, true)]) {
                for shift in (0..64 / b).step_by(8 / b) {
                    let at = buf.as_ptr().align_offset(64) + shift;
                    let rows = &mut buf[at..at + extent];
                    rows.fill(T::zeroed());
                    unzip_at(Isa::new(Some(level)), packed, rows, bl, nt);
                    stream_fence();
                    assert!(
                        rows == &want[..],
                        "{level:?} nt {nt} {b}-byte shift {shift} gap {gap}"
                    );
                }
            }
        }
        band::<u16, 2>(unzip2_u16);
        band::<u8, 4>(unzip4_u8);
    }

    /// Orders the test's streaming stores before its reads.
    fn stream_fence() {
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        // SAFETY: `sfence` has no operands; SSE is part of the x86-64
        // baseline.
        unsafe {
            core::arch::x86_64::_mm_sfence()
        };
    }

    fn zips_at(isa: Isa) {
        for n in [
            0usize, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 128, 200,
        ] {
            // two rows of n, row stride n + 3, one block
            let rs = n + 3;
            let rows: alloc::vec::Vec<u16> = (0..2 * rs)
                .map(|x| (x as u16).wrapping_mul(977) ^ 0x8001)
                .collect();
            let (a, b) = (&rows[..n], &rows[rs..rs + n]);
            let (mut o1, mut o2) = (alloc::vec![0u16; 2 * n], alloc::vec![0u16; 2 * n]);
            zip2_u16(isa, &rows, &mut o1, Blocks::one(n, rs), false);
            zip::<u16, 2>([a, b], &mut o2);
            assert_eq!(o1, o2);
            let mut back = alloc::vec![0u16; 2 * rs];
            unzip2_u16(isa, &o1, &mut back, Blocks::one(n, rs), false);
            assert_eq!((&back[..n], &back[rs..rs + n]), (a, b));

            let rows: alloc::vec::Vec<u8> = (0..4 * rs).map(|i| (i * 37) as u8 ^ 0x80).collect();
            let r: [&[u8]; 4] = core::array::from_fn(|k| &rows[k * rs..k * rs + n]);
            let (mut o1, mut o2) = (alloc::vec![0u8; 4 * n], alloc::vec![0u8; 4 * n]);
            zip4_u8(isa, &rows, &mut o1, Blocks::one(n, rs), false);
            zip::<u8, 4>(r, &mut o2);
            assert_eq!(o1, o2);
            let mut back = alloc::vec![0u8; 4 * rs];
            unzip4_u8(isa, &o1, &mut back, Blocks::one(n, rs), false);
            for k in 0..4 {
                assert_eq!(&back[k * rs..k * rs + n], r[k]);
            }
        }
    }
}

/// The nibble zips at every level against the portable ones
/// (`storage::nibbles`) and the definition.
#[cfg(test)]
mod nibble_tests {
    use super::{Isa, Simd};
    use crate::storage::nibbles::{unzip8, zip8};
    use crate::storage::packed;

    /// The definition, slot by slot.
    fn naive(rows: &[u8], rs: usize, cols: usize, out: &mut [u8]) {
        for c in 0..2 * cols {
            for r in 0..8 {
                let v = packed::get(rows, r * 2 * rs + c, 4);
                packed::set(out, 8 * c + r, 4, v);
            }
        }
    }

    /// Column counts: remainders of every width, and enough for the
    /// AVX-512 kernel (two lines) with heads and tails.
    const COLS: [usize; 18] = [
        0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 48, 64, 100, 128, 129, 150, 200, 321,
    ];

    /// Row strides: unaligned, and a multiple of 64 (the wide kernels then
    /// start at an aligned column).
    fn strides(cols: usize, extra: usize) -> [usize; 2] {
        [cols + extra, cols.next_multiple_of(64)]
    }

    #[test]
    fn unzip8_inverts_zip8_at_every_level() {
        for cols in COLS {
            for (rs, lead) in strides(cols, 5)
                .into_iter()
                .flat_map(|r| [(r, 0), (r, 16), (r, 48)])
            {
                let packed: alloc::vec::Vec<u8> = (0..8 * cols)
                    .map(|i| (i as u32).wrapping_mul(2654435761).wrapping_shr(9) as u8)
                    .collect();
                // the definition: slot 8c + r of the packed side is slot c
                // of row r (the rows `lead` bytes into the buffer)
                let mut want = alloc::vec![0xEEu8; lead + 8 * rs];
                for c in 0..2 * cols {
                    for r in 0..8 {
                        let v = packed::get(&packed, 8 * c + r, 4);
                        packed::set(&mut want[lead..], r * 2 * rs + c, 4, v);
                    }
                }
                let mut got = alloc::vec![0xEEu8; lead + 8 * rs];
                unzip8(&packed, &mut got[lead..], rs, cols);
                assert_eq!(got, want, "cols {cols}");
                let mut again = alloc::vec![0u8; 8 * cols];
                zip8(&got[lead..], rs, cols, &mut again);
                assert_eq!(again, packed, "cols {cols}");
                for (level, nt) in Simd::ALL.into_iter().flat_map(|l| [(l, false), (l, true)]) {
                    got.fill(0xEE);
                    let isa = Isa::new(Some(level));
                    super::unzip8_nibbles(isa, &packed, &mut got[lead..], rs, cols, nt);
                    assert_eq!(
                        got, want,
                        "{level:?} cols {cols} rs {rs} lead {lead} nt {nt}"
                    );
                }
            }
        }
    }

    #[test]
    fn zip8_matches_the_definition() {
        for cols in COLS {
            for (rs, lead) in strides(cols, 3)
                .into_iter()
                .flat_map(|r| [(r, 0), (r, 16), (r, 48)])
            {
                let rows: alloc::vec::Vec<u8> = (0..lead + 8 * rs + 1)
                    .map(|i| (i as u32).wrapping_mul(2654435761).wrapping_shr(11) as u8)
                    .collect();
                let rows = &rows[lead..];
                let (mut a, mut b) = (alloc::vec![0u8; 8 * cols], alloc::vec![0u8; 8 * cols]);
                zip8(rows, rs, cols, &mut a);
                naive(rows, rs, cols, &mut b);
                assert_eq!(a, b, "cols {cols} rs {rs}");
                // and the SIMD dispatch at every level
                for level in Simd::ALL {
                    for nt in [false, true] {
                        a.fill(0);
                        super::zip8_nibbles(
                            Isa::new(Some(level)),
                            rows,
                            rs,
                            cols,
                            &mut a,
                            8 * rs,
                            nt,
                        );
                        assert_eq!(a, b, "{level:?} cols {cols} rs {rs} lead {lead} nt {nt}");
                    }
                }
            }
        }
    }
}

//! [`RelayoutPlan`]: computed once for a source and a destination layout,
//! executed many times.

use super::caches::Caches;
use super::choose::{choose, Budget};
use super::element::Unit;
use super::error::StorageError;
use super::kernels::Mover;
use super::nest::{Kept, Kernel};
use super::plan::{coalesce, dense, digits, merge, refine, ArrayLayout, Side};
use super::simd::Simd;
use crate::value::MAX_RANK;

mod exec;
pub(crate) mod flat;
#[cfg(feature = "parallel")]
mod parallel;
mod wide;

pub(crate) use exec::{Exec, Fill};

/// What a plan does, for reports and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanStats {
    /// The inner kernel.
    pub kernel: Kernel,
    /// Loops around it.
    pub outer_loops: usize,
    /// Its block: (outer count, inner count).
    pub block: (u64, u64),
    /// Whether destination padding is written while copying (`true`) or in
    /// a pass before it (`false`; also when there is no padding).
    pub inline_padding: bool,
    /// Whether the destination is written with non-temporal stores.
    pub streaming: bool,
}

/// The sides of a plan, for the element-wise path: one element at a
/// time by the element-wise offsets.
#[derive(Clone, Debug)]
pub(crate) struct Sides {
    src: Side,
    dst: Side,
    dims: [u64; MAX_RANK],
    rank: usize,
}

impl Sides {
    /// Moves every element by the element-wise offsets.
    pub(crate) fn elementwise<M: Mover>(&self, m: &mut M) {
        let r = self.rank;
        if self.dims[..r].contains(&0) {
            return;
        }
        let mut c = [0u64; MAX_RANK];
        loop {
            m.one(
                self.src.offset(&c[..r]) as usize,
                self.dst.offset(&c[..r]) as usize,
            );
            let mut d = r;
            loop {
                if d == 0 {
                    return;
                }
                d -= 1;
                c[d] += 1;
                if c[d] < self.dims[d] {
                    break;
                }
                c[d] = 0;
            }
        }
    }
}

/// A relayout from one array layout to another with the same dims and
/// storage width, planned once.
///
/// Destination padding slots are written with the padding value (zero bits
/// by [`RelayoutPlan::execute`]); destination slots outside the image of a
/// strided layout are left as they are.
///
/// # Examples
/// ```
/// use tilelayout::storage::{RelayoutPlan, Strided};
/// use tilelayout::value::parse_shape;
/// let tiled = parse_shape("f32[3,5]{1,0:T(2,2)}")?;
/// let rows = Strided::row_major(&[3, 5], 32)?;
/// let plan = RelayoutPlan::new(rows, tiled)?;
/// let src: Vec<f32> = (0..15).map(|i| i as f32).collect();
/// let mut dst = vec![0.0f32; 24];
/// plan.execute(&src, &mut dst)?;
/// assert_eq!(dst[17], 13.0); // element (2,3)
/// let back = RelayoutPlan::new(tiled, rows)?;
/// let mut again = vec![0.0f32; 15];
/// back.execute(&dst, &mut again)?;
/// assert_eq!(again, src);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// A plan is what running it needs (the loop nest, how padding is
/// filled, the storage sizes, in a few hundred bytes) and, for the
/// element-wise path, both sides.
#[derive(Clone, Debug)]
pub struct RelayoutPlan {
    exec: Exec,
    sides: Sides,
}

impl RelayoutPlan {
    /// Plans a relayout from `src` to `dst`.
    ///
    /// # Errors
    /// [`StorageError::Shape`] for an invalid shape or an unbounded dynamic
    /// dim (`?`; a bounded dim `<=N` is laid out at its bound, as XLA
    /// allocates it);
    /// [`StorageError::ElementSize`] for a storage width other than 1, 2,
    /// 4, 8, 16, 32, 64 or 128 bits; [`StorageError::DimsMismatch`];
    /// [`StorageError::ElementTypeMismatch`] between two tiled or CuTe layouts of
    /// different element types (use [`RelayoutPlan::reinterpret`]);
    /// [`StorageError::WidthMismatch`]; [`StorageError::TooLarge`].
    pub fn new(
        src: impl Into<ArrayLayout>,
        dst: impl Into<ArrayLayout>,
    ) -> Result<Self, StorageError> {
        Self::plan(
            &src.into(),
            &dst.into(),
            false,
            &Caches::host(),
            Simd::detected(),
        )
    }

    /// Plans a relayout that moves the stored bits unchanged between
    /// element types of the same storage width: each destination slot gets
    /// the bits of the source slot holding the same coordinates (an `f32`
    /// array becomes the `s32` array of its bit patterns).
    ///
    /// # Errors
    /// As [`RelayoutPlan::new`], without [`StorageError::ElementTypeMismatch`].
    ///
    /// # Examples
    /// ```
    /// use tilelayout::storage::{RelayoutPlan, StorageError};
    /// use tilelayout::value::parse_shape;
    /// let f = parse_shape("f32[3,5]{1,0:T(2,2)}")?;
    /// let s = parse_shape("s32[3,5]{0,1}")?;
    /// assert!(matches!(RelayoutPlan::new(f, s), Err(StorageError::ElementTypeMismatch { .. })));
    /// let plan = RelayoutPlan::reinterpret(f, s)?;
    /// let mut src = [0u32; 24];
    /// src[17] = 1.5f32.to_bits(); // element (2,3)
    /// let mut dst = [0u32; 15];
    /// plan.execute(&src, &mut dst)?;
    /// assert_eq!(f32::from_bits(dst[3 * 3 + 2]), 1.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reinterpret(
        src: impl Into<ArrayLayout>,
        dst: impl Into<ArrayLayout>,
    ) -> Result<Self, StorageError> {
        Self::plan(
            &src.into(),
            &dst.into(),
            true,
            &Caches::host(),
            Simd::detected(),
        )
    }

    /// [`RelayoutPlan::new`] as a `const fn`: a plan can be a compile-time
    /// constant (the typed views' copies use one per layout type). Its
    /// cache blocks are sized for [`Caches::FALLBACK`] and the AVX-512
    /// kernels (the host is not known at compile time);
    /// [`RelayoutPlan::new`] sizes them for [`Caches::host`] and
    /// [`Simd::detected`]. Either plan writes the same bytes.
    ///
    /// # Errors
    /// As [`RelayoutPlan::new`].
    ///
    /// # Examples
    /// ```
    /// use tilelayout::storage::{ArrayLayout, RelayoutPlan, StorageError, Strided};
    /// use tilelayout::{layout, Layout};
    /// type L = layout!(f32[16,256]{1,0:T(8,128)});
    /// const ROWS: ArrayLayout = match Strided::row_major(&[16, 256], 32) {
    ///     Ok(s) => ArrayLayout::Strided(s),
    ///     Err(_) => panic!("row-major f32[16,256]"),
    /// };
    /// const PLAN: Result<RelayoutPlan, StorageError> =
    ///     RelayoutPlan::between(&ROWS, &ArrayLayout::Tiled(L::SHAPE));
    /// let plan = PLAN?;
    /// let src: Vec<f32> = (0..16 * 256).map(|i| i as f32).collect();
    /// let mut dst = vec![0.0f32; L::SLOTS];
    /// plan.execute(&src, &mut dst)?;
    /// assert_eq!(dst[L::offset([9, 130])], (9 * 256 + 130) as f32);
    /// # Ok::<(), StorageError>(())
    /// ```
    pub const fn between(src: &ArrayLayout, dst: &ArrayLayout) -> Result<Self, StorageError> {
        Self::plan(src, dst, false, &Caches::FALLBACK, Simd::Avx512)
    }

    /// [`RelayoutPlan::new`] for a machine with `caches` instead of this
    /// host's: the blocks sized for them, and where the two sides are
    /// large enough to stream by their rule ([`Caches::streams`]) the
    /// walk that streaming stores want. Whether the stores stream is
    /// still decided when the plan runs (by this host's caches, or
    /// [`RelayoutPlan::with_streaming`]).
    ///
    /// # Errors
    /// As [`RelayoutPlan::new`].
    ///
    /// # Examples
    /// ```
    /// use tilelayout::storage::{Caches, RelayoutPlan, Strided};
    /// use tilelayout::value::parse_shape;
    /// let tiles = parse_shape("f32[4096,4096]{1,0:T(8,128)}")?;
    /// let rows = Strided::row_major(&[4096, 4096], 32)?;
    /// // 64 MiB a side streams on a 32 MiB last level; where the caches
    /// // favour the writes (Intel's parts), 8 tiles a block, each of the
    /// // tiles' 8 rows written 4 KiB at a time, the rows an outer loop of
    /// // their own
    /// let intel = Caches { favour_writes: true, ..Caches::FALLBACK };
    /// let small = RelayoutPlan::for_caches(tiles, rows, &intel)?;
    /// assert_eq!((small.stats().block, small.stats().outer_loops), ((8, 128), 3));
    /// // in a 1 GiB last level it stays in cache: a tile a block, in the
    /// // source's order, as everywhere on the others (AMD's parts)
    /// let big = Caches { last: 1 << 30, ..intel };
    /// let plan = RelayoutPlan::for_caches(tiles, rows, &big)?;
    /// assert_eq!((plan.stats().block, plan.stats().outer_loops), ((8, 128), 2));
    /// let amd = RelayoutPlan::for_caches(tiles, rows, &Caches::FALLBACK)?;
    /// assert_eq!((amd.stats().block, amd.stats().outer_loops), ((8, 128), 2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_caches(
        src: impl Into<ArrayLayout>,
        dst: impl Into<ArrayLayout>,
        caches: &Caches,
    ) -> Result<Self, StorageError> {
        Self::plan(&src.into(), &dst.into(), false, caches, Simd::detected())
    }

    /// [`RelayoutPlan::between`], or with `reinterpret` the plan of
    /// [`RelayoutPlan::reinterpret`], its blocks sized for `caches` and
    /// the kernels of `level`.
    const fn plan(
        src: &ArrayLayout,
        dst: &ArrayLayout,
        reinterpret: bool,
        caches: &Caches,
        level: Simd,
    ) -> Result<Self, StorageError> {
        let (sa, da) = (src, dst);
        let src = match Side::new(sa) {
            Ok(s) => s,
            Err(e) => return Err(e),
        };
        let dst = match Side::new(da) {
            Ok(s) => s,
            Err(e) => return Err(e),
        };
        if let (Some(st), Some(dt), false) = (sa.element_type(), da.element_type(), reinterpret) {
            if st as u8 != dt as u8 {
                return Err(StorageError::ElementTypeMismatch { src: st, dst: dt });
            }
        }
        let (dims, rank) = src.dims();
        let (ddims, drank) = dst.dims();
        if drank != rank {
            return Err(StorageError::DimsMismatch);
        }
        let mut i = 0;
        while i < MAX_RANK {
            if ddims[i] != dims[i] {
                return Err(StorageError::DimsMismatch);
            }
            i += 1;
        }
        if src.bits() != dst.bits() {
            return Err(StorageError::WidthMismatch {
                src: src.bits() as u64,
                dst: dst.bits() as u64,
            });
        }
        let bits = src.bits();
        const fn shape_of(a: &ArrayLayout) -> Option<&crate::value::Shape> {
            match a {
                ArrayLayout::Tiled(s) => Some(s),
                ArrayLayout::Strided(_) | ArrayLayout::Cute(_) => None,
            }
        }
        let (ss, ds) = (shape_of(sa), shape_of(da));
        let mut loops = match (digits(&src, ss, rank as u32), digits(&dst, ds, rank as u32)) {
            (Some(s), Some(d)) => refine(rank, dims.split_at(rank).0, &s, &d),
            _ => None,
        };
        // not affine in the dims: maybe in the dims a `*` combines
        if loops.is_none() {
            if let Some(m) = merge(sa, da, &dims, rank) {
                if let (Ok(ms), Ok(md)) = (Side::new(&m.src), Side::new(&m.dst)) {
                    let (mss, mds) = (shape_of(&m.src), shape_of(&m.dst));
                    let r = m.rank as u32;
                    loops = match (digits(&ms, mss, r), digits(&md, mds, r)) {
                        (Some(s), Some(d)) => refine(m.rank, m.dims.split_at(m.rank).0, &s, &d),
                        _ => None,
                    };
                }
            }
        }
        let fill = if dst.has_padding() {
            Fill::Prefill
        } else {
            Fill::None
        };
        let dst_tail = match &dst {
            Side::Tiled { tiling, .. } => tiling.expanded_slots(),
            Side::Strided(_) | Side::Cute(_) => dst.slots(),
        };
        let mut plan = RelayoutPlan {
            exec: Exec {
                nest: None,
                src_slots: src.slots(),
                dst_slots: dst.slots(),
                dst_tail,
                bits,
                fill,
                empty: src.slots() == 0 && rank != 0,
                streaming: None,
                simd: None,
            },
            sides: Sides {
                src,
                dst,
                dims,
                rank,
            },
        };
        let Some((mut loops, sizes)) = loops else {
            return Ok(plan);
        };
        coalesce(&mut loops);
        let mut budget = Budget::new(caches, bits, level);
        budget.streams = caches.streams(
            bytes_or_max(plan.exec.src_slots, bits),
            bytes_or_max(plan.exec.dst_slots, bits),
        );
        let nest = choose(loops, sizes, &budget);
        // a nest past what a plan keeps takes the element-wise path
        let Some(kept) = Kept::keep(&nest) else {
            return Ok(plan);
        };
        if let Side::Tiled { tiling, .. } = &plan.sides.dst {
            if matches!(plan.exec.fill, Fill::Prefill)
                && dense(loops.as_slice(), tiling.expanded_slots())
            {
                plan.exec.fill = Fill::Inline;
            }
        }
        plan.exec.nest = Some(kept);
        Ok(plan)
    }

    /// What running the plan needs, if it runs on loops (`None` for the
    /// element-wise path, which needs the sides).
    pub(crate) const fn exec(&self) -> Option<Exec> {
        match self.exec.nest {
            Some(_) => Some(self.exec),
            None => None,
        }
    }

    /// Forces non-temporal stores on (`Some(true)`) or off, or leaves the
    /// choice to the sizes of both sides (`None`, the default: on where
    /// [`Caches::streams`](super::Caches::streams) of [`Caches::host`](super::Caches::host) says so, on
    /// x86-64).
    pub fn with_streaming(mut self, on: Option<bool>) -> Self {
        self.exec.streaming = on;
        self
    }

    /// Runs the kernels at most at SIMD level `level` (`None`, the
    /// default: the highest the CPU has, capped by the environment variable
    /// `TILELAYOUT_SIMD`). A level above the CPU's is lowered to it, so any
    /// choice is safe; every level writes the same bytes.
    ///
    /// ```
    /// use tilelayout::storage::{RelayoutPlan, Simd, Strided};
    /// use tilelayout::value::parse_shape;
    ///
    /// let rows = Strided::row_major(&[8, 128], 16)?;
    /// let tiles = parse_shape("bf16[8,128]{1,0:T(8,128)(2,1)}")?;
    /// let plan = RelayoutPlan::new(rows, tiles)?;
    /// let src: Vec<u16> = (0..1024).collect();
    /// let (mut a, mut b) = (vec![0u16; 1024], vec![0u16; 1024]);
    /// plan.execute(&src, &mut a)?;
    /// plan.clone().with_simd(Some(Simd::Portable)).execute(&src, &mut b)?;
    /// assert_eq!(a, b);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_simd(mut self, level: Option<Simd>) -> Self {
        self.exec.simd = level;
        self
    }

    /// What the plan does.
    pub fn stats(&self) -> PlanStats {
        self.exec.stats()
    }

    /// Storage units the source needs (slots, or bytes when packed).
    pub fn src_units(&self, unit_bytes: usize) -> u64 {
        self.exec.src_units(unit_bytes)
    }

    /// Storage units the destination needs.
    pub fn dst_units(&self, unit_bytes: usize) -> u64 {
        self.exec.dst_units(unit_bytes)
    }

    /// Copies `src` into `dst`; destination padding becomes zero bits.
    ///
    /// `U` is any unit of the storage width (`f32`, `u32`, `i32` for 32
    /// bits; `u8` for packed sub-byte storage), or `u8` for any width: the
    /// bytes of each slot (as `pred` in `E(32)` is stored), at any
    /// alignment; padding slots then get the padding byte and zeros.
    ///
    /// # Errors
    /// [`StorageError::ElementSize`] if `U` does not match the storage
    /// width; [`StorageError::Length`] if a slice is not the layout's
    /// storage length.
    pub fn execute<U: Unit>(&self, src: &[U], dst: &mut [U]) -> Result<(), StorageError> {
        self.execute_with_padding(src, dst, U::zeroed())
    }

    /// As [`RelayoutPlan::execute`], writing `pad` into destination padding
    /// (for packed storage, the low bits of its first byte).
    ///
    /// # Errors
    /// As [`RelayoutPlan::execute`].
    pub fn execute_with_padding<U: Unit>(
        &self,
        src: &[U],
        dst: &mut [U],
        pad: U,
    ) -> Result<(), StorageError> {
        self.exec.check(src, dst)?;
        self.exec.run_part(src, dst, pad, None, Some(&self.sides));
        Ok(())
    }
}

// The kernels these tests pin (`simd::squares`, `simd::transpose`) are built with `alloc`.
#[cfg(all(test, feature = "alloc"))]
mod tests {
    /// The packed tile transposes the bench times (bf16 `(8,128)(2,1)`, s8
    /// `(8,128)(4,1)`, smaller): their streaming blocks are the shapes the
    /// AVX-512 level's direct kernel takes (`simd::squares::direct`), and
    /// each plan agrees with its portable run, streaming or not, into a
    /// destination at every 4-byte offset in a line and one off it.
    #[test]
    fn the_packed_tile_transposes_plans_go_direct() {
        use crate::storage::RelayoutPlan;
        use crate::value::parse_shape;
        fn check<T: crate::storage::Unit + PartialEq>(a: &str, b: &str, val: impl Fn(u32) -> T) {
            let t = |s: &str| parse_shape(s).unwrap();
            let plan = RelayoutPlan::new(t(a), t(b)).unwrap();
            let nest = plan.exec().and_then(|e| e.nest).unwrap();
            let (loops, z) = (nest.gather(), core::mem::size_of::<T>());
            let chunk = (nest.b().n as usize, nest.a().dst as usize);
            assert!(
                crate::storage::simd::squares::takes_direct(&loops, z, chunk),
                "{a} {loops:?}"
            );
            let n = 1 << 20;
            let src: alloc::vec::Vec<T> = (0..n as u32).map(&val).collect();
            let mut want = alloc::vec![val(0); n];
            let portable = plan.clone().with_simd(Some(crate::storage::Simd::Portable));
            portable.execute(&src, &mut want).unwrap();
            let mut buf = alloc::vec![val(0); n + 64];
            for nt in [None, Some(true)] {
                for off in [0, 4, 16, 36, 60, 1].map(|o| o / z) {
                    let out = &mut buf[off..off + n];
                    plan.clone().with_streaming(nt).execute(&src, out).unwrap();
                    assert!(out == &want[..], "{a} {nt:?} offset {off}");
                }
            }
        }
        check(
            "bf16[1024,1024]{1,0:T(8,128)(2,1)}",
            "bf16[1024,1024]{0,1:T(8,128)(2,1)}",
            |i| (i as u16).wrapping_mul(40503) ^ (i >> 16) as u16,
        );
        check(
            "s8[1024,1024]{1,0:T(8,128)(4,1)}",
            "s8[1024,1024]{0,1:T(8,128)(4,1)}",
            |i| (i as u8).wrapping_mul(167) ^ (i >> 8) as u8,
        );
    }

    /// Tiles → column-major (f32[2048,256] `{1,0:T(8,128)}`, columns
    /// longer than a chunk as in the bench's f32[4096,4096]): the plan's
    /// blocks have four column steps (chunks of `choose::cut_most`), so
    /// that streaming, the AVX-512 level writes
    /// them straight into the destination (`transpose512::columns`) — at
    /// every source and destination offset in a line, against the
    /// definition through the chunk map, the slots around untouched; the
    /// other levels run none (the stage); and the whole plan agrees with
    /// its portable run at several offsets of both buffers.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn tiles_to_column_major_blocks_go_direct_at_every_offset() {
        use crate::storage::simd::transpose::{check_direct_at_every_offset, Direct};
        use crate::storage::{RelayoutPlan, Simd, Strided};
        use crate::value::parse_shape;
        let tiles = parse_shape("f32[2048,256]{1,0:T(8,128)}").unwrap();
        let cols = Strided::column_major(&[2048, 256], 32).unwrap();
        let plan = RelayoutPlan::new(tiles, cols).unwrap();
        let nest = plan.exec().and_then(|e| e.nest).unwrap();
        let loops = nest.gather();
        let (foot, chunk) = (nest.b().n as usize, nest.a().dst as usize);
        // at AVX-512, 64 columns of 256 rows a block (the chunk bound on
        // the host's caches: 256 on 32 and 48 KiB L1ds with 1–1.25 MiB
        // L2s, 512 with a 2 MiB one); below, 16 columns; a block fills
        // the stage (a 16th of L2: 8192 slots on 512 KiB, 16384 on 1 MiB,
        // 32768 on 2 MiB)
        let level = Simd::detected();
        let budget =
            crate::storage::choose::Budget::new(&crate::storage::Caches::host(), 32, level);
        assert_eq!(nest.a().n as usize * foot, budget.stage as usize);
        let columns = if level >= Simd::Avx512 { 64 } else { 16 };
        assert!(nest.a().n >= columns, "{loops:?}");
        assert_eq!(chunk, 2048);
        let n = 1 << 19;
        let src: alloc::vec::Vec<u32> = (0..n as u32 + 32)
            .map(|i| i.wrapping_mul(2654435761))
            .collect();
        // the source on a line too (offset `s` from it)
        let src = &src[src.as_ptr().addr().wrapping_neg() % 64 / 4..];
        let stage = 1 + loops.iter().map(|l| (l.n - 1) * l.dst).sum::<u64>() as usize;
        assert_eq!(stage, nest.a().n as usize * foot);
        for s in 0..=16 {
            check_direct_at_every_offset(src, s, &loops, (foot, chunk), &mut [], Direct::Columns);
        }
        let mut want = alloc::vec![0u32; n];
        let portable = plan.clone().with_simd(Some(Simd::Portable));
        let mut buf = alloc::vec![0u32; n + 32];
        let a = buf.as_ptr().addr().wrapping_neg() % 64 / 4;
        for (so, d) in [(0, 0), (4, 4), (3, 12), (15, 1)] {
            portable.execute(&src[so..so + n], &mut want).unwrap();
            let out = &mut buf[a + d..a + d + n];
            for nt in [None, Some(true)] {
                plan.clone()
                    .with_streaming(nt)
                    .execute(&src[so..so + n], out)
                    .unwrap();
                assert!(out == &want[..], "{nt:?} at {so}, {d}");
            }
        }
    }

    /// On a 512 KiB L2 (AMD Zen 3: a stage budget of 32 KiB, 8192 f32
    /// slots), `{1,0:T(8,128)}` → `{0,1:T(8,128)}` still gathers 16 whole
    /// source tiles a block, 16 chunks of 4 KiB (twice the budget:
    /// `choose::gather` completes the loop that continues the source run
    /// where the chunks are pages), as on a 1 MiB L2; tiles →
    /// column-major, whose chunks are shorter, keeps to the budget, at
    /// the AVX-512 level and below it.
    #[test]
    fn blocks_read_whole_tiles_on_a_512k_l2_where_chunks_are_pages() {
        use crate::storage::{ArrayLayout, Caches, RelayoutPlan, Simd, Strided};
        use crate::value::parse_shape;
        let t = |s: &str| ArrayLayout::from(parse_shape(s).unwrap());
        let tiles = t("f32[4096,4096]{1,0:T(8,128)}");
        let cols = ArrayLayout::from(Strided::column_major(&[4096, 4096], 32).unwrap());
        let zen3 = Caches {
            l2: 512 << 10,
            ..Caches::FALLBACK
        };
        for (caches, level) in [zen3, Caches::FALLBACK]
            .into_iter()
            .flat_map(|c| [(c, Simd::Avx2), (c, Simd::Avx512)])
        {
            let blocks = |a, b| {
                let plan = RelayoutPlan::plan(&a, &b, false, &caches, level).unwrap();
                let nest = plan.exec().and_then(|e| e.nest).unwrap();
                (nest.a().n, nest.b().n)
            };
            assert_eq!(blocks(tiles, t("f32[4096,4096]{0,1:T(8,128)}")), (16, 1024));
            let budget = crate::storage::choose::Budget::new(&caches, 32, level).stage;
            let (n, foot) = blocks(tiles, cols);
            assert!(foot * 4 < 4096 && n * foot == budget, "{caches:?}");
            // below AVX-512, chunks of half a page (at least a line of
            // each source row a block)
            if level == Simd::Avx2 {
                assert_eq!(foot, 512, "{caches:?}");
            }
        }
    }

    /// The gather loops of real plans (the bench's three 32-bit tile
    /// transposes, smaller): the two from tiles take the AVX-512 level's
    /// 16 × 16 shape, the column-major source (columns 4 KiB apart) is
    /// left to the 8 × 8 loops (streaming, it goes through
    /// `transpose512::panel`); each plan agrees with its portable run,
    /// streaming or not. Planned for [`Caches::FALLBACK`] (1 MiB of L2,
    /// as on the hosts the kernels were written on): the stage, a
    /// sixteenth of L2, shapes the loops, and a 512 KiB L2 (AMD Zen 3)
    /// gives some of them other loops.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_tile_transposes_plans_take_the_16x16_shape() {
        use crate::storage::{ArrayLayout, RelayoutPlan, Simd, Strided};
        use crate::value::parse_shape;
        let t = |s: &str| ArrayLayout::from(parse_shape(s).unwrap());
        let tiles = t("f32[1024,1024]{1,0:T(8,128)}");
        let cols = ArrayLayout::from(Strided::column_major(&[1024, 1024], 32).unwrap());
        let plan = |a, b| {
            RelayoutPlan::plan(
                &a,
                &b,
                false,
                &crate::storage::Caches::FALLBACK,
                Simd::Avx512,
            )
        };
        let plans = [
            (plan(tiles, t("f32[1024,1024]{0,1:T(8,128)}")), true),
            (plan(tiles, cols), true),
            (plan(cols, tiles), false),
        ];
        let src: alloc::vec::Vec<u32> = (0..1 << 20)
            .map(|i: u32| i.wrapping_mul(2654435761))
            .collect();
        for (plan, takes) in plans {
            let plan = plan.unwrap();
            let nest = plan.exec().and_then(|e| e.nest).unwrap();
            let loops = nest.gather();
            assert!(
                crate::storage::simd::transpose::transposes(&loops),
                "{plan:?}"
            );
            assert_eq!(
                crate::storage::simd::transpose::takes_16x16(&loops),
                takes,
                "{loops:?}"
            );
            let mut want = alloc::vec![0u32; 1 << 20];
            let portable = plan.clone().with_simd(Some(crate::storage::Simd::Portable));
            portable.execute(&src, &mut want).unwrap();
            // (streaming: the blocks of more than one column step go
            // straight into the destination)
            for nt in [None, Some(true)] {
                let mut out = alloc::vec![0u32; 1 << 20];
                plan.clone()
                    .with_streaming(nt)
                    .execute(&src, &mut out)
                    .unwrap();
                assert!(out == want, "{loops:?} {nt:?}");
            }
        }
    }
}

/// `slots` of `bits` each in bytes, `u64::MAX` past it.
const fn bytes_or_max(slots: u64, bits: u32) -> u64 {
    match crate::value::bits_to_bytes(slots, bits as u64) {
        Ok(b) => b,
        Err(_) => u64::MAX,
    }
}

//! [`RelayoutPlan`]: computed once for a source and a destination layout,
//! executed many times.

use core::mem::size_of;

use super::caches::Caches;
use super::choose::{choose, Budget, Nest};
use super::element::Unit;
use super::error::StorageError;
use super::kernels::{self, Mover};
use super::plan::{coalesce, dense, digits, refine, ArrayLayout, Loop, Side, DIMS};
use super::simd::{Isa, Simd};
use super::walk::Walk;
use crate::value::{bits_to_bytes, MAX_RANK};

#[cfg(feature = "parallel")]
mod parallel;

/// The inner kernel a plan runs on each block (two innermost loops).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kernel {
    /// Runs contiguous on both sides, copied whole (`copy_from_slice`, or
    /// non-temporal stores for large destinations).
    Runs,
    /// `k` source rows zipped into one contiguous destination block
    /// (`(8,128)(2,1)`-style packing).
    Interleave(u8),
    /// One contiguous source block split into `k` destination rows.
    Deinterleave(u8),
    /// A small 2-D block with arbitrary strides.
    Block,
    /// Transposes of tiles: dense destination chunks (up to 1024 slots
    /// each) gathered into a staging block from whole source rows (8 × 8
    /// register transposes for 4-byte slots), then copied out.
    Gather,
    /// No loop structure was found (combined dims, or tiles that split a
    /// dim unevenly): one element at a time by the element-wise offsets.
    Elementwise,
}

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fill {
    None,
    Inline,
    Prefill,
}

#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // reason: planned in place (no allocator to box it); one per plan
enum Mode {
    Loops(Nest),
    Elementwise,
}

/// One part of a plan run on its own: the values `values` of the outermost
/// loop of `nest` (the plan's loops, the split one first), whose
/// destination slots are a contiguous range (`last`: the part that ends the
/// destination, which also writes the tail padding).
#[derive(Clone, Debug)]
pub(crate) struct Part<'n> {
    pub(crate) nest: &'n Nest,
    pub(crate) values: core::ops::Range<u64>,
    pub(crate) last: bool,
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
#[derive(Clone, Debug)]
pub struct RelayoutPlan {
    src: Side,
    dst: Side,
    dims: [u64; MAX_RANK],
    rank: usize,
    bits: u32,
    fill: Fill,
    mode: Mode,
    streaming: Option<bool>,
    simd: Option<Simd>,
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
    /// [`StorageError::ElementTypeMismatch`] between two tiled layouts of
    /// different element types (use [`RelayoutPlan::reinterpret`]);
    /// [`StorageError::WidthMismatch`]; [`StorageError::TooLarge`].
    pub fn new(
        src: impl Into<ArrayLayout>,
        dst: impl Into<ArrayLayout>,
    ) -> Result<Self, StorageError> {
        Self::plan(&src.into(), &dst.into(), false, &Caches::host())
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
        Self::plan(&src.into(), &dst.into(), true, &Caches::host())
    }

    /// [`RelayoutPlan::new`] as a `const fn`: a plan can be a compile-time
    /// constant (the typed views' copies use one per layout type). Its
    /// cache blocks are sized for [`Caches::FALLBACK`] (the host's caches
    /// are not known at compile time); [`RelayoutPlan::new`] sizes them
    /// for [`Caches::host`]. Either plan writes the same bytes.
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
        Self::plan(src, dst, false, &Caches::FALLBACK)
    }

    /// [`RelayoutPlan::between`], or with `reinterpret` the plan of
    /// [`RelayoutPlan::reinterpret`], its blocks sized for `caches`.
    const fn plan(
        src: &ArrayLayout,
        dst: &ArrayLayout,
        reinterpret: bool,
        caches: &Caches,
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
        if let (ArrayLayout::Tiled(s), ArrayLayout::Tiled(d), false) = (sa, da, reinterpret) {
            let (st, dt) = (s.element_type(), d.element_type());
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
                ArrayLayout::Strided(_) => None,
            }
        }
        let (ss, ds) = (shape_of(sa), shape_of(da));
        let loops = match (digits(&src, ss, rank as u32), digits(&dst, ds, rank as u32)) {
            (Some(s), Some(d)) => refine(rank, dims.split_at(rank).0, &s, &d),
            _ => None,
        };
        let fill = if dst.has_padding() {
            Fill::Prefill
        } else {
            Fill::None
        };
        let mut plan = RelayoutPlan {
            src,
            dst,
            dims,
            rank,
            bits,
            fill,
            mode: Mode::Elementwise,
            streaming: None,
            simd: None,
        };
        let Some((mut loops, sizes)) = loops else {
            return Ok(plan);
        };
        coalesce(&mut loops);
        if let Side::Tiled { tiling, .. } = &plan.dst {
            if matches!(plan.fill, Fill::Prefill)
                && dense(loops.as_slice(), tiling.expanded_slots())
            {
                plan.fill = Fill::Inline;
            }
        }
        plan.mode = Mode::Loops(choose(loops, sizes, &Budget::new(caches, bits)));
        Ok(plan)
    }

    /// Forces non-temporal stores on (`Some(true)`) or off, or leaves the
    /// choice to the destination size (`None`, the default: on from
    /// [`Caches::streaming_threshold`] of [`Caches::host`] bytes, on
    /// x86-64).
    pub fn with_streaming(mut self, on: Option<bool>) -> Self {
        self.streaming = on;
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
        self.simd = level;
        self
    }

    /// What the plan does.
    pub fn stats(&self) -> PlanStats {
        let (kernel, outer_loops, block) = match &self.mode {
            Mode::Loops(n) => (n.kernel, n.outer.len(), (n.a.n, n.b.n)),
            Mode::Elementwise => (Kernel::Elementwise, 0, (0, 0)),
        };
        PlanStats {
            kernel,
            outer_loops,
            block,
            inline_padding: self.fill == Fill::Inline,
            streaming: self.streams(),
        }
    }

    /// Storage units the source needs (slots, or bytes when packed).
    pub fn src_units(&self, unit_bytes: usize) -> u64 {
        units(self.src.slots(), self.bits, unit_bytes)
    }

    /// Storage units the destination needs.
    pub fn dst_units(&self, unit_bytes: usize) -> u64 {
        units(self.dst.slots(), self.bits, unit_bytes)
    }

    fn streams(&self) -> bool {
        let bytes = units(self.dst.slots(), self.bits, 1);
        let kernel_ok = match &self.mode {
            Mode::Loops(n) => n.kernel != Kernel::Block && self.bits >= 8,
            Mode::Elementwise => false,
        };
        kernel_ok
            && cfg!(target_arch = "x86_64")
            && self
                .streaming
                .unwrap_or_else(|| bytes >= Caches::host().streaming_threshold() as u64)
    }

    /// Copies `src` into `dst`; destination padding becomes zero bits.
    ///
    /// `U` is any unit of the storage width (`f32`, `u32`, `i32` for 32
    /// bits; `u8` for packed sub-byte storage).
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
        self.check(src, dst)?;
        self.run_part(src, dst, pad, None);
        Ok(())
    }

    /// The unit width and both lengths, as [`RelayoutPlan::execute`]
    /// documents.
    fn check<U: Unit>(&self, src: &[U], dst: &[U]) -> Result<(), StorageError> {
        let ub = size_of::<U>();
        let packed = self.bits < 8;
        if (packed && ub != 1) || (!packed && 8 * ub as u32 != self.bits) {
            return Err(StorageError::ElementSize {
                bits: self.bits as u64,
            });
        }
        for (len, need) in [
            (src.len(), self.src_units(ub)),
            (dst.len(), self.dst_units(ub)),
        ] {
            if len as u64 != need {
                return Err(StorageError::Length {
                    expected: need,
                    found: len,
                });
            }
        }
        Ok(())
    }

    /// Runs the plan (`part: None`) or one part of it into `dst`, the part's
    /// destination range (after [`RelayoutPlan::check`]).
    fn run_part<U: Unit>(&self, src: &[U], dst: &mut [U], pad: U, part: Option<&Part>) {
        let nt = self.streams();
        if self.bits < 8 {
            let (s, d): (&[u8], &mut [u8]) =
                (bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst));
            let pad = bytemuck::bytes_of(&pad)[0];
            let slots = d.len() as u64 * 8 / self.bits as u64;
            self.run(
                &mut kernels::BitMover {
                    src: s,
                    dst: d,
                    bits: self.bits,
                    pad,
                    isa: Isa::new(self.simd),
                    gather: self.gather(),
                },
                part,
                slots,
            );
            return;
        }
        macro_rules! go {
            ($src:expr, $dst:expr, $pad:expr) => {{
                let d = $dst;
                let slots = d.len() as u64;
                self.run(
                    &mut kernels::UnitMover {
                        src: $src,
                        dst: d,
                        pad: $pad,
                        nt,
                        isa: Isa::new(self.simd),
                        #[cfg(feature = "alloc")]
                        gather: self.gather(),
                        #[cfg(feature = "alloc")]
                        stage: alloc::vec![$pad; self.stage_len()],
                        next: 0,
                        ahead: None,
                    },
                    part,
                    slots,
                );
            }};
        }
        use bytemuck::{cast, cast_slice as c, cast_slice_mut as cm};
        // the kernels are written for the unsigned unit of each width
        match size_of::<U>() {
            1 => go!(c::<U, u8>(src), cm::<U, u8>(dst), cast::<U, u8>(pad)),
            2 => go!(c::<U, u16>(src), cm::<U, u16>(dst), cast::<U, u16>(pad)),
            4 => go!(c::<U, u32>(src), cm::<U, u32>(dst), cast::<U, u32>(pad)),
            8 => go!(c::<U, u64>(src), cm::<U, u64>(dst), cast::<U, u64>(pad)),
            _ => go!(src, dst, pad),
        }
    }

    #[cfg(feature = "alloc")]
    fn stage_len(&self) -> usize {
        match &self.mode {
            Mode::Loops(n) if n.kernel == Kernel::Gather => (n.a.n * n.b.n) as usize,
            _ => 0,
        }
    }

    fn gather(&self) -> &[Loop] {
        match &self.mode {
            Mode::Loops(n) => &n.gather,
            Mode::Elementwise => &[],
        }
    }

    /// Runs the plan, or one part of it (`dst_slots`: the slots of the
    /// mover's destination).
    fn run<M: Mover>(&self, m: &mut M, part: Option<&Part>, dst_slots: u64) {
        if self.fill == Fill::Prefill {
            m.pad(0, dst_slots as usize);
        }
        match &self.mode {
            Mode::Elementwise => self.elementwise(m),
            Mode::Loops(nest) => {
                let nest = part.map_or(nest, |p| p.nest);
                let walk = Walk::new(nest, self.fill == Fill::Inline);
                let e = || [0u64; DIMS];
                // the part's first slot (a part's offsets are its own)
                let mut first = 0;
                match part {
                    // every value of every loop in bounds: plain loops, no
                    // bounds to track (a small tile's whole cost otherwise)
                    None if walk.all_free() && self.src.slots() > 0 => walk.free(m, 0, 0, 0),
                    None if self.src.slots() > 0 || self.rank == 0 => {
                        walk.walk(m, 0, 0, 0, &mut e()[..nest.sizes.len()])
                    }
                    None if walk.fill => walk.pad_tree(m, 0, 0),
                    None => {}
                    Some(p) => {
                        let l = &nest.outer[0];
                        first = p.values.start * l.dst;
                        let s = (p.values.start * l.src) as usize;
                        walk.values(m, 0, p.values.clone(), s, 0, &mut e()[..nest.sizes.len()]);
                    }
                }
                let last = part.is_none_or(|p| p.last);
                if let (Side::Tiled { tiling, .. }, true, true) = (&self.dst, walk.fill, last) {
                    let tail = tiling.expanded_slots();
                    m.pad((tail - first) as usize, (tiling.slots() - tail) as usize);
                }
            }
        }
        m.finish();
    }

    fn elementwise<M: Mover>(&self, m: &mut M) {
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

fn units(slots: u64, bits: u32, unit_bytes: usize) -> u64 {
    bits_to_bytes(slots, bits as u64).unwrap_or(u64::MAX) / unit_bytes.max(1) as u64
}

//! [`RelayoutPlan`]: computed once for a source and a destination layout,
//! executed many times.

use alloc::vec::Vec;
use core::mem::size_of;

use super::element::Unit;
use super::error::StorageError;
use super::kernels::{self, Mover};
use super::plan::{coalesce, dense, digits, refine, ArrayLayout, Loop, Side, FREE};
use crate::value::{bits_to_bytes, MAX_RANK};

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
    /// A small 2-D block with arbitrary strides (transposes).
    Block,
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
enum Mode {
    Loops {
        outer: Vec<Loop>,
        a: Loop,
        b: Loop,
        kernel: Kernel,
        sizes: Vec<u64>,
    },
    Elementwise,
}

/// Destinations at least this large are written with non-temporal stores
/// (glibc's `memcpy` switches at a similar size: past the last-level
/// cache, streaming avoids reading the destination lines first).
pub const STREAMING_THRESHOLD: usize = 24 << 20;

/// Largest block side for [`Kernel::Block`] (bigger loops are split so a
/// block of both sides stays in L1).
const BLOCK: u64 = 32;

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
}

fn valid(l: &Loop, e: &[u64], sizes: &[u64]) -> u64 {
    if l.dim == FREE {
        return l.n;
    }
    let size = sizes[l.dim as usize];
    let at = e[l.dim as usize];
    if at >= size {
        0
    } else {
        l.n.min((size - at).div_ceil(l.w))
    }
}

const ONE: Loop = Loop {
    n: 1,
    src: 0,
    dst: 0,
    dim: FREE,
    w: 1,
};

impl RelayoutPlan {
    /// Plans a relayout from `src` to `dst`.
    ///
    /// # Errors
    /// [`StorageError::Shape`] for an invalid shape;
    /// [`StorageError::ElementSize`] for a storage width other than 1, 2,
    /// 4, 8, 16, 32, 64 or 128 bits; [`StorageError::DimsMismatch`];
    /// [`StorageError::WidthMismatch`]; [`StorageError::TooLarge`].
    pub fn new(
        src: impl Into<ArrayLayout>,
        dst: impl Into<ArrayLayout>,
    ) -> Result<Self, StorageError> {
        let (sa, da) = (src.into(), dst.into());
        let (src, dst) = (Side::new(&sa)?, Side::new(&da)?);
        let (dims, rank) = src.dims();
        if dst.dims() != (dims, rank) {
            return Err(StorageError::DimsMismatch);
        }
        if src.bits() != dst.bits() {
            return Err(StorageError::WidthMismatch {
                src: src.bits() as u64,
                dst: dst.bits() as u64,
            });
        }
        let bits = src.bits();
        let shape_of = |a: &ArrayLayout| match a {
            ArrayLayout::Tiled(s) => Some(*s),
            ArrayLayout::Strided(_) => None,
        };
        let (ss, ds) = (shape_of(&sa), shape_of(&da));
        let mut sizes = Vec::new();
        let loops = match (
            digits(&src, ss.as_ref(), rank as u32),
            digits(&dst, ds.as_ref(), rank as u32),
        ) {
            (Some(s), Some(d)) => refine(rank, &dims, &s, &d, &mut sizes),
            _ => None,
        };
        let mut plan = RelayoutPlan {
            src: src.clone(),
            dst: dst.clone(),
            dims,
            rank,
            bits,
            fill: if dst.has_padding() {
                Fill::Prefill
            } else {
                Fill::None
            },
            mode: Mode::Elementwise,
            streaming: None,
        };
        let Some(mut loops) = loops else {
            return Ok(plan);
        };
        coalesce(&mut loops);
        if let Side::Tiled { tiling, .. } = &dst {
            if plan.fill == Fill::Prefill && dense(&loops, tiling.expanded_slots()) {
                plan.fill = Fill::Inline;
            }
        }
        let b = loops.pop().unwrap_or(ONE);
        let ai = if b.src == 1 {
            // src-next: the loop with the smallest source stride
            (0..loops.len()).min_by_key(|&i| loops[i].src)
        } else {
            loops.iter().position(|l| l.src == 1)
        };
        let a = match ai.or(loops.len().checked_sub(1)) {
            Some(i) => loops.remove(i),
            None => ONE,
        };
        let mut kernel = kernels::classify(&a, &b);
        let (mut a, mut b) = (a, b);
        if kernel == Kernel::Block {
            for l in [&mut a, &mut b] {
                if let Some(outer) = split(l, &mut sizes) {
                    loops.push(outer);
                }
            }
            kernel = kernels::classify(&a, &b);
        }
        if kernel == Kernel::Block {
            // cache blocking: loops that are long-strided on both sides
            // outermost, so a block of both sides stays in cache
            loops.sort_by(|x, y| {
                y.src
                    .min(y.dst)
                    .cmp(&x.src.min(x.dst))
                    .then(y.dst.cmp(&x.dst))
            });
        } else {
            // source order: reads stream sequentially (the hardware
            // prefetchers follow one stream, not many), while each kernel
            // call writes whole runs of cache lines
            loops.sort_by(|x, y| y.src.cmp(&x.src).then(y.dst.cmp(&x.dst)));
        }
        plan.mode = Mode::Loops {
            outer: loops,
            a,
            b,
            kernel,
            sizes,
        };
        Ok(plan)
    }

    /// Forces non-temporal stores on (`Some(true)`) or off, or leaves the
    /// choice to the destination size (`None`, the default: on from
    /// [`STREAMING_THRESHOLD`] bytes, on x86-64).
    pub fn with_streaming(mut self, on: Option<bool>) -> Self {
        self.streaming = on;
        self
    }

    /// What the plan does.
    pub fn stats(&self) -> PlanStats {
        let (kernel, outer_loops, block) = match &self.mode {
            Mode::Loops {
                outer,
                a,
                b,
                kernel,
                ..
            } => (*kernel, outer.len(), (a.n, b.n)),
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
        let kernel_ok = matches!(
            self.mode,
            Mode::Loops {
                kernel: Kernel::Runs | Kernel::Interleave(_) | Kernel::Deinterleave(_),
                ..
            }
        ) && self.bits >= 8;
        kernel_ok
            && cfg!(target_arch = "x86_64")
            && self
                .streaming
                .unwrap_or(bytes >= STREAMING_THRESHOLD as u64)
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
        let nt = self.streams();
        if packed {
            let (s, d): (&[u8], &mut [u8]) =
                (bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst));
            let pad = bytemuck::bytes_of(&pad)[0];
            self.run(&mut kernels::BitMover {
                src: s,
                dst: d,
                bits: self.bits,
                pad,
            });
            return Ok(());
        }
        macro_rules! go {
            ($t:ty) => {{
                let s: &[$t] = bytemuck::cast_slice(src);
                let d: &mut [$t] = bytemuck::cast_slice_mut(dst);
                let p: $t = bytemuck::cast(pad);
                self.run(&mut kernels::UnitMover {
                    src: s,
                    dst: d,
                    pad: p,
                    nt,
                });
            }};
        }
        match ub {
            1 => go!(u8),
            2 => go!(u16),
            4 => go!(u32),
            8 => go!(u64),
            _ => {
                let s: &[U] = src;
                self.run(&mut kernels::UnitMover {
                    src: s,
                    dst,
                    pad,
                    nt,
                });
            }
        }
        Ok(())
    }

    fn run<M: Mover>(&self, m: &mut M) {
        if self.fill == Fill::Prefill {
            m.pad(0, self.dst.slots() as usize);
        }
        match &self.mode {
            Mode::Elementwise => self.elementwise(m),
            Mode::Loops {
                outer,
                a,
                b,
                kernel,
                sizes,
            } => {
                let free_from = if a.dim == FREE && b.dim == FREE {
                    outer
                        .iter()
                        .rposition(|l| l.dim != FREE)
                        .map_or(0, |i| i + 1)
                } else {
                    usize::MAX
                };
                let walk = Walk {
                    outer,
                    a,
                    b,
                    kernel: *kernel,
                    sizes,
                    fill: self.fill == Fill::Inline,
                    free_from,
                };
                let mut e = alloc::vec![0u64; sizes.len()];
                if self.src.slots() > 0 || self.rank == 0 {
                    walk.walk(m, 0, 0, 0, &mut e);
                } else if walk.fill {
                    walk.pad_tree(m, 0, 0);
                }
                if let (Side::Tiled { tiling, .. }, true) = (&self.dst, walk.fill) {
                    let tail = tiling.expanded_slots() as usize;
                    m.pad(tail, tiling.slots() as usize - tail);
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

/// Splits a block loop longer than [`BLOCK`] into an inner loop of
/// `BLOCK` and returns the outer part. An uneven split of a free loop
/// gets a new constrained dim of the loop's size.
fn split(l: &mut Loop, sizes: &mut Vec<u64>) -> Option<Loop> {
    if l.n <= BLOCK {
        return None;
    }
    let mut inner = Loop { n: BLOCK, ..*l };
    if l.n % BLOCK != 0 {
        if l.dim == FREE {
            inner.dim = sizes.len() as u32;
            inner.w = 1;
            sizes.push(l.n);
        } else {
            // an uneven split of a constrained digit is only exact at its top
            return None;
        }
    }
    let outer = Loop {
        n: l.n.div_ceil(BLOCK),
        src: l.src * BLOCK,
        dst: l.dst * BLOCK,
        dim: inner.dim,
        w: inner.w * BLOCK,
    };
    *l = inner;
    Some(outer)
}

/// The loop walker: outer loops with bounds, then the kernel.
struct Walk<'p> {
    outer: &'p [Loop],
    a: &'p Loop,
    b: &'p Loop,
    kernel: Kernel,
    sizes: &'p [u64],
    fill: bool,
    /// The first outer level from which no loop (nor the kernel's) has a
    /// bound to check.
    free_from: usize,
}

impl Walk<'_> {
    /// Loops `level..` with no bounds to check: plain nested loops, the
    /// innermost repeated inside the mover.
    fn free<M: Mover>(&self, m: &mut M, level: usize, s: usize, d: usize) {
        match self.outer.get(level) {
            None => m.block(self.kernel, self.a, self.b, s, d),
            Some(l) if level + 1 == self.outer.len() => {
                m.block_rep(self.kernel, l, self.a, self.b, s, d)
            }
            Some(l) => {
                for v in 0..l.n {
                    self.free(
                        m,
                        level + 1,
                        s + (v * l.src) as usize,
                        d + (v * l.dst) as usize,
                    );
                }
            }
        }
    }

    fn walk<M: Mover>(&self, m: &mut M, level: usize, s: usize, d: usize, e: &mut [u64]) {
        if level >= self.free_from {
            return self.free(m, level, s, d);
        }
        let Some(l) = self.outer.get(level) else {
            return self.block(m, s, d, e);
        };
        let nv = valid(l, e, self.sizes);
        for v in 0..nv {
            let (so, dof) = (s + (v * l.src) as usize, d + (v * l.dst) as usize);
            if l.dim != FREE {
                e[l.dim as usize] += v * l.w;
            }
            self.walk(m, level + 1, so, dof, e);
            if l.dim != FREE {
                e[l.dim as usize] -= v * l.w;
            }
        }
        if self.fill {
            for v in nv..l.n {
                self.pad_tree(m, level + 1, d + (v * l.dst) as usize);
            }
        }
    }

    fn pad_tree<M: Mover>(&self, m: &mut M, level: usize, d: usize) {
        match self.outer.get(level) {
            Some(l) => {
                for v in 0..l.n {
                    self.pad_tree(m, level + 1, d + (v * l.dst) as usize);
                }
            }
            None => {
                for i in 0..self.a.n {
                    self.pad_row(m, d + (i * self.a.dst) as usize, 0);
                }
            }
        }
    }

    fn pad_row<M: Mover>(&self, m: &mut M, d: usize, from: u64) {
        let b = self.b;
        if b.dst == 1 {
            m.pad(d + from as usize, (b.n - from) as usize);
        } else {
            for j in from..b.n {
                m.pad(d + (j * b.dst) as usize, 1);
            }
        }
    }

    /// The kernel block, in bounds: rows with the same valid length go to
    /// the mover together; what is out of bounds is padding.
    fn block<M: Mover>(&self, m: &mut M, s: usize, d: usize, e: &mut [u64]) {
        let (a, b) = (self.a, self.b);
        let na = valid(a, e, self.sizes);
        let nb_at = |e: &mut [u64], i: u64| {
            if a.dim == FREE {
                return valid(b, e, self.sizes);
            }
            e[a.dim as usize] += i * a.w;
            let nb = valid(b, e, self.sizes);
            e[a.dim as usize] -= i * a.w;
            nb
        };
        // valid(b) is non-increasing in i, so the last row decides
        if na == a.n && nb_at(e, a.n - 1) == b.n {
            m.block(self.kernel, a, b, s, d);
            return;
        }
        let mut i = 0;
        while i < na {
            let nb = nb_at(e, i);
            let mut j = i + 1;
            while j < na && nb_at(e, j) == nb {
                j += 1;
            }
            let (si, di) = (s + (i * a.src) as usize, d + (i * a.dst) as usize);
            if nb > 0 {
                let (aa, bb) = (Loop { n: j - i, ..*a }, Loop { n: nb, ..*b });
                let k = if (aa.n, bb.n) == (a.n, b.n) {
                    self.kernel
                } else {
                    kernels::classify(&aa, &bb)
                };
                m.block(k, &aa, &bb, si, di);
            }
            if self.fill && nb < b.n {
                for r in i..j {
                    self.pad_row(m, d + (r * a.dst) as usize, nb);
                }
            }
            i = j;
        }
        if self.fill {
            for r in na..a.n {
                self.pad_row(m, d + (r * a.dst) as usize, 0);
            }
        }
    }
}

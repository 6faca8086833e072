//! The sides of a relayout: [`Strided`] storage, [`ArrayLayout`] (a side
//! as the caller gives it) and [`Side`] (a side checked, with its
//! element-wise offsets).

use super::CuteStorage;
use crate::storage::error::StorageError;
use crate::value::{bits_to_bytes, PrimitiveType, Shape, Tiling, MAX_RANK};

/// An array in plain strided storage: element `c` at slot
/// `Σ c[d] · strides[d]`, each slot `bits` bits wide (sub-byte slots are
/// packed as in [`packed`](crate::storage::packed)).
///
/// Invariant: one stride per dim; the largest offset fits `u64` and
/// `usize`.
///
/// ```
/// use tilelayout::storage::Strided;
/// let r = Strided::row_major(&[3, 5], 32)?;
/// assert_eq!(r.strides(), &[5, 1]);
/// let c = Strided::column_major(&[3, 5], 32)?;
/// assert_eq!(c.strides(), &[1, 3]);
/// assert_eq!(Strided::new(&[3, 5], &[1, 8], 16)?.slots(), 35);
/// # Ok::<(), tilelayout::storage::StorageError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strided {
    dims: [u64; MAX_RANK],
    strides: [u64; MAX_RANK],
    rank: u8,
    bits: u32,
    slots: u64,
}

impl Strided {
    /// Dims with the given strides (in slots).
    ///
    /// # Errors
    /// [`StorageError::Strides`] if the lengths differ or exceed
    /// [`MAX_RANK`], or the largest offset overflows;
    /// [`StorageError::ElementSize`] unless `bits` is 1, 2, 4 or a
    /// multiple of 8 up to 128.
    pub const fn new(dims: &[u64], strides: &[u64], bits: u32) -> Result<Strided, StorageError> {
        if dims.len() != strides.len() || dims.len() > MAX_RANK {
            return Err(StorageError::Strides);
        }
        if !matches!(bits, 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128) {
            return Err(StorageError::ElementSize { bits: bits as u64 });
        }
        let mut s = Strided {
            dims: [0; MAX_RANK],
            strides: [0; MAX_RANK],
            rank: dims.len() as u8,
            bits,
            slots: 1,
        };
        let mut last: u64 = 0;
        let mut d = 0;
        while d < dims.len() {
            let (n, st) = (dims[d], strides[d]);
            s.dims[d] = n;
            s.strides[d] = st;
            if n == 0 {
                s.slots = 0;
            }
            let Some(reach) = n.saturating_sub(1).checked_mul(st) else {
                return Err(StorageError::Strides);
            };
            last = match last.checked_add(reach) {
                Some(x) => x,
                None => return Err(StorageError::Strides),
            };
            d += 1;
        }
        if s.slots != 0 {
            s.slots = match last.checked_add(1) {
                Some(x) => x,
                None => return Err(StorageError::Strides),
            };
        }
        if bits_to_bytes(s.slots, bits as u64).is_err() {
            return Err(StorageError::Strides);
        }
        if s.slots > usize::MAX as u64 {
            return Err(StorageError::TooLarge);
        }
        Ok(s)
    }

    /// Row-major (C order): the last dim is contiguous.
    ///
    /// # Errors
    /// As [`Strided::new`].
    pub const fn row_major(dims: &[u64], bits: u32) -> Result<Strided, StorageError> {
        Strided::ordered(dims, bits, true)
    }

    /// Column-major (Fortran order): the first dim is contiguous.
    ///
    /// # Errors
    /// As [`Strided::new`].
    pub const fn column_major(dims: &[u64], bits: u32) -> Result<Strided, StorageError> {
        Strided::ordered(dims, bits, false)
    }

    /// Dense strides, the last dim contiguous (`last_minor`) or the first.
    const fn ordered(dims: &[u64], bits: u32, last_minor: bool) -> Result<Strided, StorageError> {
        let rank = if dims.len() < MAX_RANK {
            dims.len()
        } else {
            MAX_RANK
        };
        let mut st = [0u64; MAX_RANK];
        let mut acc: u64 = 1;
        let mut k = 0;
        while k < rank {
            let d = if last_minor { rank - 1 - k } else { k };
            st[d] = acc;
            let n = if dims[d] > 1 { dims[d] } else { 1 };
            acc = match acc.checked_mul(n) {
                Some(x) => x,
                None => return Err(StorageError::Strides),
            };
            k += 1;
        }
        Strided::new(dims, st.split_at(rank).0, bits)
    }

    /// The dims.
    pub const fn dims(&self) -> &[u64] {
        self.dims.split_at(self.rank as usize).0
    }

    /// The strides, in slots.
    pub const fn strides(&self) -> &[u64] {
        self.strides.split_at(self.rank as usize).0
    }

    /// Bits per slot.
    pub const fn bits(&self) -> u32 {
        self.bits
    }

    /// Slots the storage needs: the largest offset plus one (0 if empty).
    pub const fn slots(&self) -> u64 {
        self.slots
    }
}

/// One side of a relayout: a tiled (or plain) XLA shape, any strided
/// array, or a CuTe layout (swizzled or not). Typed layouts plug in by
/// converting into one of these.
///
/// A CuTe side's mode `k` is dim `k` of the other side (its size must be
/// that dim); the element at `(i, j, …)` goes to CuTe's `layout(i, j, …)`,
/// each mode's coordinate split over its sub-modes first-fastest. An
/// unswizzled layout runs on the planner's loop kernels (its leaves are
/// digits, as a tiling's lowered leaves are); a swizzled one (or one with
/// an offset) takes the element-wise path, the core's
/// [`ComposedLayout::call`](crate::algebra::ComposedLayout::call) per
/// element. Destination slots no coordinate maps to are left as they are;
/// a destination layout that maps two coordinates to one slot (a stride
/// `0`) keeps one of them.
///
/// # Examples
/// A TPU `(8,128)(2,1)` tile into TileFusion's swizzled shared-memory
/// layout and back:
/// ```
/// use tilelayout::algebra::ComposedLayout;
/// use tilelayout::storage::{ArrayLayout, RelayoutPlan};
/// use tilelayout::value::{parse_shape, PrimitiveType};
/// let tpu = parse_shape("bf16[64,64]{1,0:T(8,128)(2,1)}")?;
/// let smem = ArrayLayout::cute(
///     &ComposedLayout::parse("Sw<3,3,3> o _0 o (64,64):(64,1)")?,
///     PrimitiveType::BF16,
/// )?;
/// let there = RelayoutPlan::new(tpu, smem)?;
/// let back = RelayoutPlan::new(smem, tpu)?;
/// let src: Vec<u16> = (0..8192).map(|i| i as u16).collect();
/// let mut shared = vec![0u16; 4096]; // CuTe's cosize
/// there.execute(&src, &mut shared)?;
/// // element (2,1): row 2 sets bit 7, which Sw<3,3,3> moves onto bit 4
/// let at = tpu.tiling()?.offset(&[2, 1])? as usize;
/// assert_eq!(shared[(2 * 64 + 1) ^ 16], src[at]);
/// let mut again = vec![0u16; 8192];
/// back.execute(&shared, &mut again)?;
/// assert_eq!(again[at], src[at]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
#[allow(clippy::large_enum_variant)] // reason: `Shape` is the core's fixed-capacity value; one per plan side
pub enum ArrayLayout {
    /// A shape with its layout (tiles, `minor_to_major`, `E(n)`, `L(n)`).
    Tiled(Shape),
    /// Plain strided storage.
    Strided(Strided),
    /// A CuTe layout, optionally swizzled.
    Cute(CuteStorage),
}

impl ArrayLayout {
    /// The side `layout` with elements of type `element`
    /// ([`CuteStorage::new`]).
    ///
    /// # Errors
    /// As [`CuteStorage::new`].
    pub const fn cute(
        layout: &crate::algebra::ComposedLayout,
        element: PrimitiveType,
    ) -> Result<ArrayLayout, StorageError> {
        match CuteStorage::new(layout, element) {
            Ok(c) => Ok(ArrayLayout::Cute(c)),
            Err(e) => Err(e),
        }
    }

    /// The element type, if the side has one (a strided side has a width
    /// only).
    pub(crate) const fn element_type(&self) -> Option<PrimitiveType> {
        match self {
            ArrayLayout::Tiled(s) => Some(s.element_type()),
            ArrayLayout::Cute(c) => Some(c.element()),
            ArrayLayout::Strided(_) => None,
        }
    }
}

impl From<CuteStorage> for ArrayLayout {
    fn from(c: CuteStorage) -> Self {
        ArrayLayout::Cute(c)
    }
}

impl From<Shape> for ArrayLayout {
    fn from(s: Shape) -> Self {
        ArrayLayout::Tiled(s)
    }
}

impl From<&Shape> for ArrayLayout {
    fn from(s: &Shape) -> Self {
        ArrayLayout::Tiled(*s)
    }
}

impl From<Strided> for ArrayLayout {
    fn from(s: Strided) -> Self {
        ArrayLayout::Strided(s)
    }
}

/// A side, checked and compiled.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // reason: `Tiling` is the core's fixed-capacity value; two per plan
pub(crate) enum Side {
    Tiled { tiling: Tiling, bits: u32 },
    Strided(Strided),
    Cute(CuteStorage),
}

impl Side {
    pub(crate) const fn new(a: &ArrayLayout) -> Result<Side, StorageError> {
        match a {
            ArrayLayout::Strided(s) => Ok(Side::Strided(*s)),
            ArrayLayout::Cute(c) => Ok(Side::Cute(*c)),
            ArrayLayout::Tiled(shape) => {
                // A bounded dynamic array is laid out at its bound, as XLA
                // allocates it.
                let shape = &match shape.at_bound() {
                    Ok(s) => s,
                    Err(e) => return Err(StorageError::Shape(e)),
                };
                let tiling = match shape.tiling() {
                    Ok(t) => t,
                    Err(e) => return Err(StorageError::Shape(e)),
                };
                let bits = shape.storage_bits();
                if !matches!(bits, 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128) {
                    return Err(StorageError::ElementSize { bits });
                }
                if let Err(e) = bits_to_bytes(tiling.slots(), bits) {
                    return Err(StorageError::Shape(e));
                }
                if tiling.slots() > usize::MAX as u64 {
                    return Err(StorageError::TooLarge);
                }
                if matches!(shape.element_type(), PrimitiveType::Token) {
                    return Err(StorageError::Shape(crate::value::Error::new(
                        crate::value::ErrorKind::NotAnArray,
                    )));
                }
                Ok(Side::Tiled {
                    tiling,
                    bits: bits as u32,
                })
            }
        }
    }

    pub(crate) const fn dims(&self) -> ([u64; MAX_RANK], usize) {
        match self {
            Side::Strided(s) => (s.dims, s.rank as usize),
            Side::Cute(c) => (c.dims_array(), c.dims().len()),
            Side::Tiled { tiling, .. } => {
                let mut d = [0; MAX_RANK];
                let p = tiling.physical_dims();
                let p = p.as_slice();
                let mut i = 0;
                while i < p.len() {
                    d[tiling.physical_to_logical(i)] = p[i];
                    i += 1;
                }
                (d, tiling.rank())
            }
        }
    }

    pub(crate) const fn bits(&self) -> u32 {
        match self {
            Side::Strided(s) => s.bits,
            Side::Cute(c) => c.bits(),
            Side::Tiled { bits, .. } => *bits,
        }
    }

    /// Storage slots (padding and `L` tail included).
    pub(crate) const fn slots(&self) -> u64 {
        match self {
            Side::Strided(s) => s.slots,
            Side::Cute(c) => c.slots(),
            Side::Tiled { tiling, .. } => tiling.slots(),
        }
    }

    /// Slots that no element maps to, if the side is tiled and has any.
    pub(crate) const fn has_padding(&self) -> bool {
        match self {
            Side::Strided(_) | Side::Cute(_) => false,
            Side::Tiled { tiling, .. } => tiling.slots() != tiling.elements(),
        }
    }

    /// The element-wise offset (the reference the fast plan must match).
    pub(crate) fn offset(&self, c: &[u64]) -> u64 {
        match self {
            Side::Strided(s) => c.iter().zip(s.strides()).map(|(a, b)| a * b).sum(),
            Side::Tiled { tiling, .. } => tiling.offset_unchecked(c),
            Side::Cute(l) => l.offset(c),
        }
    }
}

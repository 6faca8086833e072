//! A CuTe layout (optionally swizzled) as a relayout side: element
//! `(c_0, …, c_{r-1})` at the layout's offset of that coordinate, mode `k`
//! of the layout being dim `k` of the array.
//!
//! The offset is the core's: the coordinate becomes CuTe's 1-D index
//! (colexicographic over the modes, `Σ c_k · Π_{j<k} size(mode j)`), and
//! [`ComposedLayout::call`] maps it, splitting each mode's coordinate over
//! its sub-modes first-fastest as CuTe's `layout(i, j)` does. An
//! unswizzled layout at offset 0 is also affine in every dim: its leaves
//! are the planner's digits directly.

use super::{Digit, Digits, DIGITS};
use crate::algebra::{ComposedLayout, CuteLayout, Swizzle};
use crate::storage::error::StorageError;
use crate::storage::fixed::Fixed;
use crate::value::{bits_to_bytes, PrimitiveType, MAX_RANK};

/// A CuTe layout checked as relayout storage: `swizzle(offset +
/// layout(c))` is element `c`'s slot, each slot as wide as the element
/// type's bytes. Slots no coordinate maps to are left as they are.
///
/// Invariant: rank at most [`MAX_RANK`]; every stride and the offset
/// non-negative; every index fits `u64`, `usize` and the storage in bytes;
/// `slots` bounds every index.
///
/// ```
/// use tilelayout::algebra::ComposedLayout;
/// use tilelayout::storage::CuteStorage;
/// use tilelayout::value::PrimitiveType;
/// let sw = ComposedLayout::parse("Sw<3,3,3> o _0 o (64,64):(64,1)")?;
/// let c = CuteStorage::new(&sw, PrimitiveType::BF16)?;
/// assert_eq!((c.dims(), c.slots(), c.bits()), (&[64u64, 64][..], 4096, 16));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CuteStorage {
    layout: ComposedLayout,
    element: PrimitiveType,
    dims: [u64; MAX_RANK],
    rank: u8,
    bits: u32,
    slots: u64,
}

/// The error for a layout that cannot be storage.
const fn bad(leaf: Option<u32>, problem: &'static str) -> StorageError {
    StorageError::CuteLayout { leaf, problem }
}

impl CuteStorage {
    /// `layout` holding elements of type `element`.
    ///
    /// # Errors
    /// [`StorageError::CuteLayout`] for a rank above [`MAX_RANK`], a
    /// negative stride or offset, or a size or largest index that
    /// overflows; [`StorageError::ElementSize`] for `token` and `opaque`;
    /// [`StorageError::TooLarge`] if the storage does not fit `usize`.
    pub const fn new(
        layout: &ComposedLayout,
        element: PrimitiveType,
    ) -> Result<CuteStorage, StorageError> {
        let l = &layout.layout;
        let rank = l.rank();
        if rank > MAX_RANK {
            return Err(bad(None, "more modes than an array has dims"));
        }
        let bits = element.byte_width() * 8;
        if bits == 0 {
            return Err(StorageError::ElementSize { bits: 0 });
        }
        let (shape, stride) = (l.shape(), l.stride());
        let mut k = 0;
        while k < shape.leaf_count() {
            if let Some(d) = stride.leaf(k) {
                if d.value < 0 {
                    return Err(bad(Some(k as u32), "negative stride"));
                }
            }
            k += 1;
        }
        if layout.offset.value < 0 {
            return Err(bad(None, "negative offset"));
        }
        let mut dims = [0u64; MAX_RANK];
        let mut m = 0;
        while m < rank {
            let Ok(mode) = shape.mode(m) else {
                return Err(bad(None, "mode out of range"));
            };
            let Ok(n) = mode.size() else {
                return Err(bad(Some(shape.mode_leaf_start(m) as u32), "size overflows"));
            };
            dims[m] = n.value as u64;
            m += 1;
        }
        if l.size().is_err() {
            return Err(bad(None, "size overflows"));
        }
        let Ok(cosize) = l.cosize() else {
            return Err(bad(None, "largest index overflows"));
        };
        let Some(end) = (cosize.value as u64).checked_add(layout.offset.value as u64) else {
            return Err(bad(None, "largest index overflows"));
        };
        let slots = match swizzled_end(&layout.swizzle, end) {
            Some(s) => s,
            None => return Err(bad(None, "largest swizzled index overflows")),
        };
        if bits_to_bytes(slots, bits as u64).is_err() {
            return Err(bad(None, "storage bytes overflow"));
        }
        if slots > usize::MAX as u64 {
            return Err(StorageError::TooLarge);
        }
        Ok(CuteStorage {
            layout: *layout,
            element,
            dims,
            rank: rank as u8,
            bits,
            slots,
        })
    }

    /// An unswizzled `layout` (no swizzle, offset 0).
    ///
    /// # Errors
    /// As [`CuteStorage::new`].
    pub const fn plain(
        layout: &CuteLayout,
        element: PrimitiveType,
    ) -> Result<CuteStorage, StorageError> {
        let c = ComposedLayout::new(Swizzle::NONE, crate::algebra::Int::fixed(0), *layout);
        CuteStorage::new(&c, element)
    }

    /// The layout.
    pub const fn layout(&self) -> &ComposedLayout {
        &self.layout
    }

    /// The element type.
    pub const fn element(&self) -> PrimitiveType {
        self.element
    }

    /// The dims: the size of each mode.
    pub const fn dims(&self) -> &[u64] {
        self.dims.split_at(self.rank as usize).0
    }

    /// The dims in a full array (zero past the rank).
    pub(crate) const fn dims_array(&self) -> [u64; MAX_RANK] {
        self.dims
    }

    /// Bits per slot (the element type's bytes × 8).
    pub const fn bits(&self) -> u32 {
        self.bits
    }

    /// Slots the storage needs: CuTe's `cosize` (plus the offset); when
    /// swizzled, rounded up to the power of two past every bit the swizzle
    /// may set, so that every swizzled index is below it.
    pub const fn slots(&self) -> u64 {
        self.slots
    }

    /// Whether the layout is a plain one (no swizzle, offset 0), so that
    /// its leaves are digits.
    const fn is_plain(&self) -> bool {
        self.layout.swizzle.bits() == 0 && self.layout.offset.value == 0
    }

    /// The slot of coordinate `c` (`c[k] < dims[k]`).
    pub(crate) fn offset(&self, c: &[u64]) -> u64 {
        let mut idx = 0u64;
        let mut scale = 1u64;
        for (k, &x) in c.iter().enumerate() {
            // below the size, checked by `CuteStorage::new`
            idx += x * scale;
            scale *= self.dims[k];
        }
        match self.layout.call(idx as i64) {
            Ok(v) => v as u64,
            // every index is below `slots` (checked by `CuteStorage::new`)
            Err(_) => unreachable!("a checked CuTe layout's index overflowed"),
        }
    }

    /// The digits of a plain layout (each leaf of mode `k`: dim `k`,
    /// weight the product of the earlier leaves' sizes in that mode), or
    /// `None` if swizzled or offset, or past [`DIGITS`].
    pub(crate) const fn digits(&self) -> Option<Digits> {
        if !self.is_plain() {
            return None;
        }
        let l = &self.layout.layout;
        let (shape, stride) = (l.shape(), l.stride());
        let leaves = shape.leaf_count();
        let mut out: Fixed<Digit, DIGITS> = Fixed::empty(Digit::ZERO);
        let mut m = 0;
        while m < self.rank as usize {
            let start = shape.mode_leaf_start(m);
            let end = if m + 1 < self.rank as usize {
                shape.mode_leaf_start(m + 1)
            } else {
                leaves
            };
            let mut w = 1u64;
            let mut k = start;
            while k < end {
                let (Some(n), Some(s)) = (shape.leaf(k), stride.leaf(k)) else {
                    return None;
                };
                let n = n.value as u64;
                if n > 1
                    && !out.push(Digit {
                        dim: m as u32,
                        w,
                        n,
                        s: s.value as u64,
                    })
                {
                    return None;
                }
                w *= n; // bounded by the mode's size
                k += 1;
            }
            m += 1;
        }
        Some(Digits {
            digits: out,
            pseudo: 0,
        })
    }
}

/// A bound on the indices `swizzle` gives for indices below `end`: `end`
/// without a swizzle, else the power of two past both `end - 1` and the
/// bits the swizzle may set (`end` itself for a power-of-two `end` above
/// those bits, the usual shared-memory case); `None` on overflow.
const fn swizzled_end(s: &Swizzle, end: u64) -> Option<u64> {
    if s.bits() == 0 || end <= 1 {
        return Some(end);
    }
    // a swizzle only sets bits of its ZZZ mask (and reads YYY): every
    // result is at most (end - 1) | zzz, below 2^(highest bit + 1)
    let hi = (end - 1) | (s.zzz_mask() as u64);
    let width = 64 - hi.leading_zeros();
    if width >= 63 {
        return None;
    }
    Some(1u64 << width)
}

//! Element types: the Rust value of one array element and the storage unit
//! its buffer is made of.

use core::fmt;
use core::mem::size_of;

use half::{bf16, f16};

use super::packed;
use crate::value::PrimitiveType;

mod sealed {
    pub trait Sealed {}
}

/// A storage unit: what a storage slice holds. Plain-old-data numbers
/// (and `[u8; 16]` for 128-bit slots such as `c128`), sealed: the relayout
/// kernels move them as unsigned integers of the same size via
/// [`bytemuck`] casts.
pub trait Unit:
    bytemuck::Pod + Default + PartialEq + fmt::Debug + Send + Sync + sealed::Sealed
{
}

macro_rules! units {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Unit for $t {}
    )*};
}
units!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64, bf16, f16, [u8; 16]);

/// The Rust type of one array element, and how it sits in storage.
///
/// Whole-byte types (`f32`, `bf16`, `i8`, …) are stored one per unit: the
/// storage slice is `&[Self]` of `slots` units. Sub-byte types ([`S4`],
/// [`U2`], `bool` for `pred`, …) are stored in `u8` units: one per byte
/// without `E(n)` (as XLA stores them by default), or `8/n` per byte under
/// `E(n)`, in the bit order of [`packed`].
///
/// The unsigned integers `u8`, `u16`, `u32`, `u64` also serve as *raw*
/// access (ours): they accept every type of their byte width, so an
/// `f8e4m3fn` or `c64` array can be moved and inspected as bits.
///
/// [`S4`]: super::S4
/// [`U2`]: super::U2
///
/// # Examples
/// ```
/// use tilelayout::storage::{Element, S4};
/// use tilelayout::value::PrimitiveType;
/// assert!(<f32 as Element>::accepts(PrimitiveType::F32));
/// assert!(<u32 as Element>::accepts(PrimitiveType::F32)); // raw bits
/// assert!(!<f32 as Element>::accepts(PrimitiveType::S32));
/// assert!(S4::storage_ok(4) && S4::storage_ok(8) && !S4::storage_ok(2));
/// ```
pub trait Element: Copy + PartialEq + fmt::Debug + 'static {
    /// What the storage slice holds: `Self` or `u8`.
    type Unit: Unit;
    /// The type's name, for errors.
    const NAME: &'static str;
    /// Bits of one value (4 for [`S4`](super::S4), 1 for `bool`).
    const VALUE_BITS: u32;
    /// Whether arrays of element type `t` can be accessed as `Self`.
    fn accepts(t: PrimitiveType) -> bool;
    /// Whether a storage width of `bits` per element is supported.
    fn storage_ok(bits: u64) -> bool {
        bits == 8 * size_of::<Self::Unit>() as u64
    }
    /// Reads the element in `slot`. Pre: `slot` is within the storage and
    /// `bits` passed [`Element::storage_ok`].
    fn load(units: &[Self::Unit], slot: usize, bits: u32) -> Self;
    /// Writes the element in `slot`, leaving every other slot (and the other
    /// bits of a shared byte) unchanged. Pre: as [`Element::load`].
    fn store(units: &mut [Self::Unit], slot: usize, bits: u32, v: Self);
}

macro_rules! whole {
    ($t:ty, $name:literal, $($pt:ident)|+) => {
        impl Element for $t {
            type Unit = $t;
            const NAME: &'static str = $name;
            const VALUE_BITS: u32 = 8 * size_of::<$t>() as u32;
            fn accepts(t: PrimitiveType) -> bool {
                matches!(t, $(PrimitiveType::$pt)|+)
            }
            #[inline]
            fn load(units: &[$t], slot: usize, _bits: u32) -> $t {
                units[slot]
            }
            #[inline]
            fn store(units: &mut [$t], slot: usize, _bits: u32, v: $t) {
                units[slot] = v;
            }
        }
    };
}
whole!(f32, "f32", F32);
whole!(f64, "f64", F64);
whole!(bf16, "bf16", BF16);
whole!(f16, "f16", F16);
whole!(i8, "i8", S8);
whole!(i16, "i16", S16);
whole!(i32, "i32", S32);
whole!(i64, "i64", S64);

macro_rules! raw {
    ($t:ty, $name:literal, $bytes:literal) => {
        impl Element for $t {
            type Unit = $t;
            const NAME: &'static str = $name;
            const VALUE_BITS: u32 = 8 * $bytes;
            fn accepts(t: PrimitiveType) -> bool {
                t.is_array_type() && t.byte_width() == $bytes
            }
            #[inline]
            fn load(units: &[$t], slot: usize, _bits: u32) -> $t {
                units[slot]
            }
            #[inline]
            fn store(units: &mut [$t], slot: usize, _bits: u32, v: $t) {
                units[slot] = v;
            }
        }
    };
}
raw!(u8, "u8", 1);
raw!(u16, "u16", 2);
raw!(u32, "u32", 4);
raw!(u64, "u64", 8);

/// `pred`: one byte per element (0 or 1) by default, one bit under `E(1)`.
/// Any non-zero stored value reads as `true`.
impl Element for bool {
    type Unit = u8;
    const NAME: &'static str = "bool";
    const VALUE_BITS: u32 = 1;
    fn accepts(t: PrimitiveType) -> bool {
        matches!(t, PrimitiveType::Pred)
    }
    fn storage_ok(bits: u64) -> bool {
        matches!(bits, 1 | 2 | 4 | 8)
    }
    #[inline]
    fn load(units: &[u8], slot: usize, bits: u32) -> bool {
        packed::get(units, slot, bits) != 0
    }
    #[inline]
    fn store(units: &mut [u8], slot: usize, bits: u32, v: bool) {
        packed::set(units, slot, bits, v as u8);
    }
}

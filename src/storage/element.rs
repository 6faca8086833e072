//! Element types: the Rust value of one array element and the storage unit
//! its buffer is made of.

use core::fmt;
use core::mem::size_of;

use crate::scalar::{bf16, f16};

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

/// Which storage widths (`E(n)`) a Rust element type can be read from and
/// written to. Every width must first pass the layout rule
/// ([`crate::value::check_element_size`]: 0, or a power of two from 1 to
/// 128); this says which of those a Rust type supports.
///
/// # Examples
/// ```
/// use tilelayout::storage::Packing;
/// assert!(Packing::Whole.supports(32, 32) && !Packing::Whole.supports(32, 16));
/// assert!(Packing::Packed.supports(8, 4)); // s8 in XLA's int4 path
/// assert!(Packing::Flag.supports(8, 32)); // pred in a 32-bit word
/// assert!(!Packing::Packed.supports(8, 16));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packing {
    /// Exactly the unit's width (`f32` in 32 bits, `bf16` in 16).
    Whole,
    /// An integer in 1, 2, 4 or 8 bits of a byte, in [`packed`]'s bit order:
    /// two's complement truncated to the width on store, sign-extended
    /// (signed types) or zero-extended on load. A width below the value's
    /// own keeps only the low bits, as XLA's `PackIntN` (`xla/util.h`)
    /// does: `s8[21]{0:E(4)}` holds s8 values in −8..=7.
    Packed,
    /// A truth value in any width from 1 to 128 bits: stored as 0 or 1 in
    /// the slot's lowest bits (for whole-byte widths: its first byte, the
    /// others zero, which is the little-endian integer 1), read as true if
    /// any bit of the slot is set.
    Flag,
}

impl Packing {
    /// Whether a value of this kind, held in units of `unit_bits`, can be
    /// stored in `bits`-wide slots.
    pub const fn supports(self, unit_bits: u32, bits: u64) -> bool {
        match self {
            Packing::Whole => bits == unit_bits as u64,
            Packing::Packed => unit_bits == 8 && matches!(bits, 1 | 2 | 4 | 8),
            Packing::Flag => unit_bits == 8 && bits <= 128 && bits.is_power_of_two(),
        }
    }
}

/// The Rust type of one array element, and how it sits in storage.
///
/// Whole-byte types (`f32`, `bf16`, `i8`, …) are stored one per unit: the
/// storage slice is `&[Self]` of `slots` units. Sub-byte types ([`i4`],
/// [`u2`], `bool` for `pred`, …) are stored in `u8` units: one per byte
/// without `E(n)` (as XLA stores them by default), or `8/n` per byte under
/// `E(n)`, in the bit order of [`packed`].
///
/// The unsigned integers `u8`, `u16`, `u32`, `u64` also serve as *raw*
/// access (ours): they accept every type of their byte width, so an
/// `f8e4m3fn` or `c64` array can be moved and inspected as bits.
///
/// [`i4`]: super::i4
/// [`u2`]: super::u2
///
/// # Examples
/// ```
/// use tilelayout::storage::{Element, i4};
/// use tilelayout::value::PrimitiveType;
/// assert!(<f32 as Element>::accepts(PrimitiveType::F32));
/// assert!(<u32 as Element>::accepts(PrimitiveType::F32)); // raw bits
/// assert!(!<f32 as Element>::accepts(PrimitiveType::S32));
/// assert!(i4::storage_ok(4) && i4::storage_ok(8) && !i4::storage_ok(16));
/// assert!(<i8 as Element>::storage_ok(4)); // XLA's s8[…]{…:E(4)}
/// assert!(<bool as Element>::storage_ok(32)); // pred in a 32-bit word
/// ```
pub trait Element: Copy + PartialEq + fmt::Debug + 'static {
    /// What the storage slice holds: `Self` or `u8`.
    type Unit: Unit;
    /// The type's name, for errors.
    const NAME: &'static str;
    /// Bits of one value (4 for [`i4`](super::i4), 1 for `bool`).
    const VALUE_BITS: u32;
    /// Which storage widths the type supports.
    const PACKING: Packing = Packing::Whole;
    /// Whether arrays of element type `t` can be accessed as `Self`.
    fn accepts(t: PrimitiveType) -> bool;
    /// Whether a storage width of `bits` per element is supported
    /// ([`Packing::supports`] for [`Element::PACKING`]).
    fn storage_ok(bits: u64) -> bool {
        Self::PACKING.supports(8 * size_of::<Self::Unit>() as u32, bits)
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
/// `s8`: one byte each, or packed in 1, 2 or 4 bits under `E(n)` (XLA's
/// GPU int4 path stores s8 arrays as `s8[…]{…:E(4)}`).
impl Element for i8 {
    type Unit = i8;
    const NAME: &'static str = "i8";
    const VALUE_BITS: u32 = 8;
    const PACKING: Packing = Packing::Packed;
    fn accepts(t: PrimitiveType) -> bool {
        matches!(t, PrimitiveType::S8)
    }
    #[inline]
    fn load(units: &[i8], slot: usize, bits: u32) -> i8 {
        if bits >= 8 {
            return units[slot];
        }
        let b = packed::get(bytemuck::cast_slice(units), slot, bits);
        // sign-extend the low `bits` bits
        let up = 8 - bits;
        ((b << up) as i8) >> up
    }
    #[inline]
    fn store(units: &mut [i8], slot: usize, bits: u32, v: i8) {
        if bits >= 8 {
            units[slot] = v;
        } else {
            packed::set(bytemuck::cast_slice_mut(units), slot, bits, v as u8);
        }
    }
}

/// Raw bytes: whole bytes of any 1-byte type, or the stored bits of a
/// packed sub-byte slot (`f4e2m1fn[…]{…:E(4)}`, the low bits of the byte).
impl Element for u8 {
    type Unit = u8;
    const NAME: &'static str = "u8";
    const VALUE_BITS: u32 = 8;
    const PACKING: Packing = Packing::Packed;
    fn accepts(t: PrimitiveType) -> bool {
        t.is_array_type() && t.byte_width() == 1
    }
    #[inline]
    fn load(units: &[u8], slot: usize, bits: u32) -> u8 {
        packed::get(units, slot, bits)
    }
    #[inline]
    fn store(units: &mut [u8], slot: usize, bits: u32, v: u8) {
        packed::set(units, slot, bits, v);
    }
}
raw!(u16, "u16", 2);
raw!(u32, "u32", 4);
raw!(u64, "u64", 8);

/// `pred`: one byte per element (0 or 1) by default, one bit under `E(1)`,
/// a 32-bit word under `E(32)` (older TPUs); see [`Packing::Flag`]. Any
/// non-zero stored bit reads as `true`.
impl Element for bool {
    type Unit = u8;
    const NAME: &'static str = "bool";
    const VALUE_BITS: u32 = 1;
    const PACKING: Packing = Packing::Flag;
    fn accepts(t: PrimitiveType) -> bool {
        matches!(t, PrimitiveType::Pred)
    }
    #[inline]
    fn load(units: &[u8], slot: usize, bits: u32) -> bool {
        if bits <= 8 {
            return packed::get(units, slot, bits) != 0;
        }
        let n = (bits / 8) as usize;
        units[slot * n..(slot + 1) * n].iter().any(|&b| b != 0)
    }
    #[inline]
    fn store(units: &mut [u8], slot: usize, bits: u32, v: bool) {
        if bits <= 8 {
            packed::set(units, slot, bits, v as u8);
            return;
        }
        let n = (bits / 8) as usize;
        let word = &mut units[slot * n..(slot + 1) * n];
        word.fill(0);
        word[0] = v as u8;
    }
}

/// The sub-byte integers ([`crate::scalar`]): one per byte without `E(n)`
/// (sign-extended for the signed ones, as XLA's literals hold them), or
/// packed `8/n` to a byte under `E(n)` in [`packed`]'s bit order.
macro_rules! sub_byte {
    ($($t:ident: $($pt:path)|+;)*) => {$(
        impl Element for crate::scalar::$t {
            type Unit = u8;
            const NAME: &'static str = stringify!($t);
            const VALUE_BITS: u32 = crate::scalar::$t::BITS;
            const PACKING: Packing = Packing::Packed;
            fn accepts(t: PrimitiveType) -> bool {
                matches!(t, $($pt)|+)
            }
            #[inline]
            fn load(units: &[u8], slot: usize, bits: u32) -> Self {
                Self::from_bits(packed::get(units, slot, bits))
            }
            #[inline]
            fn store(units: &mut [u8], slot: usize, bits: u32, v: Self) {
                packed::set(units, slot, bits, v.to_bits(bits));
            }
        }
    )*};
}
sub_byte! {
    i4: PrimitiveType::S4;
    u4: PrimitiveType::U4 | PrimitiveType::F4E2M1FN;
    i2: PrimitiveType::S2;
    u2: PrimitiveType::U2;
    i1: PrimitiveType::S1;
    u1: PrimitiveType::U1;
}

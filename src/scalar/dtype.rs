//! Element type markers: one zero-sized type per XLA primitive type that
//! has storage, naming the type and the Rust value it holds.

use tilelayout_core::PrimitiveType;

/// An element type of a layout type (`F32`, `BF16`, `S4`, …).
///
/// The value-level twin is [`PrimitiveType`]: `<F32 as Dtype>::TYPE ==
/// PrimitiveType::F32`.
pub trait Dtype: 'static + Copy + Default + core::fmt::Debug {
    /// The XLA primitive type.
    const TYPE: PrimitiveType;
    /// The Rust type of one value (`f32`, `half::bf16`, `bool` for `pred`,
    /// [`super::i4`] for `s4`; f8 types hold their bits in a `u8`).
    type Value: Copy + Default + core::fmt::Debug + 'static;
}

macro_rules! elements {
    ($($(#[$m:meta])* $name:ident => $ty:ident, $value:ty;)*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl Dtype for $name {
            const TYPE: PrimitiveType = PrimitiveType::$ty;
            type Value = $value;
        }
    )*};
}

elements! {
    /// `pred`: a boolean, one byte in storage unless `E(1)`.
    Pred => Pred, bool;
    /// `s1`: a 1-bit signed integer ([`super::i1`]).
    S1 => S1, super::i1;
    /// `s2`: a 2-bit signed integer ([`super::i2`]).
    S2 => S2, super::i2;
    /// `s4`: a 4-bit signed integer ([`super::i4`]).
    S4 => S4, super::i4;
    /// `s8`.
    S8 => S8, i8;
    /// `s16`.
    S16 => S16, i16;
    /// `s32`.
    S32 => S32, i32;
    /// `s64`.
    S64 => S64, i64;
    /// `u1`: a 1-bit unsigned integer ([`super::u1`]).
    U1 => U1, super::u1;
    /// `u2`: a 2-bit unsigned integer ([`super::u2`]).
    U2 => U2, super::u2;
    /// `u4`: a 4-bit unsigned integer ([`super::u4`]).
    U4 => U4, super::u4;
    /// `u8`.
    U8 => U8, u8;
    /// `u16`.
    U16 => U16, u16;
    /// `u32`.
    U32 => U32, u32;
    /// `u64`.
    U64 => U64, u64;
    /// `f16` (IEEE half).
    F16 => F16, half::f16;
    /// `bf16` (bfloat16).
    BF16 => BF16, half::bf16;
    /// `f32`.
    F32 => F32, f32;
    /// `f64`.
    F64 => F64, f64;
    /// `f4e2m1fn` (bits in a `u8`).
    F4E2M1FN => F4E2M1FN, u8;
    /// `f6e2m3fn` (bits in a `u8`; six value bits).
    F6E2M3FN => F6E2M3FN, u8;
    /// `f6e3m2fn` (bits in a `u8`; six value bits).
    F6E3M2FN => F6E3M2FN, u8;
    /// `f8e3m4` (bits in a `u8`).
    F8E3M4 => F8E3M4, u8;
    /// `f8e4m3` (bits in a `u8`).
    F8E4M3 => F8E4M3, u8;
    /// `f8e4m3fn` (bits in a `u8`).
    F8E4M3FN => F8E4M3FN, u8;
    /// `f8e4m3b11fnuz` (bits in a `u8`).
    F8E4M3B11FNUZ => F8E4M3B11FNUZ, u8;
    /// `f8e4m3fnuz` (bits in a `u8`).
    F8E4M3FNUZ => F8E4M3FNUZ, u8;
    /// `f8e5m2` (bits in a `u8`).
    F8E5M2 => F8E5M2, u8;
    /// `f8e5m2fnuz` (bits in a `u8`).
    F8E5M2FNUZ => F8E5M2FNUZ, u8;
    /// `f8e8m0fnu` (bits in a `u8`).
    F8E8M0FNU => F8E8M0FNU, u8;
    /// `c64`: a complex of two `f32` (real, imaginary).
    C64 => C64, [f32; 2];
    /// `c128`: a complex of two `f64` (real, imaginary).
    C128 => C128, [f64; 2];
}

//! Sub-byte integer values: `s4`, `u4`, `s2`, `u2`, `s1`, `u1` elements as
//! Rust values, named like Rust's own integers (`i4` is to `s4` what `i8`
//! is to `s8`), as the `ux` crate names them and as [`half`] names `bf16`.
//!
//! A value knows its range and its bits; where it sits in a byte is the
//! storage's business (`storage::packed`).

use core::fmt;

/// The low `width` bits set (`width` ≥ 8: all of them).
const fn low_bits(width: u32) -> u8 {
    if width >= 8 {
        0xFF
    } else {
        (1u8 << width) - 1
    }
}

macro_rules! sub_byte {
    ($(#[$doc:meta])* $name:ident, $repr:ty, $bits:literal, signed: $signed:literal) => {
        $(#[$doc])*
        #[allow(non_camel_case_types)] // reason: a primitive-like value, spelled as `i8` and `half::bf16` are
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name($repr);

        impl $name {
            /// Bits of one value.
            pub const BITS: u32 = $bits;
            /// The smallest value.
            pub const MIN: $name = $name(if $signed { (-1i8 << ($bits - 1)) as $repr } else { 0 });
            /// The largest value.
            pub const MAX: $name = $name(if $signed {
                ((1u8 << ($bits - 1)) - 1) as $repr
            } else {
                ((1u16 << $bits) - 1) as $repr
            });

            /// The value `v`, or `None` if it does not fit in the type.
            pub const fn new(v: $repr) -> Option<$name> {
                if v < Self::MIN.0 || v > Self::MAX.0 {
                    None
                } else {
                    Some($name(v))
                }
            }

            /// The value, widened.
            pub const fn get(self) -> $repr {
                self.0
            }

            /// The value from stored bits: the low `BITS` bits of `b`
            /// (sign-extended for signed types); higher bits are ignored.
            pub const fn from_bits(b: u8) -> $name {
                let low = b & low_bits($bits);
                if $signed && (low >> ($bits - 1)) & 1 == 1 {
                    $name((low | !low_bits($bits)) as $repr)
                } else {
                    $name(low as $repr)
                }
            }

            /// The bits stored for this value in a `width`-bit slot (the
            /// two's complement, sign-extended to `width`).
            pub const fn to_bits(self, width: u32) -> u8 {
                (self.0 as u8) & low_bits(width)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&self.0, f)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

sub_byte!(
    /// A 4-bit signed integer (XLA's `s4`), −8..=7.
    ///
    /// ```
    /// use tilelayout::scalar::i4;
    /// let v = i4::new(-2).unwrap();
    /// assert_eq!(v.to_bits(4), 0xE); // two's complement in a nibble
    /// assert_eq!(i4::from_bits(0xE), v);
    /// assert_eq!(i4::new(8), None);
    /// ```
    i4, i8, 4, signed: true
);
sub_byte!(
    /// A 4-bit unsigned integer (XLA's `u4`), 0..=15; also raw access to
    /// `f4e2m1fn` (ours).
    u4, u8, 4, signed: false
);
sub_byte!(
    /// A 2-bit signed integer (XLA's `s2`), −2..=1.
    i2, i8, 2, signed: true
);
sub_byte!(
    /// A 2-bit unsigned integer (XLA's `u2`), 0..=3.
    u2, u8, 2, signed: false
);
sub_byte!(
    /// A 1-bit signed integer (XLA's `s1`), −1..=0.
    i1, i8, 1, signed: true
);
sub_byte!(
    /// A 1-bit unsigned integer (XLA's `u1`), 0..=1.
    u1, u8, 1, signed: false
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte, every type: `from_bits` against an independent
    /// formulation (shift the low bits to the top of an `i8`/`u8` and back),
    /// `new` against the range, and `to_bits` ∘ `from_bits` at every width
    /// from the type's own to 8.
    macro_rules! exhaustive {
        ($t:ident, $repr:ty, $bits:literal, $lo:literal, $hi:literal) => {{
            assert_eq!(($t::MIN.get(), $t::MAX.get()), ($lo, $hi));
            for b in 0..=255u8 {
                let up = 8 - $bits;
                let expect = (((b << up) as $repr) >> up) as $repr;
                assert_eq!(
                    $t::from_bits(b).get(),
                    expect,
                    "{} from_bits({b:#04x})",
                    stringify!($t)
                );
            }
            for v in <$repr>::MIN..=<$repr>::MAX {
                let fits = ($lo..=$hi).contains(&v);
                assert_eq!(
                    $t::new(v).map($t::get),
                    fits.then_some(v),
                    "{}::new({v})",
                    stringify!($t)
                );
                if let Some(x) = $t::new(v) {
                    for width in $bits..=8u32 {
                        let bits = x.to_bits(width);
                        assert!(
                            width == 8 || bits >> width == 0,
                            "{} to_bits spills",
                            stringify!($t)
                        );
                        assert_eq!(
                            $t::from_bits(bits),
                            x,
                            "{} round trip at {width}",
                            stringify!($t)
                        );
                    }
                }
            }
        }};
    }

    #[test]
    fn every_value_and_every_byte() {
        exhaustive!(i4, i8, 4, -8, 7);
        exhaustive!(u4, u8, 4, 0, 15);
        exhaustive!(i2, i8, 2, -2, 1);
        exhaustive!(u2, u8, 2, 0, 3);
        exhaustive!(i1, i8, 1, -1, 0);
        exhaustive!(u1, u8, 1, 0, 1);
    }

    #[test]
    fn sign_extension_to_a_whole_byte() {
        // unpacked storage (no `E(n)`) holds one sign-extended value a byte
        assert_eq!(i4::new(-1).map(|v| v.to_bits(8)), Some(0xFF));
        assert_eq!(i4::new(-1).map(|v| v.to_bits(4)), Some(0x0F));
        assert_eq!(i4::from_bits(0xFF).get(), -1);
    }
}

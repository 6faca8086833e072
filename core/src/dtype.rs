//! XLA primitive (element) types: names, bit widths and storage widths.

/// An XLA primitive type, as written before the dims of a shape (`f32`,
/// `bf16`, `s4`, `pred`, …).
///
/// Names follow XLA's text (`xla/primitive_util.cc`): the parser accepts the
/// lowercase spelling XLA prints and, unless the parse is strict, the
/// uppercase one the docs write (`F32[3,5]`). Printing is always lowercase.
///
/// # Examples
/// ```
/// use tilelayout::value::PrimitiveType;
/// let t = PrimitiveType::from_name("bf16", false).unwrap();
/// assert_eq!(t, PrimitiveType::BF16);
/// assert_eq!(t.name(), "bf16");
/// assert_eq!((t.bit_width(), t.byte_width()), (16, 2));
/// // Sub-byte types are stored one per byte unless the layout says `E(n)`.
/// assert_eq!((PrimitiveType::S4.bit_width(), PrimitiveType::S4.byte_width()), (4, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[allow(missing_docs)] // reason: each variant is the XLA type of the same name
pub enum PrimitiveType {
    Pred,
    S1,
    S2,
    S4,
    S8,
    S16,
    S32,
    S64,
    U1,
    U2,
    U4,
    U8,
    U16,
    U32,
    U64,
    F16,
    BF16,
    F32,
    F64,
    F4E2M1FN,
    F6E2M3FN,
    F6E3M2FN,
    F8E3M4,
    F8E4M3,
    F8E4M3FN,
    F8E4M3B11FNUZ,
    F8E4M3FNUZ,
    F8E5M2,
    F8E5M2FNUZ,
    F8E8M0FNU,
    C64,
    C128,
    /// `token[]`: an ordering token; has no dims and no storage.
    Token,
    /// `opaque[]`: an opaque handle; has no dims and no storage.
    Opaque,
}

/// (type, lowercase name, value bits, storage bytes)
///
/// Widths as XLA's `primitive_util` gives them (openxla/xla
/// `xla/primitive_util.h`, `BitWidth` and `ByteWidth`): the
/// 6-bit floats `f6e2m3fn` and `f6e3m2fn` have 6 value bits and, like every
/// sub-byte type, take one byte each unless the layout says `E(n)`.
const TABLE: [(PrimitiveType, &str, u32, u32); 34] = {
    use PrimitiveType::*;
    [
        (Pred, "pred", 1, 1),
        (S1, "s1", 1, 1),
        (S2, "s2", 2, 1),
        (S4, "s4", 4, 1),
        (S8, "s8", 8, 1),
        (S16, "s16", 16, 2),
        (S32, "s32", 32, 4),
        (S64, "s64", 64, 8),
        (U1, "u1", 1, 1),
        (U2, "u2", 2, 1),
        (U4, "u4", 4, 1),
        (U8, "u8", 8, 1),
        (U16, "u16", 16, 2),
        (U32, "u32", 32, 4),
        (U64, "u64", 64, 8),
        (F16, "f16", 16, 2),
        (BF16, "bf16", 16, 2),
        (F32, "f32", 32, 4),
        (F64, "f64", 64, 8),
        (F4E2M1FN, "f4e2m1fn", 4, 1),
        (F6E2M3FN, "f6e2m3fn", 6, 1),
        (F6E3M2FN, "f6e3m2fn", 6, 1),
        (F8E3M4, "f8e3m4", 8, 1),
        (F8E4M3, "f8e4m3", 8, 1),
        (F8E4M3FN, "f8e4m3fn", 8, 1),
        (F8E4M3B11FNUZ, "f8e4m3b11fnuz", 8, 1),
        (F8E4M3FNUZ, "f8e4m3fnuz", 8, 1),
        (F8E5M2, "f8e5m2", 8, 1),
        (F8E5M2FNUZ, "f8e5m2fnuz", 8, 1),
        (F8E8M0FNU, "f8e8m0fnu", 8, 1),
        (C64, "c64", 64, 8),
        (C128, "c128", 128, 16),
        (Token, "token", 0, 0),
        (Opaque, "opaque", 0, 0),
    ]
};

impl PrimitiveType {
    /// Every primitive type, in XLA's enum order of families.
    pub const ALL: [PrimitiveType; 34] = {
        let mut out = [PrimitiveType::Pred; 34];
        let mut i = 0;
        while i < TABLE.len() {
            out[i] = TABLE[i].0;
            i += 1;
        }
        out
    };

    const fn row(self) -> (PrimitiveType, &'static str, u32, u32) {
        let mut i = 0;
        while i < TABLE.len() {
            if TABLE[i].0 as u8 == self as u8 {
                return TABLE[i];
            }
            i += 1;
        }
        // Every variant is in TABLE (checked by a unit test below).
        TABLE[0]
    }

    /// XLA's (lowercase) name: `bf16`, `pred`, `f8e4m3fn`.
    pub const fn name(self) -> &'static str {
        self.row().1
    }

    /// Bits of one value: 1 for `pred`, `s1`, `u1`; 4 for `s4`; 32 for `f32`;
    /// 128 for `c128`; 0 for `token` and `opaque`.
    pub const fn bit_width(self) -> u32 {
        self.row().2
    }

    /// Bytes one element takes in storage when the layout has no `E(n)`:
    /// sub-byte types (and `pred`) take a whole byte, as in XLA's
    /// `ShapeUtil::ByteSizeOfPrimitiveType`.
    pub const fn byte_width(self) -> u32 {
        self.row().3
    }

    /// Whether arrays of this type hold data (`token` and `opaque` do not and
    /// have no dims).
    pub const fn is_array_type(self) -> bool {
        !matches!(self, PrimitiveType::Token | PrimitiveType::Opaque)
    }

    /// Whether this is an unsigned integer type (XLA requires one for the
    /// obsolete sparse index/pointer types `#(…)` and `*(…)`).
    pub const fn is_unsigned_integer(self) -> bool {
        matches!(
            self,
            PrimitiveType::U1
                | PrimitiveType::U2
                | PrimitiveType::U4
                | PrimitiveType::U8
                | PrimitiveType::U16
                | PrimitiveType::U32
                | PrimitiveType::U64
        )
    }

    /// Looks a type up by name. The lowercase spelling is XLA's; the
    /// all-uppercase one (`F32`, `BF16`, `PRED`) is what XLA's docs write and
    /// is accepted unless `strict` (XLA's own parser rejects it).
    pub const fn from_name(name: &str, strict: bool) -> Option<PrimitiveType> {
        Self::from_bytes(name.as_bytes(), strict)
    }

    pub(crate) const fn from_bytes(name: &[u8], strict: bool) -> Option<PrimitiveType> {
        let mut i = 0;
        while i < TABLE.len() {
            let cand = TABLE[i].1.as_bytes();
            if cand.len() == name.len() {
                let mut lower_ok = true;
                let mut upper_ok = !strict;
                let mut j = 0;
                while j < cand.len() {
                    if name[j] != cand[j] {
                        lower_ok = false;
                    }
                    if name[j] != cand[j].to_ascii_uppercase() {
                        upper_ok = false;
                    }
                    j += 1;
                }
                if lower_ok || upper_ok {
                    return Some(TABLE[i].0);
                }
            }
            i += 1;
        }
        None
    }
}

impl core::fmt::Display for PrimitiveType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_covers_every_variant_once() {
        for (i, t) in PrimitiveType::ALL.iter().enumerate() {
            assert_eq!(*t as usize, i, "TABLE order must match the enum");
            assert_eq!(PrimitiveType::from_name(t.name(), true), Some(*t));
        }
    }

    #[test]
    fn spellings() {
        assert_eq!(
            PrimitiveType::from_name("F32", false),
            Some(PrimitiveType::F32)
        );
        assert_eq!(PrimitiveType::from_name("F32", true), None);
        assert_eq!(PrimitiveType::from_name("Bf16", false), None);
        assert_eq!(PrimitiveType::from_name("i32", false), None);
        assert_eq!(PrimitiveType::from_name("f32x", false), None);
        const _: () = assert!(PrimitiveType::S4.byte_width() == 1);
    }
}

//! The TPU module's error: a core error (syntax, validity, sizes) or one of
//! the two ways a request for a TPU layout can be refused.

use crate::value::{Error, PrimitiveType, Span, TextBuf};

/// Why a TPU layout could not be chosen.
///
/// `Display` prints the message and, for text input, `at byte N`, like the
/// core [`Error`].
///
/// # Examples
/// ```
/// use tilelayout::tpu::{tpu_layout_for_text, TpuError};
/// let e = tpu_layout_for_text("f32[3,5]{1,0:T(8,128)}").unwrap_err();
/// assert!(matches!(e, TpuError::AttributesGiven { .. }));
/// assert_eq!(e.span().start, 12);
/// assert!(e.to_string().contains("give only minor_to_major"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TpuError {
    /// The core refused the input: a syntax error, an invalid
    /// `minor_to_major`, dynamic dims, or a size that overflows.
    Core(Error),
    /// The input layout has attributes after `:` (tiles, `E`, `S`, …). The
    /// policy chooses the tiles; it takes only `minor_to_major` (ours: the
    /// rules were calibrated on HBM/VMEM arrays, so `S(n)` is refused too
    /// rather than guessed).
    AttributesGiven {
        /// The attributes, from `:` to before `}`.
        span: Span,
    },
    /// No TPU format is known for this element type: 64-bit and complex
    /// types, and the 1- and 2-bit integer types (see
    /// [`packing`](super::packing)).
    UnsupportedType {
        /// The element type.
        ty: PrimitiveType,
        /// The type name in the text (`Span::NONE` for values).
        span: Span,
    },
}

impl TpuError {
    /// Where in the input text the problem is (`Span::NONE` for values).
    pub const fn span(&self) -> Span {
        match self {
            TpuError::Core(e) => e.span,
            TpuError::AttributesGiven { span } | TpuError::UnsupportedType { span, .. } => *span,
        }
    }

    /// The message without the position, built in `const fn`.
    pub const fn message(&self) -> TextBuf<192> {
        let mut t = TextBuf::new();
        match self {
            TpuError::Core(e) => t.push_str(e.message().as_str()),
            TpuError::AttributesGiven { .. } => t.push_str(
                "the layout has attributes after `:`; give only minor_to_major (`{1,0}`), \
                 the TPU policy chooses the tiles",
            ),
            TpuError::UnsupportedType { ty, .. } => {
                t.push_str("no TPU format is known for element type ");
                t.push_str(ty.name());
                t.push_str(" (supported: 32-, 16-, 8- and 4-bit types and pred)");
            }
        }
        t
    }

    /// The message followed by `at byte N` when the error has a position:
    /// what `Display` prints.
    pub const fn describe(&self) -> TextBuf<224> {
        let mut t = TextBuf::new();
        t.push_str(self.message().as_str());
        let span = self.span();
        if !span.is_none() {
            t.push_str(" at byte ");
            t.push_u64(span.start as u64);
        }
        t
    }
}

impl From<Error> for TpuError {
    fn from(e: Error) -> TpuError {
        TpuError::Core(e)
    }
}

impl core::fmt::Display for TpuError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.describe().as_str())
    }
}

impl core::error::Error for TpuError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            TpuError::Core(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::ErrorKind;

    #[test]
    fn messages_fit_their_buffer() {
        let errors = [
            TpuError::AttributesGiven {
                span: Span::new(1 << 30, (1 << 30) + 1),
            },
            TpuError::UnsupportedType {
                ty: PrimitiveType::F8E4M3B11FNUZ,
                span: Span::new(1 << 30, 1 << 31),
            },
            TpuError::Core(Error::at(
                ErrorKind::MinorToMajorRange {
                    position: 15,
                    value: i64::MIN,
                },
                1 << 30,
                1 << 31,
            )),
        ];
        for e in errors {
            assert!(!e.message().overflowed(), "{e:?}");
            assert!(!e.describe().overflowed(), "{e:?}");
        }
    }
}

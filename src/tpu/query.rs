//! The text entry point the CLI's `tpu` subcommand calls:
//! `TYPE[DIMS][{MINOR_TO_MAJOR}]` in, the chosen shape and its padding out.

use super::error::TpuError;
use super::padding::{padding_report, PaddingReport};
use super::policy::{tpu_choice_for, Rule};
use crate::value::{parse_shape_with, ParseOptions, Shape, Span};

/// What [`tpu_layout_for_text`] answers.
///
/// For the CLI (`tilelayout tpu --json`): `layout` is
/// `shape.to_string()` (the full canonical shape text with the chosen
/// layout), `bytes` is `report.bytes`, `xla_bytes` is `report.xla_bytes`,
/// `padding_percent` is `report.padding_percent`; on error, `error` is the
/// [`TpuError`]'s `Display`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TpuAnswer {
    /// The input dims and `minor_to_major` with the chosen tiles.
    pub shape: Shape,
    /// The rule that chose them.
    pub rule: Rule,
    /// Sizes and padding under the chosen layout.
    pub report: PaddingReport,
}

/// Parses `TYPE[DIMS][{MINOR_TO_MAJOR}]` (`bf16[1024,1024]`,
/// `f32[3,5]{0,1}`), applies the TPU policy ([`super::tpu_choice`]) and
/// reports the padding of the result.
///
/// Without `{…}` the default (descending) `minor_to_major` is used. The
/// input's layout may hold only `minor_to_major`: tiles or any other
/// attribute after `:` are refused (an empty `{:}`, how XLA writes a
/// scalar's layout, is fine).
///
/// # Errors
/// - [`TpuError::Core`]: a syntax error (with its byte position), a tuple,
///   an invalid `minor_to_major`, dynamic dims (`<=N`, `?`), or a size
///   that overflows `u64`;
/// - [`TpuError::AttributesGiven`]: the layout has `:` and attributes
///   ("give only minor_to_major");
/// - [`TpuError::UnsupportedType`]: no TPU format for the element type.
///
/// # Examples
/// ```
/// use tilelayout::tpu::tpu_layout_for_text;
/// let a = tpu_layout_for_text("f32[3,5]")?;
/// assert_eq!(a.shape.to_string(), "f32[3,5]{1,0:T(4,128)}");
/// assert_eq!((a.report.bytes, a.report.xla_bytes), (2048, 2048));
///
/// let a = tpu_layout_for_text("f32[3,5]{0,1}")?;
/// assert_eq!(a.shape.to_string(), "f32[3,5]{0,1:T(8,128)}");
///
/// let a = tpu_layout_for_text("bf16[1024,1024]")?;
/// assert_eq!(a.shape.to_string(), "bf16[1024,1024]{1,0:T(8,128)(2,1)}");
/// assert_eq!(a.report.padding_bytes, 0);
///
/// let e = tpu_layout_for_text("bf16[2,1024]{1,0:T(4,128)(2,1)}").unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "the layout has attributes after `:`; give only minor_to_major (`{1,0}`), \
///      the TPU policy chooses the tiles at byte 16"
/// );
/// # Ok::<(), tilelayout::tpu::TpuError>(())
/// ```
pub const fn tpu_layout_for_text(text: &str) -> Result<TpuAnswer, TpuError> {
    let (shape, spans) = match parse_shape_with(text, ParseOptions { strict: false }) {
        Ok(r) => r,
        Err(e) => return Err(TpuError::Core(e)),
    };
    if shape.layout_written() {
        // Look inside `{…}` for anything after `:` (`D(…)` is dropped by
        // the parser, so the layout value cannot tell). An empty `{1,0:}`
        // or `{:}` (XLA's way to write a scalar's layout) has none.
        let bytes = text.as_bytes();
        let start = spans.layout.start as usize;
        let end = spans.layout.end as usize;
        let close = if end > 0 { end - 1 } else { 0 };
        let mut i = start;
        let mut colon = None;
        while i < close && i < bytes.len() {
            match (colon, bytes[i]) {
                (None, b':') => colon = Some(i),
                (Some(c), b) if !b.is_ascii_whitespace() => {
                    return Err(TpuError::AttributesGiven {
                        span: Span::new(c, close),
                    })
                }
                _ => {}
            }
            i += 1;
        }
    }
    if let Err(e) = shape.validate() {
        return Err(TpuError::Core(spans.locate(e)));
    }
    let choice = match tpu_choice_for(&shape) {
        Ok(c) => c,
        Err(TpuError::UnsupportedType { ty, .. }) => {
            return Err(TpuError::UnsupportedType {
                ty,
                span: spans.element_type,
            })
        }
        Err(TpuError::Core(e)) => return Err(TpuError::Core(spans.locate(e))),
        Err(e) => return Err(e),
    };
    let report = match padding_report(&choice.shape) {
        Ok(r) => r,
        Err(e) => return Err(TpuError::Core(spans.locate(e))),
    };
    Ok(TpuAnswer {
        shape: choice.shape,
        rule: choice.rule,
        report,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_is_const() {
        const A: Result<TpuAnswer, TpuError> = tpu_layout_for_text("s8[1,128]");
        const {
            assert!(matches!(
                A,
                Ok(TpuAnswer {
                    rule: Rule::SmallSecondMinor,
                    ..
                })
            ))
        };
    }
}

//! How much of a layout's storage is padding.

use crate::value::{Error, Shape};

/// Sizes of an array under its layout and the share that is padding.
///
/// `bytes` is the exact storage (every tile level pads); `xla_bytes` is
/// XLA's `ShapeUtil::ArraySize` (first tile only), which TPU allocations
/// report. Padding is counted against the exact size:
/// `padding_bytes = bytes − unpadded_bytes`,
/// `padding_percent = 100 × padding_bytes ÷ bytes` (0 when `bytes` is 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaddingReport {
    /// The product of the dims.
    pub elements: u64,
    /// Slots of the tiled storage (elements plus padding).
    pub slots: u64,
    /// Exact bytes of storage.
    pub bytes: u64,
    /// XLA's `ArraySize` in bytes.
    pub xla_bytes: u64,
    /// Bytes the elements alone take.
    pub unpadded_bytes: u64,
    /// `bytes − unpadded_bytes`.
    pub padding_bytes: u64,
    /// Padding as a percentage of `bytes`.
    pub padding_percent: f64,
}

/// The padding report of `shape` under its layout.
///
/// # Errors
/// Any validation error of the shape; `DynamicShape` for `<=N` or `?`
/// dims; `SizeOverflow` if a size overflows `u64` (the core's
/// [`Shape::sizes`]).
///
/// # Examples
/// A small array in one tile: `f32[3,5]` under `(8,128)` uses 15 of the
/// tile's 1024 slots.
/// ```
/// use tilelayout::{tpu::padding_report, value::parse_shape};
/// let r = padding_report(&parse_shape("f32[3,5]{1,0:T(8,128)}")?)?;
/// assert_eq!((r.elements, r.slots), (15, 1024));
/// assert_eq!((r.bytes, r.xla_bytes, r.unpadded_bytes), (4096, 4096, 60));
/// assert_eq!(r.padding_bytes, 4036);
/// assert!((r.padding_percent - 98.535).abs() < 0.001);
/// assert_eq!(r.to_string(), "4096 bytes (XLA 4096), 60 for 15 elements, 4036 padding (98.5%)");
/// # Ok::<(), tilelayout::value::Error>(())
/// ```
pub const fn padding_report(shape: &Shape) -> Result<PaddingReport, Error> {
    let s = match shape.sizes() {
        Ok(s) => s,
        Err(e) => return Err(e),
    };
    let padding_bytes = s.padding_bytes();
    let padding_percent = if s.bytes == 0 {
        0.0
    } else {
        padding_bytes as f64 * 100.0 / s.bytes as f64
    };
    Ok(PaddingReport {
        elements: s.elements,
        slots: s.slots,
        bytes: s.bytes,
        xla_bytes: s.xla_bytes,
        unpadded_bytes: s.unpadded_bytes,
        padding_bytes,
        padding_percent,
    })
}

impl core::fmt::Display for PaddingReport {
    /// `4096 bytes (XLA 4096), 60 for 15 elements, 4036 padding (98.5%)`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} bytes (XLA {}), {} for {} elements, {} padding ({:.1}%)",
            self.bytes,
            self.xla_bytes,
            self.unpadded_bytes,
            self.elements,
            self.padding_bytes,
            self.padding_percent
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::parse_shape;

    #[test]
    fn empty_array_wastes_nothing() {
        let r = padding_report(&parse_shape("f32[0,5]{1,0:T(8,128)}").unwrap()).unwrap();
        assert_eq!((r.bytes, r.padding_bytes), (0, 0));
        assert_eq!(r.padding_percent, 0.0);
    }

    #[test]
    fn report_is_const() {
        const S: Shape = match parse_shape("bf16[2,1024]{1,0:T(2,128)(2,1)}") {
            Ok(s) => s,
            Err(_) => panic!(),
        };
        const R: Result<PaddingReport, Error> = padding_report(&S);
        const {
            assert!(matches!(
                R,
                Ok(PaddingReport {
                    padding_bytes: 0,
                    ..
                })
            ))
        };
    }
}

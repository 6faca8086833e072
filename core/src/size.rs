//! Sizes: elements, exact slots and bytes, and XLA's `ArraySize`.

use crate::error::{Error, ErrorKind};
use crate::parse::tri;
use crate::shape::Shape;
use crate::tiling::Tiling;

/// Every size of an array shape, computed at once by [`Shape::sizes`].
///
/// # Examples
/// ```
/// use tilelayout::value::parse_shape;
/// let s = parse_shape("bf16[16,1280,40]{2,1,0:T(8,128)(2,1)}").unwrap().sizes().unwrap();
/// assert_eq!(s.elements, 819200);
/// assert_eq!(s.unpadded_bytes, 1638400);
/// assert_eq!(s.xla_bytes, 5242880); // 40 is padded to 128
/// assert_eq!(s.bytes, 5242880);
/// // XLA's ArraySize ignores padding by later tiles; the exact count does not.
/// let p = parse_shape("u8[327680,327680]{1,0:T(8,128)(4,1)}").unwrap().sizes().unwrap();
/// assert_eq!(p.xla_bytes, 107374182400);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sizes {
    /// The product of the dims.
    pub elements: u64,
    /// Slots of the final expanded shape (every tile level can pad), rounded
    /// up to `L`.
    pub slots: u64,
    /// `slots` × storage bits ÷ 8, rounded up.
    pub bytes: u64,
    /// XLA's `ShapeUtil::ArraySize`: the first tile's padding only, `L` only
    /// when tiled, then `E` bits or the type's byte width per element.
    pub xla_bytes: u64,
    /// The elements alone: `elements` × storage bits ÷ 8, rounded up.
    pub unpadded_bytes: u64,
}

impl Sizes {
    /// Bytes of padding (`bytes - unpadded_bytes`).
    pub const fn padding_bytes(&self) -> u64 {
        self.bytes.saturating_sub(self.unpadded_bytes)
    }

    /// Padding as a percentage of `bytes` (0 for an empty array).
    pub fn padding_percent(&self) -> f64 {
        if self.bytes == 0 {
            0.0
        } else {
            self.padding_bytes() as f64 * 100.0 / self.bytes as f64
        }
    }
}

/// `count × bits ÷ 8`, rounded up, checked.
pub const fn bits_to_bytes(count: u64, bits: u64) -> Result<u64, Error> {
    let total = count as u128 * bits as u128;
    let bytes = total / 8 + !total.is_multiple_of(8) as u128;
    if bytes > u64::MAX as u128 {
        return Err(Error::new(ErrorKind::SizeOverflow));
    }
    Ok(bytes as u64)
}

impl Shape {
    /// The shape with every bounded dynamic dim (`<=N`) at its bound `N`,
    /// as XLA sizes and allocates such arrays: a buffer for
    /// `f32[<=4194304]{0:T(1024)}` holds 4194304 elements. The layout is
    /// kept as written.
    ///
    /// # Errors
    /// [`ErrorKind::DynamicShape`] for an unbounded dim (`?`), which has no
    /// size.
    ///
    /// ```
    /// use tilelayout::value::parse_shape;
    /// let s = parse_shape("f32[4,<=4]{1,0:D(D,C)}").unwrap();
    /// assert!(s.sizes().is_err()); // dynamic
    /// let b = s.at_bound().unwrap();
    /// assert_eq!(b.to_string(), "f32[4,4]{1,0}");
    /// assert_eq!(b.sizes().unwrap().bytes, 64);
    /// assert!(parse_shape("f32[?]").unwrap().at_bound().is_err());
    /// ```
    pub const fn at_bound(&self) -> Result<Shape, Error> {
        let mut out = *self;
        tri!(out.set_dims_at_bound());
        Ok(out)
    }

    /// [`Shape::sizes`] of [`Shape::at_bound`]: the sizes of a bounded
    /// dynamic array at its bound, which is what XLA reserves for it (the
    /// dynamic-size metadata of `M(n)` is not included). For a static shape,
    /// its sizes.
    ///
    /// # Errors
    /// As [`Shape::at_bound`] and [`Shape::sizes`].
    ///
    /// ```
    /// use tilelayout::value::parse_shape;
    /// let z = parse_shape("s32[<=4096]{0:T(8)M(1024)}").unwrap().sizes_at_bound().unwrap();
    /// assert_eq!((z.elements, z.bytes, z.xla_bytes), (4096, 16384, 16384));
    /// let z = parse_shape("f32[<=4194304]{0:T(1024)}").unwrap().sizes_at_bound().unwrap();
    /// assert_eq!(z.xla_bytes, 16777216);
    /// ```
    pub const fn sizes_at_bound(&self) -> Result<Sizes, Error> {
        tri!(self.at_bound()).sizes()
    }

    /// Validates the shape and computes its sizes.
    ///
    /// # Errors
    /// Any validation error; [`ErrorKind::DynamicShape`] for `<=N` or `?`
    /// dims; [`ErrorKind::NotAnArray`] for `token`/`opaque`;
    /// [`ErrorKind::SizeOverflow`] if a byte count overflows `u64`.
    pub const fn sizes(&self) -> Result<Sizes, Error> {
        let t = tri!(self.tiling());
        self.sizes_with(&t)
    }

    /// [`Shape::sizes`] from the shape's tiling, already compiled (the
    /// layout types compute it once for every constant).
    ///
    /// Pre: `t` is [`Shape::tiling`] of this shape; for another tiling
    /// the sizes are unspecified (but no panic).
    ///
    /// # Errors
    /// [`ErrorKind::SizeOverflow`] if a byte count overflows `u64`.
    ///
    /// ```
    /// use tilelayout::value::parse_shape;
    /// let s = parse_shape("bf16[16,1280,40]{2,1,0:T(8,128)(2,1)}").unwrap();
    /// assert_eq!(s.sizes_with(&s.tiling().unwrap()), s.sizes());
    /// ```
    pub const fn sizes_with(&self, t: &Tiling) -> Result<Sizes, Error> {
        let bits = self.storage_bits();
        let layout = self.layout();
        let e = layout.element_size_in_bits;
        let mut count = t.elements();
        if layout.tile_count() > 0 {
            // `L(0)` is invalid (no tiling has it); as 1 if `t` is not
            // this shape's
            let align = match layout.tail_padding_alignment_in_elements {
                0 => 1,
                a => a,
            };
            let first = t.first_level_slots();
            let rounded = first.div_ceil(align);
            count = match rounded.checked_mul(align) {
                Some(v) => v,
                None => return Err(Error::new(ErrorKind::SizeOverflow)),
            };
        }
        let xla_bytes = if e != 0 {
            tri!(bits_to_bytes(count, e))
        } else {
            match count.checked_mul(self.element_type().byte_width() as u64) {
                Some(v) => v,
                None => return Err(Error::new(ErrorKind::SizeOverflow)),
            }
        };
        Ok(Sizes {
            elements: t.elements(),
            slots: t.slots(),
            bytes: tri!(bits_to_bytes(t.slots(), bits)),
            xla_bytes,
            unpadded_bytes: tri!(bits_to_bytes(t.elements(), bits)),
        })
    }
}

//! Validation: XLA's rules, then ours.

use crate::error::{Attr, Error, ErrorKind};
use crate::parse::tri;
use crate::shape::{Dim, Shape, Tile, TileDim};
use crate::tiling::Tiling;
use crate::MAX_RANK;

impl Shape {
    /// Checks the shape and its layout against XLA's rules and ours.
    ///
    /// XLA's (`ShapeUtil::ValidateShapeWithOptionalLayout`,
    /// `LayoutUtil::ValidateLayoutForShape`): `token`/`opaque` take no dims;
    /// the dims' product fits `i64`; `minor_to_major` is a permutation of the
    /// dims; tiles are non-empty with dims > 0 or `*`; `L` ≥ 1; no sparse
    /// attributes `#(…)`/`*(…)`; split configs name a physical dim, once,
    /// with strictly increasing positive indices inside the dim.
    ///
    /// Ours: `*` is not the most-minor dim of a tile; the tiled size fits
    /// `u64`; tiling expands to at most [`crate::MAX_EXPANDED_RANK`] dims.
    /// (Integers above `i64::MAX` were already refused by the parser.)
    ///
    /// # Errors
    /// The first rule broken, in the order above. The error has no byte
    /// position; [`crate::parse_valid_shape`] adds it.
    ///
    /// # Examples
    /// ```
    /// use tilelayout::value::{parse_shape, ErrorKind};
    /// let bad = parse_shape("bf16[2,3,1004]{2,1,0:T(2,128,*)}").unwrap();
    /// assert_eq!(bad.validate().unwrap_err().kind, ErrorKind::CombineMostMinor { tile: 0 });
    /// assert!(parse_shape("bf16[2,3,1004]{2,1,0:T(2,*,128)}").unwrap().validate().is_ok());
    /// assert!(parse_shape("token[]").unwrap().validate().is_ok());
    /// ```
    pub const fn validate(&self) -> Result<(), Error> {
        tri!(self.validate_structure());
        // token[] and opaque[] are valid and have no tiling
        if self.is_static() && self.element_type().is_array_type() {
            tri!(Tiling::build(self));
        }
        Ok(())
    }

    /// Every rule that does not need the tiled sizes.
    pub(crate) const fn validate_structure(&self) -> Result<(), Error> {
        let rank = self.rank();
        let layout = self.layout();
        if !self.element_type().is_array_type() {
            if rank > 0 || layout.has_attributes() || !layout.minor_to_major().is_empty() {
                return Err(Error::new(ErrorKind::NotAnArrayType));
            }
            return Ok(());
        }
        // XLA: the product of the dims (bounds for dynamic ones) fits i64.
        let dims = self.dims();
        let mut product: u64 = 1;
        let mut i = 0;
        while i < rank {
            let n = match dims[i] {
                Dim::Static(n) | Dim::Bounded(n) => n,
                Dim::Unbounded => 1,
            };
            product = match product.checked_mul(n) {
                Some(p) if p <= i64::MAX as u64 => p,
                _ => return Err(Error::new(ErrorKind::DimsOverflow)),
            };
            i += 1;
        }
        // XLA: minor_to_major is a permutation of 0..rank.
        let m2m = layout.minor_to_major();
        if m2m.len() != rank {
            return Err(Error::new(ErrorKind::MinorToMajorLength {
                rank: rank as u32,
                found: m2m.len() as u32,
            }));
        }
        let mut seen = [false; MAX_RANK];
        let mut i = 0;
        while i < rank {
            let v = m2m[i];
            if v < 0 || v >= rank as i64 {
                return Err(Error::new(ErrorKind::MinorToMajorRange {
                    position: i as u32,
                    value: v,
                }));
            }
            if seen[v as usize] {
                return Err(Error::new(ErrorKind::MinorToMajorRepeat {
                    position: i as u32,
                    value: v,
                }));
            }
            seen[v as usize] = true;
            i += 1;
        }
        // XLA: tiles are non-empty, dims > 0 or `*`; ours: `*` not last.
        let tiles = layout.tiles();
        let mut ti = 0;
        while ti < tiles.len() {
            tri!(validate_tile(&tiles[ti], ti as u32));
            ti += 1;
        }
        if layout.tail_padding_alignment_in_elements == 0 {
            return Err(Error::new(ErrorKind::ZeroTailPadding));
        }
        if layout.index_primitive_type.is_some() {
            return Err(Error::new(ErrorKind::SparseAttribute {
                attr: Attr::IndexType,
            }));
        }
        if layout.pointer_primitive_type.is_some() {
            return Err(Error::new(ErrorKind::SparseAttribute {
                attr: Attr::PointerType,
            }));
        }
        // XLA: split configs.
        let scs = layout.split_configs();
        let mut si = 0;
        while si < scs.len() {
            let sc = &scs[si];
            let split = si as u32;
            if sc.dimension >= rank as u64 {
                return Err(Error::new(ErrorKind::SplitDimRange { split }));
            }
            let mut j = 0;
            while j < si {
                if scs[j].dimension == sc.dimension {
                    return Err(Error::new(ErrorKind::SplitRepeat { split }));
                }
                j += 1;
            }
            // physical dim p is logical dim minor_to_major[rank-1-p]
            let logical = m2m[rank - 1 - sc.dimension as usize] as usize;
            let idx = sc.indices();
            let mut prev = 0u64;
            let mut j = 0;
            while j < idx.len() {
                if idx[j] <= prev {
                    return Err(Error::new(ErrorKind::SplitIndices { split }));
                }
                prev = idx[j];
                if let Dim::Static(n) = dims[logical] {
                    if idx[j] >= n {
                        return Err(Error::new(ErrorKind::SplitOutsideDim { split }));
                    }
                }
                j += 1;
            }
            si += 1;
        }
        Ok(())
    }
}

impl crate::XlaLayout {
    /// Checks a layout without its shape: every rule of [`Shape::validate`]
    /// that does not need the dims, for a shape of rank
    /// `minor_to_major().len()` (split indices are not checked against the
    /// dims' sizes, and sizes are not computed).
    ///
    /// ```
    /// use tilelayout::value::{parse_layout, ErrorKind};
    /// assert!(parse_layout("{1,0:T(8,128)(2,1)}").unwrap().validate().is_ok());
    /// let e = parse_layout("{0,0}").unwrap().validate().unwrap_err();
    /// assert_eq!(e.kind, ErrorKind::MinorToMajorRepeat { position: 1, value: 0 });
    /// ```
    pub const fn validate(&self) -> Result<(), Error> {
        let rank = self.minor_to_major().len();
        let mut shape = Shape::empty(crate::PrimitiveType::F32);
        let mut i = 0;
        while i < rank {
            let _ = shape.push_dim(Dim::Unbounded);
            i += 1;
        }
        shape.set_layout(*self, true);
        shape.validate_structure()
    }
}

impl Shape {
    /// Ours, for layout types: checks that every dim, tile dim and the `L`
    /// and `E` attributes fit a `usize` of `bits` bits (a layout type holds
    /// them as `usize` const parameters, so on a 32-bit target
    /// `T(9223372036854775807)` has no type). Run it with the target's
    /// `usize::BITS`; `minor_to_major` entries are below the rank, and `S`
    /// is 8 bits.
    ///
    /// # Errors
    /// [`ErrorKind::TooLargeForTarget`] for the first value that does not
    /// fit (dims, then tiles in order, then `L`, then `E`).
    ///
    /// # Examples
    /// ```
    /// use tilelayout::value::{parse_shape, ErrorKind};
    /// let s = parse_shape("s8[0]{0:T(9223372036854775807)(8,1)}").unwrap();
    /// assert!(s.check_pointer_width(64).is_ok());
    /// let e = s.check_pointer_width(32).unwrap_err();
    /// assert_eq!(e.kind, ErrorKind::TooLargeForTarget { value: 9223372036854775807, bits: 32 });
    /// ```
    pub const fn check_pointer_width(&self, bits: u32) -> Result<(), Error> {
        let max = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let dims = self.dims();
        let mut i = 0;
        while i < dims.len() {
            if let Dim::Static(n) | Dim::Bounded(n) = dims[i] {
                if n > max {
                    return Err(too_large_for_target(bits, n));
                }
            }
            i += 1;
        }
        let layout = self.layout();
        let tiles = layout.tiles();
        let mut t = 0;
        while t < tiles.len() {
            let mut j = 0;
            while j < tiles[t].rank() {
                if let TileDim::Size(n) = tiles[t].dim(j) {
                    if n > max {
                        return Err(too_large_for_target(bits, n));
                    }
                }
                j += 1;
            }
            t += 1;
        }
        if layout.tail_padding_alignment_in_elements > max {
            return Err(too_large_for_target(
                bits,
                layout.tail_padding_alignment_in_elements,
            ));
        }
        if layout.element_size_in_bits > max {
            return Err(too_large_for_target(bits, layout.element_size_in_bits));
        }
        Ok(())
    }
}

const fn too_large_for_target(bits: u32, value: u64) -> Error {
    Error::new(ErrorKind::TooLargeForTarget { value, bits })
}

/// Checks one tile: non-empty, every dim positive or `*`, and (ours) the
/// last dim is not `*`.
pub const fn validate_tile(tile: &Tile, index: u32) -> Result<(), Error> {
    if tile.rank() == 0 {
        return Err(Error::new(ErrorKind::EmptyTile { tile: index }));
    }
    let mut j = 0;
    while j < tile.rank() {
        if let TileDim::Size(0) = tile.dim(j) {
            return Err(Error::new(ErrorKind::ZeroTileDim {
                tile: index,
                dim: j as u32,
            }));
        }
        j += 1;
    }
    if let TileDim::Combine = tile.dim(tile.rank() - 1) {
        return Err(Error::new(ErrorKind::CombineMostMinor { tile: index }));
    }
    Ok(())
}

/// The storage rule for `E(n)` (ours; see [`ErrorKind::ElementSize`]):
/// `n` is 0 (the type's own width) or a power of two from 1 to 128 bits.
///
/// XLA's validation accepts any `n` ≥ 0 (`LayoutUtil::ValidateLayoutForShape`
/// in openxla/xla `xla/layout_util.cc` at 4a1c19f7 has no check on it), and
/// so do [`Shape::validate`] and the sizes here. What can be *stored* is
/// narrower: a slot must not straddle a byte boundary (XLA's own packing,
/// `PackIntN` in `xla/util.h`, handles 1, 2 and 4 bits) and a whole-byte slot
/// must be a unit the relayout kernels move. This one rule decides for layout
/// types, `layout!`, views and relayout plans. `n` may be below the value
/// width: `s8[21]{0:E(4)}` (XLA's GPU int4 path) stores each s8 in 4 bits,
/// so values must fit 4 bits; `n` may be above it: `pred[…]{…:E(32)}` stores
/// each pred in a 32-bit word, as older TPUs do.
///
/// ```
/// use tilelayout::value::check_element_size;
/// assert!(check_element_size(0).is_ok());
/// assert!(check_element_size(4).is_ok()); // s4, or s8 in XLA's int4 path
/// assert!(check_element_size(32).is_ok()); // pred in a 32-bit word
/// assert!(check_element_size(6).is_err()); // straddles bytes
/// assert!(check_element_size(24).is_err()); // no 24-bit unit
/// ```
pub const fn check_element_size(bits: u64) -> Result<(), Error> {
    if bits == 0 || (bits <= 128 && bits.is_power_of_two()) {
        return Ok(());
    }
    Err(Error::new(ErrorKind::ElementSize { bits }))
}

#[cfg(test)]
mod tests {
    use crate::{parse_shape, ErrorKind};

    /// The layout-type width rule on both pointer widths, whatever the
    /// host's (the `layout!` macro runs on the host and the library's
    /// const check runs it with the target's `usize::BITS`).
    #[test]
    fn pointer_width_rule_on_32_and_64_bit_targets() {
        let too_large = |value, bits| Err(ErrorKind::TooLargeForTarget { value, bits });
        type Verdict = Result<(), ErrorKind>;
        let cases: [(&str, Verdict, Verdict); 7] = [
            (
                "s8[0]{0:T(9223372036854775807)(8,1)}",
                too_large(9223372036854775807, 32),
                Ok(()),
            ),
            ("u8[4294967296]", too_large(4294967296, 32), Ok(())),
            ("u8[4294967295]{0:T(4294967295)}", Ok(()), Ok(())),
            ("f32[<=4294967296]", too_large(4294967296, 32), Ok(())),
            (
                "f32[8]{0:T(8)L(4294967296)}",
                too_large(4294967296, 32),
                Ok(()),
            ),
            (
                "s8[3,5]{1,0:T(2,*,4294967296)}",
                too_large(4294967296, 32),
                Ok(()),
            ),
            ("bf16[8,128]{1,0:T(8,128)(2,1)}", Ok(()), Ok(())),
        ];
        for (text, at32, at64) in cases {
            let s = parse_shape(text).unwrap();
            assert_eq!(
                s.check_pointer_width(32).map_err(|e| e.kind),
                at32,
                "{text}"
            );
            assert_eq!(
                s.check_pointer_width(64).map_err(|e| e.kind),
                at64,
                "{text}"
            );
        }
        let e = parse_shape("s8[0]{0:T(9223372036854775807)(8,1)}")
            .unwrap()
            .check_pointer_width(32)
            .unwrap_err();
        assert_eq!(
            e.describe().as_str(),
            "9223372036854775807 does not fit in usize on a 32-bit target; \
             layout types hold dims, tiles and attributes as usize"
        );
        // 16-bit targets: the first value past 65535
        let s = parse_shape("f32[3,65536]").unwrap();
        assert_eq!(
            s.check_pointer_width(16).map_err(|e| e.kind),
            too_large(65536, 16)
        );
    }
}

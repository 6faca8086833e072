//! The TPU tiling formats as values: named [`XlaLayout`]s that carry tiles
//! (and `E(n)` for packed sub-byte types) but no `minor_to_major`, and the
//! `const fn` builders the policy uses.
//!
//! A format is a [`XlaLayout`] with an empty `minor_to_major`; it prints as
//! `{:T(8,128)(2,1)}`. Put it on a shape with [`with_minor_to_major`]. Every
//! item is `const`, so a type alias can evaluate it at compile time.
//!
//! | format | text | for |
//! |---|---|---|
//! | [`UNTILED`] | `{}` | arrays off the TPU |
//! | [`TILE_8_128`] | `T(8,128)` | 32-bit types |
//! | [`TILE_1_128`], [`TILE_2_128`], [`TILE_4_128`] | `T(1,128)` … | 32-bit, second-minor dim 1, 2, 3–4 |
//! | [`TILE_16BIT`] | `T(8,128)(2,1)` | 16-bit types (two rows per 32-bit word) |
//! | [`TILE_8BIT`] | `T(8,128)(4,1)` | 8-bit types and `pred` |
//! | [`TILE_4BIT`] | `T(8,128)(8,1)E(4)` | 4-bit types, packed |
//! | [`TILE_1BIT`] | `T(32,128)(32,1)E(1)` | a 1-bit `pred` format (not what the compiler picks) |
//!
//! Sources: the tiling formats XLA's documentation and notes on TPU
//! layouts describe (32-bit `(8,128)` matching the 8×128 32-bit vector
//! registers, the compact `(2,128)`/`(4,128)` tiles for a small
//! second-minor dim, `(2,1)` and `(4,1)` row packing for 16- and 8-bit
//! types); the small tiles, rank-1 and scalar tiles from real TPU compiler
//! output (see [`super::policy`]).

use crate::value::{Error, ErrorKind, PrimitiveType, Tile, XlaLayout};

/// Lanes of a TPU vector register: the most-minor tile dim of every format.
pub const LANES: u64 = 128;

/// The largest rank-1 tile XLA's TPU compiler picks (`T(1024)`), in
/// elements, whatever the element width.
pub const MAX_RANK1_TILE: u64 = 1024;

const fn tile1(a: u64) -> Tile {
    match Tile::of(&[a]) {
        Some(t) => t,
        None => Tile::EMPTY,
    }
}

const fn tile2(a: u64, b: u64) -> Tile {
    match Tile::of(&[a, b]) {
        Some(t) => t,
        None => Tile::EMPTY,
    }
}

/// A format from up to three tiles and `E(n)` (0 = the type's own width).
const fn format(
    first: Tile,
    second: Option<Tile>,
    third: Option<Tile>,
    element_size_in_bits: u64,
) -> XlaLayout {
    let mut l = XlaLayout::EMPTY;
    // At most 3 ≤ MAX_TILES tiles: push cannot fail.
    l.push_tile(first);
    if let Some(t) = second {
        l.push_tile(t);
    }
    if let Some(t) = third {
        l.push_tile(t);
    }
    l.element_size_in_bits = element_size_in_bits;
    l
}

/// No tiles: `{}`. Most arrays not on the TPU are untiled.
pub const UNTILED: XlaLayout = XlaLayout::EMPTY;

/// `T(8,128)`: the TPU tile, one 8×128 vector register of 32-bit values.
///
/// ```
/// assert_eq!(tilelayout::tpu::TILE_8_128.to_string(), "{:T(8,128)}");
/// ```
pub const TILE_8_128: XlaLayout = format(tile2(8, LANES), None, None, 0);

/// `T(1,128)`: the 32-bit small tile when the second-minor dim is 1 (real
/// compiler output; descriptions of the formats say `(2,128)`, see
/// [`super::policy`]).
pub const TILE_1_128: XlaLayout = format(tile2(1, LANES), None, None, 0);

/// `T(2,128)`: the "compact 2nd minor" tile when the second-minor dim is 2.
pub const TILE_2_128: XlaLayout = format(tile2(2, LANES), None, None, 0);

/// `T(4,128)`: the compact tile when the second-minor dim is 3 or 4.
pub const TILE_4_128: XlaLayout = format(tile2(4, LANES), None, None, 0);

/// `T(8,128)(2,1)`: 16-bit types; the `(2,1)` tile packs an even and an odd
/// row into one 32-bit word ("BF16 packing").
///
/// ```
/// assert_eq!(tilelayout::tpu::TILE_16BIT.to_string(), "{:T(8,128)(2,1)}");
/// ```
pub const TILE_16BIT: XlaLayout = format(tile2(8, LANES), Some(tile2(2, 1)), None, 0);

/// `T(8,128)(4,1)`: 8-bit types (and `pred`, one byte each on today's TPUs),
/// four rows per 32-bit word.
pub const TILE_8BIT: XlaLayout = format(tile2(8, LANES), Some(tile2(4, 1)), None, 0);

/// `T(8,128)(8,1)E(4)`: 4-bit types packed eight rows per 32-bit word, each
/// element stored in 4 bits: the 8-bit format's packing carried on to
/// 4 bits (XLA's parser round-trips it); no 4-bit array occurs in the
/// calibration data, so this is extrapolated.
///
/// ```
/// assert_eq!(tilelayout::tpu::TILE_4BIT.to_string(), "{:T(8,128)(8,1)E(4)}");
/// ```
pub const TILE_4BIT: XlaLayout = format(tile2(8, LANES), Some(tile2(8, 1)), None, 4);

/// `T(32,128)(32,1)E(1)`: a 1-bit format for `pred`, less wasteful than
/// one byte per element (32 rows packed into a 32-bit word). A format you can
/// ask for, not one the policy picks: XLA's TPU compiler stores `pred` in a
/// byte ([`TILE_8BIT`]), as the calibration data shows.
///
/// ```
/// assert_eq!(tilelayout::tpu::TILE_1BIT.to_string(), "{:T(32,128)(32,1)E(1)}");
/// ```
pub const TILE_1BIT: XlaLayout = format(tile2(32, LANES), Some(tile2(32, 1)), None, 1);

/// How many elements of `ty` the TPU packs into one 32-bit word: 1 for
/// 32-bit types, 2 for 16-bit, 4 for 8-bit and `pred` (stored in a byte), 8
/// for 4-bit types. `None` for types without a TPU format here (64-bit,
/// complex, 1- and 2-bit integers, `token`, `opaque`).
///
/// ```
/// use tilelayout::{tpu::packing, value::PrimitiveType};
/// assert_eq!(packing(PrimitiveType::BF16), Some(2));
/// assert_eq!(packing(PrimitiveType::Pred), Some(4));
/// assert_eq!(packing(PrimitiveType::F64), None);
/// ```
pub const fn packing(ty: PrimitiveType) -> Option<u64> {
    if matches!(ty, PrimitiveType::Pred) {
        return Some(4);
    }
    match ty.bit_width() {
        32 => Some(1),
        16 => Some(2),
        8 => Some(4),
        4 => Some(8),
        _ => None,
    }
}

/// The `E(n)` a TPU format gives `ty`: 4 for 4-bit types (packed), 0 (the
/// type's own byte width) otherwise.
pub const fn element_size_in_bits(ty: PrimitiveType) -> u64 {
    if ty.bit_width() == 4 {
        4
    } else {
        0
    }
}

/// The packing tile `(p,1)` after the first tile, if `p > 1`.
const fn packing_tile(p: u64) -> Option<Tile> {
    if p > 1 {
        Some(tile2(p, 1))
    } else {
        None
    }
}

/// The rank ≥ 2 format with `rows` rows for `ty`: `T(rows,128)` then the
/// packing tile `(p,1)` and `E(4)` where the type needs them. `None` if
/// [`packing`] has no answer for `ty`.
///
/// ```
/// use tilelayout::{tpu, value::PrimitiveType};
/// assert_eq!(tpu::tile_2d(8, PrimitiveType::BF16), Some(tpu::TILE_16BIT));
/// assert_eq!(tpu::tile_2d(4, PrimitiveType::S8).unwrap().to_string(), "{:T(4,128)(4,1)}");
/// ```
pub const fn tile_2d(rows: u64, ty: PrimitiveType) -> Option<XlaLayout> {
    match packing(ty) {
        Some(p) => Some(format(
            tile2(rows, LANES),
            packing_tile(p),
            None,
            element_size_in_bits(ty),
        )),
        None => None,
    }
}

/// The rank-1 format with a first tile of `len` elements: `T(len)` for
/// 32-bit types, `T(len)(128)(p,1)` for packed ones (the 1-D array is cut
/// into rows of 128 and `p` rows share a word).
///
/// ```
/// use tilelayout::{tpu, value::PrimitiveType};
/// assert_eq!(tpu::tile_1d(512, PrimitiveType::F32).unwrap().to_string(), "{:T(512)}");
/// assert_eq!(tpu::tile_1d(1024, PrimitiveType::BF16).unwrap().to_string(), "{:T(1024)(128)(2,1)}");
/// ```
pub const fn tile_1d(len: u64, ty: PrimitiveType) -> Option<XlaLayout> {
    match packing(ty) {
        Some(1) => Some(format(tile1(len), None, None, element_size_in_bits(ty))),
        Some(p) => Some(format(
            tile1(len),
            Some(tile1(LANES)),
            packing_tile(p),
            element_size_in_bits(ty),
        )),
        None => None,
    }
}

/// The scalar format: one tile of `128 × p` elements, `T(128)` for 32-bit
/// types, `T(256)` for 16-bit, `T(512)` for 8-bit and `pred` (no packing
/// tile: a scalar has no rows to pack).
///
/// ```
/// use tilelayout::{tpu, value::PrimitiveType};
/// assert_eq!(tpu::tile_scalar(PrimitiveType::BF16).unwrap().to_string(), "{:T(256)}");
/// ```
pub const fn tile_scalar(ty: PrimitiveType) -> Option<XlaLayout> {
    match packing(ty) {
        Some(p) => Some(format(
            tile1(LANES * p),
            None,
            None,
            element_size_in_bits(ty),
        )),
        None => None,
    }
}

/// `format` with `minor_to_major` set: the layout to put on a shape.
///
/// # Errors
/// [`ErrorKind::TooManyDims`] if `minor_to_major` has more entries than
/// [`crate::value::MAX_RANK`]. The entries are not checked against a shape
/// here; [`crate::value::Shape::validate`] does that.
///
/// ```
/// use tilelayout::{tpu, value::{PrimitiveType, Shape}};
/// let l = tpu::with_minor_to_major(tpu::TILE_16BIT, &[1, 0])?;
/// let s = Shape::new(PrimitiveType::BF16, &[1024, 1024]).unwrap().with_layout(l);
/// assert_eq!(s.to_string(), "bf16[1024,1024]{1,0:T(8,128)(2,1)}");
/// # Ok::<(), tilelayout::value::Error>(())
/// ```
pub const fn with_minor_to_major(
    format: XlaLayout,
    minor_to_major: &[i64],
) -> Result<XlaLayout, Error> {
    let mut l = XlaLayout::EMPTY;
    let mut i = 0;
    while i < minor_to_major.len() {
        if !l.push_minor_to_major(minor_to_major[i]) {
            return Err(Error::new(ErrorKind::TooManyDims));
        }
        i += 1;
    }
    let tiles = format.tiles();
    let mut j = 0;
    while j < tiles.len() {
        // Both layouts hold at most MAX_TILES tiles.
        l.push_tile(tiles[j]);
        j += 1;
    }
    l.tail_padding_alignment_in_elements = format.tail_padding_alignment_in_elements;
    l.element_size_in_bits = format.element_size_in_bits;
    l.memory_space = format.memory_space;
    l.dynamic_shape_metadata_prefix_bytes = format.dynamic_shape_metadata_prefix_bytes;
    let splits = format.split_configs();
    let mut k = 0;
    while k < splits.len() {
        l.push_split_config(splits[k]);
        k += 1;
    }
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_formats_are_the_builders_outputs() {
        use PrimitiveType::*;
        assert_eq!(tile_2d(8, F32), Some(TILE_8_128));
        assert_eq!(tile_2d(1, S32), Some(TILE_1_128));
        assert_eq!(tile_2d(2, U32), Some(TILE_2_128));
        assert_eq!(tile_2d(4, F32), Some(TILE_4_128));
        assert_eq!(tile_2d(8, F16), Some(TILE_16BIT));
        assert_eq!(tile_2d(8, Pred), Some(TILE_8BIT));
        assert_eq!(tile_2d(8, S4), Some(TILE_4BIT));
        assert_eq!(tile_2d(8, F64), None);
    }

    #[test]
    fn builders_are_const() {
        const L: XlaLayout = match tile_1d(256, PrimitiveType::BF16) {
            Some(l) => l,
            None => panic!(),
        };
        const { assert!(L.tile_count() == 3) };
        const M: Result<XlaLayout, Error> = with_minor_to_major(TILE_8BIT, &[0, 1]);
        const { assert!(M.is_ok()) };
        const { assert!(matches!(packing(PrimitiveType::S4), Some(8))) };
    }

    #[test]
    fn too_long_minor_to_major_is_an_error() {
        let m2m = [0i64; crate::value::MAX_RANK + 1];
        assert_eq!(
            with_minor_to_major(TILE_8_128, &m2m).unwrap_err().kind,
            ErrorKind::TooManyDims
        );
    }
}

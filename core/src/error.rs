//! Errors: one type for the whole core, built in `const fn`, with a byte
//! range into the input text and one fixed message per kind.
//!
//! Map of the kinds, in the order the checks run:
//! 1. syntax (the parser): `Unexpected`, `UnexpectedEnd`, `UnknownType`,
//!    `IntegerTooLarge`, `Negative`, `TrailingInput`, capacity limits, the
//!    obsolete attributes we reject;
//! 2. XLA's validity rules (`ShapeUtil::ValidateShapeWithOptionalLayout`,
//!    `LayoutUtil::ValidateLayoutForShape`);
//! 3. ours, beyond XLA (documented on each variant);
//! 4. use: asking a size or an index of something that has none.

use crate::text::TextBuf;

/// A byte range `start..end` into the text an error came from. Errors about
/// values that were not parsed (constructed in code) carry [`Span::NONE`].
/// Positions saturate at `u32::MAX - 1` (inputs past 4 GiB).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// No position: the error is about a value that did not come from text.
    pub const NONE: Span = Span {
        start: u32::MAX,
        end: u32::MAX,
    };

    /// A span from `start` to `end` (bytes).
    pub const fn new(start: usize, end: usize) -> Span {
        const MAX: usize = u32::MAX as usize - 1;
        let s = if start > MAX { MAX } else { start };
        let e = if end > MAX { MAX } else { end };
        Span {
            start: s as u32,
            end: e as u32,
        }
    }

    /// Whether this is [`Span::NONE`].
    pub const fn is_none(&self) -> bool {
        self.start == u32::MAX
    }
}

/// Which layout attribute an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Attr {
    /// `D(…)`, obsolete dim level types (accepted and dropped).
    DimLevelTypes,
    /// `T(…)…`, tiles.
    Tiles,
    /// `L(n)`, tail padding alignment in elements.
    TailPadding,
    /// `#(type)`, obsolete sparse index type.
    IndexType,
    /// `*(type)`, obsolete sparse pointer type.
    PointerType,
    /// `E(n)`, element size in bits.
    ElementSize,
    /// `S(n)`, memory space.
    MemorySpace,
    /// `SC(…)…`, split configs.
    SplitConfigs,
    /// `P(shape)`, obsolete physical shape (rejected).
    PhysicalShape,
    /// `M(n)`, dynamic shape metadata prefix bytes.
    DynamicMetadata,
}

impl Attr {
    /// The attribute as written in the text.
    pub const fn text(self) -> &'static str {
        match self {
            Attr::DimLevelTypes => "D",
            Attr::Tiles => "T",
            Attr::TailPadding => "L",
            Attr::IndexType => "#",
            Attr::PointerType => "*",
            Attr::ElementSize => "E",
            Attr::MemorySpace => "S",
            Attr::SplitConfigs => "SC",
            Attr::PhysicalShape => "P",
            Attr::DynamicMetadata => "M",
        }
    }
}

/// What went wrong. See the module docs for the groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    // ---- syntax -----------------------------------------------------------
    /// Syntax: the text has `found` where `expected` belongs.
    Unexpected {
        /// What the grammar allows here.
        expected: &'static str,
        /// The byte found (ASCII), or 0 for a non-ASCII byte.
        found: u8,
    },
    /// Syntax: the text ends where `expected` belongs.
    UnexpectedEnd {
        /// What the grammar allows here.
        expected: &'static str,
    },
    /// Syntax: not an XLA primitive type name (`i32`, `f32x`, `opaque_type`).
    UnknownType,
    /// Syntax: an uppercase type name (`F32`) in a strict (XLA-exact) parse.
    UppercaseType,
    /// Syntax (ours): an integer above 2^63−1; XLA stores dims, tiles and
    /// sizes in `i64` and silently turns 2^63 into `*` in a tile.
    IntegerTooLarge,
    /// Syntax: a minus sign where only non-negative integers are allowed
    /// (dims, tile dims, `L`, `E`, `M`, split configs).
    Negative,
    /// Syntax: a `/*` comment without its `*/`.
    UnterminatedComment,
    /// Syntax: text left after a complete shape or layout.
    TrailingInput,
    /// Syntax: an attribute out of XLA's fixed order `T L # * E S SC M`, or
    /// given twice.
    AttributeOrder {
        /// The attribute found.
        found: Attr,
    },
    /// Syntax: the type in `#(…)` or `*(…)` is not an unsigned integer type
    /// (XLA records this error, then prints `#(invalid)`; we stop).
    SparseType,
    /// Syntax (ours): `S(n)` outside −128..=127. XLA stores the memory space
    /// in 8 bits and wraps (`S(128)` prints `S(-128)`); we refuse instead.
    MemorySpaceRange,
    /// Rejected: an obsolete sparse-array attribute we do not support
    /// (`P(shape)`).
    Obsolete {
        /// Which one.
        attr: Attr,
    },
    /// Capacity: more dims than [`crate::MAX_RANK`].
    TooManyDims,
    /// Capacity: more tiles than [`crate::MAX_TILES`].
    TooManyTiles,
    /// Capacity: a tile with more dims than [`crate::MAX_TILE_RANK`].
    TileTooLong,
    /// Capacity: more split configs than [`crate::MAX_SPLIT_CONFIGS`], or
    /// more indices in one than [`crate::MAX_SPLIT_INDICES`].
    TooManySplits,
    /// Capacity: tuples nested deeper than [`crate::MAX_NESTING`].
    TooDeep,

    // ---- XLA's validity rules ---------------------------------------------
    /// XLA: `minor_to_major` must have one entry per dim.
    MinorToMajorLength {
        /// The shape's rank.
        rank: u32,
        /// Entries given.
        found: u32,
    },
    /// XLA: a `minor_to_major` entry is not a dim of the shape.
    MinorToMajorRange {
        /// Position in `minor_to_major`.
        position: u32,
        /// The entry.
        value: i64,
    },
    /// XLA: a dim appears twice in `minor_to_major`.
    MinorToMajorRepeat {
        /// Position of the second occurrence in `minor_to_major`.
        position: u32,
        /// The repeated dim.
        value: i64,
    },
    /// XLA: a tile with no dims, `T()`.
    EmptyTile {
        /// Which tile (0 = first).
        tile: u32,
    },
    /// XLA: a tile dim of 0 (tile dims must be positive or `*`).
    ZeroTileDim {
        /// Which tile.
        tile: u32,
        /// Which dim of the tile.
        dim: u32,
    },
    /// XLA: `L(0)`; the alignment must be at least 1.
    ZeroTailPadding,
    /// XLA: `#(type)` or `*(type)` on a dense array (sparse arrays are gone).
    SparseAttribute {
        /// Which one.
        attr: Attr,
    },
    /// XLA: a split config names a physical dim the shape does not have.
    SplitDimRange {
        /// Which split config.
        split: u32,
    },
    /// XLA: split indices must be strictly increasing and positive.
    SplitIndices {
        /// Which split config.
        split: u32,
    },
    /// XLA: a split index at or past the end of its dim.
    SplitOutsideDim {
        /// Which split config.
        split: u32,
    },
    /// XLA: two split configs for the same physical dim.
    SplitRepeat {
        /// Which split config.
        split: u32,
    },
    /// XLA: the product of the dims does not fit in `i64`.
    DimsOverflow,
    /// XLA: `token` and `opaque` have no dims and no layout attributes.
    NotAnArrayType,

    // ---- ours -------------------------------------------------------------
    /// Ours: `*` as the most-minor dim of a tile has no more-minor dim to
    /// combine into. XLA's text accepts it (its proto does not).
    CombineMostMinor {
        /// Which tile.
        tile: u32,
    },
    /// Ours: the tiled size (slots) or a combined dim does not fit in `u64`;
    /// XLA would wrap.
    SizeOverflow,
    /// Ours, for storage (layout types, `layout!`, views and relayout;
    /// parsing, validation and sizes follow XLA, which accepts any `E`):
    /// `E(n)` must be 0 or a power of two from 1 to 128, so that a slot
    /// never straddles a byte boundary and whole-byte slots are units the
    /// relayout moves. See [`crate::check_element_size`].
    ElementSize {
        /// The `n` of `E(n)`.
        bits: u64,
    },
    /// Ours: tiling expands the shape to more than
    /// [`crate::MAX_EXPANDED_RANK`] dims.
    ExpandedTooLong,
    /// Ours, for layout types, which hold dims, tile dims and attributes
    /// as `usize` const parameters: a value does not fit the target's
    /// `usize` (runtime values hold them as `u64`). See
    /// [`crate::Shape::check_pointer_width`].
    TooLargeForTarget {
        /// The value.
        value: u64,
        /// The target's pointer width in bits.
        bits: u32,
    },

    // ---- use ----------------------------------------------------------------
    /// Use: sizes and indices need static dims; this shape has `<=N` or `?`.
    DynamicShape,
    /// Use: sizes and indices are defined for arrays, not for tuples,
    /// buffers, `token` or `opaque` (for tuples use [`crate::walk`]).
    NotAnArray,
    /// Use: an index with the wrong number of coordinates.
    IndexRank {
        /// The shape's rank.
        rank: u32,
        /// Coordinates given.
        found: u32,
    },
    /// Use: a coordinate outside its dim.
    IndexOutOfBounds {
        /// The dim.
        dim: u32,
        /// The coordinate.
        index: u64,
        /// The dim's size.
        size: u64,
    },
    /// Use: a slot past the end of the layout's storage.
    SlotOutOfBounds {
        /// The slot.
        slot: u64,
        /// The number of slots.
        slots: u64,
    },
}

/// An error with the byte range of the text it is about.
///
/// `Display` prints the message and, for parsed text, `at byte N`.
///
/// # Examples
/// ```
/// use tilelayout::value::{parse_shape, ErrorKind};
/// let e = parse_shape("f32[3,5]{1,0:T(0,2)}").unwrap().validate().unwrap_err();
/// assert_eq!(e.kind, ErrorKind::ZeroTileDim { tile: 0, dim: 0 });
/// let e = tilelayout::value::parse_valid_shape("f32[3,5]{1,0:T(0,2)}").unwrap_err();
/// assert_eq!((e.span.start, e.span.end), (15, 16));
/// assert_eq!(e.to_string(), "tile 0 has a zero dim (dim 0); tile dims must be positive or `*` at byte 15");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Where, in the text parsed (`Span::NONE` for constructed values).
    pub span: Span,
}

impl Error {
    /// An error of `kind` with no position.
    pub const fn new(kind: ErrorKind) -> Error {
        Error {
            kind,
            span: Span::NONE,
        }
    }

    /// An error of `kind` at `start..end`.
    pub const fn at(kind: ErrorKind, start: usize, end: usize) -> Error {
        Error {
            kind,
            span: Span::new(start, end),
        }
    }

    /// The message, without the position, in a const-built buffer (so a
    /// compile-time check can `panic!("{}", e.message().as_str())`).
    pub const fn message(&self) -> TextBuf<160> {
        let mut t = TextBuf::new();
        match self.kind {
            ErrorKind::Unexpected { expected, found } => {
                t.push_expected_found(expected, found, false, "a non-printable or non-ASCII byte")
            }
            ErrorKind::UnexpectedEnd { expected } => t.push_unexpected_end(expected),
            ErrorKind::UnknownType => t.push_str(
                "unknown element type; expected an XLA type such as f32, bf16, s8, s4, pred, f8e4m3fn",
            ),
            ErrorKind::UppercaseType => {
                t.push_str("XLA spells element types in lowercase (f32, not F32)")
            }
            ErrorKind::IntegerTooLarge => {
                t.push_str("integer too large; XLA stores it in i64 (at most 9223372036854775807)")
            }
            ErrorKind::Negative => t.push_str("expected a non-negative integer, found `-`"),
            ErrorKind::UnterminatedComment => t.push_str("comment `/*` is never closed by `*/`"),
            ErrorKind::TrailingInput => t.push_str("unexpected text after the end of the shape"),
            ErrorKind::AttributeOrder { found } => {
                t.push_str("layout attribute `");
                t.push_str(found.text());
                t.push_str("` is repeated or out of order; XLA's order is T L # * E S SC M");
            }
            ErrorKind::SparseType => {
                t.push_str("the type in `#(…)` or `*(…)` must be an unsigned integer type such as u32")
            }
            ErrorKind::MemorySpaceRange => {
                t.push_str("memory space S(n) must be in -128..=127 (XLA keeps it in 8 bits)")
            }
            ErrorKind::Obsolete { attr } => {
                t.push_str("obsolete sparse-array attribute `");
                t.push_str(attr.text());
                t.push_str("(…)` is not supported");
            }
            ErrorKind::TooManyDims => {
                t.push_str("too many dims; at most ");
                t.push_u64(crate::MAX_RANK as u64);
                t.push_str(" are supported");
            }
            ErrorKind::TooManyTiles => {
                t.push_str("too many tiles; at most ");
                t.push_u64(crate::MAX_TILES as u64);
                t.push_str(" tile levels are supported");
            }
            ErrorKind::TileTooLong => {
                t.push_str("tile has too many dims; at most ");
                t.push_u64(crate::MAX_TILE_RANK as u64);
                t.push_str(" are supported");
            }
            ErrorKind::TooManySplits => {
                t.push_str("too many split configs or split indices; at most ");
                t.push_u64(crate::MAX_SPLIT_CONFIGS as u64);
                t.push_str(" configs of ");
                t.push_u64(crate::MAX_SPLIT_INDICES as u64);
                t.push_str(" indices are supported");
            }
            ErrorKind::TooDeep => {
                t.push_str("tuples nested too deeply; at most ");
                t.push_u64(crate::MAX_NESTING as u64);
                t.push_str(" levels are supported");
            }
            ErrorKind::MinorToMajorLength { rank, found } => {
                t.push_str("minor_to_major has ");
                t.push_u64(found as u64);
                t.push_str(if found == 1 { " entry" } else { " entries" });
                t.push_str(" but the shape has rank ");
                t.push_u64(rank as u64);
                t.push_str("; list every dim once");
            }
            ErrorKind::MinorToMajorRange { position, value } => {
                t.push_str("minor_to_major entry ");
                t.push_u64(position as u64);
                t.push_str(" is ");
                t.push_i64(value);
                t.push_str(", not a dim of the shape");
            }
            ErrorKind::MinorToMajorRepeat { value, .. } => {
                t.push_str("minor_to_major lists dim ");
                t.push_i64(value);
                t.push_str(" twice; it must be a permutation of the dims");
            }
            ErrorKind::EmptyTile { tile } => {
                t.push_str("tile ");
                t.push_u64(tile as u64);
                t.push_str(" is empty; a tile needs at least one dim");
            }
            ErrorKind::ZeroTileDim { tile, dim } => {
                t.push_str("tile ");
                t.push_u64(tile as u64);
                t.push_str(" has a zero dim (dim ");
                t.push_u64(dim as u64);
                t.push_str("); tile dims must be positive or `*`");
            }
            ErrorKind::ZeroTailPadding => {
                t.push_str("L(0): tail padding alignment must be at least 1")
            }
            ErrorKind::SparseAttribute { attr } => {
                t.push_str("`");
                t.push_str(attr.text());
                t.push_str("(type)` belongs to sparse arrays, which XLA no longer has");
            }
            ErrorKind::SplitDimRange { split } => {
                t.push_str("split config ");
                t.push_u64(split as u64);
                t.push_str(" names a dim the shape does not have");
            }
            ErrorKind::SplitIndices { split } => {
                t.push_str("split config ");
                t.push_u64(split as u64);
                t.push_str(": split indices must be strictly increasing and positive");
            }
            ErrorKind::SplitOutsideDim { split } => {
                t.push_str("split config ");
                t.push_u64(split as u64);
                t.push_str(": a split index is at or past the end of its dim");
            }
            ErrorKind::SplitRepeat { split } => {
                t.push_str("split config ");
                t.push_u64(split as u64);
                t.push_str(" repeats a physical dim of an earlier split config");
            }
            ErrorKind::DimsOverflow => {
                t.push_str("the product of the dims overflows i64 (XLA's limit)")
            }
            ErrorKind::NotAnArrayType => {
                t.push_str("token and opaque take no dims and no layout attributes")
            }
            ErrorKind::CombineMostMinor { tile } => {
                t.push_str("tile ");
                t.push_u64(tile as u64);
                t.push_str(" ends in `*`; `*` combines a dim into the next more-minor one, so it cannot be the last");
            }
            ErrorKind::ElementSize { bits } => {
                t.push_str("E(");
                t.push_u64(bits);
                t.push_str(") cannot be stored: use 0 (the type's own width) or 1, 2, 4, 8, 16, 32, 64 or 128 bits");
            }
            ErrorKind::SizeOverflow => t.push_str("the tiled size overflows u64"),
            ErrorKind::TooLargeForTarget { value, bits } => {
                t.push_u64(value);
                t.push_str(" does not fit in usize on a ");
                t.push_u64(bits as u64);
                t.push_str("-bit target; layout types hold dims, tiles and attributes as usize");
            }
            ErrorKind::ExpandedTooLong => {
                t.push_str("tiling expands the shape to more than ");
                t.push_u64(crate::MAX_EXPANDED_RANK as u64);
                t.push_str(" dims");
            }
            ErrorKind::DynamicShape => {
                t.push_str("the shape has dynamic dims (`<=N` or `?`); sizes and indices need static dims")
            }
            ErrorKind::NotAnArray => {
                t.push_str("sizes and indices are defined for arrays, not for tuples, buffers, token or opaque")
            }
            ErrorKind::IndexRank { rank, found } => {
                t.push_str("index has ");
                t.push_u64(found as u64);
                t.push_str(if found == 1 { " coordinate" } else { " coordinates" });
                t.push_str(" but the shape has rank ");
                t.push_u64(rank as u64);
            }
            ErrorKind::IndexOutOfBounds { dim, index, size } => {
                t.push_str("coordinate ");
                t.push_u64(index);
                t.push_str(" is out of bounds for dim ");
                t.push_u64(dim as u64);
                t.push_str(" of size ");
                t.push_u64(size);
            }
            ErrorKind::SlotOutOfBounds { slot, slots } => {
                t.push_str("slot ");
                t.push_u64(slot);
                t.push_str(" is past the end of the layout's ");
                t.push_u64(slots);
                t.push_str(" slots");
            }
        }
        t
    }

    /// The message followed by `at byte N` when the error has a position:
    /// what `Display` prints, built in `const fn`.
    pub const fn describe(&self) -> TextBuf<192> {
        TextBuf::described(&self.message(), self.span)
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.describe().as_str())
    }
}

impl core::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_fit_their_buffer() {
        let kinds = [
            ErrorKind::Unexpected {
                expected: "`]` or `,`",
                found: b'x',
            },
            ErrorKind::CombineMostMinor { tile: 7 },
            ErrorKind::IndexOutOfBounds {
                dim: 15,
                index: u64::MAX,
                size: u64::MAX,
            },
            ErrorKind::MinorToMajorRange {
                position: 15,
                value: i64::MIN,
            },
            ErrorKind::DynamicShape,
            ErrorKind::UnknownType,
            ErrorKind::TooManySplits,
        ];
        for k in kinds {
            let e = Error::at(k, 1 << 30, (1 << 30) + 1);
            assert!(!e.message().overflowed(), "{k:?}");
            assert!(!e.describe().overflowed(), "{k:?}");
        }
    }
}

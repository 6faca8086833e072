//! The algebra's one error type: built in `const fn`, `Copy`, with a byte
//! range when the error is about text and the mode when it is about a
//! layout.
//!
//! Map of the kinds:
//! 1. syntax of CuTe's notation (`Unexpected`, `UnexpectedEnd`,
//!    `IntegerTooLarge`, `TrailingInput`);
//! 2. capacity (`TooManyNodes`, `TooDeep`, `TextTooLong`);
//! 3. ill-formed values (`NotCongruent`, `ShapeNotPositive`, `Swizzle…`,
//!    `ModeOutOfRange`, `RankMismatch`);
//! 4. arithmetic (`Overflow`, `DivisionByZero`);
//! 5. the operations' preconditions, which CuTe only checks when both
//!    sides are static and which are always checked here
//!    (`StrideDivisibility`, `ShapeDivisibility`, `NonInjective`, …).

use crate::{Span, TextBuf};

/// What went wrong. See the module docs for the groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AlgebraErrorKind {
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
    /// Syntax: an integer outside `i64`.
    IntegerTooLarge,
    /// Syntax: text left after a complete value.
    TrailingInput,
    /// Capacity: more than [`super::MAX_NODES`] integers and tuples in one
    /// tuple.
    TooManyNodes,
    /// Capacity: tuples nested deeper than [`super::MAX_DEPTH`].
    TooDeep,
    /// Capacity: printed text longer than [`super::MAX_TEXT`] bytes.
    TextTooLong,
    /// Value: shape and stride are not congruent (same tree).
    NotCongruent,
    /// Value: a shape integer is not positive.
    ShapeNotPositive {
        /// Which integer of the shape (preorder, from 0).
        mode: u32,
        /// Its value.
        value: i64,
    },
    /// Value: a swizzle's parameters are out of range (CuTe:
    /// `B >= 0`, `M >= 0`, `|S| >= B`; ours: `M + max(0,S) + B <= 62`
    /// and `M + max(0,-S) + B <= 62` so the masks fit `i64`).
    SwizzleParams,
    /// Value: asked for mode `mode` of something with `rank` modes.
    ModeOutOfRange {
        /// The mode asked for.
        mode: u32,
        /// The rank.
        rank: u32,
    },
    /// Value: a coordinate, tiler or profile whose tree does not fit the
    /// layout's.
    RankMismatch {
        /// The rank expected.
        expected: u32,
        /// The rank found.
        found: u32,
    },
    /// Arithmetic: a result does not fit `i64`.
    Overflow,
    /// Arithmetic: a division by zero (a zero stride or shape where one is
    /// divided by).
    DivisionByZero,
    /// Precondition (composition): stride divisibility. Mode `mode` of the
    /// flattened left layout has shape `shape`; the right layout's
    /// remaining stride `stride` must be a multiple of it or smaller.
    StrideDivisibility {
        /// Mode of the flattened left layout.
        mode: u32,
        /// Its shape.
        shape: i64,
        /// The right layout's remaining stride.
        stride: i64,
    },
    /// Precondition (composition, ours: CuTe's strong stride condition):
    /// the right layout's stride `stride` is below mode `mode`'s shape
    /// `shape` without dividing it, and the selection wraps past the mode,
    /// so its elements are not evenly spaced.
    StrideWraps {
        /// Mode of the flattened left layout.
        mode: u32,
        /// Its shape.
        shape: i64,
        /// The right layout's remaining stride.
        stride: i64,
    },
    /// Precondition (composition, shape_div): shape divisibility. The
    /// right layout's remaining shape `shape` must be divisible by
    /// `divisor`, the part of mode `mode` of the flattened left layout it
    /// covers; otherwise the result would silently drop elements.
    ShapeDivisibility {
        /// Mode of the flattened left layout.
        mode: u32,
        /// The shape being divided.
        shape: i64,
        /// The divisor.
        divisor: i64,
    },
    /// Precondition (composition, ours): the right layout's modes, each
    /// composed exactly, reach digits of the left layout's mode `mode`
    /// (merged by value, of shape `shape`) that add past its shape, so
    /// the sum of the parts is not the composition. CuTe does not check
    /// this and returns a wrong layout.
    ModesCarry {
        /// Mode of the left layout (flattened, merged by value).
        mode: u32,
        /// Its shape.
        shape: i64,
    },
    /// Precondition (complement, left_inverse): the layout maps two
    /// coordinates to the same index where the operation needs it not to.
    NonInjective {
        /// Mode (of the filtered, flattened layout) where it was found.
        mode: u32,
    },
    /// Precondition (upcast): a stride and the factor divide neither each
    /// other.
    CastDivisibility {
        /// Mode (integer of the stride, preorder).
        mode: u32,
        /// The stride.
        stride: i64,
        /// The factor.
        factor: i64,
    },
    /// Precondition (downcast): no stride-1 mode, so elements are not
    /// adjacent.
    NotAdjacent,
    /// Precondition (tile_to_shape, products): the block's shape does not
    /// divide the target in mode `mode`.
    TargetDivisibility {
        /// Mode of the target shape.
        mode: u32,
        /// Target size of that mode.
        target: i64,
        /// Block size of that mode.
        block: i64,
    },
    /// Precondition: the operation is not defined for this input (e.g.
    /// composing two swizzles of different shifts, a swizzle whose bits
    /// the layout does not cover).
    Unsupported {
        /// What is not supported.
        what: &'static str,
    },
}

/// Where in the right operand (a layout or a tiler) an error arose: the
/// top-level mode the user wrote, then the mode inside it, and so on
/// (`(1,0)` is mode 0 of mode 1). Empty when the error is not about one
/// mode of the right operand.
///
/// Invariant: `len <= MAX_PATH`; the entries past `len` are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModePath {
    modes: [u8; ModePath::MAX_PATH],
    len: u8,
}

impl ModePath {
    /// Most entries kept (the outermost ones; nesting is at most
    /// [`super::MAX_DEPTH`] deep).
    pub const MAX_PATH: usize = super::MAX_DEPTH;

    /// The empty path.
    pub const NONE: ModePath = ModePath {
        modes: [0; ModePath::MAX_PATH],
        len: 0,
    };

    /// The modes, outermost first.
    pub const fn modes(&self) -> &[u8] {
        self.modes.split_at(self.len as usize).0
    }

    /// Whether the path is empty.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The path with `mode` in front (the innermost entry is dropped when
    /// the path is full; modes past 255 are kept as 255).
    pub const fn within(self, mode: usize) -> ModePath {
        let mut out = ModePath::NONE;
        out.modes[0] = if mode > 255 { 255 } else { mode as u8 };
        let mut k = 0;
        while k < self.len as usize && k + 1 < ModePath::MAX_PATH {
            out.modes[k + 1] = self.modes[k];
            k += 1;
        }
        out.len = (k + 1) as u8;
        out
    }

    /// The path without its outermost entry.
    pub const fn inner(self) -> ModePath {
        let mut out = ModePath::NONE;
        let mut k = 1;
        while k < self.len as usize {
            out.modes[k - 1] = self.modes[k];
            k += 1;
        }
        out.len = if self.len > 0 { self.len - 1 } else { 0 };
        out
    }
}

/// An error of the layout algebra: what went wrong and, for text, where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AlgebraError {
    /// What went wrong.
    pub kind: AlgebraErrorKind,
    /// Where in the text (bytes), or [`Span::NONE`].
    pub span: Span,
    /// Which mode of the right operand the error is about (as written:
    /// the top-level mode, then nested modes), or empty.
    pub path: ModePath,
}

/// Marks an error of an operation on mode `i` of the right operand
/// (its path gains `i` in front).
pub(crate) const fn in_mode<T: Copy>(
    r: Result<T, AlgebraError>,
    i: usize,
) -> Result<T, AlgebraError> {
    match r {
        Ok(v) => Ok(v),
        Err(mut e) => {
            e.path = e.path.within(i);
            Err(e)
        }
    }
}

impl AlgebraError {
    /// An error with no position.
    pub const fn new(kind: AlgebraErrorKind) -> AlgebraError {
        AlgebraError {
            kind,
            span: Span::NONE,
            path: ModePath::NONE,
        }
    }

    /// An error at bytes `start..end`.
    pub const fn at(kind: AlgebraErrorKind, start: usize, end: usize) -> AlgebraError {
        AlgebraError {
            kind,
            span: Span::new(start, end),
            path: ModePath::NONE,
        }
    }

    /// The same error with another path.
    pub const fn with_path(mut self, path: ModePath) -> AlgebraError {
        self.path = path;
        self
    }

    /// The fixed message for the kind, with its numbers, lowercase and
    /// without a period, then the mode of the right operand it is about
    /// (`; at mode (1,0) of the right operand`) when there is one.
    pub const fn message(&self) -> TextBuf<256> {
        let mut t = TextBuf::new();
        match self.kind {
            AlgebraErrorKind::Unexpected { expected, found } => {
                t.push_expected_found(expected, found, true, "a control or non-ASCII byte")
            }
            AlgebraErrorKind::UnexpectedEnd { expected } => t.push_unexpected_end(expected),
            AlgebraErrorKind::IntegerTooLarge => t.push_str("integer does not fit in i64"),
            AlgebraErrorKind::TrailingInput => t.push_str("unexpected text after the value"),
            AlgebraErrorKind::TooManyNodes => {
                t.push_str("more than ");
                t.push_u64(super::MAX_NODES as u64);
                t.push_str(" integers and tuples in one tuple");
            }
            AlgebraErrorKind::TooDeep => {
                t.push_str("tuples nested deeper than ");
                t.push_u64(super::MAX_DEPTH as u64);
            }
            AlgebraErrorKind::TextTooLong => {
                t.push_str("printed text longer than ");
                t.push_u64(super::MAX_TEXT as u64);
                t.push_str(" bytes");
            }
            AlgebraErrorKind::NotCongruent => {
                t.push_str("shape and stride are not congruent (they need the same nesting)")
            }
            AlgebraErrorKind::ShapeNotPositive { mode, value } => {
                t.push_str("shape integer ");
                t.push_u64(mode as u64);
                t.push_str(" is ");
                t.push_i64(value);
                t.push_str("; shapes must be positive");
            }
            AlgebraErrorKind::SwizzleParams => t.push_str(
                "swizzle Sw<B,M,S> needs B >= 0, M >= 0, |S| >= B and its masks within 62 bits",
            ),
            AlgebraErrorKind::ModeOutOfRange { mode, rank } => {
                t.push_str("mode ");
                t.push_u64(mode as u64);
                t.push_str(" does not exist in rank ");
                t.push_u64(rank as u64);
            }
            AlgebraErrorKind::RankMismatch { expected, found } => {
                t.push_str("expected rank ");
                t.push_u64(expected as u64);
                t.push_str(" (or a matching nesting), found rank ");
                t.push_u64(found as u64);
            }
            AlgebraErrorKind::Overflow => t.push_str("arithmetic overflow (i64)"),
            AlgebraErrorKind::DivisionByZero => t.push_str("division by zero"),
            AlgebraErrorKind::StrideDivisibility {
                mode,
                shape,
                stride,
            } => {
                t.push_str("stride divisibility: mode ");
                t.push_u64(mode as u64);
                t.push_str(" of the left layout has shape ");
                t.push_i64(shape);
                t.push_str(", and the stride ");
                t.push_i64(stride);
                t.push_str(" is neither a multiple of it nor smaller");
            }
            AlgebraErrorKind::StrideWraps {
                mode,
                shape,
                stride,
            } => {
                t.push_str("stride divisibility: mode ");
                t.push_u64(mode as u64);
                t.push_str(" of the left layout has shape ");
                t.push_i64(shape);
                t.push_str(", the stride ");
                t.push_i64(stride);
                t.push_str(" does not divide it and the selection wraps past it");
            }
            AlgebraErrorKind::ShapeDivisibility {
                mode,
                shape,
                divisor,
            } => {
                t.push_str("shape divisibility: in mode ");
                t.push_u64(mode as u64);
                t.push_str(" of the left layout, ");
                t.push_i64(shape);
                t.push_str(" is not divisible by ");
                t.push_i64(divisor);
                t.push_str("; make the tile a divisor of the mode");
            }
            AlgebraErrorKind::ModesCarry { mode, shape } => {
                t.push_str("the right layout's modes overlap in mode ");
                t.push_u64(mode as u64);
                t.push_str(" of the left layout (shape ");
                t.push_i64(shape);
                t.push_str("): their offsets carry, so no layout composes them")
            }
            AlgebraErrorKind::NonInjective { mode } => {
                t.push_str("the layout is not injective (mode ");
                t.push_u64(mode as u64);
                t.push_str(" overlaps another)");
            }
            AlgebraErrorKind::CastDivisibility {
                mode,
                stride,
                factor,
            } => {
                t.push_str("cast: stride ");
                t.push_i64(stride);
                t.push_str(" of mode ");
                t.push_u64(mode as u64);
                t.push_str(" and the factor ");
                t.push_i64(factor);
                t.push_str(" divide neither each other");
            }
            AlgebraErrorKind::NotAdjacent => {
                t.push_str("downcast needs a stride-1 mode (adjacent elements)")
            }
            AlgebraErrorKind::TargetDivisibility {
                mode,
                target,
                block,
            } => {
                t.push_str("mode ");
                t.push_u64(mode as u64);
                t.push_str(": the block size ");
                t.push_i64(block);
                t.push_str(" does not divide the target size ");
                t.push_i64(target);
            }
            AlgebraErrorKind::Unsupported { what } => {
                t.push_str("not supported: ");
                t.push_str(what);
            }
        }
        let path = self.path.modes();
        if !path.is_empty() {
            t.push_str("; at mode ");
            if path.len() > 1 {
                t.push_ascii(b'(');
            }
            let mut k = 0;
            while k < path.len() {
                if k > 0 {
                    t.push_ascii(b',');
                }
                t.push_u64(path[k] as u64);
                k += 1;
            }
            if path.len() > 1 {
                t.push_ascii(b')');
            }
            t.push_str(" of the right operand");
        }
        t
    }

    /// The message followed by `at byte N` when the error has a position.
    pub const fn describe(&self) -> TextBuf<288> {
        TextBuf::described(&self.message(), self.span)
    }
}

impl core::fmt::Display for AlgebraError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.describe().as_str())
    }
}

impl core::error::Error for AlgebraError {}

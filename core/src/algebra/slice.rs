//! Slicing: a coordinate with `_` in some places keeps the modes at the
//! `_`s (CuTe's `slice`, `slice_and_offset`, NVIDIA/cutlass
//! `include/cute/underscore.hpp` and `layout.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4). For a matrix layout,
//! `(2,_)` slices row 2: the layout of its columns, at offset
//! `layout(2,0)`.

use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::layout::{crd2idx, CuteLayout};
use super::tuple::{tri, IntTuple};

/// A coordinate whose leaves are integers or `_` (CuTe's `Underscore`),
/// e.g. `(_,3)` or `((1,_),_)`.
///
/// Invariant: bit `k` of `underscores` is set when leaf `k` (preorder) of
/// `coord` is `_`; that leaf's value in `coord` is 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SliceCoord {
    coord: IntTuple,
    underscores: u64,
}

impl SliceCoord {
    /// Parses a coordinate in CuTe's notation where a lone `_` is an
    /// underscore: `(_,3)`, `(2,(_,1))`, `_`.
    ///
    /// # Errors
    /// Syntax and capacity errors with their byte ranges, as
    /// [`IntTuple::parse`].
    pub fn parse(text: &str) -> Result<SliceCoord, AlgebraError> {
        let b = text.as_bytes();
        let mut replaced = [0u8; 4096];
        if b.len() > replaced.len() {
            return Err(AlgebraError::at(AlgebraErrorKind::TextTooLong, 0, b.len()));
        }
        let mut marks = [false; 4096];
        let mut i = 0;
        while i < b.len() {
            let lone = b[i] == b'_'
                && (i + 1 >= b.len() || !(b[i + 1] == b'-' || b[i + 1].is_ascii_digit()));
            replaced[i] = if lone { b'0' } else { b[i] };
            marks[i] = lone;
            i += 1;
        }
        // one byte replaced by one byte: positions in errors stay right
        let t = core::str::from_utf8(&replaced[..b.len()]).map_err(|_| {
            AlgebraError::at(
                AlgebraErrorKind::Unexpected {
                    expected: "ASCII",
                    found: 0,
                },
                0,
                b.len(),
            )
        })?;
        let coord = IntTuple::parse(t)?;
        // the k-th integer token is an underscore when its first byte was
        let mut underscores = 0u64;
        let mut k = 0;
        let mut p = 0;
        while p < b.len() {
            let c = replaced[p];
            if c == b'_' || c == b'-' || c.is_ascii_digit() {
                if marks[p] {
                    if k >= 64 {
                        return Err(AlgebraError::at(AlgebraErrorKind::TooManyNodes, p, p + 1));
                    }
                    underscores |= 1 << k;
                }
                while p < b.len()
                    && (replaced[p] == b'_' || replaced[p] == b'-' || replaced[p].is_ascii_digit())
                {
                    p += 1;
                }
                k += 1;
            } else {
                p += 1;
            }
        }
        Ok(SliceCoord { coord, underscores })
    }

    /// The coordinate with every `_` replaced by 0.
    pub const fn coord(&self) -> &IntTuple {
        &self.coord
    }

    /// Whether leaf `k` (preorder) is `_`.
    pub const fn is_underscore(&self, k: usize) -> bool {
        k < 64 && self.underscores & (1 << k) != 0
    }
}

/// Lifted slice of one mode: the kept modes as a tuple.
const fn lift(
    c: &IntTuple,
    base: usize,
    sc: &SliceCoord,
    s: &IntTuple,
    d: &IntTuple,
) -> Result<(IntTuple, IntTuple), AlgebraError> {
    if c.is_int() {
        if sc.is_underscore(base) {
            return Ok((tri!(IntTuple::tuple(&[*s])), tri!(IntTuple::tuple(&[*d]))));
        }
        return Ok((IntTuple::EMPTY, IntTuple::EMPTY));
    }
    if s.is_int() || s.rank() != c.rank() {
        return Err(AlgebraError::new(AlgebraErrorKind::RankMismatch {
            expected: s.rank() as u32,
            found: c.rank() as u32,
        }));
    }
    let mut os = IntTuple::EMPTY;
    let mut od = IntTuple::EMPTY;
    let mut i = 0;
    while i < c.rank() {
        let ci = tri!(c.mode(i));
        let (ks, kd) = tri!(lift(
            &ci,
            base + c.mode_leaf_start(i),
            sc,
            &tri!(s.mode(i)),
            &tri!(d.mode(i))
        ));
        let mut k = 0;
        while k < ks.rank() {
            tri!(os.push_in(&tri!(ks.mode(k))));
            tri!(od.push_in(&tri!(kd.mode(k))));
            k += 1;
        }
        i += 1;
    }
    Ok((os, od))
}

/// CuTe's `slice(coord, layout)`: the layout of the modes at the `_`s of
/// the coordinate, in order (a whole mode for each `_`; the integers'
/// modes are dropped). `slice(_, layout)` is the layout itself.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{slice, slice_offset, CuteLayout, SliceCoord};
/// let l = CuteLayout::parse("((_2,_3),(_4,_5)):((_1,_2),(_6,_24))")?;
/// let c = SliceCoord::parse("((1,_),_)")?;
/// assert_eq!(slice(&l, &c)?.to_text().as_str(), "(_3,(_4,_5)):(_2,(_6,_24))");
/// assert_eq!(slice_offset(&l, &c)?.value, 1);
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// [`AlgebraErrorKind::RankMismatch`] when the coordinate's tree does not
/// fit the shape's; capacity.
pub const fn slice(layout: &CuteLayout, coord: &SliceCoord) -> Result<CuteLayout, AlgebraError> {
    let c = coord.coord();
    if c.is_int() {
        if coord.is_underscore(0) {
            return Ok(*layout);
        }
        return Ok(CuteLayout::EMPTY);
    }
    let (s, d) = tri!(lift(c, 0, coord, layout.shape(), layout.stride()));
    CuteLayout::new(s, d)
}

/// The offset of a slice, CuTe's second result of `slice_and_offset`: the
/// index of the coordinate with every `_` taken as 0.
///
/// # Errors
/// As [`crd2idx`].
pub const fn slice_offset(layout: &CuteLayout, coord: &SliceCoord) -> Result<Int, AlgebraError> {
    crd2idx(coord.coord(), layout.shape(), layout.stride())
}

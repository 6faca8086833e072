//! CuTe's `Swizzle<B, M, S>`, alone and composed with a layout.
//!
//! A swizzle permutes offsets by XORing one group of bits into another, so
//! that the rows of a shared-memory tile start in different banks; it is the
//! function CuTe defines in `cute/swizzle.hpp`. The function itself is the
//! core's [`algebra::Swizzle`](crate::algebra::Swizzle): these types name
//! it and compose it with a layout.

// reason: the results are computed at compile time only, in const fns,
// which cannot box their errors
#![allow(clippy::result_large_err)]

use core::marker::PhantomData;

use super::matrix::{Layout2, Shape2};
use super::result::swizzled_result;
use super::sealed::Sealed;
use crate::algebra::AnyLayout;
use crate::types::cute_composed::swizzle_verdict;
use crate::types::cute_result::CuteType;
use crate::types::verdict::Verdict;
use crate::value::TextBuf;

/// CuTe's swizzle: XOR the `B` bits at `[M+S, M+S+B)` into the `B` bits at
/// `[M, M+B)`, keeping the low `M` bits; with a negative shift the other way
/// round (the bits at `[M, M+B)` are XORed into `[M+|S|, M+|S|+B)`).
///
/// ```text
///   x = … Y Y Y … Z Z Z k k k        (shown for Swizzle<3, 3, 3>)
///         │   │   │   │ └───┴─ M = base:  low bits kept as they are
///         │   │   └───┴─────── B = bits:  ZZZ at [M, M+B) receive …
///         └───┴─────────────── … YYY at [M+S, M+S+B), S = shift above them
///
///   apply(x) = x ^ ((x & (((1 << B) - 1) << (M + S))) >> S)
/// ```
///
/// With `|S| ≥ B` the source and target bits do not overlap, so the source
/// bits are left alone and applying the swizzle twice XORs the same value
/// twice: it is an involution, hence a bijection of every aligned block of
/// `2^(M+|S|+B)` offsets onto itself. `|S| < B` is rejected at compile time,
/// as CuTe's `static_assert` does.
///
/// A negative shift is CuTe's `Swizzle<B, M, -S>`: its source bits are the
/// low ones, `[M, M+B)`, and its targets `[M+|S|, M+|S|+B)`; e.g.
/// `Swizzle<2, 0, -2>` maps `x = 4y + z` (`y, z < 4`) to `4(y ^ z) + z`.
///
/// Parameters: `B` is CuTe's `BBits` ([`BITS`](Self::BITS)), `M` its `MBase`
/// ([`BASE`](Self::BASE)), `S` its `SShift` ([`SHIFT`](Self::SHIFT)).
///
/// # Examples
///
/// `Swizzle<3, 3, 3>` (half, 128-byte rows): the 16-byte chunk index of a row
/// (bits 3–5) is XORed with the row number inside an 8-row block (bits 6–8).
///
/// ```
/// use tilelayout::gpu::Swizzle;
/// type Sw = Swizzle<3, 3, 3>;
/// // row 1 (bit 6), chunk 0 → chunk 1
/// assert_eq!(Sw::apply(64), 64 + 8);
/// // row 5, chunk 2, element 7 → chunk 2 ^ 5 = 7
/// assert_eq!(Sw::apply(5 * 64 + 2 * 8 + 7), 5 * 64 + 7 * 8 + 7);
/// // an involution
/// assert_eq!(Sw::apply(Sw::apply(300)), 300);
/// // const-evaluable
/// const Y: usize = Swizzle::<2, 2, 2>::apply(0b1011_0100);
/// assert_eq!(Y, 0b1011_1000);
/// // a negative shift: the low bits are the source
/// type Neg = Swizzle<2, 0, -2>;
/// assert_eq!(Neg::apply(0b01_10), 0b11_10);
/// assert_eq!((Neg::SOURCE_MASK, Neg::TARGET_MASK), (0b00_11, 0b11_00));
/// ```
///
/// # Compile-time errors
///
/// `|S| < B` would not be an involution: [`RESULT`](Self::RESULT) is the
/// verdict naming `Sw<3,3,2>` and the swizzle to use instead, and a layout
/// swizzled by it carries that verdict
/// ([`assert_cute!`](crate::assert_cute) reports it at `cargo check`).
/// Applied alone, it fails where it is used:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::Swizzle;
/// let _ = Swizzle::<3, 3, 2>::apply(5);
/// ```
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::Swizzle;
/// let _ = Swizzle::<3, 3, -2>::apply(5);
/// ```
///
/// The bits must fit in 62 bits:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::Swizzle;
/// let _ = Swizzle::<20, 10, 40>::apply(5);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Swizzle<const B: u32, const M: u32, const S: i32>;

impl<const B: u32, const M: u32, const S: i32> Swizzle<B, M, S> {
    /// `B`: number of bits XORed (CuTe's `BBits`).
    pub const BITS: u32 = B;
    /// `M`: number of low bits kept (CuTe's `MBase`).
    pub const BASE: u32 = M;
    /// `S`: how far above the target bits the source bits are (CuTe's
    /// `SShift`); negative when the source bits are below the targets.
    pub const SHIFT: i32 = S;

    /// The swizzle as the core's value, or the verdict naming `Sw<B,M,S>`
    /// and what to change when it is not a swizzle (computed without
    /// panicking: a layout swizzled by it reports the verdict as its own).
    pub const RESULT: Result<crate::algebra::Swizzle, Verdict> = gpu_swizzle(bits(B), bits(M), S);

    /// The swizzle as the core's value (a compile error with the message
    /// of [`RESULT`](Self::RESULT) where it is used when it is not a
    /// swizzle).
    pub const SWIZZLE: crate::algebra::Swizzle = match Self::RESULT {
        Ok(sw) => sw,
        Err(v) => {
            v.check();
            crate::algebra::Swizzle::NONE
        }
    };

    /// The source bits, `[M+S, M+S+B)` for `S ≥ 0`, `[M, M+B)` for `S < 0`
    /// (CuTe's `yyy_msk`).
    pub const SOURCE_MASK: usize = Self::SWIZZLE.yyy_mask() as usize;

    /// The target bits, `[M, M+B)` for `S ≥ 0`, `[M+|S|, M+|S|+B)` for
    /// `S < 0` (CuTe's `zzz_msk`).
    pub const TARGET_MASK: usize = Self::SWIZZLE.zzz_mask() as usize;

    /// The size of the aligned blocks the swizzle permutes, `2^(M+|S|+B)`.
    pub const SPAN: usize = {
        let sw = Self::SWIZZLE;
        1usize << (sw.base() as u32 + sw.shift().unsigned_abs() + sw.bits() as u32)
    };

    /// Returns `x ^ shift_right(x & SOURCE_MASK, S)` (a left shift by `|S|`
    /// when `S < 0`): the core's [`Swizzle::apply`](crate::algebra::Swizzle::apply).
    #[inline(always)]
    #[must_use]
    pub const fn apply(x: usize) -> usize {
        Self::SWIZZLE.apply(x as i64) as usize
    }
}

/// A `u32` parameter as the core's `i32` (values past `i32::MAX` become
/// `-1`, which the core rejects).
const fn bits(x: u32) -> i32 {
    if x > i32::MAX as u32 {
        -1
    } else {
        x as i32
    }
}

/// The core's check of a swizzle ([`swizzle_verdict`]'s message naming
/// `Sw<B,M,S>`), with what to change when the shift is too small.
const fn gpu_swizzle(b: i32, m: i32, s: i32) -> Result<crate::algebra::Swizzle, Verdict> {
    match swizzle_verdict(b, m, s) {
        Ok(sw) => Ok(sw),
        Err(v) if b >= 0 && m >= 0 && (s.unsigned_abs() as i64) < b as i64 => {
            // |S| < B: the source and target bits overlap
            let mut t = TextBuf::<96>::new();
            t.push_str("; the shift must be at least the bits: use Swizzle<");
            t.push_i64(b as i64);
            t.push_str(", ");
            t.push_i64(m as i64);
            t.push_str(", ");
            t.push_i64(if s < 0 { -(b as i64) } else { b as i64 });
            t.push_str(">");
            match v.message() {
                Some(m) => Err(Verdict::fail(&[m, t.as_str()])),
                None => Err(v),
            }
        }
        Err(v) => Err(v),
    }
}

/// A swizzle function on offsets, implemented by [`Swizzle`].
///
/// Sealed: [`Swizzled`] relies on `apply` being CuTe's swizzle with these
/// parameters (and on its `SWIZZLE` being the core's value of them).
pub trait SwizzleFn: Sealed + 'static {
    /// The core's value of the swizzle, or the verdict that it is none.
    const RESULT: Result<crate::algebra::Swizzle, Verdict>;
    /// The core's value of the swizzle.
    const SWIZZLE: crate::algebra::Swizzle;
    /// `B`.
    const BITS: u32;
    /// `M`.
    const BASE: u32;
    /// `S` (negative: the source bits are below the targets).
    const SHIFT: i32;
    /// Applies the swizzle to an offset.
    fn apply(x: usize) -> usize;
}

impl<const B: u32, const M: u32, const S: i32> Sealed for Swizzle<B, M, S> {}

impl<const B: u32, const M: u32, const S: i32> SwizzleFn for Swizzle<B, M, S> {
    const RESULT: Result<crate::algebra::Swizzle, Verdict> = Swizzle::<B, M, S>::RESULT;
    const SWIZZLE: crate::algebra::Swizzle = Swizzle::<B, M, S>::SWIZZLE;
    const BITS: u32 = B;
    const BASE: u32 = M;
    const SHIFT: i32 = S;

    #[inline(always)]
    fn apply(x: usize) -> usize {
        Swizzle::<B, M, S>::apply(x)
    }
}

/// The layout `L` with `Sw` applied to its offsets: `(i, j) → Sw(L(i, j))`.
///
/// CuTe's `composition(Swizzle, Layout)`, the composed layout
/// `Sw<B,M,S> o _0 o L` ([`Layout2::LAYOUT`]). Shape, `COSIZE` and the
/// buffer it needs are `L`'s; a row (column) run survives when it fits in
/// the `2^M` elements the swizzle keeps together (whatever the sign of the
/// shift, the XORed value depends on bits at or above `M` only and the low
/// `M` bits stay). `L` itself must not be swizzled (a swizzle of a swizzle
/// is not a composed layout).
///
/// # The fit rule (ours)
///
/// `L::COSIZE` must be a non-zero multiple of `2^(M+|S|+B)`. Then `[0, COSIZE)`
/// is a union of aligned blocks of `2^(M+|S|+B)` offsets, the swizzle permutes
/// each block onto itself, and so it is a bijection of `[0, COSIZE)`: a
/// swizzled layout stays inside its buffer, and is a bijection onto it when
/// `L` is. We do not require a power of two: a 64×96 float tile of 8×32
/// blocks (`COSIZE` 6144 = 24·256) swizzles correctly with `Swizzle<3, 2, 3>`.
///
/// # Examples
///
/// ```
/// use tilelayout::gpu::{vector_run, Layout2, RowMajor, Swizzle, Swizzled};
/// type L = Swizzled<RowMajor<8, 32>, Swizzle<3, 2, 3>>;
/// // row 3, columns 4..8 (chunk 1) move to chunk 1 ^ 3 = 2
/// assert_eq!(L::offset(3, 5), 3 * 32 + 2 * 4 + 1);
/// assert_eq!(L::COSIZE, 256);
/// assert_eq!(L::LAYOUT.to_string(), "Sw<3,2,3> o _0 o (_8,_32):(_32,_1)");
/// assert_eq!(vector_run(&L::LAYOUT, 1), 4); // 16-byte vectors of f32 stay contiguous
/// ```
///
/// # Compile-time errors
///
/// Each is the type's [`VERDICT`](crate::CuteType::VERDICT), one error at
/// [`assert_cute!`](crate::assert_cute)'s line at `cargo check`, or where
/// the type is used. A swizzle wider than the layout:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{Layout2, RowMajor, Swizzle, Swizzled};
/// // Swizzle<3, 3, 3> permutes blocks of 512 offsets; the layout has 256
/// let _ = Swizzled::<RowMajor<8, 32>, Swizzle<3, 3, 3>>::offset(0, 0);
/// ```
///
/// A layout whose span is not a multiple of the swizzle's block:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{Layout2, RowMajor, Swizzle, Swizzled};
/// let _ = Swizzled::<RowMajor<12, 32>, Swizzle<3, 2, 3>>::COSIZE;
/// ```
///
/// A swizzle that is not an involution:
///
/// ```
/// use tilelayout::gpu::{RowMajor, Swizzle, Swizzled};
/// use tilelayout::CuteType;
/// let v = <Swizzled<RowMajor<64, 64>, Swizzle<3, 2, 1>>>::VERDICT;
/// assert!(v.message().unwrap().ends_with("use Swizzle<3, 2, 3>"));
/// ```
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{Layout2, RowMajor, Swizzle, Swizzled};
/// let _ = Swizzled::<RowMajor<64, 64>, Swizzle<3, 2, 1>>::offset(0, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Swizzled<L, Sw>(PhantomData<(L, Sw)>);

impl<L, Sw> Sealed for Swizzled<L, Sw> {}

impl<L: Layout2, Sw: SwizzleFn> Shape2 for Swizzled<L, Sw> {
    const ROWS: usize = L::ROWS;
    const COLS: usize = L::COLS;
}

impl<L: Layout2, Sw: SwizzleFn> CuteType for Swizzled<L, Sw> {
    const RESULT: Result<AnyLayout, Verdict> = swizzled_result(&L::RESULT, &Sw::RESULT);
}

impl<L: Layout2, Sw: SwizzleFn> Layout2 for Swizzled<L, Sw> {}

#[cfg(test)]
mod tests {
    use super::*;

    const _: () = {
        assert!(Swizzle::<3, 3, 3>::SOURCE_MASK == 0b1_1100_0000);
        assert!(Swizzle::<3, 3, 3>::TARGET_MASK == 0b0_0011_1000);
        assert!(Swizzle::<3, 2, 3>::SPAN == 256);
        assert!(Swizzle::<0, 4, 0>::apply(12345) == 12345);
    };

    #[test]
    fn negative_shift_is_an_involution_on_its_span() {
        type Sw = Swizzle<2, 1, -3>;
        assert_eq!(Sw::SPAN, 64);
        for x in 0..Sw::SPAN * 2 {
            assert_eq!(Sw::apply(Sw::apply(x)), x);
        }
    }

    #[test]
    fn swizzle_is_an_involution_on_its_span() {
        type Sw = Swizzle<2, 3, 2>;
        for x in 0..Sw::SPAN * 3 {
            assert_eq!(Sw::apply(Sw::apply(x)), x);
        }
    }
}

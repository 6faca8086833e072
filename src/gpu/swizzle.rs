//! CuTe's `Swizzle<B, M, S>`, alone and composed with a layout.
//!
//! A swizzle permutes offsets by XORing one group of bits into another, so
//! that the rows of a shared-memory tile start in different banks; it is the
//! function CuTe defines in `cute/swizzle.hpp`.

use core::marker::PhantomData;

use super::matrix::{gcd, Layout2, LayoutExpr, Shape2};
use super::sealed::Sealed;

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
/// `|S| < B` would not be an involution:
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
/// The bits must fit in `usize`:
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

    const CHECK: () = check_swizzle(B, M, S);

    /// The source bits, `[M+S, M+S+B)` for `S ≥ 0`, `[M, M+B)` for `S < 0`
    /// (CuTe's `yyy_msk`).
    pub const SOURCE_MASK: usize = {
        let () = Self::CHECK;
        source_mask(B, M, S)
    };

    /// The target bits, `[M, M+B)` for `S ≥ 0`, `[M+|S|, M+|S|+B)` for
    /// `S < 0` (CuTe's `zzz_msk`).
    pub const TARGET_MASK: usize = {
        let () = Self::CHECK;
        target_mask(B, M, S)
    };

    /// The size of the aligned blocks the swizzle permutes, `2^(M+|S|+B)`.
    pub const SPAN: usize = {
        let () = Self::CHECK;
        1usize << (M + S.unsigned_abs() + B)
    };

    /// Returns `x ^ shift_right(x & SOURCE_MASK, S)` (a left shift by `|S|`
    /// when `S < 0`).
    #[inline(always)]
    #[must_use]
    pub const fn apply(x: usize) -> usize {
        swizzle(x, Self::SOURCE_MASK, S)
    }
}

// Follows NVIDIA/cutlass@7107b05535f8977f5ecb9d01ee203205b1fd9bc4: include/cute/swizzle.hpp (yyy_msk, zzz_msk,
// shiftr by a signed amount, the |S| >= B static_assert).
/// The compile-time checks of `Swizzle<B, M, S>`: `|S| ≥ B` (an involution)
/// and `M + |S| + B < usize::BITS` (the bits fit in an offset).
pub(crate) const fn check_swizzle(b: u32, m: u32, s: i32) {
    assert!(
        s.unsigned_abs() >= b,
        "Swizzle<B, M, S> requires |S| >= B (otherwise it is not an involution): raise |S| or lower B"
    );
    assert!(
        (m as u64) + (s.unsigned_abs() as u64) + (b as u64) < usize::BITS as u64,
        "Swizzle<B, M, S> requires M + |S| + B < usize::BITS: the swizzled bits must fit in an offset"
    );
}

/// CuTe's `yyy_msk`: `B` bits at `M + max(0, S)`.
pub(crate) const fn source_mask(b: u32, m: u32, s: i32) -> usize {
    let lift = if s > 0 { s.unsigned_abs() } else { 0 };
    ((1usize << b) - 1) << (m + lift)
}

/// CuTe's `zzz_msk`: `B` bits at `M − min(0, S)`.
pub(crate) const fn target_mask(b: u32, m: u32, s: i32) -> usize {
    let lift = if s < 0 { s.unsigned_abs() } else { 0 };
    ((1usize << b) - 1) << (m + lift)
}

/// CuTe's swizzle given its source mask: `x ^ shiftr(x & source, s)`, where
/// `shiftr` by a negative amount shifts left.
#[inline(always)]
pub(crate) const fn swizzle(x: usize, source: usize, s: i32) -> usize {
    let y = x & source;
    if s >= 0 {
        x ^ (y >> s.unsigned_abs())
    } else {
        x ^ (y << s.unsigned_abs())
    }
}

/// A swizzle function on offsets, implemented by [`Swizzle`].
///
/// Sealed: [`Swizzled`] relies on `apply` being CuTe's swizzle with these
/// parameters (and on its [`LayoutExpr`] twin saying so).
pub trait SwizzleFn: Sealed {
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
/// CuTe's `composition(Swizzle, Layout)`. Shape, `COSIZE` and the buffer it
/// needs are `L`'s; a row (column) run survives when it fits in the `2^M`
/// elements the swizzle keeps together (whatever the sign of the shift, the
/// XORed value depends on bits at or above `M` only and the low `M` bits
/// stay), so `ROW_RUN = gcd(L::ROW_RUN, 2^M)`.
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
/// use tilelayout::gpu::{Layout2, RowMajor, Swizzle, Swizzled};
/// type L = Swizzled<RowMajor<8, 32>, Swizzle<3, 2, 3>>;
/// // row 3, columns 4..8 (chunk 1) move to chunk 1 ^ 3 = 2
/// assert_eq!(L::offset(3, 5), 3 * 32 + 2 * 4 + 1);
/// assert_eq!(L::COSIZE, 256);
/// assert_eq!(L::ROW_RUN, 4); // 16-byte vectors of f32 stay contiguous
/// ```
///
/// # Compile-time errors
///
/// A swizzle wider than the layout:
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
/// ```compile_fail,E0080
/// use tilelayout::gpu::{Layout2, RowMajor, Swizzle, Swizzled};
/// let _ = Swizzled::<RowMajor<64, 64>, Swizzle<3, 2, 1>>::offset(0, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Swizzled<L, Sw>(PhantomData<(L, Sw)>);

impl<L: Layout2, Sw: SwizzleFn> Swizzled<L, Sw> {
    const CHECK: () = {
        check_swizzle(Sw::BITS, Sw::BASE, Sw::SHIFT);
        let span = 1usize << (Sw::BASE + Sw::SHIFT.unsigned_abs() + Sw::BITS);
        assert!(
            L::COSIZE != 0 && L::COSIZE % span == 0,
            "Swizzled<L, Swizzle<B, M, S>> requires L::COSIZE to be a non-zero multiple of 2^(M+|S|+B): use a larger tile or a smaller swizzle"
        );
    };
}

impl<L, Sw> Sealed for Swizzled<L, Sw> {}

impl<L: Layout2, Sw: SwizzleFn> Shape2 for Swizzled<L, Sw> {
    const ROWS: usize = L::ROWS;
    const COLS: usize = L::COLS;
}

impl<L: Layout2, Sw: SwizzleFn> Layout2 for Swizzled<L, Sw> {
    const COSIZE: usize = {
        let () = Self::CHECK;
        L::COSIZE
    };
    const ROW_RUN: usize = gcd(L::ROW_RUN, 1 << Sw::BASE);
    const COL_RUN: usize = gcd(L::COL_RUN, 1 << Sw::BASE);
    const EXPR: LayoutExpr = LayoutExpr::Swizzled {
        layout: &L::EXPR,
        bits: Sw::BITS,
        base: Sw::BASE,
        shift: Sw::SHIFT,
    };

    #[inline(always)]
    fn offset(i: usize, j: usize) -> usize {
        let () = Self::CHECK;
        Sw::apply(L::offset(i, j))
    }
}

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

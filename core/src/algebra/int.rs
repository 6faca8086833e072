//! One integer of CuTe's IntTuples with its binding time, and CuTe's
//! arithmetic on it: a result is static when CuTe's would be (both
//! operands static, or one of CuTe's special cases such as `_0 * x`,
//! NVIDIA/cutlass `include/cute/numeric/integral_constant.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4). All arithmetic is checked.

use super::error::{AlgebraError, AlgebraErrorKind};
use super::tuple::tri;

/// One integer of an [`IntTuple`](super::IntTuple): its value and whether CuTe knows it at
/// compile time (static, printed `_4`) or at run time (dynamic, `4`).
///
/// Invariant: none; any `i64` is a valid value (shapes are checked to be
/// positive where a layout is built).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Int {
    /// The value.
    pub value: i64,
    /// `true` for a static integer (`_4`), `false` for a dynamic one (`4`).
    pub is_static: bool,
}

const fn ovf() -> AlgebraError {
    AlgebraError::new(AlgebraErrorKind::Overflow)
}

impl Int {
    /// A static integer, CuTe's `Int<v>` (`_v`).
    pub const fn fixed(value: i64) -> Int {
        Int {
            value,
            is_static: true,
        }
    }

    /// A dynamic integer, CuTe's `int` (`v`).
    pub const fn dynamic(value: i64) -> Int {
        Int {
            value,
            is_static: false,
        }
    }

    /// Whether this is the static constant `v` (CuTe's `is_constant<v, T>`).
    /// A dynamic integer is never a constant, whatever its value.
    pub const fn is_constant(self, v: i64) -> bool {
        self.is_static && self.value == v
    }

    /// `self * b`, static when both are static or when either is a static
    /// zero (CuTe's `C<0> * int` is `C<0>`).
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn mul(self, b: Int) -> Result<Int, AlgebraError> {
        if self.is_constant(0) || b.is_constant(0) {
            return Ok(Int::fixed(0));
        }
        match self.value.checked_mul(b.value) {
            Some(v) => Ok(Int {
                value: v,
                is_static: self.is_static && b.is_static,
            }),
            None => Err(ovf()),
        }
    }

    /// `self + b`, static when both are static.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn add(self, b: Int) -> Result<Int, AlgebraError> {
        match self.value.checked_add(b.value) {
            Some(v) => Ok(Int {
                value: v,
                is_static: self.is_static && b.is_static,
            }),
            None => Err(ovf()),
        }
    }

    /// `self - b`, static when both are static.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`].
    pub const fn sub(self, b: Int) -> Result<Int, AlgebraError> {
        match self.value.checked_sub(b.value) {
            Some(v) => Ok(Int {
                value: v,
                is_static: self.is_static && b.is_static,
            }),
            None => Err(ovf()),
        }
    }

    /// `self / b` truncating toward zero as C++ does; static when both are
    /// static or when `self` is a static zero.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::DivisionByZero`], [`AlgebraErrorKind::Overflow`].
    pub const fn div(self, b: Int) -> Result<Int, AlgebraError> {
        if b.value == 0 {
            return Err(AlgebraError::new(AlgebraErrorKind::DivisionByZero));
        }
        if self.is_constant(0) {
            return Ok(Int::fixed(0));
        }
        match self.value.checked_div(b.value) {
            Some(v) => Ok(Int {
                value: v,
                is_static: self.is_static && b.is_static,
            }),
            None => Err(ovf()),
        }
    }

    /// `self % b` with C++'s sign rule; static when both are static, when
    /// `self` is a static zero or `b` a static ±1.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::DivisionByZero`], [`AlgebraErrorKind::Overflow`].
    pub const fn rem(self, b: Int) -> Result<Int, AlgebraError> {
        if b.value == 0 {
            return Err(AlgebraError::new(AlgebraErrorKind::DivisionByZero));
        }
        if self.is_constant(0) || b.is_constant(1) || b.is_constant(-1) {
            return Ok(Int::fixed(0));
        }
        match self.value.checked_rem(b.value) {
            Some(v) => Ok(Int {
                value: v,
                is_static: self.is_static && b.is_static,
            }),
            None => Err(ovf()),
        }
    }

    /// CuTe's `ceil_div(a, b) = (a + b - 1) / b`, static when both are.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::DivisionByZero`], [`AlgebraErrorKind::Overflow`].
    pub const fn ceil_div(self, b: Int) -> Result<Int, AlgebraError> {
        let s = tri!(self.add(b));
        let s = tri!(s.sub(Int::fixed(1)));
        s.div(b)
    }

    /// `|self|`, keeping the binding time.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`] for `i64::MIN`.
    pub const fn abs(self) -> Result<Int, AlgebraError> {
        match self.value.checked_abs() {
            Some(v) => Ok(Int {
                value: v,
                is_static: self.is_static,
            }),
            None => Err(ovf()),
        }
    }

    /// The sign (−1, 0 or 1), keeping the binding time.
    pub const fn signum(self) -> Int {
        Int {
            value: self.value.signum(),
            is_static: self.is_static,
        }
    }

    /// The smaller of the two; static when both are static.
    pub const fn min(self, b: Int) -> Int {
        Int {
            value: if self.value < b.value {
                self.value
            } else {
                b.value
            },
            is_static: self.is_static && b.is_static,
        }
    }

    /// The larger of the two; static when both are static.
    pub const fn max(self, b: Int) -> Int {
        Int {
            value: if self.value > b.value {
                self.value
            } else {
                b.value
            },
            is_static: self.is_static && b.is_static,
        }
    }
}

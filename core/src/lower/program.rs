//! The straight-line index program of a shape, from its lowering: what a
//! layout type's `offset` runs unrolled.
//!
//! An affine tiling is a CuTe layout with one mode per logical dim, its
//! digits least significant first (`f32[3,5]{1,0:T(2,2)}` is
//! `((_2,_2),(_2,_3)):((_2,_12),(_1,_4))`). CuTe's `crd2idx` of an integer
//! coordinate `x` into such a mode splits it colexicographically: digit
//! `k` is `x % size_k` after dividing by the sizes below it, the last digit
//! takes the rest. The program does exactly that, per dim: `Load` the
//! coordinate, one `DivMod` by each digit's size but the last, and an
//! `Acc` of each digit times its stride. Digits of size 1 (stride `_0`)
//! hold 0 and cost nothing; the last digit that counts takes the rest
//! undivided, since an in-bounds coordinate leaves nothing above it.
//!
//! The program is read off the lowering's digits (the leaves of that
//! layout, as plain numbers), not off the CuTe layout itself: the same
//! build step, without the tuples, whose construction at compile time
//! costs more than the rest of a layout type's constants together.
//!
//! Post (tested on every vector, real shape and exhaustive sweep):
//! `index_program(s)?.run(c) == s.tiling()?.offset(c)?` for in-bounds
//! `c`, and the program equals the one read off the leaves of
//! [`lower`](super::lower)'s layout.

use super::digits::{digits, Digits, Found, MAX_DIGITS};
use crate::error::Error;
use crate::program::{Builder, Op, Program};
use crate::shape::Shape;
use crate::tiling::Tiling;

/// The index program of `shape` ([`tiling_program`] of its tiling).
///
/// Internal (the type layer's machinery, hidden from the docs).
///
/// # Errors
/// Any error of [`Shape::tiling`].
///
/// ```
/// use tilelayout::value::{__private::index_program, parse_shape};
/// let s = parse_shape("f32[3,5]{1,0:T(2,2)}")?;
/// assert_eq!(index_program(&s)?.run(&[2, 3]), 17);
/// # Ok::<(), tilelayout::value::Error>(())
/// ```
pub const fn index_program(shape: &Shape) -> Result<Program, Error> {
    match shape.tiling() {
        Ok(t) => Ok(tiling_program(&t)),
        Err(e) => Err(e),
    }
}

/// The index program of a tiling: from the lowering when the tiling is
/// affine; otherwise (a tile that cuts an earlier tile's dim unevenly,
/// [`Lowered::NotAffine`](super::Lowered::NotAffine), or a layout past
/// the algebra's capacity or `i64`) the exact fallback,
/// [`Tiling::program`], compiled from the tiling's own levels.
///
/// Internal (the type layer's machinery, hidden from the docs).
///
/// ```
/// use tilelayout::value::{__private::tiling_program, parse_shape};
/// let t = parse_shape("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}")?.tiling()?;
/// assert_eq!(tiling_program(&t).run(&[5, 0, 1000, 9999]), t.offset(&[5, 0, 1000, 9999])?);
/// # Ok::<(), tilelayout::value::Error>(())
/// ```
pub const fn tiling_program(tiling: &Tiling) -> Program {
    match digits(tiling) {
        Ok(Found::Affine(d)) => from_digits(&d),
        Ok(Found::Cut { .. }) | Err(_) => tiling.program(),
    }
}

/// The program of an affine tiling's digits: per logical dim, its digits
/// that count (size > 1) by weight, as the leaves of its mode in the
/// lowered layout.
const fn from_digits(d: &Digits) -> Program {
    // the digits that count, by dim, then by weight (insertion sort of
    // their indices; a dim's digits have distinct weights)
    let mut order = [0u16; MAX_DIGITS];
    let mut m = 0;
    let mut k = 0;
    while k < d.n {
        let x = &d.digits[k];
        if (x.dim as usize) < d.rank && x.size > 1 {
            let mut j = m;
            while j > 0 {
                let y = &d.digits[order[j - 1] as usize];
                if y.dim < x.dim || (y.dim == x.dim && y.below < x.below) {
                    break;
                }
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = k as u16;
            m += 1;
        }
        k += 1;
    }
    let mut b = Builder::new();
    let mut i = 0;
    while i < m {
        let dim = d.digits[order[i] as usize].dim;
        let mut end = i;
        // the last digit with a stride takes the rest
        let mut last = m;
        while end < m && d.digits[order[end] as usize].dim == dim {
            if d.digits[order[end] as usize].stride != 0 {
                last = end;
            }
            end += 1;
        }
        if last < m {
            let x = b.reg();
            b.push(Op::Load { dst: x, dim });
            let mut rest = x;
            let mut j = i;
            while j < last {
                let g = &d.digits[order[j] as usize];
                let q = b.reg();
                let r = b.reg();
                b.push(Op::DivMod {
                    q,
                    r,
                    src: rest,
                    t: g.size,
                });
                if g.stride != 0 {
                    b.push(Op::Acc {
                        src: r,
                        stride: g.stride,
                    });
                }
                rest = q;
                j += 1;
            }
            b.push(Op::Acc {
                src: rest,
                stride: d.digits[order[last] as usize].stride,
            });
        }
        i = end;
    }
    b.finish()
}

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
//! Post (tested on every vector, real shape and exhaustive sweep):
//! `index_program(s)?.run(c) == s.tiling()?.offset(c)?` for in-bounds `c`.

use super::{lower, LowerError, Lowered};
use crate::algebra::CuteLayout;
use crate::error::Error;
use crate::program::{Builder, Op, Program};
use crate::shape::Shape;

/// The index program of `shape`: from the lowered layout when the tiling
/// is affine; otherwise (a tile that cuts an earlier tile's dim unevenly,
/// [`Lowered::NotAffine`], or a layout past the algebra's capacity or
/// `i64`) the exact fallback, [`Tiling::program`](crate::Tiling::program),
/// compiled from the tiling's own levels.
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
    match lower(shape) {
        Ok(Lowered::Affine(a)) => Ok(from_layout(a.layout(), a.bounds().len())),
        Ok(Lowered::NotAffine(n)) => Ok(n.tiling().program()),
        Err(LowerError::Algebra(_)) => match shape.tiling() {
            Ok(t) => Ok(t.program()),
            Err(e) => Err(e),
        },
        Err(LowerError::Shape(e)) => Err(e),
    }
}

/// Size and stride of leaf `k` (both non-negative in a lowered layout).
const fn leaf(l: &CuteLayout, k: usize) -> (u64, u64) {
    let size = match l.shape().leaf(k) {
        Some(i) => i.value as u64,
        None => 1,
    };
    let stride = match l.stride().leaf(k) {
        Some(i) => i.value as u64,
        None => 0,
    };
    (size, stride)
}

/// The program of a layout with one mode per logical dim (`rank` modes).
const fn from_layout(l: &CuteLayout, rank: usize) -> Program {
    let mut b = Builder::new();
    let leaves = l.shape().leaf_count();
    let mut d = 0;
    while d < rank {
        let start = l.shape().mode_leaf_start(d);
        let end = if d + 1 < rank {
            l.shape().mode_leaf_start(d + 1)
        } else {
            leaves
        };
        // the last digit that counts: size > 1 and a stride
        let mut last = end;
        let mut k = start;
        while k < end {
            let (size, stride) = leaf(l, k);
            if size > 1 && stride != 0 {
                last = k;
            }
            k += 1;
        }
        if last < end {
            let x = b.reg();
            b.push(Op::Load {
                dst: x,
                dim: d as u8,
            });
            let mut rest = x;
            let mut k = start;
            while k < last {
                let (size, stride) = leaf(l, k);
                if size > 1 {
                    let q = b.reg();
                    let r = b.reg();
                    b.push(Op::DivMod {
                        q,
                        r,
                        src: rest,
                        t: size,
                    });
                    if stride != 0 {
                        b.push(Op::Acc { src: r, stride });
                    }
                    rest = q;
                }
                k += 1;
            }
            let (_, stride) = leaf(l, last);
            b.push(Op::Acc { src: rest, stride });
        }
        d += 1;
    }
    b.finish()
}

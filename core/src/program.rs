//! A tiling compiled to a short straight-line program, so that the type
//! layer can execute it fully unrolled with every constant folded.
//!
//! Internal: the type layer's machinery, not API (hidden from the docs,
//! reached through `__private`). The program a layout type runs comes
//! from the lowering into the layout algebra
//! ([`index_program`](crate::lower::index_program)); [`Tiling::program`]
//! here compiles the tiling's own levels and is the exact fallback for
//! tilings that are not affine.
//!
//! The program works on registers holding coordinates. `Load` reads a
//! logical coordinate; `MulAdd` combines dims (`*`); `DivMod` splits a
//! coordinate by a tile size; `Acc` adds a register times a stride to the
//! result. Trivial steps are left out at compile time: a tile size of 1
//! (quotient = value, remainder 0), a tile at least as large as its dim
//! (quotient 0), and registers known to be zero (left padding).
//!
//! Post (tested against [`Tiling::offset`] on every vector and property
//! input): `program.run(c) == tiling.offset(c)`.

use crate::tiling::Tiling;

/// Most steps in a program; longer tilings report [`Program::fits`] false
/// and the caller uses [`Tiling::offset_unchecked`] instead.
pub const MAX_OPS: usize = 64;
/// Most registers a program uses.
pub const MAX_REGS: usize = 64;
/// `MulAdd`'s `b` when there is nothing to add.
pub const NO_REG: u8 = u8::MAX;

/// One step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Does nothing (fills unused steps).
    Nop,
    /// `r[dst] = index[dim]`.
    Load {
        /// Destination register.
        dst: u8,
        /// Logical dim.
        dim: u8,
    },
    /// `r[dst] = r[a] * k + r[b]` (`+ 0` when `b == NO_REG`).
    MulAdd {
        /// Destination register.
        dst: u8,
        /// Multiplied register.
        a: u8,
        /// Constant factor.
        k: u64,
        /// Added register, or [`NO_REG`].
        b: u8,
    },
    /// `r[q] = r[src] / t; r[r] = r[src] % t`.
    DivMod {
        /// Quotient register.
        q: u8,
        /// Remainder register.
        r: u8,
        /// Source register.
        src: u8,
        /// Tile size.
        t: u64,
    },
    /// `result += r[src] * stride`.
    Acc {
        /// Source register.
        src: u8,
        /// Stride of the expanded dim.
        stride: u64,
    },
}

/// A compiled tiling (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Program {
    ops: [Op; MAX_OPS],
    len: u8,
    fits: bool,
}

#[derive(Clone, Copy)]
enum Val {
    Zero,
    Reg(u8),
}

/// Builds a [`Program`] step by step; running out of steps or registers
/// marks it as not fitting instead of failing.
pub(crate) struct Builder {
    p: Program,
    next_reg: usize,
}

impl Builder {
    pub(crate) const fn new() -> Builder {
        Builder {
            p: Program {
                ops: [Op::Nop; MAX_OPS],
                len: 0,
                fits: true,
            },
            next_reg: 0,
        }
    }

    pub(crate) const fn finish(self) -> Program {
        self.p
    }

    pub(crate) const fn push(&mut self, op: Op) {
        if (self.p.len as usize) < MAX_OPS {
            self.p.ops[self.p.len as usize] = op;
            self.p.len += 1;
        } else {
            self.p.fits = false;
        }
    }

    pub(crate) const fn reg(&mut self) -> u8 {
        if self.next_reg >= MAX_REGS {
            self.p.fits = false;
            return 0;
        }
        self.next_reg += 1;
        (self.next_reg - 1) as u8
    }
}

impl Program {
    /// The steps.
    pub const fn ops(&self) -> &[Op] {
        self.ops.split_at(self.len as usize).0
    }

    /// Step `i` (`Op::Nop` past the end): what the unrolled executor reads.
    pub const fn op(&self, i: usize) -> Op {
        if i < self.len as usize {
            self.ops[i]
        } else {
            Op::Nop
        }
    }

    /// The number of steps.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the program has no steps (a scalar, or all coordinates 0).
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the tiling fit in [`MAX_OPS`] steps and [`MAX_REGS`]
    /// registers; if not, the program must not be used.
    pub const fn fits(&self) -> bool {
        self.fits
    }

    /// Runs the program (the reference interpreter; the type layer runs it
    /// unrolled instead).
    ///
    /// Pre: `fits()`, one coordinate per dim in bounds. Otherwise the result
    /// is unspecified but the call still returns, in debug and release
    /// builds alike: missing coordinates read as 0, extra ones are ignored,
    /// and the arithmetic wraps.
    ///
    /// ```
    /// use tilelayout::value::parse_shape;
    /// let p = parse_shape("f32[3,5]{1,0:T(2,2)}").unwrap().tiling().unwrap().program();
    /// assert_eq!(p.run(&[2, 3]), 17);
    /// let _ = p.run(&[u64::MAX, 1]); // no panic
    /// let _ = p.run(&[]); // no panic
    /// ```
    pub const fn run(&self, index: &[u64]) -> u64 {
        let mut r = [0u64; MAX_REGS];
        let mut acc = 0u64;
        let mut i = 0;
        while i < self.len as usize {
            match self.ops[i] {
                Op::Nop => {}
                Op::Load { dst, dim } => {
                    let d = dim as usize;
                    r[dst as usize] = if d < index.len() { index[d] } else { 0 };
                }
                Op::MulAdd { dst, a, k, b } => {
                    let add = if b == NO_REG { 0 } else { r[b as usize] };
                    r[dst as usize] = r[a as usize].wrapping_mul(k).wrapping_add(add);
                }
                Op::DivMod { q, r: rem, src, t } => {
                    // `t` is a tile dim, never 0 in a valid tiling
                    let v = r[src as usize];
                    r[q as usize] = v / t;
                    r[rem as usize] = v % t;
                }
                Op::Acc { src, stride } => {
                    acc = acc.wrapping_add(r[src as usize].wrapping_mul(stride))
                }
            }
            i += 1;
        }
        acc
    }
}

impl Tiling {
    /// Compiles the tiling's own levels to a straight-line [`Program`]:
    /// the exact fallback of [`index_program`](crate::lower::index_program)
    /// for tilings that are not affine.
    ///
    /// ```
    /// use tilelayout::value::{parse_shape, __private::Op};
    /// let t = parse_shape("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}").unwrap().tiling().unwrap();
    /// let p = t.program();
    /// assert!(p.fits());
    /// // three divisions (by 8, 128 and 2); the (…,1) and the size-1 dim cost nothing
    /// let divs = p.ops().iter().filter(|o| matches!(o, Op::DivMod { .. })).count();
    /// assert_eq!(divs, 3);
    /// assert_eq!(p.run(&[5, 0, 1000, 9999]), t.offset(&[5, 0, 1000, 9999]).unwrap());
    /// ```
    #[doc(hidden)] // reason: returns the internal `Program`
    pub const fn program(&self) -> Program {
        let mut b = Builder::new();
        let mut cur = [Val::Zero; crate::MAX_EXPANDED_RANK];
        let rank = self.rank();
        let mut r = rank;
        let mut p = 0;
        while p < rank {
            let dim = self.physical_to_logical(p);
            // a dim of size 1 always has coordinate 0
            if self.physical_dims().as_slice()[p] > 1 {
                let dst = b.reg();
                b.push(Op::Load {
                    dst,
                    dim: dim as u8,
                });
                cur[p] = Val::Reg(dst);
            }
            p += 1;
        }
        let mut li = 0;
        while li < self.level_count() {
            let lv = self.level(li);
            let pad = lv.pad as usize;
            if pad > 0 {
                let mut i = r;
                while i > 0 {
                    i -= 1;
                    cur[i + pad] = cur[i];
                }
                let mut i = 0;
                while i < pad {
                    cur[i] = Val::Zero;
                    i += 1;
                }
                r += pad;
            }
            let base = lv.base as usize;
            let g = lv.groups as usize;
            let mut out = [Val::Zero; crate::MAX_EXPANDED_RANK];
            let mut i = 0;
            while i < base {
                out[i] = cur[i];
                i += 1;
            }
            let mut acc = Val::Zero;
            let mut q = 0;
            let mut j = 0;
            while j < r - base {
                let d = lv.tiled[j];
                // acc = acc * d + cur[base + j]
                acc = match (acc, cur[base + j]) {
                    (Val::Zero, v) => v,
                    (Val::Reg(a), Val::Zero) => {
                        let dst = b.reg();
                        b.push(Op::MulAdd {
                            dst,
                            a,
                            k: d,
                            b: NO_REG,
                        });
                        Val::Reg(dst)
                    }
                    (Val::Reg(a), Val::Reg(c)) => {
                        let dst = b.reg();
                        b.push(Op::MulAdd { dst, a, k: d, b: c });
                        Val::Reg(dst)
                    }
                };
                if q < g && lv.gend[q] as usize == j {
                    let t = lv.gtile[q];
                    let (outer, inner) = match acc {
                        Val::Zero => (Val::Zero, Val::Zero),
                        Val::Reg(_) if t == 1 => (acc, Val::Zero),
                        Val::Reg(_) if lv.gdim(q) <= t => (Val::Zero, acc),
                        Val::Reg(src) => {
                            let qr = b.reg();
                            let rr = b.reg();
                            b.push(Op::DivMod {
                                q: qr,
                                r: rr,
                                src,
                                t,
                            });
                            (Val::Reg(qr), Val::Reg(rr))
                        }
                    };
                    out[base + q] = outer;
                    out[base + g + q] = inner;
                    q += 1;
                    acc = Val::Zero;
                }
                j += 1;
            }
            cur = out;
            r = base + 2 * g;
            li += 1;
        }
        let strides = self.expanded_strides();
        let strides = strides.as_slice();
        let mut i = 0;
        while i < r {
            if let Val::Reg(src) = cur[i] {
                b.push(Op::Acc {
                    src,
                    stride: strides[i],
                });
            }
            i += 1;
        }
        b.finish()
    }
}

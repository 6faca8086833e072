//! CuTe's notation, printed exactly as CuTe's `operator<<` prints it
//! (the grammar is in `notation.rs`): into a fixed [`TextBuf`]
//! in `const fn`, and through `Display`/`Debug`.

use super::int::Int;
use super::layout::CuteLayout;
use super::notation::AnyLayout;
use super::swizzle::{ComposedLayout, Swizzle, SwizzledInput};
use super::tiler::Tiler;
use super::tuple::IntTuple;
use super::{MAX_DEPTH, MAX_TEXT};
use crate::TextBuf;

/// Writes a tiler as CuTe prints it: `_4`, `_4:_2`, `(_2,(_3:_2,_4))`.
pub const fn write_tiler<const N: usize>(t: &mut TextBuf<N>, x: &Tiler) {
    if !x.is_by_mode() {
        if let Ok(l) = x.mode(0) {
            if x.mode_is_int(0) {
                write_int_tuple(t, l.shape());
            } else {
                write_layout(t, &l);
            }
        }
        return;
    }
    t.push_ascii(b'(');
    let mut i = 0;
    while i < x.rank() {
        if i > 0 {
            t.push_ascii(b',');
        }
        if let Ok(sub) = x.sub(i) {
            write_tiler(t, &sub);
        }
        i += 1;
    }
    t.push_ascii(b')');
}

impl core::fmt::Display for Tiler {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.to_text().as_str())
    }
}

/// Writes one integer as CuTe prints it: `_4` static, `4` dynamic.
pub const fn write_int<const N: usize>(t: &mut TextBuf<N>, i: Int) {
    if i.is_static {
        t.push_ascii(b'_');
    }
    t.push_i64(i.value);
}

/// Writes an IntTuple as CuTe prints it: `(_2,(3,_4))`.
pub const fn write_int_tuple<const N: usize>(t: &mut TextBuf<N>, x: &IntTuple) {
    let mut remaining = [0usize; MAX_DEPTH + 1];
    let mut started = [false; MAX_DEPTH + 1];
    let mut top = 0usize;
    let mut p = 0;
    while p < x.node_count() {
        if top > 0 {
            if started[top - 1] {
                t.push_ascii(b',');
            }
            started[top - 1] = true;
            remaining[top - 1] -= 1;
        }
        let (int, arity) = x.node_at(p);
        match int {
            Some(i) => write_int(t, i),
            None => {
                t.push_ascii(b'(');
                if arity > 0 && top < MAX_DEPTH + 1 {
                    remaining[top] = arity;
                    started[top] = false;
                    top += 1;
                } else {
                    t.push_ascii(b')');
                }
            }
        }
        while top > 0 && remaining[top - 1] == 0 {
            t.push_ascii(b')');
            top -= 1;
        }
        p += 1;
    }
}

/// Writes a layout as CuTe prints it: `shape:stride`.
pub const fn write_layout<const N: usize>(t: &mut TextBuf<N>, l: &CuteLayout) {
    write_int_tuple(t, l.shape());
    t.push_ascii(b':');
    write_int_tuple(t, l.stride());
}

/// Writes a swizzle as CuTe prints it: `Sw<3,4,3>`.
pub const fn write_swizzle<const N: usize>(t: &mut TextBuf<N>, s: &Swizzle) {
    t.push_str("Sw<");
    t.push_i64(s.bits() as i64);
    t.push_ascii(b',');
    t.push_i64(s.base() as i64);
    t.push_ascii(b',');
    t.push_i64(s.shift() as i64);
    t.push_ascii(b'>');
}

/// Writes a composed layout as CuTe prints it: `Sw<3,4,3> o _0 o
/// (8,64):(64,1)`.
pub const fn write_composed<const N: usize>(t: &mut TextBuf<N>, c: &ComposedLayout) {
    write_swizzle(t, &c.swizzle);
    t.push_str(" o ");
    write_int(t, c.offset);
    t.push_str(" o ");
    write_layout(t, &c.layout);
}

impl core::fmt::Display for IntTuple {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.to_text().as_str())
    }
}

/// `Debug` prints CuTe's notation too (the node array is an internal
/// encoding).
impl core::fmt::Debug for IntTuple {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "IntTuple({})", self.to_text().as_str())
    }
}

/// `Debug` prints CuTe's notation.
impl core::fmt::Debug for CuteLayout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "CuteLayout({})", self.to_text().as_str())
    }
}

impl core::fmt::Display for CuteLayout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.to_text().as_str())
    }
}

impl core::fmt::Display for Swizzle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut t = TextBuf::<48>::new();
        write_swizzle(&mut t, self);
        f.write_str(t.as_str())
    }
}

impl core::fmt::Display for ComposedLayout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.to_text().as_str())
    }
}

/// Writes `layout o offset o Sw<B,M,S>` as CuTe prints it.
pub const fn write_swizzled_input<const N: usize>(t: &mut TextBuf<N>, c: &SwizzledInput) {
    write_layout(t, &c.layout);
    t.push_str(" o ");
    write_int(t, c.offset);
    t.push_str(" o ");
    write_swizzle(t, &c.swizzle);
}

impl SwizzledInput {
    /// Prints as CuTe does (`(_4,_4):(_4,_1) o _0 o Sw<2,0,2>`).
    pub const fn to_text(&self) -> TextBuf<MAX_TEXT> {
        let mut t = TextBuf::new();
        write_swizzled_input(&mut t, self);
        t
    }
}

impl core::fmt::Display for SwizzledInput {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.to_text().as_str())
    }
}

impl core::fmt::Display for AnyLayout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.to_text().as_str())
    }
}

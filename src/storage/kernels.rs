//! The inner kernels of a relayout: what moves the elements of one block.
//!
//! [`UnitMover`] moves whole units (any `Pod` of the storage width; the plan
//! casts to `u8`/`u16`/`u32`/`u64`), [`BitMover`] packed sub-byte slots.
//! The only `unsafe` is the non-temporal store in [`stream`] (x86-64),
//! covered by `tests/relayout_miri.rs`.

use core::mem::size_of_val;

use super::packed;
use super::plan::Loop;
use super::relayout::Kernel;

/// Moves elements for the loop walker.
pub(crate) trait Mover {
    /// A block of `a.n × b.n` elements, every one in bounds.
    fn block(&mut self, k: Kernel, a: &Loop, b: &Loop, s: usize, d: usize);
    /// One element.
    fn one(&mut self, s: usize, d: usize);
    /// `len` contiguous destination slots of padding.
    fn pad(&mut self, d: usize, len: usize);
    /// After the last move (store fence for streaming stores).
    fn finish(&mut self) {}
}

/// The kernel for inner loops `a` (outer) and `b` (inner).
pub(crate) fn classify(a: &Loop, b: &Loop) -> Kernel {
    let small = |n: u64| matches!(n, 2 | 4 | 8);
    if b.src == 1 && b.dst == 1 {
        Kernel::Runs
    } else if a.n > 1 && b.dst == 1 && a.src == 1 && small(b.n) && a.dst == b.n {
        Kernel::Interleave(b.n as u8)
    } else if b.n > 1 && b.dst == 1 && a.src == 1 && small(a.n) && b.src == a.n {
        Kernel::Deinterleave(a.n as u8)
    } else {
        Kernel::Block
    }
}

/// Whole-unit moves.
pub(crate) struct UnitMover<'a, T> {
    pub(crate) src: &'a [T],
    pub(crate) dst: &'a mut [T],
    pub(crate) pad: T,
    pub(crate) nt: bool,
}

impl<T: bytemuck::Pod> Mover for UnitMover<'_, T> {
    #[inline]
    fn block(&mut self, k: Kernel, a: &Loop, b: &Loop, s: usize, d: usize) {
        let (src, dst) = (self.src, &mut *self.dst);
        match k {
            Kernel::Runs => {
                let n = b.n as usize;
                for i in 0..a.n as usize {
                    let so = s + i * a.src as usize;
                    let dof = d + i * a.dst as usize;
                    copy_run(&src[so..so + n], &mut dst[dof..dof + n], self.nt);
                }
            }
            Kernel::Interleave(2) => interleave::<T, 2>(src, s, b.src as usize, dst, d, a.n as usize),
            Kernel::Interleave(4) => interleave::<T, 4>(src, s, b.src as usize, dst, d, a.n as usize),
            Kernel::Interleave(8) => interleave::<T, 8>(src, s, b.src as usize, dst, d, a.n as usize),
            Kernel::Deinterleave(2) => deinterleave::<T, 2>(src, s, dst, d, a.dst as usize, b.n as usize),
            Kernel::Deinterleave(4) => deinterleave::<T, 4>(src, s, dst, d, a.dst as usize, b.n as usize),
            Kernel::Deinterleave(8) => deinterleave::<T, 8>(src, s, dst, d, a.dst as usize, b.n as usize),
            _ => {
                let (as_, ad, bs, bd) = (a.src as usize, a.dst as usize, b.src as usize, b.dst as usize);
                for i in 0..a.n as usize {
                    let (si, di) = (s + i * as_, d + i * ad);
                    for j in 0..b.n as usize {
                        dst[di + j * bd] = src[si + j * bs];
                    }
                }
            }
        }
    }

    #[inline]
    fn one(&mut self, s: usize, d: usize) {
        self.dst[d] = self.src[s];
    }

    fn pad(&mut self, d: usize, len: usize) {
        self.dst[d..d + len].fill(self.pad);
    }

    fn finish(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if self.nt {
            stream::fence();
        }
    }
}

/// Copies one run, with streaming stores if `nt` and the run is long
/// enough to write whole cache lines.
#[inline]
fn copy_run<T: bytemuck::Pod>(src: &[T], dst: &mut [T], nt: bool) {
    #[cfg(target_arch = "x86_64")]
    if nt && size_of_val(dst) >= 64 {
        stream::copy(bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst));
        return;
    }
    let _ = (nt, size_of_val(dst));
    dst.copy_from_slice(src);
}

/// `K` source rows of `n` (row stride `rs`) zipped into `K·n` contiguous
/// destination slots: `dst[d + K·c + k] = src[s + k·rs + c]`.
#[inline]
fn interleave<T: Copy, const K: usize>(src: &[T], s: usize, rs: usize, dst: &mut [T], d: usize, n: usize) {
    let out = &mut dst[d..d + K * n];
    let row = |k: usize| &src[s + k * rs..s + k * rs + n];
    // written per K so that the compiler sees K independent streams it can
    // vectorize into unpack/shuffle sequences
    match K {
        2 => {
            for ((o, &x), &y) in out.chunks_exact_mut(2).zip(row(0)).zip(row(1)) {
                o[0] = x;
                o[1] = y;
            }
        }
        4 => {
            let it = out.chunks_exact_mut(4).zip(row(0)).zip(row(1)).zip(row(2)).zip(row(3));
            for ((((o, &x0), &x1), &x2), &x3) in it {
                o[0] = x0;
                o[1] = x1;
                o[2] = x2;
                o[3] = x3;
            }
        }
        _ => {
            for k in 0..K {
                for (o, &x) in out[k..].iter_mut().step_by(K).zip(row(k)) {
                    *o = x;
                }
            }
        }
    }
}

/// `K·n` contiguous source slots split into `K` destination rows (row
/// stride `rs`): `dst[d + k·rs + c] = src[s + K·c + k]`.
#[inline]
fn deinterleave<T: Copy, const K: usize>(src: &[T], s: usize, dst: &mut [T], d: usize, rs: usize, n: usize) {
    let inp = &src[s..s + K * n];
    for k in 0..K {
        let row = &mut dst[d + k * rs..d + k * rs + n];
        for (o, c) in row.iter_mut().zip(inp.chunks_exact(K)) {
            *o = c[k];
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod stream {
    use core::arch::x86_64::{__m128i, _mm_sfence, _mm_stream_si128};

    /// `dst.copy_from_slice(src)` with non-temporal stores for the whole
    /// 64-byte lines of `dst`; the partial lines at both ends take plain
    /// stores (a partial non-temporal line costs a read-modify-write in
    /// memory). Pre: equal lengths.
    pub(super) fn copy(src: &[u8], dst: &mut [u8]) {
        let head = dst.as_ptr().align_offset(64).min(dst.len());
        let (dh, rest) = dst.split_at_mut(head);
        dh.copy_from_slice(&src[..head]);
        let src = &src[head..];
        let body = rest.len() / 64 * 64;
        let (db, dt) = rest.split_at_mut(body);
        for (o, i) in db.chunks_exact_mut(64).zip(src.chunks_exact(64)) {
            let v: [__m128i; 4] = [
                bytemuck::pod_read_unaligned(&i[0..16]),
                bytemuck::pod_read_unaligned(&i[16..32]),
                bytemuck::pod_read_unaligned(&i[32..48]),
                bytemuck::pod_read_unaligned(&i[48..64]),
            ];
            let p = o.as_mut_ptr().cast::<__m128i>();
            // SAFETY:
            // - `o` is a live, exclusively borrowed 64-byte chunk of `dst`,
            //   so `p .. p+4` (4 × 16 bytes) is valid for writes;
            // - `p` is 64-byte (so 16-byte) aligned: `db` starts at
            //   `dst + head` with `head = align_offset(64)`, and chunks
            //   advance by 64 (if `align_offset` gave up, `head ==
            //   dst.len()` and `db` is empty);
            // - SSE2 is part of the x86-64 baseline.
            unsafe {
                _mm_stream_si128(p, v[0]);
                _mm_stream_si128(p.add(1), v[1]);
                _mm_stream_si128(p.add(2), v[2]);
                _mm_stream_si128(p.add(3), v[3]);
            }
        }
        dt.copy_from_slice(&src[body..]);
    }

    /// Orders the streaming stores before any later store (they are weakly
    /// ordered).
    pub(super) fn fence() {
        // SAFETY: `sfence` has no memory operands and no preconditions
        // beyond SSE, which is part of the x86-64 baseline.
        unsafe { _mm_sfence() };
    }
}

/// Packed sub-byte moves (1, 2 or 4 bits per slot).
pub(crate) struct BitMover<'a> {
    pub(crate) src: &'a [u8],
    pub(crate) dst: &'a mut [u8],
    pub(crate) bits: u32,
    pub(crate) pad: u8,
}

impl Mover for BitMover<'_> {
    fn block(&mut self, k: Kernel, a: &Loop, b: &Loop, s: usize, d: usize) {
        let per = (8 / self.bits) as usize;
        let n = b.n as usize;
        let aligned = |x: usize| x % per == 0;
        if k == Kernel::Runs && aligned(n) && aligned(a.src as usize) && aligned(a.dst as usize) && aligned(s) && aligned(d) {
            for i in 0..a.n as usize {
                let so = (s + i * a.src as usize) / per;
                let dof = (d + i * a.dst as usize) / per;
                self.dst[dof..dof + n / per].copy_from_slice(&self.src[so..so + n / per]);
            }
            return;
        }
        for i in 0..a.n as usize {
            let (si, di) = (s + i * a.src as usize, d + i * a.dst as usize);
            for j in 0..n {
                self.one(si + j * b.src as usize, di + j * b.dst as usize);
            }
        }
    }

    #[inline]
    fn one(&mut self, s: usize, d: usize) {
        packed::set(self.dst, d, self.bits, packed::get(self.src, s, self.bits));
    }

    fn pad(&mut self, d: usize, len: usize) {
        let per = (8 / self.bits) as usize;
        let (mut i, end) = (d, d + len);
        while i < end && i % per != 0 {
            packed::set(self.dst, i, self.bits, self.pad);
            i += 1;
        }
        let mut byte = 0u8;
        for k in 0..per {
            byte |= (self.pad & packed::mask(self.bits)) << (k as u32 * self.bits);
        }
        let full = (end - i) / per;
        self.dst[i / per..i / per + full].fill(byte);
        i += full * per;
        while i < end {
            packed::set(self.dst, i, self.bits, self.pad);
            i += 1;
        }
    }
}

//! The [`Layout`] trait and [`Tiled`], the layout type built from XLA's
//! pieces. Every constant is computed by the core's `const fn`s from the
//! type parameters: the same code the runtime uses, at compile time.

use core::marker::PhantomData;

use super::params::{AttrSet, Descending, DimsParam, Order, Tiles, COMBINE, MAX_TYPE_RANK};
use super::verdict::Verdict;
use crate::scalar::dtype::Dtype;
use crate::value::__private::{tiling_program, Program};
use crate::value::{self, Error, TextBuf, TileDim, Tiling};

/// A memory layout as a type: every property a compile-time constant, and
/// an index function that compiles to the arithmetic a person would write.
///
/// Implemented by [`Tiled`] (and so by everything [`crate::layout!`]
/// expands to).
///
/// # Examples
/// Figure 1 of XLA's tiled-layout documentation: `f32[3,5]` in 2×2 tiles.
/// ```
/// use tilelayout::{Layout, Dims, Tiled, F32, T};
/// type A = Tiled<F32, Dims<3, 5>, T<2, 2>>;
/// assert_eq!(A::TEXT, "f32[3,5]{1,0:T(2,2)}");
/// assert_eq!((A::ELEMENTS, A::SLOTS, A::BYTES), (15, 24, 96));
/// assert_eq!(A::offset([2, 3]), 17);
/// assert_eq!(A::coords::<2>(17), Some([2, 3]));
/// assert_eq!(A::coords::<2>(9), None); // padding
/// ```
///
/// # Compile-time errors
/// An index of the wrong rank is rejected when the code is built (a
/// post-monomorphization error, not seen by `cargo check`):
/// ```compile_fail,E0080
/// use tilelayout::{Layout, Dims, Tiled, F32, T};
/// type A = Tiled<F32, Dims<3, 5>, T<2, 2>>;
/// let _ = A::offset([1, 2, 3]); // rank 2 layout, 3 coordinates
/// ```
pub trait Layout: 'static + Sized {
    /// The element type.
    type Dtype: Dtype;
    /// The number of dims.
    const RANK: usize;
    /// The dims, in logical order (entries past `RANK` are 0).
    const DIMS: [usize; MAX_TYPE_RANK];
    /// The number of elements.
    const ELEMENTS: usize;
    /// The number of slots (storage positions, padding included).
    const SLOTS: usize;
    /// Exact bytes of storage: `SLOTS` × storage bits ÷ 8, rounded up.
    const BYTES: usize;
    /// XLA's `ShapeUtil::ArraySize` bytes (what TPU allocations report).
    const XLA_BYTES: usize;
    /// XLA's canonical text of the layout.
    const TEXT: &'static str;
    /// The runtime value of this layout.
    const SHAPE: value::Shape;
    /// The compiled tiling (the runtime index math, as a constant).
    const TILING: Tiling;
    /// Whether the type passes every compile-time check, and if not, why;
    /// never fails to evaluate ([`crate::assert_layout!`] checks it).
    const VERDICT: Verdict;
    /// Evaluating this checks every rule: a compile error, reported inside
    /// this library, if the type is invalid. Prefer
    /// [`crate::assert_layout!`], whose error is reported at its own line.
    const VALID: ();

    /// The slot of logical coordinates `index` (in the order the dims are
    /// written). In release builds this is a fully unrolled, constant-folded
    /// sequence of multiply-adds, shifts and masks.
    ///
    /// Coordinates are not bounds-checked in release builds (an
    /// out-of-bounds coordinate gives an unspecified slot, never UB);
    /// debug builds assert them. Use [`Layout::checked_offset`] for input
    /// you do not trust.
    #[inline(always)]
    fn offset<const N: usize>(index: [usize; N]) -> usize {
        const { check_rank(Self::RANK, N) };
        debug_assert!(in_bounds(&index, &Self::DIMS), "index out of bounds");
        exec::offset::<Self, N>(&index)
    }

    /// [`Layout::offset`] with bounds checks: `None` if a coordinate is out
    /// of bounds.
    #[inline]
    fn checked_offset<const N: usize>(index: [usize; N]) -> Option<usize> {
        const { check_rank(Self::RANK, N) };
        if in_bounds(&index, &Self::DIMS) {
            Some(exec::offset::<Self, N>(&index))
        } else {
            None
        }
    }

    /// The coordinates stored at `slot`, or `None` for padding or a slot
    /// past the end.
    fn coords<const N: usize>(slot: usize) -> Option<[usize; N]> {
        const { check_rank(Self::RANK, N) };
        let c = Self::TILING.coords(slot as u64).ok()??;
        let mut out = [0usize; N];
        for (o, v) in out.iter_mut().zip(c.as_slice()) {
            *o = *v as usize;
        }
        Some(out)
    }

    /// The runtime value of this layout (same as [`Layout::SHAPE`]).
    fn to_value() -> value::Shape {
        Self::SHAPE
    }
}

/// The slot of `index` under `L`, in a `const` context (the same math as
/// [`Layout::offset`], run by the core's interpreter).
///
/// ```
/// use tilelayout::{const_offset, Dims, Tiled, F32, T};
/// const SLOT: usize = const_offset::<Tiled<F32, Dims<3, 5>, T<2, 2>>, 2>([2, 3]);
/// assert_eq!(SLOT, 17);
/// ```
pub const fn const_offset<L: Layout, const N: usize>(index: [usize; N]) -> usize {
    check_rank(L::RANK, N);
    let mut c = [0u64; N];
    let mut i = 0;
    while i < N {
        assert!(index[i] < L::DIMS[i], "index out of bounds");
        c[i] = index[i] as u64;
        i += 1;
    }
    L::TILING.offset_unchecked(&c) as usize
}

/// A layout type: element type `E`, dims `S`, tiles `Ts` (applied in
/// order), `minor_to_major` `M` (default: descending) and attributes `A`
/// (default: none).
///
/// `Tiled<F32, Dims<3,5>, T<2,2>>` is `f32[3,5]{1,0:T(2,2)}`;
/// `Tiled<BF16, Dims<8,1,1280,16384>, (T<8,128>, T<2,1>), MinorToMajor<3,2,0,1>>`
/// is `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`. [`crate::layout!`]
/// writes the same types from the text (omitting parameters that have their
/// default, so the two spellings are one type).
///
/// # Compile-time errors
/// A layout that breaks a validity rule (a `minor_to_major` that is not a
/// permutation of the dims, an empty tile or a tile dim of 0, `L(0)`, a
/// `*` as the most minor tile dim, a size that overflows) fails to compile
/// when a constant of it is used; [`crate::assert_layout!`] makes that happen at
/// `cargo check`:
/// ```compile_fail,E0080
/// use tilelayout::{assert_layout, Dims, Tiled, F32, T};
/// assert_layout!(Tiled<F32, Dims<3, 5>, T<0, 2>>); // tile 0 has a zero dim
/// ```
pub struct Tiled<E, S, Ts = (), M = Descending, A = ()>(PhantomData<(E, S, Ts, M, A)>);

impl<E, S, Ts, M, A> Clone for Tiled<E, S, Ts, M, A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<E, S, Ts, M, A> Copy for Tiled<E, S, Ts, M, A> {}
impl<E, S, Ts, M, A> Default for Tiled<E, S, Ts, M, A> {
    fn default() -> Self {
        Tiled(PhantomData)
    }
}
impl<E, S, Ts, M, A> core::fmt::Debug for Tiled<E, S, Ts, M, A>
where
    Self: Layout,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(<Self as Layout>::TEXT)
    }
}

/// `Tiled` without tiles: `Untiled<F32, Dims<3, 5>>` is `f32[3,5]{1,0}`.
pub type Untiled<E, S, M = Descending> = Tiled<E, S, (), M>;

#[track_caller] // reason: the error points at the `const` block, not at this helper
const fn check_rank(rank: usize, n: usize) {
    if rank != n {
        let mut t = TextBuf::<96>::new();
        t.push_str("index has ");
        t.push_u64(n as u64);
        t.push_str(if n == 1 {
            " coordinate"
        } else {
            " coordinates"
        });
        t.push_str(" but the layout has rank ");
        t.push_u64(rank as u64);
        panic!("{}", t.as_str());
    }
}

#[inline(always)]
fn in_bounds<const N: usize>(index: &[usize; N], dims: &[usize; MAX_TYPE_RANK]) -> bool {
    let mut ok = true;
    for i in 0..N {
        ok &= index[i] < dims[i];
    }
    ok
}

/// Everything the constants of a layout type are read from, computed
/// without panicking: the one panic is [`Verdict::check`], so that it can
/// happen where the user names the type.
#[derive(Clone, Copy)]
struct Facts {
    shape: value::Shape,
    tiling: Tiling,
    rank: usize,
    elements: usize,
    slots: usize,
    bytes: usize,
    xla_bytes: usize,
}

/// The facts of a valid layout, or the panic of its verdict. Every constant
/// of an invalid type fails here with the verdict's message.
#[track_caller] // reason: the error points at the constant being evaluated
const fn facts(f: Result<Facts, Verdict>) -> Facts {
    match f {
        Ok(f) => f,
        Err(v) => {
            v.check();
            // `check` panics on a failed verdict; `Err` holds only those.
            panic!("invalid layout type")
        }
    }
}

/// "invalid layout type TEXT: MESSAGE". (The text is printed on this error
/// path only: a valid type pays for it only if `TEXT` is used.)
const fn invalid(shape: &value::Shape, e: Error) -> Verdict {
    Verdict::fail(&[
        "invalid layout type ",
        shape.canonical::<{ crate::types::TEXT_CAP }>().as_str(),
        ": ",
        e.describe().as_str(),
    ])
}

/// `v` as a `usize`, or the verdict that it does not fit this target.
#[allow(clippy::result_large_err)] // reason: compile-time only; a const fn cannot box
const fn to_usize(shape: &value::Shape, v: u64, what: &str) -> Result<usize, Verdict> {
    if v > usize::MAX as u64 {
        let mut n = TextBuf::<24>::new();
        n.push_u64(v);
        return Err(Verdict::fail(&[
            "invalid layout type ",
            shape.canonical::<{ crate::types::TEXT_CAP }>().as_str(),
            ": ",
            what,
            " ",
            n.as_str(),
            " does not fit in usize on this target",
        ]));
    }
    Ok(v as usize)
}

/// The verdict on a parameter written after an absent one (`usize::MAX`
/// marks absent parameters).
const fn gap(what: &str, position: usize) -> Verdict {
    let mut t = TextBuf::<24>::new();
    t.push_u64(position as u64);
    Verdict::fail(&[
        "invalid layout type: ",
        what,
        ": parameter ",
        t.as_str(),
        " follows an absent one (`usize::MAX` marks absent parameters; \
         they must come last)",
    ])
}

/// Checks the type parameters and computes every fact of the layout.
#[allow(clippy::result_large_err)] // reason: compile-time only; a const fn cannot box
const fn compute<E: Dtype, S: DimsParam, Ts: Tiles, M: Order, A: AttrSet>() -> Result<Facts, Verdict>
{
    if let Some(p) = S::GAP {
        return Err(gap("Dims<…>", p));
    }
    if let Some((tile, p)) = Ts::GAP {
        let mut what = TextBuf::<24>::new();
        what.push_str("tile ");
        what.push_u64(tile as u64);
        what.push_str(", T<…>");
        return Err(gap(what.as_str(), p));
    }
    if let Some(p) = M::GAP {
        return Err(gap("MinorToMajor<…>", p));
    }
    let rank = S::RANK;
    let shape = match build_shape::<E, S, Ts, M, A>(rank) {
        Some(s) => s,
        None => return Err(Verdict::fail(&["invalid layout type: more than 8 dims"])),
    };
    // One tiling for every constant: compiling it is most of what a type
    // costs at compile time. (`tiling` validates the shape; the element
    // size is checked after it, as `validate` would order them: a layout
    // type's shape is a static array, so `validate` fails exactly when
    // `tiling` does, with the same error.)
    let tiling = match shape.tiling() {
        Ok(t) => t,
        Err(e) => return Err(invalid(&shape, e)),
    };
    if let Err(e) = value::check_element_size(A::ELEMENT_BITS as u64) {
        return Err(invalid(&shape, e));
    }
    let sizes = match shape.sizes_with(&tiling) {
        Ok(s) => s,
        Err(e) => return Err(invalid(&shape, e)),
    };
    let elements = match to_usize(&shape, tiling.elements(), "the element count") {
        Ok(v) => v,
        Err(v) => return Err(v),
    };
    let slots = match to_usize(&shape, tiling.slots(), "the slot count") {
        Ok(v) => v,
        Err(v) => return Err(v),
    };
    let bytes = match to_usize(&shape, sizes.bytes, "the byte size") {
        Ok(v) => v,
        Err(v) => return Err(v),
    };
    let xla_bytes = match to_usize(&shape, sizes.xla_bytes, "XLA's byte size") {
        Ok(v) => v,
        Err(v) => return Err(v),
    };
    Ok(Facts {
        shape,
        tiling,
        rank,
        elements,
        slots,
        bytes,
        xla_bytes,
    })
}

/// Builds the runtime value from the type parameters (`rank`: the number
/// of present dims). Pushes cannot fail: the type layer's limits fit the
/// core's capacities (checked in `types/mod.rs`).
const fn build_shape<E: Dtype, S: DimsParam, Ts: Tiles, M: Order, A: AttrSet>(
    rank: usize,
) -> Option<value::Shape> {
    let dims = S::DIMS;
    let (tiles, tile_count, order) = (&Ts::TILES, Ts::COUNT, M::ORDER);
    let mut d = [0u64; MAX_TYPE_RANK];
    let mut i = 0;
    while i < rank {
        d[i] = dims[i] as u64;
        i += 1;
    }
    let shape = match value::Shape::new(E::TYPE, d.split_at(rank).0) {
        Some(s) => s,
        None => return None,
    };
    let mut layout = match order {
        None => value::XlaLayout::descending(rank),
        Some((m, n)) => {
            let mut l = value::XlaLayout::EMPTY;
            let mut i = 0;
            while i < n {
                // usize → i64 keeps the bits: a huge entry becomes negative
                // and validation reports it out of range.
                let _ = l.push_minor_to_major(m[i] as i64);
                i += 1;
            }
            l
        }
    };
    let mut ti = 0;
    while ti < tile_count {
        let (td, tr) = tiles[ti];
        let mut tile = value::Tile::EMPTY;
        let mut j = 0;
        while j < tr {
            let _ = tile.push(if td[j] == COMBINE {
                TileDim::Combine
            } else {
                TileDim::Size(td[j] as u64)
            });
            j += 1;
        }
        let _ = layout.push_tile(tile);
        ti += 1;
    }
    layout.tail_padding_alignment_in_elements = A::TAIL_PADDING as u64;
    layout.element_size_in_bits = A::ELEMENT_BITS as u64;
    layout.memory_space = A::MEMORY_SPACE;
    Some(shape.with_layout(layout))
}

impl<E: Dtype, S: DimsParam, Ts: Tiles, M: Order, A: AttrSet> Tiled<E, S, Ts, M, A> {
    const FACTS: Result<Facts, Verdict> = compute::<E, S, Ts, M, A>();
}

impl<E: Dtype, S: DimsParam, Ts: Tiles, M: Order, A: AttrSet> Layout for Tiled<E, S, Ts, M, A> {
    type Dtype = E;
    const RANK: usize = facts(Self::FACTS).rank;
    const DIMS: [usize; MAX_TYPE_RANK] = {
        let f = facts(Self::FACTS);
        let mut d = [0; MAX_TYPE_RANK];
        let mut i = 0;
        while i < f.rank {
            d[i] = S::DIMS[i];
            i += 1;
        }
        d
    };
    const SHAPE: value::Shape = facts(Self::FACTS).shape;
    const TILING: Tiling = facts(Self::FACTS).tiling;
    const ELEMENTS: usize = facts(Self::FACTS).elements;
    const SLOTS: usize = facts(Self::FACTS).slots;
    const BYTES: usize = facts(Self::FACTS).bytes;
    const XLA_BYTES: usize = facts(Self::FACTS).xla_bytes;
    const TEXT: &'static str = {
        // Canonical text, stored once per type as a byte array constant.
        let buf: &'static TextBuf<{ crate::types::TEXT_CAP }> = &Text::<Self>::BUF;
        buf.as_str()
    };
    const VERDICT: Verdict = match Self::FACTS {
        Ok(_) => Verdict::OK,
        Err(v) => v,
    };
    const VALID: () = Self::VERDICT.check();
}

/// The straight-line index program that [`Layout::offset`] unrolls, from
/// the core's lowering of the layout into the layout algebra (internal:
/// not part of the trait, so not API).
struct Prog<L>(PhantomData<L>);

impl<L: Layout> Prog<L> {
    // from the tiling the type's constants share, not from `SHAPE` (which
    // would compile the tiling again)
    const P: Program = tiling_program(&L::TILING);
}

/// Holder for the canonical text, so that a `&'static` to it can be formed.
struct Text<L>(PhantomData<L>);

impl<L: Layout> Text<L> {
    const BUF: TextBuf<{ crate::types::TEXT_CAP }> = {
        let t = L::SHAPE.canonical();
        // Room for every layout up to rank 8 with three tiles of 5-digit
        // dims is checked in `types/mod.rs`; past that, an error here.
        assert!(
            !t.overflowed(),
            "the canonical text of this layout is longer than 512 bytes, \
             the capacity of Layout::TEXT"
        );
        t
    };
}

/// The executors of the index program: unrolled with every step a constant
/// in release builds; a plain loop in debug builds (the unrolled form is
/// slow to compile without optimization: measured 39 s against 2.7 s for
/// 500 layouts). Both are tested to agree.
mod exec {
    use super::{Layout, Prog};
    use crate::value::__private::{Op, MAX_REGS, NO_REG};

    #[inline(always)]
    pub(super) fn offset<L: Layout, const N: usize>(index: &[usize; N]) -> usize {
        // `cfg`, not `cfg!`: a debug build must not even instantiate the
        // unrolled form (64 steps per layout; slow at opt-level 0).
        #[cfg(debug_assertions)]
        {
            looped::<L, N>(index)
        }
        #[cfg(not(debug_assertions))]
        {
            if const { Prog::<L>::P.fits() } {
                unrolled::<L, N>(index)
            } else {
                looped::<L, N>(index)
            }
        }
    }

    #[inline(always)]
    fn step<const N: usize>(
        r: &mut [usize; MAX_REGS],
        acc: &mut usize,
        op: Op,
        index: &[usize; N],
    ) {
        match op {
            Op::Nop => {}
            Op::Load { dst, dim } => r[dst as usize] = index[dim as usize],
            Op::MulAdd { dst, a, k, b } => {
                let add = if b == NO_REG { 0 } else { r[b as usize] };
                r[dst as usize] = r[a as usize].wrapping_mul(k as usize).wrapping_add(add);
            }
            Op::DivMod { q, r: rem, src, t } => {
                let v = r[src as usize];
                let t = t as usize;
                // A shift and a mask for tile sizes that are powers of two
                // (almost all): with `/` and `%`, LLVM can fold a remainder
                // of a value it knows is small into a compare-and-select
                // before it sees that the divisor is a power of two, which
                // costs instructions over `&` (see benches/index_instructions.rs).
                if t.is_power_of_two() {
                    r[q as usize] = v >> t.trailing_zeros();
                    r[rem as usize] = v & (t - 1);
                } else {
                    r[q as usize] = v / t;
                    r[rem as usize] = v % t;
                }
            }
            Op::Acc { src, stride } => {
                *acc = acc.wrapping_add(r[src as usize].wrapping_mul(stride as usize))
            }
        }
    }

    /// The debug path: the same steps in a loop.
    pub(super) fn looped<L: Layout, const N: usize>(index: &[usize; N]) -> usize {
        if !const { Prog::<L>::P.fits() } {
            let mut c = [0u64; N];
            for (c, i) in c.iter_mut().zip(index) {
                *c = *i as u64;
            }
            return L::TILING.offset_unchecked(&c) as usize;
        }
        let mut r = [0usize; MAX_REGS];
        let mut acc = 0usize;
        for &op in Prog::<L>::P.ops() {
            step(&mut r, &mut acc, op, index);
        }
        acc
    }

    // The guard is one constant `bool`, so the compiler emits no code for
    // the steps past the program's end (an `i < len` of two constants
    // still reaches LLVM as dead blocks, 64 per layout type).
    macro_rules! unroll {
        ($L:ident, $r:ident, $acc:ident, $index:ident; $($i:literal)*) => {$(
            if const { $i < Prog::<$L>::P.len() } {
                step(&mut $r, &mut $acc, const { Prog::<$L>::P.op($i) }, $index);
            }
        )*};
    }

    /// The release path: each step is a constant, so the `match` in `step`
    /// and every multiplier and divisor fold away.
    #[cfg_attr(debug_assertions, allow(dead_code))] // reason: release-only outside tests
    #[inline(always)]
    pub(super) fn unrolled<L: Layout, const N: usize>(index: &[usize; N]) -> usize {
        let mut r = [0usize; MAX_REGS];
        let mut acc = 0usize;
        unroll!(L, r, acc, index;
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
        acc
    }

    #[cfg(test)]
    mod tests {
        use crate::{layout, Layout};

        fn agree<L: Layout, const N: usize>(index: [usize; N]) {
            let u = super::unrolled::<L, N>(&index);
            let l = super::looped::<L, N>(&index);
            let mut c = [0u64; N];
            for (c, i) in c.iter_mut().zip(index) {
                *c = i as u64;
            }
            let t = L::TILING.offset(&c).unwrap() as usize;
            assert_eq!((u, l), (t, t), "{} at {index:?}", L::TEXT);
        }

        #[test]
        fn unrolled_looped_and_core_agree() {
            type A = layout!(f32[3,5]{1,0:T(2,2)});
            type B = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)});
            type C = layout!(bf16[8,2,3,1004]{3,2,1,0:T(2,*,*,128)});
            type D = layout!(s8[5,7,300]{0,2,1:T(8,128)(4,1)L(1024)});
            for i in 0..3 {
                for j in 0..5 {
                    agree::<A, 2>([i, j]);
                }
            }
            for c in [
                [0, 0, 0, 0],
                [7, 0, 1279, 16383],
                [5, 0, 1000, 9999],
                [1, 0, 17, 129],
            ] {
                agree::<B, 4>(c);
            }
            for c in [[0, 0, 0, 0], [7, 1, 2, 1003], [3, 1, 0, 500]] {
                agree::<C, 4>(c);
            }
            for c in [[0, 0, 0], [4, 6, 299], [2, 3, 200]] {
                agree::<D, 3>(c);
            }
        }
    }
}

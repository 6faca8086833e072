//! CuTe's layout algebra on values: hierarchical integer tuples, layouts,
//! swizzles and the operations on them, as `const fn` over fixed-capacity
//! values. It follows NVIDIA/cutlass's CuTe (`include/cute/layout.hpp`,
//! `int_tuple.hpp`, `stride.hpp`, `swizzle.hpp`, `swizzle_layout.hpp`,
//! `layout_composed.hpp` at commit 7107b05535f8977f5ecb9d01ee203205b1fd9bc4)
//! algorithm for algorithm, including which integers come out static
//! (`_4`) or dynamic (`4`), so results print exactly as CuTe prints them;
//! `tests/data/cute_vectors.tsv` holds CuTe's own outputs and the tests
//! reproduce them text for text.
//!
//! # In order
//!
//! **1. IntTuple** ([`IntTuple`], [`Int`]): an integer or a tuple of
//! IntTuples. Each integer is static (known to CuTe at compile time,
//! printed `_4`) or dynamic (`4`). `rank` counts the top modes, `depth`
//! the nesting, `size` multiplies the integers.
//!
//! ```
//! use tilelayout::algebra::IntTuple;
//! let t = IntTuple::parse("(_2,(3,_4))")?;
//! assert_eq!((t.rank(), t.depth(), t.size()?.value), (2, 2, 24));
//! # Ok::<(), tilelayout::algebra::AlgebraError>(())
//! ```
//!
//! **2. Layout** ([`CuteLayout`]): a shape and a congruent stride, a function
//! from coordinates to indices. A 1-D index is split colexicographically
//! (the first mode fastest) and each coordinate is multiplied by its
//! stride ([`CuteLayout::call`], [`CuteLayout::crd2idx`], [`CuteLayout::idx2crd`]).
//!
//! ```
//! use tilelayout::algebra::{Int, CuteLayout};
//! let l = CuteLayout::parse("(_2,(_3,_4)):(_12,(_4,_1))")?;
//! assert_eq!(l.idx2crd(Int::dynamic(7))?.to_string(), "(1,(0,1))");
//! assert_eq!(l.call(7)?, 13);
//! assert_eq!((l.size()?.value, l.cosize()?.value), (24, 24));
//! # Ok::<(), tilelayout::algebra::AlgebraError>(())
//! ```
//!
//! **3. Coalesce** ([`coalesce`], [`coalesce_by`], [`filter`]): the same
//! function with the fewest modes.
//!
//! ```
//! use tilelayout::algebra::{coalesce, CuteLayout};
//! let l = CuteLayout::parse("(_2,(_1,_6)):(_1,(_6,_2))")?;
//! assert_eq!(coalesce(&l)?.to_string(), "_12:_1");
//! # Ok::<(), tilelayout::algebra::AlgebraError>(())
//! ```
//!
//! **4. Composition** ([`composition`], [`composition_tiler`]):
//! `(A ∘ B)(c) = A(B(c))`, distributed over `B`'s modes; a tiler applies
//! one layout per mode.
//!
//! ```
//! use tilelayout::algebra::{composition, CuteLayout};
//! let a = CuteLayout::parse("(_10,_2):(_16,_4)")?;
//! let b = CuteLayout::parse("(_5,_4):(_1,_5)")?;
//! assert_eq!(composition(&a, &b)?.to_string(), "(_5,(_2,_2)):(_16,(_80,_4))");
//! # Ok::<(), tilelayout::algebra::AlgebraError>(())
//! ```
//!
//! **5. Complement** ([`complement`]): the ordered layout of the
//! repetitions of `A` up to a size.
//!
//! ```
//! use tilelayout::algebra::{complement, IntTuple, CuteLayout};
//! let a = CuteLayout::parse("(_2,_2):(_1,_6)")?;
//! assert_eq!(complement(&a, &IntTuple::fixed(24))?.to_string(), "(_3,_2):(_2,_12)");
//! # Ok::<(), tilelayout::algebra::AlgebraError>(())
//! ```
//!
//! **6. Divide** ([`logical_divide`], [`zipped_divide`], [`tiled_divide`],
//! [`flat_divide`]): `A ⊘ B = A ∘ (B, B*)`, the tile and the layout of
//! the tiles.
//!
//! ```
//! use tilelayout::algebra::{logical_divide, CuteLayout, Tiler};
//! let a = CuteLayout::parse("(_4,_2,_3):(_2,_1,_8)")?;
//! let r = logical_divide(&a, &Tiler::parse("_4:_2")?)?;
//! assert_eq!(r.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
//! # Ok::<(), tilelayout::algebra::AlgebraError>(())
//! ```
//!
//! **7. Product** ([`logical_product`], [`zipped_product`],
//! [`tiled_product`], [`blocked_product`], [`raked_product`],
//! [`tile_to_shape`], [`tile_to_shape_ordered`]): `A ⊗ B = (A, A* ∘ B)`, `A` repeated as `B` says.
//!
//! ```
//! use tilelayout::algebra::{blocked_product, CuteLayout};
//! let a = CuteLayout::parse("(_2,_5):(_5,_1)")?;
//! let b = CuteLayout::parse("(_3,_4):(_1,_3)")?;
//! assert_eq!(blocked_product(&a, &b)?.to_string(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
//! # Ok::<(), tilelayout::algebra::AlgebraError>(())
//! ```
//!
//! **8. Inverse** ([`right_inverse`], [`left_inverse`],
//! [`max_common_vector`], [`max_common_layout`]) and **casts**
//! ([`upcast`], [`downcast`]).
//!
//! ```
//! use tilelayout::algebra::{right_inverse, CuteLayout};
//! let l = CuteLayout::parse("(_4,_2):(_2,_1)")?;
//! let r = right_inverse(&l)?;
//! assert!((0..8).all(|i| l.call(r.call(i).unwrap()).unwrap() == i));
//! # Ok::<(), tilelayout::algebra::AlgebraError>(())
//! ```
//!
//! **9. Swizzle** ([`Swizzle`], [`ComposedLayout`]): `Sw<B,M,S> o offset
//! o layout`, any sign of `S`; coalesce, the divides and products,
//! `tile_to_shape`, complement, the casts and the inverses apply as in
//! CuTe (methods of [`ComposedLayout`]), and a layout composes with a
//! swizzle on either side ([`swizzle_composition`],
//! [`composition_swizzle`], [`composition_composed`]).
//!
//! ```
//! use tilelayout::algebra::ComposedLayout;
//! let c = ComposedLayout::parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")?;
//! let r = c.right_inverse()?;
//! assert_eq!(r.to_string(), "Sw<3,0,-6> o _0 o (_64,_8):(_8,_1)");
//! # Ok::<(), tilelayout::algebra::AlgebraError>(())
//! ```
//!
//! Slicing ([`slice()`]) keeps the modes at the `_`s of a coordinate, and
//! [`evaluate`] runs any operation by its CuTe name on text arguments.
//!
//! # Preconditions: always checked
//! CuTe checks its divisibility conditions only when both operands are
//! static; with a dynamic operand it silently returns a wrong layout
//! (NVIDIA/cutlass issue #3513: `zipped_divide` of a 384-element layout
//! by a dynamic 128 gives 288 elements). Here every precondition is
//! checked on values, whatever their binding time, and a failure is an
//! [`AlgebraError`] naming the mode: the mode of the right operand as
//! written ([`ModePath`], e.g. `; at mode (1,0) of the right operand` for
//! mode 0 of a nested tiler mode 1) and the mode of the left layout
//! where the condition failed. Ours, beyond CuTe: composition also
//! refuses the cases its weak conditions let through although the result
//! is not `A ∘ B` (see [`composition`]).
//!
//! # Limits
//! A tuple holds at most [`MAX_NODES`] integers and tuples, nested at most
//! [`MAX_DEPTH`] deep; a by-mode tiler holds at most [`MAX_TILER_MODES`]
//! layouts and integers, in tuples nested as deep as a tuple; printed
//! text fits [`MAX_TEXT`] bytes; composing with a swizzle checks at most
//! [`MAX_SWIZZLE_CHECK`] indices. Integers are `i64`, shapes positive, and all arithmetic is
//! checked. Exceeding a limit or overflowing is an [`AlgebraError`],
//! never a panic.

mod cast;
mod coalesce;
mod complement;
mod composed;
mod composition;
mod divide;
mod error;
mod eval;
mod int;
mod inverse;
mod layout;
mod notation;
mod print;
mod product;
mod slice;
mod swizzle;
mod tiler;
mod tuple;
mod tuple_ops;

pub use cast::{downcast, upcast};
pub use coalesce::{coalesce, coalesce_by, coalesce_shape, filter, filter_zeros};
pub use complement::{complement, complement_self};
pub use composed::{
    composition_composed, composition_swizzle, swizzle_composition, MAX_SWIZZLE_CHECK,
};
pub use composition::{composition, composition_tiler};
pub use divide::{flat_divide, logical_divide, tiled_divide, zipped_divide};
pub use inverse::{left_inverse, max_common_layout, max_common_vector, right_inverse};
pub use product::{
    blocked_product, logical_product, raked_product, tile_to_shape, tile_to_shape_ordered,
    tiled_product, zipped_product,
};
pub use slice::{slice, slice_offset, SliceCoord};
pub use tiler::{Tiler, MAX_TILER_MODES};

pub use error::{AlgebraError, AlgebraErrorKind, ModePath};
pub use eval::{evaluate, Op, Value};
pub use int::Int;
pub use layout::{crd2idx, idx2crd, CuteLayout};
pub use notation::AnyLayout;
pub use print::{
    write_composed, write_int, write_int_tuple, write_layout, write_swizzle, write_swizzled_input,
    write_tiler,
};
pub use swizzle::{ComposedLayout, Swizzle, SwizzledInput, SwizzledInverse};
pub use tuple::IntTuple;

/// Most nodes (integers plus tuples) in one [`IntTuple`].
pub const MAX_NODES: usize = 64;
/// Deepest nesting of an [`IntTuple`] (`_4` has depth 0, `(_4)` depth 1).
pub const MAX_DEPTH: usize = 8;
/// Bytes of the text buffer the printer fills: enough for any value
/// within [`MAX_NODES`] (each integer prints in at most 21 bytes).
pub const MAX_TEXT: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    const fn ok<T: Copy>(r: Result<T, AlgebraError>) -> T {
        match r {
            Ok(v) => v,
            Err(_) => panic!("algebra error in a const test"),
        }
    }

    const fn same(a: &CuteLayout, text: &str) -> bool {
        let t = a.to_text();
        let x = t.as_str().as_bytes();
        let y = text.as_bytes();
        if x.len() != y.len() {
            return false;
        }
        let mut i = 0;
        while i < x.len() {
            if x[i] != y[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    // Every operation the type level needs runs at compile time: this
    // block fails the build of the unit tests otherwise.
    const _: () = {
        let a = ok(CuteLayout::parse("(_4,_2,_3):(_2,_1,_8)"));
        let t = ok(Tiler::parse("_4:_2"));
        assert!(same(
            &ok(logical_divide(&a, &t)),
            "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))"
        ));
        let _ = ok(zipped_divide(&a, &t));
        let _ = ok(tiled_divide(&a, &t));
        let _ = ok(flat_divide(&a, &t));
        let b = ok(CuteLayout::parse("(_2,_2):(_4,_1)"));
        let six = ok(Tiler::parse("_6:_1"));
        assert!(same(
            &ok(logical_product(&b, &six)),
            "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))"
        ));
        let _ = ok(zipped_product(&b, &six));
        let _ = ok(tiled_product(&b, &six));
        let _ = ok(blocked_product(&b, &b));
        let _ = ok(raked_product(&b, &b));
        let _ = ok(tile_to_shape(&b, &ok(IntTuple::parse("(_4,_4)"))));
        assert!(same(&ok(coalesce(&a)), "(_4,_2,_3):(_2,_1,_8)"));
        let _ = ok(filter(&a));
        let c = ok(complement(
            &ok(CuteLayout::parse("_4:_2")),
            &IntTuple::fixed(24),
        ));
        assert!(same(&c, "(_2,_3):(_1,_8)"));
        let _ = ok(composition(&a, &b));
        let _ = ok(right_inverse(&a));
        let _ = ok(left_inverse(&a));
        let _ = ok(max_common_vector(&a, &a));
        let _ = ok(upcast(&b, 2));
        let _ = ok(downcast(&b, 2));
        assert!(ok(a.crd2idx(&ok(IntTuple::parse("(1,1,2)")))).value == 2 + 1 + 16);
        let sw = ok(ComposedLayout::parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"));
        let _ = ok(sw.right_inverse());
    };
}

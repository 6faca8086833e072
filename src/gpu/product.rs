//! The block product of two GPU layouts (CuTe's `blocked_product`, and
//! the padded product for blocks that are not compact): the layout a
//! [`Blocked`](super::Blocked) type and the register tiles stand for.

// reason: the results are computed at compile time only, in const fns,
// which cannot box their errors
#![allow(clippy::result_large_err)]

use crate::algebra::{blocked_product, ComposedLayout, CuteLayout, Int, IntTuple};
use crate::types::cute_result::ok;

/// CuTe's `blocked_product(inner, outer)` of two rank-2 layouts: the block
/// `inner` repeated as `outer` says, blocks `cosize(inner)` apart.
///
/// Ours: when `inner` is not compact (its cosize exceeds its size, e.g. rows
/// padded to 40 elements), CuTe's product is undefined (its complement of a
/// padded block does not exist); we keep the rule of the compact case, the
/// outer strides scaled by `cosize(inner)`, so each padded block stays
/// contiguous at multiples of its cosize.
///
/// A swizzled `inner` (`Sw o _0 o I`) is lifted out: `Sw o _0 o (I ⊠ O)`,
/// which is the same function because blocks start at multiples of
/// `cosize(I)`, a multiple of the `2^(M+|S|+B)` offsets the swizzle
/// permutes among themselves (`Swizzled` and the swizzled shared tiles
/// guarantee it).
///
/// Its caller, [`blocked_result`], has checked that `outer` is
/// unswizzled and that a swizzled `inner` spans whole swizzle blocks.
pub(crate) const fn blocked(outer: &ComposedLayout, inner: &ComposedLayout) -> ComposedLayout {
    let (o, i) = (&outer.layout, &inner.layout);
    let size = ok(i.size(), "Blocked").value;
    let cosize = ok(i.cosize(), "Blocked").value;
    let sw = inner.swizzle;
    let product = if size == cosize {
        ok(
            blocked_product(i, o),
            "Blocked: blocked_product(Inner, Outer)",
        )
    } else {
        padded_product(o, i, cosize)
    };
    ComposedLayout::new(sw, Int::fixed(0), product)
}

/// The block product of a padded `inner` of cosize `cosize`: `outer`'s
/// strides scaled by `cosize`, zipped with `inner`'s modes (`cosize` 0:
/// the blocks' position ignored, as for a register tile's lane).
pub(crate) const fn padded_product(o: &CuteLayout, i: &CuteLayout, cosize: i64) -> CuteLayout {
    let mut stride = *o.stride();
    let mut k = 0;
    while k < stride.leaf_count() {
        if let Some(d) = stride.leaf(k) {
            stride = stride.with_leaf(k, ok(d.mul(Int::fixed(cosize)), "Blocked"));
        }
        k += 1;
    }
    let shape = pair(
        pair(
            ok(i.shape().mode(0), "Blocked"),
            ok(o.shape().mode(0), "Blocked"),
        ),
        pair(
            ok(i.shape().mode(1), "Blocked"),
            ok(o.shape().mode(1), "Blocked"),
        ),
    );
    let stride = pair(
        pair(
            ok(i.stride().mode(0), "Blocked"),
            ok(stride.mode(0), "Blocked"),
        ),
        pair(
            ok(i.stride().mode(1), "Blocked"),
            ok(stride.mode(1), "Blocked"),
        ),
    );
    ok(CuteLayout::new(shape, stride), "Blocked")
}

/// The tuple `(a, b)`.
const fn pair(a: IntTuple, b: IntTuple) -> IntTuple {
    ok(IntTuple::tuple(&[a, b]), "Blocked")
}

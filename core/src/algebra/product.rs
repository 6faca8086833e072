//! The products: `logical_product(A, B) = (A, complement(A, size(A) ·
//! cosize(B)) ∘ B)`, its rearrangements, the rank-sensitive
//! `blocked_product` and `raked_product`, and `tile_to_shape`
//! (NVIDIA/cutlass `include/cute/layout.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4).
//!
//! ```text
//! Layout Shape    : (M, N, L, ...)
//! Tiler Shape     : <TileM, TileN>
//! logical_product : ((M,TileM), (N,TileN), L, ...)
//! zipped_product  : ((M,N), (TileM,TileN,L,...))
//! tiled_product   : ((M,N), TileM, TileN, L, ...)
//! ```

use super::complement::complement;
use super::composition::composition;
use super::divide::{by_mode, tile_unzip, unpack};
use super::error::{AlgebraError, AlgebraErrorKind};
use super::int::Int;
use super::layout::CuteLayout;
use super::tiler::Tiler;
use super::tuple::{tri, IntTuple};

/// `logical_product` by one layout.
pub(crate) const fn product_by_layout(
    block: &CuteLayout,
    tiler: &CuteLayout,
) -> Result<CuteLayout, AlgebraError> {
    let n = tri!(tri!(block.size()).mul(tri!(tiler.cosize())));
    let c = tri!(complement(block, &IntTuple::int(n)));
    let rep = tri!(composition(&c, tiler));
    CuteLayout::concat(&[*block, rep])
}

/// CuTe's `logical_product(block, tiler)`: mode 0 is `block`, mode 1 the
/// tiler with each element replaced by a unique replication of `block`.
///
/// * Post 1: `rank(result) == 2` (for a single-layout tiler).
/// * Post 2: `compatible(block, layout<0>(result))`.
/// * Post 3: `compatible(tiler, layout<1>(result))`.
///
/// # Examples
/// From CuTe's `02_layout_algebra.md`:
/// ```
/// use tilelayout::algebra::{logical_product, CuteLayout, Tiler};
/// let a = CuteLayout::parse("(_2,_2):(_4,_1)")?;
/// let b = Tiler::parse("_6:_1")?;
/// assert_eq!(logical_product(&a, &b)?.to_text().as_str(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// Complement's and composition's errors; rank mismatch for a by-mode
/// tiler with more modes than `block`.
pub const fn logical_product(
    block: &CuteLayout,
    tiler: &Tiler,
) -> Result<CuteLayout, AlgebraError> {
    if !tiler.is_by_mode() {
        return product_by_layout(block, &tri!(tiler.mode(0)));
    }
    by_mode(block, tiler, false)
}

/// CuTe's `zipped_product`: `((M,N,…),(TileM,TileN,…,L,…))`.
///
/// # Errors
/// As [`logical_product`].
pub const fn zipped_product(block: &CuteLayout, tiler: &Tiler) -> Result<CuteLayout, AlgebraError> {
    let p = tri!(logical_product(block, tiler));
    tile_unzip(&p, tiler)
}

/// CuTe's `tiled_product`: `((M,N,…), TileM, TileN, …, L, …)`.
///
/// # Errors
/// As [`logical_product`].
pub const fn tiled_product(block: &CuteLayout, tiler: &Tiler) -> Result<CuteLayout, AlgebraError> {
    let z = tri!(zipped_product(block, tiler));
    unpack(&z, false)
}

/// CuTe's `append<n>(layout, _1:_0)`: pads a layout to rank `n` with
/// `_1:_0` modes (an integer layout is wrapped first).
const fn pad_rank(l: &CuteLayout, n: usize) -> Result<CuteLayout, AlgebraError> {
    if l.rank() >= n && !(l.shape().is_int() && n > 1) {
        return Ok(*l);
    }
    let mut out = if l.shape().is_int() {
        tri!(CuteLayout::concat(&[*l]))
    } else {
        *l
    };
    while out.rank() < n {
        tri!(out.append_in(&CuteLayout::TRIVIAL));
    }
    Ok(out)
}

/// CuTe's `zip(a, b)` on two tuples of the same rank: `((a0,b0),(a1,b1),…)`;
/// an integer `a` gives `((a,b))`.
const fn zip_tuples(a: &IntTuple, b: &IntTuple) -> Result<IntTuple, AlgebraError> {
    if a.is_int() {
        let pair = tri!(IntTuple::tuple(&[*a, *b]));
        return IntTuple::tuple(&[pair]);
    }
    // CuTe's zip needs a tuple on both sides once the first is a tuple
    if b.is_int() || b.rank() != a.rank() {
        return Err(AlgebraError::new(AlgebraErrorKind::RankMismatch {
            expected: a.rank() as u32,
            found: b.rank() as u32,
        }));
    }
    let mut out = IntTuple::EMPTY;
    let mut j = 0;
    while j < a.rank() {
        let pair = tri!(IntTuple::tuple(&[tri!(a.mode(j)), tri!(b.mode(j))]));
        tri!(out.push_in(&pair));
        j += 1;
    }
    Ok(out)
}

const fn rank_product(
    block: &CuteLayout,
    tiler: &CuteLayout,
    raked: bool,
) -> Result<CuteLayout, AlgebraError> {
    let r = if block.rank() > tiler.rank() {
        block.rank()
    } else {
        tiler.rank()
    };
    let b = tri!(pad_rank(block, r));
    let t = tri!(pad_rank(tiler, r));
    let p = tri!(product_by_layout(&b, &t));
    let m0 = tri!(p.mode(0));
    let m1 = tri!(p.mode(1));
    let (x, y) = if raked { (m1, m0) } else { (m0, m1) };
    let s = tri!(zip_tuples(x.shape(), y.shape()));
    let d = tri!(zip_tuples(x.stride(), y.stride()));
    CuteLayout::new(s, d)
}

/// CuTe's `blocked_product(block, tiler)`: the block repeated over the
/// tiler, like modes combined block-first.
///
/// * Post: `rank(result) == max(rank(block), rank(tiler))`.
///
/// # Examples
/// From CuTe's `02_layout_algebra.md` (a 2x5 row-major block over a 3x4
/// column-major arrangement):
/// ```
/// use tilelayout::algebra::{blocked_product, CuteLayout};
/// let a = CuteLayout::parse("(_2,_5):(_5,_1)")?;
/// let b = CuteLayout::parse("(_3,_4):(_1,_3)")?;
/// assert_eq!(blocked_product(&a, &b)?.to_text().as_str(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// As [`logical_product`].
pub const fn blocked_product(
    block: &CuteLayout,
    tiler: &CuteLayout,
) -> Result<CuteLayout, AlgebraError> {
    rank_product(block, tiler, false)
}

/// CuTe's `raked_product(block, tiler)`: like [`blocked_product`] but
/// like modes combined tiler-first, interleaving ("raking") the blocks.
///
/// * Post: `rank(result) == max(rank(block), rank(tiler))`.
///
/// # Errors
/// As [`logical_product`].
pub const fn raked_product(
    block: &CuteLayout,
    tiler: &CuteLayout,
) -> Result<CuteLayout, AlgebraError> {
    rank_product(block, tiler, true)
}

/// CuTe's `tile_to_shape(block, target)` with the default column-major
/// order of repetition: the block repeated so that the result has the
/// target's shape.
///
/// * Pre 1: `rank(block) <= rank(target)`.
/// * Pre 2: each mode of the block divides that mode of the target
///   (CuTe asserts it for static targets; always checked here).
/// * Post: `compatible(target, shape(result))`.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{tile_to_shape, IntTuple, CuteLayout};
/// let block = CuteLayout::parse("(_2,_2):(_1,_2)")?;
/// let r = tile_to_shape(&block, &IntTuple::parse("(_4,_6)")?)?;
/// assert_eq!(r.to_text().as_str(), "((_2,_2),(_2,_3)):((_1,_4),(_2,_8))");
/// assert!(tile_to_shape(&block, &IntTuple::parse("(_4,_5)")?).is_err());
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// [`AlgebraErrorKind::RankMismatch`], [`AlgebraErrorKind::TargetDivisibility`]
/// naming the mode; the product's errors.
pub const fn tile_to_shape(
    block: &CuteLayout,
    target: &IntTuple,
) -> Result<CuteLayout, AlgebraError> {
    tile_to_shape_impl(block, target, None)
}

/// CuTe's `tile_to_shape(block, target, order)`: as [`tile_to_shape`],
/// the copies of the block laid out in the order of the modes that
/// `order` gives (CuTe's `make_ordered_layout`: the mode with the
/// smallest order value repeats fastest; `Step<_2,_1>`, written
/// `(_2,_1)`, repeats along mode 1 first). A dynamic order value counts
/// as larger than every static one, in the order written; equal values
/// share a stride, as in CuTe.
///
/// * Pre: `order` has one integer per mode of the target.
///
/// # Examples
/// ```
/// use tilelayout::algebra::{tile_to_shape_ordered, IntTuple, CuteLayout};
/// let block = CuteLayout::parse("(_2,_2):(_1,_2)")?;
/// let target = IntTuple::parse("(_4,_6)")?;
/// let r = tile_to_shape_ordered(&block, &target, &IntTuple::parse("(_2,_1)")?)?;
/// assert_eq!(r.to_text().as_str(), "((_2,_2),(_2,_3)):((_1,_12),(_2,_4))");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// As [`tile_to_shape`]; [`AlgebraErrorKind::RankMismatch`] when `order`
/// does not have one integer per mode of the target.
pub const fn tile_to_shape_ordered(
    block: &CuteLayout,
    target: &IntTuple,
    order: &IntTuple,
) -> Result<CuteLayout, AlgebraError> {
    tile_to_shape_impl(block, target, Some(order))
}

/// CuTe's `make_ordered_layout(shape, order)` for a flat shape (or an
/// integer) and as many integers in `order` (`include/cute/stride.hpp`,
/// `compact_order`).
const fn ordered_layout(shape: &IntTuple, order: &IntTuple) -> Result<CuteLayout, AlgebraError> {
    let r = shape.leaf_count();
    if order.leaf_count() != r || order.depth() > 1 || shape.is_int() != order.is_int() {
        return Err(AlgebraError::new(AlgebraErrorKind::RankMismatch {
            expected: shape.rank() as u32,
            found: order.rank() as u32,
        }));
    }
    // dynamic order values: larger than the largest static one, in order
    let mut most = 0;
    let mut k = 0;
    while k < r {
        if let Some(o) = order.leaf(k) {
            if o.is_static && o.value > most {
                most = o.value;
            }
        }
        k += 1;
    }
    let mut ord = [0i64; super::MAX_NODES];
    let mut k = 0;
    while k < r {
        ord[k] = match order.leaf(k) {
            Some(o) if o.is_static => o.value,
            _ => most + 1 + k as i64,
        };
        k += 1;
    }
    let mut stride = *shape;
    let mut i = 0;
    while i < r {
        let mut start = Int::fixed(1);
        let mut j = 0;
        while j < r {
            if ord[j] < ord[i] {
                let s = match shape.leaf(j) {
                    Some(s) => s,
                    None => Int::fixed(1),
                };
                start = tri!(start.mul(s));
            }
            j += 1;
        }
        let s = match shape.leaf(i) {
            Some(s) => s,
            None => Int::fixed(1),
        };
        // CuTe's compact_col_major: a static-1 mode gets stride _0
        let d = if s.is_constant(1) {
            Int::fixed(0)
        } else {
            start
        };
        stride = stride.with_leaf(i, d);
        i += 1;
    }
    CuteLayout::new(*shape, stride)
}

const fn tile_to_shape_impl(
    block: &CuteLayout,
    target: &IntTuple,
    order: Option<&IntTuple>,
) -> Result<CuteLayout, AlgebraError> {
    let r = target.rank();
    if block.rank() > r {
        return Err(AlgebraError::new(AlgebraErrorKind::RankMismatch {
            expected: r as u32,
            found: block.rank() as u32,
        }));
    }
    let padded = tri!(pad_rank(block, r));
    let mut prod = IntTuple::EMPTY;
    let mut i = 0;
    while i < r {
        let b: Int = tri!(tri!(padded.mode(i)).size());
        let t: Int = tri!(tri!(target.mode(i)).size());
        if t.value % b.value != 0 {
            return Err(AlgebraError::new(AlgebraErrorKind::TargetDivisibility {
                mode: i as u32,
                target: t.value,
                block: b.value,
            }));
        }
        tri!(prod.push_int_in(tri!(t.ceil_div(b))));
        i += 1;
    }
    let prod = if target.is_int() {
        prod.unwrap_single()
    } else {
        prod
    };
    let order = match order {
        None => tri!(CuteLayout::column_major(prod)),
        Some(o) => tri!(ordered_layout(&prod, o)),
    };
    blocked_product(&padded, &order)
}

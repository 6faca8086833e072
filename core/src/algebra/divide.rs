//! The divides: `logical_divide(A, B) = A ∘ (B, B*)` with `B*` the
//! complement of `B` within `A`'s shape, and the three rearrangements
//! `zipped_divide`, `tiled_divide`, `flat_divide` (NVIDIA/cutlass
//! `include/cute/layout.hpp`, commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4).
//!
//! ```text
//! Layout Shape   : (M, N, L, ...)
//! Tiler Shape    : <TileM, TileN>
//! logical_divide : ((TileM,RestM), (TileN,RestN), L, ...)
//! zipped_divide  : ((TileM,TileN), (RestM,RestN,L,...))
//! tiled_divide   : ((TileM,TileN), RestM, RestN, L, ...)
//! flat_divide    : (TileM, TileN, RestM, RestN, L, ...)
//! ```

use super::coalesce::coalesce;
use super::complement::complement;
use super::composition::composition;
use super::error::{in_mode, AlgebraError, AlgebraErrorKind};
use super::layout::CuteLayout;
use super::tiler::Tiler;
use super::tuple::{tri, IntTuple};

/// `logical_divide` by one layout.
const fn divide_by_layout(
    layout: &CuteLayout,
    tiler: &CuteLayout,
) -> Result<CuteLayout, AlgebraError> {
    let c = tri!(coalesce(layout));
    let rest = tri!(complement(tiler, c.shape()));
    let both = tri!(CuteLayout::concat(&[*tiler, rest]));
    match composition(layout, &both) {
        Ok(l) => Ok(l),
        // the right operand the user wrote is the tiler, mode 0 of
        // `both`; the complement (mode 1) is not theirs to name
        Err(e) => {
            let path = match e.path.modes() {
                [0, ..] => e.path.inner(),
                _ => super::ModePath::NONE,
            };
            Err(e.with_path(path))
        }
    }
}

/// CuTe's `logical_divide(layout, tiler)`: splits `layout` into the
/// elements the tiler selects (mode 0) and the layout of the tiles
/// (mode 1); a by-mode tiler divides mode `i` by tiler mode `i` and keeps
/// the modes past the tiler's rank.
///
/// * Pre: the divisibility conditions of [`super::composition`] for
///   `layout ∘ (tiler, complement(tiler, shape(coalesce(layout))))`,
///   always checked (a tiler that does not divide the layout is an error
///   naming the mode, never a smaller layout).
/// * Post: `layout<0>(result) == composition(layout, tiler)` as functions.
///
/// # Examples
/// From CuTe's `02_layout_algebra.md`:
/// ```
/// use tilelayout::algebra::{logical_divide, CuteLayout, Tiler};
/// let a = CuteLayout::parse("(_4,_2,_3):(_2,_1,_8)")?;
/// let b = Tiler::parse("_4:_2")?;
/// assert_eq!(logical_divide(&a, &b)?.to_text().as_str(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// The composition's divisibility errors; [`AlgebraErrorKind::RankMismatch`]
/// for a tiler with more modes than the layout; complement's errors.
pub const fn logical_divide(
    layout: &CuteLayout,
    tiler: &Tiler,
) -> Result<CuteLayout, AlgebraError> {
    if !tiler.is_by_mode() {
        return divide_by_layout(layout, &tri!(tiler.mode(0)));
    }
    by_mode(layout, tiler, true)
}

/// Applies the divide (`divide == true`) or the product by mode, keeping
/// the layout's modes past the tiler's rank (CuTe's `transform_layout`).
pub(crate) const fn by_mode(
    layout: &CuteLayout,
    tiler: &Tiler,
    divide: bool,
) -> Result<CuteLayout, AlgebraError> {
    let r = tiler.rank();
    let lr = layout.rank();
    if r > lr {
        return Err(AlgebraError::new(AlgebraErrorKind::RankMismatch {
            expected: lr as u32,
            found: r as u32,
        }));
    }
    let mut out = CuteLayout::EMPTY;
    let mut i = 0;
    while i < lr {
        let m = tri!(layout.mode(i));
        let m = if i >= r {
            m
        } else if tiler.mode_is_tuple(i) {
            tri!(in_mode(by_mode(&m, &tri!(tiler.sub(i)), divide), i))
        } else {
            let t = tri!(tiler.mode(i));
            let r = if divide {
                divide_by_layout(&m, &t)
            } else {
                super::product::product_by_layout(&m, &t)
            };
            tri!(in_mode(r, i))
        };
        tri!(out.append_in(&m));
        i += 1;
    }
    Ok(out)
}

/// CuTe's `zip2_by(t, guide)` on one tuple: with a by-mode guide of rank
/// `g`, `((A,a),(B,b),…,x,y)` becomes `((A,B,…),(a,b,…,x,y))`; a guide
/// mode that is a tuple zips that mode of `t` the same way first.
const fn zip2_by(t: &IntTuple, tiler: &Tiler) -> Result<IntTuple, AlgebraError> {
    if !tiler.is_by_mode() {
        if t.rank() != 2 || t.is_int() {
            return Err(AlgebraError::new(AlgebraErrorKind::RankMismatch {
                expected: 2,
                found: t.rank() as u32,
            }));
        }
        return Ok(*t);
    }
    let g = tiler.rank();
    let tr = t.rank();
    if t.is_int() || tr < g {
        return Err(AlgebraError::new(AlgebraErrorKind::RankMismatch {
            expected: g as u32,
            found: tr as u32,
        }));
    }
    let mut first = IntTuple::EMPTY;
    let mut second = IntTuple::EMPTY;
    let mut i = 0;
    while i < g {
        // a nested tiler mode zips its own modes first
        let m = tri!(zip2_by(&tri!(t.mode(i)), &tri!(tiler.sub(i))));
        tri!(first.push_in(&tri!(m.mode(0))));
        tri!(second.push_in(&tri!(m.mode(1))));
        i += 1;
    }
    while i < tr {
        tri!(second.push_in(&tri!(t.mode(i))));
        i += 1;
    }
    IntTuple::tuple(&[first, second])
}

/// CuTe's `tile_unzip(layout, tiler)`: gathers the tile modes and the rest
/// modes of a by-mode divide or product into a rank-2 layout.
pub(crate) const fn tile_unzip(
    layout: &CuteLayout,
    tiler: &Tiler,
) -> Result<CuteLayout, AlgebraError> {
    let s = tri!(zip2_by(layout.shape(), tiler));
    let d = tri!(zip2_by(layout.stride(), tiler));
    CuteLayout::new(s, d)
}

/// Unpacks mode `i` of a layout into its modes when it has rank ≥ 2
/// (CuTe's slicing `result(_, repeat<R>(_))`: a mode of rank 1 stays).
const fn unpack_modes(
    layout: &CuteLayout,
    unpack0: bool,
    unpack1: bool,
) -> Result<CuteLayout, AlgebraError> {
    let mut out = CuteLayout::EMPTY;
    let mut i = 0;
    while i < layout.rank() {
        let m = tri!(layout.mode(i));
        let unpack = (i == 0 && unpack0) || (i == 1 && unpack1);
        if unpack && !m.shape().is_int() && m.rank() >= 2 {
            let mut k = 0;
            while k < m.rank() {
                tri!(out.append_in(&tri!(m.mode(k))));
                k += 1;
            }
        } else {
            tri!(out.append_in(&m));
        }
        i += 1;
    }
    Ok(out)
}

/// Unpacks the second (`both == false`) or both modes of a zipped result.
pub(crate) const fn unpack(layout: &CuteLayout, both: bool) -> Result<CuteLayout, AlgebraError> {
    unpack_modes(layout, both, true)
}

/// CuTe's `zipped_divide`: `((TileM,TileN,…),(RestM,RestN,…,L,…))`.
///
/// # Examples
/// From CuTe's `02_layout_algebra.md` (shape `(9,32)` by `<3:3,(2,4):(1,8)>`):
/// ```
/// use tilelayout::algebra::{zipped_divide, CuteLayout, Tiler};
/// let a = CuteLayout::parse("(_9,(_4,_8)):(_59,(_13,_1))")?;
/// let t = Tiler::parse("(_3:_3,(_2,_4):(_1,_8))")?;
/// let r = zipped_divide(&a, &t)?;
/// assert_eq!(r.to_text().as_str(), "((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1)))");
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
///
/// # Errors
/// As [`logical_divide`].
pub const fn zipped_divide(layout: &CuteLayout, tiler: &Tiler) -> Result<CuteLayout, AlgebraError> {
    let d = tri!(logical_divide(layout, tiler));
    tile_unzip(&d, tiler)
}

/// CuTe's `tiled_divide`: `((TileM,TileN,…), RestM, RestN, …, L, …)`.
///
/// # Errors
/// As [`logical_divide`].
pub const fn tiled_divide(layout: &CuteLayout, tiler: &Tiler) -> Result<CuteLayout, AlgebraError> {
    let z = tri!(zipped_divide(layout, tiler));
    unpack(&z, false)
}

/// CuTe's `flat_divide`: `(TileM, TileN, …, RestM, RestN, …, L, …)`.
///
/// # Errors
/// As [`logical_divide`].
pub const fn flat_divide(layout: &CuteLayout, tiler: &Tiler) -> Result<CuteLayout, AlgebraError> {
    let z = tri!(zipped_divide(layout, tiler));
    unpack(&z, true)
}

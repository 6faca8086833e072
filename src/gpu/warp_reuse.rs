//! TileFusion's warp reuse modes: how the warps of a warp layout share a
//! tile in a copy plan or an `ldmatrix` load.

use super::sealed::Sealed;

/// How the warps of a warp layout share a tile: TileFusion's `WarpReuse`
/// modes, as marker types ([`Cont`], [`RowReuseCont`], [`ColReuseCont`]).
///
/// A mode says along which axes the tile is split among the warps; along an
/// axis that is not split, every warp of that axis covers the whole extent
/// (the warps of a row, or of a column, load the same data).
pub trait WarpReuse: Sealed {
    /// Whether the rows are split among the warp layout's rows.
    const SPLIT_ROWS: bool;
    /// Whether the columns are split among the warp layout's columns.
    const SPLIT_COLS: bool;
}

/// `kCont`: the tile is split evenly, warp `(wr, wc)` takes region
/// `(wr, wc)`; every element is moved once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cont;

/// `kRowReuseCont`: the warps of a row share the same rows: warp
/// `(wr, wc)` takes row band `wr`, all columns (operand `A` of a GEMM).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RowReuseCont;

/// `kColReuseCont`: the warps of a column share the same columns: warp
/// `(wr, wc)` takes column band `wc`, all rows (operand `B` of a GEMM).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ColReuseCont;

impl Sealed for Cont {}
impl Sealed for RowReuseCont {}
impl Sealed for ColReuseCont {}

impl WarpReuse for Cont {
    const SPLIT_ROWS: bool = true;
    const SPLIT_COLS: bool = true;
}
impl WarpReuse for RowReuseCont {
    const SPLIT_ROWS: bool = true;
    const SPLIT_COLS: bool = false;
}
impl WarpReuse for ColReuseCont {
    const SPLIT_ROWS: bool = false;
    const SPLIT_COLS: bool = true;
}

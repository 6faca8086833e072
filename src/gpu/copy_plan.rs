//! Copy plans: which thread moves which 128-bit vector of a tile.
//!
//! TileFusion's loaders and storers take a source tile, a target tile and a
//! warp layout, and infer how the threads of a thread block share the copy.
//! Here that inference is a type, [`CopyPlan`], computed lazily per
//! `(warp, lane, step)` with no allocation, and an executor that runs it on
//! the CPU lane by lane.
//!
//!
//! The rule a plan follows is documented on [`CopyPlan`].

use core::marker::PhantomData;
use core::mem::size_of;

use super::matrix::{Layout2, Shape2};
use super::reg_tile::{BaseTile, RegTile, LANES};
use super::tile::{Space, Storage, StorageMut, Tile};

/// Bytes moved by one thread in one vector instruction (128 bits).
pub const VECTOR_BYTES: usize = 16;

/// The direction of a vector in the tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// Consecutive columns of one row.
    Row,
    /// Consecutive rows of one column.
    Col,
}

/// One 128-bit vector of a plan: `len` elements from `(row, col)` along
/// `axis`, in tile coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vector {
    /// Row of the first element.
    pub row: usize,
    /// Column of the first element.
    pub col: usize,
    /// Number of elements.
    pub len: usize,
    /// Direction.
    pub axis: Axis,
}

impl Vector {
    /// Returns the coordinates of element `t` of the vector, `t < len`.
    #[inline(always)]
    #[must_use]
    pub fn element(&self, t: usize) -> (usize, usize) {
        debug_assert!(t < self.len);
        match self.axis {
            Axis::Row => (self.row, self.col + t),
            Axis::Col => (self.row + t, self.col),
        }
    }
}

// ---------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------

/// A side of a copy: a memory tile (one tile for the thread block) or
/// register tiles (one tile per warp).
pub trait CopyEndpoint {
    /// Element type (`Default` gives the initial value of a lane's staging
    /// registers).
    type Elem: Copy + Default;
    /// Memory: the tile's rows. Registers: the rows of each warp's tile.
    const ROWS: usize;
    /// Memory: the tile's columns. Registers: the columns of each warp's tile.
    const COLS: usize;
    /// `None` for a memory tile; `Some(n)` for register tiles of `n` warps.
    const WARPS: Option<usize>;
    /// Memory: the layout's [`Layout2::ROW_RUN`]. Registers: ignored.
    const ROW_RUN: usize;
    /// Memory: the layout's [`Layout2::COL_RUN`]. Registers: ignored.
    const COL_RUN: usize;
}

/// A side a plan reads from.
pub trait CopySource: CopyEndpoint {
    /// Reads the element at tile coordinates `(i, j)` (in `warp`'s region).
    fn read(&self, warp: usize, i: usize, j: usize) -> Self::Elem;
    /// Returns the `v.len` elements of vector `v` (moved by a lane of
    /// `warp`), in order. A memory tile lends the contiguous run of its
    /// storage (the 128-bit load); register tiles gather the elements from
    /// their owner lanes into `staging` (the moving lane's registers).
    fn load<'a>(
        &'a self,
        warp: usize,
        v: &Vector,
        staging: &'a mut [Self::Elem; VECTOR_BYTES],
    ) -> &'a [Self::Elem];
}

/// A side a plan writes to.
pub trait CopyDest: CopyEndpoint {
    /// Writes `src[..v.len]` as vector `v` (moved by a lane of `warp`).
    fn write_vector(&mut self, warp: usize, v: &Vector, src: &[Self::Elem]);
}

impl<Sp: Space, D: Storage, L: Layout2, V: Shape2> CopyEndpoint for Tile<Sp, D, L, V>
where
    D::Elem: Default,
{
    type Elem = D::Elem;
    const ROWS: usize = V::ROWS;
    const COLS: usize = V::COLS;
    const WARPS: Option<usize> = None;
    const ROW_RUN: usize = L::ROW_RUN;
    const COL_RUN: usize = L::COL_RUN;
}

/// Checks (in debug builds) that a vector is contiguous in a memory tile.
#[inline(always)]
fn debug_check_contiguous<Sp: Space, D, L: Layout2, V: Shape2>(
    tile: &Tile<Sp, D, L, V>,
    v: &Vector,
    first: usize,
) {
    if cfg!(debug_assertions) {
        let (r0, c0) = tile.origin();
        for t in 0..v.len {
            let (i, j) = v.element(t);
            debug_assert_eq!(
                L::offset(r0 + i, c0 + j),
                first + t,
                "vector not contiguous"
            );
        }
        debug_assert_eq!(first % v.len, 0, "vector not aligned");
    }
}

impl<Sp: Space, D: Storage, L: Layout2, V: Shape2> CopySource for Tile<Sp, D, L, V>
where
    D::Elem: Default,
{
    #[inline(always)]
    fn read(&self, _warp: usize, i: usize, j: usize) -> Self::Elem {
        self.get(i, j)
    }

    #[inline(always)]
    fn load<'a>(
        &'a self,
        _warp: usize,
        v: &Vector,
        _staging: &'a mut [Self::Elem; VECTOR_BYTES],
    ) -> &'a [Self::Elem] {
        let first = self.offset_in_range(v.row, v.col);
        debug_check_contiguous(self, v, first);
        // (the layout's extent, `COSIZE`, is a constant: with it the range
        // check folds against the constant offsets of the plan)
        &self.storage()[..L::COSIZE][first..first + v.len]
    }
}

impl<Sp: Space, D: StorageMut, L: Layout2, V: Shape2> CopyDest for Tile<Sp, D, L, V>
where
    D::Elem: Default,
{
    #[inline(always)]
    fn write_vector(&mut self, _warp: usize, v: &Vector, src: &[Self::Elem]) {
        let first = self.offset_in_range(v.row, v.col);
        debug_check_contiguous(self, v, first);
        self.storage_mut()[..L::COSIZE][first..first + v.len].copy_from_slice(&src[..v.len]);
    }
}

/// Register tiles of `N` warps: `regs[warp][lane]` is lane `lane`'s
/// [`RegTile`]; each warp's tile is its region of the copied tile.
impl<D: Storage, B: BaseTile, L: Layout2, const N: usize> CopyEndpoint
    for [[RegTile<D, B, L>; LANES]; N]
where
    D::Elem: Default,
{
    type Elem = D::Elem;
    const ROWS: usize = RegTile::<D, B, L>::ROWS;
    const COLS: usize = RegTile::<D, B, L>::COLS;
    const WARPS: Option<usize> = Some(N);
    const ROW_RUN: usize = 1;
    const COL_RUN: usize = 1;
}

impl<D: Storage, B: BaseTile, L: Layout2, const N: usize> CopySource
    for [[RegTile<D, B, L>; LANES]; N]
where
    D::Elem: Default,
{
    #[inline(always)]
    fn read(&self, warp: usize, i: usize, j: usize) -> Self::Elem {
        let (lane, reg) = RegTile::<D, B, L>::owner(i % Self::ROWS, j % Self::COLS);
        self[warp][lane].regs()[reg]
    }

    #[inline(always)]
    fn load<'a>(
        &'a self,
        warp: usize,
        v: &Vector,
        staging: &'a mut [Self::Elem; VECTOR_BYTES],
    ) -> &'a [Self::Elem] {
        let lanes = &self[warp];
        for (t, o) in staging[..v.len].iter_mut().enumerate() {
            let (i, j) = v.element(t);
            let (lane, reg) = RegTile::<D, B, L>::owner(i % Self::ROWS, j % Self::COLS);
            *o = lanes[lane].regs()[reg];
        }
        &staging[..v.len]
    }
}

impl<D: StorageMut, B: BaseTile, L: Layout2, const N: usize> CopyDest
    for [[RegTile<D, B, L>; LANES]; N]
where
    D::Elem: Default,
{
    #[inline(always)]
    fn write_vector(&mut self, warp: usize, v: &Vector, src: &[Self::Elem]) {
        let lanes = &mut self[warp];
        for (t, s) in src[..v.len].iter().enumerate() {
            let (i, j) = v.element(t);
            let (lane, reg) = RegTile::<D, B, L>::owner(i % Self::ROWS, j % Self::COLS);
            lanes[lane].regs_mut()[reg] = *s;
        }
    }
}

// ---------------------------------------------------------------------------
// The plan
// ---------------------------------------------------------------------------

/// How the warps of `W` copy a tile from `Src` to `Dst`, one 128-bit vector
/// per lane per step.
///
/// `W` is a warp layout: a [`Layout2`] numbering the warps, e.g.
/// `RowMajor<2, 2>` (warp `2·wr + wc` takes region `(wr, wc)`). It must be a
/// bijection onto `[0, W::ROWS·W::COLS)` (checked at compile time).
///
/// The plan is a set of functions of its types: [`vector`](Self::vector)
/// answers `(warp, lane, step)` in O(1) after finding the warp's coordinates,
/// and [`run`](Self::run) executes the whole plan.
///
/// # The rule (ours, in TileFusion's spirit)
///
/// 1. The tile (`ROWS × COLS`) is split by the warp layout `W`
///    (`W::ROWS × W::COLS` warps) into equal warp regions; warp
///    `W(wr, wc)` copies region `(wr, wc)`.
/// 2. A region is cut into vectors of `VECTOR = 16 / size_of::<T>()` elements
///    (128 bits) along rows when both tiles allow it, else along columns
///    ([`Axis`]); a memory tile allows it when its layout's
///    [`ROW_RUN`](Layout2::ROW_RUN) (or `COL_RUN`) is a multiple of
///    `VECTOR`, i.e. every vector is contiguous and aligned there. Register
///    tiles accept any vector: lanes hand registers to each other (as
///    `ldmatrix` and `stmatrix` do).
/// 3. Vectors are numbered in the region line by line; at step `s` lane `l`
///    moves vector `32·s + l`, so consecutive lanes touch consecutive memory
///    (coalesced). The last step may leave lanes idle.
///
/// Post: every element of the tile is moved exactly once, by a lane of the
/// warp whose region contains it (tested for many shapes, element types and
/// warp layouts in `tests/gpu_copy_plan.rs`).
///
/// # Examples
///
/// Global → swizzled shared, 4 warps in 2×2, `f32` (4 per vector):
///
/// ```
/// use tilelayout::gpu::{
///     Axis, Bytes128, CopyPlan, GlobalTile, RowMajor, SharedTile, SwizzledRowMajor, Vector,
/// };
/// type G<'a> = GlobalTile<&'a [f32], RowMajor<64, 32>>;
/// type S<'a> = SharedTile<&'a mut [f32], SwizzledRowMajor<f32, Bytes128, 64, 32>>;
/// type Plan<'a> = CopyPlan<G<'a>, S<'a>, RowMajor<2, 2>>;
/// assert_eq!((Plan::WARPS, Plan::VECTOR, Plan::STEPS), (4, 4, 4));
/// assert_eq!(Plan::AXIS, Axis::Row);
/// // warp 3 is region (1, 1): rows 32.., columns 16..; lane 5 of step 1 moves
/// // vector 37 of the region: row 37 / 4 = 9, columns 4·(37 % 4) = 4 ..
/// assert_eq!(
///     Plan::vector(3, 5, 1),
///     Some(Vector { row: 41, col: 20, len: 4, axis: Axis::Row })
/// );
///
/// let src: Vec<f32> = (0..64 * 32).map(|x| x as f32).collect();
/// let mut buf = [0.0f32; 64 * 32];
/// let g = G::new(&src[..]);
/// let mut s = S::new(&mut buf[..]);
/// Plan::run(&g, &mut s);
/// assert!((0..64).all(|i| (0..32).all(|j| s.get(i, j) == g.get(i, j))));
/// ```
///
/// # Compile-time errors
///
/// The warp layout must divide the tile:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{CopyPlan, GlobalTile, RowMajor, SharedTile};
/// type P<'a> = CopyPlan<
///     GlobalTile<&'a [f32], RowMajor<64, 32>>,
///     SharedTile<&'a mut [f32], RowMajor<64, 32>>,
///     RowMajor<3, 1>,
/// >;
/// let _ = P::vector(0, 0, 0);
/// ```
///
/// Source and destination must have the same shape:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{CopyPlan, GlobalTile, RowMajor, SharedTile};
/// type P<'a> = CopyPlan<
///     GlobalTile<&'a [f32], RowMajor<64, 32>>,
///     SharedTile<&'a mut [f32], RowMajor<32, 64>>,
///     RowMajor<2, 2>,
/// >;
/// let _ = P::vector(0, 0, 0);
/// ```
///
/// Vectors must be contiguous in both tiles (a column-major source and a
/// row-major destination have no common direction):
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{ColMajor, CopyPlan, GlobalTile, RowMajor, SharedTile};
/// type P<'a> = CopyPlan<
///     GlobalTile<&'a [f32], ColMajor<64, 32>>,
///     SharedTile<&'a mut [f32], RowMajor<64, 32>>,
///     RowMajor<2, 2>,
/// >;
/// let _ = P::vector(0, 0, 0);
/// ```
pub struct CopyPlan<Src, Dst, W>(Phantom<(Src, Dst, W)>);

/// A marker that owns nothing and is `Send + Sync` whatever `T` is.
type Phantom<T> = PhantomData<fn() -> T>;

impl<Src, Dst, W> core::fmt::Debug for CopyPlan<Src, Dst, W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("CopyPlan")
    }
}

/// Rows (or columns) of the whole tile seen from one endpoint.
const fn tile_extent(extent: usize, warps: Option<usize>, warp_extent: usize) -> usize {
    match warps {
        None => extent,
        Some(_) => extent * warp_extent,
    }
}

/// Whether an endpoint can take vectors of `len` along a line whose
/// guaranteed run is `run`.
const fn accepts(run: usize, warps: Option<usize>, len: usize) -> bool {
    warps.is_some() || run.is_multiple_of(len)
}

/// Whether an endpoint holds tiles for `n` warps (memory tiles: any).
const fn warps_match(warps: Option<usize>, n: usize) -> bool {
    match warps {
        None => true,
        Some(m) => m == n,
    }
}

/// Whether `W` maps its grid one-to-one onto `[0, ROWS·COLS)`.
const fn is_warp_numbering<W: Layout2>() -> bool {
    let n = W::ROWS * W::COLS;
    if n == 0 || n > 64 {
        return false;
    }
    let mut seen: u64 = 0;
    let mut i = 0;
    while i < W::ROWS {
        let mut j = 0;
        while j < W::COLS {
            let w = W::EXPR.offset(i, j);
            if w >= n || seen & (1 << w) != 0 {
                return false;
            }
            seen |= 1 << w;
            j += 1;
        }
        i += 1;
    }
    true
}

impl<Src, Dst, W> CopyPlan<Src, Dst, W>
where
    Src: CopyEndpoint,
    Dst: CopyEndpoint<Elem = Src::Elem>,
    W: Layout2,
{
    /// Number of warps, `W::ROWS · W::COLS`.
    pub const WARPS: usize = W::ROWS * W::COLS;

    /// Rows of the copied tile.
    pub const ROWS: usize = tile_extent(Src::ROWS, Src::WARPS, W::ROWS);
    /// Columns of the copied tile.
    pub const COLS: usize = tile_extent(Src::COLS, Src::WARPS, W::COLS);

    /// Elements per 128-bit vector, `16 / size_of::<T>()`.
    pub const VECTOR: usize = {
        let size = size_of::<Src::Elem>();
        assert!(
            size > 0 && size <= VECTOR_BYTES && VECTOR_BYTES.is_multiple_of(size),
            "CopyPlan requires an element size that divides 16 bytes (a 128-bit vector)"
        );
        VECTOR_BYTES / size
    };

    const CHECK: () = {
        assert!(
            is_warp_numbering::<W>(),
            "CopyPlan<Src, Dst, W> requires the warp layout W to number its warps 0..W::ROWS*W::COLS one-to-one (at most 64 warps)"
        );
        assert!(
            Self::ROWS == tile_extent(Dst::ROWS, Dst::WARPS, W::ROWS)
                && Self::COLS == tile_extent(Dst::COLS, Dst::WARPS, W::COLS),
            "CopyPlan<Src, Dst, W> requires Src and Dst to have the same shape (register tiles count once per warp)"
        );
        assert!(
            Self::ROWS % W::ROWS == 0 && Self::COLS % W::COLS == 0,
            "CopyPlan<Src, Dst, W> requires the warp layout W to divide the tile: W::ROWS | rows and W::COLS | cols"
        );
        assert!(
            warps_match(Src::WARPS, W::ROWS * W::COLS)
                && warps_match(Dst::WARPS, W::ROWS * W::COLS),
            "CopyPlan<Src, Dst, W> requires register tiles for exactly W::ROWS*W::COLS warps"
        );
    };

    /// Rows of a warp's region, `ROWS / W::ROWS`.
    pub const REGION_ROWS: usize = {
        let () = Self::CHECK;
        Self::ROWS / W::ROWS
    };
    /// Columns of a warp's region, `COLS / W::COLS`.
    pub const REGION_COLS: usize = {
        let () = Self::CHECK;
        Self::COLS / W::COLS
    };

    /// The direction of the vectors: rows if both tiles allow it, else
    /// columns.
    pub const AXIS: Axis = {
        let v = Self::VECTOR;
        if Self::REGION_COLS % v == 0
            && accepts(Src::ROW_RUN, Src::WARPS, v)
            && accepts(Dst::ROW_RUN, Dst::WARPS, v)
        {
            Axis::Row
        } else if Self::REGION_ROWS % v == 0
            && accepts(Src::COL_RUN, Src::WARPS, v)
            && accepts(Dst::COL_RUN, Dst::WARPS, v)
        {
            Axis::Col
        } else {
            panic!(
                "CopyPlan: no 128-bit vector fits; it needs warp regions whose rows (or columns) are a multiple of 16 bytes and contiguous in both tiles (see Layout2::ROW_RUN / COL_RUN)"
            )
        }
    };

    /// Vectors per line of a region (a row for [`Axis::Row`]).
    const PER_LINE: usize = match Self::AXIS {
        Axis::Row => Self::REGION_COLS / Self::VECTOR,
        Axis::Col => Self::REGION_ROWS / Self::VECTOR,
    };

    /// Lines of a region (rows for [`Axis::Row`]).
    const LINES: usize = match Self::AXIS {
        Axis::Row => Self::REGION_ROWS,
        Axis::Col => Self::REGION_COLS,
    };

    /// Vectors in one warp's region.
    pub const VECTORS: usize = Self::REGION_ROWS * Self::REGION_COLS / Self::VECTOR;

    /// Steps per lane, `⌈VECTORS / 32⌉`.
    pub const STEPS: usize = Self::VECTORS.div_ceil(LANES);

    /// Returns the coordinates `(wr, wc)` of `warp` in the warp layout.
    ///
    /// # Panics
    ///
    /// If `warp >= WARPS`.
    #[track_caller]
    #[must_use]
    pub fn warp_coords(warp: usize) -> (usize, usize) {
        let () = Self::CHECK;
        for wr in 0..W::ROWS {
            for wc in 0..W::COLS {
                if W::offset(wr, wc) == warp {
                    return (wr, wc);
                }
            }
        }
        panic!("CopyPlan: warp out of range")
    }

    /// Returns the vector moved by lane `lane` of the warp at `(wr, wc)` at
    /// `step`, or `None` if that lane is idle then.
    #[inline(always)]
    #[must_use]
    pub fn vector_at(wr: usize, wc: usize, lane: usize, step: usize) -> Option<Vector> {
        let t = step * LANES + lane;
        if lane >= LANES || t >= Self::VECTORS {
            return None;
        }
        Some(Self::numbered(wr, wc, t))
    }

    /// Returns vector number `t < VECTORS` of the region of warp `(wr, wc)`
    /// (moved by lane `t % 32` at step `t / 32`).
    #[inline(always)]
    fn numbered(wr: usize, wc: usize, t: usize) -> Vector {
        Self::in_line(wr, wc, t / Self::PER_LINE, t % Self::PER_LINE)
    }

    /// Returns vector `k < PER_LINE` of line `line` of the region of warp
    /// `(wr, wc)`: vector number `line · PER_LINE + k`.
    #[inline(always)]
    fn in_line(wr: usize, wc: usize, line: usize, k: usize) -> Vector {
        let k = k * Self::VECTOR;
        let (r, c) = match Self::AXIS {
            Axis::Row => (line, k),
            Axis::Col => (k, line),
        };
        Vector {
            row: wr * Self::REGION_ROWS + r,
            col: wc * Self::REGION_COLS + c,
            len: Self::VECTOR,
            axis: Self::AXIS,
        }
    }

    /// Returns the vector moved by `lane` of `warp` at `step`, or `None` if
    /// that lane is idle then.
    ///
    /// # Panics
    ///
    /// If `warp >= WARPS`.
    #[track_caller]
    #[must_use]
    pub fn vector(warp: usize, lane: usize, step: usize) -> Option<Vector> {
        let (wr, wc) = Self::warp_coords(warp);
        Self::vector_at(wr, wc, lane, step)
    }

    /// Runs the plan on the CPU: for every warp, step and lane (lane by lane
    /// within a step), reads the lane's vector from `src` and writes it to
    /// `dst`.
    ///
    /// Vector `t` of a region is moved by lane `t % 32` at step `t / 32`, so
    /// "step by step, lane by lane" is the order `t = 0, 1, …`; the executor
    /// walks it as `line` by `line`, vector by vector inside a line
    /// (`t = line · PER_LINE + k`), which needs no division and no idle-lane
    /// test, and lets the compiler unroll the short inner loop.
    #[inline(always)]
    pub fn run(src: &Src, dst: &mut Dst)
    where
        Src: CopySource,
        Dst: CopyDest,
    {
        let () = Self::CHECK;
        for wr in 0..W::ROWS {
            for wc in 0..W::COLS {
                let warp = W::offset(wr, wc);
                for line in 0..Self::LINES {
                    for k in 0..Self::PER_LINE {
                        let v = Self::in_line(wr, wc, line, k);
                        let mut staging = [Src::Elem::default(); VECTOR_BYTES];
                        dst.write_vector(warp, &v, src.load(warp, &v, &mut staging));
                    }
                }
            }
        }
    }
}

/// Copies `src` to `dst` with the plan of warp layout `W`:
/// `CopyPlan::<S, D, W>::run(src, dst)` with the endpoint types inferred.
///
/// ```
/// use tilelayout::gpu::{copy, BaseTileRowMajor, GlobalTile, RegTile, RowMajor};
/// type Reg = RegTile<[u16; 8], BaseTileRowMajor, RowMajor<1, 1>>;
/// let src: Vec<u16> = (0..16 * 32).collect();
/// let g = GlobalTile::<_, RowMajor<16, 32>>::new(&src[..]);
/// // two warps side by side, each loads one 16×16 base tile
/// let mut regs = [[Reg::filled(0); 32]; 2];
/// copy::<RowMajor<1, 2>, _, _>(&g, &mut regs);
/// // lane 5 of warp 1 holds row 1, columns 16 + 2, 16 + 3 in slots 0, 1
/// assert_eq!(&regs[1][5].regs()[..2], &[32 + 18, 32 + 19]);
/// ```
#[inline(always)]
pub fn copy<W, S, D>(src: &S, dst: &mut D)
where
    W: Layout2,
    S: CopySource,
    D: CopyDest<Elem = S::Elem>,
{
    CopyPlan::<S, D, W>::run(src, dst);
}

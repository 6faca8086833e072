//! Copy plans: which thread moves which 128-bit vector of a tile.
//!
//! TileFusion's loaders and storers take a source tile, a target tile and a
//! warp layout, and infer how the threads of a thread block share the copy.
//! Here that inference is a type, [`CopyPlan`], computed lazily per
//! `(warp, lane, step)` with no allocation, and an executor that runs it on
//! the CPU lane by lane. The endpoints are in `copy_endpoint.rs`, the vectors
//! in `vector.rs`, the warp reuse modes in `warp_reuse.rs`.
//!
//! The rule a plan follows is documented on [`CopyPlan`].

use core::marker::PhantomData;
use core::mem::size_of;

use super::banks::access_degree;
use super::copy_endpoint::{CopyDest, CopyEndpoint, CopySource};
use super::matrix::{const_offset, Layout2};
use super::reg_tile::WARP_SIZE;
use super::vector::{Axis, Vector, CACHE_LINE_BYTES, VECTOR_BYTES};
use super::warp_region::{origins, region_extent, region_origin, warp_coords};
use super::warp_reuse::{Cont, WarpReuse};
use crate::algebra::ComposedLayout;
use crate::types::cute_index::flat;

// ---------------------------------------------------------------------------
// The plan
// ---------------------------------------------------------------------------

/// How the warps of `W` copy a tile from `Src` to `Dst`, one 128-bit vector
/// per lane per step, shared among the warps as the reuse mode `R` says
/// (default [`Cont`]).
///
/// `W` is a warp layout: a [`Layout2`] numbering the warps, e.g.
/// `RowMajor<2, 2>` (warp `2·wr + wc` has coordinates `(wr, wc)`). It must be
/// a bijection onto `[0, W::ROWS·W::COLS)` (checked at compile time).
///
/// The plan is a set of functions of its types: [`vector`](Self::vector)
/// answers `(warp, lane, step)` in O(1) after finding the warp's coordinates,
/// and [`run`](Self::run) executes the whole plan.
///
/// # The rule: TileFusion's `GlobalToSharedLoader`
///
/// 1. **Regions.** Warp `(wr, wc)` copies the region `(wr, wc)` of the tile
///    split `W::ROWS × W::COLS` ways ([`Cont`]); with [`RowReuseCont`](super::RowReuseCont)
///    (`ColReuseCont`) the columns (rows) are not split.
/// 2. **Direction.** Vectors of `VECTOR = 16 / size_of::<T>()` elements run
///    along rows when both tiles allow it (a row-major tile), else along
///    columns ([`Axis`]); a memory tile allows it when its layout's
///    contiguous run along rows (columns), [`vector_run`](super::vector_run)
///    computed on the algebra, is a multiple of `VECTOR`.
///    Register tiles accept either (lanes hand registers to each other).
/// 3. **The warp's base tile** (TileFusion's `WarpBaseTileShape`, computed
///    from the even split of the tile among the warps): along the vectors
///    it is at most one 128-byte cache line, `BASE_COLS = min(cols per warp,
///    128 / size_of::<T>())`; the 32 lanes cover it with
///    `BASE_COLS / VECTOR` lanes per line and stack the remaining lanes as
///    lines, `BASE_ROWS = 32 / (BASE_COLS / VECTOR)`. Lane `l` takes line
///    `l / (BASE_COLS / VECTOR)`, vector `l % (BASE_COLS / VECTOR)` of it:
///    consecutive lanes, consecutive vectors of a line. For column vectors
///    (a column-major tile) `BASE_ROWS = min(rows per warp, 128 / size)`,
///    `BASE_COLS = 32 / (BASE_ROWS / VECTOR)`, and consecutive lanes take
///    consecutive *columns*: lane `l` takes column `l % BASE_COLS`, rows from
///    `VECTOR · (l / BASE_COLS)` (lane 1 of an `f32` column-major tile starts
///    at `(0, 1)`, not `(4, 0)`), as TileFusion's column-major loader does.
/// 4. **Steps.** The region is a grid of `ROW_EXEC × COL_EXEC` base tiles;
///    step `s` is base tile `(s / COL_EXEC, s % COL_EXEC)` for row vectors
///    and `(s % ROW_EXEC, s / ROW_EXEC)` for column vectors (TileFusion's loop
///    order). Every lane moves one vector at every step.
///
/// Shapes TileFusion's loader rejects are rejected at compile time: a warp
/// region that is not a whole number of base tiles, a line of more than
/// 128 bytes that is not a whole number of cache lines.
///
/// Post: with [`Cont`] every element of the tile is moved exactly once, by a
/// lane of the warp whose region contains it; with a reuse mode once by each
/// warp sharing it. `tests/gpu_copy_plan.rs` compares every
/// `(warp, lane, step)` with the offsets TileFusion's own loader computes, in
/// every configuration of its unit tests.
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
/// // each warp has a 32×16 region; its base tile is 8 rows of 16 (4 lanes a row)
/// assert_eq!((Plan::BASE_ROWS, Plan::BASE_COLS), (8, 16));
/// // warp 3 is region (1, 1): rows 32.., columns 16..; at step 1 (base tile
/// // row 1) lane 5 takes row 8 + 5 / 4 = 9, columns 4·(5 % 4) = 4 ..
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
/// A half tile's warp line is capped at 128 bytes: TileFusion's
/// `WarpBaseTileShape` of a 128×128 row-major half tile is 4×64.
///
/// ```
/// use half::f16;
/// use tilelayout::gpu::{CopyPlan, GlobalTile, RowMajor, SharedTile};
/// type P<'a> = CopyPlan<
///     GlobalTile<&'a [f16], RowMajor<128, 128>>,
///     SharedTile<&'a mut [f16], RowMajor<128, 128>>,
///     RowMajor<1, 1>,
/// >;
/// assert_eq!((P::BASE_ROWS, P::BASE_COLS, P::STEPS), (4, 64, 64));
/// // f32 64×64: 4×32
/// type F<'a> = CopyPlan<
///     GlobalTile<&'a [f32], RowMajor<64, 64>>,
///     SharedTile<&'a mut [f32], RowMajor<64, 64>>,
///     RowMajor<1, 1>,
/// >;
/// assert_eq!((F::BASE_ROWS, F::BASE_COLS), (4, 32));
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
///
/// A warp region must be a whole number of base tiles (here 4 rows of 8
/// lanes cannot cover 2 rows):
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::{CopyPlan, GlobalTile, RowMajor, SharedTile};
/// type P<'a> = CopyPlan<
///     GlobalTile<&'a [f32], RowMajor<2, 32>>,
///     SharedTile<&'a mut [f32], RowMajor<2, 32>>,
///     RowMajor<1, 1>,
/// >;
/// let _ = P::vector(0, 0, 0);
/// ```
pub struct CopyPlan<Src, Dst, W, R = Cont>(Phantom<(Src, Dst, W, R)>);

/// A marker that owns nothing and is `Send + Sync` whatever `T` is.
type Phantom<T> = PhantomData<fn() -> T>;

impl<Src, Dst, W, R> core::fmt::Debug for CopyPlan<Src, Dst, W, R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("CopyPlan")
    }
}

/// Rows (or columns) of the whole tile seen from one endpoint: a memory
/// tile's own; register tiles hold a warp's region, `warp_extent` of them
/// when the axis is split.
const fn tile_extent(
    extent: usize,
    warps: Option<usize>,
    warp_extent: usize,
    split: bool,
) -> usize {
    match warps {
        Some(_) if split => extent * warp_extent,
        _ => extent,
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
            let w = const_offset::<W>(i, j);
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

/// TileFusion's `WarpBaseTileShape` along the vectors: `(extent along the
/// vectors, lanes along them, lines)` of a warp whose even share of the
/// tile is `warp_extent` long, with `vector` elements per vector and `line`
/// elements per 128-byte cache line.
// Follows microsoft/TileFusion@ddc570d96e2fcda2bceb518dab6878d5ee5daba7: include/types/base_tile.hpp (WarpBaseTileShape),
// include/cell/copy/global_to_shared.hpp (GlobalToSharedLoaderImpl lane maps
// and loop order), include/cell/copy/warp.hpp (warp offsets, ExecCounter).
const fn warp_base(warp_extent: usize, vector: usize, line: usize) -> (usize, usize, usize) {
    assert!(
        warp_extent < line || warp_extent.is_multiple_of(line),
        "CopyPlan: a warp's share of a line longer than 128 bytes must be a whole number of 128-byte cache lines (TileFusion's WarpBaseTileShape)"
    );
    let along = if warp_extent >= line {
        line
    } else {
        warp_extent
    };
    assert!(
        along.is_multiple_of(vector),
        "CopyPlan: a warp's share of a line must be a whole number of 128-bit vectors"
    );
    let lanes = along / vector;
    assert!(
        WARP_SIZE.is_multiple_of(lanes),
        "CopyPlan: the vectors of a warp's line must divide the 32 lanes (TileFusion's WarpBaseTileShape)"
    );
    (along, lanes, WARP_SIZE / lanes)
}

impl<Src, Dst, W, R> CopyPlan<Src, Dst, W, R>
where
    Src: CopyEndpoint,
    Dst: CopyEndpoint<Elem = Src::Elem>,
    W: Layout2,
    R: WarpReuse,
{
    /// Number of warps, `W::ROWS · W::COLS`.
    pub const WARPS: usize = W::ROWS * W::COLS;

    /// Rows of the copied tile.
    pub const ROWS: usize = tile_extent(Src::ROWS, Src::WARPS, W::ROWS, R::SPLIT_ROWS);
    /// Columns of the copied tile.
    pub const COLS: usize = tile_extent(Src::COLS, Src::WARPS, W::COLS, R::SPLIT_COLS);

    /// Elements per 128-bit vector, `16 / size_of::<T>()`.
    pub const VECTOR: usize = {
        let size = size_of::<Src::Elem>();
        assert!(
            size > 0 && size <= VECTOR_BYTES && VECTOR_BYTES.is_multiple_of(size),
            "CopyPlan requires an element size that divides 16 bytes (a 128-bit vector)"
        );
        VECTOR_BYTES / size
    };

    /// Elements per 128-byte cache line.
    const LINE: usize = Self::VECTOR * (CACHE_LINE_BYTES / VECTOR_BYTES);

    const CHECK: () = {
        assert!(
            is_warp_numbering::<W>(),
            "CopyPlan<Src, Dst, W> requires the warp layout W to number its warps 0..W::ROWS*W::COLS one-to-one (at most 64 warps)"
        );
        assert!(
            Self::ROWS
                == tile_extent(Dst::ROWS, Dst::WARPS, W::ROWS, R::SPLIT_ROWS)
                && Self::COLS == tile_extent(Dst::COLS, Dst::WARPS, W::COLS, R::SPLIT_COLS),
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

    /// Rows of a warp's region: `ROWS / W::ROWS`, or `ROWS` when the warps
    /// of a column share them ([`ColReuseCont`](super::ColReuseCont)).
    pub const REGION_ROWS: usize = {
        let () = Self::CHECK;
        region_extent(Self::ROWS, W::ROWS, R::SPLIT_ROWS)
    };
    /// Columns of a warp's region: `COLS / W::COLS`, or `COLS` when the
    /// warps of a row share them ([`RowReuseCont`](super::RowReuseCont)).
    pub const REGION_COLS: usize = {
        let () = Self::CHECK;
        region_extent(Self::COLS, W::COLS, R::SPLIT_COLS)
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
                "CopyPlan: no 128-bit vector fits; it needs warp regions whose rows (or columns) are a multiple of 16 bytes and contiguous in both tiles (see gpu::vector_run)"
            )
        }
    };

    /// `(extent along the vectors, lanes along them, lines)` of the warp's
    /// base tile.
    const BASE: (usize, usize, usize) = {
        let () = Self::CHECK;
        match Self::AXIS {
            Axis::Row => warp_base(Self::COLS / W::COLS, Self::VECTOR, Self::LINE),
            Axis::Col => warp_base(Self::ROWS / W::ROWS, Self::VECTOR, Self::LINE),
        }
    };

    /// Rows of a warp's base tile (TileFusion's `WarpBaseTileShape::kRows`).
    pub const BASE_ROWS: usize = match Self::AXIS {
        Axis::Row => Self::BASE.2,
        Axis::Col => Self::BASE.0,
    };
    /// Columns of a warp's base tile (`WarpBaseTileShape::kCols`).
    pub const BASE_COLS: usize = match Self::AXIS {
        Axis::Row => Self::BASE.0,
        Axis::Col => Self::BASE.2,
    };

    /// Consecutive lanes vary fastest along this many positions
    /// (TileFusion's `kColThreads`): the vectors of a line for row vectors
    /// (`BASE_COLS / VECTOR`), the lines for column vectors (`BASE_COLS`).
    const LANE_MINOR: usize = match Self::AXIS {
        Axis::Row => Self::BASE.1,
        Axis::Col => Self::BASE.2,
    };

    /// Where the lane at `(lane / LANE_MINOR, lane % LANE_MINOR)` starts in a
    /// base tile.
    #[inline(always)]
    const fn lane_at(major: usize, minor: usize) -> (usize, usize) {
        match Self::AXIS {
            Axis::Row => (major, minor * Self::VECTOR),
            Axis::Col => (major * Self::VECTOR, minor),
        }
    }

    /// Base tiles down a region (TileFusion's `kRowExec`).
    pub const ROW_EXEC: usize = {
        assert!(
            Self::REGION_ROWS.is_multiple_of(Self::BASE_ROWS)
                && Self::REGION_COLS.is_multiple_of(Self::BASE_COLS),
            "CopyPlan: a warp's region must be a whole number of its base tiles (TileFusion's WarpBaseTileShape)"
        );
        Self::REGION_ROWS / Self::BASE_ROWS
    };
    /// Base tiles across a region (TileFusion's `kColExec`).
    pub const COL_EXEC: usize = {
        let _ = Self::ROW_EXEC;
        Self::REGION_COLS / Self::BASE_COLS
    };

    /// Vectors in one warp's region.
    pub const VECTORS: usize = Self::REGION_ROWS * Self::REGION_COLS / Self::VECTOR;

    /// Steps per lane (base tiles per region): every lane moves one vector
    /// per step.
    pub const STEPS: usize = Self::ROW_EXEC * Self::COL_EXEC;

    /// The bank conflict degree of the plan's shared-memory side(s): the
    /// most wavefronts 8 lanes' 128-bit accesses of one step need (1:
    /// conflict-free), over every warp and step, for the tile at its
    /// layout's origin; `None` when neither side is in shared memory.
    /// Counted at compile time.
    ///
    /// ```
    /// use tilelayout::gpu::{Bytes128, CopyPlan, GlobalTile, RowMajor, SharedTile, SwizzledRowMajor};
    /// type Plain<'a> = CopyPlan<
    ///     GlobalTile<&'a [f32], RowMajor<64, 64>>,
    ///     SharedTile<&'a mut [f32], RowMajor<64, 64>>,
    ///     RowMajor<1, 1>,
    /// >;
    /// // 8 lanes cover one 128-byte line: conflict-free
    /// assert_eq!(Plain::SHARED_CONFLICTS, Some(1));
    /// ```
    pub const SHARED_CONFLICTS: Option<usize> = {
        let src = Self::conflicts(Src::SHARED_LAYOUT);
        let dst = Self::conflicts(Dst::SHARED_LAYOUT);
        match (src, dst) {
            (Some(a), Some(b)) => Some(if a > b { a } else { b }),
            (Some(a), None) | (None, Some(a)) => Some(a),
            (None, None) => None,
        }
    };

    /// The conflict degree of the plan on one shared-memory layout.
    const fn conflicts(layout: Option<&'static ComposedLayout>) -> Option<usize> {
        let Some(layout) = layout else {
            return None;
        };
        let f = flat(&layout.layout);
        let starts = origins(
            (W::ROWS, W::COLS),
            (Self::REGION_ROWS, Self::REGION_COLS),
            (R::SPLIT_ROWS, R::SPLIT_COLS),
        );
        let size = size_of::<Src::Elem>();
        let mut worst = 0;
        let mut w = 0;
        while w < W::ROWS * W::COLS {
            let (r0, c0) = starts[w];
            let mut step = 0;
            while step < Self::STEPS {
                let (i, j) = match Self::AXIS {
                    Axis::Row => (step / Self::COL_EXEC, step % Self::COL_EXEC),
                    Axis::Col => (step % Self::ROW_EXEC, step / Self::ROW_EXEC),
                };
                let mut at = [(0, 0); WARP_SIZE];
                let mut lane = 0;
                while lane < WARP_SIZE {
                    let (r, c) = Self::lane_at(lane / Self::LANE_MINOR, lane % Self::LANE_MINOR);
                    at[lane] = (r0 + i * Self::BASE_ROWS + r, c0 + j * Self::BASE_COLS + c);
                    lane += 1;
                }
                let d = access_degree(layout, &f, &at, size, VECTOR_BYTES);
                if d > worst {
                    worst = d;
                }
                step += 1;
            }
            w += 1;
        }
        Some(worst)
    }

    /// Returns the coordinates `(wr, wc)` of `warp` in the warp layout.
    ///
    /// # Panics
    ///
    /// If `warp >= WARPS`.
    #[track_caller]
    #[must_use]
    pub fn warp_coords(warp: usize) -> (usize, usize) {
        let () = Self::CHECK;
        match warp_coords::<W>(warp) {
            Some(c) => c,
            None => {
                panic!("CopyPlan: warp out of range (warp {warp} is not a warp of the warp layout)")
            }
        }
    }

    /// Returns the first row and column of the region of warp `(wr, wc)`.
    #[inline(always)]
    #[must_use]
    pub fn region_origin(wr: usize, wc: usize) -> (usize, usize) {
        region_origin(
            (wr, wc),
            (Self::REGION_ROWS, Self::REGION_COLS),
            (R::SPLIT_ROWS, R::SPLIT_COLS),
        )
    }

    /// Returns the base tile `(i, j)` of the region moved at `step`.
    #[inline(always)]
    #[must_use]
    pub fn step_tile(step: usize) -> (usize, usize) {
        match Self::AXIS {
            Axis::Row => (step / Self::COL_EXEC, step % Self::COL_EXEC),
            Axis::Col => (step % Self::ROW_EXEC, step / Self::ROW_EXEC),
        }
    }

    /// Returns where `lane`'s vector starts in a base tile.
    #[inline(always)]
    #[must_use]
    pub fn lane_origin(lane: usize) -> (usize, usize) {
        Self::lane_at(lane / Self::LANE_MINOR, lane % Self::LANE_MINOR)
    }

    /// Returns the vector moved by lane `lane` of the warp at `(wr, wc)` at
    /// `step`, or `None` if `lane ≥ 32` or `step ≥ STEPS`.
    #[inline(always)]
    #[must_use]
    pub fn vector_at(wr: usize, wc: usize, lane: usize, step: usize) -> Option<Vector> {
        if lane >= WARP_SIZE || step >= Self::STEPS {
            return None;
        }
        Some(Self::vector_in(wr, wc, lane, step))
    }

    /// Returns the vector moved by lane `lane < 32` of the warp at
    /// `(wr, wc)` at `step < STEPS`: [`vector_at`](Self::vector_at) without
    /// the range test (checked with `debug_assert!`), for device code that
    /// must not branch. Outside the range the result is unspecified.
    #[inline(always)]
    #[must_use]
    pub fn vector_in(wr: usize, wc: usize, lane: usize, step: usize) -> Vector {
        debug_assert!(
            lane < WARP_SIZE && step < Self::STEPS,
            "CopyPlan: lane or step out of range"
        );
        let (i, j) = Self::step_tile(step);
        let (r, c) = Self::lane_origin(lane);
        Self::at(wr, wc, i, j, r, c)
    }

    /// The vector at `(r, c)` of base tile `(i, j)` of warp `(wr, wc)`.
    #[inline(always)]
    fn at(wr: usize, wc: usize, i: usize, j: usize, r: usize, c: usize) -> Vector {
        let (r0, c0) = Self::region_origin(wr, wc);
        Vector {
            row: r0 + i * Self::BASE_ROWS + r,
            col: c0 + j * Self::BASE_COLS + c,
            len: Self::VECTOR,
            axis: Self::AXIS,
        }
    }

    /// Returns the vector moved by `lane` of `warp` at `step`, or `None` if
    /// `lane ≥ 32` or `step ≥ STEPS`.
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

    /// Runs the plan on the CPU: for every warp, step by step and lane by
    /// lane, reads the lane's vector from `src` and writes it to `dst`.
    ///
    /// The lanes of a step are walked as `lane = major · LANE_MINOR + minor`
    /// (TileFusion's `kColThreads` is `LANE_MINOR`), the same order with no
    /// division.
    #[inline(always)]
    pub fn run(src: &Src, dst: &mut Dst)
    where
        Src: CopySource,
        Dst: CopyDest,
    {
        let () = Self::CHECK;
        let majors = WARP_SIZE / Self::LANE_MINOR;
        for wr in 0..W::ROWS {
            for wc in 0..W::COLS {
                let warp = W::offset(wr, wc);
                if matches!(Self::AXIS, Axis::Row) && Self::COL_EXEC == 1 {
                    // one base tile across: the steps and the lanes' lines
                    // are the region's rows, in order (one loop fewer)
                    let (r0, c0) = Self::region_origin(wr, wc);
                    for line in 0..Self::REGION_ROWS {
                        for minor in 0..Self::LANE_MINOR {
                            let v = Vector {
                                row: r0 + line,
                                col: c0 + minor * Self::VECTOR,
                                len: Self::VECTOR,
                                axis: Axis::Row,
                            };
                            let mut staging = [Src::Elem::default(); VECTOR_BYTES];
                            dst.write_vector(warp, &v, src.load(warp, &v, &mut staging));
                        }
                    }
                    continue;
                }
                for step in 0..Self::STEPS {
                    let (i, j) = Self::step_tile(step);
                    for major in 0..majors {
                        for minor in 0..Self::LANE_MINOR {
                            let (r, c) = Self::lane_at(major, minor);
                            let v = Self::at(wr, wc, i, j, r, c);
                            let mut staging = [Src::Elem::default(); VECTOR_BYTES];
                            dst.write_vector(warp, &v, src.load(warp, &v, &mut staging));
                        }
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

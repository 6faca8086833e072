//! The type parameters of a layout type: dims, tiles, `minor_to_major` and
//! the attributes `L`, `E`, `S`, spelled as in XLA's text.
//!
//! Each list type takes up to 8 const parameters; absent ones default to a
//! sentinel (`usize::MAX`) that never shows in a layout's own messages (the
//! checks name dims and tiles by position, and the type in XLA's text). The value-level twins are the arrays in the associated
//! consts (`DIMS`, `TILES`, …).

/// Most dims (and tile dims, and tiles) a layout *type* has. Runtime values
/// go to [`crate::value::MAX_RANK`].
pub const MAX_TYPE_RANK: usize = 8;

/// Marks an absent parameter. Internal: written by defaults only.
#[doc(hidden)] // reason: a sentinel, never spelled by users
pub const NO_DIM: usize = usize::MAX;

/// `*` in a tile: combine this dim into the next more-minor one.
///
/// ```
/// use tilelayout::{Layout, Dims, Tiled, BF16, T, COMBINE};
/// type A = Tiled<BF16, Dims<2, 3, 1004>, T<2, COMBINE, 128>>;
/// assert_eq!(A::TEXT, "bf16[2,3,1004]{2,1,0:T(2,*,128)}");
/// ```
pub const COMBINE: usize = usize::MAX - 1;

/// The number of present parameters: those before the first absent one.
/// (A present parameter after an absent one is reported by the layout
/// type's [`crate::Layout::VERDICT`], which names it.)
const fn count(v: [usize; MAX_TYPE_RANK]) -> usize {
    let mut n = 0;
    while n < MAX_TYPE_RANK && v[n] != NO_DIM {
        n += 1;
    }
    n
}

/// The position of the first present parameter after an absent one.
const fn gap(v: [usize; MAX_TYPE_RANK]) -> Option<usize> {
    let mut i = count(v);
    while i < MAX_TYPE_RANK {
        if v[i] != NO_DIM {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The dims of an array, `Dims<3, 5>` for `[3,5]` (rank 0 to 8).
///
/// ```
/// use tilelayout::{DimsParam, Dims};
/// assert_eq!(<Dims<3, 5> as DimsParam>::RANK, 2);
/// assert_eq!(<Dims as DimsParam>::RANK, 0); // a scalar
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dims<
    const D0: usize = NO_DIM,
    const D1: usize = NO_DIM,
    const D2: usize = NO_DIM,
    const D3: usize = NO_DIM,
    const D4: usize = NO_DIM,
    const D5: usize = NO_DIM,
    const D6: usize = NO_DIM,
    const D7: usize = NO_DIM,
>;

/// Dims as a type (implemented by [`Dims`]).
pub trait DimsParam: 'static {
    /// The number of dims (before the first absent parameter).
    const RANK: usize;
    /// The dims as written, absent ones included (entries past `RANK` are
    /// unspecified).
    const DIMS: [usize; MAX_TYPE_RANK];
    /// The position of a dim written after an absent one (`usize::MAX`), a
    /// mistake the layout's [`crate::Layout::VERDICT`] reports.
    const GAP: Option<usize> = None;
}

impl<
        const D0: usize,
        const D1: usize,
        const D2: usize,
        const D3: usize,
        const D4: usize,
        const D5: usize,
        const D6: usize,
        const D7: usize,
    > DimsParam for Dims<D0, D1, D2, D3, D4, D5, D6, D7>
{
    const RANK: usize = count([D0, D1, D2, D3, D4, D5, D6, D7]);
    const DIMS: [usize; MAX_TYPE_RANK] = [D0, D1, D2, D3, D4, D5, D6, D7];
    const GAP: Option<usize> = gap([D0, D1, D2, D3, D4, D5, D6, D7]);
}

/// One tile, `T<8, 128>` for `(8,128)`; [`COMBINE`] spells `*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct T<
    const D0: usize = NO_DIM,
    const D1: usize = NO_DIM,
    const D2: usize = NO_DIM,
    const D3: usize = NO_DIM,
    const D4: usize = NO_DIM,
    const D5: usize = NO_DIM,
    const D6: usize = NO_DIM,
    const D7: usize = NO_DIM,
>;

/// One tile as a type (implemented by [`T`]).
pub trait TileParam: 'static {
    /// The tile dims as written, absent ones included (past `RANK`:
    /// unspecified); [`COMBINE`] is `*`.
    const DIMS: [usize; MAX_TYPE_RANK];
    /// The number of tile dims (before the first absent parameter).
    const RANK: usize;
    /// The position of a tile dim written after an absent one.
    const GAP: Option<usize> = None;
}

impl<
        const D0: usize,
        const D1: usize,
        const D2: usize,
        const D3: usize,
        const D4: usize,
        const D5: usize,
        const D6: usize,
        const D7: usize,
    > TileParam for T<D0, D1, D2, D3, D4, D5, D6, D7>
{
    const DIMS: [usize; MAX_TYPE_RANK] = [D0, D1, D2, D3, D4, D5, D6, D7];
    const RANK: usize = count(Self::DIMS);
    const GAP: Option<usize> = gap(Self::DIMS);
}

/// The tiles of a layout type, applied in order: `()` (none), one `T<…>`,
/// or a tuple `(T<8, 128>, T<2, 1>)` of up to 8.
pub trait Tiles: 'static {
    /// The number of tiles.
    const COUNT: usize;
    /// Each tile's dims and rank.
    const TILES: [([usize; MAX_TYPE_RANK], usize); MAX_TYPE_RANK];
    /// A tile dim written after an absent one: which tile, which dim.
    const GAP: Option<(usize, usize)> = None;
}

const NO_TILE: ([usize; MAX_TYPE_RANK], usize) = ([NO_DIM; MAX_TYPE_RANK], 0);

impl Tiles for () {
    const COUNT: usize = 0;
    const TILES: [([usize; MAX_TYPE_RANK], usize); MAX_TYPE_RANK] = [NO_TILE; MAX_TYPE_RANK];
}

impl<
        const D0: usize,
        const D1: usize,
        const D2: usize,
        const D3: usize,
        const D4: usize,
        const D5: usize,
        const D6: usize,
        const D7: usize,
    > Tiles for T<D0, D1, D2, D3, D4, D5, D6, D7>
{
    const COUNT: usize = 1;
    const TILES: [([usize; MAX_TYPE_RANK], usize); MAX_TYPE_RANK] = {
        let mut t = [NO_TILE; MAX_TYPE_RANK];
        t[0] = (<Self as TileParam>::DIMS, <Self as TileParam>::RANK);
        t
    };
    const GAP: Option<(usize, usize)> = match <Self as TileParam>::GAP {
        Some(d) => Some((0, d)),
        None => None,
    };
}

macro_rules! tile_tuples {
    ($(($($n:tt $t:ident),+);)*) => {$(
        impl<$($t: TileParam),+> Tiles for ($($t,)+) {
            const COUNT: usize = [$($n),+].len();
            const TILES: [([usize; MAX_TYPE_RANK], usize); MAX_TYPE_RANK] = {
                let mut t = [NO_TILE; MAX_TYPE_RANK];
                $(t[$n] = ($t::DIMS, $t::RANK);)+
                t
            };
            const GAP: Option<(usize, usize)> = {
                let gaps = [$($t::GAP),+];
                let mut i = 0;
                let mut first = None;
                while i < gaps.len() {
                    if let (None, Some(d)) = (first, gaps[i]) {
                        first = Some((i, d));
                    }
                    i += 1;
                }
                first
            };
        }
    )*};
}

tile_tuples! {
    (0 A);
    (0 A, 1 B);
    (0 A, 1 B, 2 C);
    (0 A, 1 B, 2 C, 3 D);
    (0 A, 1 B, 2 C, 3 D, 4 E);
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F);
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G);
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H);
}

/// XLA's default order, `{n-1,…,1,0}` (row-major): the default of
/// [`crate::Tiled`]'s `minor_to_major` parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Descending;

/// An explicit `minor_to_major`, `MinorToMajor<3, 2, 0, 1>` for `{3,2,0,1}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MinorToMajor<
    const D0: usize = NO_DIM,
    const D1: usize = NO_DIM,
    const D2: usize = NO_DIM,
    const D3: usize = NO_DIM,
    const D4: usize = NO_DIM,
    const D5: usize = NO_DIM,
    const D6: usize = NO_DIM,
    const D7: usize = NO_DIM,
>;

/// A `minor_to_major` as a type ([`Descending`] or [`MinorToMajor`]).
pub trait Order: 'static {
    /// `None` for [`Descending`]; else the entries as written and their
    /// count (before the first absent parameter).
    const ORDER: Option<([usize; MAX_TYPE_RANK], usize)>;
    /// The position of an entry written after an absent one.
    const GAP: Option<usize> = None;
}

impl Order for Descending {
    const ORDER: Option<([usize; MAX_TYPE_RANK], usize)> = None;
}

impl<
        const D0: usize,
        const D1: usize,
        const D2: usize,
        const D3: usize,
        const D4: usize,
        const D5: usize,
        const D6: usize,
        const D7: usize,
    > Order for MinorToMajor<D0, D1, D2, D3, D4, D5, D6, D7>
{
    const ORDER: Option<([usize; MAX_TYPE_RANK], usize)> = {
        let v = [D0, D1, D2, D3, D4, D5, D6, D7];
        Some((v, count(v)))
    };
    const GAP: Option<usize> = gap([D0, D1, D2, D3, D4, D5, D6, D7]);
}

/// The layout attributes a type carries: `L(n)` tail padding alignment in
/// elements, `E(n)` element size in bits (0 = the type's own), `S(n)`
/// memory space. `Attrs` with the defaults means the same layout as `()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Attrs<const L: usize = 1, const E: usize = 0, const S: i8 = 0>;

/// Layout attributes as a type ([`Attrs`], or `()` for the defaults).
pub trait AttrSet: 'static {
    /// `L(n)`.
    const TAIL_PADDING: usize;
    /// `E(n)`.
    const ELEMENT_BITS: usize;
    /// `S(n)`.
    const MEMORY_SPACE: i8;
}

impl AttrSet for () {
    const TAIL_PADDING: usize = 1;
    const ELEMENT_BITS: usize = 0;
    const MEMORY_SPACE: i8 = 0;
}

impl<const L: usize, const E: usize, const S: i8> AttrSet for Attrs<L, E, S> {
    const TAIL_PADDING: usize = L;
    const ELEMENT_BITS: usize = E;
    const MEMORY_SPACE: i8 = S;
}

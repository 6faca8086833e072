//! The value model: dims, tiles, layouts and array shapes, in fixed capacity.
//!
//! Invariants: none beyond the capacities. A `Shape` or `XlaLayout` may hold
//! anything the grammar accepts, including what XLA calls invalid (a
//! `minor_to_major` with a repeat, a zero tile dim, …), because XLA prints
//! such values too. [`Shape::validate`] is the separate step that rejects
//! them; sizes and indices validate first.

use crate::error::{Error, ErrorKind, Span};
use crate::{
    PrimitiveType, MAX_RANK, MAX_SPLIT_CONFIGS, MAX_SPLIT_INDICES, MAX_TILES, MAX_TILE_RANK,
};

/// One dim of a shape, as written between `[` and `]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// A static size, `5`.
    Static(u64),
    /// A bounded dynamic size, `<=5`.
    Bounded(u64),
    /// An unbounded dynamic size, `?`.
    Unbounded,
}

impl Dim {
    /// The static size, or `None` for a dynamic dim.
    pub const fn size(self) -> Option<u64> {
        match self {
            Dim::Static(n) => Some(n),
            _ => None,
        }
    }
}

/// One dim of a tile: a size, or `*` (combine this dim into the next
/// more-minor one). XLA stores `*` as `i64::MIN` (`kCombineDimension`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileDim {
    /// A tile size.
    Size(u64),
    /// `*`.
    Combine,
}

const COMBINE: u64 = u64::MAX;

/// One tile, `(8,128)`: a list of at most [`MAX_TILE_RANK`] tile dims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    dims: [u64; MAX_TILE_RANK],
    rank: u8,
}

impl Tile {
    /// The empty tile `()` (invalid, but printable).
    pub const EMPTY: Tile = Tile {
        dims: [0; MAX_TILE_RANK],
        rank: 0,
    };

    /// A tile of sizes (no `*`). `None` if there are more than
    /// [`MAX_TILE_RANK`] dims.
    ///
    /// ```
    /// use tilelayout::value::{Tile, TileDim};
    /// let t = Tile::of(&[8, 128]).unwrap();
    /// assert_eq!(t.rank(), 2);
    /// assert_eq!(t.dim(1), TileDim::Size(128));
    /// ```
    pub const fn of(sizes: &[u64]) -> Option<Tile> {
        if sizes.len() > MAX_TILE_RANK {
            return None;
        }
        let mut t = Tile::EMPTY;
        while (t.rank as usize) < sizes.len() {
            t.dims[t.rank as usize] = sizes[t.rank as usize];
            t.rank += 1;
        }
        Some(t)
    }

    /// Appends a tile dim; `false` if the tile is full.
    pub const fn push(&mut self, d: TileDim) -> bool {
        if self.rank as usize >= MAX_TILE_RANK {
            return false;
        }
        self.dims[self.rank as usize] = match d {
            TileDim::Size(n) => n,
            TileDim::Combine => COMBINE,
        };
        self.rank += 1;
        true
    }

    /// The number of tile dims.
    pub const fn rank(&self) -> usize {
        self.rank as usize
    }

    /// Tile dim `i` (most major first). Panics if `i >= rank()`.
    pub const fn dim(&self, i: usize) -> TileDim {
        assert!(i < self.rank as usize, "tile dim index out of range");
        if self.dims[i] == COMBINE {
            TileDim::Combine
        } else {
            TileDim::Size(self.dims[i])
        }
    }

    /// Raw tile dims for the index math: `u64::MAX` stands for `*` (sizes
    /// above `i64::MAX` are rejected by the parser, so it is never a size).
    pub(crate) const fn raw(&self, i: usize) -> u64 {
        self.dims[i]
    }

    pub(crate) const fn is_combine_raw(v: u64) -> bool {
        v == COMBINE
    }
}

/// A split config `SC(dim:i,j,…)`: physical dim `dim` (counted from the most
/// major) is split at the given indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SplitConfig {
    /// The physical dim split (0 = most major).
    pub dimension: u64,
    indices: [u64; MAX_SPLIT_INDICES],
    len: u8,
}

impl SplitConfig {
    /// A split config with no indices.
    pub const fn new(dimension: u64) -> SplitConfig {
        SplitConfig {
            dimension,
            indices: [0; MAX_SPLIT_INDICES],
            len: 0,
        }
    }

    /// Appends a split index; `false` if full.
    pub const fn push(&mut self, index: u64) -> bool {
        if self.len as usize >= MAX_SPLIT_INDICES {
            return false;
        }
        self.indices[self.len as usize] = index;
        self.len += 1;
        true
    }

    /// The split indices.
    pub const fn indices(&self) -> &[u64] {
        self.indices.split_at(self.len as usize).0
    }
}

/// An XLA layout: `minor_to_major` and the attributes after `:`.
///
/// Defaults are XLA's: no tiles, `L(1)`, `E(0)` (the type's own width),
/// `S(0)`, no split configs, `M(0)`.
///
/// # Examples
/// ```
/// use tilelayout::value::parse_layout;
/// let l = parse_layout("{1,0:T(8,128)(2,1)}").unwrap();
/// assert_eq!(l.minor_to_major(), &[1, 0]);
/// assert_eq!(l.tile_count(), 2);
/// assert_eq!(l.to_string(), "{1,0:T(8,128)(2,1)}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XlaLayout {
    minor_to_major: [i64; MAX_RANK],
    m2m_len: u8,
    tiles: [Tile; MAX_TILES],
    tile_count: u8,
    /// `L(n)`: the slot count is rounded up to a multiple of this (≥ 1).
    pub tail_padding_alignment_in_elements: u64,
    /// `#(type)`: obsolete; present only to print it and reject it.
    pub index_primitive_type: Option<PrimitiveType>,
    /// `*(type)`: obsolete; present only to print it and reject it.
    pub pointer_primitive_type: Option<PrimitiveType>,
    /// `E(n)`: bits per element in storage; 0 means the type's byte width.
    pub element_size_in_bits: u64,
    /// `S(n)`: memory space (0 HBM, 1 VMEM on TPU, 5 host).
    pub memory_space: i8,
    split_configs: [SplitConfig; MAX_SPLIT_CONFIGS],
    split_count: u8,
    /// `M(n)`: bytes of dynamic-shape metadata before the data.
    pub dynamic_shape_metadata_prefix_bytes: u64,
}

impl XlaLayout {
    /// A layout with an empty `minor_to_major` and every default.
    pub const EMPTY: XlaLayout = XlaLayout {
        minor_to_major: [0; MAX_RANK],
        m2m_len: 0,
        tiles: [Tile::EMPTY; MAX_TILES],
        tile_count: 0,
        tail_padding_alignment_in_elements: 1,
        index_primitive_type: None,
        pointer_primitive_type: None,
        element_size_in_bits: 0,
        memory_space: 0,
        split_configs: [SplitConfig::new(0); MAX_SPLIT_CONFIGS],
        split_count: 0,
        dynamic_shape_metadata_prefix_bytes: 0,
    };

    /// XLA's default layout for `rank` dims: `{rank-1,…,1,0}` (row-major).
    pub const fn descending(rank: usize) -> XlaLayout {
        let mut l = XlaLayout::EMPTY;
        let mut i = 0;
        while i < rank && i < MAX_RANK {
            l.minor_to_major[i] = (rank - 1 - i) as i64;
            i += 1;
        }
        l.m2m_len = if rank < MAX_RANK {
            rank as u8
        } else {
            MAX_RANK as u8
        };
        l
    }

    /// `minor_to_major`: entry 0 is the most minor logical dim.
    pub const fn minor_to_major(&self) -> &[i64] {
        self.minor_to_major.split_at(self.m2m_len as usize).0
    }

    /// Appends a `minor_to_major` entry; `false` if full.
    pub const fn push_minor_to_major(&mut self, dim: i64) -> bool {
        if self.m2m_len as usize >= MAX_RANK {
            return false;
        }
        self.minor_to_major[self.m2m_len as usize] = dim;
        self.m2m_len += 1;
        true
    }

    /// The tiles, applied in order.
    pub const fn tiles(&self) -> &[Tile] {
        self.tiles.split_at(self.tile_count as usize).0
    }

    /// The number of tiles.
    pub const fn tile_count(&self) -> usize {
        self.tile_count as usize
    }

    /// Appends a tile; `false` if full.
    pub const fn push_tile(&mut self, t: Tile) -> bool {
        if self.tile_count as usize >= MAX_TILES {
            return false;
        }
        self.tiles[self.tile_count as usize] = t;
        self.tile_count += 1;
        true
    }

    /// The split configs.
    pub const fn split_configs(&self) -> &[SplitConfig] {
        self.split_configs.split_at(self.split_count as usize).0
    }

    /// Appends a split config; `false` if full.
    pub const fn push_split_config(&mut self, s: SplitConfig) -> bool {
        if self.split_count as usize >= MAX_SPLIT_CONFIGS {
            return false;
        }
        self.split_configs[self.split_count as usize] = s;
        self.split_count += 1;
        true
    }

    /// Whether anything after `:` differs from the defaults (XLA then prints
    /// the `:` part).
    pub const fn has_attributes(&self) -> bool {
        self.tile_count > 0
            || self.tail_padding_alignment_in_elements != 1
            || self.index_primitive_type.is_some()
            || self.pointer_primitive_type.is_some()
            || self.element_size_in_bits != 0
            || self.memory_space != 0
            || self.split_count > 0
            || self.dynamic_shape_metadata_prefix_bytes > 0
    }
}

/// An array shape with its layout: `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`.
///
/// A shape written without a layout gets XLA's default (descending
/// `minor_to_major`), as XLA's parser does; [`Shape::layout_written`] tells
/// which it was.
///
/// # Examples
/// ```
/// use tilelayout::value::{parse_shape, Dim, PrimitiveType};
/// let s = parse_shape("F32[3,5]{1,0:T(2,2)}").unwrap();
/// assert_eq!(s.element_type(), PrimitiveType::F32);
/// assert_eq!(s.dims(), &[Dim::Static(3), Dim::Static(5)]);
/// assert_eq!(s.to_string(), "f32[3,5]{1,0:T(2,2)}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    element_type: PrimitiveType,
    dims: [Dim; MAX_RANK],
    rank: u8,
    layout: XlaLayout,
    layout_written: bool,
}

impl Shape {
    /// A shape with the default layout. `None` if `dims` has more than
    /// [`MAX_RANK`] entries.
    ///
    /// ```
    /// use tilelayout::value::{PrimitiveType, Shape};
    /// let s = Shape::new(PrimitiveType::F32, &[3, 5]).unwrap();
    /// assert_eq!(s.to_string(), "f32[3,5]{1,0}");
    /// ```
    pub const fn new(element_type: PrimitiveType, dims: &[u64]) -> Option<Shape> {
        if dims.len() > MAX_RANK {
            return None;
        }
        let mut s = Shape {
            element_type,
            dims: [Dim::Static(0); MAX_RANK],
            rank: dims.len() as u8,
            layout: XlaLayout::descending(dims.len()),
            layout_written: false,
        };
        let mut i = 0;
        while i < dims.len() {
            s.dims[i] = Dim::Static(dims[i]);
            i += 1;
        }
        Some(s)
    }

    /// The same shape with `layout` (as if written).
    pub const fn with_layout(mut self, layout: XlaLayout) -> Shape {
        self.layout = layout;
        self.layout_written = true;
        self
    }

    pub(crate) const fn empty(element_type: PrimitiveType) -> Shape {
        Shape {
            element_type,
            dims: [Dim::Static(0); MAX_RANK],
            rank: 0,
            layout: XlaLayout::EMPTY,
            layout_written: false,
        }
    }

    pub(crate) const fn push_dim(&mut self, d: Dim) -> bool {
        if self.rank as usize >= MAX_RANK {
            return false;
        }
        self.dims[self.rank as usize] = d;
        self.rank += 1;
        true
    }

    pub(crate) const fn set_layout(&mut self, layout: XlaLayout, written: bool) {
        self.layout = layout;
        self.layout_written = written;
    }

    /// The element type.
    pub const fn element_type(&self) -> PrimitiveType {
        self.element_type
    }

    /// The logical dims, as written.
    pub const fn dims(&self) -> &[Dim] {
        self.dims.split_at(self.rank as usize).0
    }

    /// The number of dims.
    pub const fn rank(&self) -> usize {
        self.rank as usize
    }

    /// The layout (XLA's default if none was written).
    pub const fn layout(&self) -> &XlaLayout {
        &self.layout
    }

    /// Whether the text had a layout (`{…}`).
    pub const fn layout_written(&self) -> bool {
        self.layout_written
    }

    /// Whether every dim is static.
    pub const fn is_static(&self) -> bool {
        let mut i = 0;
        while i < self.rank as usize {
            if !matches!(self.dims[i], Dim::Static(_)) {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Replaces `<=N` dims by `N`; [`ErrorKind::DynamicShape`] (shape
    /// unchanged) if a dim is `?`.
    pub(crate) const fn set_dims_at_bound(&mut self) -> Result<(), Error> {
        let mut i = 0;
        while i < self.rank as usize {
            if let Dim::Unbounded = self.dims[i] {
                return Err(Error::new(ErrorKind::DynamicShape));
            }
            i += 1;
        }
        let mut i = 0;
        while i < self.rank as usize {
            if let Dim::Bounded(n) = self.dims[i] {
                self.dims[i] = Dim::Static(n);
            }
            i += 1;
        }
        Ok(())
    }

    /// The static dims, or [`ErrorKind::DynamicShape`].
    pub const fn static_dims(&self) -> Result<[u64; MAX_RANK], Error> {
        let mut out = [0u64; MAX_RANK];
        let mut i = 0;
        while i < self.rank as usize {
            match self.dims[i] {
                Dim::Static(n) => out[i] = n,
                _ => return Err(Error::new(ErrorKind::DynamicShape)),
            }
            i += 1;
        }
        Ok(out)
    }

    /// Bits one element takes in storage: `E(n)` if set, else the type's
    /// byte width × 8 (so `pred` and `s4` take 8 unless `E` says otherwise).
    pub const fn storage_bits(&self) -> u64 {
        if self.layout.element_size_in_bits != 0 {
            self.layout.element_size_in_bits
        } else {
            self.element_type.byte_width() as u64 * 8
        }
    }
}

/// Where each part of a parsed shape sits in its text, so that validation
/// errors (which know *what* is wrong) can say *where*.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spans {
    /// The element type name.
    pub element_type: Span,
    /// Each dim.
    pub dims: [Span; MAX_RANK],
    /// The whole `{…}` layout (`Span::NONE` if none was written).
    pub layout: Span,
    /// Each `minor_to_major` entry.
    pub minor_to_major: [Span; MAX_RANK],
    /// Each tile, `(…)`.
    pub tiles: [Span; MAX_TILES],
    /// Each tile dim.
    pub tile_dims: [[Span; MAX_TILE_RANK]; MAX_TILES],
    /// `L(…)`, `#(…)`, `*(…)`, `E(…)`, `S(…)`, `M(…)`.
    pub attrs: [Span; 6],
    /// Each split config, `(…)`.
    pub split_configs: [Span; MAX_SPLIT_CONFIGS],
    /// The whole shape.
    pub all: Span,
}

impl Spans {
    /// All spans empty.
    pub const NONE: Spans = Spans {
        element_type: Span::NONE,
        dims: [Span::NONE; MAX_RANK],
        layout: Span::NONE,
        minor_to_major: [Span::NONE; MAX_RANK],
        tiles: [Span::NONE; MAX_TILES],
        tile_dims: [[Span::NONE; MAX_TILE_RANK]; MAX_TILES],
        attrs: [Span::NONE; 6],
        split_configs: [Span::NONE; MAX_SPLIT_CONFIGS],
        all: Span::NONE,
    };

    /// The span of the part `e` is about (the whole shape when unknown).
    pub const fn locate(&self, mut e: Error) -> Error {
        let s = match e.kind {
            ErrorKind::MinorToMajorLength { .. } => self.layout,
            ErrorKind::MinorToMajorRange { position, .. } => {
                self.minor_to_major[position as usize % MAX_RANK]
            }
            ErrorKind::MinorToMajorRepeat { position, .. } => {
                self.minor_to_major[position as usize % MAX_RANK]
            }
            ErrorKind::EmptyTile { tile } | ErrorKind::CombineMostMinor { tile } => {
                self.tiles[tile as usize % MAX_TILES]
            }
            ErrorKind::ZeroTileDim { tile, dim } => {
                self.tile_dims[tile as usize % MAX_TILES][dim as usize % MAX_TILE_RANK]
            }
            ErrorKind::ZeroTailPadding => self.attrs[0],
            ErrorKind::SparseAttribute { attr } => match attr {
                crate::Attr::IndexType => self.attrs[1],
                _ => self.attrs[2],
            },
            ErrorKind::SplitDimRange { split }
            | ErrorKind::SplitIndices { split }
            | ErrorKind::SplitOutsideDim { split }
            | ErrorKind::SplitRepeat { split } => {
                self.split_configs[split as usize % MAX_SPLIT_CONFIGS]
            }
            ErrorKind::NotAnArrayType => self.all,
            ErrorKind::DimsOverflow | ErrorKind::DynamicShape => self.all,
            _ => self.all,
        };
        if e.span.is_none() {
            e.span = if s.is_none() { self.all } else { s };
        }
        e
    }
}

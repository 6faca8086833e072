//! What a picture shows: the logical grid (leading dims stacked, the last
//! two dims as rows and columns), each position's slot, which tile of each
//! level it falls in, where padding sits, and, for large layouts, which
//! blocks are shown and how the others repeat them.
//!
//! Every slot comes from the core's [`Tiling`]: the layout's own tiling for
//! elements; the tiling of the shape padded to whole first-level tiles for
//! the padding cells of the grid (used only when its expanded dims equal
//! the layout's, so the two agree slot for slot); the tiling of the layout
//! cut after tile level `k` for the tiles of level `k` (after level `k` the
//! tile dims are the most minor ones, so `slot / tile size` names the tile).

use alloc::vec::Vec;
use core::ops::Range;

use crate::value::{Error, Shape, TileDim, Tiling, XlaLayout, MAX_TILES};

/// Most grid positions drawn before a picture shows one block per repeated
/// run of blocks instead of every block.
pub const CELL_LIMIT: u64 = 4096;

/// Blocks at each end of a dim whose first position the repeat check
/// compares (beyond them, the blocks 2^k): the core's index costs about
/// a third of a microsecond, and a dim can have millions of blocks.
const CHECKED_BLOCKS: u64 = 2048;

/// Block size along an untiled row or column dim.
const UNTILED_PERIOD: u64 = 16;

/// One logical dim of the picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    /// The dim's size.
    pub extent: u64,
    /// The size drawn: `extent` rounded up to whole first-level tiles when
    /// the padding cells can be placed in the grid, else `extent`.
    pub padded: u64,
    /// Positions per block: the first tile's size along this dim, or 1 for
    /// an untiled dim (every index is a block), or `padded` for a dim that
    /// a `*` combines (never repeated).
    pub period: u64,
    /// Number of blocks, ⌈padded / period⌉.
    pub blocks: u64,
    /// Slot distance between a position and the same position one block
    /// further (meaningful when `elided`).
    pub stride: u64,
    /// Whether blocks are left out: then only the first `kept` blocks
    /// are drawn, and the last one if it is partial (holds padding or ends
    /// early); each left-out block `b` holds the slots of block 0 plus
    /// `b·stride`.
    pub elided: bool,
    /// Blocks drawn from the start when `elided`: 2 for the grid's rows
    /// and columns (so that a border and the stride show), 1 for stacked
    /// dims.
    pub kept: u64,
}

impl Axis {
    /// Whether the last block is partial: the dim does not end on a block
    /// boundary.
    pub fn last_partial(&self) -> bool {
        !self.extent.is_multiple_of(self.period)
    }

    /// Whether block `b` is drawn.
    pub fn drawn(&self, b: u64) -> bool {
        !self.elided || b < self.kept || (b + 1 == self.blocks && self.last_partial())
    }

    /// The left-out blocks, `first..end` (empty unless `elided`).
    pub fn left_out(&self) -> Range<u64> {
        if !self.elided {
            return 0..0;
        }
        let end = if self.last_partial() {
            self.blocks - 1
        } else {
            self.blocks
        };
        self.kept..end
    }

    /// The shown index ranges, in order.
    pub fn shown(&self) -> Vec<Range<u64>> {
        let gap = self.left_out();
        if gap.is_empty() {
            return alloc::vec![0..self.padded];
        }
        let mut out = alloc::vec![0..gap.start * self.period];
        if gap.end < self.blocks {
            out.push(gap.end * self.period..self.padded);
        }
        out
    }
}

/// One drawn grid position: its slot, whether it is padding, and its tile
/// at every level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The slot.
    pub slot: u64,
    /// Whether the slot is padding.
    pub pad: bool,
    tiles: [u64; MAX_TILES],
    levels: u8,
}

impl Cell {
    /// The tile of level `k`.
    pub fn tile(&self, k: usize) -> Option<u64> {
        (k < self.levels as usize).then(|| self.tiles[k])
    }

    /// The outermost level at which `self` and `other` lie in different
    /// tiles.
    pub fn boundary(&self, other: &Cell) -> Option<usize> {
        (0..self.levels as usize).find(|&k| self.tiles[k] != other.tiles[k])
    }
}

/// How storage slots group into machine units (packing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packing {
    /// Slots per unit.
    pub per_unit: u64,
    /// Bits per unit: 8 (a byte) or 32 (a word).
    pub unit_bits: u64,
}

/// The picture's model of one layout.
#[derive(Clone, Debug)]
pub struct Model {
    /// The shape drawn.
    pub shape: Shape,
    /// Its tiling.
    pub tiling: Tiling,
    /// The tiling of the shape padded to whole first-level tiles, when it
    /// places padding cells in the grid.
    padded: Option<Tiling>,
    /// Per tile level: the tiling cut after that level and its tile's size.
    levels: Vec<(Tiling, u64)>,
    /// One per logical dim.
    pub axes: Vec<Axis>,
    /// Packing of slots into bytes or 32-bit words, if any.
    pub packing: Option<Packing>,
    /// The dim drawn down the grid: the second-to-last dim, or, when the
    /// first tile reaches a dim before it, the one of the two most minor
    /// physical dims written first (so tiles stay rectangles in the grid
    /// and the stacked dims untiled). `None` below rank 2.
    pub rows: Option<usize>,
    /// The dim drawn across the grid (the last dim, or the other of the
    /// two most minor physical dims). `None` for a scalar.
    pub cols: Option<usize>,
    /// The other dims, stacked in order.
    pub stacked: Vec<usize>,
}

/// The same layout with only its first `n` tiles.
fn cut_after(layout: &XlaLayout, n: usize) -> XlaLayout {
    let mut l = XlaLayout::EMPTY;
    for &d in layout.minor_to_major() {
        l.push_minor_to_major(d);
    }
    for t in &layout.tiles()[..n] {
        l.push_tile(*t);
    }
    l.tail_padding_alignment_in_elements = layout.tail_padding_alignment_in_elements;
    l.element_size_in_bits = layout.element_size_in_bits;
    l.memory_space = layout.memory_space;
    l
}

/// Product of a tile's sizes (its `*` dims add none).
fn tile_size(layout: &XlaLayout, level: usize) -> u64 {
    let t = layout.tiles()[level];
    (0..t.rank())
        .filter_map(|j| match t.dim(j) {
            TileDim::Size(n) => Some(n),
            TileDim::Combine => None,
        })
        .product()
}

/// Per logical dim: the first tile's size along it, `None` if untiled,
/// `Some(0)` if a `*` combines it with a neighbour.
fn first_tile_sizes(tiling: &Tiling, layout: &XlaLayout) -> Vec<Option<u64>> {
    let rank = tiling.rank();
    let mut out = alloc::vec![None; rank];
    let Some(tile) = layout.tiles().first() else {
        return out;
    };
    let k = tile.rank();
    let mut combined = false;
    for j in 0..k {
        // tile dim j applies to physical position rank - k + j (negative:
        // a left-padded 1-dim, no logical dim)
        let p = (rank + j).checked_sub(k);
        let d = tile.dim(j);
        let size = match d {
            TileDim::Combine => {
                combined = true;
                Some(0)
            }
            TileDim::Size(n) if combined => {
                combined = false;
                let _ = n;
                Some(0)
            }
            TileDim::Size(n) => Some(n),
        };
        if let Some(p) = p {
            out[tiling.physical_to_logical(p)] = size;
        }
    }
    out
}

impl Model {
    /// The model of `shape`, showing every position if there are at most
    /// `cell_limit`, else one block per repeated run.
    ///
    /// # Errors
    /// What [`Shape::tiling`] rejects.
    pub fn new(shape: &Shape, cell_limit: u64) -> Result<Model, Error> {
        let tiling = shape.tiling()?;
        let layout = shape.layout();
        let rank = tiling.rank();
        let dims: Vec<u64> = (0..rank)
            .map(|d| shape.dims()[d].size().unwrap_or(0))
            .collect();
        let firsts = first_tile_sizes(&tiling, layout);
        let lead_tiled = (0..rank.saturating_sub(2)).any(|d| firsts[d].is_some_and(|t| t != 1));
        let (rows, cols) = match rank {
            0 => (None, None),
            1 => (None, Some(0)),
            r if lead_tiled => {
                let a = tiling.physical_to_logical(r - 1);
                let b = tiling.physical_to_logical(r - 2);
                (Some(a.min(b)), Some(a.max(b)))
            }
            r => (Some(r - 2), Some(r - 1)),
        };
        let stacked = (0..rank)
            .filter(|&d| Some(d) != rows && Some(d) != cols)
            .collect();
        let any_combine = layout
            .tiles()
            .iter()
            .any(|t| (0..t.rank()).any(|j| t.dim(j) == TileDim::Combine));
        // padding cells in the grid: only without `*` (combining depends on
        // the dims' sizes) and when the padded shape tiles identically
        let mut padded_dims = dims.clone();
        for (d, f) in firsts.iter().enumerate() {
            if let Some(t) = f.filter(|&t| t > 0) {
                padded_dims[d] = dims[d].div_ceil(t).saturating_mul(t);
            }
        }
        let padded = if any_combine || padded_dims == dims {
            None
        } else {
            Shape::new(shape.element_type(), &padded_dims)
                .map(|s| s.with_layout(*layout))
                .and_then(|s| s.tiling().ok())
                .filter(|p| p.expanded_dims() == tiling.expanded_dims())
        };
        if padded.is_none() {
            padded_dims.clone_from(&dims);
        }
        let base = match &padded {
            Some(_) => Shape::new(shape.element_type(), &padded_dims)
                .map(|s| s.with_layout(*layout))
                .unwrap_or(*shape),
            None => *shape,
        };
        let mut levels = Vec::with_capacity(layout.tile_count());
        for n in 1..=layout.tile_count() {
            let cut = base.with_layout(cut_after(layout, n)).tiling()?;
            levels.push((cut, tile_size(layout, n - 1).max(1)));
        }
        let axes = (0..rank)
            .map(|d| {
                let period = match firsts[d] {
                    Some(0) => padded_dims[d].max(1),
                    Some(t) => t,
                    // untiled rows and columns: blocks of 16 (every index
                    // of a leading dim is its own block)
                    None if Some(d) == rows || Some(d) == cols => {
                        padded_dims[d].clamp(1, UNTILED_PERIOD)
                    }
                    None => 1,
                };
                Axis {
                    extent: dims[d],
                    padded: padded_dims[d],
                    period,
                    blocks: padded_dims[d].div_ceil(period),
                    stride: 0,
                    elided: false,
                    kept: if Some(d) == rows || Some(d) == cols {
                        2
                    } else {
                        1
                    },
                }
            })
            .collect();
        let bits = shape.storage_bits();
        let packing = if bits > 0 && bits < 8 {
            Some(Packing {
                per_unit: 8 / bits,
                unit_bits: 8,
            })
        } else if bits > 0 && bits < 32 && layout.tile_count() >= 2 {
            Some(Packing {
                per_unit: 32 / bits,
                unit_bits: 32,
            })
        } else {
            None
        };
        let mut m = Model {
            shape: *shape,
            tiling,
            padded,
            levels,
            axes,
            packing,
            rows,
            cols,
            stacked,
        };
        let cells = m
            .axes
            .iter()
            .try_fold(1u64, |acc, a| acc.checked_mul(a.padded));
        if cells.is_none_or(|c| c > cell_limit) {
            m.elide();
        }
        Ok(m)
    }

    /// The slot at grid position `pos` and whether it is padding; `None`
    /// outside the drawn grid.
    pub fn slot_at(&self, pos: &[u64]) -> Option<(u64, bool)> {
        if pos.iter().zip(&self.axes).all(|(&p, a)| p < a.extent) {
            return Some((self.tiling.offset_unchecked(pos), false));
        }
        let padded = self.padded.as_ref()?;
        if pos.iter().zip(&self.axes).all(|(&p, a)| p < a.padded) {
            Some((padded.offset_unchecked(pos), true))
        } else {
            None
        }
    }

    /// The cell at grid position `pos`; `None` outside the drawn grid.
    pub fn cell(&self, pos: &[u64]) -> Option<Cell> {
        let (slot, pad) = self.slot_at(pos)?;
        let mut tiles = [0; MAX_TILES];
        for (k, t) in tiles.iter_mut().enumerate().take(self.levels.len()) {
            *t = self.tile_at(k, pos);
        }
        Some(Cell {
            slot,
            pad,
            tiles,
            levels: self.levels.len() as u8,
        })
    }

    /// Whether the grid places padding cells (past the dims, up to whole
    /// first-level tiles).
    pub fn padding_in_grid(&self) -> bool {
        self.padded.is_some()
    }

    /// The tile of level `level` that grid position `pos` falls in.
    pub fn tile_at(&self, level: usize, pos: &[u64]) -> u64 {
        let (t, size) = &self.levels[level];
        t.offset_unchecked(pos) / size
    }

    /// The number of tile levels.
    pub fn level_count(&self) -> usize {
        self.levels.len()
    }

    /// Elides every axis with blocks to leave out whose blocks repeat the
    /// first one at a constant slot distance, checked with the core: each
    /// position of the first block against its copies in the second and
    /// the last block, and the first position of the first and last
    /// [`CHECKED_BLOCKS`] blocks and of every block 2^k.
    fn elide(&mut self) {
        let rank = self.axes.len();
        let origin = alloc::vec![0u64; rank];
        let Some((s0, _)) = self.slot_at(&origin) else {
            return;
        };
        let block: Vec<u64> = self.axes.iter().map(|a| a.period.min(a.padded)).collect();
        for d in 0..rank {
            if self.axes[d].blocks <= self.axes[d].kept + 1 {
                continue;
            }
            let period = self.axes[d].period;
            let mut one = origin.clone();
            one[d] = period;
            let Some((s1, _)) = self.slot_at(&one) else {
                continue;
            };
            let Some(stride) = s1.checked_sub(s0) else {
                continue;
            };
            if self.repeats(d, stride, &block) {
                self.axes[d].stride = stride;
                self.axes[d].elided = true;
            }
        }
    }

    /// Whether blocks along axis `d` repeat block 0 plus `b·stride`.
    fn repeats(&self, d: usize, stride: u64, block: &[u64]) -> bool {
        let axis = &self.axes[d];
        let shifted = |pos: &[u64], b: u64| -> Option<bool> {
            let mut q = pos.to_vec();
            // past the grid (the last block may be partial): nothing to check
            match b
                .checked_mul(axis.period)
                .and_then(|x| x.checked_add(pos[d]))
            {
                Some(x) if x < axis.padded => q[d] = x,
                _ => return Some(true),
            }
            let (a, _) = self.slot_at(pos)?;
            let (s, _) = self.slot_at(&q)?;
            Some(Some(s) == b.checked_mul(stride).and_then(|x| x.checked_add(a)))
        };
        // the first position of the first and last CHECKED_BLOCKS blocks
        // and of every block 2^k
        let origin = alloc::vec![0u64; block.len()];
        let n = axis.blocks;
        let ends = (1..n.min(CHECKED_BLOCKS)).chain(n.saturating_sub(CHECKED_BLOCKS).max(1)..n);
        let powers = (0..64).map(|k| 1u64 << k).take_while(|&b| b < n);
        if !ends
            .chain(powers)
            .all(|b| shifted(&origin, b) == Some(true))
        {
            return false;
        }
        // every position of the first block, in the second and last block
        let mut pos = alloc::vec![0u64; block.len()];
        loop {
            for b in [1, axis.blocks - 1] {
                if shifted(&pos, b) != Some(true) {
                    return false;
                }
            }
            // next position in the block, odometer order
            let mut i = block.len();
            loop {
                if i == 0 {
                    return true;
                }
                i -= 1;
                pos[i] += 1;
                if pos[i] < block[i] {
                    break;
                }
                pos[i] = 0;
            }
        }
    }
}

//! Pictures of layouts: in the terminal ([`Picture::text`]), for scripts
//! ([`Picture::slots`], [`Picture::memory`]) and as SVG ([`Picture::svg`]).
//!
//! A picture shows the logical grid, the last two dims as rows and columns
//! and any leading dims stacked, with each element's slot, the borders of
//! the tiles of every level, the padding, then the memory map: the slots in
//! order with the element each holds. XLA's Figure 1, `f32[3,5]` in 2×2
//! tiles, padding in parentheses:
//!
//! ```
//! use tilelayout::draw::Picture;
//! let p = Picture::parse("f32[3,5]{1,0:T(2,2)}")?;
//! let text = p.text();
//! assert!(text.contains(concat!(
//!     "      0      1      2      3      4      5\n",
//!     "0     0      1 |    4      5 |    8    (9)\n",
//!     "1     2      3 |    6      7 |   10   (11)\n",
//!     "   ------------+-------------+------------\n",
//!     "2    12     13 |   16     17 |   20   (21)\n",
//!     "3  (14)   (15) | (18)   (19) | (22)   (23)\n",
//! )), "{text}");
//! assert_eq!(p.slots(), "0 1 4 5 8\n2 3 6 7 10\n12 13 16 17 20\n");
//! # Ok::<(), tilelayout::value::Error>(())
//! ```
//!
//! Packed layouts show which elements share a unit: a 32-bit word for
//! 16- and 8-bit types tiled twice (`bf16 (8,128)(2,1)`), a byte for
//! sub-byte elements (`E(4)`).
//!
//! # Large layouts
//! A layout of more than [`CELL_LIMIT`] grid positions is drawn losslessly
//! by one representative block per repeated run: along a dim of three or
//! more first-level tiles, only the first and the last block are drawn and
//! a note says that block `b` holds the slots of block 0 plus `b·stride`.
//! A dim is shortened only after the core confirms that rule for every
//! position of the first block in the second and the last block, and for
//! the first position of the first and last 2048 blocks and of every block
//! 2^k; a `bf16[4096,4096]{1,0:T(8,128)(2,1)}`
//! picture has 2×2 blocks of 8×128 cells, not 16 M cells.
//!
//! Every slot comes from the core's index math ([`crate::value::Tiling`]);
//! the pictures compute none of their own. [`crate::guide`] teaches
//! layouts with these pictures; [`gpu`] draws the GPU tiles of
//! [`crate::gpu`]: swizzled shared tiles and their bank groups, register
//! tiles' lanes, copy plans' owners.
//!
//! CuTe layouts of the [`crate::algebra`] (`(8,(2,4)):(1,(8,16))`,
//! `Sw<3,3,3> o _0 o (8,64):(64,1)`) are drawn by [`CutePicture`] as the
//! grid of offsets CuTe's `print_layout` prints; [`is_cute`] tells the two
//! notations apart.

mod cute;
pub mod gpu;
mod model;
mod sheet;
mod svg;
mod text;

use alloc::string::String;
use core::fmt;

pub use cute::{is_cute, CutePicture, SHOWN, SHOWN_CELLS};
pub use model::{Axis, Packing, CELL_LIMIT};
pub use svg::tile_colour;

use crate::value::{parse_valid_shape, Error, Shape};

/// A picture of one array layout, ready to print in any format.
///
/// # Examples
/// XLA's Figure 2: `4×8` in `(2,4)` tiles, then `(2,1)` inside each: rows
/// 0 and 1 of a column are neighbours in memory (the TPU's bf16 packing).
/// ```
/// use tilelayout::draw::Picture;
/// let p = Picture::parse("f32[4,8]{1,0:T(2,4)(2,1)}")?;
/// assert_eq!(p.slots(), concat!(
///     "0 2 4 6 8 10 12 14\n",
///     "1 3 5 7 9 11 13 15\n",
///     "16 18 20 22 24 26 28 30\n",
///     "17 19 21 23 25 27 29 31\n",
/// ));
/// assert!(p.memory().starts_with("0 (0,0)\n1 (1,0)\n2 (0,1)\n"));
/// # Ok::<(), tilelayout::value::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Picture {
    model: model::Model,
}

impl Picture {
    /// The picture of `shape`.
    ///
    /// # Errors
    /// What [`Shape::tiling`] rejects: invalid layouts, dynamic dims,
    /// `token` and `opaque`.
    pub fn new(shape: &Shape) -> Result<Picture, Error> {
        Picture::with_cell_limit(shape, CELL_LIMIT)
    }

    /// The picture of `shape`, drawing every position of grids up to
    /// `cell_limit` positions and one block per repeated run above.
    ///
    /// # Errors
    /// As [`Picture::new`].
    pub fn with_cell_limit(shape: &Shape, cell_limit: u64) -> Result<Picture, Error> {
        Ok(Picture {
            model: model::Model::new(shape, cell_limit)?,
        })
    }

    /// The picture of XLA's text, `bf16[8,128]{1,0:T(8,128)(2,1)}`.
    ///
    /// # Errors
    /// Syntax and validity errors, located in `text` as the parser reports
    /// them; as [`Picture::new`].
    pub fn parse(text: &str) -> Result<Picture, Error> {
        Picture::new(&parse_valid_shape(text)?)
    }

    /// The shape drawn.
    pub fn shape(&self) -> &Shape {
        &self.model.shape
    }

    /// The dims of the picture, one per logical dim: how each is blocked
    /// and whether repeated blocks are left out.
    pub fn axes(&self) -> &[Axis] {
        &self.model.axes
    }

    /// How slots pack into bytes or 32-bit words, if they do.
    pub fn packing(&self) -> Option<Packing> {
        self.model.packing
    }

    /// The slot drawn at grid position `pos` (logical coordinates, or a
    /// padding cell past the dims up to the padded size) and whether it is
    /// padding; `None` outside the drawn grid.
    pub fn slot_at(&self, pos: &[u64]) -> Option<(u64, bool)> {
        if pos.len() != self.model.axes.len() {
            return None;
        }
        self.model.slot_at(pos)
    }

    /// The first-level tile that position `pos` lies in (the colour of its
    /// cell in the SVG is [`tile_colour`] of it); `None` without tiles or
    /// outside the drawn grid.
    pub fn tile_at(&self, pos: &[u64]) -> Option<u64> {
        self.slot_at(pos)?;
        (self.model.level_count() > 0).then(|| self.model.tile_at(0, pos))
    }

    /// The text picture: grid, tile borders, padding, packing and the
    /// memory map.
    pub fn text(&self) -> String {
        text::picture(&self.model)
    }

    /// The slot of every element, one logical row per line (the last dim
    /// along the line, every other dim in row-major order down the lines).
    pub fn slots(&self) -> String {
        let mut s = String::new();
        let _ = self.write_slots(&mut s);
        s
    }

    /// Writes [`Picture::slots`] to `w`.
    ///
    /// # Errors
    /// What `w` returns.
    pub fn write_slots(&self, w: &mut dyn fmt::Write) -> fmt::Result {
        text::write_slots(&self.model, w)
    }

    /// One line per slot, in memory order: `slot (i,j,…)` or `slot pad`.
    pub fn memory(&self) -> String {
        let mut s = String::new();
        let _ = self.write_memory(&mut s);
        s
    }

    /// Writes [`Picture::memory`] to `w`.
    ///
    /// # Errors
    /// What `w` returns.
    pub fn write_memory(&self, w: &mut dyn fmt::Write) -> fmt::Result {
        text::write_memory(&self.model, w)
    }

    /// The picture as an SVG document.
    pub fn svg(&self) -> String {
        svg::picture(&self.model)
    }
}

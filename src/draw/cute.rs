//! Pictures of CuTe layouts (the algebra's [`CuteLayout`] and swizzled
//! [`ComposedLayout`]): the grid of offsets, as CuTe's own `print_layout`,
//! `print_latex` and `print_svg` draw it.
//!
//! What CuTe does, and what we follow (NVIDIA/cutlass at commit
//! 7107b05535f8977f5ecb9d01ee203205b1fd9bc4):
//! - `print_layout` (`include/cute/util/print_tensor.hpp`) takes a rank-2
//!   layout and prints, for each row `m < size<0>` and column
//!   `n < size<1>`, `layout(m,n)`: each integer is split
//!   colexicographically inside its (possibly nested) mode, so a mode
//!   `(2,4)` is one axis of 8. The text picture is that table, character
//!   for character (cells `num_digits(cosize) + 2` wide).
//! - `print_latex` (`include/cute/util/print_latex.hpp`) accepts rank 1 by
//!   appending a mode `_1:_0`: a rank-1 layout is one column.
//! - Higher ranks: `print_tensor` stacks a rank-3 or rank-4 tensor as its
//!   slices `tensor(_,_,k)`; we stack the sheets of modes 2 and up the same
//!   way, sheet `k` being their colexicographic index, so every cell is
//!   `layout(m + M·n + M·N·k)` whatever the rank.
//! - Colours: `print_latex`'s `TikzColor_BWx8` and `print_svg`'s
//!   `TSVGColor_BWx8` grey a cell by `offset % 8`. A swizzled layout is
//!   coloured by its chunk instead, `offset >> M` for `Sw<B,M,S>` (the
//!   `2^M` elements the swizzle moves together, 16 bytes for 16-bit
//!   elements under `Sw<3,3,3>`), with `SVGColor_TV`'s eight colours, so
//!   that the permuted chunks show (ours: CuTe greys swizzled layouts by
//!   offset too, which hides the chunks).
//!
//! Large layouts: the first [`SHOWN`] rows and columns are drawn, and the
//! first sheets up to [`SHOWN_CELLS`] cells in all; a note says what is
//! left out (CuTe draws everything). The `slots` and `memory` listings are
//! always complete.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::algebra::{AlgebraError, AlgebraErrorKind, AnyLayout, ComposedLayout, CuteLayout};

/// Most rows and columns drawn in the text and SVG pictures of a CuTe
/// layout.
pub const SHOWN: u64 = 64;

/// Most cells drawn in all sheets together (sheets past it are left out).
pub const SHOWN_CELLS: u64 = SHOWN * SHOWN;

/// CuTe's `TSVGColor_BWx8`: the grey of `offset % 8`.
const BW_X8: [[u8; 3]; 8] = [
    [255, 255, 255],
    [230, 230, 230],
    [205, 205, 205],
    [180, 180, 180],
    [155, 155, 155],
    [130, 130, 130],
    [105, 105, 105],
    [80, 80, 80],
];

/// CuTe's `SVGColor_TV`: eight light colours, here one per swizzle chunk
/// (`chunk % 8`).
const TV: [[u8; 3]; 8] = [
    [175, 175, 255],
    [175, 255, 175],
    [255, 255, 175],
    [255, 175, 175],
    [210, 210, 255],
    [210, 255, 210],
    [255, 255, 210],
    [255, 210, 210],
];

/// Whether `text` is CuTe notation rather than XLA's: after white space
/// and opening parentheses it starts with a digit, `_` or `-` (an
/// integer), or it starts with `Sw<` (a swizzle). XLA's text starts with
/// an element type name, or with `(` and a type name for a tuple.
///
/// ```
/// use tilelayout::draw::is_cute;
/// assert!(is_cute("(8,(2,4)):(1,(8,16))"));
/// assert!(is_cute("Sw<3,3,3> o _0 o (8,64):(64,1)"));
/// assert!(is_cute("_8:_1"));
/// assert!(!is_cute("f32[3,5]{1,0:T(2,2)}"));
/// assert!(!is_cute("(f32[2], s8[4])"));
/// ```
pub fn is_cute(text: &str) -> bool {
    let t = text.trim_start();
    if t.starts_with("Sw<") {
        return true;
    }
    let first = t.trim_start_matches(|c: char| c == '(' || c.is_ascii_whitespace());
    first
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || c == '_' || c == '-')
}

/// The picture of a CuTe layout: an `M × N` grid of offsets per sheet.
///
/// # Examples
/// CuTe's `print_layout` of `(4,(2,2)):(2,(1,8))`:
/// ```
/// use tilelayout::draw::CutePicture;
/// let p = CutePicture::parse("(4,(2,2)):(2,(1,8))")?;
/// assert_eq!(p.grid(), (4, 4, 1));
/// assert_eq!(p.slots(), "0 1 8 9\n2 3 10 11\n4 5 12 13\n6 7 14 15\n");
/// assert!(p.text().starts_with(concat!(
///     "(4,(2,2)):(2,(1,8))\n",
///     "       0    1    2    3 \n",
///     "    +----+----+----+----+\n",
///     " 0  |  0 |  1 |  8 |  9 |\n",
/// )));
/// # Ok::<(), tilelayout::algebra::AlgebraError>(())
/// ```
#[derive(Clone, Debug)]
pub struct CutePicture {
    layout: AnyLayout,
    /// Rows, columns, sheets.
    grid: (u64, u64, u64),
    /// The offsets of the drawn cells, sheet-major then row-major.
    shown: Vec<i64>,
}

/// The size of a layout as a non-negative `u64`.
fn size_of(l: &CuteLayout) -> Result<u64, AlgebraError> {
    u64::try_from(l.size()?.value).map_err(|_| AlgebraError::new(AlgebraErrorKind::Overflow))
}

impl CutePicture {
    /// The picture of CuTe's text, plain (`(8,(2,4)):(1,(8,16))`) or
    /// swizzled (`Sw<3,3,3> o _0 o (8,64):(64,1)`).
    ///
    /// # Errors
    /// The algebra's syntax errors, with their byte spans in `text`; as
    /// [`CutePicture::new`].
    pub fn parse(text: &str) -> Result<CutePicture, AlgebraError> {
        CutePicture::new(AnyLayout::parse(text)?)
    }

    /// The picture of `layout`.
    ///
    /// # Errors
    /// [`AlgebraErrorKind::Overflow`] when an offset, or the layout's
    /// cosize, does not fit `i64`.
    pub fn new(layout: AnyLayout) -> Result<CutePicture, AlgebraError> {
        let inner = match &layout {
            AnyLayout::Plain(l) => l,
            AnyLayout::Swizzled(c) => &c.layout,
        };
        let size = size_of(inner)?;
        // every offset lies within ±(cosize − 1) of the offset added before
        // the swizzle (cosize = 1 + Σ (s − 1)·|d|), so when these fit i64,
        // every call below and in the listings succeeds
        let reach = inner.cosize()?.value - 1;
        if let AnyLayout::Swizzled(c) = &layout {
            let o = c.offset.value;
            if o.checked_add(reach).is_none() || o.checked_sub(reach).is_none() {
                return Err(AlgebraError::new(AlgebraErrorKind::Overflow));
            }
        }
        let rows = match inner.rank() {
            0 | 1 => size,
            _ => size_of(&inner.mode(0)?)?,
        };
        let cols = match inner.rank() {
            0 | 1 => 1,
            _ => size_of(&inner.mode(1)?)?,
        };
        let sheets = match rows.checked_mul(cols) {
            Some(0) | None => 0,
            Some(rc) => size / rc,
        };
        let mut p = CutePicture {
            layout,
            grid: (rows, cols, sheets),
            shown: Vec::new(),
        };
        let (r, c, s) = p.shown_grid();
        p.shown.reserve((r * c * s) as usize);
        for k in 0..s {
            for m in 0..r {
                for n in 0..c {
                    let v = p.call(p.index(m, n, k))?;
                    p.shown.push(v);
                }
            }
        }
        Ok(p)
    }

    /// The layout drawn.
    pub fn layout(&self) -> &AnyLayout {
        &self.layout
    }

    /// `(M, N, K)`: rows (the size of mode 0, or of the whole layout at
    /// rank 1), columns (the size of mode 1; 1 at rank 1) and stacked
    /// sheets (the size of modes 2 and up).
    pub fn grid(&self) -> (u64, u64, u64) {
        self.grid
    }

    /// The drawn rows, columns and sheets: at most [`SHOWN`] rows and
    /// columns, and as many sheets as keep the cells within
    /// [`SHOWN_CELLS`] (one sheet at least).
    fn shown_grid(&self) -> (u64, u64, u64) {
        let (m, n, k) = self.grid;
        let (r, c) = (m.min(SHOWN), n.min(SHOWN));
        let per_sheet = (r * c).max(1);
        (r, c, k.min((SHOWN_CELLS / per_sheet).max(1)))
    }

    /// The 1-D index of cell (`m`, `n`) of sheet `k`: `m + M·(n + N·k)`.
    fn index(&self, m: u64, n: u64, k: u64) -> i64 {
        let (rows, cols, _) = self.grid;
        // < size, which fits i64 (checked in `new`)
        (m + rows * (n + cols * k)) as i64
    }

    fn call(&self, i: i64) -> Result<i64, AlgebraError> {
        match &self.layout {
            AnyLayout::Plain(l) => l.call(i),
            AnyLayout::Swizzled(c) => c.call(i),
        }
    }

    /// The offset of cell (`m`, `n`) of sheet `k`; `None` outside the grid.
    ///
    /// # Errors
    /// None in practice: [`CutePicture::new`] checked that every offset
    /// fits `i64`; the algebra's call is fallible, so is this.
    pub fn offset_at(&self, m: u64, n: u64, k: u64) -> Result<Option<i64>, AlgebraError> {
        let (rows, cols, sheets) = self.grid;
        if m >= rows || n >= cols || k >= sheets {
            return Ok(None);
        }
        self.call(self.index(m, n, k)).map(Some)
    }

    /// The swizzle's chunk of `offset`, `offset >> M` for `Sw<B,M,S>`;
    /// `None` for a plain layout.
    pub fn chunk(&self, offset: i64) -> Option<i64> {
        match &self.layout {
            AnyLayout::Plain(_) => None,
            AnyLayout::Swizzled(c) => Some(offset >> c.swizzle.base()),
        }
    }

    /// The fill of a cell holding `offset` in the SVG: CuTe's grey of
    /// `offset % 8`, or for a swizzled layout the colour of its chunk.
    pub fn colour(&self, offset: i64) -> [u8; 3] {
        match self.chunk(offset) {
            Some(c) => TV[c.rem_euclid(8) as usize],
            None => BW_X8[offset.rem_euclid(8) as usize],
        }
    }

    fn shown_offset(&self, m: u64, n: u64, k: u64) -> i64 {
        let (r, c, _) = self.shown_grid();
        self.shown[((k * r + m) * c + n) as usize]
    }

    fn composed(&self) -> Option<&ComposedLayout> {
        match &self.layout {
            AnyLayout::Plain(_) => None,
            AnyLayout::Swizzled(c) => Some(c),
        }
    }

    /// The text picture: the layout in CuTe's notation, then per sheet
    /// CuTe's `print_layout` table; for a swizzled layout whose chunks
    /// hold more than one element (`M > 0`), the same table of chunks;
    /// notes for rows, columns or sheets left out.
    pub fn text(&self) -> String {
        let mut out = String::new();
        out.push_str(self.layout.to_text().as_str());
        out.push('\n');
        let (r, c, s) = self.shown_grid();
        let cosize = match &self.layout {
            AnyLayout::Plain(l) => l.cosize().map_or(0, |x| x.value),
            AnyLayout::Swizzled(c) => c.layout.cosize().map_or(0, |x| x.value),
        };
        // CuTe's width, widened for offsets a swizzle or a negative stride
        // takes past it
        let widest = self.shown.iter().map(|v| v.to_string().len()).max();
        let width = num_digits(cosize).max(widest.unwrap_or(1));
        let offset_label = |v: i64| v.to_string();
        self.tables(&mut out, width, &offset_label);
        // the chunk table (when a chunk is more than one element)
        if let Some(cl) = self.composed().filter(|c| c.swizzle.base() > 0) {
            let m = cl.swizzle.base();
            out.push_str(&format!(
                "\nchunks: offset >> {m}, {} elements each, permuted by the swizzle\n",
                1u64 << m.clamp(0, 62)
            ));
            let chunk_label = |v: i64| (v >> m).to_string();
            let w = self
                .shown
                .iter()
                .map(|v| (v >> m).to_string().len())
                .max()
                .unwrap_or(1);
            self.tables(&mut out, w, &chunk_label);
        }
        let (rows, cols, sheets) = self.grid;
        for (what, all, drawn) in [
            ("rows", rows, r),
            ("columns", cols, c),
            ("sheets", sheets, s),
        ] {
            if all > drawn {
                out.push_str(&format!("… {what} {drawn}..{all} are not drawn\n"));
            }
        }
        out
    }

    /// CuTe's `print_layout` table of every drawn sheet, cells labelled by
    /// `label` in `width` characters.
    fn tables(&self, out: &mut String, width: usize, label: &dyn Fn(i64) -> String) {
        let (r, c, s) = self.shown_grid();
        let rule = |out: &mut String| {
            out.push_str("    ");
            for _ in 0..c {
                out.push('+');
                out.push_str(&"-".repeat(width + 2));
            }
            out.push_str("+\n");
        };
        for k in 0..s {
            if self.grid.2 > 1 {
                out.push_str(&format!("sheet {k} (modes 2 and up at index {k})\n"));
            }
            out.push_str("    ");
            for n in 0..c {
                out.push_str(&format!("  {n:>width$} "));
            }
            out.push('\n');
            for m in 0..r {
                rule(out);
                out.push_str(&format!("{m:>2}  "));
                for n in 0..c {
                    let v = label(self.shown_offset(m, n, k));
                    out.push_str(&format!("| {v:>width$} "));
                }
                out.push_str("|\n");
            }
            rule(out);
        }
    }

    /// The offset of every element, one row (`m` fixed, `n` along the
    /// line) per line, sheets one after the other.
    pub fn slots(&self) -> String {
        let mut s = String::new();
        let _ = self.write_slots(&mut s);
        s
    }

    /// Writes [`CutePicture::slots`] to `w`.
    ///
    /// # Errors
    /// What `w` returns (every offset fits `i64`: [`CutePicture::new`]
    /// checked the cosize).
    pub fn write_slots(&self, w: &mut dyn Write) -> fmt::Result {
        let (rows, cols, sheets) = self.grid;
        for k in 0..sheets {
            for m in 0..rows {
                for n in 0..cols {
                    if n > 0 {
                        w.write_char(' ')?;
                    }
                    let v = self.call(self.index(m, n, k)).map_err(|_| fmt::Error)?;
                    write!(w, "{v}")?;
                }
                w.write_char('\n')?;
            }
        }
        Ok(())
    }

    /// One line per offset the layout reaches, in increasing order:
    /// `offset (m,n)` (`(m,n,k)` with sheets), several coordinates when
    /// the layout maps them to one offset (a stride 0).
    pub fn memory(&self) -> String {
        let mut s = String::new();
        let _ = self.write_memory(&mut s);
        s
    }

    /// Writes [`CutePicture::memory`] to `w`.
    ///
    /// # Errors
    /// What `w` returns (every offset fits `i64`, as for
    /// [`CutePicture::write_slots`]).
    pub fn write_memory(&self, w: &mut dyn Write) -> fmt::Result {
        let (rows, cols, sheets) = self.grid;
        let size = rows * cols * sheets;
        let mut all: Vec<(i64, u64)> = Vec::with_capacity(size as usize);
        for i in 0..size {
            let v = self.call(i as i64).map_err(|_| fmt::Error)?;
            all.push((v, i));
        }
        all.sort_unstable();
        let mut last = None;
        for (v, i) in all {
            let (m, n, k) = (i % rows, i / rows % cols, i / rows / cols);
            if last != Some(v) {
                if last.is_some() {
                    w.write_char('\n')?;
                }
                write!(w, "{v}")?;
                last = Some(v);
            }
            if sheets > 1 {
                write!(w, " ({m},{n},{k})")?;
            } else {
                write!(w, " ({m},{n})")?;
            }
        }
        if last.is_some() {
            w.write_char('\n')?;
        }
        Ok(())
    }

    /// The picture as an SVG document: per sheet a grid of cells coloured
    /// as [`CutePicture::colour`] says, each labelled with its offset (and
    /// carrying `data-m`, `data-n`, `data-k` and `data-offset` for tools);
    /// a swizzled layout's chunk borders (between horizontal neighbours in
    /// different chunks) drawn thick.
    pub fn svg(&self) -> String {
        const CELL: u64 = 28;
        const LEFT: u64 = 40;
        let (r, c, s) = self.shown_grid();
        let mut body = String::new();
        let mut y = 36u64;
        let title = esc(self.layout.to_text().as_str());
        let _ = writeln!(body, r#"<text x="8" y="20" class="title">{title}</text>"#);
        let mut chunk_path = String::new();
        for k in 0..s {
            if self.grid.2 > 1 {
                let _ = writeln!(
                    body,
                    r#"<text x="8" y="{}" class="title">sheet {k}</text>"#,
                    y + 12
                );
                y += 18;
            }
            for n in 0..c {
                let _ = writeln!(
                    body,
                    r#"<text x="{}" y="{}" class="idx">{n}</text>"#,
                    LEFT + n * CELL + CELL / 2,
                    y + 12
                );
            }
            y += 16;
            for m in 0..r {
                let yy = y + m * CELL;
                let _ = writeln!(
                    body,
                    r#"<text x="{}" y="{}" class="idx">{m}</text>"#,
                    LEFT - 12,
                    yy + CELL / 2 + 4
                );
                for n in 0..c {
                    let v = self.shown_offset(m, n, k);
                    let x = LEFT + n * CELL;
                    let [cr, cg, cb] = self.colour(v);
                    let _ = writeln!(
                        body,
                        r##"<rect x="{x}" y="{yy}" width="{CELL}" height="{CELL}" fill="#{cr:02x}{cg:02x}{cb:02x}" stroke="#000" stroke-width="0.5"/><text x="{}" y="{}" data-m="{m}" data-n="{n}" data-k="{k}" data-offset="{v}">{v}</text>"##,
                        x + CELL / 2,
                        yy + CELL / 2 + 4
                    );
                    if n + 1 < c && self.chunk(v) != self.chunk(self.shown_offset(m, n + 1, k)) {
                        let _ = write!(chunk_path, "M{} {yy}V{}", x + CELL, yy + CELL);
                    }
                }
            }
            y += r * CELL + 12;
        }
        if !chunk_path.is_empty() {
            let _ = writeln!(
                body,
                r##"<path class="chunks" d="{chunk_path}" stroke="#000" stroke-width="3" fill="none"/>"##
            );
        }
        let width = LEFT + c * CELL + 16;
        let width = width.max(8 + 7 * title.len() as u64);
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" viewBox="0 0 {width} {y}" font-family="monospace" font-size="10">"#
        );
        out.push_str(concat!(
            "<style>text{text-anchor:middle}.title{text-anchor:start;font-size:12px}",
            ".idx{fill:#666;font-size:9px}</style>\n",
            "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
        ));
        out.push_str(&body);
        out.push_str("</svg>\n");
        out
    }
}

/// CuTe's `num_digits` (`include/cute/util/print.hpp`): decimal digits of
/// a non-negative `int`, at least 1.
fn num_digits(x: i64) -> usize {
    let mut d = 1;
    let mut x = x;
    while x >= 10 {
        x /= 10;
        d += 1;
    }
    d
}

/// Escapes text for XML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

//! The drawn part of the grid, computed once per picture and format:
//! which rows and columns are drawn (gaps where repeated blocks are left
//! out), which stacked-dim indices, and for every drawn cell its slot,
//! whether it is padding and its tile at every level.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::model::{Cell, Model};

/// A row or column of the drawn grid: an index, or the gap where repeated
/// blocks are left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Line {
    /// A drawn index.
    At(u64),
    /// Left-out blocks.
    Gap,
}

/// The drawn lines of axis `d` (one line `At(0)` for a missing axis).
pub(super) fn lines(m: &Model, d: Option<usize>) -> Vec<Line> {
    let Some(d) = d else {
        return alloc::vec![Line::At(0)];
    };
    let mut out = Vec::new();
    let axis = &m.axes[d];
    for (n, r) in axis.shown().into_iter().enumerate() {
        if n > 0 {
            out.push(Line::Gap);
        }
        out.extend(r.map(Line::At));
    }
    if !axis.left_out().is_empty() && axis.left_out().end == axis.blocks {
        out.push(Line::Gap);
    }
    out
}

/// The grid's row and column dims (see [`Model::rows`]).
pub(super) fn grid_axes(m: &Model) -> (Option<usize>, Option<usize>) {
    (m.rows, m.cols)
}

/// `[0,:,5,:]`: the stacked dims' indices, `:` for the grid's dims.
pub(super) fn lead_header(m: &Model, lead: &[u64]) -> String {
    let mut vals = lead.iter();
    let parts: Vec<String> = (0..m.axes.len())
        .map(|d| {
            if Some(d) == m.rows || Some(d) == m.cols {
                String::from(":")
            } else {
                vals.next().map_or(String::new(), u64::to_string)
            }
        })
        .collect();
    format!("[{}]", parts.join(","))
}

/// Every combination of the leading dims' drawn indices, with `None`
/// where left-out blocks sit between two combinations.
pub(super) fn leads(m: &Model) -> Vec<Option<Vec<u64>>> {
    let mut out: Vec<Option<Vec<u64>>> = alloc::vec![Some(Vec::new())];
    for &d in &m.stacked {
        let mut next = Vec::new();
        for prefix in &out {
            let Some(prefix) = prefix else {
                next.push(None);
                continue;
            };
            for l in lines(m, Some(d)) {
                match l {
                    Line::At(i) => {
                        let mut p = prefix.clone();
                        p.push(i);
                        next.push(Some(p));
                    }
                    Line::Gap => next.push(None),
                }
            }
        }
        out = next;
    }
    // consecutive gaps read as one
    out.dedup_by(|a, b| a.is_none() && b.is_none());
    out
}

/// The position of grid cell (`row`, `col`) under the stacked dims'
/// indices `lead`.
pub(super) fn position(m: &Model, lead: &[u64], row: u64, col: u64) -> Vec<u64> {
    let mut p = alloc::vec![0; m.axes.len()];
    for (&d, &v) in m.stacked.iter().zip(lead) {
        p[d] = v;
    }
    if let Some(r) = m.rows {
        p[r] = row;
    }
    if let Some(c) = m.cols {
        p[c] = col;
    }
    p
}

/// `(2,3)`.
pub(super) fn coords(c: &[u64]) -> String {
    let parts: Vec<String> = c.iter().map(u64::to_string).collect();
    format!("({})", parts.join(","))
}

/// The drawn cells of one stacked-dim combination.
pub(super) struct Sheet {
    /// Drawn rows.
    pub rows: Vec<Line>,
    /// Drawn columns.
    pub cols: Vec<Line>,
    /// Row-major over `rows` × `cols`; `None` at gaps and outside the grid.
    cells: Vec<Option<Cell>>,
}

impl Sheet {
    /// The sheet under stacked-dim indices `lead`.
    pub fn new(m: &Model, lead: &[u64]) -> Sheet {
        let (ra, ca) = grid_axes(m);
        let rows = lines(m, ra);
        let cols = lines(m, ca);
        let mut cells = Vec::with_capacity(rows.len() * cols.len());
        for r in &rows {
            for c in &cols {
                cells.push(match (r, c) {
                    (Line::At(i), Line::At(j)) => m.cell(&position(m, lead, *i, *j)),
                    _ => None,
                });
            }
        }
        Sheet { rows, cols, cells }
    }

    /// The cell at drawn row `r`, column `c`.
    pub fn cell(&self, r: usize, c: usize) -> Option<&Cell> {
        if r >= self.rows.len() || c >= self.cols.len() {
            return None;
        }
        self.cells.get(r * self.cols.len() + c)?.as_ref()
    }

    /// The outermost level at which two drawn cells lie in different
    /// tiles; `None` if they share every tile or one is not drawn.
    pub fn boundary(&self, a: (usize, usize), b: (usize, usize)) -> Option<usize> {
        let (x, y) = (self.cell(a.0, a.1)?, self.cell(b.0, b.1)?);
        x.boundary(y)
    }
}

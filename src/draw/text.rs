//! The text pictures: the grid with tile borders and padding, the packing
//! grid, the memory map; and the plain `slots` and `memory` listings.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Write};

use super::model::Model;
use super::sheet::{coords, grid_axes, lead_header, leads, Line, Sheet};

/// Vertical border characters per tile level (deeper levels use the last).
const VERTICAL: [char; 3] = ['|', ':', '\''];
/// Horizontal border characters per tile level.
const HORIZONTAL: [char; 3] = ['-', '.', '\''];

fn vertical(level: Option<usize>) -> char {
    level.map_or(' ', |k| VERTICAL[k.min(VERTICAL.len() - 1)])
}

fn horizontal(level: Option<usize>) -> char {
    level.map_or(' ', |k| HORIZONTAL[k.min(HORIZONTAL.len() - 1)])
}

/// The labels of a sheet's cells and their width.
fn labels(sheet: &Sheet, label: &dyn Fn(u64, bool) -> String) -> (Vec<String>, usize) {
    let mut width = 1;
    let mut out = Vec::with_capacity(sheet.rows.len() * sheet.cols.len());
    for r in 0..sheet.rows.len() {
        for c in 0..sheet.cols.len() {
            let s = match sheet.cell(r, c) {
                Some(cell) => label(cell.slot, cell.pad),
                None if sheet.rows[r] == Line::Gap || sheet.cols[c] == Line::Gap => {
                    String::from("…")
                }
                None => String::new(),
            };
            width = width.max(s.chars().count());
            out.push(s);
        }
    }
    (out, width)
}

fn write_grid(m: &Model, g: &Sheet, label: &dyn Fn(u64, bool) -> String, out: &mut String) {
    let (ra, ca) = grid_axes(m);
    let (labels, width) = labels(g, label);
    let w = width.max(digits(m.axes.get(ca.unwrap_or(0)).map_or(0, |a| a.padded)));
    let row_label = ra.map_or(0, |d| digits(m.axes[d].padded));
    // column header
    if ca.is_some() {
        out.push_str(&" ".repeat(row_label + 2));
        for (n, c) in g.cols.iter().enumerate() {
            if n > 0 {
                out.push_str("   ");
            }
            match c {
                Line::At(j) => out.push_str(&format!("{j:>w$}")),
                Line::Gap => out.push_str(&format!("{:>w$}", "…")),
            }
        }
        out.push('\n');
    }
    for (ri, r) in g.rows.iter().enumerate() {
        // border line between this row and the previous drawn one
        if ri > 0 && g.rows[ri - 1] != Line::Gap && *r != Line::Gap {
            let fills: Vec<char> = (0..g.cols.len())
                .map(|n| horizontal(g.boundary((ri - 1, n), (ri, n))))
                .collect();
            if fills.iter().any(|&c| c != ' ') {
                let mut line = " ".repeat(row_label + 2);
                for n in 0..g.cols.len() {
                    if n > 0 {
                        let (hl, hr) = (fills[n - 1], fills[n]);
                        let v = g.boundary((ri - 1, n - 1), (ri - 1, n));
                        let j = if v == Some(0) && (hl == HORIZONTAL[0] || hr == HORIZONTAL[0]) {
                            '+'
                        } else if hl == hr {
                            hl
                        } else if v.is_some() {
                            vertical(v)
                        } else {
                            hl.max(hr)
                        };
                        line.push(hl);
                        line.push(j);
                        line.push(hr);
                    }
                    line.extend(core::iter::repeat_n(fills[n], w));
                }
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
        match r {
            Line::Gap => {
                out.push_str(&format!("{:>row_label$}\n", "…"));
            }
            Line::At(i) => {
                match ra {
                    Some(_) => out.push_str(&format!("{i:>row_label$}  ")),
                    None => out.push_str("  "),
                }
                for n in 0..g.cols.len() {
                    if n > 0 {
                        out.push(' ');
                        out.push(vertical(g.boundary((ri, n - 1), (ri, n))));
                        out.push(' ');
                    }
                    let s = &labels[ri * g.cols.len() + n];
                    out.push_str(&format!("{s:>w$}"));
                }
                let len = out.trim_end_matches(' ').len();
                out.truncate(len);
                out.push('\n');
            }
        }
    }
}

fn digits(n: u64) -> usize {
    n.saturating_sub(1).max(1).ilog10() as usize + 1
}

/// How left-out blocks repeat, one line per elided axis.
fn repeat_notes(m: &Model, out: &mut String) {
    for (d, a) in m.axes.iter().enumerate() {
        let gap = a.left_out();
        if !gap.is_empty() {
            out.push_str(&format!(
                "… dim {d}, indices {} to {}: blocks {} to {} of {} hold the slots of block 0 plus block·{}\n",
                gap.start * a.period,
                (gap.end * a.period).min(a.padded) - 1,
                gap.start,
                gap.end - 1,
                a.period,
                a.stride
            ));
        }
    }
}

/// The full text picture.
pub(super) fn picture(m: &Model) -> String {
    let mut out = String::new();
    let t = &m.tiling;
    let padding = t.slots() - t.elements();
    out.push_str(&format!(
        "{}: {} elements in {} slots ({} padding)\n",
        m.shape,
        t.elements(),
        t.slots(),
        padding
    ));
    let (ra, ca) = grid_axes(m);
    match (ra, ca) {
        (Some(r), Some(c)) => out.push_str(&format!(
            "grid: rows are dim {r}, columns dim {c}; each cell is the slot of its element"
        )),
        (None, Some(_)) => out.push_str("grid: each cell is the slot of its element"),
        _ => out.push_str("grid: the one element's slot"),
    }
    if m.padding_in_grid() {
        out.push_str("; (n) is padding slot n");
    } else if padding > 0 {
        out.push_str("; the memory map shows the padding");
    }
    out.push('\n');
    for (k, tile) in m.shape.layout().tiles().iter().enumerate() {
        let mut s = crate::value::TextBuf::<64>::new();
        crate::value::write_tile(&mut s, tile);
        out.push_str(&format!(
            "tile level {k} {}: borders {} and {}\n",
            s.as_str(),
            VERTICAL[k.min(2)],
            HORIZONTAL[k.min(2)]
        ));
    }
    let slot_label = |slot: u64, pad: bool| {
        if pad {
            format!("({slot})")
        } else {
            slot.to_string()
        }
    };
    let sheets = sheets(m);
    write_grids(m, &sheets, &slot_label, &mut out);
    if let Some(p) = m.packing {
        let unit = if p.unit_bits == 8 {
            "byte"
        } else {
            "32-bit word"
        };
        out.push_str(&format!(
            "\npacking: {} slots per {unit}; each cell is the {unit} of its element (slot / {})\n",
            p.per_unit, p.per_unit
        ));
        let per = p.per_unit;
        let unit_label = move |slot: u64, pad: bool| {
            if pad {
                format!("({})", slot / per)
            } else {
                (slot / per).to_string()
            }
        };
        write_grids(m, &sheets, &unit_label, &mut out);
    }
    out.push_str("\nmemory: slots in order, each with its element or pad\n");
    memory_map(m, &mut out);
    out
}

fn write_grids(
    m: &Model,
    sheets: &[Option<(Vec<u64>, Sheet)>],
    label: &dyn Fn(u64, bool) -> String,
    out: &mut String,
) {
    for sheet in sheets {
        match sheet {
            None => out.push_str("…\n"),
            Some((lead, sheet)) => {
                if !m.stacked.is_empty() {
                    out.push_str(&lead_header(m, lead));
                    out.push('\n');
                }
                write_grid(m, sheet, label, out);
            }
        }
    }
    repeat_notes(m, out);
}

/// The sheets of every drawn stacked-dim combination (`None`: a gap).
pub(super) fn sheets(m: &Model) -> Vec<Option<(Vec<u64>, Sheet)>> {
    leads(m)
        .into_iter()
        .map(|l| {
            l.map(|l| {
                let s = Sheet::new(m, &l);
                (l, s)
            })
        })
        .collect()
}

/// Slots shown at each end of the memory map of a large layout.
const MEMORY_ENDS: u64 = 1024;

/// The memory map, one line per first-level tile (or 16 slots).
fn memory_map(m: &Model, out: &mut String) {
    let t = &m.tiling;
    let per_line = m
        .shape
        .layout()
        .tiles()
        .first()
        .map_or(16, |_| {
            t.dims_after_level(0).map_or(16, |d| {
                let tile = m.shape.layout().tiles()[0];
                let g = (0..tile.rank())
                    .filter(|&j| matches!(tile.dim(j), crate::value::TileDim::Size(_)))
                    .count();
                d.as_slice().iter().rev().take(g).product::<u64>()
            })
        })
        .clamp(1, 64);
    let slots = t.slots();
    let elide = slots > 2 * MEMORY_ENDS;
    let head = if elide {
        MEMORY_ENDS.div_ceil(per_line) * per_line
    } else {
        slots
    };
    let tail_start = if elide {
        (slots - MEMORY_ENDS) / per_line * per_line
    } else {
        slots
    };
    let width = digits(slots);
    let line = |start: u64, out: &mut String| {
        let end = (start + per_line).min(slots);
        out.push_str(&format!("{start:>width$}..{:<width$} ", end - 1));
        for s in start..end {
            match t.coords(s) {
                Ok(Some(c)) => out.push_str(&format!(" {}", coords(c.as_slice()))),
                _ => out.push_str(" pad"),
            }
        }
        out.push('\n');
    };
    let mut s = 0;
    while s < head.min(slots) {
        line(s, out);
        s += per_line;
    }
    if elide {
        out.push_str(&format!(
            "… slots {head}..{}: the elements the grid places there\n",
            tail_start - 1
        ));
        let mut s = tail_start;
        while s < slots {
            line(s, out);
            s += per_line;
        }
    }
}

/// Writes the slot of every element, one logical row per line.
pub(super) fn write_slots(m: &Model, w: &mut dyn Write) -> fmt::Result {
    let t = &m.tiling;
    let rank = t.rank();
    let dims: Vec<u64> = m.axes.iter().map(|a| a.extent).collect();
    if dims.contains(&0) {
        return Ok(());
    }
    let row_len = dims.last().copied().unwrap_or(1);
    let mut pos = alloc::vec![0u64; rank];
    loop {
        for j in 0..row_len {
            if let Some(last) = pos.last_mut() {
                *last = j;
            }
            if j > 0 {
                w.write_char(' ')?;
            }
            write!(w, "{}", t.offset_unchecked(&pos))?;
        }
        w.write_char('\n')?;
        // next row: odometer over all dims but the last
        let mut i = rank.saturating_sub(1);
        loop {
            if i == 0 {
                return Ok(());
            }
            i -= 1;
            pos[i] += 1;
            if pos[i] < dims[i] {
                break;
            }
            pos[i] = 0;
        }
    }
}

/// Writes one line per slot: `slot (coords)` or `slot pad`.
pub(super) fn write_memory(m: &Model, w: &mut dyn Write) -> fmt::Result {
    let t = &m.tiling;
    for (s, c) in t.slots_in_order().enumerate() {
        match c {
            Some(c) => writeln!(w, "{s} {}", coords(c.as_slice()))?,
            None => writeln!(w, "{s} pad")?,
        }
    }
    Ok(())
}

//! The SVG picture, written directly: the grid of each leading index with
//! one colour per first-level tile, a border per tile level, padding
//! hatched, slot labels (element coordinates as tooltips in small
//! pictures), and a strip of the first slots in memory order.
//!
//! Cells of one row that lie in the same tile are one `<rect>` and the
//! borders of a level are one `<path>`, so a picture of a large layout stays
//! small; each drawn position also carries its slot and coordinates as
//! `data-` attributes of its label for tools (and tests) that read the SVG.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write;

use super::model::Model;
use super::sheet::{coords, grid_axes, lead_header, lines, position, Line};
use super::text::sheets;

/// Most cells in a grid whose elements get coordinate tooltips.
const TOOLTIP_CELLS: usize = 1024;
/// Cell height in pixels.
const CELL_H: u64 = 24;
/// Height or width of a gap where repeated blocks are left out.
const GAP: u64 = 20;
/// Left margin (row labels).
const LEFT: u64 = 48;
/// Slots shown in the memory strip, and per strip row.
const STRIP: u64 = 128;
const STRIP_ROW: u64 = 32;
/// Border colour and width per tile level (deeper levels use the last).
const BORDERS: [(&str, &str); 3] = [("#000", "3"), ("#d00", "2"), ("#06c", "1")];

/// The fill of first-level tile `id`: hues spread by the golden angle so
/// that neighbouring tiles differ, light enough to read labels on.
pub fn tile_colour(id: u64) -> [u8; 3] {
    // hue in units of 1/3600 of a turn; 1375 ≈ 137.5° (golden angle)
    let hue = (id % 3600) * 1375 % 3600;
    hsl_to_rgb(hue, 60, 78)
}

/// HSL (hue in 0.1°, saturation and lightness in %) to RGB, in integers.
fn hsl_to_rgb(hue: u64, s: u64, l: u64) -> [u8; 3] {
    // chroma and friends scaled by 100·100
    let c = (100 - (2 * l).abs_diff(100)) * s; // /10000
    let h6 = hue * 6; // sector position, in units of 3600
    let sector = h6 / 3600;
    let frac = h6 % 7200; // position within two sectors
    let x = c * (3600 - frac.abs_diff(3600)) / 3600;
    let m = l * 100 - c / 2;
    let (r, g, b) = match sector {
        0 => (c, x, 0),
        1 => (x, c, 0),
        2 => (0, c, x),
        3 => (0, x, c),
        4 => (x, 0, c),
        _ => (c, 0, x),
    };
    let to = |v: u64| ((v + m) * 255 / 10000).min(255) as u8;
    [to(r), to(g), to(b)]
}

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// A border segment, merged with its neighbours before writing.
#[derive(Default)]
struct Borders {
    /// (level, vertical?, fixed coordinate) → [start, end) runs.
    runs: BTreeMap<(usize, bool, u64), Vec<(u64, u64)>>,
}

impl Borders {
    fn add(&mut self, level: usize, vertical: bool, at: u64, from: u64, to: u64) {
        self.runs
            .entry((level.min(BORDERS.len() - 1), vertical, at))
            .or_default()
            .push((from, to));
    }

    fn write(mut self, out: &mut String) {
        for level in (0..BORDERS.len()).rev() {
            let mut d = String::new();
            for ((l, vertical, at), runs) in &mut self.runs {
                if *l != level {
                    continue;
                }
                runs.sort_unstable();
                let mut merged: Vec<(u64, u64)> = Vec::new();
                for &(a, b) in runs.iter() {
                    match merged.last_mut() {
                        Some(last) if last.1 == a => last.1 = b,
                        _ => merged.push((a, b)),
                    }
                }
                for (a, b) in merged {
                    if *vertical {
                        let _ = write!(d, "M{at} {a}V{b}");
                    } else {
                        let _ = write!(d, "M{a} {at}H{b}");
                    }
                }
            }
            if !d.is_empty() {
                let (colour, width) = BORDERS[level];
                let _ = writeln!(
                    out,
                    r#"<path class="border{level}" d="{d}" stroke="{colour}" stroke-width="{width}" fill="none"/>"#
                );
            }
        }
    }
}

/// Escapes text for XML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The SVG picture.
pub(super) fn picture(m: &Model) -> String {
    let (ra, ca) = grid_axes(m);
    let rows = lines(m, ra);
    let cols = lines(m, ca);
    let digits = (m.tiling.slots().max(2) - 1).ilog10() as u64 + 1;
    let cell_w = (digits * 7 + 8).max(24);
    let col_x: Vec<u64> = cols
        .iter()
        .scan(LEFT, |x, c| {
            let at = *x;
            *x += if *c == Line::Gap { GAP } else { cell_w };
            Some(at)
        })
        .collect();
    let grid_w = cols
        .iter()
        .map(|c| if *c == Line::Gap { GAP } else { cell_w })
        .sum::<u64>();
    let grid_h = rows
        .iter()
        .map(|r| if *r == Line::Gap { GAP } else { CELL_H })
        .sum::<u64>();

    let tooltips = rows.len() * cols.len() <= TOOLTIP_CELLS;
    let mut body = String::new();
    let mut borders = Borders::default();
    let mut y = 40u64;
    let _ = writeln!(
        body,
        r#"<text x="8" y="20" class="title">{}: {} elements, {} slots</text>"#,
        esc(&m.shape.to_string()),
        m.tiling.elements(),
        m.tiling.slots()
    );
    for sheet in sheets(m) {
        let Some((lead, sheet)) = sheet else {
            let _ = writeln!(body, r#"<text x="8" y="{}" class="note">…</text>"#, y + 14);
            y += GAP;
            continue;
        };
        if !m.stacked.is_empty() {
            let _ = writeln!(
                body,
                r#"<text x="8" y="{}" class="note">{}</text>"#,
                y + 14,
                lead_header(m, &lead)
            );
            y += 20;
        }
        // column labels
        for (c, x) in cols.iter().zip(&col_x) {
            if let Line::At(j) = c {
                let _ = writeln!(
                    body,
                    r#"<text x="{}" y="{}" class="idx">{j}</text>"#,
                    x + cell_w / 2,
                    y + 12
                );
            }
        }
        y += 16;
        let mut row_y = y;
        for (ri, r) in rows.iter().enumerate() {
            let Line::At(i) = *r else {
                let _ = writeln!(
                    body,
                    r#"<text x="8" y="{}" class="note">…</text>"#,
                    row_y + 14
                );
                row_y += GAP;
                continue;
            };
            if ra.is_some() {
                let _ = writeln!(
                    body,
                    r#"<text x="{}" y="{}" class="idx">{i}</text>"#,
                    LEFT - 12,
                    row_y + 16
                );
            }
            // runs of cells in one tile (and alike in padding)
            let mut run: Option<(u64, u64, Option<u64>, bool)> = None; // x, w, tile, pad
            let flush = |run: &mut Option<(u64, u64, Option<u64>, bool)>, body: &mut String| {
                if let Some((x, w, tile, pad)) = run.take() {
                    let fill = if pad {
                        String::from("url(#pad)")
                    } else {
                        tile.map_or(String::from("#e8e8e8"), |t| hex(tile_colour(t)))
                    };
                    let _ = writeln!(
                        body,
                        r#"<rect x="{x}" y="{row_y}" width="{w}" height="{CELL_H}" fill="{fill}"/>"#
                    );
                }
            };
            for (ci, c) in cols.iter().enumerate() {
                let x = col_x[ci];
                let Line::At(j) = *c else {
                    flush(&mut run, &mut body);
                    let _ = writeln!(
                        body,
                        r#"<text x="{}" y="{}" class="idx">…</text>"#,
                        x + GAP / 2,
                        row_y + 16
                    );
                    continue;
                };
                let Some(cell) = sheet.cell(ri, ci) else {
                    flush(&mut run, &mut body);
                    continue;
                };
                let (slot, pad) = (cell.slot, cell.pad);
                let tile = cell.tile(0);
                match &mut run {
                    Some((_, w, t, pd)) if *t == tile && *pd == pad => *w += cell_w,
                    _ => {
                        flush(&mut run, &mut body);
                        run = Some((x, cell_w, tile, pad));
                    }
                }
                let label = if pad {
                    format!("({slot})")
                } else {
                    slot.to_string()
                };
                let at = if pad {
                    String::new()
                } else {
                    let c = coords(&position(m, &lead, i, j));
                    String::from(&c[1..c.len() - 1])
                };
                // the element's coordinates as a tooltip, in small pictures
                // (they do not fit in a cell, and large ones stay small)
                let tip = if tooltips && !pad {
                    format!("<title>({at})</title>")
                } else {
                    String::new()
                };
                let _ = writeln!(
                    body,
                    r#"<text x="{}" y="{}" data-slot="{slot}" data-coords="{}">{label}{tip}</text>"#,
                    x + cell_w / 2,
                    row_y + 16,
                    at
                );
                // borders with the next column and the next row
                if let Some(k) = sheet.boundary((ri, ci), (ri, ci + 1)) {
                    borders.add(k, true, x + cell_w, row_y, row_y + CELL_H);
                }
                if let Some(k) = sheet.boundary((ri, ci), (ri + 1, ci)) {
                    borders.add(k, false, row_y + CELL_H, x, x + cell_w);
                }
            }
            flush(&mut run, &mut body);
            row_y += CELL_H;
        }
        let _ = writeln!(
            body,
            r##"<rect x="{LEFT}" y="{y}" width="{grid_w}" height="{grid_h}" fill="none" stroke="#666" stroke-width="1"/>"##
        );
        y = row_y + 16;
    }
    borders.write(&mut body);
    for (d, a) in m.axes.iter().enumerate() {
        let gap = a.left_out();
        if !gap.is_empty() {
            let _ = writeln!(
                body,
                r#"<text x="8" y="{}" class="note">… dim {d}: blocks {} to {} of {} hold the slots of block 0 plus block·{}</text>"#,
                y + 12,
                gap.start,
                gap.end - 1,
                a.period,
                a.stride
            );
            y += 18;
        }
    }
    y = strip(m, &mut body, y + 8, cell_w);
    let width = (LEFT + grid_w).max(LEFT + STRIP_ROW.min(m.tiling.slots()) * cell_w) + 16;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{}" viewBox="0 0 {width} {}" font-family="monospace" font-size="11">"#,
        y + 8,
        y + 8
    );
    out.push_str(concat!(
        "<defs><pattern id=\"pad\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">",
        "<rect width=\"6\" height=\"6\" fill=\"#fff\"/>",
        "<path d=\"M0 6L6 0\" stroke=\"#999\" stroke-width=\"1\"/></pattern></defs>\n",
        "<style>text{text-anchor:middle}.title,.note{text-anchor:start}.idx{fill:#666;font-size:9px}</style>\n",
        "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
    ));
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// The first slots in memory order, coloured like their elements' tiles.
fn strip(m: &Model, body: &mut String, mut y: u64, cell_w: u64) -> u64 {
    let t = &m.tiling;
    let shown = t.slots().min(STRIP);
    let _ = writeln!(
        body,
        r#"<text x="8" y="{}" class="title">memory, slots 0..{}</text>"#,
        y + 12,
        shown.saturating_sub(1)
    );
    y += 18;
    for s in 0..shown {
        let x = LEFT + (s % STRIP_ROW) * cell_w;
        let yy = y + (s / STRIP_ROW) * CELL_H;
        let fill = match t.coords(s) {
            Ok(Some(c)) if m.level_count() > 0 => hex(tile_colour(m.tile_at(0, c.as_slice()))),
            Ok(Some(_)) => String::from("#e8e8e8"),
            _ => String::from("url(#pad)"),
        };
        let _ = writeln!(
            body,
            r##"<rect x="{x}" y="{yy}" width="{cell_w}" height="{CELL_H}" fill="{fill}" stroke="#666" stroke-width="0.5"/><text x="{}" y="{}">{s}</text>"##,
            x + cell_w / 2,
            yy + 16
        );
    }
    let rows = shown.div_ceil(STRIP_ROW);
    y += rows * CELL_H;
    if t.slots() > shown {
        let _ = writeln!(
            body,
            r#"<text x="8" y="{}" class="note">… {} more slots</text>"#,
            y + 14,
            t.slots() - shown
        );
        y += 18;
    }
    y
}

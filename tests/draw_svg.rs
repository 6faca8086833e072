//! The SVG pictures of `tilelayout::draw`, checked as XML by a real parser
//! (every drawn position's slot and coordinates against the core) and as
//! pixels by a real renderer (each sampled cell has its first-level tile's
//! colour, padding is hatched, not coloured).

use resvg::tiny_skia::Pixmap;
use resvg::usvg::{Options, Tree};
use tilelayout::draw::{tile_colour, Picture};
use tilelayout::value::parse_valid_shape;

/// The labelled cells of an SVG: (x, y, slot, coords or None for padding).
fn cells(svg: &str) -> Vec<(f64, f64, u64, Option<Vec<u64>>)> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.has_attribute("data-slot"))
        .map(|n| {
            let num = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
            let coords = n.attribute("data-coords").unwrap();
            let coords = (!coords.is_empty())
                .then(|| coords.split(',').map(|c| c.parse().unwrap()).collect());
            (
                num("x"),
                num("y"),
                n.attribute("data-slot").unwrap().parse().unwrap(),
                coords,
            )
        })
        .collect()
}

fn render(svg: &str) -> Pixmap {
    let tree = Tree::from_str(svg, &Options::default()).expect("resvg parses the SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).expect("a pixmap");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
}

fn rgb(p: &Pixmap, x: f64, y: f64) -> [u8; 3] {
    let c = p.pixel(x as u32, y as u32).expect("inside the picture");
    [c.red(), c.green(), c.blue()]
}

/// Labels sit at the cell's centre column, baseline 16 px below its top;
/// sample 5 px right of the centre, 6 px down from the top (text is not
/// drawn: the renderer is built without fonts).
fn sample(x: f64, y: f64) -> (f64, f64) {
    (x + 5.0, y - 10.0)
}

#[test]
fn figure_1_as_xml_and_pixels() {
    let text = "f32[3,5]{1,0:T(2,2)}";
    let p = Picture::parse(text).unwrap();
    let svg = p.svg();
    let t = parse_valid_shape(text).unwrap().tiling().unwrap();
    let cells = cells(&svg);
    // the grid (4×6 with padding) and the memory strip (24 slots)
    let grid: Vec<_> = cells.iter().filter(|c| c.3.is_some() || c.2 >= 9).collect();
    assert_eq!(cells.iter().filter(|c| c.3.is_some()).count(), 15);
    assert_eq!(cells.iter().filter(|c| c.3.is_none()).count(), 9);
    for (_, _, slot, coords) in &cells {
        match coords {
            Some(c) => assert_eq!(t.offset(c).unwrap(), *slot),
            None => assert_eq!(t.coords(*slot).unwrap(), None),
        }
    }
    let pixels = render(&svg);
    let mut colours = std::collections::BTreeSet::new();
    for (x, y, _, coords) in grid {
        let (sx, sy) = sample(*x, *y);
        let got = rgb(&pixels, sx, sy);
        match coords {
            Some(c) => {
                let want = tile_colour(p.tile_at(c).unwrap());
                assert_eq!(got, want, "cell {c:?}");
                colours.insert(want);
            }
            // hatched: white or the grey of the hatching, never a tile's
            None => assert!(
                got == [255, 255, 255] || got[0] == got[1] && got[1] == got[2],
                "{got:?}"
            ),
        }
    }
    // six first-level tiles, six colours
    assert_eq!(colours.len(), 6);
    // elements carry their coordinates as a tooltip
    assert!(
        svg.contains(r#"data-slot="17" data-coords="2,3">17<title>(2,3)</title></text>"#),
        "{svg}"
    );
    if let Ok(dir) = std::env::var("DRAW_PNG_DIR") {
        pixels.save_png(format!("{dir}/figure_1.png")).unwrap();
    }
}

#[test]
fn figure_2_borders_and_colours() {
    let p = Picture::parse("f32[4,8]{1,0:T(2,4)(2,1)}").unwrap();
    let svg = p.svg();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let borders: Vec<_> = doc
        .descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.starts_with("border"))
        })
        .map(|n| {
            (
                n.attribute("class").unwrap(),
                n.attribute("stroke").unwrap(),
            )
        })
        .collect();
    // a border per level: the 2×4 tiles in black, the 2×1 boxes in red
    assert!(borders.contains(&("border0", "#000")), "{borders:?}");
    assert!(borders.contains(&("border1", "#d00")), "{borders:?}");
    let pixels = render(&svg);
    let cells = cells(&svg);
    let mut colours = std::collections::BTreeSet::new();
    for (x, y, _, coords) in cells.iter().take(32) {
        let c = coords.as_ref().unwrap();
        let (sx, sy) = sample(*x, *y);
        let want = tile_colour(p.tile_at(c).unwrap());
        assert_eq!(rgb(&pixels, sx, sy), want, "cell {c:?}");
        colours.insert(want);
    }
    assert_eq!(colours.len(), 4);
    // borders sit half a cell (12 px) right of a label: black between
    // columns 3 and 4 (a 2×4 tile ends), red between 0 and 1 (a 2×1 box)
    let at = |i: u64, j: u64| {
        let c = cells
            .iter()
            .find(|c| c.3.as_deref() == Some(&[i, j][..]))
            .unwrap();
        rgb(&pixels, c.0 + 12.0, c.1 - 10.0)
    };
    assert_eq!(at(0, 3), [0, 0, 0]);
    assert_eq!(at(0, 0), [0xdd, 0, 0]);
    // rows 0 and 1 are one 2×1 box: no border between them, the tile's
    // colour right at the edge
    let c = cells
        .iter()
        .find(|c| c.3.as_deref() == Some(&[0, 0][..]))
        .unwrap();
    assert_eq!(
        rgb(&pixels, c.0, c.1 + 8.0 - 0.5),
        tile_colour(p.tile_at(&[0, 0]).unwrap())
    );
    if let Ok(dir) = std::env::var("DRAW_PNG_DIR") {
        pixels.save_png(format!("{dir}/figure_2.png")).unwrap();
    }
}

#[test]
fn large_svg_stays_small() {
    let p = Picture::parse("bf16[4096,4096]{1,0:T(8,128)(2,1)}").unwrap();
    let svg = p.svg();
    assert!(svg.len() < 1 << 20, "{} bytes", svg.len());
    let cells = cells(&svg);
    // 2×2 blocks of 8×128 cells, and the memory strip
    assert_eq!(cells.iter().filter(|c| c.3.is_some()).count(), 4 * 8 * 128);
    let pixels = render(&svg);
    let t = parse_valid_shape("bf16[4096,4096]{1,0:T(8,128)(2,1)}")
        .unwrap()
        .tiling()
        .unwrap();
    for (x, y, slot, coords) in cells.iter().step_by(97) {
        let c = coords.as_ref().unwrap();
        assert_eq!(t.offset(c).unwrap(), *slot);
        let (sx, sy) = sample(*x, *y);
        assert_eq!(rgb(&pixels, sx, sy), tile_colour(p.tile_at(c).unwrap()));
    }
}

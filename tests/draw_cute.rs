//! Pictures of CuTe layouts: golden text (CuTe's `print_layout` table),
//! every cell against an independent computation (the algebra's
//! `crd2idx` on the coordinate `(m,n)` or `(m,n,k)`, and for swizzles
//! CuTe's XOR written out here), the SVG parsed as XML and rendered.

use proptest::prelude::*;
use resvg::tiny_skia::Pixmap;
use resvg::usvg::{Options, Tree};
use tilelayout::algebra::{AnyLayout, IntTuple};
use tilelayout::draw::{is_cute, CutePicture};

/// The offset of cell (m, n, k) computed without the picture: the
/// coordinate as a CuTe tuple through `crd2idx` (each integer split
/// inside its mode), then the swizzle `x ^ ((x & yyy) >> S)` by hand.
fn expected(layout: &AnyLayout, m: u64, n: u64, k: u64) -> i64 {
    let (inner, sw) = match layout {
        AnyLayout::Plain(l) => (*l, None),
        AnyLayout::Swizzled(c) => (c.layout, Some(*c)),
    };
    let crd = match inner.rank() {
        1 => format!("{m}"),
        2 => format!("({m},{n})"),
        r => {
            // modes 2.. take k colexicographically
            let mut rest = k;
            let mut parts = vec![m.to_string(), n.to_string()];
            for i in 2..r {
                let s = inner.mode(i).unwrap().size().unwrap().value as u64;
                parts.push((rest % s).to_string());
                rest /= s;
            }
            format!("({})", parts.join(","))
        }
    };
    let c = IntTuple::parse(&crd).unwrap();
    let x = inner.crd2idx(&c).unwrap().value;
    match sw {
        None => x,
        Some(c) => {
            let x = x + c.offset.value;
            let (b, mb, s) = (c.swizzle.bits(), c.swizzle.base(), c.swizzle.shift());
            let yyy = ((1i64 << b) - 1) << (mb + s.max(0));
            if s >= 0 {
                x ^ ((x & yyy) >> s)
            } else {
                x ^ ((x & yyy) << -s)
            }
        }
    }
}

/// Every cell of the picture, drawn or not, against [`expected`], and the
/// `slots` listing against the same.
fn check_all(text: &str) {
    let p = CutePicture::parse(text).unwrap();
    let (rows, cols, sheets) = p.grid();
    let mut slots = String::new();
    for k in 0..sheets {
        for m in 0..rows {
            let row: Vec<String> = (0..cols)
                .map(|n| {
                    let want = expected(p.layout(), m, n, k);
                    assert_eq!(
                        p.offset_at(m, n, k).unwrap(),
                        Some(want),
                        "{text} ({m},{n},{k})"
                    );
                    want.to_string()
                })
                .collect();
            slots.push_str(&row.join(" "));
            slots.push('\n');
        }
    }
    assert_eq!(p.slots(), slots, "{text}");
    assert_eq!(p.offset_at(rows, 0, 0).unwrap(), None);
    // the text table's cells, read back, are the same offsets (the first
    // table of each sheet; a swizzle's chunk table follows them)
    let table: Vec<Vec<i64>> = p
        .text()
        .split("\nchunks:")
        .next()
        .unwrap()
        .lines()
        .filter(|l| l.contains('|'))
        .map(|l| {
            l.split('|')
                .skip(1)
                .filter(|c| !c.trim().is_empty())
                .map(|c| c.trim().parse().unwrap())
                .collect()
        })
        .collect();
    let shown_rows = rows.min(tilelayout::draw::SHOWN);
    if rows * cols * sheets <= tilelayout::draw::SHOWN_CELLS
        && rows.max(cols) <= tilelayout::draw::SHOWN
    {
        assert_eq!(table.len() as u64, rows * sheets, "{text}");
        assert!(table.iter().all(|r| r.len() as u64 == cols), "{text}");
    }
    for (r, cells) in table.iter().enumerate() {
        let (k, m) = (r as u64 / shown_rows, r as u64 % shown_rows);
        for (n, &v) in cells.iter().enumerate() {
            assert_eq!(
                v,
                expected(p.layout(), m, n as u64, k),
                "{text} text cell ({m},{n},{k})"
            );
        }
    }
}

#[test]
fn print_layout_golden_rank_2() {
    let p = CutePicture::parse("(4,(2,2)):(2,(1,8))").unwrap();
    assert_eq!(
        p.text(),
        concat!(
            "(4,(2,2)):(2,(1,8))\n",
            "       0    1    2    3 \n",
            "    +----+----+----+----+\n",
            " 0  |  0 |  1 |  8 |  9 |\n",
            "    +----+----+----+----+\n",
            " 1  |  2 |  3 | 10 | 11 |\n",
            "    +----+----+----+----+\n",
            " 2  |  4 |  5 | 12 | 13 |\n",
            "    +----+----+----+----+\n",
            " 3  |  6 |  7 | 14 | 15 |\n",
            "    +----+----+----+----+\n",
        )
    );
    check_all("(4,(2,2)):(2,(1,8))");
}

#[test]
fn rank_1_is_one_column_as_print_latex_appends_1_0() {
    let p = CutePicture::parse("_4:_3").unwrap();
    assert_eq!(p.grid(), (4, 1, 1));
    assert_eq!(
        p.text(),
        concat!(
            "_4:_3\n",
            "       0 \n",
            "    +----+\n",
            " 0  |  0 |\n",
            "    +----+\n",
            " 1  |  3 |\n",
            "    +----+\n",
            " 2  |  6 |\n",
            "    +----+\n",
            " 3  |  9 |\n",
            "    +----+\n",
        )
    );
    assert_eq!(p.memory(), "0 (0,0)\n3 (1,0)\n6 (2,0)\n9 (3,0)\n");
}

#[test]
fn swizzle_golden_with_chunks() {
    let text = "Sw<1,1,1> o _0 o (4,4):(4,1)";
    let p = CutePicture::parse(text).unwrap();
    assert_eq!(
        p.text(),
        concat!(
            "Sw<1,1,1> o _0 o (4,4):(4,1)\n",
            "       0    1    2    3 \n",
            "    +----+----+----+----+\n",
            " 0  |  0 |  1 |  2 |  3 |\n",
            "    +----+----+----+----+\n",
            " 1  |  6 |  7 |  4 |  5 |\n",
            "    +----+----+----+----+\n",
            " 2  |  8 |  9 | 10 | 11 |\n",
            "    +----+----+----+----+\n",
            " 3  | 14 | 15 | 12 | 13 |\n",
            "    +----+----+----+----+\n",
            "\n",
            "chunks: offset >> 1, 2 elements each, permuted by the swizzle\n",
            "      0   1   2   3 \n",
            "    +---+---+---+---+\n",
            " 0  | 0 | 0 | 1 | 1 |\n",
            "    +---+---+---+---+\n",
            " 1  | 3 | 3 | 2 | 2 |\n",
            "    +---+---+---+---+\n",
            " 2  | 4 | 4 | 5 | 5 |\n",
            "    +---+---+---+---+\n",
            " 3  | 7 | 7 | 6 | 6 |\n",
            "    +---+---+---+---+\n",
        )
    );
    check_all(text);
}

#[test]
fn the_128_byte_swizzle_permutes_each_rows_chunks() {
    // 16-bit elements, 64 per 128-byte row: chunk j of row i lands at
    // chunk j ^ (i % 8), the bank-conflict-free pattern
    let p = CutePicture::parse("Sw<3,3,3> o _0 o (8,64):(64,1)").unwrap();
    for i in 0..8u64 {
        for j in 0..8u64 {
            let v = p.offset_at(i, 8 * j, 0).unwrap().unwrap();
            assert_eq!(
                p.chunk(v),
                Some((8 * i + (j ^ i)) as i64),
                "row {i} chunk {j}"
            );
        }
    }
    check_all("Sw<3,3,3> o _0 o (8,64):(64,1)");
    check_all("Sw<2,0,-3> o _5 o (8,(2,4)):(1,(8,16))");
}

#[test]
fn higher_ranks_stack_sheets_and_strides_0_share_offsets() {
    let p = CutePicture::parse("(2,2,(2,3)):(1,2,(4,8))").unwrap();
    assert_eq!(p.grid(), (2, 2, 6));
    assert!(p.text().contains("sheet 5 (modes 2 and up at index 5)\n"));
    check_all("(2,2,(2,3)):(1,2,(4,8))");
    check_all("(2,3,2,2):(_0,1,-3,12)");
    let p = CutePicture::parse("(2,2):(0,1)").unwrap();
    assert_eq!(p.memory(), "0 (0,0) (1,0)\n1 (0,1) (1,1)\n");
}

#[test]
fn large_layouts_draw_the_first_rows_and_columns() {
    let p = CutePicture::parse("(4096,4096):(4096,1)").unwrap();
    let t = p.text();
    assert!(t.contains("… rows 64..4096 are not drawn\n"), "{t}");
    assert!(t.contains("… columns 64..4096 are not drawn\n"));
    assert!(t.len() < 1 << 20);
    assert!(p.svg().len() < 1 << 20);
    assert_eq!(p.offset_at(4095, 4095, 0).unwrap(), Some(4096 * 4096 - 1));
}

#[test]
fn errors_are_the_algebras_with_spans() {
    let e = CutePicture::parse("(2,3):(1,2").unwrap_err();
    assert_eq!((e.span.start, e.span.end), (10, 10));
    let e = CutePicture::parse("(2,x):(1,2)").unwrap_err();
    assert_eq!((e.span.start, e.span.end), (3, 4));
    assert!(CutePicture::parse("Sw<3,3> o _0 o 8:1").is_err());
    // offsets past i64 are refused up front, not met halfway through a
    // listing
    for t in [
        "9223372036854775807:2",
        "Sw<3,3,3> o 9223372036854775807 o 8:1",
        "Sw<3,3,3> o -9223372036854775807 o 8:-1",
    ] {
        let e = CutePicture::parse(t).unwrap_err();
        assert_eq!(
            e.kind,
            tilelayout::algebra::AlgebraErrorKind::Overflow,
            "{t}"
        );
    }
    let p = CutePicture::parse("(2,2):(4611686018427387904,1)").unwrap();
    assert_eq!(
        p.slots(),
        "0 1
4611686018427387904 4611686018427387905
"
    );
}

#[test]
fn input_kinds() {
    for t in [
        "(8,(2,4)):(1,(8,16))",
        " _8:_1",
        "8:1",
        "((2,2)):((1,2))",
        "Sw<3,3,3> o _0 o 8:1",
        "-1",
    ] {
        assert!(is_cute(t), "{t}");
    }
    for t in [
        "f32[3,5]",
        "bf16[8]{0}",
        "(f32[2], s8[4])",
        "()",
        "",
        "token[]",
    ] {
        assert!(!is_cute(t), "{t}");
    }
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

/// Parses the SVG, checks every labelled cell's offset against
/// [`expected`] and its pixels against [`CutePicture::colour`]; returns
/// the number of cells.
fn check_svg(text: &str) -> usize {
    let p = CutePicture::parse(text).unwrap();
    let svg = p.svg();
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    let pixels = render(&svg);
    let mut n_cells = 0;
    for node in doc.descendants().filter(|n| n.has_attribute("data-offset")) {
        let get = |a: &str| node.attribute(a).unwrap().parse::<i64>().unwrap();
        let (m, n, k, v) = (
            get("data-m"),
            get("data-n"),
            get("data-k"),
            get("data-offset"),
        );
        assert_eq!(
            v,
            expected(p.layout(), m as u64, n as u64, k as u64),
            "{text}"
        );
        assert_eq!(node.text(), Some(v.to_string().as_str()));
        // the rect just before the label is the cell; sample its top-left
        let rect = node.prev_sibling_element().unwrap();
        let x: f64 = rect.attribute("x").unwrap().parse().unwrap();
        let y: f64 = rect.attribute("y").unwrap().parse().unwrap();
        let c = pixels.pixel(x as u32 + 3, y as u32 + 3).unwrap();
        assert_eq!(
            [c.red(), c.green(), c.blue()],
            p.colour(v),
            "{text} cell ({m},{n},{k})"
        );
        n_cells += 1;
    }
    n_cells
}

#[test]
fn svg_cells_parse_and_render_in_cutes_colours() {
    assert_eq!(check_svg("(4,(2,2)):(2,(1,8))"), 16);
    // grey by offset % 8, as CuTe's TSVGColor_BWx8
    let p = CutePicture::parse("8:1").unwrap();
    assert_eq!(p.colour(0), [255, 255, 255]);
    assert_eq!(p.colour(7), [80, 80, 80]);
    assert_eq!(p.colour(9), [230, 230, 230]);
    assert_eq!(check_svg("Sw<3,3,3> o _0 o (8,64):(64,1)"), 512);
    assert_eq!(check_svg("(2,2,2):(4,1,2)"), 8);
}

#[test]
fn swizzle_svg_marks_chunk_borders() {
    let svg = CutePicture::parse("Sw<3,3,3> o _0 o (8,64):(64,1)")
        .unwrap()
        .svg();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let path = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("chunks"))
        .unwrap();
    // 7 borders between the 8 chunks of each of the 8 rows
    assert_eq!(path.attribute("d").unwrap().matches('M').count(), 56);
    let plain = CutePicture::parse("(8,64):(64,1)").unwrap().svg();
    assert!(!plain.contains("class=\"chunks\""));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random rank-2 and rank-3 layouts with nested modes, any swizzle:
    /// every cell agrees with `crd2idx` (and the hand-written swizzle).
    #[test]
    fn every_cell_agrees_with_crd2idx(
        s in proptest::collection::vec(1u64..5, 4),
        d in proptest::collection::vec(-9i64..40, 4),
        rank3 in any::<bool>(),
        sw in proptest::option::of((0i32..4, 0i32..4, 0i32..5)),
    ) {
        let layout = if rank3 {
            format!("(({},{}),{},{}):(({},{}),{},{})", s[0], s[1], s[2], s[3], d[0], d[1], d[2], d[3])
        } else {
            format!("(({},{}),({},{})):(({},{}),({},{}))", s[0], s[1], s[2], s[3], d[0], d[1], d[2], d[3])
        };
        let text = match sw {
            Some((b, m, sh)) if sh >= b => format!("Sw<{b},{m},{sh}> o _0 o {layout}"),
            _ => layout,
        };
        check_all(&text);
    }
}

#[test]
fn the_largest_pictures_stay_small_and_fast() {
    for text in [
        "(4096,4096):(4096,1)",
        "Sw<3,3,3> o _0 o (4096,4096):(4096,1)",
        "(64,64,(64,64)):(1,64,(4096,262144))",
        "(2,2,(1024,1024)):(1,2,(4,4096))",
        "_16777216:_1",
    ] {
        let t0 = std::time::Instant::now();
        let p = CutePicture::parse(text).unwrap();
        let (svg, txt) = (p.svg(), p.text());
        let took = t0.elapsed();
        assert!(svg.len() <= 1 << 20, "{text}: SVG of {} bytes", svg.len());
        assert!(txt.len() <= 1 << 20, "{text}: text of {} bytes", txt.len());
        // a generous bound for an unoptimized build on a shared machine
        assert!(took.as_millis() < 2000, "{text}: {took:?}");
        roxmltree::Document::parse(&svg).unwrap();
    }
    let p = CutePicture::parse("(2,2,(1024,1024)):(1,2,(4,4096))").unwrap();
    assert!(p.text().contains("… sheets 1024..1048576 are not drawn\n"));
}

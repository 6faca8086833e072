//! `tilelayout draw`: the pictures from a shell, their formats, the SVG
//! file, parse's errors for bad input, and every real shape.

use std::path::PathBuf;

use serde_json::Value;

mod common;
use common::*;

#[test]
fn text_is_the_default() {
    let o = run(&["draw", "f32[3,5]{1,0:T(2,2)}"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(concat!(
            "0     0      1 |    4      5 |    8    (9)\n",
            "1     2      3 |    6      7 |   10   (11)\n",
            "   ------------+-------------+------------\n",
            "2    12     13 |   16     17 |   20   (21)\n",
            "3  (14)   (15) | (18)   (19) | (22)   (23)\n",
        )),
        "{out}"
    );
    assert!(out.contains("memory: slots in order"), "{out}");
}

#[test]
fn slots_and_memory_formats() {
    let o = run(
        &["draw", "--format", "slots", "f32[4,8]{1,0:T(2,4)(2,1)}"],
        b"",
    );
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        "0 2 4 6 8 10 12 14\n1 3 5 7 9 11 13 15\n16 18 20 22 24 26 28 30\n17 19 21 23 25 27 29 31\n"
    );
    let o = run(&["draw", "--format", "memory", "f32[3,5]{1,0:T(2,2)}"], b"");
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 24);
    assert_eq!(lines[17], "17 (2,3)");
    assert_eq!(lines[9], "9 pad");
    let o = run(&["draw", "--format", "picture", "f32[3]"], b"");
    assert_eq!(code(&o), 2, "an unknown format is a usage error");
}

#[test]
fn svg_to_a_file_and_to_stdout() {
    let dir = std::env::temp_dir().join(format!("tilelayout-draw-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join("fig2.svg");
    let f = file.to_str().unwrap();
    let o = run(&["draw", "f32[4,8]{1,0:T(2,4)(2,1)}", "--svg", f], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("wrote {f}\n"));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    let o = run(&["draw", "f32[4,8]{1,0:T(2,4)(2,1)}", "--svg", "-"], b"");
    assert_eq!(stdout(&o), svg);
    // --svg and --format together: the file, and the format on stdout
    let o = run(
        &[
            "draw",
            "f32[4,8]{1,0:T(2,4)(2,1)}",
            "--svg",
            f,
            "--format",
            "slots",
        ],
        b"",
    );
    assert!(stdout(&o).starts_with("0 2 4 6"), "{}", stdout(&o));
    // one layout per SVG
    let o = run(&["draw", "f32[2]", "f32[3]", "--svg", f], b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("one LAYOUT"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad input gets exactly `parse`'s diagnostics: the same message, the
/// same byte range, the same caret.
#[test]
fn errors_are_parses() {
    for bad in [
        "f32[3,5]{1,1:T(2,2)}",
        "f32[3,5]{1,0:T(0,2)}",
        "f32[3,5",
        "f33[3]",
        "f32[3,5]{1,0:T(2,-1)}",
        "f32[3]{0:T(9223372036854775808)}",
    ] {
        let d = run(&["draw", bad], b"");
        let p = run(&["parse", bad], b"");
        assert_eq!(code(&d), 1, "{bad}");
        assert_eq!(stderr(&d), stderr(&p), "{bad}");
        assert!(stderr(&d).contains('^'), "{bad}: {}", stderr(&d));
        let d = json_lines(&run(&["draw", "--json", bad], b""));
        let p = json_lines(&run(&["parse", "--json", bad], b""));
        for field in ["error", "error_start", "error_end"] {
            assert_eq!(d[0][field], p[0][field], "{bad}: {field}");
        }
        assert_eq!(d[0]["ok"], false);
        assert_eq!(d[0]["picture"], Value::Null);
    }
    // shapes that parse but have no index math
    for (text, what) in [
        ("(f32[2], s8[4])", "tuple"),
        ("f32[<=4]", "dynamic"),
        ("token[]", "token"),
    ] {
        let o = run(&["draw", text], b"");
        assert_eq!(code(&o), 1, "{text}");
        assert!(
            stderr(&o).contains("error:"),
            "{text} ({what}): {}",
            stderr(&o)
        );
    }
}

#[test]
fn stdin_lines_each_drawn() {
    let o = run(
        &["draw", "--json", "--format", "slots", "-"],
        b"f32[2,2]{0,1}\nf32[3,5]{1,1}\nf32[3]\n",
    );
    assert_eq!(code(&o), 1, "one line was rejected");
    let v = json_lines(&o);
    assert_eq!(v.len(), 3);
    assert_eq!(v[0]["picture"], "0 2\n1 3\n");
    assert_eq!(v[1]["ok"], false);
    assert_eq!(v[2]["picture"], "0 1 2\n");
    assert_eq!(v[2]["format"], "slots");
}

/// Every real shape draws without error, each picture within 1 MB (the
/// 50 ms limit is checked in release by the library's
/// `tests/draw_real_shapes.rs`).
#[test]
fn every_real_shape_draws() {
    let text = std::fs::read_to_string(data_dir().join("real_shapes_dev.tsv")).unwrap();
    let shapes: Vec<&str> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .filter(|s| !s.is_empty())
        .collect();
    let input = shapes.join("\n");
    let o = run(&["draw", "--json", "-"], input.as_bytes());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json_lines(&o);
    assert_eq!(v.len(), shapes.len());
    for (record, shape) in v.iter().zip(&shapes) {
        assert_eq!(record["input"], *shape);
        assert_eq!(record["ok"], true, "{shape}: {}", record["error"]);
        let picture = record["picture"].as_str().unwrap();
        assert!(picture.len() <= 1 << 20, "{shape}: {} bytes", picture.len());
        assert!(picture.contains("memory: slots in order"), "{shape}");
    }
}

#[test]
fn cute_layouts_are_drawn_as_print_layout() {
    let o = run(&["draw", "(4,(2,2)):(2,(1,8))"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains(" 1  |  2 |  3 | 10 | 11 |\n"),
        "{}",
        stdout(&o)
    );
    let o = run(
        &[
            "draw",
            "Sw<3,3,3> o _0 o (8,64):(64,1)",
            "--format",
            "slots",
        ],
        b"",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let rows: Vec<Vec<i64>> = stdout(&o)
        .lines()
        .map(|l| l.split(' ').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!((rows.len(), rows[0].len()), (8, 64));
    // row 1, element 0 is chunk 1 of the row, swapped with chunk 0
    assert_eq!(rows[1][0], 64 + 8);
    let dir = tempdir();
    let file = dir.join("sw.svg");
    let o = run(
        &[
            "draw",
            "Sw<3,3,3> o _0 o (8,64):(64,1)",
            "--svg",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(is_one_svg_document(&svg));
}

/// One SVG document (parsed as XML and rendered by tests/draw_cute.rs).
fn is_one_svg_document(svg: &str) -> bool {
    svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>") && svg.contains("data-offset")
}

fn tempdir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("tilelayout-draw-cute-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn cute_errors_have_the_algebras_spans() {
    let o = run(&["draw", "(2,3):(1,2"], b"");
    assert_ne!(code(&o), 0);
    let err = stderr(&o);
    assert!(err.contains("unexpected end of input"), "{err}");
    assert!(err.contains("byte 10"), "{err}");
    let o = run(&["draw", "--json", "(2,x):(1,2)"], b"");
    let v = &json_lines(&o)[0];
    assert_eq!(v["ok"], false);
    assert_eq!(
        (v["error_start"].as_u64(), v["error_end"].as_u64()),
        (Some(3), Some(4))
    );
    // XLA text keeps parse's errors
    let o = run(&["draw", "f32[3,5]{1,1}"], b"");
    assert_ne!(code(&o), 0);
}

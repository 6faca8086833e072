//! Runs the built `tilelayout` binary: every subcommand, from arguments
//! and from stdin, the JSON fields on real layouts, the exit statuses, and
//! bad input (which must be rejected, never panic).

use std::path::PathBuf;

use serde_json::Value;

mod common;
use common::*;

const SEED: &str = "f32[3,5]{1,0:T(2,2)}";

// ---- parse ------------------------------------------------------------------

#[test]
fn parse_json_has_the_seed_figure_sizes() {
    let (v, c) = one(&["parse", "--json", SEED]);
    assert_eq!(c, 0);
    assert_eq!(v["input"], SEED);
    assert_eq!(v["ok"], true);
    assert_eq!(v["canonical"], SEED);
    assert_eq!(v["error"], Value::Null);
    assert_eq!(v["error_start"], Value::Null);
    assert_eq!(v["kind"], "array");
    assert_eq!(v["elements"], 15);
    assert_eq!(v["slots"], 24);
    assert_eq!(v["bytes"], 96);
    assert_eq!(v["xla_bytes"], 96);
    assert_eq!(v["unpadded_bytes"], 60);
    assert_eq!(v["padding_bytes"], 36);
    assert_eq!(v["padding_percent"], 37.5);
    assert_eq!(v["physical_dims"], serde_json::json!([3, 5]));
    assert_eq!(v["expanded_dims"], serde_json::json!([2, 3, 2, 2]));
}

#[test]
fn parse_json_xla_bytes_follow_array_size() {
    let (v, _) = one(&["parse", "--json", "bf16[16,1280,40]{2,1,0:T(8,128)(2,1)}"]);
    assert_eq!(v["xla_bytes"], 5242880);
    assert_eq!(v["elements"], 819200);
    // later tiles pad too in the exact count, not in XLA's
    let (v, _) = one(&["parse", "--json", "u8[327680,327680]{1,0:T(8,128)(4,1)}"]);
    assert_eq!(v["xla_bytes"], 107374182400u64);
    assert_eq!(v["physical_dims"], serde_json::json!([327680, 327680]));
}

#[test]
fn parse_accepts_uppercase_types_and_prints_lowercase() {
    let (v, c) = one(&["parse", "--json", "F32[3,5]"]);
    assert_eq!((v["ok"].clone(), c), (Value::Bool(true), 0));
    assert_eq!(v["canonical"], "f32[3,5]{1,0}");
}

#[test]
fn parse_invalid_but_parsed_keeps_its_canonical_text() {
    let (v, c) = one(&["parse", "--json", "f32[3,5]{1,1}"]);
    assert_eq!(c, 1);
    assert_eq!(v["ok"], false);
    assert_eq!(v["canonical"], "f32[3,5]{1,1}");
    assert_eq!(
        (v["error_start"].clone(), v["error_end"].clone()),
        (11.into(), 12.into())
    );
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("twice") && e.ends_with("at byte 11"), "{e}");
    assert_eq!(v["slots"], Value::Null);
    assert_eq!(v["xla_bytes"], Value::Null);
}

#[test]
fn parse_unparsable_has_no_canonical_text() {
    let (v, c) = one(&["parse", "--json", "f32[3,5]{1,0:T(2;2)}"]);
    assert_eq!(c, 1);
    assert_eq!(v["ok"], false);
    assert_eq!(v["canonical"], Value::Null);
    assert_eq!(v["kind"], Value::Null);
    assert_eq!(v["error_start"], 16);
    assert!(v["error"].as_str().unwrap().ends_with("at byte 16"));
}

#[test]
fn parse_tuples_print_like_xla_and_have_no_sizes() {
    let (v, c) = one(&["parse", "--json", "(f32[],f32[],f32[],f32[],f32[],s8[4])"]);
    assert_eq!(c, 0);
    assert_eq!(v["ok"], true);
    assert_eq!(v["kind"], "tuple");
    assert_eq!(
        v["canonical"],
        "(f32[], f32[], f32[], f32[], f32[], /*index=5*/s8[4]{0})"
    );
    for field in [
        "elements",
        "slots",
        "bytes",
        "xla_bytes",
        "padding_percent",
        "physical_dims",
    ] {
        assert_eq!(v[field], Value::Null, "{field}");
    }
    // an invalid element makes the tuple invalid, located in the text
    let (v, c) = one(&["parse", "--json", "(f32[2]{0}, f32[3,5]{1,1})"]);
    assert_eq!(c, 1);
    assert_eq!(v["ok"], false);
    assert_eq!(v["canonical"], "(f32[2]{0}, f32[3,5]{1,1})");
    assert_eq!(v["error_start"], 23);
    let (v, _) = one(&["parse", "--json", "b(f32[4])"]);
    assert_eq!(
        (v["kind"].clone(), v["canonical"].clone()),
        ("buffer".into(), "b(f32[4]{0})".into())
    );
}

#[test]
fn parse_unbounded_dynamic_and_token_shapes_are_valid_without_sizes() {
    for (text, canonical) in [("f32[<=3,?]", "f32[<=3,?]{1,0}"), ("token[]", "token[]")] {
        let (v, c) = one(&["parse", "--json", text]);
        assert_eq!((v["ok"].clone(), c), (Value::Bool(true), 0), "{text}");
        assert_eq!(v["canonical"], canonical);
        assert_eq!(v["bytes"], Value::Null);
    }
}

/// Bounded dynamic dims are sized at their bounds, as XLA reserves them:
/// `elements`, `slots`, `bytes`, `xla_bytes` of the static shape with each
/// `<=N` replaced by `N` (worked out by hand), and `at_bound` says so.
#[test]
fn parse_bounded_dynamic_dims_are_sized_at_the_bound() {
    for (text, bound, elements, slots, bytes) in [
        // 2^22 f32 in 1024-element tiles: no padding
        (
            "f32[<=4194304]{0:T(1024)}",
            "f32[4194304]{0:T(1024)}",
            4194304u64,
            4194304u64,
            16777216u64,
        ),
        // M(1024) is metadata XLA keeps in front; not part of the array's bytes
        (
            "s32[<=4096]{0:T(8)M(1024)}",
            "s32[4096]{0:T(8)M(1024)}",
            4096,
            4096,
            16384,
        ),
        // the obsolete D(…) is dropped: f32[4,4]{1,0}
        ("f32[4,<=4]{1,0:D(D,C)}", "f32[4,4]{1,0}", 16, 16, 64),
        // 1000 elements pad to one 1024-element tile
        (
            "f32[<=1000]{0:T(1024)}",
            "f32[1000]{0:T(1024)}",
            1000,
            1024,
            4096,
        ),
    ] {
        let (v, c) = one(&["parse", "--json", text]);
        assert_eq!((v["ok"].clone(), c), (Value::Bool(true), 0), "{text}: {v}");
        assert_eq!(v["at_bound"], true, "{text}");
        assert_eq!(v["elements"], elements, "{text}");
        assert_eq!(v["slots"], slots, "{text}");
        assert_eq!(v["bytes"], bytes, "{text}");
        assert_eq!(v["xla_bytes"], bytes, "{text}");
        // the same sizes as the static shape at the bound, which is not
        // `at_bound`
        let (w, _) = one(&["parse", "--json", bound]);
        assert_eq!(w["at_bound"], false, "{bound}");
        for k in [
            "elements",
            "slots",
            "bytes",
            "xla_bytes",
            "physical_dims",
            "expanded_dims",
        ] {
            assert_eq!(v[k], w[k], "{text} vs {bound}: {k}");
        }
        let o = run(&["parse", text], b"");
        assert_eq!(code(&o), 0);
        let s = stdout(&o);
        let want = format!("at the bound, {bound}");
        assert!(
            s.lines()
                .any(|l| l.trim_start().starts_with("sizes") && l.ends_with(&want)),
            "missing {want:?} in\n{s}"
        );
        let bytes_row = ["bytes".to_owned(), bytes.to_string()];
        assert!(
            s.lines().any(|l| l
                .split_whitespace()
                .map(str::to_owned)
                .eq(bytes_row.clone())),
            "missing bytes {bytes} in\n{s}"
        );
    }
    // a static shape says nothing about bounds
    let (v, _) = one(&["parse", "--json", SEED]);
    assert_eq!(v["at_bound"], false);
}

#[test]
fn parse_text_summary_lists_dims_levels_and_sizes() {
    let o = run(&["parse", "bf16[16,1280,40]{2,1,0:T(8,128)(2,1)}"], b"");
    assert_eq!(code(&o), 0);
    assert!(o.stderr.is_empty());
    let s = stdout(&o);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines[0], "bf16[16,1280,40]{2,1,0:T(8,128)(2,1)}");
    for want in [
        "valid           yes",
        "physical dims   [16,1280,40]",
        "after T(8,128)  [16,160,1,8,128]",
        "after T(2,1)    [16,160,1,4,128,2,1]",
        "elements        819200",
        "slots           2621440",
        "bytes           5242880",
        "xla_bytes       5242880",
        "padding         3604480 bytes (68.75%)",
    ] {
        assert!(
            lines.iter().any(|l| l.trim() == want),
            "missing {want:?} in\n{s}"
        );
    }
}

#[test]
fn parse_text_errors_go_to_stderr_with_a_caret() {
    let o = run(
        &["parse", SEED, "f32[3,5]{1,0:T(2;2)}", "f32[3,5]{1,1}"],
        b"",
    );
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(out.starts_with(SEED), "{out}");
    assert!(
        out.contains("f32[3,5]{1,1}\n  valid  no"),
        "invalid shapes still print: {out}"
    );
    let err = stderr(&o);
    let expected = "error: expected `,` or `)` in the tile, found `;`\n --> argument 2, byte 16\n  |\n  | f32[3,5]{1,0:T(2;2)}\n  |                 ^\n";
    assert!(err.contains(expected), "{err}");
    assert!(
        err.contains(" --> argument 3, byte 11\n  |\n  | f32[3,5]{1,1}\n  |            ^\n"),
        "{err}"
    );
}

#[test]
fn parse_reads_stdin_lines_in_order_skipping_blank_lines_and_comments() {
    let o = run(
        &["parse", "--json", "f32[1]", "-", "f32[3]"],
        b"f32[2]\r\n\n# a comment\n   \nbf16[4]{0:T(128)}\tfrom somewhere\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json_lines(&o);
    let inputs: Vec<&str> = v.iter().map(|o| o["input"].as_str().unwrap()).collect();
    assert_eq!(inputs, ["f32[1]", "f32[2]", "bf16[4]{0:T(128)}", "f32[3]"]);
    assert_eq!(v[2]["slots"], 128);
}

#[test]
fn tsv_files_are_read_by_path_and_from_stdin() {
    let tsv = data_dir().join("real_shapes_dev.tsv");
    let text = std::fs::read_to_string(&tsv).unwrap();
    let rows = text.lines().count() - 1; // the header is skipped
    for args in [
        vec!["parse", "--json", tsv.to_str().unwrap()],
        vec!["parse", "--json", "-"],
        vec!["tpu", "--json", "--check", tsv.to_str().unwrap()],
    ] {
        let o = run(&args, text.as_bytes());
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        let v = json_lines(&o);
        assert_eq!(v.len(), rows, "{args:?}");
        assert!(v.iter().all(|o| o["ok"] == true), "{args:?}");
    }
    // a line's error names the file and line
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let bad = dir.join("bad-shapes.txt");
    std::fs::write(&bad, "# shapes\nf32[2]\nf32[3,5]{1,1}\n").unwrap();
    let o = run(&["parse", bad.to_str().unwrap()], b"");
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("bad-shapes.txt line 3"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn parse_every_real_shape_from_stdin() {
    let rows = rows("real_shapes_dev.tsv");
    let input: String = rows.iter().map(|(_, c)| format!("{}\n", c[0])).collect();
    let o = run(&["parse", "-", "--json"], input.as_bytes());
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let v = json_lines(&o);
    assert_eq!(v.len(), rows.len());
    for ((line, cols), obj) in rows.iter().zip(&v) {
        assert_eq!(obj["input"], cols[0].as_str(), "line {line}");
        assert_eq!(obj["ok"], true, "line {line}: {obj}");
        assert!(obj["bytes"].as_u64().is_some(), "line {line}: {obj}");
        assert!(
            obj["xla_bytes"].as_u64().unwrap() <= obj["bytes"].as_u64().unwrap(),
            "line {line}"
        );
        // the canonical text parses to itself
        assert!(obj["canonical"].is_string(), "line {line}");
    }
}

#[test]
fn parse_verdicts_and_bytes_match_the_xla_vectors() {
    let rows = rows("xla_vectors_dev.tsv");
    let pick = |kind: &str| -> Vec<(usize, String, String)> {
        rows.iter()
            .filter(|(_, c)| c[0] == kind)
            .map(|(l, c)| (*l, c[1].clone(), c.get(2).cloned().unwrap_or_default()))
            .collect()
    };
    for (kind, want_ok) in [("valid", true), ("invalid", false)] {
        let cases = pick(kind);
        assert!(!cases.is_empty());
        let input: String = cases.iter().map(|(_, s, _)| format!("{s}\n")).collect();
        let v = json_lines(&run(&["parse", "--json", "-"], input.as_bytes()));
        for ((line, shape, _), obj) in cases.iter().zip(&v) {
            assert_eq!(obj["ok"], want_ok, "line {line}: {shape}: {obj}");
        }
    }
    let cases = pick("bytes");
    let input: String = cases.iter().map(|(_, s, _)| format!("{s}\n")).collect();
    let v = json_lines(&run(&["parse", "--json", "-"], input.as_bytes()));
    for ((line, shape, bytes), obj) in cases.iter().zip(&v) {
        assert_eq!(obj["xla_bytes"].to_string(), *bytes, "line {line}: {shape}");
    }
}

// ---- index --------------------------------------------------------------------

#[test]
fn index_from_arguments() {
    let o = run(&["index", SEED, "2,3", "(0,1)", " 1 , 0 "], b"");
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        format!("{SEED}@2,3 -> 17\n{SEED}@(0,1) -> 1\n{SEED}@ 1 , 0  -> 2\n")
    );
    let (v, c) = one(&["index", "--json", SEED, "2,3"]);
    assert_eq!(c, 0);
    assert_eq!(
        v,
        serde_json::json!({
            "input": format!("{SEED}@2,3"), "ok": true, "offset": 17,
            "byte": null, "bit": null,
            "error": null, "error_start": null, "error_end": null,
        })
    );
}

#[test]
fn index_of_a_scalar() {
    for q in ["", "()", " ( ) "] {
        let (v, c) = one(&["index", "--json", "f32[]{:T(128)}", q]);
        assert_eq!((v["offset"].clone(), c), (0.into(), 0), "{q:?}");
    }
    let o = run(&["index", "--json", "-"], b"f32[]@\nf32[]@()\n");
    let offsets: Vec<Value> = json_lines(&o).iter().map(|v| v["offset"].clone()).collect();
    assert_eq!(offsets, [0, 0]);
}

#[test]
fn index_errors_point_at_the_coordinate() {
    let (v, c) = one(&["index", "--json", SEED, "1,5"]);
    assert_eq!(c, 1);
    assert_eq!(v["ok"], false);
    assert_eq!(v["offset"], Value::Null);
    // `f32[3,5]{1,0:T(2,2)}@1,5`: the 5 is byte 23
    assert_eq!(
        (v["error_start"].clone(), v["error_end"].clone()),
        (23.into(), 24.into())
    );
    assert!(v["error"].as_str().unwrap().contains("out of bounds"));
    let (v, _) = one(&["index", "--json", SEED, "1"]);
    assert!(v["error"].as_str().unwrap().contains("rank 2"), "{v}");
    let (v, _) = one(&["index", "--json", SEED, "1,99999999999999999999"]);
    assert_eq!(v["error_start"], 23);
    let (v, _) = one(&["index", "--json", "(f32[2], f32[3])", "0"]);
    assert!(
        v["error"].as_str().unwrap().contains("not for tuples"),
        "{v}"
    );
    let (v, _) = one(&["index", "--json", "f32[<=4]", "0"]);
    assert!(v["error"].as_str().unwrap().contains("dynamic"), "{v}");
    let (v, _) = one(&["index", "--json", "f32[3,5]{1,1}", "0,0"]);
    assert_eq!(
        v["error_start"], 11,
        "validity errors are located in the shape"
    );
}

#[test]
fn index_matches_every_xla_index_vector_from_stdin() {
    let cases: Vec<(usize, String, String)> = rows("xla_vectors_dev.tsv")
        .into_iter()
        .filter(|(_, c)| c[0] == "index")
        .map(|(l, c)| (l, c[1].clone(), c[2].clone()))
        .collect();
    assert!(cases.len() > 10);
    let input: String = cases.iter().map(|(_, q, _)| format!("{q}\n")).collect();
    let o = run(&["index", "-", "--json"], input.as_bytes());
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let v = json_lines(&o);
    assert_eq!(v.len(), cases.len());
    for ((line, q, want), obj) in cases.iter().zip(&v) {
        assert_eq!(obj["input"], q.as_str());
        assert_eq!(obj["offset"].to_string(), *want, "line {line}: {q}");
    }
}

#[test]
fn index_stdin_lines_without_an_at_sign_are_rejected() {
    let o = run(
        &["index", "--json", "-"],
        format!("{SEED}\n{SEED}@2,3\n").as_bytes(),
    );
    assert_eq!(code(&o), 1);
    let v = json_lines(&o);
    assert_eq!(v[0]["ok"], false);
    assert!(v[0]["error"].as_str().unwrap().contains('@'));
    assert_eq!(v[1]["offset"], 17);
}

// ---- coords -------------------------------------------------------------------

#[test]
fn coords_of_elements_and_padding() {
    let (v, c) = one(&["coords", "--json", SEED, "9"]);
    assert_eq!(c, 0, "a padding slot is an answer, not an error");
    assert_eq!(
        v,
        serde_json::json!({
            "input": format!("{SEED}@9"), "ok": true, "coords": null, "padding": true,
            "error": null, "error_start": null, "error_end": null,
        })
    );
    let (v, _) = one(&["coords", "--json", SEED, "17"]);
    assert_eq!(
        (v["coords"].clone(), v["padding"].clone()),
        (serde_json::json!([2, 3]), false.into())
    );
    let (v, c) = one(&["coords", "--json", SEED, "24"]);
    assert_eq!(c, 1);
    assert_eq!(
        (v["ok"].clone(), v["padding"].clone()),
        (false.into(), Value::Null)
    );
    assert_eq!(v["error_start"], 21);
    let o = run(&["coords", SEED, "17", "9"], b"");
    assert_eq!(
        stdout(&o),
        format!("{SEED}@17 -> (2,3)\n{SEED}@9 -> padding\n")
    );
}

#[test]
fn coords_padding_of_the_seed_figure_from_stdin_slots() {
    let slots: String = (0..24).map(|s| format!("{s}\n")).collect();
    let o = run(&["coords", SEED, "-", "--json"], slots.as_bytes());
    assert_eq!(code(&o), 0);
    let padding: Vec<usize> = json_lines(&o)
        .iter()
        .enumerate()
        .filter(|(_, v)| v["padding"] == true)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(padding, [9, 11, 14, 15, 18, 19, 21, 22, 23]);
}

#[test]
fn coords_match_every_xla_delinearize_vector_from_stdin() {
    let cases: Vec<(String, String)> = rows("xla_vectors_dev.tsv")
        .into_iter()
        .filter(|(_, c)| c[0] == "delinearize")
        .map(|(_, c)| (c[1].clone(), c[2].clone()))
        .collect();
    assert!(!cases.is_empty());
    let input: String = cases.iter().map(|(q, _)| format!("{q}\n")).collect();
    let v = json_lines(&run(&["coords", "--json", "-"], input.as_bytes()));
    for ((q, want), obj) in cases.iter().zip(&v) {
        let got: Vec<String> = obj["coords"]
            .as_array()
            .expect(q)
            .iter()
            .map(Value::to_string)
            .collect();
        assert_eq!(got.join(","), *want, "{q}");
    }
}

#[test]
fn index_and_coords_are_inverse_on_the_bf16_pairing() {
    // 4×8 by (2,4)(2,1): row 0 → 0 2 4 … 14, row 1 → 1 3 … 15, row 2 → 16 …
    let shape = "f32[4,8]{1,0:T(2,4)(2,1)}";
    let queries: String = (0..4)
        .flat_map(|i| (0..8).map(move |j| format!("{shape}@{i},{j}\n")))
        .collect();
    let v = json_lines(&run(&["index", "--json", "-"], queries.as_bytes()));
    let offsets: Vec<u64> = v.iter().map(|o| o["offset"].as_u64().unwrap()).collect();
    assert_eq!(&offsets[..8], &[0, 2, 4, 6, 8, 10, 12, 14]);
    assert_eq!(&offsets[8..16], &[1, 3, 5, 7, 9, 11, 13, 15]);
    assert_eq!(offsets[16], 16);
    let slots: String = offsets.iter().map(|s| format!("{s}\n")).collect();
    let back = json_lines(&run(&["coords", "--json", shape, "-"], slots.as_bytes()));
    for (k, obj) in back.iter().enumerate() {
        assert_eq!(obj["coords"], serde_json::json!([k / 8, k % 8]));
    }
}

// ---- exit statuses and bad input ----------------------------------------------

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["parse"],
        &["parse", "--nope", "f32[]"],
        &["index"],
        &["index", SEED],
        &["index", "-", "2,3"],
        &["coords", SEED],
        &["index", SEED, "-1"],
    ] {
        let o = run(args, b"");
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(!o.stderr.is_empty(), "{args:?}");
    }
    assert_eq!(code(&run(&["--help"], b"")), 0);
    assert_eq!(code(&run(&["index", "--help"], b"")), 0);
}

#[test]
fn exit_1_when_any_input_is_rejected() {
    assert_eq!(code(&run(&["parse", SEED, "f32[2]"], b"")), 0);
    assert_eq!(code(&run(&["parse", SEED, "nope", "f32[2]"], b"")), 1);
    assert_eq!(code(&run(&["index", SEED, "0,0", "9,9"], b"")), 1);
    assert_eq!(code(&run(&["coords", "--json", SEED, "0", "x"], b"")), 1);
}

#[test]
fn json_flag_goes_before_or_after_the_subcommand() {
    let a = run(&["--json", "parse", SEED], b"");
    let b = run(&["parse", SEED, "--json"], b"");
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(json_lines(&a)[0]["slots"], 24);
}

#[test]
fn garbage_is_rejected_without_panicking() {
    let mut input = Vec::new();
    input.extend_from_slice(b"\xff\xfe\x00garbage\x1b[31m\n");
    input.extend_from_slice(b"f32[99999999999999999999999999]\n");
    input.extend_from_slice(b"f32[9223372036854775807,9223372036854775807]{1,0:T(8,128)}\n");
    input.extend_from_slice(format!("f32[{}1]\n", "1,".repeat(5000)).as_bytes());
    input.extend_from_slice(format!("{}f32[]{}\n", "(".repeat(500), ")".repeat(500)).as_bytes());
    input.extend_from_slice(format!("f32[3]{{0:T({})}}\n", "9".repeat(2 << 20)).as_bytes());
    input.extend_from_slice(b"u8[4294967296,4294967296,4294967296]{2,1,0:T(8,128)}\n");
    input.extend_from_slice(b"f32[64]{0:E(9223372036854775807)}\n");
    input.extend_from_slice(b"f32[2]\n");
    for sub in [&["parse", "-"][..], &["index", "-"], &["coords", "-"]] {
        for json in [true, false] {
            let mut args = sub.to_vec();
            if json {
                args.push("--json");
            }
            let o = run(&args, &input);
            assert_eq!(
                code(&o),
                1,
                "{args:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            if json {
                let v = json_lines(&o);
                assert_eq!(v.len(), 9, "one object per line, {args:?}");
                assert!(v[..8].iter().all(|o| o["ok"] == false), "{args:?}");
                assert!(v[..8].iter().all(|o| o["error"].is_string()), "{args:?}");
            } else {
                let err = String::from_utf8_lossy(&o.stderr);
                assert!(!err.contains('\u{1b}'), "control characters are not echoed");
                assert!(err.len() < 20_000, "long inputs are cut in diagnostics");
            }
        }
    }
}

#[test]
fn readme_snippet_is_the_real_output() {
    let shape = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}";
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README-snippet.md");
    let snippet = std::fs::read_to_string(path).expect("read README-snippet.md");
    let text = stdout(&run(&["parse", shape], b""));
    let json = stdout(&run(&["parse", shape, "--json"], b""));
    assert!(
        snippet.contains(&format!("$ tilelayout parse '{shape}'\n{text}```")),
        "{text}"
    );
    assert!(
        snippet.contains(&format!("$ tilelayout parse '{shape}' --json\n{json}```")),
        "{json}"
    );
}

#[test]
fn tpu_json_gives_the_layout_bytes_and_padding() {
    let (v, c) = one(&["tpu", "--json", "f32[3,5]{0,1}"]);
    assert_eq!(c, 0);
    assert_eq!(v["ok"], true);
    assert_eq!(v["layout"], "f32[3,5]{0,1:T(8,128)}");
    assert_eq!(
        (v["bytes"].clone(), v["xla_bytes"].clone()),
        (4096.into(), 4096.into())
    );
    assert_eq!(v["padding_bytes"], 4036);
    let p = v["padding_percent"].as_f64().unwrap();
    assert!((p - 98.535).abs() < 0.001, "{p}");
    let (v, _) = one(&["tpu", "--json", "bf16[2,1024]"]);
    assert_eq!(v["layout"], "bf16[2,1024]{1,0:T(2,128)(2,1)}");
}

#[test]
fn tpu_rejects_tiles_in_the_input_and_unknown_formats() {
    let (v, c) = one(&["tpu", "--json", "f32[3,5]{1,0:T(8,128)}"]);
    assert_eq!((v["ok"].clone(), c), (false.into(), 1));
    assert_eq!(v["layout"], Value::Null);
    assert!(
        v["error"].as_str().unwrap().contains("minor_to_major"),
        "{v}"
    );
    assert_eq!(v["error_start"], 12);
    let (v, c) = one(&["tpu", "--json", "c128[4]"]);
    assert_eq!((v["ok"].clone(), c), (false.into(), 1));
}

#[test]
fn tpu_reads_stdin_and_agrees_with_every_real_shape() {
    // Every real shape, with its tiles removed, gets back the compiler's
    // tiles (memory spaces other than 0 are left out: the policy is for HBM).
    let mut input = String::new();
    let mut expected = Vec::new();
    for (_, cols) in rows("real_shapes_dev.tsv") {
        let text = &cols[0];
        if text.contains("S(") {
            continue;
        }
        let s = tilelayout::value::parse_shape(text).unwrap();
        let m2m: Vec<String> = s
            .layout()
            .minor_to_major()
            .iter()
            .map(|d| d.to_string())
            .collect();
        let dims = s.canonical_without_layout::<256>();
        // a scalar has no minor_to_major to give (`f32[]{}` is not XLA text)
        let bare = if s.rank() == 0 {
            dims.to_string()
        } else {
            format!("{dims}{{{}}}", m2m.join(","))
        };
        input.push_str(&bare);
        input.push('\n');
        expected.push(text.clone());
    }
    let o = run(&["tpu", "-", "--json"], input.as_bytes());
    let bad: Vec<String> = stdout(&o)
        .lines()
        .filter(|l| l.contains("\"ok\":false"))
        .map(str::to_owned)
        .collect();
    assert_eq!(code(&o), 0, "{bad:?}");
    let got: Vec<String> = json_lines(&o)
        .iter()
        .map(|v| v["layout"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn parse_takes_a_layout_on_its_own() {
    let (v, c) = one(&["parse", "--json", "{1,0:T(8,128)(2,1)}"]);
    assert_eq!((v["ok"].clone(), c), (true.into(), 0));
    assert_eq!(v["kind"], "layout");
    assert_eq!(v["canonical"], "{1,0:T(8,128)(2,1)}");
    assert_eq!(v["slots"], Value::Null);
    let (v, c) = one(&["parse", "--json", "{1, 1:T(0)}"]);
    assert_eq!((v["ok"].clone(), c), (false.into(), 1));
    assert_eq!(v["canonical"], "{1,1:T(0)}");
    assert_eq!(
        (v["error_start"].clone(), v["error_end"].clone()),
        (4.into(), 5.into())
    );
}

#[test]
fn tpu_check_says_what_differs() {
    let o = run(
        &[
            "tpu",
            "--check",
            "--json",
            "bf16[2,1024]{1,0:T(2,128)(2,1)S(1)}",
            "f32[3,5]{1,0:T(8,128)}",
            "s4[64,256]{1,0:T(8,128)(8,1)}",
            "f64[2]{0}",
        ],
        b"",
    );
    assert_eq!(code(&o), 1, "f64 has no TPU format");
    let v = json_lines(&o);
    assert_eq!(v[0]["matches"], true, "S(1) is not compared");
    assert_eq!(v[0]["policy"], "bf16[2,1024]{1,0:T(2,128)(2,1)S(1)}");
    assert_eq!(v[1]["matches"], false);
    assert_eq!(v[1]["policy"], "f32[3,5]{1,0:T(4,128)}");
    assert_eq!(
        v[1]["differences"][0],
        "tiles: T(8,128) given, the policy gives T(4,128)"
    );
    assert!(v[2]["differences"][0]
        .as_str()
        .unwrap()
        .starts_with("element size: E(0) given, the policy gives E(4)"));
    assert_eq!(v[3]["ok"], false);
    assert!(v[3]["error"].as_str().unwrap().contains("f64"));
}

#[test]
fn index_on_packed_types_gives_byte_and_bit() {
    let o = run(
        &["index", "--json", "s4[4,8]{1,0:E(4)}", "0,0", "0,1", "1,3"],
        b"",
    );
    let v = json_lines(&o);
    let got: Vec<(u64, u64, u64)> = v
        .iter()
        .map(|o| {
            (
                o["offset"].as_u64().unwrap(),
                o["byte"].as_u64().unwrap(),
                o["bit"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, [(0, 0, 0), (1, 0, 4), (11, 5, 4)]);
    let (f, _) = one(&["index", "--json", SEED, "2,3"]);
    assert!(f["byte"].is_null() && f["bit"].is_null(), "{f}");
    let o = run(&["index", "pred[16]{0:E(1)}", "9"], b"");
    assert_eq!(stdout(&o).trim(), "pred[16]{0:E(1)}@9 -> 9 (byte 1, bit 1)");
}

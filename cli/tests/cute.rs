//! Runs `tilelayout cute`: CuTe layouts evaluated, XLA layouts as CuTe
//! layouts (checked against the core's index math on every real shape),
//! the JSON fields, stdin lines, exit statuses and located errors.

use std::path::PathBuf;

use serde_json::Value;

mod common;
use common::*;
use tilelayout::value::parse_shape;

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_i64().expect("integer"))
        .collect()
}

#[test]
fn from_xla_seed_figure() {
    let (v, c) = one(&["cute", "--json", "from-xla", "f32[3,5]{1,0:T(2,2)}"]);
    assert_eq!(c, 0);
    assert_eq!(v["ok"], true);
    assert_eq!(v["result"], "((_2,_2),(_2,_3)):((_2,_12),(_1,_4))");
    assert_eq!(
        (v["size"].as_i64(), v["cosize"].as_i64()),
        (Some(24), Some(24))
    );
    // the logical elements, dim 0 fastest; element (2,3) is slot 17
    let t = parse_shape("f32[3,5]{1,0:T(2,2)}")
        .unwrap()
        .tiling()
        .unwrap();
    let want: Vec<i64> = (0..15)
        .map(|i| t.offset(&[i % 3, i / 3]).unwrap() as i64)
        .collect();
    assert_eq!(ints(&v["offsets"]), want);
    assert_eq!(want[3 * 3 + 2], 17);
    // text form: the layout alone
    let o = run(&["cute", "from-xla", "f32[3,5]{1,0:T(2,2)}"], b"");
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "((_2,_2),(_2,_3)):((_2,_12),(_1,_4))\n"
    );
}

#[test]
fn from_xla_agrees_with_the_core_on_every_real_shape() {
    let text = std::fs::read_to_string(data_dir().join("real_shapes_dev.tsv")).unwrap();
    let shapes: Vec<&str> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .filter(|s| !s.is_empty())
        .collect();
    let stdin: String = shapes.iter().map(|s| format!("from-xla\t{s}\n")).collect();
    let o = run(&["cute", "-", "--json"], stdin.as_bytes());
    let lines = json_lines(&o);
    assert_eq!(lines.len(), shapes.len());
    let mut checked = 0;
    for (s, v) in shapes.iter().zip(&lines) {
        let Ok(t) = parse_shape(s).and_then(|p| p.tiling()) else {
            assert_eq!(v["ok"], false, "{s}");
            continue;
        };
        if t.elements() == 0 {
            assert_eq!(v["ok"], false, "{s}");
            continue;
        }
        assert_eq!(v["ok"], true, "{s}: {}", v["error"]);
        let dims = t.physical_dims();
        let rank = t.rank();
        let mut logical = vec![0u64; rank];
        for p in 0..rank {
            logical[t.physical_to_logical(p)] = dims.as_slice()[p];
        }
        let offsets = ints(&v["offsets"]);
        assert_eq!(offsets.len() as u64, t.elements().min(1024), "{s}");
        let mut c = vec![0u64; rank];
        for (i, &o) in offsets.iter().enumerate() {
            assert_eq!(o as u64, t.offset(&c).unwrap(), "{s} element {i}");
            for d in 0..rank {
                c[d] += 1;
                if c[d] < logical[d] {
                    break;
                }
                c[d] = 0;
            }
        }
        checked += 1;
    }
    assert!(checked > 300, "{checked}");
}

#[test]
fn layout_size_cosize_offsets() {
    let (v, c) = one(&["cute", "--json", "layout", "(_2,(_3,_4)):(_12,(_4,_1))"]);
    assert_eq!(c, 0);
    assert_eq!(v["result"], "(_2,(_3,_4)):(_12,(_4,_1))");
    assert_eq!(
        (v["size"].as_i64(), v["cosize"].as_i64()),
        (Some(24), Some(24))
    );
    let want: Vec<i64> = (0..24)
        .map(|i| (i % 2) * 12 + ((i / 2) % 3) * 4 + i / 6)
        .collect();
    assert_eq!(ints(&v["offsets"]), want);
    // at most 1024 offsets
    let (v, _) = one(&["cute", "--json", "layout", "(_64,_64):(_64,_1)"]);
    assert_eq!(v["size"].as_i64(), Some(4096));
    assert_eq!(v["offsets"].as_array().unwrap().len(), 1024);
    // a swizzle permutes: every offset of the 8x64 block once
    let (v, _) = one(&["cute", "--json", "layout", "Sw<3,4,3> o _0 o (8,64):(64,1)"]);
    let mut o = ints(&v["offsets"]);
    assert_eq!(v["cosize"].as_i64(), Some(512));
    o.sort_unstable();
    assert_eq!(o, (0..512).collect::<Vec<i64>>());
}

#[test]
fn crd2idx_and_idx2crd_round_trip() {
    let l = "(_2,(_3,_4)):(_12,(_4,_1))";
    let mut lines = String::new();
    for i in 0..24 {
        lines.push_str(&format!("idx2crd\t{l}\t{i}\n"));
    }
    let crds = json_lines(&run(&["cute", "-", "--json"], lines.as_bytes()));
    let mut back = String::new();
    for (i, v) in crds.iter().enumerate() {
        let c = v["result"].as_str().unwrap();
        assert_eq!(c, format!("({},({},{}))", i % 2, (i / 2) % 3, i / 6));
        back.push_str(&format!("crd2idx\t{l}\t{c}\n"));
    }
    let idx = json_lines(&run(&["cute", "-", "--json"], back.as_bytes()));
    for (i, v) in idx.iter().enumerate() {
        let want = (i % 2) * 12 + ((i / 2) % 3) * 4 + i / 6;
        assert_eq!(v["result"], want.to_string());
    }
}

#[test]
fn to_xla_inverts_from_xla() {
    let (v, c) = one(&["cute", "--json", "from-xla", "bf16[8,256]{1,0:T(8,128)}"]);
    assert_eq!(c, 0);
    let l = v["result"].as_str().unwrap().to_owned();
    assert_eq!(l, "(_8,(_128,_2)):(_128,(_1,_1024))");
    let (v, c) = one(&["cute", "--json", "to-xla", &l, "bf16"]);
    assert_eq!(c, 0);
    assert_eq!(v["result"], "bf16[8,256]{1,0:T(8,128)}");
    let (v, c) = one(&["cute", "--json", "to-xla", "(_4,_3):(_1,_1)"]);
    assert_eq!((c, &v["ok"]), (1, &Value::Bool(false)));
}

#[test]
fn errors_are_located_and_never_panic() {
    // not affine: the error points at the tile
    let shape = "f32[4]{0:T(3)(2,2)}";
    let (v, c) = one(&["cute", "--json", "from-xla", shape]);
    assert_eq!(c, 1);
    assert!(v["error"].as_str().unwrap().contains("not affine"), "{v}");
    let at = "from-xla\t".len() + shape.find("(2,2)").unwrap();
    assert_eq!(v["error_start"].as_u64(), Some(at as u64));
    // syntax errors inside an argument, at their byte in the line
    let o = run(&["cute", "-", "--json"], b"layout\t(_2,_3):(_1,_2\n");
    let v = &json_lines(&o)[0];
    assert_eq!(v["error_start"].as_u64(), Some(21));
    assert_eq!(code(&o), 1);
    // unknown op, missing and extra arguments, empty line, bad XLA
    for (line, needle) in [
        ("nope\t_4:_1", "unknown operation"),
        ("crd2idx\t_4:_1", "takes a coordinate"),
        ("layout\t_4:_1\t_2", "too many arguments"),
        ("", "unknown operation"),
        ("from-xla\tf32[3,5]{1,0:T(0)}", "0"),
        ("idx2crd\t_4:_1\t(1,2)", "not an integer"),
        ("upcast\t_4:_1", "takes a factor"),
        ("upcast\t_4:_1\t(2,2)", "`upcast L N`"),
        ("blocked_product\t_4:_1\t_2:_1\t_3", "too many arguments"),
        (
            "zipped_divide\t(_12,(_4,_8)):(_7,(_1,_30))\t128",
            "in mode 0",
        ),
        ("to-xla\t_4:_1\tf33", "element type"),
    ] {
        let o = run(&["cute", "-", "--json"], format!("{line}\n").as_bytes());
        let v = &json_lines(&o)[0];
        assert_eq!(v["ok"], false, "{line}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{line}: {v}");
        assert_eq!(code(&o), 1, "{line}");
    }
    // `-` with arguments is a usage error
    assert_eq!(code(&run(&["cute", "-", "x"], b"")), 2);
    // text mode: a caret diagnostic on stderr
    let o = run(&["cute", "layout", "(_2,_3):(_1,_2"], b"");
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("error:") && err.contains('^'), "{err}");
}

/// `core/tests/data/cute_vectors.tsv`: CuTe's own outputs (see its header).
fn cute_vectors() -> Vec<[String; 5]> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../core/tests/data/cute_vectors.tsv");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "{l}");
            core::array::from_fn(|i| f[i].to_owned())
        })
        .collect()
}

/// Every operation over every CuTe vector, through `-` (tab-separated
/// lines): the printed result is CuTe's text; where CuTe refused the input
/// (or returned a layout breaking its own post-condition) the command
/// refuses it too; the few inputs the core refuses although CuTe printed a
/// layout (CuTe's result is wrong there: `core/tests/algebra_vectors.rs`
/// shows it by brute force) are refused identically by the core's
/// `evaluate`. The offsets are CuTe's result layout evaluated.
#[test]
fn every_op_reproduces_cutes_vectors() {
    use tilelayout::algebra::{evaluate, CuteLayout, Op};
    let cases = cute_vectors();
    let stdin: String = cases
        .iter()
        .map(|[op, a, b, _, _]| {
            if b == "-" {
                format!("{op}\t{a}\n")
            } else {
                format!("{op}\t{a}\t{b}\n")
            }
        })
        .collect();
    let o = run(&["cute", "-", "--json"], stdin.as_bytes());
    let lines = json_lines(&o);
    assert_eq!(lines.len(), cases.len());
    let mut exact = std::collections::BTreeMap::<&str, usize>::new();
    for ([op, a, b, want, post], v) in cases.iter().zip(&lines) {
        let case = format!("{op} {a} {b} (CuTe: {want}, post {post}): {v}");
        let refused = want.starts_with('!') || post == "0";
        let mut args = vec![a.as_str()];
        if b != "-" {
            args.push(b);
        }
        let core = evaluate(Op::from_name(op).unwrap(), &args);
        match &core {
            Ok(r) => {
                assert_eq!(v["ok"], true, "{case}");
                assert_eq!(v["result"], r.to_string(), "{case}");
            }
            Err(_) => assert_eq!(v["ok"], false, "{case}"),
        }
        if v["ok"] == false {
            assert!(!v["error"].as_str().unwrap().is_empty(), "{case}");
            let (start, end) = (v["error_start"].as_u64(), v["error_end"].as_u64());
            assert!(start.is_some() && start <= end, "{case}");
            continue;
        }
        if refused {
            // CuTe's tile_to_shape cannot compile a static target over a
            // dynamic block; we check the division on values
            assert_eq!(op, "tile_to_shape", "{case}");
            continue;
        }
        assert_eq!(v["result"], want.as_str(), "{case}");
        *exact.entry(op).or_default() += 1;
        if let Ok(l) = CuteLayout::parse(want) {
            let n = l.size().unwrap().value.min(1024);
            let offsets: Vec<i64> = (0..n).map(|i| l.call(i).unwrap()).collect();
            assert_eq!(ints(&v["offsets"]), offsets, "{case}");
            assert_eq!(v["size"].as_i64(), Some(l.size().unwrap().value), "{case}");
            assert_eq!(
                v["cosize"].as_i64(),
                Some(l.cosize().unwrap().value),
                "{case}"
            );
        }
    }
    // every operation of the data, most of its cases to CuTe's letter
    assert_eq!(exact.len(), 20, "{exact:?}");
    let total: usize = exact.values().sum();
    assert!(total >= 1195, "{total} of {}: {exact:?}", cases.len());
}

/// The command's standard output, which must succeed.
fn text(args: &[&str]) -> String {
    let o = run(args, b"");
    assert_eq!(
        code(&o),
        0,
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn text_mode_and_profiles() {
    // CuTe's documented examples (media/docs/cpp/cute/02_layout_algebra.md)
    assert_eq!(
        text(&["cute", "coalesce", "(_2,(_1,_6)):(_1,(_6,_2))"]),
        "_12:_1\n"
    );
    // by-mode: CuTe's Step<_1,_1> and the plain tuple
    for p in ["Step<_1,_1>", "(_1,_1)"] {
        assert_eq!(
            text(&["cute", "coalesce", "(_2,(_1,_6)):(_1,(_6,_2))", p]),
            "(_2,_6):(_1,_2)\n",
            "{p}"
        );
    }
    assert_eq!(
        text(&["cute", "composition", "(_6,_2):(_8,_2)", "(_4,_3):(_3,_1)"]),
        "((_2,_2),_3):((_24,_2),_8)\n"
    );
    assert_eq!(
        text(&["cute", "complement", "(_2,_2):(_1,_6)", "_24"]),
        "(_3,_2):(_2,_12)\n"
    );
    assert_eq!(
        text(&["cute", "logical_divide", "(_4,_2,_3):(_2,_1,_8)", "_4:_2"]),
        "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))\n"
    );
    assert_eq!(
        text(&["cute", "logical_product", "(_2,_2):(_4,_1)", "_6:_1"]),
        "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))\n"
    );
    assert_eq!(
        text(&["cute", "upcast", "(_4,_8):(_8,_1)", "2"]),
        "(_4,_4):(_4,_1)\n"
    );
    assert_eq!(
        text(&[
            "cute",
            "max_common_vector",
            "(_4,_8):(_1,_4)",
            "(_4,_8):(_1,_4)"
        ]),
        "_32\n"
    );
    // an inverse of a swizzled layout, its offsets and cosize scanned
    let (v, c) = one(&[
        "cute",
        "--json",
        "right_inverse",
        "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)",
    ]);
    assert_eq!(c, 0, "{v}");
    let o = ints(&v["offsets"]);
    assert_eq!(o.len(), 512, "{v}");
    let mut sorted = o.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..512).collect::<Vec<i64>>(), "{v}");
    assert_eq!(v["cosize"].as_i64(), Some(512));
}

#[test]
fn algebra_errors_are_located_in_their_argument() {
    // a syntax error in the tiler, at its byte in the line
    let line = "logical_divide\t(_4,_2):(_1,_4)\t(_2,:_1";
    let o = run(&["cute", "-", "--json"], format!("{line}\n").as_bytes());
    let v = &json_lines(&o)[0];
    assert_eq!(v["ok"], false);
    let tiler = line.rfind('\t').unwrap() + 1;
    let at = v["error_start"].as_u64().unwrap() as usize;
    assert!(at > tiler, "{v}");
    // ... in the layout
    let line = "composition\t(_4,_2:(_1,_4)\t_2:_1";
    let o = run(&["cute", "-", "--json"], format!("{line}\n").as_bytes());
    let v = &json_lines(&o)[0];
    let at = v["error_start"].as_u64().unwrap() as usize;
    assert!(
        at > "composition\t".len() && at < line.rfind('\t').unwrap(),
        "{v}"
    );
    // a profile or an order written as CuTe's Step keeps its byte
    // positions, in its own argument
    for line in [
        "coalesce\t(_4,_2):(_1,_4)\tStep<_1,x>",
        "tile_to_shape\t(_2,_2):(_1,_2)\t(_4,_6)\tStep<_2,x>",
    ] {
        let o = run(&["cute", "-", "--json"], format!("{line}\n").as_bytes());
        let v = &json_lines(&o)[0];
        assert_eq!(
            v["error_start"].as_u64(),
            Some(line.find('x').unwrap() as u64),
            "{v}"
        );
    }
    // a failed precondition names the mode and covers both arguments
    // (CuTe's issue #3513: a dynamic tiler that does not divide the layout)
    let line = "zipped_divide\t(_12,(_4,_8)):(_7,(_1,_30))\t128";
    let o = run(&["cute", "-", "--json"], format!("{line}\n").as_bytes());
    let v = &json_lines(&o)[0];
    assert!(v["error"].as_str().unwrap().contains("in mode 0"), "{v}");
    assert_eq!(
        v["error_start"].as_u64(),
        Some("zipped_divide\t".len() as u64)
    );
    assert_eq!(v["error_end"].as_u64(), Some(line.len() as u64));
    // text mode: a caret diagnostic, exit status 1
    let o = run(&["cute", "upcast", "(_4,_3):(_3,_1)", "2"], b"");
    assert_eq!(code(&o), 1);
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("error:") && err.contains('^'), "{err}");
}

/// Every operation of the core's algebra is a `cute` operation (the
/// command has no list of its own to fall behind).
#[test]
fn every_core_operation_is_wired() {
    use tilelayout::algebra::Op;
    let stdin: String = Op::ALL
        .iter()
        .map(|op| format!("{}\n", op.name()))
        .collect();
    let o = run(&["cute", "-", "--json"], stdin.as_bytes());
    let lines = json_lines(&o);
    assert_eq!(lines.len(), Op::ALL.len());
    for (op, v) in Op::ALL.iter().zip(&lines) {
        let e = v["error"].as_str().unwrap();
        assert!(
            e.contains("takes a layout as argument 1"),
            "{}: {e}",
            op.name()
        );
    }
}

/// `core/tests/data/cute_vectors_more.tsv` (nested tilers, `tile_to_shape`
/// with an order, swizzled layouts, composition with a swizzle), through
/// `-`: the command answers as the core's `evaluate` does, CuTe's text
/// wherever both accept the input, and its offsets are the result's.
#[test]
fn every_op_reproduces_the_more_vectors() {
    use tilelayout::algebra::{evaluate, Op};
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../core/tests/data/cute_vectors_more.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let cases: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect();
    let stdin: String = cases
        .iter()
        .map(|f| {
            let args: Vec<&str> = f[1..4].iter().copied().filter(|a| *a != "-").collect();
            // the order as CuTe's type name, as a user would type it
            let args: Vec<String> = args
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    if f[0] == "tile_to_shape" && i == 2 {
                        format!("Step<{}>", &a[1..a.len() - 1])
                    } else {
                        a.to_string()
                    }
                })
                .collect();
            format!("{}\t{}\n", f[0], args.join("\t"))
        })
        .collect();
    let o = run(&["cute", "-", "--json"], stdin.as_bytes());
    let lines = json_lines(&o);
    assert_eq!(lines.len(), cases.len());
    let mut exact = 0;
    for (f, v) in cases.iter().zip(&lines) {
        let args: Vec<&str> = f[1..4].iter().copied().filter(|a| *a != "-").collect();
        let case = format!("{f:?}: {v}");
        match evaluate(Op::from_name(f[0]).unwrap(), &args) {
            Ok(r) => {
                assert_eq!(v["ok"], true, "{case}");
                assert_eq!(v["result"], r.to_string(), "{case}");
                let n = r.to_string();
                if n == f[4] {
                    exact += 1;
                }
                let size = v["size"].as_i64().unwrap();
                let want: Vec<i64> = (0..size.min(1024)).map(|i| r.call(i).unwrap()).collect();
                assert_eq!(ints(&v["offsets"]), want, "{case}");
            }
            Err(e) => {
                assert_eq!(v["ok"], false, "{case}");
                assert!(
                    v["error"].as_str().unwrap().contains(e.message().as_str()),
                    "{case}"
                );
            }
        }
    }
    assert!(exact >= 300, "{exact} of {} exactly as CuTe", cases.len());
}

#[test]
fn swizzles_orders_and_nested_tilers() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["tile_to_shape", "(_2,_2):(_1,_2)", "(_4,_6)", "Step<_2,_1>"],
            "((_2,_2),(_2,_3)):((_1,_12),(_2,_4))",
        ),
        (
            &["composition", "Sw<3,3,3>", "(_8,_64):(_64,_1)"],
            "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)",
        ),
        (
            &["composition", "(_8,_8):(_8,_1)", "Sw<2,0,3>"],
            "Sw<2,0,-3> o _0 o (_8,_8):(_8,_1)",
        ),
        (
            &["upcast", "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "2"],
            "Sw<3,2,3> o _0 o (_8,_32):(_32,_1)",
        ),
        (
            &[
                "logical_divide",
                "(_8,(_4,_6)):(_1,(_8,_32))",
                "(_2,(_2,_3))",
            ],
            "((_2,_4),((_2,_2),(_3,_2))):((_1,_2),((_8,_16),(_32,_96)))",
        ),
    ];
    for (args, want) in cases {
        let mut all = vec!["cute"];
        all.extend_from_slice(args);
        assert_eq!(text(&all), format!("{want}\n"), "{args:?}");
    }
    // a failed precondition in a nested mode names the path to it
    let (v, c) = one(&[
        "cute",
        "--json",
        "logical_divide",
        "(_8,((_6,_4),_2)):(_1,((_1,_100),_1000))",
        "(_2,(_4:_4,_2))",
    ]);
    assert_eq!(c, 1, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("; at mode (1,0) of the right operand"),
        "{v}"
    );
}

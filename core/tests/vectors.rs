//! Every row of `tests/data/xla_vectors_dev.tsv`, checked by kind.
//! Verdicts must match XLA's; wording need not.

mod common;

use std::collections::BTreeMap;
use tilelayout_core::__private::index_program;
use tilelayout_core::{
    canonicalize, parse_layout, parse_shape, parse_tile, walk, Event, ParseOptions, Shape,
};

fn strict() -> ParseOptions {
    ParseOptions { strict: true }
}

fn canon(text: &str, opts: ParseOptions) -> Result<String, String> {
    let mut s = String::new();
    canonicalize(text, opts, &mut s).map_err(|e| e.to_string())?;
    Ok(s)
}

/// Every array in `text` parsed and valid (tuples: every element).
fn accept(text: &str, opts: ParseOptions) -> Result<(), String> {
    let mut first = None;
    walk(text, opts, |e| {
        if let Event::Array { shape, spans, .. } = e {
            if let Err(err) = shape.validate() {
                first.get_or_insert(spans.locate(err).to_string());
            }
        }
    })
    .map_err(|e| e.to_string())?;
    first.map_or(Ok(()), Err)
}

fn split_at_sign(input: &str) -> (&str, &str) {
    input.rsplit_once('@').expect("vector input has @")
}

fn coords(s: &str) -> Vec<u64> {
    if s.is_empty() {
        return vec![];
    }
    s.split(',').map(|c| c.trim().parse().unwrap()).collect()
}

fn shape(text: &str) -> Shape {
    parse_shape(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Formats bytes as the TPU OOM report in the vectors does: binary units,
/// truncated (not rounded) to two decimals, one for K. (1262254080 bytes,
/// 1.1756 GiB, is reported as `1.17G`.)
fn human(bytes: u64) -> String {
    let units = [
        ("E", 60),
        ("P", 50),
        ("T", 40),
        ("G", 30),
        ("M", 20),
        ("K", 10),
    ];
    for (u, sh) in units {
        if bytes >= 1u64 << sh {
            let v = bytes as f64 / (1u64 << sh) as f64;
            let places = if u == "K" { 10.0 } else { 100.0 };
            let v = (v * places).floor() / places;
            return if u == "K" {
                format!("{v:.1}{u}")
            } else {
                format!("{v:.2}{u}")
            };
        }
    }
    format!("{bytes}B")
}

#[test]
fn every_vector() {
    let mut pass: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for (line, cols) in common::rows("xla_vectors_dev.tsv") {
        let (kind, input, expected, source) = (&cols[0], &cols[1], &cols[2], &cols[3]);
        let quirk = source.contains("[QUIRK");
        let result: Result<(), String> = (|| {
            match kind.as_str() {
                "roundtrip" | "shape_print_nolayout" if quirk => match canon(input, strict()) {
                    // a clean implementation may reject a quirk row
                    Err(_) => Ok(()),
                    Ok(got) if &got == expected => Ok(()),
                    Ok(got) => Err(format!("quirk printed {got}")),
                },
                "roundtrip" => {
                    let got = canon(input, strict())?;
                    (&got == expected)
                        .then_some(())
                        .ok_or(format!("printed {got}"))
                }
                "shape_print_nolayout" => {
                    let got = shape(input).canonical_without_layout::<256>();
                    (got.as_str() == expected)
                        .then_some(())
                        .ok_or(format!("printed {got}"))
                }
                "layout_print" => {
                    let got = parse_layout(input).map_err(|e| e.to_string())?.to_string();
                    (&got == expected)
                        .then_some(())
                        .ok_or(format!("printed {got}"))
                }
                "tile_print" => {
                    let got = parse_tile(input).map_err(|e| e.to_string())?.to_string();
                    (&got == expected)
                        .then_some(())
                        .ok_or(format!("printed {got}"))
                }
                // XLA's parser refuses these; so does ours in strict mode (the
                // default mode accepts the docs' `F32`, by SPEC §1).
                "reject" | "crash" | "invalid" => match accept(input, strict()) {
                    Err(_) => Ok(()),
                    Ok(()) => Err("accepted".into()),
                },
                "valid" => accept(input, strict()),
                // Combined dims: XLA's text accepts them, its proto does not.
                // SPEC §2-3: valid iff no `*` is a tile's most-minor dim.
                "proto_reject" => {
                    let s = shape(input);
                    let combine_last =
                        s.layout().tiles().iter().any(|t| {
                            matches!(t.dim(t.rank() - 1), tilelayout_core::TileDim::Combine)
                        });
                    match (s.validate(), combine_last) {
                        (Err(_), true) | (Ok(()), false) => Ok(()),
                        (r, _) => Err(format!("validate gave {r:?}")),
                    }
                }
                "index" => {
                    let (text, at) = split_at_sign(input);
                    let t = shape(text).tiling().map_err(|e| e.to_string())?;
                    let got = t.offset(&coords(at)).map_err(|e| e.to_string())?;
                    // the compiled straight-line program agrees with the loop
                    let program = t.program();
                    if program.fits() && program.run(&coords(at)) != got {
                        return Err(format!("program gives {}", program.run(&coords(at))));
                    }
                    // and so does the one from the lowering (what the types run)
                    let lowered = index_program(&shape(text)).map_err(|e| e.to_string())?;
                    if lowered.fits() && lowered.run(&coords(at)) != got {
                        return Err(format!(
                            "lowered program gives {}",
                            lowered.run(&coords(at))
                        ));
                    }
                    (got.to_string() == *expected)
                        .then_some(())
                        .ok_or(format!("offset {got}"))
                }
                "delinearize" => {
                    let (text, at) = split_at_sign(input);
                    let t = shape(text).tiling().map_err(|e| e.to_string())?;
                    let got = t.coords(at.parse().unwrap()).map_err(|e| e.to_string())?;
                    let got = got.map(|c| c.as_slice().to_vec());
                    (got == Some(coords(expected)))
                        .then_some(())
                        .ok_or(format!("coords {got:?}"))
                }
                "bytes" => {
                    let s = shape(input).sizes().map_err(|e| e.to_string())?;
                    (s.xla_bytes.to_string() == *expected)
                        .then_some(())
                        .ok_or(format!("xla_bytes {}", s.xla_bytes))
                }
                "bytes_unpadded" => {
                    let mut total = 0u64;
                    let mut err = None;
                    walk(input, strict(), |e| {
                        if let Event::Array { shape, .. } = e {
                            match shape.sizes() {
                                Ok(s) => total += s.unpadded_bytes,
                                Err(e) => err = Some(e.to_string()),
                            }
                        }
                    })
                    .map_err(|e| e.to_string())?;
                    if let Some(e) = err {
                        return Err(e);
                    }
                    (total.to_string() == *expected)
                        .then_some(())
                        .ok_or(format!("unpadded {total}"))
                }
                "bytes_approx" => {
                    // `size=6.00G;unpadded=48.00M` (XLA's OOM report), or
                    // `extra_padding=` = bytes - unpadded.
                    let s = shape(input).sizes().map_err(|e| e.to_string())?;
                    for part in expected.split(';') {
                        let (k, v) = part.split_once('=').unwrap();
                        let got = match k {
                            "size" => human(s.xla_bytes),
                            "unpadded" => human(s.unpadded_bytes),
                            "extra_padding" => human(s.xla_bytes - s.unpadded_bytes),
                            _ => return Err(format!("unknown field {k}")),
                        };
                        if got != v {
                            return Err(format!("{k}: {got} != {v}"));
                        }
                    }
                    Ok(())
                }
                "max_split_size" => {
                    let (text, at) = split_at_sign(input);
                    let s = shape(text);
                    let dim: usize = at.parse().unwrap();
                    let m2m = s.layout().minor_to_major();
                    let phys = (s.rank() - 1 - m2m.iter().position(|&d| d as usize == dim).unwrap())
                        as u64;
                    let size = s.dims()[dim].size().unwrap();
                    let sc = s
                        .layout()
                        .split_configs()
                        .iter()
                        .find(|c| c.dimension == phys);
                    let mut best = 0;
                    let mut last = 0;
                    for &i in sc
                        .map(|c| c.indices())
                        .unwrap_or(&[])
                        .iter()
                        .chain([size].iter())
                    {
                        best = best.max(i - last);
                        last = i;
                    }
                    (best.to_string() == *expected)
                        .then_some(())
                        .ok_or(format!("max split {best}"))
                }
                "is_untiled" => {
                    // `[4,256]:T(1,128)`: the tiled order equals row-major.
                    let (dims, tiles) = input.split_once(':').unwrap();
                    let text = format!("f32{dims}{{1,0:{tiles}}}");
                    let t = shape(&text).tiling().map_err(|e| e.to_string())?;
                    let d = coords(dims.trim_matches(['[', ']']));
                    let same = (0..d[0])
                        .all(|i| (0..d[1]).all(|j| t.offset(&[i, j]).unwrap() == i * d[1] + j))
                        && t.slots() == d[0] * d[1];
                    (same.to_string() == *expected)
                        .then_some(())
                        .ok_or(format!("untiled {same}"))
                }
                // XLA's TransposePlan refuses two tiled sides; our relayout
                // does not have that limit, so there is no verdict to match.
                "transpose_reject" => Ok(()),
                other => Err(format!("unknown kind {other}")),
            }
        })();
        let e = pass.entry(kind.clone()).or_default();
        e.1 += 1;
        match result {
            Ok(()) => e.0 += 1,
            Err(msg) => failures.push(format!("line {line}: {kind} {input}: {msg}")),
        }
    }
    for (k, (p, n)) in &pass {
        println!("{k}: {p}/{n}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_real_shape_parses_validates_and_prints_back() {
    let rows = common::rows("real_shapes_dev.tsv");
    assert!(rows.len() > 400);
    for (line, cols) in rows {
        let text = &cols[0];
        let s = parse_shape(text).unwrap_or_else(|e| panic!("line {line}: {text}: {e}"));
        s.validate()
            .unwrap_or_else(|e| panic!("line {line}: {text}: {e}"));
        assert_eq!(&s.to_string(), text, "line {line}");
        s.sizes()
            .unwrap_or_else(|e| panic!("line {line}: {text}: {e}"));
        // the program agrees with the loop at the last coordinate
        let t = s.tiling().unwrap();
        let last: Vec<u64> = s
            .dims()
            .iter()
            .map(|d| d.size().unwrap().saturating_sub(1))
            .collect();
        if t.elements() > 0 {
            assert!(t.program().fits(), "line {line}");
            assert_eq!(
                t.program().run(&last),
                t.offset(&last).unwrap(),
                "line {line}"
            );
            let lowered = index_program(&s).unwrap();
            assert!(lowered.fits(), "line {line}");
            assert_eq!(lowered.run(&last), t.offset(&last).unwrap(), "line {line}");
        }
    }
}

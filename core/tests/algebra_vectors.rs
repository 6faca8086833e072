//! CuTe's own outputs as test vectors: every line of
//! `tests/data/cute_vectors.tsv` was computed by CuTe's functions (see the
//! file's header) and must be reproduced exactly, text for text, including
//! which integers print static (`_4`) and which dynamic (`4`).
//!
//! A line is `op \t A \t B \t result \t post`:
//! * `result` is `!error` when CuTe refused the input at compile time (a
//!   failed static precondition): we must return an error too;
//! * `post` is `0` when CuTe returned a layout whose documented
//!   post-condition does not hold (a precondition CuTe does not check on
//!   dynamic values, its issue #3513): we must return an error, never a
//!   wrong layout; `1` or `-` otherwise.

use tilelayout_core::algebra::{evaluate, Op};

#[test]
fn cute_vectors_reproduced_exactly() {
    let text = include_str!("data/cute_vectors.tsv");
    let mut failures = Vec::new();
    let mut counted = std::collections::BTreeMap::<&str, usize>::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 5, "line {}: {line}", n + 1);
        let (op, a, b, want, post) = (f[0], f[1], f[2], f[3], f[4]);
        let op_v = Op::from_name(op).unwrap_or_else(|| panic!("line {}: unknown op {op}", n + 1));
        let mut args = vec![a];
        if b != "-" {
            args.push(b);
        }
        *counted.entry(op).or_default() += 1;
        let got = evaluate(op_v, &args);
        let ok = match (want, post, &got) {
            ("!error", _, Err(_)) => true,
            (_, "0", Err(_)) => true,
            (w, p, Ok(v)) if w != "!error" && p != "0" => v.to_string() == w,
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "line {}: {op} {a} {b}: CuTe {want} (post {post}), ours {}",
                n + 1,
                match &got {
                    Ok(v) => v.to_string(),
                    Err(e) => format!("error: {e}"),
                }
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of the vectors differ:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(counted.len() >= 20, "ops covered: {counted:?}");
}

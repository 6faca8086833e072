//! CuTe's own outputs as test vectors: every line of
//! `tests/data/cute_vectors.tsv` was computed by CuTe's functions (see the
//! file's header) and must be reproduced exactly, text for text, including
//! which integers print static (`_4`) and which dynamic (`4`).
//!
//! A line is `op \t A \t B \t result \t post`:
//! * `result` is `!error` when CuTe refused the input at compile time (a
//!   failed static precondition) and `!crash` when it divided by zero at
//!   run time: we must return an error too;
//! * `post` is `0` when CuTe returned a layout whose documented
//!   post-condition does not hold (a precondition CuTe does not check on
//!   dynamic values, its issue #3513): we must return an error, never a
//!   wrong layout; `1` or `-` otherwise.
//! * where we refuse an input CuTe computes and `post` is not `0`, a
//!   brute-force evaluation of the operation's definition must show that
//!   CuTe's printed layout is wrong (CuTe's weak divisibility checks let
//!   some wrong layouts through even for static operands).

use tilelayout_core::algebra::{
    coalesce, complement, evaluate, AlgebraError, AlgebraErrorKind, CuteLayout, IntTuple, Op,
    Tiler, Value,
};

/// Where we refuse an input CuTe computes, CuTe's printed result must be
/// wrong: it differs from the operation's definition evaluated by brute
/// force (composition: `A(B(i))`; a divide by one layout `B`:
/// `A((B, complement(B, shape(coalesce(A))))(i))`, and no fewer
/// elements). `None` when there is no brute-force reference for the case.
fn cute_result_is_wrong(op: Op, a: &str, b: &str, cute: &str) -> Option<bool> {
    let a = CuteLayout::parse(a).ok()?;
    let r = CuteLayout::parse(cute).ok()?;
    let reference = match op {
        Op::Composition => CuteLayout::parse(b).ok()?,
        Op::LogicalDivide | Op::ZippedDivide | Op::TiledDivide | Op::FlatDivide => {
            let t = Tiler::parse(b).ok()?.as_layout()?;
            let rest = complement(&t, coalesce(&a).ok()?.shape()).ok()?;
            CuteLayout::concat(&[t, rest]).ok()?
        }
        // a product has size(A) * size(B) elements
        Op::BlockedProduct | Op::RakedProduct => {
            let b = CuteLayout::parse(b).ok()?;
            let n = a.size().ok()?.value * b.size().ok()?.value;
            return Some(r.size().ok()?.value != n);
        }
        _ => return None,
    };
    let n = reference.size().ok()?.value;
    if r.size().ok()?.value != n {
        return Some(true);
    }
    let size_a = a.size().ok()?.value;
    for i in 0..n.min(1 << 16) {
        let j = reference.call(i).ok()?;
        if (0..size_a).contains(&j) && r.call(i).ok()? != a.call(j).ok()? {
            return Some(true);
        }
    }
    Some(false)
}

/// CuTe's `tile_to_shape` does not compile when the target is static and
/// the block's shape dynamic (its `CUTE_STATIC_ASSERT_V` gets a run-time
/// `bool`); we check the division on values and give the layout, which
/// must then have the target's shape.
fn tile_to_shape_with_dynamic_block(op: Op, a: &str, b: &str, got: &Value) -> bool {
    let (Ok(block), Ok(target), Value::Layout(r)) = (CuteLayout::parse(a), IntTuple::parse(b), got)
    else {
        return false;
    };
    op == Op::TileToShape
        && !block.shape().is_static()
        && (0..target.rank()).all(|i| {
            r.mode(i).and_then(|m| m.size()).map(|s| s.value)
                == target.mode(i).and_then(|m| m.size()).map(|s| s.value)
        })
}

/// Ours, documented on `upcast`: a dynamic stride that is not a multiple of
/// the factor is an error where CuTe divides and truncates.
fn upcast_of_indivisible_dynamic_stride(op: Op, e: &AlgebraErrorKind) -> bool {
    op == Op::Upcast && matches!(e, AlgebraErrorKind::CastDivisibility { .. })
}

/// The cases of a vector file: line number (from 1), the five fields and
/// the operation; comments and blank lines skipped.
fn rows(text: &str) -> impl Iterator<Item = (usize, Vec<&str>, Op)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(n, line)| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 5, "line {}: {line}", n + 1);
            let op = Op::from_name(f[0])
                .unwrap_or_else(|| panic!("line {}: unknown op {}", n + 1, f[0]));
            (n + 1, f, op)
        })
}

/// Our answer as a failure message shows it.
fn shown(got: &Result<Value, AlgebraError>) -> String {
    match got {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn cute_vectors_reproduced_exactly() {
    let mut failures = Vec::new();
    let mut counted = std::collections::BTreeMap::<&str, usize>::new();
    for (n, f, op_v) in rows(include_str!("data/cute_vectors.tsv")) {
        let (op, a, b, want, post) = (f[0], f[1], f[2], f[3], f[4]);
        let mut args = vec![a];
        if b != "-" {
            args.push(b);
        }
        *counted.entry(op).or_default() += 1;
        let got = evaluate(op_v, &args);
        let refused = want == "!error" || want == "!crash";
        let ok = match (refused, post, &got) {
            (true, _, Err(_)) => true,
            (true, _, Ok(v)) => tile_to_shape_with_dynamic_block(op_v, a, b, v),
            (false, "0", Err(_)) => true,
            (false, p, Ok(v)) if p != "0" => v.to_string() == want,
            (false, _, Err(e)) => {
                upcast_of_indivisible_dynamic_stride(op_v, &e.kind)
                    || cute_result_is_wrong(op_v, a, b, want) == Some(true)
            }
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "line {n}: {op} {a} {b}: CuTe {want} (post {post}), ours {}",
                shown(&got)
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

/// CuTe's `Swizzle<B,M,S>` on one offset, written again here (bits
/// `[M+max(0,S), +B)` XORed into `[M+max(0,-S), +B)`) to judge CuTe's
/// results independently of the library.
fn swizzle(b: i64, m: i64, s: i64, x: i64) -> i64 {
    let yyy = ((1i64 << b) - 1) << (m + s.max(0));
    if s >= 0 {
        x ^ ((x & yyy) >> s)
    } else {
        x ^ ((x & yyy) << -s)
    }
}

/// Where we refuse an input of the second file that CuTe computes, CuTe's
/// printed result must be wrong by brute force:
/// * `tile_to_shape` whose block does not divide a dynamic target: CuTe
///   rounds up, so its result does not have the target's shape;
/// * composition with a swizzle (`A ∘ Sw`, `A ∘ (Sw o _0 o L)`): CuTe's
///   result differs from `A(Sw(i))` / `A(Sw(L(i)))` on some index;
/// * a product by a by-mode tiler refused at mode `i` of the tiler: CuTe's
///   mode for `i` differs from `complement(A_i, size(A_i)·cosize(B_i)) ∘
///   B_i` evaluated index by index.
fn cute_more_result_is_wrong(op: Op, args: &[&str], cute: &str, e: &AlgebraError) -> bool {
    let parse_sw = |t: &str| -> Option<(i64, i64, i64)> {
        let t = t.trim().strip_prefix("Sw<")?;
        let t = &t[..t.find('>')?];
        let v: Vec<i64> = t
            .split(',')
            .map(|x| x.parse().ok())
            .collect::<Option<_>>()?;
        Some((v[0], v[1], v[2]))
    };
    let cute_call = |i: i64| -> Option<i64> {
        match cute.split(" o ").collect::<Vec<_>>()[..] {
            [sw, off, l] => {
                let (b, m, s) = parse_sw(sw)?;
                let off: i64 = off.trim_start_matches('_').parse().ok()?;
                Some(swizzle(
                    b,
                    m,
                    s,
                    off + CuteLayout::parse(l).ok()?.call(i).ok()?,
                ))
            }
            [l] => CuteLayout::parse(l).ok()?.call(i).ok(),
            _ => None,
        }
    };
    match op {
        Op::TileToShape => {
            let (Ok(target), Ok(r)) = (IntTuple::parse(args[1]), CuteLayout::parse(cute)) else {
                return false;
            };
            matches!(e.kind, AlgebraErrorKind::TargetDivisibility { .. })
                && r.size().map(|s| s.value) != target.size().map(|s| s.value)
        }
        Op::Composition => {
            let Ok(a) = CuteLayout::parse(args[0]) else {
                return false;
            };
            let (sw, inner) = match args[1].split(" o ").collect::<Vec<_>>()[..] {
                [sw] => (sw, CuteLayout::column_major(*a.shape()).ok()),
                [sw, _, l] => (sw, CuteLayout::parse(l).ok()),
                _ => return false,
            };
            let (Some((b, m, s)), Some(inner)) = (parse_sw(sw), inner) else {
                return false;
            };
            let n = inner.size().unwrap().value;
            (0..n).any(|i| {
                let want = a.call(swizzle(b, m, s, inner.call(i).unwrap())).unwrap();
                cute_call(i) != Some(want)
            })
        }
        Op::ZippedProduct | Op::LogicalProduct | Op::TiledProduct => {
            let [i] = e.path.modes() else {
                return false;
            };
            let i = *i as usize;
            let (Ok(a), Ok(t), Ok(r)) = (
                CuteLayout::parse(args[0]),
                Tiler::parse(args[1]),
                CuteLayout::parse(cute),
            ) else {
                return false;
            };
            let (Ok(ai), Ok(bi)) = (a.mode(i), t.mode(i)) else {
                return false;
            };
            let n = ai.size().unwrap().value * bi.cosize().unwrap().value;
            let Ok(c) = complement(&ai, &IntTuple::fixed(n)) else {
                return false;
            };
            // CuTe's layout of the repetitions of mode i
            let rest = match op {
                Op::LogicalProduct => r.mode(i).and_then(|m| m.mode(1)),
                Op::ZippedProduct => r.mode(1).and_then(|m| m.mode(i)),
                _ => r.mode(1 + i),
            };
            let Ok(rest) = rest else {
                return false;
            };
            (0..bi.size().unwrap().value)
                .any(|k| rest.call(k).ok() != c.call(bi.call(k).unwrap()).ok())
        }
        _ => false,
    }
}

/// The second file, `tests/data/cute_vectors_more.tsv` (made by
/// `tools/cute-vectors/gen.py` with CuTe itself): nested by-mode tilers,
/// `tile_to_shape` with a mode order, the operations on swizzled layouts
/// and composition with a swizzle. A line is `op \t A \t B \t C \t
/// result`; every result must be reproduced text for text, every
/// refusal (`!error`, `!crash`) must be an error here too.
#[test]
fn more_cute_vectors_reproduced_exactly() {
    let mut failures = Vec::new();
    let mut counted = std::collections::BTreeMap::<&str, usize>::new();
    for (n, f, op_v) in rows(include_str!("data/cute_vectors_more.tsv")) {
        let (op, want) = (f[0], f[4]);
        let args: Vec<&str> = f[1..4].iter().copied().filter(|a| *a != "-").collect();
        *counted.entry(op).or_default() += 1;
        let got = evaluate(op_v, &args);
        let refused = want.starts_with('!');
        let ok = match (&got, refused) {
            (Err(_), true) => true,
            (Ok(v), false) => v.to_string() == want,
            (Ok(v), true) => tile_to_shape_with_dynamic_block(op_v, args[0], args[1], v),
            (Err(e), false) => cute_more_result_is_wrong(op_v, &args, want, e),
        };
        if !ok {
            failures.push(format!(
                "line {n}: {op} {}: CuTe {want}, ours {}",
                args.join(" "),
                shown(&got)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of the vectors differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(counted.len() >= 15, "ops covered: {counted:?}");
}

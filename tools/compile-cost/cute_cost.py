#!/usr/bin/env python3
"""Measures what type-level CuTe layout operations cost at compile time.

Generates two throwaway crates beside compile_cost.py's (same manifest,
same timing):

* `cute`: N functions, each with one operation type over a `cute!` layout
  (`--ops structural`: cycling through `Cute` itself, `Flatten<L>`,
  `Get<L, 0>`, `Get<L, 1>`, `Append<L, cute!(_3:_k)>`; `--ops algebra`, the
  default: cycling through the algebra's operation types, `Coalesce`,
  `Filter`, `Complement`, `RightInverse`, `LeftInverse`, `LogicalDivide`,
  `ZippedDivide`, `TiledDivide`, `LogicalProduct`, `BlockedProduct`,
  `RakedProduct`, `Composition`, `Upcast`, the first whose precondition
  holds for the random layout), `assert_cute!` on it, and the body
  `L::TEXT.len() + L::SIZE + L::COSIZE + L::index(i) as usize`;
* `cute_hand`: the same N functions with the constants as literals and the
  index arithmetic written out (structural operations are modelled here in
  Python; an algebra operation's result is what `tilelayout cute` prints for
  it, built first with `cargo build -p tilelayout-cli`; then flattened
  modes, colexicographic, the last mode unbounded);

then, after `cargo test` in `cute` checks that every function equals its
hand-written twin on a few indices, times `cargo check`, `cargo build` and
`cargo build --release` of each (median of R runs, incremental off).

Usage:
    python3 tools/compile-cost/cute_cost.py [--out DIR] [--count N] [--runs R]
                                            [--ops algebra|structural]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compile_cost import MANIFEST, REPO, Rng, cargo, write  # noqa: E402


def gen_tree(rng, depth):
    """A random shape:stride tree: ints are (size, stride); tuples lists."""
    if depth == 0 or rng.below(3) == 0:
        return (rng.pick([1, 2, 3, 4, 8, 16]), rng.pick([0, 1, 2, 4, 8, 12, 64, 128]))
    return [gen_tree(rng, depth - 1) for _ in range(rng.pick([2, 2, 3]))]


def text(t, part):
    if isinstance(t, tuple):
        return "_%d" % t[part]
    return "(" + ",".join(text(c, part) for c in t) + ")"


def layout_text(t):
    return "%s:%s" % (text(t, 0), text(t, 1))


def leaves(t):
    if isinstance(t, tuple):
        return [t]
    return [x for c in t for x in leaves(c)]


def op(k, t):
    """(Rust type over L, the resulting tree)."""
    kind = k % 5
    if kind == 0:
        return "L", t
    if kind == 1:
        return "Flatten<L>", (leaves(t) if isinstance(t, list) else t)
    if kind in (2, 3):
        if isinstance(t, tuple):
            return "L", t
        i = kind - 2
        return "Get<L, %d>" % i, t[i]
    extra = (3, 1 + k % 7)
    base = t if isinstance(t, list) else [t]
    return "Append<L, cute!(_3:_%d)>" % extra[1], base + [extra]


# (CLI op, Rust type over L, second CLI argument or None); tried in turn
# from position k, the first that the core accepts for the layout is used.
ALGEBRA_OPS = [
    ("coalesce", "Coalesce<L>", None),
    ("filter", "Filter<L>", None),
    ("complement", "Complement<L>", None),
    ("right_inverse", "RightInverse<L>", None),
    ("left_inverse", "LeftInverse<L>", None),
    ("logical_divide", "LogicalDivide<L, C<2>>", "_2"),
    ("zipped_divide", "ZippedDivide<L, C<2>>", "_2"),
    ("tiled_divide", "TiledDivide<L, C<2>>", "_2"),
    ("logical_product", "LogicalProduct<L, cute!(_3:_1)>", "_3:_1"),
    ("blocked_product", "BlockedProduct<L, cute!((_2,_2):(_1,_2))>", "(_2,_2):(_1,_2)"),
    ("raked_product", "RakedProduct<L, cute!((_2,_2):(_1,_2))>", "(_2,_2):(_1,_2)"),
    ("composition", "Composition<L, cute!(_2:_1)>", "_2:_1"),
    ("upcast", "Upcast<L, 2>", "2"),
]
CLI = os.path.join(REPO, "target", "debug", "tilelayout")


def parse_tree(shape, stride):
    """A static CuTe shape and stride text as a tree (see gen_tree)."""
    def parse(t, i):
        if t[i] == "(":
            items, i = [], i + 1
            while True:
                x, i = parse(t, i)
                items.append(x)
                if t[i] == ")":
                    return items, i + 1
                i += 1  # ','
        j = i + 1
        while j < len(t) and t[j] not in ",)":
            j += 1
        return int(t[i:j].lstrip("_")), j

    def zip_(a, b):
        if isinstance(a, list):
            return [zip_(x, y) for x, y in zip(a, b)]
        return (a, b)
    return zip_(parse(shape, 0)[0], parse(stride, 0)[0])


def split_layout(text):
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if ch == ":" and depth == 0:
            return text[:i], text[i + 1:]
    raise ValueError(text)


def algebra_op(k, t):
    """(Rust type over L, result tree, result text) by the first operation
    from position k that `tilelayout cute` evaluates on the layout."""
    lines = []
    for j in range(len(ALGEBRA_OPS)):
        name, _, arg = ALGEBRA_OPS[(k + j) % len(ALGEBRA_OPS)]
        lines.append("\t".join([name, layout_text(t)] + ([arg] if arg else [])))
    r = subprocess.run([CLI, "cute", "-", "--json"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True)
    for j, record in enumerate(r.stdout.splitlines()):
        record = json.loads(record)
        if record["ok"]:
            ty = ALGEBRA_OPS[(k + j) % len(ALGEBRA_OPS)][1]
            result = record["result"]
            return ty, parse_tree(*split_layout(result)), result
    raise SystemExit("no operation applies to %s" % layout_text(t))


def size(t):
    n = 1
    for s, _ in leaves(t):
        n *= s
    return n


def cosize(t):
    return 1 + sum((s - 1) * abs(d) for s, d in leaves(t))


def index_expr(t):
    """CuTe's layout(i) written out (flattened, colexicographic)."""
    ls = leaves(t)
    terms, below = [], 1
    for k, (s, d) in enumerate(ls):
        c = "i / %d" % below if k + 1 == len(ls) else "(i / %d) %% %d" % (below, s)
        if d != 0 and s != 1:
            terms.append("(%s) * %d" % (c, d))
        below *= s
    return " + ".join(terms) if terms else "0"


def generate(out, count, ops):
    rng = Rng(0xC07E)
    cute = ["//! Generated by tools/compile-cost/cute_cost.py: %d type-level CuTe operations." % count,
            "#![allow(missing_docs)]",
            "use tilelayout::{assert_cute, cute, AlgebraLayout, Append, Flatten, Get};",
            "#[allow(unused_imports)]",
            "use tilelayout::{BlockedProduct, Coalesce, Complement, Composition, Filter, LeftInverse,",
            "    LogicalDivide, LogicalProduct, RakedProduct, RightInverse, TiledDivide, Upcast,",
            "    ZippedDivide, C};", ""]
    hand = ["//! Generated by tools/compile-cost/cute_cost.py: the same %d functions, by hand." % count,
            "#![allow(missing_docs, clippy::all)]", ""]
    tests = []
    for k in range(count):
        t = gen_tree(rng, 3)
        if ops == "algebra":
            ty, r, r_text = algebra_op(k, t)
        else:
            ty, r = op(k, t)
            r_text = layout_text(r)
        cute += [
            "pub fn f%03d(i: usize) -> usize {" % k,
            "    type L = cute!(%s);" % layout_text(t),
            "    assert_cute!(%s);" % ty,
            "    type R = %s;" % ty,
            "    R::TEXT.len() + R::SIZE + R::COSIZE + R::index(i) as usize",
            "}",
        ]
        hand += [
            "pub fn f%03d(i: usize) -> usize {" % k,
            "    let i = i as i64;",
            "    let _ = i;",
            "    (%d + %d + %d + (%s)) as usize" % (len(r_text), size(r), cosize(r), index_expr(r)),
            "}",
        ]
        for i in sorted({0, min(1, size(r) - 1), size(r) // 2, size(r) - 1}):
            tests.append("    assert_eq!(super::f%03d(%d), super::hand::f%03d(%d));" % (k, i, k, i))
    cute += ["", "#[cfg(test)]", '#[path = "../../cute_hand/src/lib.rs"]', "mod hand;", "",
             "#[cfg(test)]", "mod tests {", "#[test]", "fn typed_equals_hand() {"] + tests + ["}", "}"]
    for name, lines in (("cute", cute), ("cute_hand", hand)):
        write(os.path.join(out, name, "Cargo.toml"), MANIFEST.format(name=name.replace("_", "-"), repo=REPO))
        write(os.path.join(out, name, "src", "lib.rs"), "\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(REPO, "target", "compile-cost"))
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--ops", choices=["algebra", "structural"], default="algebra")
    args = ap.parse_args()
    generate(args.out, args.count, args.ops)
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(args.out, "target"), CARGO_INCREMENTAL="0")
    cargo(args.out, "cute", ["test", "--quiet"], env)
    print("verified: every typed function equals its hand-written twin")
    results = {}
    for mode, cmd in (("check", ["check"]), ("debug", ["build"]), ("release", ["build", "--release"])):
        for name in ("cute_hand", "cute"):
            cargo(args.out, name, cmd, env)
            walls, cpus = [], []
            for _ in range(args.runs):
                os.utime(os.path.join(args.out, name, "src", "lib.rs"))
                w, c = cargo(args.out, name, cmd, env)
                walls.append(w)
                cpus.append(c)
            results[(mode, name)] = (statistics.median(walls), statistics.median(cpus))
            print("  %-7s %-9s wall %s" % (mode, name, " ".join("%.2f" % w for w in walls)), flush=True)
    print("\nmedian of %d, wall s / cpu s; added = cute - hand (%d operations)" % (args.runs, args.count))
    for mode in ("check", "debug", "release"):
        h, c = results[(mode, "cute_hand")], results[(mode, "cute")]
        print("%-8s hand %5.2f/%5.2f  cute %5.2f/%5.2f  added %5.2f/%5.2f"
              % (mode, h[0], h[1], c[0], c[1], c[0] - h[0], c[1] - h[1]))


if __name__ == "__main__":
    main()

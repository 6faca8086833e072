#!/usr/bin/env python3
"""Measures what `layout!` types cost at compile time.

Generates two throwaway crates that depend on the library (path dependency):

* `typed`: 200 distinct `layout!` types (ranks 1-5, tiles (8,128),
  (8,128)(2,1), (4,128), (1,128), (8,128)(4,1), (1024)(128)(2,1), ...,
  permuted orders, some S(1)), each used in its own function as
  `L::TEXT.len() + L::SLOTS + L::offset(i)`;
* `asserted`: `typed` plus `assert_layout!(L)` in each function (the way
  to have `cargo check` evaluate every rule of every layout);
* `hand`: the same 200 functions with the constants as literals and the
  index arithmetic written out (what a person would write without the
  library);

then times `cargo check`, `cargo build` and `cargo build --release` of each
crate alone: dependencies are built first (warm cache, shared target dir),
then the crate's `src/lib.rs` is touched and the command timed, three times,
reporting the median. Incremental compilation is off (CARGO_INCREMENTAL=0) so
that each timed run compiles the crate in full rather than replaying the
incremental cache of an unchanged file.

Before timing, `cargo test` in `typed` checks that every typed function
equals its hand-written twin at the corners and a few points of its index
space (so the hand-written side does the same work).

Usage:
    python3 tools/compile-cost/compile_cost.py [--out DIR] [--count N] [--runs R] [--no-verify]

DIR defaults to target/compile-cost (generated crates and their target dir).
"""

import argparse
import math
import os
import resource
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MASK64 = (1 << 64) - 1
# hand-written, layout! types, layout! types each with assert_layout! (which
# makes `cargo check` evaluate every constant).
CRATES = ("hand", "typed", "asserted")


class Rng:
    """splitmix64: deterministic across Python versions."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n

    def pick(self, seq):
        return seq[self.below(len(seq))]


# (element type, tiles, ranks, weight): the TPU formats real HLO dumps show.
FAMILIES = [
    ("f32", [(8, 128)], (2, 3, 4, 5), 5),
    ("bf16", [(8, 128), (2, 1)], (2, 3, 4, 5), 6),
    ("f32", [(4, 128)], (2, 3), 2),
    ("f32", [(1, 128)], (2, 3), 1),
    ("s32", [(8, 128)], (2, 3, 4), 1),
    ("u32", [(4, 128)], (2,), 1),
    ("s8", [(8, 128), (4, 1)], (2, 3, 4), 1),
    ("pred", [(8, 128), (4, 1)], (2, 3), 1),
    ("bf16", [(4, 128), (2, 1)], (2, 3), 1),
    ("f32", [(1024,)], (1,), 1),
    ("f32", [(256,)], (1,), 1),
    ("bf16", [(1024,), (128,), (2, 1)], (1,), 1),
    ("s32", [(128,)], (1,), 1),
]
MINOR = [128, 256, 512, 576, 1024, 1280, 1536, 2048, 4096, 14336, 16384, 1000, 100, 64, 32, 7]
MAJOR = [1, 1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 40, 24, 5]
MAX_ELEMENTS = 1 << 36


def gen_shapes(count, seed=0x1A70):
    rng = Rng(seed)
    total = sum(f[3] for f in FAMILIES)
    seen, shapes = set(), []
    while len(shapes) < count:
        r = rng.below(total)
        for fam in FAMILIES:
            r -= fam[3]
            if r < 0:
                break
        ty, tiles, ranks, _ = fam
        rank = rng.pick(ranks)
        dims = [rng.pick(MAJOR) for _ in range(rank - 1)] + [rng.pick(MINOR)]
        if math.prod(dims) > MAX_ELEMENTS:
            continue
        m2m = list(range(rank - 1, -1, -1))
        if rank >= 2 and rng.below(10) < 3:
            # a permuted order: rotate or swap, as transposes leave them
            if rng.below(2):
                m2m = m2m[1:] + m2m[:1]
            else:
                a, b = rng.below(rank), rng.below(rank)
                m2m[a], m2m[b] = m2m[b], m2m[a]
        space = 1 if rng.below(10) < 3 else 0
        text = "%s[%s]{%s:T%s%s}" % (
            ty,
            ",".join(map(str, dims)),
            ",".join(map(str, m2m)),
            "".join("(%s)" % ",".join(map(str, t)) for t in tiles),
            "S(%d)" % space if space else "",
        )
        if text in seen:
            continue
        seen.add(text)
        shapes.append((text, dims, m2m, tiles))
    return shapes


def expand(dims, m2m, tiles):
    """SPEC §2 on expressions: ([expanded dim], [coordinate expression])."""
    phys = list(reversed(m2m))
    cur_d = [dims[l] for l in phys]
    cur_c = ["i%d" % l if dims[l] > 1 else "0" for l in phys]
    for t in tiles:
        k = len(t)
        if k > len(cur_d):
            pad = k - len(cur_d)
            cur_d, cur_c = [1] * pad + cur_d, ["0"] * pad + cur_c
        outer_d, outer_c, inner_d, inner_c = [], [], [], []
        for d, c, s in zip(cur_d[-k:], cur_c[-k:], t):
            outer_d.append(-(-d // s))
            inner_d.append(s)
            if c == "0":
                q, r = "0", "0"
            elif s == 1:
                q, r = c, "0"
            elif d <= s:
                q, r = "0", c
            else:
                q, r = "(%s / %d)" % (c, s), "(%s %% %d)" % (c, s)
            outer_c.append(q)
            inner_c.append(r)
        cur_d = cur_d[:-k] + outer_d + inner_d
        cur_c = cur_c[:-k] + outer_c + inner_c
    return cur_d, cur_c


def hand_expr(dims, m2m, tiles):
    """(slots, index expression): the sum of coordinate × stride."""
    ed, ec = expand(dims, m2m, tiles)
    terms, stride = [], 1
    for d, c in zip(reversed(ed), reversed(ec)):
        if c != "0":
            terms.append(c if stride == 1 else "%s * %d" % (c, stride))
        stride *= d
    return stride, " + ".join(reversed(terms)) or "0"


MANIFEST = """[package]
name = "compile-cost-{name}"
version = "0.0.0"
edition = "2021"
publish = false

[lib]
path = "src/lib.rs"

[dependencies]
tilelayout = {{ path = "{repo}" }}

# Its own workspace: not part of the library's.
[workspace]
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    old = None
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = f.read()
    if old != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def corners(dims):
    pts = [[]]
    for d in dims:
        pts = [p + [v] for p in pts for v in sorted({0, d - 1})]
    return pts


def generate(out, count):
    shapes = gen_shapes(count)
    typed = ["//! Generated by tools/compile-cost/compile_cost.py: {} layout! types.".format(count),
             "#![allow(missing_docs)]", "use tilelayout::{layout, Layout};", ""]
    hand = ["//! Generated by tools/compile-cost/compile_cost.py: the same {} functions, by hand.".format(count),
            "#![allow(missing_docs, clippy::all)]", ""]
    asserted = ["//! Generated by tools/compile-cost/compile_cost.py: {} layout! types and assert_layout!.".format(count),
                "#![allow(missing_docs)]", "use tilelayout::{assert_layout, layout, Layout};", ""]
    tests = []
    rng = Rng(0x7E57)
    for k, (text, dims, m2m, tiles) in enumerate(shapes):
        n = len(dims)
        typed += [
            "pub fn f{:03}(i: [usize; {}]) -> usize {{".format(k, n),
            "    type L = layout!({});".format(text),
            "    L::TEXT.len() + L::SLOTS + L::offset(i)",
            "}",
        ]
        asserted += [
            "pub fn f{:03}(i: [usize; {}]) -> usize {{".format(k, n),
            "    type L = layout!({});".format(text),
            "    assert_layout!(L);",
            "    L::TEXT.len() + L::SLOTS + L::offset(i)",
            "}",
        ]
        slots, expr = hand_expr(dims, m2m, tiles)
        args = "[%s]" % ", ".join(("i%d" % d if dims[d] > 1 else "_") for d in range(n))
        hand += [
            "pub fn f{:03}({}: [usize; {}]) -> usize {{".format(k, args, n),
            "    {} + {} + {}".format(len(text), slots, expr),
            "}",
        ]
        pts = corners(dims) + [[rng.below(d) for d in dims] for _ in range(4)]
        for p in pts:
            tests.append("    assert_eq!(super::f{0:03}({1}), super::hand::f{0:03}({1}));".format(k, p))
    typed += ["", "#[cfg(test)]", '#[path = "../../hand/src/lib.rs"]', "mod hand;", "",
              "#[cfg(test)]", "mod tests {", "#[test]", "fn typed_equals_hand() {"] + tests + ["}", "}"]
    for name, lines in (("typed", typed), ("asserted", asserted), ("hand", hand)):
        write(os.path.join(out, name, "Cargo.toml"), MANIFEST.format(name=name, repo=REPO))
        write(os.path.join(out, name, "src", "lib.rs"), "\n".join(lines) + "\n")
    return shapes


def cargo(out, name, args, env, quiet=True):
    """Runs cargo in crate `name`; returns (wall s, cpu s of children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(["cargo"] + args, cwd=os.path.join(out, name), env=env,
                       stdout=subprocess.DEVNULL if quiet else None, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit("cargo %s in %s failed:\n%s" % (" ".join(args), name, r.stderr[-4000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(REPO, "target", "compile-cost"))
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-verify", action="store_true", help="skip the typed == hand test")
    ap.add_argument("--only", help="comma-separated subset of check,debug,release")
    args = ap.parse_args()

    shapes = generate(args.out, args.count)
    ranks = sorted({len(s[1]) for s in shapes})
    print("generated %d layouts (ranks %s) in %s" % (len(shapes), ranks, args.out))
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(args.out, "target"), CARGO_INCREMENTAL="0")

    if not args.no_verify:
        cargo(args.out, "typed", ["test", "--quiet"], env)
        print("verified: every typed function equals its hand-written twin")

    modes = [("check", ["check"]), ("debug", ["build"]), ("release", ["build", "--release"])]
    if args.only:
        modes = [m for m in modes if m[0] in args.only.split(",")]
    results = {}
    for mode, cmd in modes:
        for name in CRATES:
            cargo(args.out, name, cmd, env)  # warm: dependencies and the crate
            walls, cpus = [], []
            for _ in range(args.runs):
                os.utime(os.path.join(args.out, name, "src", "lib.rs"))
                w, c = cargo(args.out, name, cmd, env)
                walls.append(w)
                cpus.append(c)
            results[(mode, name)] = (statistics.median(walls), statistics.median(cpus))
            print("  %-7s %-5s wall %s  cpu %s" % (mode, name, " ".join("%.2f" % w for w in walls),
                                                  " ".join("%.2f" % c for c in cpus)), flush=True)
    print()
    print("median of %d, wall s / cpu s; added = typed - hand" % args.runs)
    print("%-8s %12s %12s %12s %12s" % ("", "hand", "typed", "asserted", "added"))
    for mode, _ in modes:
        h, t, a = (results[(mode, c)] for c in ("hand", "typed", "asserted"))
        print("%-8s  %5.2f/%5.2f  %5.2f/%5.2f  %5.2f/%5.2f  %5.2f/%5.2f"
              % (mode, h[0], h[1], t[0], t[1], a[0], a[1], t[0] - h[0], t[1] - h[1]))


if __name__ == "__main__":
    main()

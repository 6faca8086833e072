#!/usr/bin/env python3
"""Computes test vectors for the layout algebra with CuTe itself.

Writes core/tests/data/cute_vectors_more.tsv: the cases the first vector
file does not cover (nested by-mode tilers, tile_to_shape with a mode
order, the operations on swizzled layouts, composition with a swizzle or a
swizzled layout), each evaluated by CuTe's own functions.

How: random operands (static, dynamic and mixed integers) are written as
C++ expressions into one program, one `case` per vector; g++ compiles it
against CuTe's headers on the host (the small headers in `stub/` stand in
for the CUDA runtime headers CuTe includes but does not need here). A case
CuTe refuses at compile time (a failed static assertion) is found from
g++'s error locations, marked `!error` and dropped, and the program is
compiled again until it builds. Each remaining case then runs in its own
process: a signal (a division by zero) is `!crash`, otherwise the printed
result is the vector.

Usage (from the repository root; CuTe and libcudacxx sources needed):
  tools/cute-vectors/gen.py --cutlass DIR --cccl DIR [--seed 1] [--count 360]
where DIR/include/cute and DIR/libcudacxx/include exist (NVIDIA/cutlass
7107b05535f8977f5ecb9d01ee203205b1fd9bc4 and NVIDIA/cccl
571f2fc3bc53cd710e306ad43d58995c1fe4219f were used for the committed file).
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "core", "tests", "data", "cute_vectors_more.tsv")

# ---------------------------------------------------------------- operands --
# An integer is (value, static); a tuple is a list; a layout is
# ("L", shape, stride); a tiler is an integer, a layout or a list of tilers.


def cxx_int(i):
    v, st = i
    return f"Int<{v}>{{}}" if st else f"int({v})"


def cxx_tuple(t, maker="make_shape"):
    if isinstance(t, tuple):
        return cxx_int(t)
    return f"{maker}(" + ", ".join(cxx_tuple(x, maker) for x in t) + ")"


def cxx_layout(l):
    _, s, d = l
    if isinstance(s, tuple):
        return f"make_layout({cxx_int(s)}, {cxx_int(d)})"
    return f"make_layout({cxx_tuple(s, 'make_shape')}, {cxx_tuple(d, 'make_stride')})"


def cxx_tiler(t):
    if isinstance(t, tuple) and len(t) == 3 and t[0] == "L":
        return cxx_layout(t)
    if isinstance(t, tuple):
        return cxx_int(t)
    return "make_tile(" + ", ".join(cxx_tiler(x) for x in t) + ")"


def rint(rng, v, p_dyn):
    return (v, rng.random() >= p_dyn)


def size_of(s):
    if isinstance(s, tuple):
        return s[0]
    p = 1
    for x in s:
        p *= size_of(x)
    return p


SMALL = [1, 2, 2, 3, 4, 4, 6, 8]


def rand_shape(rng, depth, p_dyn, rank=None):
    """A shape tree: an integer, or a tuple of rank 1..3 of shapes."""
    if depth == 0 or (rank is None and rng.random() < 0.45):
        return rint(rng, rng.choice(SMALL), p_dyn)
    r = rank if rank is not None else rng.randint(1, 3)
    return [rand_shape(rng, depth - 1, p_dyn) for _ in range(r)]


def leaves(t):
    if isinstance(t, tuple):
        return [t]
    out = []
    for x in t:
        out += leaves(x)
    return out


def rebuild(t, vals):
    if isinstance(t, tuple):
        return vals.pop(0)
    return [rebuild(x, vals) for x in t]


def compact_strides(rng, shape, p_dyn):
    """Strides of a compact layout whose modes are stored in a random order
    (an injective layout), so most operations have something to do."""
    ls = leaves(shape)
    order = list(range(len(ls)))
    rng.shuffle(order)
    strides = [None] * len(ls)
    acc = 1
    for k in order:
        strides[k] = rint(rng, acc, p_dyn)
        acc *= ls[k][0]
    return rebuild(shape, strides)


def rand_layout(rng, depth, p_dyn, rank=None):
    s = rand_shape(rng, depth, p_dyn, rank)
    return ("L", s, compact_strides(rng, s, p_dyn))


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def tiler_for(rng, shape, p_dyn, allow_nested):
    """A tiler fitting `shape` (mostly dividing it): an integer, a layout
    of a divisor, or, for a tuple mode, a tuple of tilers."""
    if not isinstance(shape, tuple) and allow_nested and rng.random() < 0.6:
        r = rng.randint(1, len(shape))
        return [tiler_for(rng, shape[i], p_dyn, True) for i in range(r)]
    n = size_of(shape)
    if rng.random() < 0.1:
        n = n * 2  # sometimes one that does not divide
    d = rng.choice(divisors(n))
    k = rng.random()
    if k < 0.45:
        return rint(rng, d, p_dyn)
    if k < 0.75 or d == n:
        return ("L", rint(rng, d, p_dyn), rint(rng, 1, p_dyn))
    # a strided tile: d elements every n/d
    return ("L", rint(rng, d, p_dyn), rint(rng, n // d, p_dyn))


def rand_nested_tiler(rng, layout_shape, p_dyn):
    """A by-mode tiler with at least one nested mode."""
    r = rng.randint(1, len(layout_shape))
    modes = [tiler_for(rng, layout_shape[i], p_dyn, True) for i in range(r)]
    if not any(isinstance(m, list) for m in modes):
        for i in range(r):
            if isinstance(layout_shape[i], list):
                modes[i] = [tiler_for(rng, x, p_dyn, False) for x in layout_shape[i]]
                break
    return modes


def nested_layout(rng, p_dyn):
    """A rank-2 or rank-3 layout with at least one tuple mode."""
    r = rng.randint(2, 3)
    shape = [rand_shape(rng, 1, p_dyn) for _ in range(r)]
    k = rng.randrange(r)
    if not isinstance(shape[k], list):
        shape[k] = rand_shape(rng, 1, p_dyn, rank=rng.randint(2, 3))
    return ("L", shape, compact_strides(rng, shape, p_dyn))


def swizzle(rng):
    b = rng.randint(0, 3)
    m = rng.randint(0, 3)
    s = rng.choice([b, b + 1, b + 2, -b, -b - 1]) if b > 0 else rng.choice([1, 2, 3, -2])
    if abs(s) < b:
        s = b
    return (b, m, s)


def cxx_swizzle(sw):
    return f"Swizzle<{sw[0]},{sw[1]},{sw[2]}>{{}}"


def cxx_composed(sw, off, l):
    return f"composition({cxx_swizzle(sw)}, {cxx_int(off)}, {cxx_layout(l)})"


def swizzled_layout(rng, p_dyn):
    """`Sw o off o L` over a layout of 2^k elements or so."""
    sw = swizzle(rng)
    shape = [rint(rng, rng.choice([2, 4, 8]), p_dyn) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.3:
        shape[0] = [rint(rng, 2, p_dyn), rint(rng, rng.choice([2, 4]), p_dyn)]
    l = ("L", shape, compact_strides(rng, shape, p_dyn))
    off = (0, True) if rng.random() < 0.7 else (rng.choice([8, 16, 32]), True)
    return sw, off, l


# ------------------------------------------------------------------- cases --
# A case is (op name, [C++ expressions printed as the arguments], C++
# expression of the result).

TILER_OPS = [
    "composition",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
]

SW_TILER_OPS = TILER_OPS[1:]


def nested_cases(rng, n):
    out = []
    for k in range(n):
        p_dyn = [0.0, 0.3, 0.6][k % 3]
        a = nested_layout(rng, p_dyn)
        t = rand_nested_tiler(rng, a[1], p_dyn)
        op = TILER_OPS[k % len(TILER_OPS)]
        ea, et = cxx_layout(a), cxx_tiler(t)
        out.append((op, [ea, et], f"{op}({ea}, {et})"))
    return out


def step(order):
    return "Step<" + ",".join(f"_{o}" for o in order) + ">{}"


def ordered_cases(rng, n):
    out = []
    for k in range(n):
        p_dyn = [0.0, 0.3, 0.6][k % 3]
        r = rng.randint(1, 3)
        block = rand_layout(rng, 1, p_dyn, rank=r)
        rt = rng.randint(r, 3)
        bs = [size_of(block[1][i]) if i < r else 1 for i in range(rt)]
        target = []
        for i in range(rt):
            m = rng.choice([1, 2, 3]) if rng.random() < 0.9 else rng.choice([1, 2]) + 0.5
            v = int(bs[i] * m) if m == int(m) else bs[i] * 2 + 1
            target.append(rint(rng, v, p_dyn))
        order = list(range(1, rt + 1))
        rng.shuffle(order)
        if rng.random() < 0.2 and rt > 1:
            order[1] = order[0]  # a tie
        eb = cxx_layout(block)
        es = cxx_tuple(target)
        if rng.random() < 0.25:
            # the same through a swizzled block
            sw, off, l = swizzled_layout(rng, p_dyn)
            eb = cxx_composed(sw, off, l)
            rt2 = len(l[1])
            es = cxx_tuple([rint(rng, size_of(l[1][i]) * rng.choice([1, 2]), p_dyn) for i in range(rt2)])
            order = list(range(1, rt2 + 1))
            rng.shuffle(order)
        eo = step(order)
        out.append(("tile_to_shape", [eb, es, eo], f"tile_to_shape({eb}, {es}, {eo})"))
    return out


def swizzled_cases(rng, n):
    out = []
    unary = ["coalesce", "complement", "complement_to", "upcast", "downcast", "filter"]
    for k in range(n):
        p_dyn = [0.0, 0.0, 0.4][k % 3]
        sw, off, l = swizzled_layout(rng, p_dyn)
        ea = cxx_composed(sw, off, l)
        kind = k % 4
        if kind == 0:
            op = SW_TILER_OPS[(k // 4) % len(SW_TILER_OPS)]
            shape = l[1]
            t = tiler_for(rng, shape, p_dyn, True) if isinstance(shape, list) else tiler_for(rng, shape, p_dyn, False)
            et = cxx_tiler(t)
            out.append((op, [ea, et], f"{op}({ea}, {et})"))
        elif kind == 1:
            op = ["blocked_product", "raked_product"][(k // 4) % 2]
            b = rand_layout(rng, 1, p_dyn)
            eb = cxx_layout(b)
            out.append((op, [ea, eb], f"{op}({ea}, {eb})"))
        else:
            op = unary[(k // 4 + kind) % len(unary)]
            if op in ("upcast", "downcast"):
                f = rng.choice([2, 4, 8])
                out.append((op, [ea, f"Int<{f}>{{}}"], f"{op}<{f}>({ea})"))
            elif op == "complement_to":
                c = rint(rng, size_of(l[1]) * rng.choice([1, 2, 4]), p_dyn)
                out.append(("complement", [ea, cxx_int(c)], f"complement({ea}, {cxx_int(c)})"))
            else:
                out.append((op, [ea], f"{op}({ea})"))
    return out


def composition_cases(rng, n):
    """composition(Layout, ComposedLayout), (Layout, Swizzle),
    (Swizzle, Layout)."""
    out = []
    for k in range(n):
        p_dyn = [0.0, 0.0, 0.3][k % 3]
        sw, off, l = swizzled_layout(rng, p_dyn)
        # a left layout over the swizzled codomain
        size = 1 << rng.randint(4, 7)
        a_shape = [(rng.choice([2, 4, 8]), rng.random() >= p_dyn)]
        rest = size // a_shape[0][0]
        a_shape.append((rest, rng.random() >= p_dyn))
        a = ("L", a_shape, compact_strides(rng, a_shape, p_dyn))
        ea = cxx_layout(a)
        kind = k % 3
        if kind == 0:
            eb = cxx_composed(sw, (0, True), l)
            out.append(("composition", [ea, eb], f"composition({ea}, {eb})"))
        elif kind == 1:
            es = cxx_swizzle(sw)
            out.append(("composition", [ea, es], f"composition({ea}, {es})"))
        else:
            es = cxx_swizzle(sw)
            el = cxx_layout(l)
            out.append(("composition", [es, el], f"composition({es}, {el})"))
    return out


# ----------------------------------------------------------------- running --

HEADER = """// Generated by tools/cute-vectors/gen.py: one case per vector.
#include <cute/layout.hpp>
#include <cute/swizzle_layout.hpp>
#include <cute/layout_composed.hpp>
#include <cstdio>
#include <cstdlib>
using namespace cute;
template <class T> void show(T const& t) { print(t); printf("\\t"); }
int main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);  // keep the operands if a case crashes
  int which = std::atoi(argv[1]);
  switch (which) {
"""


def program(cases, alive):
    lines = [HEADER]
    where = {}
    for i, (op, args, expr) in enumerate(cases):
        if i not in alive:
            continue
        lines.append(f"  case {i}: {{\n")
        start = sum(x.count("\n") for x in lines) + 1
        for a in args:
            lines.append(f"    show({a});\n")
        lines.append(f"    auto r = {expr};\n")
        lines.append("    print(r); printf(\"\\n\"); break;\n  }\n")
        end = sum(x.count("\n") for x in lines)
        where[i] = (start, end)
    lines.append("  }\n  return 0;\n}\n")
    return "".join(lines), where


def compile_all(cases, incs, work):
    alive = set(range(len(cases)))
    refused = set()
    src = os.path.join(work, "cases.cpp")
    exe = os.path.join(work, "cases")
    while True:
        text, where = program(cases, alive)
        with open(src, "w") as f:
            f.write(text)
        cmd = ["g++", "-std=c++17", "-O0", "-w", "-fmax-errors=100000"]
        for i in incs:
            cmd += ["-I", i]
        cmd += [src, "-o", exe]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode == 0:
            return exe, refused
        bad = set()
        for m in re.finditer(r"cases\.cpp:(\d+):", r.stderr):
            line = int(m.group(1))
            for i, (a, b) in where.items():
                if a <= line <= b:
                    bad.add(i)
        if not bad:
            sys.exit("g++ failed outside the cases:\n" + r.stderr[:4000])
        print(f"  {len(bad)} cases refused at compile time", file=sys.stderr)
        alive -= bad
        refused |= bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cutlass", required=True)
    ap.add_argument("--cccl", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=360)
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    q = args.count // 4
    cases = (
        nested_cases(rng, q)
        + ordered_cases(rng, q)
        + swizzled_cases(rng, q)
        + composition_cases(rng, args.count - 3 * q)
    )
    incs = [
        os.path.join(HERE, "stub"),
        os.path.join(args.cutlass, "include"),
        os.path.join(args.cccl, "libcudacxx", "include"),
    ]
    with tempfile.TemporaryDirectory() as work:
        exe, refused = compile_all(cases, incs, work)
        rows = []
        for i, (op, args_, expr) in enumerate(cases):
            if i in refused:
                # print the operands through a tiny program of their own
                rows.append((i, op, None, "!error"))
                continue
            r = subprocess.run([exe, str(i)], capture_output=True, text=True)
            if r.returncode != 0:
                rows.append((i, op, r.stdout, "!crash"))
            else:
                rows.append((i, op, r.stdout, None))
        # operands of refused cases: print them alone
        need = [i for i, _, out, _ in rows if out is None]
        printed = print_operands(cases, need, incs, work) if need else {}
    with open(args.out, "w") as f:
        f.write(FILE_HEADER)
        for i, op, out, verdict in rows:
            if out is None:
                fields = printed[i]
                result = verdict
            else:
                fields = out.rstrip("\n").split("\t")
                if verdict is None:
                    result = fields.pop()
                else:
                    fields = fields[: len(cases[i][1])]
                    result = verdict
            fields = fields + ["-"] * (3 - len(fields))
            f.write("\t".join([op] + fields + [result]) + "\n")
    print(f"wrote {len(rows)} vectors to {args.out}", file=sys.stderr)


def print_operands(cases, which, incs, work):
    lines = [HEADER]
    for i in which:
        lines.append(f"  case {i}: {{\n")
        for a in cases[i][1]:
            lines.append(f"    show({a});\n")
        lines.append("    printf(\"\\n\"); break;\n  }\n")
    lines.append("  }\n  return 0;\n}\n")
    src = os.path.join(work, "operands.cpp")
    exe = os.path.join(work, "operands")
    with open(src, "w") as f:
        f.write("".join(lines))
    cmd = ["g++", "-std=c++17", "-O0", "-w"]
    for i in incs:
        cmd += ["-I", i]
    subprocess.run(cmd + [src, "-o", exe], check=True)
    out = {}
    for i in which:
        r = subprocess.run([exe, str(i)], capture_output=True, text=True, check=True)
        out[i] = r.stdout.rstrip("\n").rstrip("\t").split("\t")
    return out


FILE_HEADER = """# More of CuTe's own outputs (tools/cute-vectors/gen.py --seed 1), computed by
# CuTe's functions (NVIDIA/cutlass 7107b05535f8977f5ecb9d01ee203205b1fd9bc4,
# include/cute, host-compiled with g++ 12 against NVIDIA/cccl
# 571f2fc3bc53cd710e306ad43d58995c1fe4219f libcudacxx headers) on a CPU:
# nested by-mode tilers, tile_to_shape with a mode order (Step<...>), the
# operations on swizzled layouts, and composition with a swizzle or a
# swizzled layout. One case per line:
#   op <TAB> A <TAB> B <TAB> C <TAB> result
# A, B, C as CuTe printed them ("-" where the op takes fewer arguments; an
# upcast/downcast factor N as _N, a mode order Step<_2,_1> as (_2,_1)).
# result as CuTe printed it, "!error" when CuTe refused the input at compile
# time (a failed static assertion), "!crash" when it failed at run time.
"""

if __name__ == "__main__":
    main()

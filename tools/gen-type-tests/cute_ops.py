#!/usr/bin/env python3
"""Writes the `cute_vectors_as_types` cases of tests/cute_op_types.rs: lines of
core/tests/data/cute_vectors.tsv whose operands and result are all static, as
operation types (`LogicalDivide<cute!("A"), ByMode<(C<2>, C<4>)>>`), at most
N per operation (argv[1]). Only lines that `tilelayout cute` (built at
target/debug/tilelayout) reproduces to the letter are kept: the few CuTe
results the core refuses are shown wrong in core/tests/algebra_vectors.rs.

Usage (from the repository root): python3 tools/gen-type-tests/cute_ops.py 6
"""
import re, subprocess, sys, collections
rows=[l.rstrip('\n').split('\t') for l in open('core/tests/data/cute_vectors.tsv') if not l.startswith('#') and l.strip()]
def static(t): return not re.search(r'(?<![_0-9])-?[0-9]', t)
def split_top(t):
    out=[];d=0;cur=''
    for ch in t:
        if ch=='(' : d+=1
        if ch==')' : d-=1
        if ch==',' and d==0: out.append(cur);cur='';continue
        cur+=ch
    out.append(cur);return out
def top_colon(t):
    d=0
    for i,ch in enumerate(t):
        if ch=='(' : d+=1
        if ch==')' : d-=1
        if ch==':' and d==0: return i
    return -1
def width_ok(t):
    # every tuple at most 8 wide
    stack=[]
    for ch in t:
        if ch=='(' : stack.append(1)
        elif ch==',' and stack: stack[-1]+=1
        elif ch==')':
            if stack.pop()>8: return False
    return True
def cint(s):
    s=s.strip(); assert s.startswith('_'), s; return f"C<{int(s[1:])}>"
def shape_ty(t):
    t=t.strip()
    if t.startswith('('):
        inner=t[1:-1]
        return "("+", ".join(shape_ty(x) for x in split_top(inner))+",)"
    return cint(t)
def tiler_ty(t):
    t=t.strip()
    if top_colon(t)>=0: return f'cute!("{t}")'
    if t.startswith('('):
        parts=split_top(t[1:-1])
        els=[]
        for p in parts:
            if top_colon(p)>=0: els.append(f'cute!("{p}")')
            elif p.startswith('('): return None
            else: els.append(cint(p))
        return "ByMode<("+", ".join(els)+",)>"
    return cint(t)
def rank(t):
    s=t[:top_colon(t)]
    return len(split_top(s[1:-1])) if s.startswith('(') else 1
names={'coalesce':'Coalesce','filter':'Filter','complement':'Complement','right_inverse':'RightInverse','left_inverse':'LeftInverse',
 'composition':'Composition','logical_divide':'LogicalDivide','zipped_divide':'ZippedDivide','tiled_divide':'TiledDivide','flat_divide':'FlatDivide',
 'logical_product':'LogicalProduct','zipped_product':'ZippedProduct','tiled_product':'TiledProduct','blocked_product':'BlockedProduct',
 'raked_product':'RakedProduct','max_common_layout':'MaxCommonLayout','tile_to_shape':'TileToShape','upcast':'Upcast','downcast':'Downcast'}
cands=[]
for op,a,b,want,post in rows:
    if op not in names or want.startswith('!') or post=='0': continue
    if not (static(a) and static(b) and static(want)) : continue
    if not (width_ok(a) and width_ok(b) and width_ok(want)): continue
    if 'Sw<' in a: continue
    cands.append((op,a,b,want))
# keep those our CLI reproduces
inp=''.join(f"{op}\t{a}\n" if b=='-' else f"{op}\t{a}\t{b}\n" for op,a,b,w in cands)
out=subprocess.run(['target/debug/tilelayout','cute','-','--json'],input=inp.encode(),capture_output=True).stdout.decode().splitlines()
import json
per=collections.Counter();lines=[]
for (op,a,b,want),o in zip(cands,out):
    j=json.loads(o)
    if j['result']!=want: continue
    if per[op]>=int(sys.argv[1]): continue
    n=names[op]
    if b=='-':
        if op=='coalesce': ty=f'Coalesce<cute!("{a}")>'
        elif op=='complement': ty=f'Complement<cute!("{a}")>'
        else: ty=f'{n}<cute!("{a}")>'
    else:
        if op=='coalesce': ty=f'CoalesceBy<cute!("{a}"), {shape_ty(b)}>'
        elif op=='complement': ty=f'ComplementTo<cute!("{a}"), {shape_ty(b)}>'
        elif op=='tile_to_shape': ty=f'TileToShape<cute!("{a}"), {shape_ty(b)}>'
        elif op in ('upcast','downcast'): ty=f'{n}<cute!("{a}"), {int(b.lstrip("_"))}>'
        elif op in ('blocked_product','raked_product','max_common_layout'): ty=f'{n}<cute!("{a}"), cute!("{b}")>'
        else:
            tt=tiler_ty(b)
            if tt is None: continue
            ty=f'{n}<cute!("{a}"), {tt}>'
    per[op]+=1
    lines.append(f'    agree::<{ty}, {rank(want)}>("{want}");')
print("\n".join(lines))
print(per, file=sys.stderr)

//! Random CuTe layouts for the algebra's property tests: hierarchical
//! shapes of small extents, static or dynamic integers, strides compact in
//! a random order (optionally with gaps, so not every layout is onto) or
//! arbitrary.
#![allow(dead_code)] // reason: each test file uses a different subset

use proptest::prelude::*;
use tilelayout_core::algebra::{CuteLayout, Tiler};

// the tests' one permutation enumerator
#[path = "../common/mod.rs"]
mod common;
use common::permutations;

/// A shape tree: an integer or a tuple of trees.
#[derive(Clone, Debug)]
pub enum Tree {
    Int(i64),
    Tuple(Vec<Tree>),
}

impl Tree {
    fn leaves(&self, out: &mut Vec<i64>) {
        match self {
            Tree::Int(v) => out.push(*v),
            Tree::Tuple(c) => c.iter().for_each(|t| t.leaves(out)),
        }
    }

    /// The tree printed with the given leaf values and binding times.
    fn render(&self, vals: &mut impl Iterator<Item = (i64, bool)>) -> String {
        match self {
            Tree::Int(_) => {
                let (v, st) = vals.next().unwrap();
                if st {
                    format!("_{v}")
                } else {
                    format!("{v}")
                }
            }
            Tree::Tuple(c) => {
                let parts: Vec<String> = c.iter().map(|t| t.render(vals)).collect();
                format!("({})", parts.join(","))
            }
        }
    }
}

pub fn tree() -> impl Strategy<Value = Tree> {
    let leaf = prop_oneof![
        Just(1i64),
        Just(2),
        Just(2),
        Just(3),
        Just(4),
        Just(4),
        Just(6),
        Just(8)
    ]
    .prop_map(Tree::Int);
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop::collection::vec(inner, 1..=3).prop_map(Tree::Tuple)
    })
}

/// How strides are chosen.
#[derive(Clone, Copy, Debug)]
pub enum Strides {
    /// Compact in a random order: injective and onto `0..size`.
    Compact,
    /// Compact in a random order with gaps: injective.
    Gaps,
    /// Anything, including 0 and repeats.
    Any,
}

/// A layout over a random shape with strides of the given kind; each
/// integer static with probability `p_static`.
pub fn layout(kind: Strides, p_static: f64) -> impl Strategy<Value = CuteLayout> {
    (tree(), any::<u64>())
        .prop_map(move |(t, seed)| {
            let mut rng = Lcg(seed | 1);
            let mut ls = Vec::new();
            t.leaves(&mut ls);
            let n = ls.len();
            let mut order: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                order.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let mut strides = vec![0i64; n];
            let mut cur = 1i64;
            for &i in &order {
                strides[i] = match kind {
                    Strides::Any => [0, 1, 2, 3, 4, 8, 12, 16][rng.below(8) as usize],
                    _ => cur,
                };
                let gap = match kind {
                    Strides::Gaps => 1 + rng.below(2) as i64,
                    _ => 1,
                };
                cur *= ls[i] * gap;
            }
            let mut sv = ls.iter().map(|&v| (v, rng.unit() < p_static));
            let shape = t.render(&mut sv);
            let mut dv = strides.iter().map(|&v| (v, rng.unit() < p_static));
            let stride = t.render(&mut dv);
            CuteLayout::parse(&format!("{shape}:{stride}")).unwrap()
        })
        .prop_filter("small enough to enumerate", |l| {
            l.size().unwrap().value <= 1024 && l.cosize().unwrap().value <= 1 << 16
        })
}

/// A small single-layout tiler (compact or strided).
pub fn small_layout() -> impl Strategy<Value = CuteLayout> {
    (
        prop::collection::vec((1i64..=4, 1i64..=2), 1..=2),
        1i64..=2,
        any::<bool>(),
    )
        .prop_map(|(modes, start, st)| {
            let mut cur = start;
            let mut s = Vec::new();
            let mut d = Vec::new();
            for (e, gap) in modes {
                let p = if st { "_" } else { "" };
                s.push(format!("{p}{e}"));
                d.push(format!("{p}{cur}"));
                cur *= e * gap;
            }
            CuteLayout::parse(&format!("({}):({})", s.join(","), d.join(","))).unwrap()
        })
}

/// A tiler: one small layout, or a by-mode tuple of small layouts and
/// integers.
pub fn tiler() -> impl Strategy<Value = Tiler> {
    prop_oneof![
        small_layout().prop_map(Tiler::layout),
        prop::collection::vec(
            prop_oneof![
                small_layout().prop_map(|l| l.to_string()),
                (1i64..=4).prop_map(|v| format!("_{v}"))
            ],
            1..=2
        )
        .prop_map(|m| Tiler::parse(&format!("({})", m.join(","))).unwrap()),
    ]
}

/// The function of a layout on `0..size` (sizes stay small here).
pub fn image(l: &CuteLayout) -> Vec<i64> {
    let n = l.size().unwrap().value;
    (0..n).map(|i| l.call(i).unwrap()).collect()
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn unit(&mut self) -> f64 {
        (self.next() % 1000) as f64 / 1000.0
    }
}

/// Every flat layout of rank `1..=max_rank` with extents `1..=4` whose
/// strides are compact in some order (every permutation of the modes), in
/// each binding mix of `mixes`: bit `k` of a mix makes stride `k` dynamic
/// (shapes stay static, as CuTe's tilers usually are).
pub fn small_flat_layouts(max_rank: usize, mixes: &[u32]) -> Vec<CuteLayout> {
    let mut out = Vec::new();
    for rank in 1..=max_rank {
        for code in 0..4usize.pow(rank as u32) {
            let ext: Vec<i64> = (0..rank)
                .map(|k| (code / 4usize.pow(k as u32) % 4) as i64 + 1)
                .collect();
            for order in permutations(rank) {
                // `order[j]` is the j-th fastest mode
                let mut stride = vec![0i64; rank];
                let mut cur = 1;
                for &m in &order {
                    stride[m] = cur;
                    cur *= ext[m];
                }
                for &mix in mixes {
                    let bind = |k: usize| if mix >> k & 1 == 1 { "" } else { "_" };
                    let s: Vec<String> = ext.iter().map(|e| format!("_{e}")).collect();
                    let d: Vec<String> = (0..rank)
                        .map(|k| format!("{}{}", bind(k), stride[k]))
                        .collect();
                    out.push(
                        CuteLayout::parse(&format!("({}):({})", s.join(","), d.join(","))).unwrap(),
                    );
                }
            }
        }
    }
    out
}

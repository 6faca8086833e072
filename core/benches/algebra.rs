//! Time per operation of the layout algebra at run time (the operands
//! parsed once, outside the timing), on a few layouts of the sizes GPU
//! code uses.
//!
//! `cargo bench -p tilelayout-core --bench algebra`: for each case, the
//! median µs per call over about 0.3 s. Without `--bench` (as `cargo test
//! --all-targets` runs it) one call each as a smoke check.

use std::hint::black_box;
use std::time::{Duration, Instant};
use tilelayout_core::algebra::{
    coalesce, complement, composition, logical_divide, logical_product, right_inverse,
    zipped_divide, CuteLayout, IntTuple, Tiler,
};

type Case = (&'static str, Box<dyn Fn() -> usize>);

fn len(l: CuteLayout) -> usize {
    l.shape().node_count()
}

fn cases() -> Vec<Case> {
    let a = CuteLayout::parse("(_10,_2):(_16,_4)").unwrap();
    let b = CuteLayout::parse("(_5,_4):(_1,_5)").unwrap();
    let big = CuteLayout::parse("((_8,_16),(_8,_4)):((_1,_512),(_8,_64))").unwrap();
    let t = Tiler::parse("(_8:_1,_32:_1)").unwrap();
    let g = CuteLayout::parse("(_9,(_4,_8)):(_59,(_13,_1))").unwrap();
    let gt = Tiler::parse("(_3:_3,(_2,_4):(_1,_8))").unwrap();
    let blk = CuteLayout::parse("(_2,_2):(_4,_1)").unwrap();
    let six = Tiler::parse("_6:_1").unwrap();
    let sw = CuteLayout::parse("(_4,_2,_3):(_2,_1,_8)").unwrap();
    vec![
        (
            "parse (_9,(_4,_8)):(_59,(_13,_1))",
            Box::new(|| len(CuteLayout::parse(black_box("(_9,(_4,_8)):(_59,(_13,_1))")).unwrap())),
        ),
        (
            "call 24 indices of (_9,(_4,_8)):(_59,(_13,_1))",
            Box::new(move || {
                (0..24)
                    .map(|i| g.call(black_box(i)).unwrap() as usize)
                    .sum()
            }),
        ),
        (
            "coalesce ((_8,_16),(_8,_4)):…",
            Box::new(move || len(coalesce(black_box(&big)).unwrap())),
        ),
        (
            "composition (_10,_2):(_16,_4) o (_5,_4):(_1,_5)",
            Box::new(move || len(composition(black_box(&a), black_box(&b)).unwrap())),
        ),
        (
            "complement _4:_2 in 24",
            Box::new(|| {
                len(complement(
                    &CuteLayout::parse("_4:_2").unwrap(),
                    black_box(&IntTuple::fixed(24)),
                )
                .unwrap())
            }),
        ),
        (
            "logical_divide (_4,_2,_3):(_2,_1,_8) by _4:_2",
            Box::new(move || {
                len(logical_divide(black_box(&sw), &Tiler::parse("_4:_2").unwrap()).unwrap())
            }),
        ),
        (
            "zipped_divide (_9,(_4,_8)) by (_3:_3,(_2,_4):(_1,_8))",
            Box::new(move || len(zipped_divide(black_box(&g), black_box(&gt)).unwrap())),
        ),
        (
            "zipped_divide ((_8,_16),(_8,_4)) by (_8:_1,_32:_1)",
            Box::new(move || len(zipped_divide(black_box(&big), black_box(&t)).unwrap())),
        ),
        (
            "logical_product (_2,_2):(_4,_1) by _6:_1",
            Box::new(move || len(logical_product(black_box(&blk), black_box(&six)).unwrap())),
        ),
        (
            "right_inverse ((_8,_16),(_8,_4)):…",
            Box::new(move || len(right_inverse(black_box(&big)).unwrap())),
        ),
    ]
}

fn main() {
    let benching = std::env::args().any(|a| a == "--bench");
    for (name, f) in cases() {
        if !benching {
            black_box(f());
            continue;
        }
        for _ in 0..20 {
            black_box(f());
        }
        let mut runs = Vec::new();
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(300) || runs.len() < 11 {
            let t = Instant::now();
            for _ in 0..20 {
                black_box(f());
            }
            runs.push(t.elapsed().as_secs_f64() / 20.0);
        }
        runs.sort_by(f64::total_cmp);
        let m = runs[runs.len() / 2] * 1e6;
        let (lo, hi) = (runs[runs.len() / 10] * 1e6, runs[runs.len() * 9 / 10] * 1e6);
        println!("{m:9.3} µs  ({lo:.3}–{hi:.3})  {name}");
    }
    if !benching {
        println!("algebra bench: smoke pass ok (run `cargo bench` to measure)");
    }
}

//! `RelayoutPlan::execute_parallel` (feature `parallel`) writes exactly what
//! `execute` writes — elements, padding, and the untouched slots of strided
//! destinations — for every split of the outermost loop into chunks (on
//! these small arrays forced by `execute_in_chunks`: the size rule would
//! run them on one thread).
#![cfg(feature = "parallel")]

mod relayout_common;
use relayout_common::{perms, shape, strided};
use tilelayout::storage::{ArrayLayout, RelayoutPlan};

// Under Miri (interpreted; each comparison runs 8 relayouts, 6 of them on
// threads) a small sample: one shape, one tiling in each order, three
// widths, and the thread-count test on a quarter of its array. Natively,
// everything.
#[cfg(miri)]
const DIMS: &[&[u64]] = &[&[16, 48]];
#[cfg(miri)]
const TILES: &[&str] = &["T(8,16)"];
const WIDTHS: usize = if cfg!(miri) { 3 } else { 6 };
const ROWS: usize = if cfg!(miri) { 16 } else { 64 };
/// The splits compared, (threads, chunks); `None`: `execute_parallel` on
/// 2 threads. Under Miri two (fewer runs than the three thread counts
/// compared before the chunks, to keep its time flat).
const SPLITS: &[Split] = if cfg!(miri) {
    &[Some((2, 2)), Some((3, 7))]
} else {
    &[Some((2, 2)), Some((3, 3)), Some((5, 5)), Some((2, 7)), None]
};
/// More than one plan in this many splits (the sample: 12 of 48).
const SPLIT_ONE_IN: usize = if cfg!(miri) { 5 } else { 4 };

#[cfg(not(miri))]
const DIMS: &[&[u64]] = &[&[16, 48], &[24, 40], &[9, 33], &[4, 6, 10], &[3, 256]];
#[cfg(not(miri))]
const TILES: &[&str] = &[
    "",
    "T(8,16)",
    "T(8,16)(2,1)",
    "T(4,8)(4,1)",
    "T(2,4)",
    "T(8,128)",
];

/// Serial and parallel runs from the same starting destination bytes, on
/// each of [`SPLITS`] (odd counts, more chunks than threads, more than some
/// plans' parts), with and without streaming stores.
/// Returns whether the plan splits at all.
fn same(src: ArrayLayout, dst: ArrayLayout, bits: u32) -> bool {
    let plan = RelayoutPlan::new(src, dst).unwrap();
    let ub = if bits < 8 { 1 } else { bits as usize / 8 };
    let (sn, dn) = (
        plan.src_units(ub) as usize * ub,
        plan.dst_units(ub) as usize * ub,
    );
    let src_bytes: Vec<u8> = (0..sn).map(|i| (i * 131 + i / 7) as u8).collect();
    let start: Vec<u8> = (0..dn).map(|i| (i * 17) as u8 ^ 0xA5).collect();
    for nt in [Some(false), Some(true)] {
        let plan = plan.clone().with_streaming(nt);
        let want = run(&plan, &src_bytes, &start, bits, None);
        for &split in SPLITS {
            let got = run(&plan, &src_bytes, &start, bits, Some(split));
            assert!(
                got == want,
                "{src:?} -> {dst:?}, (threads, chunks) {split:?}, streaming {nt:?}: {:?}",
                plan.stats()
            );
        }
    }
    plan.parallel_parts() > 1
}

/// How a run splits: `None` through `execute_parallel` (its size rule),
/// else (threads, chunks).
type Split = Option<(usize, usize)>;

fn run(plan: &RelayoutPlan, src: &[u8], start: &[u8], bits: u32, split: Option<Split>) -> Vec<u8> {
    fn go<U: tilelayout::storage::Unit>(
        plan: &RelayoutPlan,
        src: &[u8],
        start: &[u8],
        pad: U,
        split: Option<Split>,
    ) -> Vec<u8> {
        let s: Vec<U> = bytemuck::pod_collect_to_vec(src);
        let mut d: Vec<U> = bytemuck::pod_collect_to_vec(start);
        match split {
            None => plan.execute_with_padding(&s, &mut d, pad).unwrap(),
            Some(None) => plan
                .execute_parallel_with_padding(&s, &mut d, pad, 2)
                .unwrap(),
            Some(Some((t, c))) => plan.execute_in_chunks(&s, &mut d, pad, t, c).unwrap(),
        }
        bytemuck::cast_slice(&d).to_vec()
    }
    match bits {
        1..=8 => go::<u8>(plan, src, start, 0x5A, split),
        16 => go::<u16>(plan, src, start, 0x5A5A, split),
        32 => go::<f32>(plan, src, start, f32::from_bits(0x5A5A_5A5A), split),
        64 => go::<u64>(plan, src, start, 0x5A5A_5A5A_5A5A_5A5A, split),
        _ => unreachable!(),
    }
}

#[test]
fn parallel_runs_write_what_serial_runs_write() {
    let mut split = 0;
    let mut total = 0;
    for (ty, bits, e) in [
        ("f32", 32, ""),
        ("bf16", 16, ""),
        ("s8", 8, ""),
        ("f64", 64, ""),
        ("s4", 4, "E(4)"),
        ("pred", 1, "E(1)"),
    ]
    .into_iter()
    .step_by(6 / WIDTHS)
    {
        for dims in DIMS {
            let tiled: Vec<ArrayLayout> = perms(dims.len())
                .into_iter()
                .flat_map(|m| TILES.iter().map(move |t| (m.clone(), *t)))
                .filter(|(_, t)| dims.len() >= 2 || t.is_empty())
                .map(|(m, t)| shape(ty, dims, &m, &format!("{t}{e}")).into())
                .collect();
            let rows: Vec<ArrayLayout> = strided(dims, bits).into_iter().map(Into::into).collect();
            for t in &tiled {
                for s in &rows {
                    for (a, b) in [(*s, *t), (*t, *s)] {
                        split += same(a, b, bits) as usize;
                        total += 1;
                    }
                }
                // tiled -> tiled: to the first tiling of every order
                for u in tiled.iter().step_by(TILES.len()) {
                    split += same(*t, *u, bits) as usize;
                    total += 1;
                }
            }
        }
    }
    // many plans split (not a vacuous comparison; the others have no loop
    // owning disjoint destination ranges, mostly small arrays whose rows
    // coalesce into the kernel's loops): 1639 of 4896 when written
    assert!(
        split * SPLIT_ONE_IN > total,
        "{split} of {total} plans split"
    );
}

#[test]
fn the_benchmark_layouts_split_into_row_bands() {
    let rows = |bits| tilelayout::storage::Strided::row_major(&[4096, 4096], bits).unwrap();
    for (text, bits) in [
        ("f32[4096,4096]{1,0:T(8,128)}", 32),
        ("bf16[4096,4096]{1,0:T(8,128)(2,1)}", 16),
        ("s8[4096,4096]{1,0:T(8,128)(4,1)}", 8),
    ] {
        let t = tilelayout::value::parse_shape(text).unwrap();
        for plan in [
            RelayoutPlan::new(rows(bits), t),
            RelayoutPlan::new(t, rows(bits)),
        ] {
            assert_eq!(plan.unwrap().parallel_parts(), 512, "{text}");
        }
    }
}

#[test]
fn bad_lengths_are_errors_not_panics() {
    let t = tilelayout::value::parse_shape("f32[16,48]{1,0:T(8,16)}").unwrap();
    let plan = RelayoutPlan::new(
        tilelayout::storage::Strided::row_major(&[16, 48], 32).unwrap(),
        t,
    )
    .unwrap();
    let src = vec![0.0f32; 16 * 48];
    let mut short = vec![0.0f32; 10];
    assert!(plan.execute_parallel(&src, &mut short, 2).is_err());
    assert!(plan
        .execute_parallel(&src[..5], &mut vec![0.0f32; 16 * 48], 2)
        .is_err());
}

#[test]
fn more_threads_than_parts_and_zero_threads_are_fine() {
    let text = format!("bf16[{ROWS},256]{{1,0:T(8,128)(2,1)}}");
    let t = tilelayout::value::parse_shape(&text).unwrap();
    let rows = tilelayout::storage::Strided::row_major(&[ROWS as u64, 256], 16).unwrap();
    let plan = RelayoutPlan::new(rows, t).unwrap();
    assert_eq!(plan.parallel_parts(), ROWS as u64 / 8);
    let src: Vec<u16> = (0..ROWS * 256).map(|i| i as u16).collect();
    let mut want = vec![0u16; ROWS * 256];
    plan.execute(&src, &mut want).unwrap();
    for threads in [0, 1, 8, 9, 1000] {
        let mut got = vec![7u16; ROWS * 256];
        plan.execute_parallel(&src, &mut got, threads).unwrap();
        assert_eq!(got, want, "{threads} threads");
        // (under Miri only the threads at most as many as the parts, on
        // more chunks than threads and than parts)
        let chunk_counts: &[usize] = if cfg!(miri) {
            if threads > ROWS / 8 {
                &[]
            } else {
                &[3, ROWS / 8 + 1]
            }
        } else {
            &[0, 1, 3, ROWS / 8, ROWS / 8 + 1, 1000]
        };
        for &chunks in chunk_counts {
            let mut got = vec![7u16; ROWS * 256];
            plan.execute_in_chunks(&src, &mut got, 0, threads, chunks)
                .unwrap();
            assert_eq!(got, want, "{threads} threads, {chunks} chunks");
        }
    }
}

#[test]
fn the_last_chunk_writes_the_tail_padding() {
    // `L(n)` rounds the storage up past the last tile: only the chunk that
    // ends the destination may write it (sizes chosen so that it is there)
    for (text, bits) in [
        ("f32[40,200]{1,0:T(8,128)L(12000)}", 32),
        ("s4[40,200]{1,0:T(8,128)(8,1)L(12000)E(4)}", 4),
    ] {
        let t = tilelayout::value::parse_shape(text).unwrap();
        let rows = tilelayout::storage::Strided::row_major(&[40, 200], bits).unwrap();
        let plan = RelayoutPlan::new(rows, t).unwrap();
        let ub = if bits < 8 { 1 } else { bits as usize / 8 };
        let dn = plan.dst_units(ub) as usize * ub;
        let src: Vec<u8> = (0..plan.src_units(ub) as usize * ub)
            .map(|i| i as u8)
            .collect();
        let start = vec![0xA5u8; dn];
        let want = run(&plan, &src, &start, bits, None);
        // padding past the tiles' 5 · 2 · 1024 slots, written as 0x5A (s4:
        // its low nibble in both halves)
        let tail = 5 * 2 * 1024 * bits as usize / 8;
        let pad = if bits == 4 { 0xAA } else { 0x5A };
        assert!(
            dn > tail && want[tail..].iter().all(|&b| b == pad),
            "{text}"
        );
        let splits: &[(usize, usize)] = if cfg!(miri) {
            &[(2, 5)]
        } else {
            &[(2, 2), (2, 5), (3, 5)]
        };
        for &split in splits {
            let got = run(&plan, &src, &start, bits, Some(Some(split)));
            assert!(got == want, "{text}: (threads, chunks) {split:?}");
        }
    }
}

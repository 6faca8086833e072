//! Relayout throughput against `memcpy` (`copy_from_slice` of the same byte
//! count), measured in the same run, single thread, median of several runs.
//!
//! `cargo bench --bench relayout [FILTER]` (env `RELAYOUT_RUNS`, default 9;
//! `RELAYOUT_NT=0|1` forces non-temporal stores off or on). With
//! `--features parallel`, `RELAYOUT_THREADS=N` runs
//! `RelayoutPlan::execute_parallel` on N threads (memcpy stays on one).
//! GB/s counts the destination bytes written per second; the ratio is the
//! median over runs of (memcpy time / relayout time), each pair timed back
//! to back so that both see the same load on a shared machine; `best` is
//! the ratio of the fastest runs.

use std::hint::black_box;
use std::time::Instant;

use tilelayout::storage::{RelayoutPlan, Strided, Unit};
use tilelayout::value::parse_shape;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn runs() -> usize {
    std::env::var("RELAYOUT_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(9)
}

fn secs(f: &mut impl FnMut()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

fn case<U: Unit>(name: &str, plan: &RelayoutPlan) {
    // RELAYOUT_NT=0/1 forces streaming stores off/on (default: by size)
    let nt = std::env::var("RELAYOUT_NT").ok().map(|v| v == "1");
    let plan = &plan.clone().with_streaming(nt);
    let ub = std::mem::size_of::<U>();
    let (sn, dn) = (plan.src_units(ub) as usize, plan.dst_units(ub) as usize);
    // buffers start on a 64-byte line (as host buffers for devices do;
    // RELAYOUT_ALIGN=0 keeps the allocator's alignment)
    let align = std::env::var("RELAYOUT_ALIGN").map_or(true, |v| v != "0");
    let mut src_buf: Vec<U> = (0..sn + 64)
        .map(|i| bytemuck::cast_slice::<u8, U>(&((i as u64).to_le_bytes()))[0])
        .collect();
    let mut dst_buf = vec![U::default(); dn + 64];
    let so = if align {
        src_buf.as_ptr().align_offset(64)
    } else {
        0
    };
    let dof = if align {
        dst_buf.as_ptr().align_offset(64)
    } else {
        0
    };
    let src = &mut src_buf[so..so + sn];
    let dst = &mut dst_buf[dof..dof + dn];
    let bytes = dn * ub;
    let mut m_src = vec![1u8; bytes + 64];
    let mut m_dst = vec![0u8; bytes + 64];
    let (mo, md) = if align {
        (
            m_src.as_ptr().align_offset(64),
            m_dst.as_ptr().align_offset(64),
        )
    } else {
        (0, 0)
    };
    let msrc = &mut m_src[mo..mo + bytes];
    let mdst = &mut m_dst[md..md + bytes];
    let threads: usize = std::env::var("RELAYOUT_THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    let mut relayout = || {
        #[cfg(feature = "parallel")]
        if threads != 1 {
            plan.execute_parallel(black_box(&*src), dst, threads)
                .unwrap();
            black_box(&mut *dst);
            return;
        }
        let _ = threads;
        plan.execute(black_box(&*src), dst).unwrap();
        black_box(&mut *dst);
    };
    let mut memcpy = || {
        mdst.copy_from_slice(black_box(&*msrc));
        black_box(&mut *mdst);
    };
    // warm-up (page faults), then alternate so both see the same machine
    relayout();
    memcpy();
    let (mut ts, mut ms, mut rs) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs() {
        let m = secs(&mut memcpy);
        let t = secs(&mut relayout);
        ts.push(t);
        ms.push(m);
        rs.push(m / t);
    }
    let best =
        ms.iter().cloned().fold(f64::MAX, f64::min) / ts.iter().cloned().fold(f64::MAX, f64::min);
    let (t, m, r) = (median(ts), median(ms), median(rs));
    let st = plan.stats();
    println!(
        "{name:<46} {:>6.2} GB/s  memcpy {:>6.2} GB/s  ratio {:>5.2}x (best {:>4.2}x)  [{:?} {}x{}{}]",
        bytes as f64 / t / 1e9,
        bytes as f64 / m / 1e9,
        r,
        best,
        st.kernel,
        st.block.0,
        st.block.1,
        if st.streaming { " nt" } else { "" }
    );
}

/// One bf16[8,128] tile from row-major, repeatedly: what a kernel copying
/// small tiles pays per copy (a plan made once, made per call, and the
/// layout type's compile-time plan).
fn small_tile() {
    use tilelayout::layout_array;
    let n = 20_000;
    let per = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        t.elapsed().as_nanos() as f64 / n as f64
    };
    let rows = vec![half::bf16::ONE; 8 * 128];
    let shape = parse_shape("bf16[8,128]{1,0:T(8,128)(2,1)}").unwrap();
    let src = Strided::row_major(&[8, 128], 16).unwrap();
    let plan = RelayoutPlan::new(src, shape).unwrap();
    let mut tile = <layout_array!(bf16[8,128]{1,0:T(8,128)(2,1)})>::default();
    let mut memcpy_dst = vec![half::bf16::ZERO; 8 * 128];
    let mut best = [0.0f64; 4];
    for _ in 0..runs() {
        let r = [
            per(&mut || {
                memcpy_dst.copy_from_slice(black_box(&rows));
                black_box(&mut memcpy_dst);
            }),
            per(&mut || {
                plan.execute(black_box(&rows), tile.view_mut().units_mut())
                    .unwrap()
            }),
            per(&mut || {
                let p = RelayoutPlan::new(black_box(src), black_box(shape)).unwrap();
                p.execute(black_box(&rows), tile.view_mut().units_mut())
                    .unwrap()
            }),
            per(&mut || {
                tile.view_mut()
                    .copy_from_row_major(black_box(&rows))
                    .unwrap()
            }),
        ];
        for (a, b) in best.iter_mut().zip(r) {
            *a = if *a == 0.0 { b } else { a.min(b) };
        }
    }
    println!(
        "bf16[8,128] tile rows -> (8,128)(2,1), ns per copy (best): memcpy {:.0}, plan made once {:.0}, plan per call {:.0}, layout type (compile-time plan) {:.0}",
        best[0], best[1], best[2], best[3]
    );
}

fn main() {
    let plan = |src: &str, dst: &str| {
        let s = parse_shape(src).unwrap();
        let d = parse_shape(dst).unwrap();
        RelayoutPlan::new(s, d).unwrap()
    };
    let rows = |dims: &[u64], bits| Strided::row_major(dims, bits).unwrap();
    let tiled = |t: &str| parse_shape(t).unwrap();
    let only = std::env::args().nth(1).filter(|a| !a.starts_with('-'));
    let want = |n: &str| only.as_deref().is_none_or(|o| n.contains(o));
    println!("runs per case: {} (median)", runs());

    let n = &[4096u64, 4096];
    let f32t = tiled("f32[4096,4096]{1,0:T(8,128)}");
    if want("f32 rows->T") {
        case::<f32>(
            "f32[4096,4096] rows -> {1,0:T(8,128)}",
            &RelayoutPlan::new(rows(n, 32), f32t).unwrap(),
        );
    }
    if want("f32 T->rows") {
        case::<f32>(
            "f32[4096,4096] {1,0:T(8,128)} -> rows",
            &RelayoutPlan::new(f32t, rows(n, 32)).unwrap(),
        );
    }
    let bft = tiled("bf16[4096,4096]{1,0:T(8,128)(2,1)}");
    if want("bf16 rows->T") {
        case::<u16>(
            "bf16[4096,4096] rows -> {1,0:T(8,128)(2,1)}",
            &RelayoutPlan::new(rows(n, 16), bft).unwrap(),
        );
    }
    if want("bf16 T->rows") {
        case::<u16>(
            "bf16[4096,4096] {1,0:T(8,128)(2,1)} -> rows",
            &RelayoutPlan::new(bft, rows(n, 16)).unwrap(),
        );
    }
    let s8t = tiled("s8[4096,4096]{1,0:T(8,128)(4,1)}");
    if want("s8 rows->T") {
        case::<i8>(
            "s8[4096,4096] rows -> {1,0:T(8,128)(4,1)}",
            &RelayoutPlan::new(rows(n, 8), s8t).unwrap(),
        );
    }
    if want("s8 T->rows") {
        case::<i8>(
            "s8[4096,4096] {1,0:T(8,128)(4,1)} -> rows",
            &RelayoutPlan::new(s8t, rows(n, 8)).unwrap(),
        );
    }
    if want("f32 T->T") {
        case::<f32>(
            "f32[4096,4096] {1,0:T(8,128)} -> {0,1:T(8,128)}",
            &plan(
                "f32[4096,4096]{1,0:T(8,128)}",
                "f32[4096,4096]{0,1:T(8,128)}",
            ),
        );
    }
    // a column-major source (gather kernel with 8 x 8 transposes)
    if want("f32 cols->T") {
        let cols = Strided::column_major(n, 32).unwrap();
        case::<f32>(
            "f32[4096,4096] cols -> {1,0:T(8,128)}",
            &RelayoutPlan::new(cols, f32t).unwrap(),
        );
    }
    // in-cache variants (L2 is 2 MiB here): what the kernels cost without
    // the memory system
    let m = &[1024u64, 1024];
    let bfm = tiled("bf16[1024,1024]{1,0:T(8,128)(2,1)}");
    if want("bf16 1024") {
        case::<u16>(
            "bf16[1024,1024] rows -> {1,0:T(8,128)(2,1)}",
            &RelayoutPlan::new(rows(m, 16), bfm).unwrap(),
        );
        case::<u16>(
            "bf16[1024,1024] {1,0:T(8,128)(2,1)} -> rows",
            &RelayoutPlan::new(bfm, rows(m, 16)).unwrap(),
        );
    }
    let s8m = tiled("s8[1024,1024]{1,0:T(8,128)(4,1)}");
    if want("s8 1024") {
        case::<i8>(
            "s8[1024,1024] rows -> {1,0:T(8,128)(4,1)}",
            &RelayoutPlan::new(rows(m, 8), s8m).unwrap(),
        );
        case::<i8>(
            "s8[1024,1024] {1,0:T(8,128)(4,1)} -> rows",
            &RelayoutPlan::new(s8m, rows(m, 8)).unwrap(),
        );
    }
    if want("tile") {
        small_tile();
    }
    let small = tiled("f32[1000,1000]{1,0:T(8,128)}");
    if want("f32 1000 rows->T") {
        case::<f32>(
            "f32[1000,1000] rows -> {1,0:T(8,128)} (padded)",
            &RelayoutPlan::new(rows(&[1000, 1000], 32), small).unwrap(),
        );
    }
    if want("f32 1000 T->rows") {
        case::<f32>(
            "f32[1000,1000] {1,0:T(8,128)} -> rows (padded)",
            &RelayoutPlan::new(small, rows(&[1000, 1000], 32)).unwrap(),
        );
    }
}

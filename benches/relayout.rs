//! Relayout throughput against `memcpy` (`copy_from_slice` of the same byte
//! count), measured in the same run, single thread, median of several runs.
//!
//! `cargo bench --bench relayout [FILTER]` (env `RELAYOUT_RUNS`, default 9;
//! `RELAYOUT_NT=0|1` forces non-temporal stores off or on;
//! `RELAYOUT_CLOCK=cpu` times by the thread's CPU time rather than the wall
//! clock, for a machine shared with other work). With
//! `--features parallel`, each case also prints a line per thread count of
//! `RELAYOUT_THREADS` (a comma-separated list of counts, `all` for
//! `available_parallelism`; default `1,2,all`): `RelayoutPlan::execute_parallel`
//! on that many threads beside memcpy split into as many chunks on as many
//! scoped threads, both by the wall clock (a thread's CPU time does not
//! count the others'), ratio to that memcpy and GB/s of both, and the CPU
//! time of all the process's threads per call (on a shared machine the
//! wall clock counts the waits for a core: the CPU time staying flat as
//! threads are added says the split adds no work and no stalls).
//!
//! Every case prints two lines: `vec`, plain `Vec` buffers (the
//! allocator's alignment, as a user's buffers are; memcpy on plain `Vec`s
//! too), and `al64`, buffers starting on a 64-byte line (memcpy likewise).
//! The (first) `vec` line also times what a Rust user would write
//! instead: `ndarray` (reshape + permuted axes + `as_standard_layout`) and
//! a naive nested loop with the tile index math; both are checked once
//! against the plan's output. They are timed after the plan, each in
//! rounds of its own beside a memcpy timed in those rounds (their ratio is
//! to that memcpy): timed in the plan's rounds, they evicted what memcpy
//! and the plan would find in L2/L3 between runs, and an in-cache case
//! (f32[1000,1000] padded, 4 MB) read 1.04x on that line against 0.83x
//! at the same placement without them.
//!
//! After the plan's kernel and block, `@S→D (memcpy @S→D)` gives the
//! byte offsets in their 64-byte lines at which the source and the
//! destination start, the plan's and memcpy's (plain `Vec`s land where
//! the allocator puts them, which moves with the buffers earlier cases
//! freed, so a filtered run can place them differently from a full one).
//!
//! `RELAYOUT_AT=S,D` puts them there instead: the `vec` line's source
//! starts `S` bytes into a line and its destination `D` bytes, memcpy's
//! likewise (ordinary `Vec`s over-allocated by a line and sliced; an
//! offset is rounded down to a multiple of the unit). Several
//! placements, separated by spaces, give one `vec` line each, e.g. every
//! case at destination offsets 0/16/32/48 (the `al64` line stays on
//! lines):
//!
//! ```text
//! RELAYOUT_AT="0,0 0,16 0,32 0,48" cargo bench --bench relayout
//! ```
//!
//! Unset, the `vec` line keeps the allocator's placement, as a user's
//! buffers get (the goals are judged on it).
//!
//! GB/s counts the destination bytes written per second; a ratio is the
//! median over runs of (memcpy time / that time), each run timing memcpy
//! and the contender back to back so that both see the same load on a
//! shared machine. For a case the plan keeps in cache (it does not
//! stream), a run times each of them over as many calls in a row as
//! memcpy needs for `RELAYOUT_SAMPLE_MS` milliseconds (default 2; `0` for
//! one call), so that it (f32[1000,1000] padded, ~0.2 ms a call) is timed
//! in its own steady state, not each call against the other contender's
//! dirty lines, with a sample long beside the timer's and the host's
//! noise; the line below a case says how many. A case the plan streams
//! is timed a call a sample (in a run of calls memcpy would keep 8 MiB
//! buffers in cache while the plan's streaming stores go to memory); `[lo–hi]` is the range over runs and `best` the ratio
//! of the fastest runs (the steadier figure on a loaded machine).

use std::hint::black_box;
use std::time::Instant;

use ndarray::{ArrayView, IxDyn};
use tilelayout::storage::{RelayoutPlan, Strided, Unit};
use tilelayout::value::parse_shape;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn range(v: &[f64]) -> (f64, f64) {
    let lo = v.iter().cloned().fold(f64::MAX, f64::min);
    let hi = v.iter().cloned().fold(f64::MIN, f64::max);
    (lo, hi)
}

fn runs() -> usize {
    std::env::var("RELAYOUT_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(9)
}

/// Whether to time by the thread's CPU time (`RELAYOUT_CLOCK=cpu`:
/// `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`) instead of the wall clock: on
/// a machine shared with other work the wall clock also counts the time
/// the thread waited for a core.
fn cpu_clock() -> bool {
    static CPU: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CPU.get_or_init(|| std::env::var("RELAYOUT_CLOCK").is_ok_and(|v| v == "cpu"))
}

/// The thread's CPU time so far, in seconds.
fn on_cpu() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable `timespec`; the clock id is a
    // constant every Linux kernel since 2.6.12 knows (on failure `t` stays
    // zero, and the figures show it).
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

fn secs(f: &mut dyn FnMut()) -> f64 {
    if cpu_clock() {
        let t = on_cpu();
        f();
        return on_cpu() - t;
    }
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

/// How many calls one timed sample of a case the plan keeps in cache
/// makes: enough for memcpy's calls to last `RELAYOUT_SAMPLE_MS`
/// milliseconds (default 2, `0` for one call), at least one. A 4 MB
/// in-cache copy takes ~0.2 ms: one call a sample, alternated with the
/// other contender's, timed each first call against the other's dirty
/// lines in L2/L3 rather than its own steady state in cache.
fn calls_per_sample(memcpy: &mut dyn FnMut()) -> usize {
    let want = std::env::var("RELAYOUT_SAMPLE_MS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(2.0)
        / 1e3;
    let one = (0..3).map(|_| secs(memcpy)).fold(f64::INFINITY, f64::min);
    ((want / one).ceil() as usize).clamp(1, 1000)
}

/// Seconds per call of `f` over `n` calls back to back (by [`secs`]).
fn per_call(f: &mut dyn FnMut(), n: usize) -> f64 {
    secs(&mut || {
        for _ in 0..n {
            f();
        }
    }) / n as f64
}

/// A buffer of `n` units: plain (`Vec`'s own alignment, `None`) or
/// starting `Some(b)` bytes into a 64-byte line (rounded down to a whole
/// unit).
struct Buf<U> {
    v: Vec<U>,
    at: usize,
    n: usize,
}

impl<U: Unit> Buf<U> {
    fn new(n: usize, into_line: Option<usize>, init: impl Fn(usize) -> U) -> Self {
        let extra = if into_line.is_some() { 128 } else { 0 };
        let v: Vec<U> = (0..n + extra).map(init).collect();
        let at = into_line.map_or(0, |b| {
            let u = std::mem::size_of::<U>();
            v.as_ptr().align_offset(64) + b % 64 / u
        });
        Buf { v, at, n }
    }
    fn get(&mut self) -> &mut [U] {
        &mut self.v[self.at..self.at + self.n]
    }
}

/// What a user writes instead of a plan: an `ndarray` view of the source
/// reshaped to `shape`, its axes permuted by `perm`, copied to standard
/// (row-major) order.
#[derive(Clone)]
struct Nd {
    shape: Vec<usize>,
    perm: Vec<usize>,
}

fn nd(shape: &[usize], perm: &[usize]) -> Option<Nd> {
    Some(Nd {
        shape: shape.to_vec(),
        perm: perm.to_vec(),
    })
}

/// A naive relayout of a case (source units to destination units).
type Naive<'a, U> = &'a dyn Fn(&[U], &mut [U]);

/// A contender timed beside the plan.
type Contender<'a> = (&'static str, Box<dyn FnMut() + 'a>);

/// A unit offset of a logical index `(i, j, k)` on one side.
type Off<'a> = dyn Fn(usize, usize, usize) -> usize + 'a;

/// The naive loop: every logical index in row-major order, `dst[fd] =
/// src[fs]` with the offsets computed per element.
#[inline(never)]
fn naive<U: Copy>(src: &[U], dst: &mut [U], dims: [usize; 3], fs: &Off<'_>, fd: &Off<'_>) {
    for i in 0..dims[0] {
        for j in 0..dims[1] {
            for k in 0..dims[2] {
                dst[fd(i, j, k)] = src[fs(i, j, k)];
            }
        }
    }
}

/// The placements of `RELAYOUT_AT` (see the top of the file): `(S, D)`
/// byte offsets into a line of the source and the destination.
fn placements() -> Option<Vec<(usize, usize)>> {
    let v = std::env::var("RELAYOUT_AT").ok()?;
    let p: Vec<(usize, usize)> = v
        .split_whitespace()
        .map(|p| {
            let (a, b) = p.split_once(',').expect("RELAYOUT_AT: S,D pairs");
            let n = |x: &str| {
                x.trim()
                    .parse::<usize>()
                    .expect("RELAYOUT_AT: a byte offset")
            };
            (n(a) % 64, n(b) % 64)
        })
        .collect();
    (!p.is_empty()).then_some(p)
}

/// One case: the plan on plain and on aligned buffers, and on the plain
/// ones the alternatives (checked once against the plan's output).
fn case<U: Unit>(
    name: &str,
    plan: &RelayoutPlan,
    alt_nd: Option<Nd>,
    alt_naive: Option<Naive<'_, U>>,
) {
    // RELAYOUT_NT=0/1 forces streaming stores off/on (default: by size)
    let nt = std::env::var("RELAYOUT_NT").ok().map(|v| v == "1");
    let plan = &plan.clone().with_streaming(nt);
    let ub = std::mem::size_of::<U>();
    let (sn, dn) = (plan.src_units(ub) as usize, plan.dst_units(ub) as usize);
    let bytes = dn * ub;
    let init = |i: usize| bytemuck::cast_slice::<u8, U>(&((i as u64).to_le_bytes()))[0];
    // the `vec` lines' placements (`None`: the allocator's), then `al64`
    let mut places: Vec<(bool, Option<(usize, usize)>)> = match placements() {
        Some(p) => p.into_iter().map(|p| (false, Some(p))).collect(),
        None => vec![(false, None)],
    };
    places.push((true, Some((0, 0))));
    for (k, (aligned, at)) in places.into_iter().enumerate() {
        // the alternatives and thread counts beside the first `vec` line
        let first = k == 0 && !aligned;
        let (s_at, d_at) = (at.map(|a| a.0), at.map(|a| a.1));
        let mut src = Buf::<U>::new(sn, s_at, init);
        let mut dst = Buf::<U>::new(dn, d_at, |_| U::default());
        let mut msrc = Buf::<u8>::new(bytes, s_at, |i| i as u8);
        let mut mdst = Buf::<u8>::new(bytes, d_at, |_| 0);
        let (src, dst) = (&*src.get(), dst.get());
        let (msrc, mdst) = (&*msrc.get(), mdst.get());
        // where the four buffers start in their lines (plain `Vec`s land
        // where the allocator puts them, which moves with the buffers the
        // earlier cases freed; an unaligned destination costs a kernel
        // more than it costs memcpy)
        let at = |p: *const u8| p.addr() % 64;
        let place = format!(
            "@{}→{} (memcpy @{}→{})",
            at(src.as_ptr().cast()),
            at(dst.as_ptr().cast()),
            at(msrc.as_ptr()),
            at(mdst.as_ptr())
        );
        // warm-up (page faults), and the output the others must match
        plan.execute(src, dst).unwrap();
        let want = dst.to_vec();
        let mut naive_dst = vec![U::default(); dn];
        // (timed first, printed under the case's line)
        #[allow(unused_mut)] // reason: filled with the `parallel` feature
        let mut by_threads: Vec<String> = Vec::new();
        #[cfg(feature = "parallel")]
        if first {
            for t in thread_counts() {
                by_threads.push(threads_line(plan, src, dst, msrc, mdst, t));
            }
        }
        let relayout = || {
            plan.execute(black_box(src), dst).unwrap();
            black_box(&mut *dst);
        };
        let mut relayout: Box<dyn FnMut() + '_> = Box::new(relayout);
        let mut memcpy = || {
            mdst.copy_from_slice(black_box(msrc));
            black_box(&mut *mdst);
        };
        memcpy();
        let mut others: Vec<Contender<'_>> = Vec::new();
        if first {
            if let Some(Nd { shape, perm }) = alt_nd.clone() {
                let run = move || {
                    let v = ArrayView::from_shape(IxDyn(&shape), black_box(src)).unwrap();
                    let out = v
                        .permuted_axes(IxDyn(&perm))
                        .as_standard_layout()
                        .into_owned();
                    black_box(out)
                };
                let got = run();
                assert!(
                    got.as_slice().unwrap() == &want[..],
                    "{name}: ndarray disagrees with the plan"
                );
                others.push((
                    "ndarray",
                    Box::new(move || {
                        black_box(run());
                    }),
                ));
            }
            if let Some(f) = alt_naive {
                f(src, &mut naive_dst);
                // (padding: the naive loop leaves it at zero, as the plan writes it)
                assert!(
                    naive_dst == want,
                    "{name}: the naive loop disagrees with the plan"
                );
                let nd = &mut naive_dst;
                others.push((
                    "naive loop",
                    Box::new(move || {
                        f(black_box(src), nd);
                        black_box(&mut *nd);
                    }),
                ));
            }
        }
        // memcpy and the plan in rounds of their own: an alternative timed
        // in the same round (the naive loop reads and writes far more
        // lines) evicts what memcpy and the plan would find in L2/L3, and
        // for an in-cache case that made the first line's ratio read
        // 1.04x where the same placement without alternatives read 0.83x
        // (a case the plan streams is timed a call a sample: in a run of
        // calls memcpy would keep its buffers in cache while the plan's
        // streaming stores go to memory, a cold copy against a warm one)
        let n = if plan.stats().streaming {
            1
        } else {
            calls_per_sample(&mut memcpy)
        };
        let (mut ms, mut ts) = (Vec::new(), Vec::new());
        for _ in 0..runs() {
            ms.push(per_call(&mut memcpy, n));
            ts.push(per_call(&mut *relayout, n));
        }
        // then each alternative in its own rounds, against a memcpy timed
        // in those rounds (its ratio stays one of the same run)
        let alts: Vec<(Vec<f64>, Vec<f64>)> = others
            .iter_mut()
            .map(|(_, f)| {
                let (mut am, mut at) = (Vec::new(), Vec::new());
                for _ in 0..runs() {
                    am.push(per_call(&mut memcpy, n));
                    at.push(per_call(&mut **f, n));
                }
                (am, at)
            })
            .collect();
        let m = median(ms.clone());
        let st = plan.stats();
        let line = |who: &str, ms: &[f64], t: &[f64]| {
            let ratios: Vec<f64> = ms.iter().zip(t).map(|(m, t)| m / t).collect();
            let (lo, hi) = range(&ratios);
            let best = range(ms).0 / range(t).0;
            format!(
                "{:>6.2} GB/s  ratio {:>5.2}x [{lo:.2}–{hi:.2}] best {best:.2}x  {who}",
                bytes as f64 / median(t.to_vec()) / 1e9,
                median(ratios),
            )
        };
        println!(
            "{name:<52} {:<4}  memcpy {:>6.2} GB/s  plan {}  [{:?} {}x{}{}] {}",
            if aligned { "al64" } else { "vec" },
            bytes as f64 / m / 1e9,
            line("", &ms, &ts),
            st.kernel,
            st.block.0,
            st.block.1,
            if st.streaming { " nt" } else { "" },
            place,
        );
        if n > 1 {
            println!("{:<52}        ({n} calls a sample)", "");
        }
        for ((who, _), (am, at)) in others.iter().zip(&alts) {
            println!("{:<52}        {}", "", line(who, am, at));
        }
        for l in &by_threads {
            println!("{l}");
        }
    }
}

/// The thread counts of `RELAYOUT_THREADS` (see the top of the file).
#[cfg(feature = "parallel")]
fn thread_counts() -> Vec<usize> {
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let list = std::env::var("RELAYOUT_THREADS").unwrap_or_else(|_| "1,2,all".into());
    list.split(',')
        .filter_map(|t| match t.trim() {
            "all" => Some(all),
            t => t.parse().ok().filter(|&n| n > 0),
        })
        .collect()
}

/// The process's CPU time so far (all its threads), in seconds.
#[cfg(feature = "parallel")]
fn process_cpu() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: as in `on_cpu`.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

/// Wall time and CPU time of all threads of one call of `f`.
#[cfg(feature = "parallel")]
fn wall(f: &mut dyn FnMut()) -> (f64, f64) {
    let (t, c) = (Instant::now(), process_cpu());
    f();
    (t.elapsed().as_secs_f64(), process_cpu() - c)
}

/// The line of a case on `t` threads: `execute_parallel` and memcpy in
/// `t` chunks on `t` scoped threads, interleaved run by run, wall clock.
#[cfg(feature = "parallel")]
fn threads_line<U: Unit>(
    plan: &RelayoutPlan,
    src: &[U],
    dst: &mut [U],
    msrc: &[u8],
    mdst: &mut [u8],
    t: usize,
) -> String {
    let bytes = mdst.len();
    let mut memcpy = || {
        let chunk = bytes.div_ceil(t).max(1);
        std::thread::scope(|s| {
            let mut parts = mdst.chunks_mut(chunk).zip(msrc.chunks(chunk));
            let first = parts.next();
            for (d, m) in parts {
                s.spawn(move || d.copy_from_slice(black_box(m)));
            }
            if let Some((d, m)) = first {
                d.copy_from_slice(black_box(m));
            }
        });
        black_box(&mut *mdst);
    };
    let mut relayout = || {
        plan.execute_parallel(black_box(src), dst, t).unwrap();
        black_box(&mut *dst);
    };
    let (mut ms, mut ps, mut mc, mut pc) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs() {
        let ((m, a), (p, b)) = (wall(&mut memcpy), wall(&mut relayout));
        ms.push(m);
        ps.push(p);
        mc.push(a);
        pc.push(b);
    }
    let ratios: Vec<f64> = ms.iter().zip(&ps).map(|(m, p)| m / p).collect();
    let (lo, hi) = range(&ratios);
    let ms_ = |v: Vec<f64>| median(v) * 1e3;
    format!(
        "{:<52} {t:>2} threads ({} parts), wall: memcpy {:>6.2} GB/s  plan {:>6.2} GB/s  ratio {:>5.2}x [{lo:.2}–{hi:.2}]; CPU of all threads: memcpy {:.1} ms, plan {:.1} ms",
        "",
        plan.parallel_parts(),
        bytes as f64 / median(ms) / 1e9,
        bytes as f64 / median(ps) / 1e9,
        median(ratios),
        ms_(mc),
        ms_(pc),
    )
}

/// One [8,128] tile from row-major and back, repeatedly: what a kernel
/// copying small tiles pays per copy. bf16 `(8,128)(2,1)` also with a plan
/// made once and one made per call; every case with the layout type's
/// compile-time plan (`copy_from_row_major` / `copy_to_row_major`), against
/// memcpy of the same bytes between the same buffers, at 16 placements of
/// the row-major buffer (the median ratio's, and the range); ns per copy,
/// the best of the runs (by the clock `RELAYOUT_CLOCK` picks).
fn small_tile() {
    use tilelayout::layout_array;
    let n = 20_000;
    let per = |f: &mut dyn FnMut()| {
        secs(&mut || {
            for _ in 0..n {
                f();
            }
        }) * 1e9
            / n as f64
    };
    let best = |f: &mut dyn FnMut()| (0..runs()).map(|_| per(f)).fold(f64::MAX, f64::min);
    let rows = vec![half::bf16::ONE; 8 * 128];
    let shape = parse_shape("bf16[8,128]{1,0:T(8,128)(2,1)}").unwrap();
    let src = Strided::row_major(&[8, 128], 16).unwrap();
    let plan = RelayoutPlan::new(src, shape).unwrap();
    let mut tile = <layout_array!(bf16[8,128]{1,0:T(8,128)(2,1)})>::default();
    let mut once = best(&mut || {
        plan.execute(black_box(&rows), tile.view_mut().units_mut())
            .unwrap()
    });
    let per_call = best(&mut || {
        let p = RelayoutPlan::new(black_box(src), black_box(shape)).unwrap();
        p.execute(black_box(&rows), tile.view_mut().units_mut())
            .unwrap()
    });
    let m2 = best(&mut || {
        tile.units_mut().copy_from_slice(black_box(&rows));
        black_box(&mut tile);
    });
    once = once.min(best(&mut || {
        plan.execute(black_box(&rows), tile.view_mut().units_mut())
            .unwrap()
    }));
    println!(
        "bf16[8,128] tile rows -> (8,128)(2,1), ns per copy (best of {}): memcpy {m2:.1}, plan made once {once:.1}, plan per call {per_call:.0}",
        runs()
    );
    // each typed copy at 16 placements of the row-major buffer against
    // the tile, 256 bytes and a line apart (the allocator's alignment
    // kept): loads that follow stores 4 KiB apart in the low 12 bits wait
    // for them, so one placement can be a lucky or an unlucky one (AMD
    // EPYC Zen 3, bf16 tile -> rows: 35 ns at most placements, 45-48 at
    // a few, memcpy 21 ns at all); printed: the placement of the median
    // ratio, and the range
    macro_rules! typed {
        ($name:literal, $one:expr, $($l:tt)*) => {{
            let mut tile = <layout_array!($($l)*)>::default();
            let mut buf = vec![$one; 8 * 128 + 4096];
            let mut cases: Vec<[f64; 4]> = (0..16usize)
                .map(|k| {
                    let at = (256 * k + 64 * (k % 4)) / core::mem::size_of_val(&$one);
                    let rows = &mut buf[at..at + 8 * 128];
                    // memcpy between the same two buffers in the same
                    // direction
                    let m = best(&mut || {
                        tile.units_mut().copy_from_slice(black_box(&*rows));
                        black_box(&mut tile);
                    });
                    let mb = best(&mut || {
                        rows.copy_from_slice(black_box(tile.units()));
                        black_box(&mut *rows);
                    });
                    let to = best(&mut || {
                        tile.view_mut()
                            .copy_from_row_major(black_box(&*rows))
                            .unwrap();
                        black_box(&mut tile);
                    });
                    let back = best(&mut || {
                        black_box(&tile).view().copy_to_row_major(rows).unwrap();
                        black_box(&mut *rows);
                    });
                    [to, m, back, mb]
                })
                .collect();
            let range = |i: usize, j: usize, cases: &mut Vec<[f64; 4]>| {
                cases.sort_by(|a, b| (a[i] / a[j]).total_cmp(&(b[i] / b[j])));
                let c = cases[cases.len() / 2];
                let (lo, hi) = (cases[0][i] / cases[0][j], cases[15][i] / cases[15][j]);
                format!("{:.1} vs memcpy {:.1} ({:.2}x [{lo:.2}–{hi:.2}])", c[i], c[j], c[i] / c[j])
            };
            let to = range(0, 1, &mut cases);
            let back = range(2, 3, &mut cases);
            println!("{:<34} typed copy, ns (best): rows -> tile {to}, tile -> rows {back}", $name);
        }};
    }
    typed!("bf16[8,128]{1,0:T(8,128)(2,1)}", half::bf16::ONE, bf16[8,128]{1,0:T(8,128)(2,1)});
    typed!("f32[8,128]{1,0:T(8,128)}", 1.0f32, f32[8,128]{1,0:T(8,128)});
    typed!("s8[8,128]{1,0:T(8,128)(4,1)}", 1i8, s8[8,128]{1,0:T(8,128)(4,1)});
}

/// The CPU model (`/proc/cpuinfo`) and its data caches (sysfs), Linux.
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let mut caches = Vec::new();
    for i in 0..8 {
        let at = |f: &str| {
            std::fs::read_to_string(format!("/sys/devices/system/cpu/cpu0/cache/index{i}/{f}"))
                .ok()
                .map(|s| s.trim().to_string())
        };
        if let (Some(level), Some(kind), Some(size)) = (at("level"), at("type"), at("size")) {
            if kind != "Instruction" {
                caches.push(format!("L{level} {size}"));
            }
        }
    }
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{model}, {cpus} CPUs, {}", caches.join(", "))
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
    println!("machine: {}", machine());
    let c = tilelayout::storage::Caches::host();
    println!(
        "caches (CPUID): L1d {} KiB, L2 {} KiB, last level {} MiB -> streaming from {} MiB, zips prefetch {} KiB ahead, streamed runs walk {}",
        c.l1d >> 10,
        c.l2 >> 10,
        c.last >> 20,
        c.streaming_threshold() >> 20,
        c.prefetch_ahead() >> 10,
        if c.favour_writes { "for the writes" } else { "in source order" }
    );
    println!(
        "runs per case: {} (median), {} clock",
        runs(),
        if cpu_clock() {
            "thread CPU time"
        } else {
            "wall"
        }
    );

    const N: usize = 4096;
    let n = &[N as u64, N as u64];
    // offsets (in units) of element (r, c) of an [R, C] array: row-major,
    // `{1,0:T(8,128)}` (tile rows of ⌈C/128⌉ tiles) and the packed
    // `(8,128)(k,1)` tiles of k rows zipped
    let rm = |cols: usize| move |r: usize, c: usize| r * cols + c;
    let t8 = |cols: usize| {
        let ct = cols.div_ceil(128);
        move |r: usize, c: usize| ((r / 8) * ct + c / 128) * 1024 + (r % 8) * 128 + c % 128
    };
    let tk = |cols: usize, k: usize| {
        let ct = cols.div_ceil(128);
        move |r: usize, c: usize| {
            ((r / 8) * ct + c / 128) * 1024 + (r % 8 / k) * 128 * k + (c % 128) * k + r % k
        }
    };

    let f32t = tiled("f32[4096,4096]{1,0:T(8,128)}");
    if want("f32 rows->T") {
        let (a, b) = (rm(N), t8(N));
        case::<f32>(
            "f32[4096,4096] rows -> {1,0:T(8,128)}",
            &RelayoutPlan::new(rows(n, 32), f32t).unwrap(),
            nd(&[N / 8, 8, N / 128, 128], &[0, 2, 1, 3]),
            Some(&|s, d| naive(s, d, [1, N, N], &|_, r, c| a(r, c), &|_, r, c| b(r, c))),
        );
    }
    if want("f32 T->rows") {
        let (a, b) = (t8(N), rm(N));
        case::<f32>(
            "f32[4096,4096] {1,0:T(8,128)} -> rows",
            &RelayoutPlan::new(f32t, rows(n, 32)).unwrap(),
            nd(&[N / 8, N / 128, 8, 128], &[0, 2, 1, 3]),
            Some(&|s, d| naive(s, d, [1, N, N], &|_, r, c| a(r, c), &|_, r, c| b(r, c))),
        );
    }
    let bft = tiled("bf16[4096,4096]{1,0:T(8,128)(2,1)}");
    if want("bf16 rows->T") {
        let (a, b) = (rm(N), tk(N, 2));
        case::<u16>(
            "bf16[4096,4096] rows -> {1,0:T(8,128)(2,1)}",
            &RelayoutPlan::new(rows(n, 16), bft).unwrap(),
            nd(&[N / 8, 4, 2, N / 128, 128], &[0, 3, 1, 4, 2]),
            Some(&|s, d| naive(s, d, [1, N, N], &|_, r, c| a(r, c), &|_, r, c| b(r, c))),
        );
    }
    if want("bf16 T->rows") {
        let (a, b) = (tk(N, 2), rm(N));
        case::<u16>(
            "bf16[4096,4096] {1,0:T(8,128)(2,1)} -> rows",
            &RelayoutPlan::new(bft, rows(n, 16)).unwrap(),
            nd(&[N / 8, N / 128, 4, 128, 2], &[0, 2, 4, 1, 3]),
            Some(&|s, d| naive(s, d, [1, N, N], &|_, r, c| a(r, c), &|_, r, c| b(r, c))),
        );
    }
    let s8t = tiled("s8[4096,4096]{1,0:T(8,128)(4,1)}");
    if want("s8 rows->T") {
        let (a, b) = (rm(N), tk(N, 4));
        case::<i8>(
            "s8[4096,4096] rows -> {1,0:T(8,128)(4,1)}",
            &RelayoutPlan::new(rows(n, 8), s8t).unwrap(),
            nd(&[N / 8, 2, 4, N / 128, 128], &[0, 3, 1, 4, 2]),
            Some(&|s, d| naive(s, d, [1, N, N], &|_, r, c| a(r, c), &|_, r, c| b(r, c))),
        );
    }
    if want("s8 T->rows") {
        let (a, b) = (tk(N, 4), rm(N));
        case::<i8>(
            "s8[4096,4096] {1,0:T(8,128)(4,1)} -> rows",
            &RelayoutPlan::new(s8t, rows(n, 8)).unwrap(),
            nd(&[N / 8, N / 128, 2, 128, 4], &[0, 2, 4, 1, 3]),
            Some(&|s, d| naive(s, d, [1, N, N], &|_, r, c| a(r, c), &|_, r, c| b(r, c))),
        );
    }
    if want("s4 rows->T") {
        // nibble offsets; element 2q in the low half of byte q
        let b = tk(N, 8);
        let nib = move |s: &[u8], d: &mut [u8]| {
            for r in 0..N {
                for c in 0..N {
                    let (i, o) = (r * N + c, b(r, c));
                    let v = (s[i / 2] >> (4 * (i % 2))) & 15;
                    let sh = 4 * (o % 2);
                    d[o / 2] = (d[o / 2] & !(15 << sh)) | (v << sh);
                }
            }
        };
        case::<u8>(
            "s4[4096,4096] rows -> {1,0:T(8,128)(8,1)E(4)}",
            &RelayoutPlan::new(rows(n, 4), tiled("s4[4096,4096]{1,0:T(8,128)(8,1)E(4)}")).unwrap(),
            None,
            Some(&nib),
        );
    }
    if want("s4 T->rows") {
        let a = tk(N, 8);
        let nib = move |s: &[u8], d: &mut [u8]| {
            for r in 0..N {
                for c in 0..N {
                    let (i, o) = (a(r, c), r * N + c);
                    let v = (s[i / 2] >> (4 * (i % 2))) & 15;
                    let sh = 4 * (o % 2);
                    d[o / 2] = (d[o / 2] & !(15 << sh)) | (v << sh);
                }
            }
        };
        case::<u8>(
            "s4[4096,4096] {1,0:T(8,128)(8,1)E(4)} -> rows",
            &RelayoutPlan::new(tiled("s4[4096,4096]{1,0:T(8,128)(8,1)E(4)}"), rows(n, 4)).unwrap(),
            None,
            Some(&nib),
        );
    }
    // 2- and 1-bit slots: 16 (32) rows of a (16,128) ((32,128)) tile
    // packed into one 32-bit column
    for (ty, bits, tr) in [("u2", 2usize, 16usize), ("pred", 1, 32)] {
        let t = format!("{ty}[4096,4096]{{1,0:T({tr},128)({tr},1)E({bits})}}");
        let slot = move |r: usize, c: usize| {
            let ct = N.div_ceil(128);
            ((r / tr) * ct + c / 128) * (tr * 128) + (c % 128) * tr + r % tr
        };
        // slot i of `bits`-wide storage: byte i·bits/8, low bits first
        let (per, m) = (8 / bits, (1u8 << bits) - 1);
        let mv = move |s: &[u8], d: &mut [u8], i: usize, o: usize| {
            let v = (s[i / per] >> (bits * (i % per))) & m;
            let sh = bits * (o % per);
            d[o / per] = (d[o / per] & !(m << sh)) | (v << sh);
        };
        if want(&format!("{ty} rows->T")) {
            let naive = move |s: &[u8], d: &mut [u8]| {
                for r in 0..N {
                    for c in 0..N {
                        mv(s, d, r * N + c, slot(r, c));
                    }
                }
            };
            case::<u8>(
                &format!("{ty}[4096,4096] rows -> {{1,0:T({tr},128)({tr},1)E({bits})}}"),
                &RelayoutPlan::new(rows(n, bits as u32), tiled(&t)).unwrap(),
                None,
                Some(&naive),
            );
        }
        if want(&format!("{ty} T->rows")) {
            let naive = move |s: &[u8], d: &mut [u8]| {
                for r in 0..N {
                    for c in 0..N {
                        mv(s, d, slot(r, c), r * N + c);
                    }
                }
            };
            case::<u8>(
                &format!("{ty}[4096,4096] {{1,0:T({tr},128)({tr},1)E({bits})}} -> rows"),
                &RelayoutPlan::new(tiled(&t), rows(n, bits as u32)).unwrap(),
                None,
                Some(&naive),
            );
        }
    }
    // transposes of tiles: logical (r, c) of the transposed side is
    // element (c, r) of its physical [C, R] rows
    if want("f32 T->T") {
        let (a, b) = (t8(N), t8(N));
        case::<f32>(
            "f32[4096,4096] {1,0:T(8,128)} -> {0,1:T(8,128)}",
            &plan(
                "f32[4096,4096]{1,0:T(8,128)}",
                "f32[4096,4096]{0,1:T(8,128)}",
            ),
            nd(&[N / 128, 16, N / 128, 8, 16, 8], &[2, 4, 0, 5, 1, 3]),
            Some(&|s, d| naive(s, d, [1, N, N], &|_, r, c| a(r, c), &|_, r, c| b(c, r))),
        );
    }
    if want("f32 cols->T") {
        let (a, b) = (rm(N), t8(N));
        case::<f32>(
            "f32[4096,4096] cols -> {1,0:T(8,128)}",
            &RelayoutPlan::new(Strided::column_major(n, 32).unwrap(), f32t).unwrap(),
            nd(&[N / 128, 128, N / 8, 8], &[2, 0, 3, 1]),
            Some(&|s, d| naive(s, d, [1, N, N], &|_, r, c| a(c, r), &|_, r, c| b(r, c))),
        );
    }
    if want("f32 T->cols") {
        let (a, b) = (t8(N), rm(N));
        case::<f32>(
            "f32[4096,4096] {1,0:T(8,128)} -> cols",
            &RelayoutPlan::new(f32t, Strided::column_major(n, 32).unwrap()).unwrap(),
            nd(&[N / 8, N / 128, 8, 128], &[1, 3, 0, 2]),
            Some(&|s, d| naive(s, d, [1, N, N], &|_, r, c| a(r, c), &|_, r, c| b(c, r))),
        );
    }
    if want("bf16 T->T") {
        let (r_, c_) = (2048usize, 4096usize);
        let (a, b) = (tk(c_, 2), tk(r_, 2));
        case::<u16>(
            "bf16[2048,4096] {1,0:T(8,128)(2,1)} -> {0,1:T(8,128)(2,1)}",
            &plan(
                "bf16[2048,4096]{1,0:T(8,128)(2,1)}",
                "bf16[2048,4096]{0,1:T(8,128)(2,1)}",
            ),
            nd(
                &[r_ / 128, 16, c_ / 128, 4, 16, 4, 2, 2],
                &[2, 4, 0, 5, 1, 3, 7, 6],
            ),
            Some(&|s, d| naive(s, d, [1, r_, c_], &|_, r, c| a(r, c), &|_, r, c| b(c, r))),
        );
    }
    if want("s8 T->T") {
        let (r_, c_) = (2048usize, 4096usize);
        let (a, b) = (tk(c_, 4), tk(r_, 4));
        case::<i8>(
            "s8[2048,4096] {1,0:T(8,128)(4,1)} -> {0,1:T(8,128)(4,1)}",
            &plan(
                "s8[2048,4096]{1,0:T(8,128)(4,1)}",
                "s8[2048,4096]{0,1:T(8,128)(4,1)}",
            ),
            None,
            Some(&|s, d| naive(s, d, [1, r_, c_], &|_, r, c| a(r, c), &|_, r, c| b(c, r))),
        );
    }
    if want("combined") {
        // `*` combines dims 1 and 2: [64, 128·1024] in tiles of (2,128)
        let cols = 128 * 1024;
        let b = move |i: usize, j: usize, k: usize| {
            let c = j * 1024 + k;
            ((i / 2) * (cols / 128) + c / 128) * 256 + (i % 2) * 128 + c % 128
        };
        case::<f32>(
            "f32[64,128,1024] rows -> {2,1,0:T(2,*,128)}",
            &RelayoutPlan::new(
                rows(&[64, 128, 1024], 32),
                tiled("f32[64,128,1024]{2,1,0:T(2,*,128)}"),
            )
            .unwrap(),
            nd(&[32, 2, cols / 128, 128], &[0, 2, 1, 3]),
            Some(&|s, d| {
                naive(
                    s,
                    d,
                    [64, 128, 1024],
                    &|i, j, k| (i * 128 + j) * 1024 + k,
                    &b,
                )
            }),
        );
    }
    let small = tiled("f32[1000,1000]{1,0:T(8,128)}");
    if want("f32 1000 rows->T") {
        let (a, b) = (rm(1000), t8(1000));
        case::<f32>(
            "f32[1000,1000] rows -> {1,0:T(8,128)} (padded)",
            &RelayoutPlan::new(rows(&[1000, 1000], 32), small).unwrap(),
            None,
            Some(&|s, d| {
                naive(s, d, [1, 1000, 1000], &|_, r, c| a(r, c), &|_, r, c| {
                    b(r, c)
                })
            }),
        );
    }
    if want("f32 1000 T->rows") {
        let (a, b) = (t8(1000), rm(1000));
        case::<f32>(
            "f32[1000,1000] {1,0:T(8,128)} -> rows (padded)",
            &RelayoutPlan::new(small, rows(&[1000, 1000], 32)).unwrap(),
            None,
            Some(&|s, d| {
                naive(s, d, [1, 1000, 1000], &|_, r, c| a(r, c), &|_, r, c| {
                    b(r, c)
                })
            }),
        );
    }
    if want("tile") {
        small_tile();
    }
    // in-cache variants (what the kernels cost without the memory system)
    let m = &[1024u64, 1024];
    if want("bf16 1024") {
        let bfm = tiled("bf16[1024,1024]{1,0:T(8,128)(2,1)}");
        case::<u16>(
            "bf16[1024,1024] rows -> {1,0:T(8,128)(2,1)}",
            &RelayoutPlan::new(rows(m, 16), bfm).unwrap(),
            None,
            None,
        );
        case::<u16>(
            "bf16[1024,1024] {1,0:T(8,128)(2,1)} -> rows",
            &RelayoutPlan::new(bfm, rows(m, 16)).unwrap(),
            None,
            None,
        );
    }
    // tile transposes in cache, and one whose destination tile rows are
    // two tiles (its gather blocks' source rows in runs)
    if want("T->T in cache") {
        for (ty, z) in [("f32", ""), ("bf16", "(2,1)"), ("s8", "(4,1)")] {
            let (a, b) = (
                format!("{ty}[1024,1024]{{1,0:T(8,128){z}}}"),
                format!("{ty}[1024,1024]{{0,1:T(8,128){z}}}"),
            );
            let p = plan(&a, &b);
            let name = format!("{ty}[1024,1024] {{1,0:T(8,128){z}}} -> {{0,1:..}}");
            match ty {
                "f32" => case::<f32>(&name, &p, None, None),
                "bf16" => case::<u16>(&name, &p, None, None),
                _ => case::<i8>(&name, &p, None, None),
            }
        }
        case::<i8>(
            "s8[256,4096] {1,0:T(8,128)(4,1)} -> {0,1:T(8,128)(4,1)}",
            &plan(
                "s8[256,4096]{1,0:T(8,128)(4,1)}",
                "s8[256,4096]{0,1:T(8,128)(4,1)}",
            ),
            None,
            None,
        );
    }
    if want("s8 1024") {
        let s8m = tiled("s8[1024,1024]{1,0:T(8,128)(4,1)}");
        case::<i8>(
            "s8[1024,1024] rows -> {1,0:T(8,128)(4,1)}",
            &RelayoutPlan::new(rows(m, 8), s8m).unwrap(),
            None,
            None,
        );
        case::<i8>(
            "s8[1024,1024] {1,0:T(8,128)(4,1)} -> rows",
            &RelayoutPlan::new(s8m, rows(m, 8)).unwrap(),
            None,
            None,
        );
    }
}

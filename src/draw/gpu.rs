//! Pictures of the GPU tiles of [`crate::gpu`], built only on their public
//! per-element queries (a layout's `offset(i, j)`, a base tile's
//! `lane_slot(i, j)`, a register tile's `owner(i, j)`, a copy plan's
//! `vector(warp, lane, step)`), so they draw whatever those answer.
//!
//! - [`shared_banks`]: a shared-memory tile as 16-byte chunks, each with
//!   the bank group it is stored in, and the conflict degree of a warp
//!   reading it by rows and by columns of chunks.
//! - [`base_tile`] and [`reg_tile`]: which lane holds each element, and in
//!   which slot or register.
//! - [`copy_plan`]: which warp, lane and step move each element; every
//!   owner where several move the same element.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::mem::size_of;

use crate::gpu::{BaseTile, CopyEndpoint, CopyPlan, Layout2, RegTile, Vector, WARP_SIZE};

/// Bytes in one bank-group: shared memory has 32 banks of 4 bytes, so a
/// 128-byte line holds 8 groups of 16 bytes (one 128-bit vector each).
const CHUNK: usize = 16;
/// Bank groups per 128-byte line.
const GROUPS: usize = 8;
/// Lanes served together by a 128-bit access (one 128-byte phase).
const PHASE: usize = 8;

/// A grid of labels with row and column headers, cells right-aligned.
fn grid(rows: usize, cols: usize, label: impl Fn(usize, usize) -> String) -> String {
    let cells: Vec<String> = (0..rows * cols)
        .map(|n| label(n / cols, n % cols))
        .collect();
    let w = cells
        .iter()
        .map(|c| c.chars().count())
        .chain([cols.saturating_sub(1).to_string().len()])
        .max()
        .unwrap_or(1);
    let rw = rows.saturating_sub(1).to_string().len();
    let mut out = format!("{:rw$} ", "");
    for j in 0..cols {
        out.push_str(&format!(" {j:>w$}"));
    }
    out.push('\n');
    for i in 0..rows {
        out.push_str(&format!("{i:>rw$} "));
        for j in 0..cols {
            out.push_str(&format!(" {:>w$}", cells[i * cols + j]));
        }
        out.push('\n');
    }
    out
}

/// The bank group (0..8) of the 16-byte chunk holding element `(i, j)`.
fn group<L: Layout2>(elem_bytes: usize, i: usize, j: usize) -> usize {
    (L::offset(i, j) * elem_bytes / CHUNK) % GROUPS
}

/// The conflict degree of one 8-lane phase reading the chunks at `chunks`
/// (element coordinates of each chunk's first element): the most distinct
/// chunks that fall in one bank group (1 = conflict-free).
fn degree<L: Layout2>(elem_bytes: usize, chunks: &[(usize, usize)]) -> usize {
    let mut per_group: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &(i, j) in chunks {
        let addr = L::offset(i, j) * elem_bytes / CHUNK;
        let v = per_group.entry(addr % GROUPS).or_default();
        if !v.contains(&addr) {
            v.push(addr);
        }
    }
    per_group.values().map(Vec::len).max().unwrap_or(0)
}

/// A shared-memory tile of `L` with `T` elements, as 16-byte chunks: each
/// cell is the bank group its chunk is stored in (its byte address / 16,
/// mod 8), then the conflict degree of a warp reading 128-bit vectors, 8
/// lanes a phase, along rows (8 chunks side by side) and down columns (one
/// chunk column of 8 consecutive rows, as `ldmatrix` does).
///
/// A swizzle exists to make the column reads conflict-free:
/// ```
/// use tilelayout::draw::gpu::shared_banks;
/// use tilelayout::gpu::{Bytes128, RowMajor, SwizzledRowMajor};
/// let plain = shared_banks::<RowMajor<8, 64>, half::f16>();
/// assert!(plain.contains("column reads: conflict degree 8"), "{plain}");
/// let swizzled = shared_banks::<SwizzledRowMajor<half::f16, Bytes128, 8, 64>, half::f16>();
/// assert!(swizzled.contains(concat!(
///     "   0 1 2 3 4 5 6 7\n",
///     "0  0 1 2 3 4 5 6 7\n",
///     "1  1 0 3 2 5 4 7 6\n",
///     "2  2 3 0 1 6 7 4 5\n",
/// )), "{swizzled}");
/// assert!(swizzled.contains("column reads: conflict degree 1"), "{swizzled}");
/// ```
pub fn shared_banks<L: Layout2, T>() -> String {
    let eb = size_of::<T>().max(1);
    let per = (CHUNK / eb).max(1);
    let (rows, chunks) = (L::ROWS, L::COLS / per);
    let mut out = format!(
        "shared tile {}x{} of {}-byte elements: bank group (0..8) of each 16-byte chunk ({} elements)\n",
        L::ROWS,
        L::COLS,
        eb,
        per
    );
    out.push_str(&grid(rows, chunks, |i, c| {
        group::<L>(eb, i, c * per).to_string()
    }));
    // row reads: 8 consecutive chunks of a row; column reads: one chunk
    // column of 8 consecutive rows
    let mut row_worst = 0;
    for i in 0..rows {
        for c0 in (0..chunks).step_by(PHASE) {
            let phase: Vec<_> = (c0..(c0 + PHASE).min(chunks))
                .map(|c| (i, c * per))
                .collect();
            row_worst = row_worst.max(degree::<L>(eb, &phase));
        }
    }
    let mut col_worst = 0;
    for c in 0..chunks {
        for r0 in (0..rows).step_by(PHASE) {
            let phase: Vec<_> = (r0..(r0 + PHASE).min(rows)).map(|i| (i, c * per)).collect();
            col_worst = col_worst.max(degree::<L>(eb, &phase));
        }
    }
    out.push_str(&format!(
        "row reads: conflict degree {row_worst}\ncolumn reads: conflict degree {col_worst}\n"
    ));
    out
}

/// The 16×16 base tile `B`: each cell is `lane.slot`.
///
/// The row-major base tile is the `mma.m16n8k16` A operand and accumulator
/// layout (lane `l` holds row `l/4`, columns `2(l%4)`, `2(l%4)+1`, …); the
/// column-major one its transpose (the B operand):
/// ```
/// use tilelayout::draw::gpu::base_tile;
/// use tilelayout::gpu::{BaseTileColMajor, BaseTileRowMajor};
/// let a = base_tile::<BaseTileRowMajor>();
/// assert!(a.lines().nth(2).unwrap().starts_with(" 0   0.0  0.1  1.0  1.1  2.0  2.1  3.0  3.1  0.4  0.5"), "{a}");
/// let b = base_tile::<BaseTileColMajor>();
/// assert!(b.lines().nth(3).unwrap().starts_with(" 1   0.1  4.1  8.1"), "{b}");
/// ```
pub fn base_tile<B: BaseTile>() -> String {
    let mut out = String::from("base tile 16x16: lane.slot of each element\n");
    out.push_str(&grid(16, 16, |i, j| {
        let (l, s) = B::lane_slot(i, j);
        format!("{l}.{s}")
    }));
    out
}

/// A warp's register tile `RegTile<D, B, L>`: each cell is
/// `lane.register` of the element.
///
/// ```
/// use tilelayout::draw::gpu::reg_tile;
/// use tilelayout::gpu::{BaseTileRowMajor, RowMajor};
/// let p = reg_tile::<[f32; 16], BaseTileRowMajor, RowMajor<1, 2>>();
/// // column 16 starts the second base tile: registers 8..16
/// assert!(p.lines().nth(2).unwrap().contains(" 0.8 "), "{p}");
/// ```
pub fn reg_tile<D, B: BaseTile, L: Layout2>() -> String {
    let (rows, cols) = (RegTile::<D, B, L>::ROWS, RegTile::<D, B, L>::COLS);
    let mut out = format!("register tile {rows}x{cols}: lane.register of each element\n");
    out.push_str(&grid(rows, cols, |i, j| {
        let (l, r) = RegTile::<D, B, L>::owner(i, j);
        format!("{l}.{r}")
    }));
    out
}

/// Who moves each element of a copy: `warp:lane@step`, `/`-joined where
/// several owners move the same element; `.` where none does (a plan
/// covers every element, so that would be a bug worth seeing).
///
/// ```
/// use tilelayout::draw::gpu::copy_plan;
/// use tilelayout::gpu::{GlobalTile, RowMajor, SharedTile};
/// type G<'a> = GlobalTile<&'a [f32], RowMajor<16, 32>>;
/// type S<'a> = SharedTile<&'a mut [f32], RowMajor<16, 32>>;
/// let p = copy_plan::<G<'static>, S<'static>, RowMajor<2, 1>>();
/// // lane 1 of warp 0 moves the 4 floats after lane 0's, at step 0
/// assert!(p.lines().nth(2).unwrap().starts_with(" 0   0:0@0  0:0@0  0:0@0  0:0@0  0:1@0"), "{p}");
/// // rows 8.. are warp 1's half
/// assert!(p.lines().nth(10).unwrap().starts_with(" 8   1:0@0"), "{p}");
/// assert!(p.contains("every element moved once"), "{p}");
/// ```
pub fn copy_plan<Src, Dst, W>() -> String
where
    Src: CopyEndpoint,
    Dst: CopyEndpoint<Elem = Src::Elem>,
    W: Layout2,
{
    type P<S, D, W> = CopyPlan<S, D, W>;
    ownership(
        P::<Src, Dst, W>::ROWS,
        P::<Src, Dst, W>::COLS,
        P::<Src, Dst, W>::WARPS,
        P::<Src, Dst, W>::STEPS,
        P::<Src, Dst, W>::vector,
    )
}

/// [`copy_plan`] from the plan's sizes and its `vector(warp, lane, step)`.
pub fn ownership(
    rows: usize,
    cols: usize,
    warps: usize,
    steps: usize,
    vector: impl Fn(usize, usize, usize) -> Option<Vector>,
) -> String {
    let mut owners: Vec<Vec<(usize, usize, usize)>> = alloc::vec![Vec::new(); rows * cols];
    for w in 0..warps {
        for s in 0..steps {
            for l in 0..WARP_SIZE {
                if let Some(v) = vector(w, l, s) {
                    for t in 0..v.len {
                        let (i, j) = v.element(t);
                        if i < rows && j < cols {
                            owners[i * cols + j].push((w, l, s));
                        }
                    }
                }
            }
        }
    }
    let most = owners.iter().map(Vec::len).max().unwrap_or(0);
    let least = owners.iter().map(Vec::len).min().unwrap_or(0);
    let mut out = format!(
        "copy plan {rows}x{cols}, {warps} warps, {steps} steps: warp:lane@step moving each element\n"
    );
    out.push_str(&grid(rows, cols, |i, j| {
        let o = &owners[i * cols + j];
        if o.is_empty() {
            return String::from(".");
        }
        let parts: Vec<String> = o.iter().map(|(w, l, s)| format!("{w}:{l}@{s}")).collect();
        parts.join("/")
    }));
    out.push_str(&if least == 1 && most == 1 {
        String::from("every element moved once\n")
    } else {
        format!("elements moved {least} to {most} times\n")
    });
    out
}

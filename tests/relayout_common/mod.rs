//! Shared helpers for the relayout tests: the element-wise reference (its
//! offsets and slot counts are the fuzz check's, `fuzz/checks/reference.rs`).
#![allow(dead_code)] // reason: each test file uses a different subset

use tilelayout::storage::{packed, ArrayLayout, RelayoutPlan, Simd, Strided};
use tilelayout::value::{parse_shape, Shape, MAX_RANK};

pub fn dims(a: &ArrayLayout) -> Vec<u64> {
    match a {
        ArrayLayout::Tiled(s) => s.static_dims().unwrap()[..s.rank()].to_vec(),
        ArrayLayout::Strided(s) => s.dims().to_vec(),
        ArrayLayout::Cute(c) => c.dims().to_vec(),
    }
}

#[path = "../../fuzz/checks/coords.rs"]
mod coords;
pub use coords::coords;
#[path = "../../fuzz/checks/reference.rs"]
mod reference;
pub use reference::{offset, slots};

/// Storage slots that are padding (tiled) or outside the image (strided).
pub fn unmapped(a: &ArrayLayout) -> Vec<bool> {
    let mut free = vec![true; slots(a) as usize];
    for c in coords(&dims(a)) {
        free[offset(a, &c) as usize] = false;
    }
    free
}

/// Slot values as u64, for any storage width `bits`.
pub fn read(bytes: &[u8], slot: usize, bits: u32) -> u64 {
    if bits < 8 {
        return packed::get(bytes, slot, bits) as u64;
    }
    let b = (bits / 8) as usize;
    let mut v = 0u64;
    for (i, &x) in bytes[slot * b..slot * b + b.min(8)].iter().enumerate() {
        v |= (x as u64) << (8 * i);
    }
    v
}

/// Runs the plan from `src` to `dst` on `bits`-wide slots filled with a
/// pattern and checks every destination slot against the definition:
/// element slots hold the source element, padding holds `pad` bits,
/// strided slots outside the image keep their old content; then every
/// [`Simd`] level must write the same bytes. Returns the plan's kernel for
/// reporting.
pub fn check(
    src: ArrayLayout,
    dst: ArrayLayout,
    bits: u32,
    streaming: Option<bool>,
) -> tilelayout::storage::Kernel {
    let plan =
        RelayoutPlan::new(src, dst).unwrap_or_else(|e| panic!("plan {src:?} -> {dst:?}: {e}"));
    check_plan(&plan.with_streaming(streaming), src, dst, bits)
}

/// [`check`] of a plan made elsewhere (`RelayoutPlan::for_caches`, say)
/// from `src` to `dst`.
pub fn check_plan(
    plan: &RelayoutPlan,
    src: ArrayLayout,
    dst: ArrayLayout,
    bits: u32,
) -> tilelayout::storage::Kernel {
    let ub = if bits < 8 { 1 } else { bits as usize / 8 };
    let sn = plan.src_units(ub) as usize * ub;
    let dn = plan.dst_units(ub) as usize * ub;
    let src_bytes: Vec<u8> = (0..sn)
        .map(|i| (i as u32).wrapping_mul(2654435761).wrapping_shr(13) as u8)
        .collect();
    // (the typed runs below copy into aligned vectors, so any byte
    // alignment of these is fine)
    let mut dst_bytes: Vec<u8> = vec![0xA5; dn];
    let before = dst_bytes.clone();
    let pad_bits: u64 = 0x5A5A_5A5A_5A5A_5A5A
        & if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
    run(plan, &src_bytes, &mut dst_bytes, bits);
    let free = unmapped(&dst);
    let tiled = matches!(dst, ArrayLayout::Tiled(_));
    for c in coords(&dims(&src)) {
        let (so, dof) = (offset(&src, &c) as usize, offset(&dst, &c) as usize);
        assert_eq!(
            read(&dst_bytes, dof, bits),
            read(&src_bytes, so, bits),
            "element {c:?}: {src:?} -> {dst:?} ({:?})",
            plan.stats()
        );
    }
    for (slot, _) in free.iter().enumerate().filter(|(_, f)| **f) {
        let want = if tiled {
            pad_bits
        } else {
            read(&before, slot, bits)
        };
        assert_eq!(
            read(&dst_bytes, slot, bits),
            want,
            "slot {slot} of {dst:?} ({:?})",
            plan.stats()
        );
    }
    // every SIMD level (up to the CPU's) writes the same bytes
    for level in Simd::ALL {
        let mut again = before.clone();
        run(
            &plan.clone().with_simd(Some(level)),
            &src_bytes,
            &mut again,
            bits,
        );
        assert!(
            again == dst_bytes,
            "{level:?}: {src:?} -> {dst:?} ({:?})",
            plan.stats()
        );
    }
    plan.stats().kernel
}

/// Every SIMD level (up to the CPU's) writes the same bytes as the
/// portable kernels, padding included; no element-wise reference (which is
/// what makes [`check`] slow under Miri: use this there, for the unsafe
/// kernels, beside a native [`check`] of the same plan). Returns the
/// plan's kernel.
pub fn levels_agree(src: ArrayLayout, dst: ArrayLayout, bits: u32) -> tilelayout::storage::Kernel {
    let plan =
        RelayoutPlan::new(src, dst).unwrap_or_else(|e| panic!("plan {src:?} -> {dst:?}: {e}"));
    let ub = if bits < 8 { 1 } else { bits as usize / 8 };
    let sn = plan.src_units(ub) as usize * ub;
    let dn = plan.dst_units(ub) as usize * ub;
    let src_bytes: Vec<u8> = (0..sn)
        .map(|i| (i as u32).wrapping_mul(2654435761).wrapping_shr(13) as u8)
        .collect();
    let mut want = vec![0xA5; dn];
    run(
        &plan.clone().with_simd(Some(Simd::Portable)),
        &src_bytes,
        &mut want,
        bits,
    );
    for level in Simd::ALL {
        let mut got = vec![0xA5; dn];
        run(
            &plan.clone().with_simd(Some(level)),
            &src_bytes,
            &mut got,
            bits,
        );
        assert!(
            got == want,
            "{level:?}: {src:?} -> {dst:?} ({:?})",
            plan.stats()
        );
    }
    plan.stats().kernel
}

fn run(plan: &RelayoutPlan, src: &[u8], dst: &mut [u8], bits: u32) {
    match bits {
        1 | 2 | 4 | 8 => plan.execute_with_padding::<u8>(src, dst, 0x5A).unwrap(),
        16 => {
            let s: Vec<u16> = bytemuck::pod_collect_to_vec(src);
            let mut d: Vec<u16> = bytemuck::pod_collect_to_vec(dst);
            plan.execute_with_padding(&s, &mut d, 0x5A5A).unwrap();
            dst.copy_from_slice(bytemuck::cast_slice(&d));
        }
        32 => {
            let s: Vec<f32> = bytemuck::pod_collect_to_vec(src);
            let mut d: Vec<f32> = bytemuck::pod_collect_to_vec(dst);
            plan.execute_with_padding(&s, &mut d, f32::from_bits(0x5A5A_5A5A))
                .unwrap();
            dst.copy_from_slice(bytemuck::cast_slice(&d));
        }
        64 => {
            let s: Vec<u64> = bytemuck::pod_collect_to_vec(src);
            let mut d: Vec<u64> = bytemuck::pod_collect_to_vec(dst);
            plan.execute_with_padding(&s, &mut d, 0x5A5A_5A5A_5A5A_5A5A)
                .unwrap();
            dst.copy_from_slice(bytemuck::cast_slice(&d));
        }
        _ => unreachable!("width {bits}"),
    }
}

/// `ty[dims]{m2m:attrs}` parsed; `attrs` may be empty.
pub fn shape(ty: &str, dims: &[u64], m2m: &[usize], attrs: &str) -> Shape {
    let d: Vec<String> = dims.iter().map(u64::to_string).collect();
    let m: Vec<String> = m2m.iter().map(usize::to_string).collect();
    let colon = if attrs.is_empty() { "" } else { ":" };
    let text = format!("{ty}[{}]{{{}{colon}{attrs}}}", d.join(","), m.join(","));
    parse_shape(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Every permutation of `0..n` as a minor_to_major list.
pub fn perms(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in perms(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

/// Strided layouts of `dims`: row-major, column-major, and row-major with
/// gaps (each stride padded by 1).
pub fn strided(dims: &[u64], bits: u32) -> Vec<Strided> {
    let mut gap = [0u64; MAX_RANK];
    let mut acc = 1;
    for d in (0..dims.len()).rev() {
        gap[d] = acc;
        acc = acc * dims[d] + 1;
    }
    vec![
        Strided::row_major(dims, bits).unwrap(),
        Strided::column_major(dims, bits).unwrap(),
        Strided::new(dims, &gap[..dims.len()], bits).unwrap(),
    ]
}

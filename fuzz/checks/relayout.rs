//! The check behind the fuzz target `relayout`, shared with the regression
//! test that replays the committed corpus (`tests/fuzz_regressions.rs`).
//!
//! Input bytes describe a pair of layouts of the same dims and storage
//! width: tiled (any element width, permuted `minor_to_major`, up to three
//! tiles with `*` and tile dims up to `i64::MAX`, `L(n)`) or strided (zero
//! and overlapping strides allowed). The plan must be made without a panic.
//! When both sides are small, it is executed serially, with streaming
//! stores forced on and off, and in parallel, each into a destination at
//! shifted alignments between guard units, and checked against the
//! element-wise definition: every element moved (for an overlapping
//! destination, one of the elements that share the slot), destination
//! padding filled, strided gaps and guards untouched.

use std::collections::HashMap;

use tilelayout::storage::{packed, ArrayLayout, RelayoutPlan, Strided, Unit};
use tilelayout::value::parse_shape;

/// Most storage slots a side may have for the plan to be executed.
const MAX_SLOTS: u64 = 1 << 12;

/// The input, read one byte at a time; zeros past the end.
struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
}

/// A decoded case: two sides of the same dims and storage width, and the
/// alignment shift of the buffers.
pub struct Case {
    pub src: ArrayLayout,
    pub dst: ArrayLayout,
    pub dims: Vec<u64>,
    pub bits: u32,
    pub shift: usize,
}

/// The case the bytes describe, or `None` if a side is not a valid layout.
pub fn decode(data: &[u8]) -> Option<Case> {
    let mut b = Bytes { data, pos: 0 };
    let bits = [1u32, 2, 4, 8, 16, 32, 64][b.next() as usize % 7];
    let rank = 1 + b.next() as usize % 4;
    let dims: Vec<u64> = (0..rank).map(|_| b.next() as u64 % 10).collect();
    let src = side(&mut b, &dims, bits)?;
    let dst = side(&mut b, &dims, bits)?;
    let shift = b.next() as usize % 4;
    Some(Case {
        src,
        dst,
        dims,
        bits,
        shift,
    })
}

/// Runs one fuzz case (any bytes are a valid case).
pub fn check(data: &[u8]) {
    let Some(Case {
        src,
        dst,
        dims,
        bits,
        shift,
    }) = decode(data)
    else {
        return;
    };
    let plan = match RelayoutPlan::new(src, dst) {
        Ok(p) => p,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let _ = plan.stats();
    if slots(&src) > MAX_SLOTS || slots(&dst) > MAX_SLOTS {
        return;
    }
    match bits {
        1..=8 => run::<u8>(&plan, &src, &dst, &dims, bits, shift),
        16 => run::<u16>(&plan, &src, &dst, &dims, bits, shift),
        32 => run::<u32>(&plan, &src, &dst, &dims, bits, shift),
        _ => run::<u64>(&plan, &src, &dst, &dims, bits, shift),
    }
}

/// One side from the input: `None` when the bytes describe an invalid
/// layout (the parser and validator are fuzzed by `parse` and `runtime`).
fn side(b: &mut Bytes<'_>, dims: &[u64], bits: u32) -> Option<ArrayLayout> {
    let rank = dims.len();
    let flag = b.next();
    if flag & 1 == 0 {
        // strided: row-major strides, or small ones (zero, overlapping)
        let strides: Vec<u64> = if flag & 2 == 0 {
            let mut st = vec![1u64; rank];
            for d in (0..rank.saturating_sub(1)).rev() {
                st[d] = st[d + 1] * dims[d + 1].max(1);
            }
            st
        } else {
            (0..rank).map(|_| b.next() as u64 % 13).collect()
        };
        return Strided::new(dims, &strides, bits)
            .ok()
            .map(ArrayLayout::Strided);
    }
    let ty = match bits {
        1 => "pred",
        2 => "u2",
        4 => "s4",
        8 => "u8",
        16 => "bf16",
        32 => "f32",
        _ => "f64",
    };
    // minor_to_major: a permutation from the bytes
    let mut m2m: Vec<usize> = (0..rank).rev().collect();
    for i in (1..rank).rev() {
        m2m.swap(i, b.next() as usize % (i + 1));
    }
    let mut text = format!(
        "{ty}[{}]{{{}",
        dims.iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(","),
        m2m.iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut attrs = String::new();
    let tiles = b.next() % 4;
    if tiles > 0 {
        attrs.push('T');
        for _ in 0..tiles {
            let k = 1 + b.next() as usize % 3;
            let t: Vec<String> = (0..k)
                .map(|_| match b.next() {
                    0xFF => i64::MAX.to_string(),
                    0xFE => "*".to_owned(),
                    0xFD => (1u64 << 32).to_string(),
                    v => (1 + v % 9).to_string(),
                })
                .collect();
            attrs.push_str(&format!("({})", t.join(",")));
        }
    }
    let l = b.next();
    if l.is_multiple_of(4) {
        attrs.push_str(&format!("L({})", 1 + l % 5));
    }
    if bits < 8 {
        attrs.push_str(&format!("E({bits})"));
    }
    if !attrs.is_empty() {
        text.push(':');
        text.push_str(&attrs);
    }
    text.push('}');
    let shape = parse_shape(&text).ok()?;
    shape.tiling().ok()?;
    Some(ArrayLayout::Tiled(shape))
}

/// A unit as a number, to fill and compare slots of any width.
pub trait Word: Unit {
    fn from_u64(x: u64) -> Self;
    fn to_u64(self) -> u64;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            fn from_u64(x: u64) -> Self {
                x as $t
            }
            fn to_u64(self) -> u64 {
                self as u64
            }
        }
    )*};
}
word!(u8, u16, u32, u64);

fn get<U: Word>(units: &[U], slot: u64, bits: u32) -> u64 {
    if bits < 8 {
        packed::get(bytemuck::cast_slice(units), slot as usize, bits) as u64
    } else {
        units[slot as usize].to_u64()
    }
}

fn put<U: Word>(units: &mut [U], slot: u64, bits: u32, v: u64) {
    if bits < 8 {
        packed::set(
            bytemuck::cast_slice_mut(units),
            slot as usize,
            bits,
            v as u8,
        );
    } else {
        units[slot as usize] = U::from_u64(v);
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

fn hash(x: u64, salt: u64) -> u64 {
    let mut h = x.wrapping_add(salt).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= h >> 29;
    h.wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (h >> 32)
}

#[path = "coords.rs"]
mod coords;
use coords::coords;
#[path = "reference.rs"]
mod reference;
use reference::{offset, slots};

/// One way of executing a plan: `(src, dst, pad)`.
type Exec<'a, U> = Box<dyn Fn(&[U], &mut [U], U) + 'a>;

fn run<U: Word>(
    plan: &RelayoutPlan,
    src_l: &ArrayLayout,
    dst_l: &ArrayLayout,
    dims: &[u64],
    bits: u32,
    shift: usize,
) {
    let ub = std::mem::size_of::<U>();
    let (sn, dn) = (plan.src_units(ub) as usize, plan.dst_units(ub) as usize);
    let m = mask(bits);
    let mut src = vec![U::from_u64(0); sn];
    for s in 0..slots(src_l) {
        put(&mut src, s, bits, hash(s, 1) & m);
    }
    // what each destination slot may hold: the source values of the
    // coordinates that map to it
    let mut allowed: HashMap<u64, Vec<u64>> = HashMap::new();
    for c in coords(dims) {
        let v = get(&src, offset(src_l, &c), bits);
        allowed.entry(offset(dst_l, &c)).or_default().push(v);
    }
    let pad = hash(7, 3) & m;
    let sentinel = |s: u64| hash(s, 2) & m;
    let guard = U::from_u64(0xA5A5_A5A5_A5A5_A5A5);
    let dst_slots = slots(dst_l);
    let tiled_dst = matches!(dst_l, ArrayLayout::Tiled(_));
    let mut ways: Vec<(&str, Exec<'_, U>)> = vec![
        (
            "serial",
            Box::new(|s, d, p| plan.execute_with_padding(s, d, p).unwrap()),
        ),
        (
            "streaming",
            Box::new(|s, d, p| {
                plan.clone()
                    .with_streaming(Some(true))
                    .execute_with_padding(s, d, p)
                    .unwrap()
            }),
        ),
        (
            "no streaming",
            Box::new(|s, d, p| {
                plan.clone()
                    .with_streaming(Some(false))
                    .execute_with_padding(s, d, p)
                    .unwrap()
            }),
        ),
    ];
    #[cfg(feature = "parallel")]
    // (chunks forced: `execute_parallel`'s size rule runs arrays this
    // small on one thread)
    for (threads, chunks) in [(2usize, 2usize), (3, 5)] {
        ways.push((
            "parallel",
            Box::new(move |s, d, p| plan.execute_in_chunks(s, d, p, threads, chunks).unwrap()),
        ));
    }
    #[cfg(not(feature = "parallel"))]
    let _ = &mut ways;
    for (name, exec) in &ways {
        for lead in [shift, (shift + 1) % 4] {
            let mut buf = vec![guard; lead + dn + 4];
            {
                let d = &mut buf[lead..lead + dn];
                for s in 0..dst_slots {
                    put(d, s, bits, sentinel(s));
                }
            }
            let pad_unit = U::from_u64(pad);
            // the source at a shifted alignment too
            let mut sbuf = vec![guard; lead + sn];
            sbuf[lead..].copy_from_slice(&src);
            exec(&sbuf[lead..], &mut buf[lead..lead + dn], pad_unit);
            assert!(
                buf[..lead].iter().all(|&g| g == guard),
                "{name}: wrote before dst"
            );
            assert!(
                buf[lead + dn..].iter().all(|&g| g == guard),
                "{name}: wrote past dst"
            );
            let d = &buf[lead..lead + dn];
            for s in 0..dst_slots {
                let got = get(d, s, bits);
                match allowed.get(&s) {
                    Some(vals) => assert!(
                        vals.contains(&got),
                        "{name}: slot {s} holds {got:#x}, expected one of {vals:x?}"
                    ),
                    None if tiled_dst => {
                        assert_eq!(got, pad & m, "{name}: padding slot {s} not filled")
                    }
                    None => assert_eq!(got, sentinel(s), "{name}: strided gap {s} written"),
                }
            }
        }
    }
}

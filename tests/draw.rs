//! The text pictures of `tilelayout::draw`: XLA's Figures 1 and 2 pinned
//! cell for cell, packing, and the plain listings checked against the
//! core's index math; large layouts drawn as one block per repeated run,
//! checked to be lossless by rebuilding every slot from what is drawn.

use proptest::prelude::*;
use tilelayout::draw::Picture;
use tilelayout::value::parse_valid_shape;

#[track_caller]
fn picture(text: &str) -> Picture {
    Picture::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The grid part of a text picture (from the column header to the line
/// before the first blank line).
fn grid(text: &str) -> String {
    let start = text.find("\n ").expect("a grid") + 1;
    let end = text[start..]
        .find("\n\n")
        .map_or(text.len(), |e| start + e + 1);
    text[start..end].to_owned()
}

/// XLA's Figure 1: `F32[3,5]{1,0:T(2,2)}`. The doc draws the 3×5 array
/// padded to whole 2×2 tiles, each cell numbered with its linear index,
/// padding cells white; element (2,3) is at 17 and the padding is at 9,
/// 11, 14, 15, 18, 19, 21, 22, 23.
#[test]
fn figure_1() {
    let p = picture("F32[3,5]{1,0:T(2,2)}");
    let text = p.text();
    assert_eq!(
        grid(&text),
        concat!(
            "      0      1      2      3      4      5\n",
            "0     0      1 |    4      5 |    8    (9)\n",
            "1     2      3 |    6      7 |   10   (11)\n",
            "   ------------+-------------+------------\n",
            "2    12     13 |   16     17 |   20   (21)\n",
            "3  (14)   (15) | (18)   (19) | (22)   (23)\n",
        ),
        "{text}"
    );
    assert!(text.starts_with("f32[3,5]{1,0:T(2,2)}: 15 elements in 24 slots (9 padding)\n"));
    assert!(text.ends_with(concat!(
        "memory: slots in order, each with its element or pad\n",
        " 0..3   (0,0) (0,1) (1,0) (1,1)\n",
        " 4..7   (0,2) (0,3) (1,2) (1,3)\n",
        " 8..11  (0,4) pad (1,4) pad\n",
        "12..15  (2,0) (2,1) pad pad\n",
        "16..19  (2,2) (2,3) pad pad\n",
        "20..23  (2,4) pad pad pad\n",
    )));
    assert_eq!(p.slot_at(&[2, 3]), Some((17, false)));
    assert_eq!(p.slot_at(&[3, 5]), Some((23, true)));
    assert_eq!(p.slot_at(&[4, 0]), None);
}

/// XLA's Figure 2: 4×8 tiled by (2,4) then (2,1). Each colour a 2×4 tile
/// (borders `|` and `-`), each red box a 2×1 tile (borders `:`; rows 0
/// and 1 of a column share one), the numbers the linear index: row 0 is
/// 0 2 4 … 14, row 1 is 1 3 … 15, row 2 is 16 18 … 30, row 3 17 … 31.
#[test]
fn figure_2() {
    let text = picture("f32[4,8]{1,0:T(2,4)(2,1)}").text();
    assert_eq!(
        grid(&text),
        concat!(
            "    0    1    2    3    4    5    6    7\n",
            "0   0 :  2 :  4 :  6 |  8 : 10 : 12 : 14\n",
            "1   1 :  3 :  5 :  7 |  9 : 11 : 13 : 15\n",
            "   ------------------+------------------\n",
            "2  16 : 18 : 20 : 22 | 24 : 26 : 28 : 30\n",
            "3  17 : 19 : 21 : 23 | 25 : 27 : 29 : 31\n",
        ),
        "{text}"
    );
    assert!(
        text.contains("tile level 0 (2,4): borders | and -\ntile level 1 (2,1): borders : and .\n")
    );
}

/// bf16 with the TPU's packing tile: rows 2k and 2k+1 of a column share a
/// 32-bit word.
#[test]
fn bf16_pairs_share_a_word() {
    let text = picture("bf16[4,8]{1,0:T(2,4)(2,1)}").text();
    let words = text.split("packing: ").nth(1).expect("a packing grid");
    assert!(words.starts_with("2 slots per 32-bit word"), "{text}");
    assert!(
        grid(words).contains(concat!(
            "0   0 :  1 :  2 :  3 |  4 :  5 :  6 :  7\n",
            "1   0 :  1 :  2 :  3 |  4 :  5 :  6 :  7\n",
        )),
        "{text}"
    );
}

/// `E(4)`: slots 2k and 2k+1 share byte k; no packing grid without a
/// packed unit.
#[test]
fn int4_pairs_share_a_byte() {
    let text = picture("s4[2,8]{1,0:E(4)}").text();
    let bytes = text.split("packing: ").nth(1).expect("a packing grid");
    assert!(bytes.starts_with("2 slots per byte"), "{text}");
    assert!(grid(bytes)
        .contains("0  0   0   1   1   2   2   3   3\n1  4   4   5   5   6   6   7   7\n"));
    assert!(!picture("f32[4,8]{1,0:T(2,4)(2,1)}")
        .text()
        .contains("packing"));
    assert!(!picture("bf16[8,128]{1,0:T(8,128)}")
        .text()
        .contains("packing"));
    assert!(picture("u8[8,128]{1,0:T(8,128)(4,1)}")
        .text()
        .contains("4 slots per 32-bit word"));
}

/// Leading dims are stacked, each grid headed by its indices.
#[test]
fn leading_dims_stacked() {
    let text = picture("f32[2,3,4]{0,2,1}").text();
    assert!(
        text.contains(concat!(
            "[1,:,:]\n",
            "    0    1    2    3\n",
            "0   1    3    5    7\n",
            "1   9   11   13   15\n",
            "2  17   19   21   23\n",
        )),
        "{text}"
    );
}

/// `slots` and `memory` say exactly what the core says, for every element
/// and slot.
fn listings_agree(text: &str) {
    let shape = parse_valid_shape(text).unwrap();
    let t = shape.tiling().unwrap();
    let p = Picture::new(&shape).unwrap();
    let dims: Vec<u64> = (0..t.rank())
        .map(|d| shape.dims()[d].size().unwrap())
        .collect();
    let mut expected = String::new();
    let rows: u64 = dims.iter().rev().skip(1).product();
    let cols = dims.last().copied().unwrap_or(1);
    for r in 0..rows {
        let mut pos = vec![0; dims.len()];
        let mut rest = r;
        for d in (0..dims.len().saturating_sub(1)).rev() {
            pos[d] = rest % dims[d];
            rest /= dims[d];
        }
        let line: Vec<String> = (0..cols)
            .map(|j| {
                if let Some(l) = pos.last_mut() {
                    *l = j;
                }
                t.offset(&pos).unwrap().to_string()
            })
            .collect();
        expected.push_str(&line.join(" "));
        expected.push('\n');
    }
    if dims.contains(&0) {
        expected.clear();
    }
    assert_eq!(p.slots(), expected, "{text}");
    let memory = p.memory();
    let lines: Vec<&str> = memory.lines().collect();
    assert_eq!(lines.len() as u64, t.slots(), "{text}");
    for (s, line) in lines.iter().enumerate() {
        let want = match t.coords(s as u64).unwrap() {
            Some(c) => {
                let c: Vec<String> = c.as_slice().iter().map(u64::to_string).collect();
                format!("{s} ({})", c.join(","))
            }
            None => format!("{s} pad"),
        };
        assert_eq!(*line, want, "{text}");
    }
}

#[test]
fn listings_agree_with_the_core() {
    for text in [
        "f32[3,5]{1,0:T(2,2)}",
        "f32[4,8]{1,0:T(2,4)(2,1)}",
        "f32[2,3,4]{0,2,1}",
        "f32[]{:T(128)}",
        "f32[3]{0:T(8,128)}",
        "bf16[5,7]{0,1:T(4,2)(2,1)}",
        "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
        "s4[3,9]{1,0:T(2,4)L(8)E(4)}",
        "f32[0,4]{1,0:T(2,2)}",
    ] {
        listings_agree(text);
    }
}

/// Rebuilds the slot of every position from the drawn cells alone: a
/// position in a left-out block takes the slot drawn at the same place in
/// block 0 plus `block·stride` along each shortened dim.
fn check_lossless(text: &str, cell_limit: u64) {
    let shape = parse_valid_shape(text).unwrap();
    let t = shape.tiling().unwrap();
    let p = Picture::with_cell_limit(&shape, cell_limit).unwrap();
    let axes = p.axes().to_vec();
    let rank = axes.len();
    let drawn = |pos: &[u64]| -> Option<u64> {
        let mut q = pos.to_vec();
        let mut add = 0;
        for (d, a) in axes.iter().enumerate() {
            let b = pos[d] / a.period;
            if !a.drawn(b) {
                q[d] = pos[d] - b * a.period;
                add += b * a.stride;
            }
        }
        p.slot_at(&q).map(|(s, _)| s + add)
    };
    let dims: Vec<u64> = axes.iter().map(|a| a.extent).collect();
    if dims.contains(&0) {
        return;
    }
    let mut pos = vec![0u64; rank];
    loop {
        assert_eq!(
            drawn(&pos),
            Some(t.offset(&pos).unwrap()),
            "{text} at {pos:?}"
        );
        let mut i = rank;
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            pos[i] += 1;
            if pos[i] < dims[i] {
                break;
            }
            pos[i] = 0;
        }
    }
}

#[test]
fn large_layouts_are_drawn_losslessly() {
    for text in [
        "f32[40,300]{1,0:T(8,128)}",
        "bf16[3,50,260]{2,1,0:T(8,128)(2,1)}",
        "f32[3,50,260]{1,2,0:T(8,128)}",
        "f32[1000]{0:T(128)}",
        "bf16[2048]{0:T(1024)(128)(2,1)}",
        "f32[50,70]{1,0}",
    ] {
        check_lossless(text, 64);
    }
    let p = picture("bf16[4096,4096]{1,0:T(8,128)(2,1)}");
    assert!(p.axes().iter().all(|a| a.elided), "{:?}", p.axes());
    assert!(p.text().len() < 1 << 20);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// Any small layout, drawn with a small cell limit, loses nothing.
    #[test]
    fn elision_is_lossless(
        d0 in 1u64..40, d1 in 1u64..40, d2 in 1u64..4,
        t0 in 1u64..9, t1 in 1u64..9, second in 0usize..3, transpose: bool,
    ) {
        let m2m = if transpose { "1,2,0" } else { "2,1,0" };
        let extra = ["", "(2,1)", "(1,2)"][second];
        let text = format!("f32[{d2},{d0},{d1}]{{{m2m}:T({t0},{t1}){extra}}}");
        check_lossless(&text, 16);
        listings_agree(&text);
    }
}

//! `32 / w` rows of `w`-bit slots zipped into 32-bit columns, for `w` = 2
//! and 1: the `(16,128)(16,1)E(2)` and `(32,128)(32,1)E(1)` packings
//! (sixteen 2-bit or thirty-two 1-bit rows to a word, as `(8,128)(8,1)E(4)`
//! packs eight nibbles; `storage::nibbles` has that case).
//!
//! ```text
//!   row r, byte x      = slots (8/w)·x + j, j < 8/w (slot j at bit w·j)
//!   column (8/w)·x + j = one 32-bit word: row r at bits w·r .. w·r + w
//!   out[kx .. kx+k]    = the 8/w words of byte column x   (k = 32/w bytes)
//! ```
//!
//! Whole words, no `unsafe`, in three steps for each group of 8 byte
//! columns:
//! 1. each group of 8 rows is transposed as 8 × 8 bytes (the nibble zip's
//!    exchange steps), giving per byte column a word whose byte `r` is row
//!    `8g + r`;
//! 2. [`slots_transposed`] turns that word (8 rows × `8/w` slots, row-major)
//!    into column-major order: slot `j` of the 8 rows as `8w` contiguous
//!    bits (bit-index rotations by delta swaps, the Hacker's Delight 8 × 8
//!    bit transpose generalized to `w`-bit units);
//! 3. word `j` of the column is the `g`-th `8w`-bit piece of every group.
//!
//! [`unzip_bits`] runs the steps backwards (each delta swap is its own
//! inverse, so the swaps run in reverse order).

use super::nibbles::transpose8;

/// Delta swaps (shift, mask) that turn a word of 8 rows × `8/w` slots of
/// `w` bits (unit `[r | j]`, row-major) into column-major order (unit `[j
/// | r]`): index bit `i` of a unit moves to `i + 3` (a slot bit) or `i −
/// log2(8/w)` (a row bit). Built by selection: position `p` takes the
/// index bit that belongs there, swapped in from above.
const fn swaps(w: u32) -> ([(u32, u64); 6], usize) {
    let n = 6 - w.trailing_zeros(); // index bits of the 64/w units
    let nj = n - 3; // slot bits
    let mut cur = [0u32; 6];
    let mut i = 0;
    while i < 6 {
        cur[i] = i as u32;
        i += 1;
    }
    let mut out = [(0u32, 0u64); 6];
    let mut len = 0;
    let mut p = 0;
    while p < n {
        let want = if p < 3 { p + nj } else { p - 3 };
        let mut q = p;
        while cur[q as usize] != want {
            q += 1;
        }
        if q != p {
            // units with index bit p set and q clear trade places with
            // their partners (bit p clear, q set) (1 << q) − (1 << p)
            // units higher
            let mut mask = 0u64;
            let mut u = 0;
            while u < 64 / w {
                if (u >> p) & 1 == 1 && (u >> q) & 1 == 0 {
                    mask |= ((1u64 << w) - 1) << (u * w);
                }
                u += 1;
            }
            out[len] = (((1 << q) - (1 << p)) * w, mask);
            len += 1;
            let t = cur[p as usize];
            cur[p as usize] = cur[q as usize];
            cur[q as usize] = t;
        }
        p += 1;
    }
    (out, len)
}

/// One delta swap: the bits of `m` trade places with those `s` above.
#[inline(always)]
fn delta(x: u64, (s, m): (u32, u64)) -> u64 {
    let t = ((x >> s) ^ x) & m;
    x ^ t ^ (t << s)
}

/// 8 rows (byte `r` = row `r`) of `8/w` slots each, as `8/w` pieces of `8w`
/// bits: piece `j` (bits `8w·j ..`) is slot `j` of the rows, row `r` at
/// bit `w·r`.
///
/// ```text
///   w = 1: the 8 × 8 bit transpose (bit 8r + j → bit 8j + r)
///   w = 2: unit 4r + j → unit 8j + r (2-bit units)
///   w = 4: unit 2r + j → unit 8j + r (nibbles)
/// ```
#[inline(always)]
pub(crate) fn slots_transposed<const W: u32>(x: u64) -> u64 {
    let (sw, n) = const { swaps(W) };
    let mut x = x;
    let mut i = 0;
    while i < n {
        x = delta(x, sw[i]);
        i += 1;
    }
    x
}

/// The inverse of [`slots_transposed`].
#[inline(always)]
pub(crate) fn slots_untransposed<const W: u32>(x: u64) -> u64 {
    let (sw, n) = const { swaps(W) };
    let mut x = x;
    let mut i = n;
    while i > 0 {
        i -= 1;
        x = delta(x, sw[i]);
    }
    x
}

/// Rows per word: `32 / W`.
const fn rows(w: u32) -> usize {
    32 / w as usize
}

/// Zips `cols` byte columns of `k = 32 / W` rows `rs` bytes apart,
/// starting at `rows[0]`, into `out[..k · cols]` (see the module doc). `W`
/// is 1, 2 or 4.
pub(crate) fn zip_bits<const W: u32>(rows_: &[u8], rs: usize, cols: usize, out: &mut [u8]) {
    let k = rows(W);
    let out = &mut out[..k * cols];
    let mut x = 0;
    while x < cols {
        let n = (cols - x).min(8);
        // per group g of 8 rows: m[g][c] = byte column x + c of the rows
        let mut m = [[[0u64; 1]; 8]; 4];
        for (g, mg) in m.iter_mut().take(k / 8).enumerate() {
            for (r, w) in mg.iter_mut().enumerate() {
                let at = (8 * g + r) * rs + x;
                let mut b = [0u8; 8];
                b[..n].copy_from_slice(&rows_[at..at + n]);
                w[0] = u64::from_le_bytes(b);
            }
            transpose8(mg);
        }
        for c in 0..n {
            // pieces of 8W bits: word j of the column gets piece j of
            // every group, group g at bits 8W·g
            let mut words = [0u32; 8];
            for (g, mg) in m.iter().take(k / 8).enumerate() {
                let t = slots_transposed::<W>(mg[c][0]);
                for (j, word) in words.iter_mut().take(8 / W as usize).enumerate() {
                    let piece = (t >> (8 * W as usize * j)) & piece_mask(W);
                    *word |= (piece as u32) << (8 * W as usize * g);
                }
            }
            let o = k * (x + c);
            for (j, word) in words.iter().take(8 / W as usize).enumerate() {
                out[o + 4 * j..o + 4 * j + 4].copy_from_slice(&word.to_le_bytes());
            }
        }
        x += n;
    }
}

/// Splits `cols` byte columns packed as [`zip_bits`] packs them (`in_[..k
/// · cols]`) into `k = 32 / W` rows `rs` bytes apart from `rows[0]`: the
/// inverse of [`zip_bits`]. Only the `cols` bytes of each row are written.
pub(crate) fn unzip_bits<const W: u32>(in_: &[u8], rows_: &mut [u8], rs: usize, cols: usize) {
    let k = rows(W);
    let in_ = &in_[..k * cols];
    let mut x = 0;
    while x < cols {
        let n = (cols - x).min(8);
        let mut m = [[[0u64; 1]; 8]; 4];
        for c in 0..n {
            let o = k * (x + c);
            for (g, mg) in m.iter_mut().take(k / 8).enumerate() {
                let mut t = 0u64;
                for j in 0..8 / W as usize {
                    let b = &in_[o + 4 * j..o + 4 * j + 4];
                    let word = u32::from_le_bytes(b.try_into().unwrap_or([0; 4]));
                    let piece = (word >> (8 * W as usize * g)) as u64 & piece_mask(W);
                    t |= piece << (8 * W as usize * j);
                }
                mg[c][0] = slots_untransposed::<W>(t);
            }
        }
        for (g, mg) in m.iter_mut().take(k / 8).enumerate() {
            transpose8(mg);
            for (r, w) in mg.iter().enumerate() {
                let at = (8 * g + r) * rs + x;
                rows_[at..at + n].copy_from_slice(&w[0].to_le_bytes()[..n]);
            }
        }
        x += n;
    }
}

/// The low `8W` bits.
#[inline(always)]
const fn piece_mask(w: u32) -> u64 {
    if w >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * w)) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::packed;

    /// Slot `j` of row `r` as bits of a word, the definition.
    fn naive_transposed(x: u64, w: u32) -> u64 {
        let per = 8 / w as usize;
        let mut out = 0u64;
        for r in 0..8 {
            for j in 0..per {
                let v = (x >> (8 * r + w as usize * j)) & ((1 << w) - 1);
                out |= v << (8 * w as usize * j + w as usize * r);
            }
        }
        out
    }

    #[test]
    fn slots_transposed_matches_the_definition() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x = x.rotate_left(17).wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x1234;
            for (w, got, back) in [
                (
                    1,
                    slots_transposed::<1>(x),
                    slots_untransposed::<1>(slots_transposed::<1>(x)),
                ),
                (
                    2,
                    slots_transposed::<2>(x),
                    slots_untransposed::<2>(slots_transposed::<2>(x)),
                ),
                (
                    4,
                    slots_transposed::<4>(x),
                    slots_untransposed::<4>(slots_transposed::<4>(x)),
                ),
            ] {
                assert_eq!(got, naive_transposed(x, w), "w {w} x {x:#x}");
                assert_eq!(back, x, "w {w} x {x:#x}");
            }
        }
    }

    /// The definition, slot by slot: slot `K·c + r` of the packed side is
    /// slot `c` of row `r`.
    fn naive_zip(rows_: &[u8], rs: usize, cols: usize, w: u32, out: &mut [u8]) {
        let (k, per) = (32 / w as usize, 8 / w as usize);
        for c in 0..per * cols {
            for r in 0..k {
                let v = packed::get(rows_, r * per * rs + c, w);
                packed::set(out, k * c + r, w, v);
            }
        }
    }

    fn roundtrip<const W: u32>() {
        for cols in [0usize, 1, 3, 7, 8, 9, 15, 16, 17, 33] {
            for extra in [0usize, 5] {
                let rs = cols + extra;
                let k = 32 / W as usize;
                let src: alloc::vec::Vec<u8> = (0..k * rs + 1)
                    .map(|i| (i as u32).wrapping_mul(2654435761).wrapping_shr(11) as u8)
                    .collect();
                let (mut a, mut b) = (alloc::vec![0u8; k * cols], alloc::vec![0u8; k * cols]);
                zip_bits::<W>(&src, rs, cols, &mut a);
                naive_zip(&src, rs, cols, W, &mut b);
                assert_eq!(a, b, "w {W} cols {cols} rs {rs}");
                let mut back = alloc::vec![0xEEu8; k * rs];
                unzip_bits::<W>(&a, &mut back, rs, cols);
                for r in 0..k {
                    let row = &back[r * rs..r * rs + rs];
                    assert_eq!(&row[..cols], &src[r * rs..r * rs + cols], "w {W} row {r}");
                    assert!(row[cols..].iter().all(|&v| v == 0xEE), "w {W} row {r}");
                }
            }
        }
    }

    /// The SIMD dispatch at every level and both store kinds against the
    /// definition: columns enough for the AVX-512 kernel with heads and
    /// tails, rows unaligned or sharing a line offset, buffers starting
    /// mid-line.
    fn every_level<const W: u32>() {
        use crate::storage::simd::{self, Isa, Simd};
        let k = 32 / W as usize;
        for cols in [0usize, 5, 64, 127, 128, 129, 200, 321] {
            for rs in [cols + 3, cols.next_multiple_of(64)] {
                for lead in [0usize, 16, 48] {
                    let src: alloc::vec::Vec<u8> = (0..lead + k * rs + 1)
                        .map(|i| (i as u32).wrapping_mul(2654435761).wrapping_shr(11) as u8)
                        .collect();
                    let src = &src[lead..];
                    let mut want = alloc::vec![0u8; k * cols];
                    naive_zip(src, rs, cols, W, &mut want);
                    for level in Simd::ALL {
                        for nt in [false, true] {
                            let isa = Isa::new(Some(level));
                            let mut buf = alloc::vec![0u8; lead + k * cols];
                            simd::zip_bits::<W>(isa, src, rs, cols, &mut buf[lead..], k * rs, nt);
                            let at = alloc::format!(
                                "w {W} {level:?} nt {nt} cols {cols} rs {rs} lead {lead}"
                            );
                            assert_eq!(&buf[lead..], &want[..], "{at}");
                            let mut back = alloc::vec![0xEEu8; lead + k * rs];
                            simd::unzip_bits::<W>(isa, &want, &mut back[lead..], rs, cols, nt);
                            for r in 0..k {
                                let row = &back[lead + r * rs..lead + (r + 1) * rs];
                                assert_eq!(
                                    &row[..cols],
                                    &src[r * rs..r * rs + cols],
                                    "{at} row {r}"
                                );
                                assert!(row[cols..].iter().all(|&v| v == 0xEE), "{at} row {r}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn simd_zip_bits_match_the_definition_at_every_level() {
        every_level::<1>();
        every_level::<2>();
    }

    #[test]
    fn zip_bits_matches_the_definition_and_unzip_inverts_it() {
        roundtrip::<1>();
        roundtrip::<2>();
        roundtrip::<4>();
    }
}

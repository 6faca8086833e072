//! Eight rows of 4-bit slots zipped column by column: the `(8,128)(8,1)`
//! packing of `s4`/`u4` with `E(4)` (each column's 8 slots become 4
//! bytes, rows `2q` and `2q+1` in the low and high half of byte `q`).
//!
//! ```text
//!   row r, byte x  = slots 2x (low half) and 2x+1 (high half)
//!   out[8x .. 8x+4]   = column 2x:   (row0 | row1 << 4), (row2 | row3 << 4), …
//!   out[8x+4 .. 8x+8] = column 2x+1: the same with the high halves
//! ```
//!
//! Whole words at a time, no `unsafe`: eight rows of 8 bytes are transposed
//! as 8 × 8 bytes with shifts and masks (three exchange steps), then each
//! byte column's word becomes its 8 output bytes. Four such groups run side
//! by side (plain `[u64; 4]` arithmetic that the compiler vectorizes).
//! [`unzip8`] is the inverse: each byte column's 8 packed bytes become the
//! column's word (byte `r` = row `r`), then the same transpose gives the
//! rows' words.

/// Byte columns per group of words side by side.
const LANES: usize = 4;

/// Zips `cols` byte columns (`2 · cols` slots) of eight rows `rs` bytes
/// apart, starting at `rows[0]`, into `out[..8 · cols]`.
pub(crate) fn zip8(rows: &[u8], rs: usize, cols: usize, out: &mut [u8]) {
    let out = &mut out[..8 * cols];
    let wide = cols / (8 * LANES) * (8 * LANES);
    for x in (0..wide).step_by(8 * LANES) {
        // m[r][l]: row r, byte columns x + 8l .. x + 8l + 8
        let mut m = [[0u64; LANES]; 8];
        for (r, row) in m.iter_mut().enumerate() {
            let at = r * rs + x;
            for (l, w) in row.iter_mut().enumerate() {
                let b = &rows[at + 8 * l..at + 8 * l + 8];
                *w = u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
            }
        }
        transpose8(&mut m);
        // m[c][l]: byte column x + 8l + c, byte r = row r
        for (c, v) in m.iter().enumerate() {
            for (l, &v) in v.iter().enumerate() {
                let o = 8 * (x + 8 * l + c);
                out[o..o + 8].copy_from_slice(&column_pair(v).to_le_bytes());
            }
        }
    }
    for x in wide..cols {
        let mut v = 0u64;
        for r in 0..8 {
            v |= (rows[r * rs + x] as u64) << (8 * r);
        }
        out[8 * x..8 * x + 8].copy_from_slice(&column_pair(v).to_le_bytes());
    }
}

/// Splits `cols` byte columns packed as [`zip8`] packs them (`in_[..8 ·
/// cols]`) into eight rows `rs` bytes apart from `rows[0]`: the inverse of
/// [`zip8`]. Only the `cols` bytes of each row are written.
pub(crate) fn unzip8(in_: &[u8], rows: &mut [u8], rs: usize, cols: usize) {
    let in_ = &in_[..8 * cols];
    let wide = cols / (8 * LANES) * (8 * LANES);
    for x in (0..wide).step_by(8 * LANES) {
        // m[c][l]: byte column x + 8l + c as its word, byte r = row r
        let mut m = [[0u64; LANES]; 8];
        for (c, col) in m.iter_mut().enumerate() {
            for (l, w) in col.iter_mut().enumerate() {
                let o = 8 * (x + 8 * l + c);
                let b = &in_[o..o + 8];
                *w = column_unpair(u64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
            }
        }
        transpose8(&mut m);
        // m[r][l]: row r, byte columns x + 8l .. x + 8l + 8
        for (r, row) in m.iter().enumerate() {
            let at = r * rs + x;
            for (l, &w) in row.iter().enumerate() {
                rows[at + 8 * l..at + 8 * l + 8].copy_from_slice(&w.to_le_bytes());
            }
        }
    }
    for x in wide..cols {
        let b = &in_[8 * x..8 * x + 8];
        let w = column_unpair(u64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
        for r in 0..8 {
            rows[r * rs + x] = (w >> (8 * r)) as u8;
        }
    }
}

/// `m[r]` byte `c` ↔ `m[c]` byte `r`, lane by lane (`L` words side by
/// side; also the 2- and 1-bit zips' first step, `storage::bitzip`).
#[inline(always)]
pub(crate) fn transpose8<const L: usize>(m: &mut [[u64; L]; 8]) {
    // exchange steps: bytes between rows 1 apart, 16-bit pairs between
    // rows 2 apart, 32-bit halves between rows 4 apart
    for (shift, mask, gap) in [
        (8, 0x00FF_00FF_00FF_00FFu64, 1usize),
        (16, 0x0000_FFFF_0000_FFFF, 2),
        (32, 0x0000_0000_FFFF_FFFF, 4),
    ] {
        for r in 0..8 {
            if r & gap != 0 {
                continue;
            }
            let (top, rest) = m.split_at_mut(r + gap);
            for (a, b) in top[r].iter_mut().zip(rest[0].iter_mut()) {
                let t = ((*a >> shift) ^ *b) & mask;
                *b ^= t;
                *a ^= t << shift;
            }
        }
    }
}

/// One byte column of the eight rows (`v` byte `r` = row `r`) as its two
/// packed columns: the low halves' 4 bytes, then the high halves'.
#[inline(always)]
fn column_pair(v: u64) -> u64 {
    const LO: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    // byte 2q: row 2q's low half | row 2q+1's low half << 4
    let lo = v & LO;
    let e = lo | (lo >> 4);
    // byte 2q: row 2q's high half >> 4 | row 2q+1's high half
    let f = ((v >> 4) & LO) | ((v >> 8) & !LO);
    even_bytes(e) | (even_bytes(f) << 32)
}

/// The inverse of [`column_pair`]: a column's 8 packed bytes (the low
/// halves' 4 bytes `e`, then the high halves' `f`) as the byte column's
/// word, byte `r` = row `r`.
///
/// ```text
///   byte 2q   = e_q & 0xF | (f_q & 0xF) << 4     (row 2q: its two halves)
///   byte 2q+1 = e_q >> 4  | f_q & 0xF0           (row 2q+1)
/// ```
#[inline(always)]
pub(crate) fn column_unpair(v: u64) -> u64 {
    const LO: u64 = 0x000F_000F_000F_000F;
    let (e, f) = (spread_bytes(v & 0xFFFF_FFFF), spread_bytes(v >> 32));
    let even = (e & LO) | ((f & LO) << 4);
    let odd = ((e >> 4) & LO) | (f & (LO << 4));
    even | (odd << 8)
}

/// The 4 bytes of a 32-bit `x` at bytes 0, 2, 4, 6 (the inverse of
/// [`even_bytes`]).
#[inline(always)]
fn spread_bytes(x: u64) -> u64 {
    let x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF;
    (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
}

/// Bytes 0, 2, 4, 6 of `x` as a 32-bit value.
#[inline(always)]
fn even_bytes(x: u64) -> u64 {
    let x = x & 0x00FF_00FF_00FF_00FF;
    let x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF;
    (x | (x >> 16)) & 0xFFFF_FFFF
}

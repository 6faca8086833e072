//! Sub-byte elements and their bit order within a byte.
//!
//! With `E(n)` for `n` in 1, 2, 4, storage slot `s` of a layout lives in
//! byte `s·n / 8` at bit offset `(s·n) mod 8`: the lower slot of a byte takes
//! the low bits. For `E(4)`, slots `2k` and `2k+1` share byte `k`:
//!
//! ```text
//!   byte k:   bit 7 6 5 4 | 3 2 1 0
//!                slot 2k+1 | slot 2k        E(4): s4, u4
//!   byte k:   7 6 | 5 4 | 3 2 | 1 0
//!             4k+3  4k+2  4k+1  4k          E(2): s2, u2
//!   byte k:   bit b holds slot 8k+b         E(1): pred
//! ```
//!
//! This is XLA's order: `PackIntN` (`xla/util.h`) packs unpacked values
//! (one per byte, value in the low bits) so that input `i` goes to byte
//! `i / (8/n)` shifted left by `n · (i mod (8/n))`, and `UnpackIntN` reads
//! them back the same way; the TPU and GPU runtimes and `ml_dtypes`-style
//! packing agree (XLA packed int4 high-nibble-first until 2024 and changed
//! to this order). Unpacked storage (no `E(n)`) holds one value per byte,
//! sign-extended for the signed types, as XLA's literals do.
//!
//! ```
//! use tilelayout::storage::{packed, i4};
//! let mut bytes = [0u8; 2];
//! for (slot, v) in [1i8, -2, 3, 7].into_iter().enumerate() {
//!     packed::set(&mut bytes, slot, 4, i4::new(v).unwrap().to_bits(4));
//! }
//! assert_eq!(bytes, [0xE1, 0x73]); // slot 0 = 1 low, slot 1 = -2 (0xE) high
//! assert_eq!(i4::from_bits(packed::get(&bytes, 1, 4)).get(), -2);
//! ```

use super::error::StorageError;

/// The low `bits` bits set.
#[inline]
pub const fn mask(bits: u32) -> u8 {
    if bits >= 8 {
        0xFF
    } else {
        (1u8 << bits) - 1
    }
}

/// Reads slot `slot` of `bits`-wide storage (1, 2, 4 or 8) from `bytes`.
///
/// The unchecked-by-result form for loops that checked their ranges once;
/// [`try_get`] returns an error instead.
///
/// # Panics
/// If `bits` is not 1, 2, 4 or 8, or the slot's byte is past the end of
/// `bytes` (views check lengths first). Debug and release builds agree.
#[inline]
pub fn get(bytes: &[u8], slot: usize, bits: u32) -> u8 {
    // The width check costs nothing in the kernels' loops: `bits` is loop
    // invariant and LLVM hoists the check. Measured on this `get`/`set`
    // pair in the element-wise kernel's loop shape (`kernels/bits.rs`,
    // `one`), 20 × 2^20 s4 copies, release, callgrind: 756,067,895
    // instructions with the asserts, 756,067,815 without (36 an element
    // either way). So there is no unchecked path.
    assert!(
        matches!(bits, 1 | 2 | 4 | 8),
        "packed storage is 1, 2, 4 or 8 bits wide, not {bits}"
    );
    if bits == 8 {
        return bytes[slot];
    }
    let per = (8 / bits) as usize;
    let shift = (slot % per) as u32 * bits;
    (bytes[slot / per] >> shift) & mask(bits)
}

/// Writes the low `bits` bits of `v` into slot `slot`, leaving the other
/// slots of the byte unchanged.
///
/// # Panics
/// As [`get`]; [`try_set`] returns an error instead.
#[inline]
pub fn set(bytes: &mut [u8], slot: usize, bits: u32, v: u8) {
    assert!(
        matches!(bits, 1 | 2 | 4 | 8),
        "packed storage is 1, 2, 4 or 8 bits wide, not {bits}"
    );
    if bits == 8 {
        bytes[slot] = v;
        return;
    }
    let per = (8 / bits) as usize;
    let shift = (slot % per) as u32 * bits;
    let m = mask(bits) << shift;
    let b = &mut bytes[slot / per];
    *b = (*b & !m) | ((v << shift) & m);
}

/// Checks a packed access: `bits` is 1, 2, 4 or 8 and slot `slot` lies in
/// `len` bytes.
fn check(len: usize, slot: usize, bits: u32) -> Result<(), StorageError> {
    if !matches!(bits, 1 | 2 | 4 | 8) {
        return Err(StorageError::ElementSize { bits: bits as u64 });
    }
    let per = (8 / bits) as usize;
    if slot / per >= len {
        return Err(StorageError::Length {
            expected: ((slot / per) as u64).saturating_add(1),
            found: len,
        });
    }
    Ok(())
}

/// [`get`], checked.
///
/// # Errors
/// [`StorageError::ElementSize`] unless `bits` is 1, 2, 4 or 8;
/// [`StorageError::Length`] (the bytes the slot needs) if the slot's byte is
/// past the end of `bytes`.
///
/// ```
/// use tilelayout::storage::{packed, StorageError};
/// assert_eq!(packed::try_get(&[0x21], 1, 4), Ok(2));
/// assert_eq!(packed::try_get(&[], 0, 4), Err(StorageError::Length { expected: 1, found: 0 }));
/// assert_eq!(packed::try_get(&[0], 0, 0), Err(StorageError::ElementSize { bits: 0 }));
/// ```
pub fn try_get(bytes: &[u8], slot: usize, bits: u32) -> Result<u8, StorageError> {
    check(bytes.len(), slot, bits)?;
    Ok(get(bytes, slot, bits))
}

/// [`set`], checked.
///
/// # Errors
/// As [`try_get`]; `bytes` is unchanged on error.
pub fn try_set(bytes: &mut [u8], slot: usize, bits: u32, v: u8) -> Result<(), StorageError> {
    check(bytes.len(), slot, bits)?;
    set(bytes, slot, bits, v);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_arguments_are_errors() {
        for bits in [0u32, 3, 5, 6, 7, 9, 16, 32, u32::MAX] {
            assert_eq!(
                try_get(&[0xFF], 0, bits),
                Err(StorageError::ElementSize { bits: bits as u64 })
            );
            let mut b = [0xFFu8];
            assert!(try_set(&mut b, 0, bits, 0).is_err());
            assert_eq!(b, [0xFF]);
        }
        for (bits, slots) in [(1u32, 8usize), (2, 4), (4, 2), (8, 1)] {
            assert!(try_get(&[0], slots - 1, bits).is_ok());
            assert_eq!(
                try_get(&[0], slots, bits),
                Err(StorageError::Length {
                    expected: 2,
                    found: 1
                })
            );
            assert!(try_get(&[], usize::MAX, bits).is_err());
            assert!(try_set(&mut [], 0, bits, 1).is_err());
        }
    }

    #[test]
    fn set_never_clobbers_neighbours() {
        for bits in [1u32, 2, 4] {
            let per = 8 / bits as usize;
            for slot in 0..2 * per {
                let mut b = [0xA5u8, 0x5A];
                let before = b;
                set(&mut b, slot, bits, mask(bits)); // all ones
                for other in (0..2 * per).filter(|&o| o != slot) {
                    assert_eq!(get(&b, other, bits), get(&before, other, bits));
                }
                assert_eq!(get(&b, slot, bits), mask(bits));
            }
        }
    }
}

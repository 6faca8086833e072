//! `ldmatrix` on the CPU: each lane hands the instruction a row address,
//! each lane receives the pieces the PTX ISA says, whatever the addresses
//! are (no gathering by coordinates: a wrong address plan gives wrong
//! registers, as on the hardware).
//!
//! `ldmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{,.trans}.shared.b16`: `X`
//! matrices of 8×8 16-bit elements. Lanes `8q .. 8q + 8` give the addresses
//! of the 8 rows of matrix `q` (16 bytes each, 16-byte aligned); lane `l`
//! receives one 32-bit register per matrix, two elements:
//!
//! ```text
//!   plain:  register q of lane l = row l/4 of matrix q, elements 2(l%4), 2(l%4)+1
//!   .trans: register q of lane l = element l/4 of rows 2(l%4), 2(l%4)+1 of matrix q
//! ```
//!
//! This is the PTX ISA's fragment of `ldmatrix` and CuTe's copy traits
//! `SM75_U32x{1,2,4}_LDSM_N` / `SM75_U16x{2,4,8}_LDSM_T` (their `DstLayout`
//! from (thread, bit of the registers) to the bits of the rows in lane
//! order), against which `tests/gpu_ldmatrix.rs` checks every lane.

use super::reg_tile::WARP_SIZE;

/// Elements in one row of an `ldmatrix` 8×8 matrix (16 bytes of `.b16`).
pub const LDMATRIX_ROW: usize = 8;

/// Why a simulated `ldmatrix` cannot run: the address a lane gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LdMatrixError {
    /// The lane's row `[start, start + 8)` does not lie in shared memory
    /// (`len` elements).
    OutOfBounds {
        /// The lane that gave the address.
        lane: usize,
        /// The element offset it gave.
        start: usize,
        /// The number of elements of shared memory.
        len: usize,
    },
    /// The lane's row does not start at a multiple of 8 elements (16 bytes),
    /// which `ldmatrix` requires.
    Misaligned {
        /// The lane that gave the address.
        lane: usize,
        /// The element offset it gave.
        start: usize,
    },
}

impl core::fmt::Display for LdMatrixError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::OutOfBounds { lane, start, len } => write!(
                f,
                "ldmatrix: lane {lane} gave the row at element {start}, but shared memory has {len} elements (a row needs 8 from its start)"
            ),
            Self::Misaligned { lane, start } => write!(
                f,
                "ldmatrix: lane {lane} gave the row at element {start}, not 16-byte aligned (a multiple of 8 elements)"
            ),
        }
    }
}

impl core::error::Error for LdMatrixError {}

/// Runs `ldmatrix.sync.aligned.m8n8.x{X}{.trans}.shared.b16` on the CPU:
/// `rows[l]` is the element offset in `shared` lane `l` gives (lanes
/// `8·X ..` are ignored, as by the hardware); the result is each lane's `X`
/// registers, two elements each, in the order above.
///
/// # Errors
///
/// The first lane (in lane order) whose row is out of `shared` or not
/// 16-byte aligned.
///
/// # Compile-time errors
///
/// `X` is 1, 2 or 4:
///
/// ```compile_fail,E0080
/// use tilelayout::gpu::ldmatrix;
/// let _ = ldmatrix::<u16, 3>(&[0; 64], &[0; 32], false);
/// ```
///
/// # Examples
///
/// One 8×8 matrix whose rows are 8 elements apart, `.x1`:
///
/// ```
/// use tilelayout::gpu::ldmatrix;
/// let shared: Vec<u16> = (0..64).collect();
/// let rows: [usize; 32] = core::array::from_fn(|l| 8 * (l % 8));
/// let regs = ldmatrix::<u16, 1>(&shared, &rows, false)?;
/// // lane 5: row 1, elements 2, 3
/// assert_eq!(regs[5][0], [10, 11]);
/// // transposed: lane 5 gets element 1 of rows 2 and 3
/// let t = ldmatrix::<u16, 1>(&shared, &rows, true)?;
/// assert_eq!(t[5][0], [17, 25]);
/// # Ok::<(), tilelayout::gpu::LdMatrixError>(())
/// ```
pub fn ldmatrix<T: Copy, const X: usize>(
    shared: &[T],
    rows: &[usize; WARP_SIZE],
    trans: bool,
) -> Result<[[[T; 2]; X]; WARP_SIZE], LdMatrixError> {
    const {
        assert!(
            X == 1 || X == 2 || X == 4,
            "ldmatrix loads 1, 2 or 4 matrices (.x1, .x2, .x4)"
        )
    };
    // the rows the lanes give, checked
    let mut row = [&shared[..0]; WARP_SIZE];
    for (lane, (&start, r)) in rows.iter().zip(row.iter_mut()).take(8 * X).enumerate() {
        if start % LDMATRIX_ROW != 0 {
            return Err(LdMatrixError::Misaligned { lane, start });
        }
        *r = start
            .checked_add(LDMATRIX_ROW)
            .and_then(|end| shared.get(start..end))
            .ok_or(LdMatrixError::OutOfBounds {
                lane,
                start,
                len: shared.len(),
            })?;
    }
    let first = row[0][0];
    let mut out = [[[first; 2]; X]; WARP_SIZE];
    for (lane, regs) in out.iter_mut().enumerate() {
        let (g, t) = (lane / 4, lane % 4);
        for (q, reg) in regs.iter_mut().enumerate() {
            let m = &row[LDMATRIX_ROW * q..LDMATRIX_ROW * (q + 1)];
            *reg = if trans {
                [m[2 * t][g], m[2 * t + 1][g]]
            } else {
                [m[g][2 * t], m[g][2 * t + 1]]
            };
        }
    }
    Ok(out)
}

//! The loop nest of a gather block's tile transposes, shared by every
//! SIMD level (each passes its own 8 × 8 register transpose, which
//! inlines): its own file so that the dispatch (`transpose.rs`) and the
//! AVX2 level (`avx2.rs`) both import it and not each other.

use crate::storage::kernels::gather_rows;
use crate::storage::nest::Loop;

/// The loops of a gather block (`simd::transpose::gather_u32`) around
/// `t8`, an 8 × 8 transpose (`dst[d + c·ds + r] = src[s + r·ss + c]`).
/// Inlined into each SIMD level's caller.
#[inline(always)]
pub(super) fn blocks(
    src: &[u32],
    s: usize,
    loops: &[Loop],
    out: &mut [u32],
    ahead: Option<isize>,
    mut t8: impl FnMut(&[u32], usize, usize, &mut [u32], usize, usize),
) {
    let [.., y, x] = loops else {
        return;
    };
    let (ss, ds) = (y.src as usize, x.dst as usize);
    let (nr, nc) = (y.n as usize / 8, x.n as usize / 8);
    // prefetch the next block's source as this one's is read: the same
    // rows `ahead` slots away
    let pf = |at: usize| {
        if let Some(x) = ahead {
            super::prefetch_l2(src.as_ptr().wrapping_add(at).wrapping_offset(x));
        }
    };
    // the 8-row groups of `y` outermost: each group's source rows are read
    // through every other loop before the next group's, so a few rows
    // stream at a time (reading 8 slots of every row per pass was 0.48x of
    // memcpy for a column-major source)
    for tr in 0..nr {
        gather_rows(&loops[..loops.len() - 1], s, |sb, db, _, _, _| {
            for tc in 0..nc {
                let (so, dof) = (sb + 8 * tr * ss + 8 * tc, db + 8 * tc * ds + 8 * tr);
                if tc % 2 == 0 {
                    for r in 0..8 {
                        pf(so + r * ss);
                    }
                }
                t8(src, so, ss, out, dof, ds);
            }
        });
    }
}

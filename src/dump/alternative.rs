//! The cheapest layout the TPU policy allows for an array: another
//! `minor_to_major`, with the tiles the compiler would then give.

use crate::tpu::tpu_layout;
use crate::value::Shape;

/// Arrays up to this rank have every `minor_to_major` tried (6! = 720
/// policies); above it, only those that change the two most minor dims
/// (ours: the tiles depend on nothing else, so these are the ones that can
/// change the padding).
pub const MAX_EXHAUSTIVE_RANK: usize = 6;

/// A cheaper layout for an array and what it would save.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alternative {
    /// The array with the other `minor_to_major` and the policy's tiles
    /// (its memory space kept).
    pub shape: Shape,
    /// XLA's bytes under it.
    pub bytes: u64,
    /// Bytes it saves against the array's layout as compiled.
    pub saves_bytes: u64,
}

/// The `minor_to_major` with the fewest XLA bytes under the TPU policy, if
/// it saves bytes against `bytes` (ties keep the earlier order, starting
/// from the array's own).
///
/// The policy chooses tiles only; whether the program can use the other
/// order (a transpose elsewhere, a different dot dimension) is for the
/// person reading the report.
///
/// # Examples
/// A `[512,4]` array with the 4 minor pads it to 128 lanes; with the 512
/// minor the policy gives `(4,128)` and nothing is padded:
/// ```
/// use tilelayout::{dump::cheapest_alternative, value::parse_shape};
/// let s = parse_shape("f32[512,4]{1,0:T(8,128)}")?;
/// let a = cheapest_alternative(&s, 262144).unwrap();
/// assert_eq!(a.shape.to_string(), "f32[512,4]{0,1:T(4,128)}");
/// assert_eq!((a.bytes, a.saves_bytes), (8192, 253952));
/// # Ok::<(), tilelayout::value::Error>(())
/// ```
pub fn cheapest_alternative(shape: &Shape, bytes: u64) -> Option<Alternative> {
    let dims = shape.static_dims().ok()?;
    let rank = shape.rank();
    let dims = &dims[..rank];
    if rank < 2 {
        return None; // one order only
    }
    let own = shape.layout().minor_to_major();
    if own.len() != rank {
        return None;
    }
    let mut order = [0i64; crate::value::MAX_RANK];
    order[..rank].copy_from_slice(own);
    let mut best: Option<Alternative> = None;
    let mut consider = |m2m: &[i64]| {
        let Ok(s) = tpu_layout(shape.element_type(), dims, Some(m2m)) else {
            return;
        };
        let mut layout = *s.layout();
        layout.memory_space = shape.layout().memory_space;
        let s = s.with_layout(layout);
        let Ok(sizes) = s.sizes() else { return };
        let b = sizes.xla_bytes;
        if b < bytes && best.is_none_or(|a| b < a.bytes) {
            best = Some(Alternative {
                shape: s,
                bytes: b,
                saves_bytes: bytes - b,
            });
        }
    };
    if rank <= MAX_EXHAUSTIVE_RANK {
        // Heap's algorithm over the array's own order
        let mut c = [0usize; MAX_EXHAUSTIVE_RANK];
        consider(&order[..rank]);
        let mut i = 1;
        while i < rank {
            if c[i] < i {
                let j = if i % 2 == 0 { 0 } else { c[i] };
                order.swap(j, i);
                consider(&order[..rank]);
                c[i] += 1;
                i = 1;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
    } else {
        // every choice of the two most minor dims, the rest in their order
        for a in 0..rank {
            for b in 0..rank {
                if a == b {
                    continue;
                }
                let mut m = [0i64; crate::value::MAX_RANK];
                m[0] = own[a];
                m[1] = own[b];
                let mut n = 2;
                for (k, &d) in own.iter().enumerate() {
                    if k != a && k != b {
                        m[n] = d;
                        n += 1;
                    }
                }
                consider(&m[..rank]);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::parse_shape;

    fn alt(text: &str) -> Option<(alloc::string::String, u64)> {
        let s = parse_shape(text).unwrap();
        let bytes = s.sizes().unwrap().xla_bytes;
        cheapest_alternative(&s, bytes)
            .map(|a| (alloc::string::ToString::to_string(&a.shape), a.saves_bytes))
    }

    #[test]
    fn nothing_cheaper_for_a_full_tile() {
        assert_eq!(alt("f32[64,256]{1,0:T(8,128)}"), None);
        assert_eq!(alt("f32[16]{0:T(128)}"), None);
    }

    #[test]
    fn memory_space_is_kept_and_rank_3_is_searched() {
        let (s, saves) = alt("f32[2,8,3]{2,1,0:T(8,128)S(1)}").unwrap();
        // as compiled: two (8,128) tiles; with 8 minor and 2 second-minor,
        // three (2,128) tiles
        assert_eq!(s, "f32[2,8,3]{1,0,2:T(2,128)S(1)}");
        assert_eq!(saves, (2 * 1024 - 3 * 256) * 4);
    }

    /// The search finds the minimum over every order (checked against a
    /// plain enumeration of all permutations for rank 3).
    #[test]
    fn search_is_the_minimum_over_all_orders() {
        let perms: [[i64; 3]; 6] = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        for dims in [[3u64, 5, 7], [1, 130, 2], [9, 1, 300], [4, 4, 4]] {
            let s = crate::tpu::tpu_layout(crate::value::PrimitiveType::BF16, &dims, None).unwrap();
            let own = s.sizes().unwrap().xla_bytes;
            let min = perms
                .iter()
                .map(|p| {
                    crate::tpu::tpu_layout(crate::value::PrimitiveType::BF16, &dims, Some(p))
                        .unwrap()
                        .sizes()
                        .unwrap()
                        .xla_bytes
                })
                .min()
                .unwrap();
            let found = cheapest_alternative(&s, own).map_or(own, |a| a.bytes);
            assert_eq!(found, min, "{dims:?}");
        }
    }
}

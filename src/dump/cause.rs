//! Why an array is padded: which tile level pads which dim from what to
//! what, read off the core's tiling (the tile rules exist only there).

use core::fmt;

use crate::value::{Shape, Tile, TileDim, Tiling};

/// A dim a tile pads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaddedDim {
    /// A logical dim of the array (its position in the dims as written).
    Logical(usize),
    /// A dim of size 1 the tile adds because it has more dims than the
    /// array (`f32[]{:T(128)}`, `f32[16]{0:T(8,128)}`).
    Added,
    /// A dim of the shape a previous tile level produced (0 = most major).
    Expanded(usize),
}

/// One dim padded by one tile level.
///
/// `Display` gives the sentence the `dump` report prints:
/// ```
/// use tilelayout::{dump::padding_causes, value::parse_shape};
/// let s = parse_shape("f32[512,4]{1,0:T(8,128)}")?;
/// let c: Vec<String> = padding_causes(&s)?.iter().map(|p| p.to_string()).collect();
/// assert_eq!(c, ["T(8,128) pads dim 1 from 4 to 128: 32×"]);
/// # Ok::<(), tilelayout::value::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Padding {
    /// The tile level (0 = the first tile, the one XLA's `ArraySize`
    /// counts; later levels only pad the exact size).
    pub level: usize,
    /// The tile of that level.
    pub tile: Tile,
    /// The dim it pads.
    pub dim: PaddedDim,
    /// The dim's size before.
    pub from: u64,
    /// Its size after (the next multiple of the tile dim).
    pub to: u64,
    /// The array is a scalar (the added dim is all there is).
    pub scalar: bool,
}

impl fmt::Display for Padding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.level == 0 {
            write!(f, "T{}", self.tile)?;
        } else {
            write!(f, "tile {} {}", self.level + 1, self.tile)?;
        }
        match self.dim {
            PaddedDim::Logical(d) => write!(f, " pads dim {d}")?,
            PaddedDim::Added if self.scalar && self.level == 0 => {
                f.write_str(" pads the scalar")?
            }
            PaddedDim::Added => f.write_str(" pads an added dim")?,
            PaddedDim::Expanded(d) => write!(f, " pads expanded dim {d}")?,
        }
        write!(f, " from {} to {}: ", self.from, self.to)?;
        if self.from != 0 && self.to.is_multiple_of(self.from) {
            write!(f, "{}×", self.to / self.from)?;
        } else if self.from != 0 {
            write!(f, "{:.2}×", self.to as f64 / self.from as f64)?;
        }
        if self.level > 0 {
            f.write_str(" (exact size only; XLA's size counts the first tile)")?;
        }
        Ok(())
    }
}

/// Every dim a tile of `shape`'s layout pads, level by level, most major
/// first. Empty when nothing is padded (and for arrays without tiles).
///
/// A tile with a combined dim (`*`) is skipped: it merges dims rather than
/// padding one.
///
/// # Errors
/// As [`Shape::tiling`]: validation errors, dynamic dims, `token`/`opaque`.
#[cfg(feature = "alloc")]
pub fn padding_causes(shape: &Shape) -> Result<alloc::vec::Vec<Padding>, crate::value::Error> {
    let tiling = shape.tiling()?;
    let mut out = alloc::vec::Vec::new();
    for_each_padding(shape, &tiling, |p| out.push(p));
    Ok(out)
}

/// Calls `f` for every padded dim of every tile level.
pub(crate) fn for_each_padding(shape: &Shape, tiling: &Tiling, mut f: impl FnMut(Padding)) {
    let tiles = shape.layout().tiles();
    let scalar = shape.rank() == 0;
    for (level, tile) in tiles.iter().enumerate() {
        if (0..tile.rank()).any(|i| tile.dim(i) == TileDim::Combine) {
            continue;
        }
        let before = if level == 0 {
            tiling.physical_dims()
        } else {
            match tiling.dims_after_level(level - 1) {
                Some(d) => match crate::value::Index::new(d.as_slice()) {
                    Some(i) => i,
                    None => continue,
                },
                None => continue,
            }
        };
        let dims = before.as_slice();
        let k = tile.rank();
        for i in 0..k {
            let TileDim::Size(t) = tile.dim(i) else {
                continue;
            };
            // tile dim i applies to dim `r - k + i`; left of 0 is an added 1
            let pos = (dims.len() + i).checked_sub(k);
            let d = pos.map_or(1, |p| dims[p]);
            if t == 0 || d == 0 || d.is_multiple_of(t) {
                continue;
            }
            let to = d.div_ceil(t).saturating_mul(t);
            let dim = match pos {
                None => PaddedDim::Added,
                Some(p) if level == 0 => PaddedDim::Logical(tiling.physical_to_logical(p)),
                Some(p) => PaddedDim::Expanded(p),
            };
            f(Padding {
                level,
                tile: *tile,
                dim,
                from: d,
                to,
                scalar,
            });
        }
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use crate::value::parse_shape;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn causes(text: &str) -> Vec<String> {
        padding_causes(&parse_shape(text).unwrap())
            .unwrap()
            .iter()
            .map(|p| p.to_string())
            .collect()
    }

    #[test]
    fn sentences() {
        assert_eq!(
            causes("f32[]{:T(128)}"),
            ["T(128) pads the scalar from 1 to 128: 128×"]
        );
        assert_eq!(
            causes("f32[16]{0:T(128)}"),
            ["T(128) pads dim 0 from 16 to 128: 8×"]
        );
        // minor_to_major {0,1}: dim 0 is minor, so the 128 pads dim 0
        assert_eq!(
            causes("f32[3,5]{0,1:T(8,128)}"),
            [
                "T(8,128) pads dim 1 from 5 to 8: 1.60×",
                "T(8,128) pads dim 0 from 3 to 128: 42.67×"
            ]
        );
        assert_eq!(
            causes("f32[3]{0:T(2,128)}"),
            [
                "T(2,128) pads an added dim from 1 to 2: 2×",
                "T(2,128) pads dim 0 from 3 to 128: 42.67×"
            ]
        );
        assert_eq!(
            causes("bf16[1024,1024]{1,0:T(8,128)(2,1)}"),
            Vec::<String>::new()
        );
        assert_eq!(causes("f32[64,64]{1,0}"), Vec::<String>::new());
        // the second level pads the packed rows of an odd tile row count
        assert_eq!(
            causes("bf16[3,256]{1,0:T(1,128)(2,1)}"),
            ["tile 2 (2,1) pads expanded dim 2 from 1 to 2: 2× (exact size only; XLA's size counts the first tile)"]
        );
    }

    /// The causes account for the first level's padding exactly: the
    /// product of `to / from` over level-0 paddings is the first level's
    /// slots over the elements (exhaustive over small 2-D shapes).
    #[test]
    fn first_level_causes_explain_xla_slots() {
        for r in 1..=9u64 {
            for c in 1..=9u64 {
                for (tr, tc) in [(1, 1), (2, 2), (2, 4), (4, 3), (8, 8)] {
                    for m2m in ["1,0", "0,1"] {
                        let text = alloc::format!("f32[{r},{c}]{{{m2m}:T({tr},{tc})}}");
                        let s = parse_shape(&text).unwrap();
                        let t = s.tiling().unwrap();
                        let mut num = t.elements();
                        let mut den = 1u64;
                        for p in padding_causes(&s).unwrap() {
                            if p.level == 0 {
                                num *= p.to;
                                den *= p.from;
                            }
                        }
                        assert_eq!(num / den, t.first_level_slots(), "{text}");
                        assert_eq!(num % den, 0, "{text}");
                    }
                }
            }
        }
    }
}

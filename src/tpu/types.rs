//! The TPU formats as types: the named tilings as [`Tiles`] types, and
//! [`TpuTiled`], the layout type the policy gives an array.

use core::marker::PhantomData;

use crate::scalar::dtype::Dtype;
use crate::types::params::{AttrSet, Descending, DimsParam, Order, Tiles, MAX_TYPE_RANK, T};
use crate::types::Tiled;
use crate::value::TileDim;

/// `T(8,128)`: the 32-bit format (8×128 vector registers).
pub type Tile8x128 = T<8, 128>;
/// `T(4,128)`: the small tile for a second-minor dim of 3–4.
pub type Tile4x128 = T<4, 128>;
/// `T(2,128)`: the small tile for a second-minor dim of 2.
pub type Tile2x128 = T<2, 128>;
/// `T(1,128)`: the tile for a second-minor dim of 1 (what the compiler
/// uses for 32-bit types; descriptions of the formats say (2,128)).
pub type Tile1x128 = T<1, 128>;
/// `T(8,128)(2,1)`: the 16-bit format, two rows packed in a 32-bit word.
pub type Tile16Bit = (T<8, 128>, T<2, 1>);
/// `T(8,128)(4,1)`: the 8-bit format, four rows in a 32-bit word.
pub type Tile8Bit = (T<8, 128>, T<4, 1>);
/// `T(8,128)(8,1)` (with `E(4)`): the 4-bit packed format.
pub type Tile4Bit = (T<8, 128>, T<8, 1>);
/// `T(32,128)(32,1)` (with `E(1)`): a 1-bit format for `pred` (not one the
/// compiler picks).
pub type Tile1Bit = (T<32, 128>, T<32, 1>);

/// The tiles the TPU policy ([`crate::tpu::tpu_layout`]) picks for element
/// `E`, dims `S` and order `M`, as a [`Tiles`] type computed at compile
/// time.
pub struct TpuTiles<E, S, M = Descending>(PhantomData<(E, S, M)>);

/// The `E(n)` the TPU policy picks for `E` (4 for 4-bit types).
pub struct TpuAttrs<E>(PhantomData<E>);

/// The layout XLA's TPU compiler gives an array of `E` with dims `S` and
/// `minor_to_major` `M`.
///
/// ```
/// use tilelayout::tpu::TpuTiled;
/// use tilelayout::{Layout, Dims, BF16, F32};
/// assert_eq!(<TpuTiled<BF16, Dims<2, 1024>>>::TEXT, "bf16[2,1024]{1,0:T(2,128)(2,1)}");
/// assert_eq!(<TpuTiled<F32, Dims<3, 5>>>::TEXT, "f32[3,5]{1,0:T(4,128)}");
/// assert_eq!(<TpuTiled<F32, Dims<3, 5>>>::SLOTS, 512);
/// ```
///
/// It is a different type from the [`Tiled`] with the same tiles written
/// out, but the same layout (same constants, same offsets).
pub type TpuTiled<E, S, M = Descending> = Tiled<E, S, TpuTiles<E, S, M>, M, TpuAttrs<E>>;

/// The policy's shape for the type parameters (a compile error with the
/// policy's message if it has none, e.g. for `f64`).
const fn policy_shape<E: Dtype, S: DimsParam, M: Order>() -> crate::value::Shape {
    let mut dims = [0u64; MAX_TYPE_RANK];
    let mut i = 0;
    while i < S::RANK {
        dims[i] = S::DIMS[i] as u64;
        i += 1;
    }
    let mut m2m = [0i64; MAX_TYPE_RANK];
    let order = match M::ORDER {
        Some((m, n)) => {
            let mut i = 0;
            while i < n {
                m2m[i] = m[i] as i64;
                i += 1;
            }
            Some(m2m.split_at(n).0)
        }
        None => None,
    };
    match crate::tpu::tpu_layout(E::TYPE, dims.split_at(S::RANK).0, order) {
        Ok(s) => s,
        Err(e) => panic!("{}", e.describe().as_str()),
    }
}

impl<E: Dtype, S: DimsParam, M: Order> Tiles for TpuTiles<E, S, M> {
    const COUNT: usize = policy_shape::<E, S, M>().layout().tile_count();
    const TILES: [([usize; MAX_TYPE_RANK], usize); MAX_TYPE_RANK] = {
        let shape = policy_shape::<E, S, M>();
        let tiles = shape.layout().tiles();
        let mut out = [([0usize; MAX_TYPE_RANK], 0usize); MAX_TYPE_RANK];
        let mut i = 0;
        while i < tiles.len() {
            let mut j = 0;
            while j < tiles[i].rank() {
                out[i].0[j] = match tiles[i].dim(j) {
                    TileDim::Size(n) => n as usize,
                    TileDim::Combine => crate::COMBINE,
                };
                j += 1;
            }
            out[i].1 = tiles[i].rank();
            i += 1;
        }
        out
    };
}

impl<E: Dtype> AttrSet for TpuAttrs<E> {
    const TAIL_PADDING: usize = 1;
    const ELEMENT_BITS: usize = crate::tpu::element_size_in_bits(E::TYPE) as usize;
    const MEMORY_SPACE: i8 = 0;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{layout, Dims, Layout, MinorToMajor, BF16, F32, S8};

    #[test]
    fn named_types_print_as_the_formats() {
        type A = Tiled<BF16, Dims<16, 256>, Tile16Bit>;
        assert_eq!(A::TEXT, "bf16[16,256]{1,0:T(8,128)(2,1)}");
        type B = Tiled<S8, Dims<16, 256>, Tile8Bit>;
        assert_eq!(B::TEXT, "s8[16,256]{1,0:T(8,128)(4,1)}");
    }

    #[test]
    fn tpu_tiled_agrees_with_the_written_out_layout() {
        type P = TpuTiled<BF16, Dims<8, 1, 1280, 16384>, MinorToMajor<3, 2, 0, 1>>;
        type W = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)});
        assert_eq!(P::TEXT, W::TEXT);
        assert_eq!((P::SLOTS, P::XLA_BYTES), (W::SLOTS, W::XLA_BYTES));
        for c in [[0, 0, 0, 0], [7, 0, 1279, 16383], [3, 0, 17, 300]] {
            assert_eq!(P::offset(c), W::offset(c));
        }
        type Q = TpuTiled<F32, Dims<1024>>;
        assert_eq!(Q::TEXT, "f32[1024]{0:T(1024)}");
    }
}

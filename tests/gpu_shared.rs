//! The swizzled shared-memory formats: for half (f16, bf16) and float at
//! 128- and 64-byte rows, row- and column-major, every element of tiles up
//! to 64×64 (and a few wider) lands where the bank-conflict-free rule says,
//! which is also CuTe's swizzle over the whole tile's blocked offsets and
//! TileFusion's swizzle inside each block.

mod gpu_common;

use core::mem::size_of;

use gpu_common::{check_against, check_bijection, check_layout};
use half::{bf16, f16};
use tilelayout::gpu::{
    BlockedColMajor, BlockedRowMajor, Bytes128, Bytes64, Layout2, Shape2, SharedTile, SwizzleAtom,
    SwizzleFn, Swizzled, SwizzledColMajor, SwizzledRowMajor,
};

/// The rule, from the hardware's point of view: a block has `2^B` rows of
/// `row_bytes` bytes, i.e. `2^B` chunks of 16 bytes; in block row `r`, chunk
/// `k` is stored in chunk `k ^ r`. Blocks are contiguous, in row-major order.
fn row_rule(elem_bytes: usize, row_bytes: usize, cols: usize) -> impl Fn(usize, usize) -> usize {
    let per_chunk = 16 / elem_bytes;
    let block_cols = row_bytes / elem_bytes;
    let block_rows = row_bytes / 16; // 2^B rows for 2^B chunks a row
    let grid_cols = cols / block_cols;
    move |i, j| {
        let block = (i / block_rows) * grid_cols + j / block_cols;
        let (r, c) = (i % block_rows, j % block_cols);
        let (chunk, e) = (c / per_chunk, c % per_chunk);
        block * block_rows * block_cols + r * block_cols + (chunk ^ r) * per_chunk + e
    }
}

/// The column-major twin: the rule on the transposed tile.
fn col_rule(elem_bytes: usize, row_bytes: usize, rows: usize) -> impl Fn(usize, usize) -> usize {
    let f = row_rule(elem_bytes, row_bytes, rows);
    move |i, j| f(j, i)
}

/// Checks a row-major and a column-major swizzled tile of `R × C` (and
/// `C × R`) for element `T` at width `W`.
fn check_format<T, W, const R: usize, const C: usize>(row_bytes: usize)
where
    T: SwizzleAtom<W>,
{
    type Row<T, W, const R: usize, const C: usize> = SwizzledRowMajor<T, W, R, C>;
    type Col<T, W, const R: usize, const C: usize> = SwizzledColMajor<T, W, C, R>;
    let elem = size_of::<T>();

    // the rule
    check_against::<Row<T, W, R, C>>(row_rule(elem, row_bytes, C));
    check_against::<Col<T, W, R, C>>(col_rule(elem, row_bytes, C));
    // TileFusion: the swizzle applied inside each block
    type PerBlock<T, W, const R: usize, const C: usize> = BlockedRowMajor<
        R,
        C,
        Swizzled<<T as SwizzleAtom<W>>::RowBlock, <T as SwizzleAtom<W>>::Swizzle>,
    >;
    check_against::<PerBlock<T, W, R, C>>(Row::<T, W, R, C>::offset);
    type PerBlockCol<T, W, const R: usize, const C: usize> = BlockedColMajor<
        C,
        R,
        Swizzled<<T as SwizzleAtom<W>>::ColBlock, <T as SwizzleAtom<W>>::Swizzle>,
    >;
    check_against::<PerBlockCol<T, W, R, C>>(Col::<T, W, R, C>::offset);
    // the layout invariants, and a bijection onto the tile's R·C slots
    check_layout::<Row<T, W, R, C>>();
    check_layout::<Col<T, W, R, C>>();
    check_bijection::<Row<T, W, R, C>>();
    check_bijection::<Col<T, W, R, C>>();
    // 16-byte vectors stay whole
    assert_eq!(Row::<T, W, R, C>::ROW_RUN, 16 / elem);
    assert_eq!(Col::<T, W, R, C>::COL_RUN, 16 / elem);
    // the block is 2^(M+S+B) elements and has rows of `row_bytes`
    type Block<T, W> = <T as SwizzleAtom<W>>::RowBlock;
    type Sw<T, W> = <T as SwizzleAtom<W>>::Swizzle;
    let bits = Sw::<T, W>::BASE + Sw::<T, W>::SHIFT + Sw::<T, W>::BITS;
    assert_eq!(Block::<T, W>::ROWS * Block::<T, W>::COLS, 1 << bits);
    assert_eq!(Block::<T, W>::COLS * elem, row_bytes);
    assert_eq!(1usize << Sw::<T, W>::BASE, 16 / elem);
}

macro_rules! formats {
    ($($name:ident: $t:ty, $w:ty, $bytes:literal, $r:literal x $c:literal;)*) => {$(
        #[test]
        fn $name() {
            check_format::<$t, $w, $r, $c>($bytes);
        }
    )*};
}

formats! {
    float_128_8x32: f32, Bytes128, 128, 8 x 32;
    float_128_16x64: f32, Bytes128, 128, 16 x 64;
    float_128_64x32: f32, Bytes128, 128, 64 x 32;
    float_128_64x64: f32, Bytes128, 128, 64 x 64;
    float_128_32x96: f32, Bytes128, 128, 32 x 96;
    float_128_64x128: f32, Bytes128, 128, 64 x 128;
    half_128_8x64: f16, Bytes128, 128, 8 x 64;
    half_128_64x64: f16, Bytes128, 128, 64 x 64;
    half_128_16x128: f16, Bytes128, 128, 16 x 128;
    bf16_128_24x64: bf16, Bytes128, 128, 24 x 64;
    half_64_4x32: f16, Bytes64, 64, 4 x 32;
    half_64_12x32: f16, Bytes64, 64, 12 x 32;
    half_64_64x64: f16, Bytes64, 64, 64 x 64;
    bf16_64_16x32: bf16, Bytes64, 64, 16 x 32;
    float_64_4x16: f32, Bytes64, 64, 4 x 16;
    float_64_20x48: f32, Bytes64, 64, 20 x 48;
    float_64_64x64: f32, Bytes64, 64, 64 x 64;
}

#[test]
fn spec_parameters() {
    fn params<S: SwizzleFn>() -> (u32, u32, u32) {
        (S::BITS, S::BASE, S::SHIFT)
    }
    fn block<L: Shape2>() -> (usize, usize) {
        (L::ROWS, L::COLS)
    }
    assert_eq!(
        params::<<f16 as SwizzleAtom<Bytes128>>::Swizzle>(),
        (3, 3, 3)
    );
    assert_eq!(block::<<f16 as SwizzleAtom<Bytes128>>::RowBlock>(), (8, 64));
    assert_eq!(
        params::<<f32 as SwizzleAtom<Bytes128>>::Swizzle>(),
        (3, 2, 3)
    );
    assert_eq!(block::<<f32 as SwizzleAtom<Bytes128>>::RowBlock>(), (8, 32));
    assert_eq!(
        params::<<f16 as SwizzleAtom<Bytes64>>::Swizzle>(),
        (2, 3, 2)
    );
    assert_eq!(block::<<f16 as SwizzleAtom<Bytes64>>::RowBlock>(), (4, 32));
    assert_eq!(
        params::<<f32 as SwizzleAtom<Bytes64>>::Swizzle>(),
        (2, 2, 2)
    );
    assert_eq!(block::<<f32 as SwizzleAtom<Bytes64>>::RowBlock>(), (4, 16));
    assert_eq!(block::<<f32 as SwizzleAtom<Bytes128>>::ColBlock>(), (32, 8));
}

#[test]
fn rows_of_a_block_spread_over_all_chunks() {
    // the point of the swizzle: column chunk 0 of the 8 rows of a block
    // lands in 8 different 16-byte chunks, i.e. different banks
    type L = SwizzledRowMajor<f16, Bytes128, 64, 64>;
    let mut chunks: Vec<usize> = (0..8).map(|i| (L::offset(i, 0) % 64) / 8).collect();
    chunks.sort_unstable();
    assert_eq!(chunks, (0..8).collect::<Vec<_>>());
}

#[test]
fn shared_tile_reads_back_what_it_wrote() {
    let mut buf = vec![f16::ZERO; 64 * 64];
    let mut s = SharedTile::<_, SwizzledRowMajor<f16, Bytes128, 64, 64>>::new(&mut buf[..]);
    // values below 2048 are exact in f16
    for i in 0..64 {
        for j in 0..64 {
            s.set(i, j, f16::from_f32(((i * 64 + j) % 2048) as f32));
        }
    }
    for i in 0..64 {
        for j in 0..64 {
            assert_eq!(s.get(i, j).to_f32(), ((i * 64 + j) % 2048) as f32);
        }
    }
    // (1, 0) is chunk 0 of row 1: stored in chunk 1
    assert_eq!(buf[64 + 8].to_f32(), 64.0);
}

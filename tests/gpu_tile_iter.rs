//! `TileIterator`: sub-tiles partition the tile, keep the parent's layout
//! (its strides for a strided parent), and the strips `(i, _)` / `(_, j)`
//! walk the right sub-tiles in order. Under Miri (interpreted), at the
//! coordinates of `gpu_common::coords`.

mod gpu_common;

use gpu_common::coords;
use tilelayout::gpu::{
    BlockedRowMajor, Bytes128, ColMajor, GlobalTile, Layout2, MatrixLayout, RowMajor, SharedTile,
    SwizzledRowMajor,
};

/// Checks every sub-tile `r × c` of a tile laid out as `L`.
fn check_partition<L: Layout2, const R: usize, const C: usize>() {
    let data: Vec<usize> = (0..L::COSIZE).collect();
    let tiles = GlobalTile::<_, L>::new(&data[..]).tiles::<R, C>();
    assert_eq!((tiles.rows(), tiles.cols()), (L::ROWS / R, L::COLS / C));
    let mut seen = vec![0u8; L::COSIZE];
    let at = coords(L::ROWS, L::COLS);
    for &(i, j) in &at {
        let (ti, tj, a, b) = (i / R, j / C, i % R, j % C);
        let sub = tiles.get(ti, tj);
        assert_eq!(sub.origin(), (ti * R, tj * C));
        let o = L::offset(i, j);
        assert_eq!(sub.offset(a, b), o);
        assert_eq!(sub.get(a, b), o); // data[o] == o
        seen[o] += 1;
    }
    // every element of the tile belongs to exactly one sub-tile
    for &(i, j) in &at {
        assert_eq!(seen[L::offset(i, j)], 1);
    }
    // strips
    for ti in 0..tiles.rows() {
        let strip: Vec<_> = tiles.row(ti).map(|t| t.origin()).collect();
        assert_eq!(
            strip,
            (0..tiles.cols())
                .map(|tj| (ti * R, tj * C))
                .collect::<Vec<_>>()
        );
    }
    for tj in 0..tiles.cols() {
        let strip: Vec<_> = tiles.col(tj).map(|t| t.origin()).collect();
        assert_eq!(
            strip,
            (0..tiles.rows())
                .map(|ti| (ti * R, tj * C))
                .collect::<Vec<_>>()
        );
        assert_eq!(tiles.col(tj).len(), tiles.rows());
    }
}

#[test]
fn partitions() {
    check_partition::<RowMajor<64, 64>, 16, 32>();
    check_partition::<RowMajor<64, 64>, 64, 64>();
    if !cfg!(miri) {
        // (4,096 sub-tiles, each strip walked: natively only)
        check_partition::<RowMajor<64, 64>, 1, 1>();
    }
    check_partition::<ColMajor<64, 32>, 8, 8>();
    check_partition::<RowMajor<12, 18>, 4, 3>();
    check_partition::<MatrixLayout<16, 8, 100, 1>, 4, 8>();
    check_partition::<BlockedRowMajor<64, 64, RowMajor<8, 32>>, 16, 16>();
    check_partition::<SwizzledRowMajor<f32, Bytes128, 64, 64>, 32, 8>();
}

#[test]
fn sub_tiles_keep_the_parent_strides() {
    // a 24×40 row-major matrix (strides (40, 1)) in 8×10 sub-tiles
    type L = RowMajor<24, 40>;
    let data = [0u8; 24 * 40];
    let tiles = GlobalTile::<_, L>::new(&data[..]).tiles::<8, 10>();
    for ti in 0..3 {
        for tj in 0..4 {
            let t = tiles.get(ti, tj);
            let base = t.offset(0, 0);
            assert_eq!(base, ti * 8 * 40 + tj * 10);
            for a in 0..8 {
                for b in 0..10 {
                    assert_eq!(t.offset(a, b), base + a * 40 + b);
                }
            }
        }
    }
    // and for a column-major parent, strides (1, 24)
    let tiles = GlobalTile::<_, ColMajor<24, 40>>::new(&data[..]).tiles::<8, 10>();
    let t = tiles.get(2, 1);
    assert_eq!(t.offset(3, 4) - t.offset(0, 0), 3 + 4 * 24);
}

#[test]
fn sub_tiles_partition_again() {
    let data: Vec<u32> = (0..64 * 64).collect();
    let outer = GlobalTile::<_, RowMajor<64, 64>>::new(&data[..]).tiles::<32, 32>();
    let inner = outer.get(1, 1).tiles::<8, 16>();
    assert_eq!((inner.rows(), inner.cols()), (4, 2));
    let t = inner.get(3, 1);
    assert_eq!(t.origin(), (32 + 24, 32 + 16));
    assert_eq!(t.get(7, 15), (63 * 64 + 63) as u32);
    let innermost = t.tiles::<4, 4>();
    assert_eq!(
        innermost.get(1, 3).get(0, 0),
        ((56 + 4) * 64 + 48 + 12) as u32
    );
}

#[test]
fn mutable_sub_tiles_write_only_their_elements() {
    let mut buf = [0u16; 32 * 32];
    let mut tiles = GlobalTile::<_, RowMajor<32, 32>>::new(&mut buf[..]).tiles::<8, 16>();
    tiles.get_mut(2, 1).fill(9);
    let mut t = tiles.get_mut(0, 0);
    t.set(7, 15, 5);
    for i in 0..32 {
        for j in 0..32 {
            let want = if (16..24).contains(&i) && j >= 16 {
                9
            } else if (i, j) == (7, 15) {
                5
            } else {
                0
            };
            assert_eq!(buf[i * 32 + j], want, "({i}, {j})");
        }
    }
}

#[test]
fn shared_swizzled_sub_tiles_write_through_the_swizzle() {
    let mut buf = [0.0f32; 32 * 32];
    type L = SwizzledRowMajor<f32, Bytes128, 32, 32>;
    let mut tiles = SharedTile::<_, L>::new(&mut buf[..]).tiles::<16, 16>();
    tiles.get_mut(1, 1).set(2, 3, 4.0);
    assert_eq!(buf[L::offset(18, 19)], 4.0);
    assert_eq!(buf.iter().filter(|&&x| x != 0.0).count(), 1);
}

#[test]
fn into_inner_returns_the_tile() {
    let data = [1u8; 16];
    let tiles = GlobalTile::<_, RowMajor<4, 4>>::new(&data[..]).tiles::<2, 2>();
    assert!(format!("{tiles:?}").contains("TileIterator"));
    assert_eq!(tiles.into_inner().get(3, 3), 1);
}

#[test]
#[should_panic(expected = "out of range")]
fn sub_tile_out_of_range_panics() {
    let data = [0u8; 16];
    let tiles = GlobalTile::<_, RowMajor<4, 4>>::new(&data[..]).tiles::<2, 2>();
    let _ = tiles.get(2, 0);
}

#[test]
#[should_panic(expected = "out of range")]
fn sub_tile_elements_stay_inside() {
    let data = [0u8; 16];
    let tiles = GlobalTile::<_, RowMajor<4, 4>>::new(&data[..]).tiles::<2, 2>();
    // (0, 2) of sub-tile (0, 0) would be element (0, 2) of the parent
    let _ = tiles.get(0, 0).get(0, 2);
}

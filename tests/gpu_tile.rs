//! Memory tiles (get/set through the layout) and register tiles (the 16×16
//! base tile's lane/slot map in both directions, and `RegTile`).

mod gpu_common;

use gpu_common::{check_bijection, check_layout, coords, lanes};
use tilelayout::gpu::{
    vector_run, BaseTile, BaseTileColMajor, BaseTileRowMajor, Blocked, BlockedRowMajor, ColMajor,
    GlobalTile, Layout2, RegTile, RowMajor, Shape2, SharedTile, Swizzle, Swizzled, FRAGMENT_SLOTS,
    WARP_SIZE,
};

// ---------------------------------------------------------------------------
// Memory tiles
// ---------------------------------------------------------------------------

/// Writes `value(i, j)` at every element (under Miri at
/// `gpu_common::coords`) through the tile and checks the storage slot
/// `L::offset(i, j)` holds it.
fn check_tile<L: Layout2>() {
    let mut buf = vec![u32::MAX; L::COSIZE];
    let mut t = GlobalTile::<_, L>::new(&mut buf[..]);
    assert_eq!(
        (
            GlobalTile::<&mut [u32], L>::ROWS,
            GlobalTile::<&mut [u32], L>::COLS
        ),
        (L::ROWS, L::COLS)
    );
    let at = coords(L::ROWS, L::COLS);
    for &(i, j) in &at {
        t.set(i, j, (i * 1000 + j) as u32);
    }
    for &(i, j) in &at {
        assert_eq!(t.get(i, j), (i * 1000 + j) as u32);
        assert_eq!(t.offset(i, j), L::offset(i, j));
    }
    for &(i, j) in &at {
        assert_eq!(buf[L::offset(i, j)], (i * 1000 + j) as u32);
    }
}

#[test]
fn tiles_store_through_their_layout() {
    check_tile::<RowMajor<64, 64>>();
    check_tile::<ColMajor<64, 64>>();
    check_tile::<RowMajor<3, 17>>();
    check_tile::<tilelayout::gpu::MatrixLayout<16, 8, 100, 1>>();
    check_tile::<BlockedRowMajor<64, 64, ColMajor<8, 16>>>();
    check_tile::<Swizzled<BlockedRowMajor<32, 64, RowMajor<8, 32>>, Swizzle<3, 2, 3>>>();
    check_tile::<Blocked<ColMajor<2, 2>, BaseTileRowMajor>>();
}

#[test]
fn every_storage_kind_works() {
    let v: Vec<i16> = (0..12).collect();
    let by_ref = GlobalTile::<_, RowMajor<3, 4>>::new(&v[..]);
    assert_eq!(by_ref.get(2, 1), 9);
    let mut arr = SharedTile::<_, RowMajor<2, 2>>::new([0u8; 4]);
    arr.set(1, 0, 7);
    assert_eq!(arr.into_inner(), [0, 0, 7, 0]);
    let mut m = [0.0f32; 6];
    let mut t = SharedTile::<_, ColMajor<2, 3>>::new(&mut m[..]);
    t.fill(1.5);
    t.set(1, 2, 2.5);
    let r = t.reborrow();
    assert_eq!((r.get(0, 0), r.get(1, 2), r.origin()), (1.5, 2.5, (0, 0)));
    assert_eq!(r.storage().len(), 6);
    assert_eq!(m, [1.5, 1.5, 1.5, 1.5, 1.5, 2.5]);
}

#[cfg(feature = "alloc")]
#[test]
fn vec_storage_works() {
    let v: Vec<i16> = (0..12).collect();
    let by_vec = GlobalTile::<_, ColMajor<3, 4>>::new(v);
    assert_eq!(by_vec.get(2, 1), 5);
    assert_eq!(by_vec.into_inner().len(), 12);
}

#[test]
fn short_storage_is_rejected() {
    let v = [0u8; 15];
    assert!(GlobalTile::<_, RowMajor<4, 4>>::try_new(&v[..]).is_none());
    assert!(GlobalTile::<_, RowMajor<3, 5>>::try_new(&v[..]).is_some());
    // a strided window needs its cosize, not rows·cols
    assert!(
        GlobalTile::<_, tilelayout::gpu::MatrixLayout<2, 2, 100, 1>>::try_new(&v[..]).is_none()
    );
}

#[test]
#[should_panic(expected = "shorter than the layout's COSIZE")]
fn short_storage_panics_in_new() {
    let v = [0u8; 15];
    let _ = GlobalTile::<_, RowMajor<4, 4>>::new(&v[..]);
}

#[test]
#[should_panic(expected = "out of range")]
fn out_of_range_elements_panic() {
    let v = [0u8; 100];
    // (0, 4) would alias (1, 0) in the storage; the tile refuses it
    let t = GlobalTile::<_, RowMajor<4, 4>>::new(&v[..]);
    let _ = t.get(0, 4);
}

#[test]
fn debug_names_the_space_and_layout() {
    let v = [0u8; 4];
    let s = format!("{:?}", SharedTile::<_, RowMajor<2, 2>>::new(&v[..]));
    assert!(s.contains("shared") && s.contains("(_2,_2):(_2,_1)"), "{s}");
}

// ---------------------------------------------------------------------------
// The base tile
// ---------------------------------------------------------------------------

/// SPEC §5, word for word: lane l holds row l/4, columns 2(l%4) and
/// 2(l%4)+1 (slots 0–1); the same columns 8 rows down (slots 2–3); 8
/// columns right (slots 4–5); both (slots 6–7).
fn spec_element(lane: usize, slot: usize) -> (usize, usize) {
    let (row, col) = (lane / 4, 2 * (lane % 4));
    match slot {
        0 | 1 => (row, col + slot),
        2 | 3 => (row + 8, col + slot - 2),
        4 | 5 => (row, col + 8 + slot - 4),
        6 | 7 => (row + 8, col + 8 + slot - 6),
        _ => unreachable!(),
    }
}

#[test]
fn base_tile_row_major_is_the_spec_map() {
    let mut owner = [[None; 16]; 16];
    for lane in 0..WARP_SIZE {
        for slot in 0..FRAGMENT_SLOTS {
            let (i, j) = spec_element(lane, slot);
            assert_eq!(BaseTileRowMajor::element(lane, slot), (i, j));
            assert_eq!(BaseTileRowMajor::lane_slot(i, j), (lane, slot));
            assert_eq!(BaseTileRowMajor::offset(i, j), lane * 8 + slot);
            assert!(owner[i][j].is_none(), "({i}, {j}) held twice");
            owner[i][j] = Some((lane, slot));
        }
    }
    // 256 elements ↔ 32 lanes × 8 slots
    assert!(owner.iter().flatten().all(Option::is_some));
}

#[test]
fn base_tile_col_major_is_the_transpose() {
    for lane in 0..WARP_SIZE {
        for slot in 0..FRAGMENT_SLOTS {
            let (i, j) = spec_element(lane, slot);
            assert_eq!(BaseTileColMajor::element(lane, slot), (j, i));
            assert_eq!(BaseTileColMajor::lane_slot(j, i), (lane, slot));
        }
    }
    for i in 0..16 {
        for j in 0..16 {
            let (l, s) = BaseTileColMajor::lane_slot(i, j);
            assert_eq!(BaseTileColMajor::element(l, s), (i, j));
        }
    }
}

#[test]
fn base_tiles_are_bijective_layouts() {
    check_layout::<BaseTileRowMajor>();
    check_layout::<BaseTileColMajor>();
    check_bijection::<BaseTileRowMajor>();
    check_bijection::<BaseTileColMajor>();
    // the PTX ISA's fragment of mma.m16n8k16 as a layout (i, j) → lane·8 + slot
    assert_eq!(
        BaseTileRowMajor::LAYOUT.layout.to_string(),
        "((_8,_2),(_2,_4,_2)):((_32,_2),(_1,_8,_4))"
    );
    const { assert!(BaseTileColMajor::COL_MAJOR && !BaseTileRowMajor::COL_MAJOR) };
    // slots 0–1 are neighbours in a row: 32-bit pairs of f16
    assert_eq!(
        (
            vector_run(&BaseTileRowMajor::LAYOUT, 1),
            vector_run(&BaseTileColMajor::LAYOUT, 0)
        ),
        (2, 2)
    );
}

// ---------------------------------------------------------------------------
// Register tiles
// ---------------------------------------------------------------------------

/// Checks a register tile's maps: owner ∘ element is the identity on every
/// (lane, base tile, slot), every element of the warp's tile has exactly one
/// owner, and the warp-wide layout `Blocked<L, B>` says the same (under
/// Miri, for the lanes of `gpu_common::lanes`).
fn check_reg_tile<B: BaseTile, L: Layout2>() {
    type R<B, L> = RegTile<[u8; 0], B, L>;
    assert_eq!(
        (R::<B, L>::ROWS, R::<B, L>::COLS),
        (16 * L::ROWS, 16 * L::COLS)
    );
    assert_eq!(R::<B, L>::REGS, 8 * L::COSIZE);
    let mut held = vec![None; R::<B, L>::ROWS * R::<B, L>::COLS];
    let lanes: Vec<usize> = lanes().into_iter().filter(|&l| l < WARP_SIZE).collect();
    for &lane in &lanes {
        for bi in 0..L::ROWS {
            for bj in 0..L::COLS {
                for slot in 0..FRAGMENT_SLOTS {
                    let (i, j) = R::<B, L>::element(lane, bi, bj, slot);
                    let reg = R::<B, L>::reg(bi, bj, slot);
                    assert_eq!(reg, L::offset(bi, bj) * 8 + slot);
                    assert_eq!(R::<B, L>::owner(i, j), (lane, reg));
                    let k = i * R::<B, L>::COLS + j;
                    assert!(held[k].is_none());
                    held[k] = Some((lane, reg));
                    // the warp-wide layout
                    let o = Blocked::<L, B>::offset(i, j);
                    assert_eq!((o % 256 / 8, o / 256 * 8 + o % 8), (lane, reg));
                }
            }
        }
    }
    if lanes.len() == WARP_SIZE {
        assert!(held.iter().all(Option::is_some));
    }
}

#[test]
fn register_tiles_map_elements_to_lanes_and_registers() {
    check_reg_tile::<BaseTileRowMajor, RowMajor<2, 3>>();
    check_reg_tile::<BaseTileColMajor, ColMajor<2, 2>>();
    if !cfg!(miri) {
        // (the same maps on other grids: natively only)
        check_reg_tile::<BaseTileRowMajor, RowMajor<1, 1>>();
        check_reg_tile::<BaseTileColMajor, RowMajor<4, 1>>();
        check_reg_tile::<BaseTileRowMajor, ColMajor<4, 4>>();
    }
}

#[test]
fn register_tile_storage() {
    type Reg = RegTile<[f32; 48], BaseTileRowMajor, RowMajor<2, 3>>;
    let mut r = Reg::filled(0.0);
    for bi in 0..2 {
        for bj in 0..3 {
            for s in 0..8 {
                r.set(bi, bj, s, (bi * 100 + bj * 10 + s) as f32);
            }
        }
    }
    assert_eq!(r.get(1, 2, 7), 127.0);
    assert_eq!(r.regs()[(3 + 2) * 8 + 7], 127.0);
    r.regs_mut()[0] = -1.0;
    assert_eq!(r.get(0, 0, 0), -1.0);
    let v = [0u16; 64];
    let borrowed = RegTile::<_, BaseTileColMajor, ColMajor<2, 4>>::new(&v[..]);
    assert_eq!(borrowed.regs().len(), 64);
    assert!(format!("{r:?}").contains("RegTile"));
}

#[test]
#[should_panic(expected = "shorter than 8")]
fn short_registers_panic() {
    let v = [0u8; 15];
    let _ = RegTile::<_, BaseTileRowMajor, RowMajor<1, 2>>::new(&v[..]);
}

#[test]
fn shapes_report_their_sizes() {
    assert_eq!(<RowMajor<3, 5> as Shape2>::SIZE, 15);
    assert_eq!(gpu_common::size::<BaseTileRowMajor>(), 256);
}

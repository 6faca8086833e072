//! The GPU pictures of `tilelayout::draw::gpu`, read back cell by cell and
//! checked against independent formulations: the `mma.m16n8k16` lane map,
//! CuTe's swizzle on the chunk index, and a copy plan's numbering
//! (vector `t` of a warp's region goes to lane `t % 32` at step `t / 32`).

use tilelayout::draw::gpu::{base_tile, copy_plan, reg_tile, shared_banks};
use tilelayout::gpu::{
    BaseTileColMajor, BaseTileRowMajor, Bytes128, Bytes64, GlobalTile, RowMajor, SharedTile,
    SwizzledRowMajor,
};

/// The cells of a picture's grid: `cells[i][j]` (header and notes cut).
fn cells(picture: &str, rows: usize) -> Vec<Vec<String>> {
    picture
        .lines()
        .skip(2)
        .take(rows)
        .map(|l| l.split_whitespace().skip(1).map(str::to_owned).collect())
        .collect()
}

#[test]
fn base_tiles_follow_the_mma_lane_map() {
    let row = cells(&base_tile::<BaseTileRowMajor>(), 16);
    let col = cells(&base_tile::<BaseTileColMajor>(), 16);
    for i in 0..16 {
        for j in 0..16 {
            // lane l holds row l/4 (+8), columns 2(l%4), 2(l%4)+1 (+8)
            let lane = (i % 8) * 4 + (j % 8) / 2;
            let slot = j % 2 + 2 * (i / 8) + 4 * (j / 8);
            assert_eq!(row[i][j], format!("{lane}.{slot}"), "({i},{j})");
            // column-major: the transpose
            assert_eq!(col[j][i], format!("{lane}.{slot}"), "({j},{i})");
        }
    }
}

#[test]
fn register_tiles_number_base_tiles_by_their_layout() {
    let p = reg_tile::<[f32; 32], BaseTileRowMajor, RowMajor<2, 2>>();
    let c = cells(&p, 32);
    assert_eq!((c.len(), c[0].len()), (32, 32));
    for (i, line) in c.iter().enumerate() {
        for (j, cell) in line.iter().enumerate() {
            let lane = (i % 8) * 4 + (j % 8) / 2;
            let slot = j % 2 + 2 * (i % 16 / 8) + 4 * (j % 16 / 8);
            let reg = ((i / 16) * 2 + j / 16) * 8 + slot;
            assert_eq!(*cell, format!("{lane}.{reg}"), "({i},{j})");
        }
    }
}

/// CuTe's `Swizzle<3,3,3>` on f16 (8 per chunk) XORs the row's low 3 bits
/// into the chunk index; `Swizzle<2,2,2>` on f32 64-byte rows (4 chunks)
/// XORs the row's low 2 bits (and bank groups then pair rows).
#[test]
fn swizzled_chunks_land_in_distinct_bank_groups() {
    let p = shared_banks::<SwizzledRowMajor<half::f16, Bytes128, 16, 64>, half::f16>();
    let c = cells(&p, 16);
    for (i, row) in c.iter().enumerate() {
        for (k, g) in row.iter().enumerate() {
            assert_eq!(*g, ((k ^ (i % 8)) % 8).to_string(), "({i},{k})");
        }
    }
    assert!(
        p.contains("row reads: conflict degree 1\ncolumn reads: conflict degree 1\n"),
        "{p}"
    );

    let p = shared_banks::<SwizzledRowMajor<f32, Bytes64, 8, 16>, f32>();
    let c = cells(&p, 8);
    for (i, row) in c.iter().enumerate() {
        for (k, g) in row.iter().enumerate() {
            // a 64-byte row: chunk k of row i is chunk k ^ (i % 4) at byte
            // (i·64 + 16·(k ^ (i%4))), bank group = that / 16 mod 8
            let chunk = k ^ (i % 4);
            assert_eq!(*g, ((i * 4 + chunk) % 8).to_string(), "({i},{k})");
        }
    }

    // unswizzled 128-byte rows: a column of chunks sits in one bank group
    let p = shared_banks::<RowMajor<8, 32>, f32>();
    for row in cells(&p, 8) {
        assert_eq!(row, ["0", "1", "2", "3", "4", "5", "6", "7"]);
    }
    assert!(
        p.contains("row reads: conflict degree 1\ncolumn reads: conflict degree 8\n"),
        "{p}"
    );
}

#[test]
fn copy_plans_show_each_element_s_mover() {
    type G = GlobalTile<&'static [half::f16], RowMajor<32, 64>>;
    type S = SharedTile<&'static mut [half::f16], RowMajor<32, 64>>;
    let p = copy_plan::<G, S, RowMajor<2, 2>>();
    assert!(p.contains("every element moved once"), "{p}");
    let c = cells(&p, 32);
    assert_eq!((c.len(), c[0].len()), (32, 64));
    for (i, line) in c.iter().enumerate() {
        for (j, cell) in line.iter().enumerate() {
            // 2×2 warps of 16×32 regions, 8 halves per vector, row by row
            let warp = (i / 16) * 2 + j / 32;
            let t = ((i % 16) * 32 + j % 32) / 8;
            assert_eq!(*cell, format!("{warp}:{}@{}", t % 32, t / 32), "({i},{j})");
        }
    }
}

/// Where several lanes move the same element (a tile replicated to every
/// warp), the picture lists every owner.
#[test]
fn replicated_elements_show_every_owner() {
    use tilelayout::draw::gpu::ownership;
    use tilelayout::gpu::{Axis, Vector};
    // two warps, each lane l moving row 0, columns 4l..4l+4 of a 1×8 tile
    let p = ownership(1, 8, 2, 1, |_, lane, _| {
        (lane < 2).then_some(Vector {
            row: 0,
            col: 4 * lane,
            len: 4,
            axis: Axis::Row,
        })
    });
    let c = cells(&p, 1);
    assert_eq!(c[0][0], "0:0@0/1:0@0");
    assert_eq!(c[0][7], "0:1@0/1:1@0");
    assert!(p.contains("elements moved 2 to 2 times"), "{p}");
    // and an element nobody moves shows as `.`
    let p = ownership(1, 8, 1, 1, |_, lane, _| {
        (lane == 0).then_some(Vector {
            row: 0,
            col: 0,
            len: 4,
            axis: Axis::Row,
        })
    });
    assert_eq!(cells(&p, 1)[0][4], ".");
    assert!(p.contains("elements moved 0 to 1 times"), "{p}");
}

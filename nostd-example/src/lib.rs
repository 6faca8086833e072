//! `tilelayout` on a `no_std`, no-alloc target: layout types from XLA's
//! text and their index functions, built for `thumbv7em-none-eabihf`
//! (Cortex-M4F, 32-bit `usize`) with the library's default features off.
//!
//! ```text
//! cargo build -p nostd-example --target thumbv7em-none-eabihf --release
//! ```
//!
//! The `#[no_mangle]` functions in [`offsets`] are what `.ci/check-asm`
//! inspects in the release assembly (here for thumb, and through
//! `examples/index_asm.rs`, which includes the same file, for x86-64): the
//! typed ones must be straight-line code with no calls, loops or divides,
//! next to the same arithmetic written by hand.
#![no_std]

pub mod offsets;

pub use offsets::*;

use tilelayout::Layout;

/// Bytes a buffer for [`Bf16Tpu`] needs, as a compile-time constant (fits
/// a 32-bit `usize`).
pub const BF16_TPU_BYTES: usize = Bf16Tpu::BYTES;

/// Figure 1's layout, `f32[3,5]{1,0:T(2,2)}`, stored in a fixed array: 15
/// elements in 24 slots, padding included.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figure1 {
    /// The slots, in storage order.
    pub slots: [f32; Figure1Layout::SLOTS],
}

impl Figure1 {
    /// Stores `v` at logical `(row, col)`; `None` if out of bounds.
    pub fn set(&mut self, row: usize, col: usize, v: f32) -> Option<()> {
        let slot = Figure1Layout::checked_offset([row, col])?;
        self.slots[slot] = v;
        Some(())
    }

    /// The value at logical `(row, col)`; `None` if out of bounds.
    pub fn get(&self, row: usize, col: usize) -> Option<f32> {
        Figure1Layout::checked_offset([row, col]).map(|slot| self.slots[slot])
    }
}

/// A bf16 TPU tile held inline with no allocator: `layout_array!` sizes the
/// storage from the layout (8×128 bf16 = 1024 slots).
pub type Bf16Tile = tilelayout::layout_array!(bf16[8,128]{1,0:T(8,128)(2,1)});

/// Sets every element of a [`Bf16Tile`] to `row + col` (as bf16) and reads
/// one back: the typed storage in firmware.
pub fn fill_bf16_tile(tile: &mut Bf16Tile) -> f32 {
    for r in 0..8 {
        for c in 0..128 {
            tile.set([r, c], half::bf16::from_f32((r + c) as f32));
        }
    }
    tile.get([7, 127]).to_f32()
}

/// Packs 8 row-major bf16 rows of 128 into a [`Bf16Tile`] with the
/// relayout engine, in firmware: the plan is built in place (no allocator)
/// and runs the zip kernel (rows `2k` and `2k+1` share a 32-bit word).
pub fn pack_bf16_rows(rows: &[half::bf16; 8 * 128], tile: &mut Bf16Tile) -> Option<()> {
    tile.view_mut().copy_from_row_major(rows).ok()
}

/// Unpacks a [`Bf16Tile`] into 8 row-major rows: the other direction, a
/// second plan constant of the same layout type.
pub fn unpack_bf16_tile(tile: &Bf16Tile, rows: &mut [half::bf16; 8 * 128]) -> Option<()> {
    tile.view().copy_to_row_major(rows).ok()
}

/// Two f32 TPU tiles held inline.
pub type F32Tiles = tilelayout::layout_array!(f32[16,128]{1,0:T(8,128)});

/// Copies 16 row-major f32 rows of 128 into [`F32Tiles`]: a typed copy of
/// another layout type. Each typed copy keeps its plan as a constant of a
/// few hundred bytes (`nm --size-sort` on the release build for
/// thumbv7em).
pub fn pack_f32_rows(rows: &[f32; 16 * 128], tiles: &mut F32Tiles) -> Option<()> {
    tiles.view_mut().copy_from_row_major(rows).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_pack_into_the_tile_without_an_allocator() {
        // r · 32 + c mod 32: integers below 256 are exact in bf16
        let value = |r: usize, c: usize| (r * 32 + c % 32) as f32;
        let rows: [half::bf16; 8 * 128] =
            core::array::from_fn(|i| half::bf16::from_f32(value(i / 128, i % 128)));
        let mut tile = Bf16Tile::default();
        pack_bf16_rows(&rows, &mut tile).unwrap();
        for r in 0..8 {
            for c in 0..128 {
                assert_eq!(tile.get([r, c]).to_f32(), value(r, c), "({r}, {c})");
            }
        }
        // rows 2 and 3 of column 5 are neighbours in storage
        let units = tile.units();
        assert_eq!(units[2 * 128 + 10].to_f32(), value(2, 5));
        assert_eq!(units[2 * 128 + 11].to_f32(), value(3, 5));
    }

    #[test]
    fn typed_copies_round_trip() {
        let rows: [half::bf16; 8 * 128] =
            core::array::from_fn(|i| half::bf16::from_f32((i % 256) as f32));
        let mut tile = Bf16Tile::default();
        pack_bf16_rows(&rows, &mut tile).unwrap();
        let mut back = [half::bf16::ZERO; 8 * 128];
        unpack_bf16_tile(&tile, &mut back).unwrap();
        assert_eq!(back, rows);
        let f: [f32; 16 * 128] = core::array::from_fn(|i| i as f32);
        let mut tiles = F32Tiles::default();
        pack_f32_rows(&f, &mut tiles).unwrap();
        assert_eq!(tiles.get([9, 100]), (9 * 128 + 100) as f32);
        assert_eq!(tiles.units()[128 * 8 + 128 + 100], (9 * 128 + 100) as f32);
    }

    /// The reference: the core's loop over the tiling, at run time.
    fn oracle<L: Layout, const N: usize>(index: [usize; N]) -> usize {
        L::TILING
            .offset(&index.map(|i| i as u64))
            .expect("in bounds") as usize
    }

    #[test]
    fn typed_hand_written_and_core_offsets_agree_bf16() {
        for i0 in [0, 1, 5, 7] {
            for i2 in [0, 1, 2, 7, 8, 9, 17, 1000, 1279] {
                for i3 in [0, 1, 127, 128, 129, 9999, 16383] {
                    let want = oracle::<Bf16Tpu, 4>([i0, 0, i2, i3]);
                    assert_eq!(
                        tilelayout_offset_bf16(i0, 0, i2, i3),
                        want,
                        "({i0},0,{i2},{i3})"
                    );
                    assert_eq!(hand_offset_bf16(i0, 0, i2, i3), want, "({i0},0,{i2},{i3})");
                }
            }
        }
    }

    #[test]
    fn typed_hand_written_and_core_offsets_agree_figure1() {
        for row in 0..3 {
            for col in 0..5 {
                let want = oracle::<Figure1Layout, 2>([row, col]);
                assert_eq!(tilelayout_offset_f32(row, col), want);
                assert_eq!(hand_offset_f32(row, col), want);
            }
        }
        assert_eq!(tilelayout_offset_f32(2, 3), 17);
    }

    #[test]
    fn figure1_storage_round_trips_and_refuses_out_of_bounds() {
        let mut a = Figure1::default();
        for row in 0..3 {
            for col in 0..5 {
                a.set(row, col, (row * 10 + col) as f32).expect("in bounds");
            }
        }
        assert_eq!(a.get(2, 3), Some(23.0));
        assert_eq!(a.slots[17], 23.0);
        assert_eq!(a.get(3, 0), None);
        assert_eq!(a.set(0, 5, 1.0), None);
        assert_eq!(BF16_TPU_BYTES, 8 * 1280 * 16384 * 2);
    }
}

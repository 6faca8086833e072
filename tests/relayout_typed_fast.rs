//! The typed copies' compile-time fast path (`relayout/flat.rs`): for
//! layout types whose plan is one kernel over at most two loops, the
//! typed copy must write what the definition says (`Layout::offset` for
//! every element) and what the general executor writes (a runtime plan of
//! the same layouts), in both directions, at every SIMD level (the test
//! re-runs itself with `TILELAYOUT_SIMD` set to each level, since the level
//! is read once per process).

use half::bf16;
use tilelayout::storage::{RelayoutPlan, Simd, Strided};
use tilelayout::{layout, layout_array, Layout};

/// Fills row-major storage with distinct values, copies it into the typed
/// array, checks every element at `L::offset` and against a runtime plan,
/// then copies back and checks the round trip.
macro_rules! check {
    ($unit:ty, $val:expr; $($text:tt)+) => {{
        type L = layout!($($text)+);
        let [r, c] = [L::DIMS[0], L::DIMS[1]];
        let src: Vec<$unit> = (0..r * c).map($val).collect();
        let mut a = <layout_array!($($text)+)>::default();
        a.view_mut().copy_from_row_major(&src).unwrap();
        for i in 0..r {
            for j in 0..c {
                assert_eq!(a.units()[L::offset([i, j])], src[i * c + j], "{} ({i},{j})", stringify!($($text)+));
            }
        }
        let bits = 8 * core::mem::size_of::<$unit>() as u32;
        let rows = Strided::row_major(&[r as u64, c as u64], bits).unwrap();
        let mut general = vec![<$unit>::default(); L::SLOTS];
        RelayoutPlan::new(rows, L::SHAPE).unwrap().execute(&src, &mut general).unwrap();
        assert_eq!(a.units(), &general[..], "{}", stringify!($($text)+));
        let mut back = vec![<$unit>::default(); r * c];
        a.view().copy_to_row_major(&mut back).unwrap();
        assert_eq!(back, src, "{}", stringify!($($text)+));
        // into rows at every unit offset in 32 bytes (the kernels pick
        // their stores by the rows' alignment; under Miri two of them)
        let mut buf = vec![<$unit>::default(); r * c + 32];
        let offsets = if cfg!(miri) { 2 } else { 32 / core::mem::size_of::<$unit>() };
        for off in 0..offsets {
            let rows = &mut buf[off..off + r * c];
            a.view().copy_to_row_major(rows).unwrap();
            assert!(rows == &src[..], "{} at offset {off}", stringify!($($text)+));
        }
        // wrong lengths still give the general path's errors
        assert!(a.view_mut().copy_from_row_major(&src[1..]).is_err());
        assert!(a.view().copy_to_row_major(&mut back[1..]).is_err());
    }};
}

/// Distinct for `n < 2^14`, never a NaN (the exponent's top bit is 0).
fn b(n: usize) -> bf16 {
    bf16::from_bits((n as u16 & 0x3FFF) ^ 0x1555)
}

fn s(n: usize) -> i8 {
    (n as u32).wrapping_mul(2654435761).wrapping_shr(13) as i8
}

fn f(n: usize) -> f32 {
    n as f32 * 0.5 - 7.0
}

#[test]
fn fast_path_matches_the_definition_and_the_general_path() {
    // one tile; several tiles (one and two loops around the kernel)
    check!(bf16, b; bf16[8,128]{1,0:T(8,128)(2,1)});
    check!(bf16, b; bf16[8,256]{1,0:T(8,128)(2,1)});
    check!(bf16, b; bf16[16,128]{1,0:T(8,128)(2,1)});
    check!(bf16, b; bf16[8,48]{1,0:T(8,16)(2,1)});
    check!(bf16, b; bf16[4,40]{1,0:T(4,40)(2,1)});
    // rows 32 or 48 columns long: the shortest the AVX2 unzip realigns
    check!(bf16, b; bf16[8,32]{1,0:T(8,32)(2,1)});
    check!(bf16, b; bf16[4,48]{1,0:T(4,48)(2,1)});
    check!(i8, s; s8[8,128]{1,0:T(8,128)(4,1)});
    check!(i8, s; s8[16,256]{1,0:T(8,128)(4,1)});
    check!(i8, s; s8[8,52]{1,0:T(8,52)(4,1)});
    // blocks of 32 and 96 columns: the AVX-512 loops' shortest and an odd
    // number of their 32-column steps
    check!(i8, s; s8[4,32]{1,0:T(4,32)(4,1)});
    check!(i8, s; s8[8,96]{1,0:T(8,96)(4,1)});
    check!(bf16, b; bf16[8,96]{1,0:T(8,96)(2,1)});
    check!(f32, f; f32[8,128]{1,0:T(8,128)});
    check!(f32, f; f32[16,256]{1,0:T(8,128)});
    check!(f32, f; f32[6,10]{0,1:T(2,5)});
    // not flat (three loops around the zip; padding): the general path
    check!(bf16, b; bf16[16,256]{1,0:T(8,128)(2,1)});
    check!(f32, f; f32[3,5]{1,0:T(2,2)});
    check!(bf16, b; bf16[40,128]{1,0:T(8,128)(2,1)});
}

/// Typed arrays of byte units can sit at any address: one at an odd one
/// copies both ways, through the same kernels (one that read the tile's
/// bytes as 16-bit slots panicked there).
#[test]
fn byte_tiles_at_an_odd_address() {
    type A = layout_array!(s8[8,128]{1,0:T(8,128)(4,1)});
    type L = layout!(s8[8,128]{1,0:T(8,128)(4,1)});
    #[repr(C)]
    struct Odd {
        _first: u8,
        a: A,
    }
    let mut o = Box::new(Odd {
        _first: 0,
        a: A::default(),
    });
    // (the allocation is at least 2-byte aligned: the array at 1)
    assert_eq!(o.a.units().as_ptr() as usize % 2, 1);
    let src: Vec<i8> = (0..8 * 128).map(s).collect();
    o.a.view_mut().copy_from_row_major(&src).unwrap();
    for i in 0..8 {
        for j in 0..128 {
            assert_eq!(
                o.a.units()[L::offset([i, j])],
                src[i * 128 + j],
                "({i},{j})"
            );
        }
    }
    let mut back = vec![0i8; 8 * 128];
    o.a.view().copy_to_row_major(&mut back).unwrap();
    assert_eq!(back, src);
}

/// Runs the test above in a child process per SIMD level.
#[test]
#[cfg_attr(miri, ignore = "Miri cannot spawn processes")]
fn fast_path_at_every_simd_level() {
    if std::env::var_os("TILELAYOUT_SIMD").is_some() {
        return; // (a child: the level is set)
    }
    let exe = std::env::current_exe().unwrap();
    for level in Simd::ALL {
        let out = std::process::Command::new(&exe)
            .args([
                "--exact",
                "fast_path_matches_the_definition_and_the_general_path",
            ])
            .env("TILELAYOUT_SIMD", level.name())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("1 passed"),
            "{level:?}: {text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

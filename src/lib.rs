//! Array tiles and memory layouts as types, with a runtime twin.
//!
//! XLA's Figure 1: `f32[3,5]` laid out in 2×2 tiles. Element (2,3) has tile
//! index (1,1) and within-tile index (0,1), so it lands at slot
//! (1·3 + 1)·4 + 1 = 17; the layout takes 24 slots, 9 of them padding.
//!
//! ```
//! use tilelayout::{layout, Layout, Dims, Tiled, F32, T};
//!
//! type Fig1 = Tiled<F32, Dims<3, 5>, T<2, 2>>;      // by hand …
//! type Same = layout!(F32[3,5]{1,0:T(2,2)});          // … or from XLA's text
//! assert_eq!(Fig1::TEXT, "f32[3,5]{1,0:T(2,2)}");
//! assert_eq!(Fig1::offset([2, 3]), 17);
//! assert_eq!(Same::offset([2, 3]), 17);
//! assert_eq!((Fig1::ELEMENTS, Fig1::SLOTS, Fig1::BYTES), (15, 24, 96));
//!
//! let padding: Vec<usize> = (0..Fig1::SLOTS).filter(|&s| Fig1::coords::<2>(s).is_none()).collect();
//! assert_eq!(padding, [9, 11, 14, 15, 18, 19, 21, 22, 23]);
//!
//! // The same semantics on values, for text that arrives at run time:
//! let shape = tilelayout::value::parse_valid_shape("f32[3,5]{1,0:T(2,2)}")?;
//! assert_eq!(shape.tiling()?.offset(&[2, 3])?, 17);
//! # Ok::<(), tilelayout::value::Error>(())
//! ```
//!
//! # Concepts, in order
//! - **Notation.** `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`: element
//!   type, dims, then the layout: `minor_to_major` (entry 0 is the most
//!   minor dim) and attributes: tiles `T(…)(…)`, tail padding `L(n)`,
//!   element bits `E(n)`, memory space `S(n)`. [`value::parse_shape`] reads
//!   it; `Display` prints exactly what XLA prints.
//! - **Physical dims.** The dims read in `minor_to_major` reversed, most major
//!   first: `{3,2,0,1}` over `[8,1,1280,16384]` is `[1,8,1280,16384]`.
//! - **Tiles.** A tile of rank k splits the k most minor dims into tile
//!   counts ⌈d/t⌉ and the tile dims t, moved to the minor end. Tiles apply in
//!   order, each to the expanded shape of the last: `(2,1)` after `(8,128)`
//!   pairs rows 2k and 2k+1 of a column into one 32-bit word (the TPU's bf16
//!   packing). `*` combines a dim into the next more-minor one.
//! - **Slots and padding.** The linear index is row-major in the final
//!   expanded shape; slots no element maps to are padding.
//! - **Sizes.** Exact slots and bytes (every tile level can pad), and XLA's
//!   `ArraySize` (what TPU allocations report), which counts the first
//!   tile's padding only.
//! - **Types.** [`Layout`] is implemented by [`Tiled`]`<Dtype, Dims<…>,
//!   Tiles, MinorToMajor, Attrs>`; [`layout!`] writes that type from the
//!   text. Every property is an associated constant computed by the same
//!   `const fn`s as the runtime values; [`Layout::offset`] compiles to the
//!   arithmetic a person would write (see `examples/index_asm.rs`).
//! - **Validity.** A layout that breaks a rule fails to compile, with the
//!   same message the runtime gives: at the offending token for [`layout!`];
//!   when a constant is used (or at `cargo check` with [`assert_layout!`])
//!   for hand-written types.
//!
//! # Features
//! | feature | default | adds |
//! |---|---|---|
//! | `std` | yes | implies `alloc` |
//! | `alloc` | via `std` | owned arrays for runtime layouts; the relayout's tile-transpose kernel (its staging block) |
//! | `generic-array` | no | `GenericArray` storage sized by `layout_slots!` (typenum) |
//! | `parallel` | no | `RelayoutPlan::execute_parallel`: relayout on scoped threads (implies `std`) |
//!
//! With no features the crate is `no_std` and allocation-free (checked by a
//! `thumbv7em-none-eabihf` build in CI).
//!
//! # Why the types do not use typenum
//! Layout arithmetic (ceil-divisions, products, permutations) on `typenum`
//! numbers compiles 10–100× slower than on const generics, `typenum::U<N>`
//! exists only for a few N (not 1280), and its errors print
//! `UInt<UInt<UTerm, B1>, B0>`. So dims are const generics and every derived
//! number is an associated `const` computed by `const fn`.
//!
#![doc = include_str!("../docs/names.md")] // the README's table too
#![no_std]
// The unit tests use `alloc` and `std` whatever the features.
#[cfg(any(feature = "alloc", test))]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub mod scalar;
pub mod types;
pub use types::*;

pub use scalar::dtype::*;

/// TPU formats: the tiles XLA's TPU compiler gives an array (named
/// formats, the policy calibrated on compiler output, padding reports).
pub mod tpu;

pub mod gpu;

#[cfg(feature = "alloc")]
pub mod draw;

#[cfg(feature = "alloc")]
pub mod guide;

#[cfg(feature = "alloc")]
pub mod dump;

/// Storage for runtime layouts: views and owned arrays over tiled buffers,
/// packed sub-byte elements, and relayout between strided and tiled
/// layouts at memory speed.
///
/// **Buffers and alignment.** Relayout takes plain slices: a `Vec<f32>`
/// (or any `&mut [T]`) works, whatever its address. Large destinations are
/// written with streaming (non-temporal) stores, which move whole 64-byte
/// cache lines; the kernels start each run at the next 64-byte boundary
/// themselves, so a misaligned buffer costs a few ordinary stores per run,
/// not correctness. Where speed matters, allocate destinations 64-byte
/// aligned (e.g. a `Vec` of `#[repr(align(64))]` blocks cast with
/// `bytemuck`, or `std::alloc` with `Layout::from_size_align(n, 64)`):
/// measured on `f32[4096,4096]` rows → `T(8,128)`, a destination 64-byte
/// aligned took about 0.6× the time of one 4 or 16 bytes off a boundary
/// (medians of 4 runs on a 2-core machine).
pub mod storage;

/// The `half` crate, whose `f16` and `bf16` are the element types of the
/// 16-bit layouts and GPU tiles: `tilelayout::half::bf16::from_f32(1.0)`
/// without a direct dependency (the same version the library uses).
pub use half;

#[cfg(feature = "generic-array")]
pub mod generic;

/// CuTe's layout algebra on values (hierarchical shapes and strides,
/// swizzles, composition, divides, products, inverses), from the core.
pub use tilelayout_core::algebra;

/// The runtime model: XLA shapes, layouts and tilings as values, with the
/// parser, printer, validation, sizes and index math (re-exported from
/// `tilelayout-core`, the one implementation the types and the `layout!`
/// macro also evaluate).
pub mod value {
    pub use tilelayout_core::*;
}

/// Forces every compile-time check of a layout type at `cargo check`
/// (without it, a hand-written invalid layout fails only when a constant or
/// method of it is used in code that is built).
///
/// An invalid type is one error at this macro's line, naming the type in
/// XLA's text and the rule it breaks (it checks [`Layout::VERDICT`]):
///
/// ```text
/// error[E0080]: evaluation panicked: invalid layout type f32[3,5]{1,0:T(0,2)}: tile 0 has a zero dim (dim 0); tile dims must be positive or `*`
///  --> src/main.rs:4:1
///   |
/// 4 | assert_layout!(Tiled<F32, Dims<3, 5>, T<0, 2>>);
///   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ evaluation of `_` failed here
/// ```
///
/// ```
/// use tilelayout::{assert_layout, Dims, Tiled, F32, T};
/// assert_layout!(Tiled<F32, Dims<3, 5>, T<2, 2>>);
/// ```
///
/// ```compile_fail,E0080
/// use tilelayout::{assert_layout, Dims, Tiled, F32, T};
/// assert_layout!(Tiled<F32, Dims<3, 5>, T<0, 2>>);
/// ```
#[macro_export]
macro_rules! assert_layout {
    ($($l:ty),+ $(,)?) => {
        $(const _: () = <$l as $crate::Layout>::VERDICT.check();)+
    };
}

/// Support for the macros' expansions only.
#[doc(hidden)] // reason: not API; used by code that `layout!` generates
pub mod __private {
    pub use tilelayout_macros::{cute_impl, layout_array_impl, layout_impl, layout_slots_impl};

    /// A `usize` const parameter that `layout!` writes for a value past
    /// `u32::MAX`: the value, or (on a target whose `usize` does not hold
    /// it) one error at the macro's line saying so.
    #[track_caller] // reason: the error points at the user's `layout!`
    pub const fn usize_param(value: u64) -> usize {
        if value > usize::MAX as u64 {
            let kind = crate::value::ErrorKind::TooLargeForTarget {
                value,
                bits: usize::BITS,
            };
            panic!("{}", crate::value::Error::new(kind).describe().as_str());
        }
        value as usize
    }

    /// What `layout!` and `layout_array!` expand to after reporting an
    /// error (`<[(); { compile_error!{…} 0 }] as StandIn>::Layout`): a valid
    /// type, so that uses of it report nothing more.
    pub trait StandIn {
        /// A layout type.
        type Layout;
        /// An array of that layout.
        type Array;
    }

    impl<const N: usize> StandIn for [(); N] {
        type Layout = crate::Tiled<crate::F32, crate::Dims<1>>;
        type Array = crate::storage::TypedArray<Self::Layout, 1>;
    }
}

/// An owned, allocation-free array in the layout of XLA's text:
/// `layout_array!(bf16[16,256]{1,0:T(8,128)(2,1)})` is
/// `storage::TypedArray<layout!(…), N>` with `N` the layout's storage
/// length (slots, or bytes for packed sub-byte elements).
///
/// ```
/// use tilelayout::layout_array;
/// let mut a = <layout_array!(s4[4,8]{1,0:E(4)})>::default();
/// a.set([1, 3], tilelayout::storage::i4::new(-2).unwrap());
/// assert_eq!(a.units().len(), 16); // 32 four-bit elements in 16 bytes
/// assert_eq!(a.get([1, 3]).get(), -2);
/// ```
#[macro_export]
macro_rules! layout_array {
    ($($text:tt)+) => {
        $crate::__private::layout_array_impl!($crate; $($text)+)
    };
}

/// The slot count of a layout as a `typenum` type, to size a
/// `GenericArray` (feature `generic-array`; see [`generic`]).
///
/// Checks the text as [`layout!`] does.
#[cfg(feature = "generic-array")]
#[macro_export]
macro_rules! layout_slots {
    ($($text:tt)+) => {
        $crate::__private::layout_slots_impl!($crate; $($text)+)
    };
}

/// The layout type for XLA's text: `layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)})`.
///
/// Takes the text as tokens or as a string literal (for text pasted from
/// dumps: `layout!("f32[3,5]{1,0:T(2,2)}")`), parses and validates it with
/// the same core as the runtime, and expands to the [`Tiled`] type a person
/// would write, leaving out parameters at their default, so that
/// `layout!(f32[3,5]{1,0:T(2,2)})` *is* `Tiled<F32, Dims<3,5>, T<2,2>>`.
///
/// ```
/// use tilelayout::{layout, Layout, Dims, Tiled, F32, T};
/// type A = layout!(f32[3,5]{1,0:T(2,2)});
/// let same: core::marker::PhantomData<Tiled<F32, Dims<3, 5>, T<2, 2>>> = core::marker::PhantomData::<A>;
/// # let _ = same;
/// type B = layout!("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}");
/// assert_eq!(B::XLA_BYTES, 8 * 1280 * 16384 * 2);
/// assert_eq!(B::offset([0, 0, 1, 0]), 1); // rows 0 and 1 share a 32-bit word
/// ```
///
/// # Compile-time errors
/// Syntax and validity errors point at the offending token (for the string
/// form: at the literal, with the byte offset), with the core's message:
/// ```compile_fail
/// type Bad = tilelayout::layout!(f32[3,5]{1,1:T(2,2)}); // minor_to_major lists dim 1 twice
/// ```
/// Also rejected here, beyond the text's grammar and XLA's rules: dynamic
/// dims, rank above 8, more than 8 tiles or tile dims, `SC(…)` and `M(…)`
/// (not represented in types), and an `E(n)` the element type cannot use.
#[macro_export]
macro_rules! layout {
    ($($text:tt)+) => {
        $crate::__private::layout_impl!($crate; $($text)+)
    };
}

/// A CuTe layout as a type: `cute!((8,(2,4)):(1,(8,16)))` is
/// [`Cute`]`<(Leaf<8, 1, false, false>, (…))>`, parsed at compile time by
/// the core's algebra parser (static `_8` and dynamic `8` are kept for
/// printing; both are constants in a type). Takes the text as tokens or a
/// string literal; a syntax error points at the offending token.
///
/// ```
/// use tilelayout::{cute, AlgebraLayout};
/// type A = cute!((_2,(_3,_4)):(_12,(_4,_1)));
/// assert_eq!(A::TEXT, "(_2,(_3,_4)):(_12,(_4,_1))");
/// const SIZE: usize = A::SIZE; // every constant is a compile-time constant
/// assert_eq!((SIZE, A::index(7)), (24, 13));
/// ```
#[macro_export]
macro_rules! cute {
    ($($text:tt)+) => {
        $crate::__private::cute_impl!($crate; $($text)+)
    };
}

/// Forces every compile-time check of CuTe layout types at `cargo check`
/// (an operation whose precondition fails is otherwise an error only when
/// a constant of it is used in code that is built).
///
/// Takes plain ([`AlgebraLayout`]) and swizzled
/// ([`ComposedAlgebraLayout`]) layout types alike, and the GPU layout
/// types ([`gpu::Layout2`]: `Swizzled<RowMajor<64, 64>, Swizzle<3, 3, 2>>`
/// is one error naming `Sw<3,3,2>`). A failed check is one
/// error at this macro's line, naming the operation, the mode and what to
/// change, with the operands in CuTe's notation (it checks
/// [`CuteType::VERDICT`]):
///
/// ```text
/// error[E0080]: evaluation panicked: Get<_, 5>: mode 5 of a layout of rank 2; use a mode below 2 (A = (_2,_3):(_1,_2))
///  --> src/main.rs:3:1
///   |
/// 3 | assert_cute!(Get<cute!((_2,_3):(_1,_2)), 5>);
///   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ evaluation of `_` failed here
/// ```
///
/// ```
/// use tilelayout::{assert_cute, cute, Get, LogicalDivide};
/// assert_cute!(Get<cute!((_2,_3):(_1,_2)), 1>);
/// assert_cute!(LogicalDivide<cute!(Sw<3,3,3> o _0 o (_8,_64):(_64,_1)), cute!(_4:_1)>);
/// ```
///
/// ```compile_fail,E0080
/// use tilelayout::{assert_cute, cute, Get};
/// assert_cute!(Get<cute!((_2,_3):(_1,_2)), 5>);
/// ```
#[macro_export]
macro_rules! assert_cute {
    ($($l:ty),+ $(,)?) => {
        $(const _: () = <$l as $crate::CuteType>::VERDICT.check();)+
    };
}

/// The README's Rust example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

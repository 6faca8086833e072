//! tilelayout.
#![no_std]
#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod types;
pub use types::*;

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
/// ```
/// use tilelayout::{assert_layout, Shape, Tiled, F32, T};
/// assert_layout!(Tiled<F32, Shape<3, 5>, T<2, 2>>);
/// ```
#[macro_export]
macro_rules! assert_layout {
    ($($l:ty),+ $(,)?) => {
        $(const _: () = <$l as $crate::Layout>::VALID;)+
    };
}

/// Support for the macros' expansions only.
#[doc(hidden)] // reason: not API; used by code that `layout!` generates
pub mod __private {
    pub use tilelayout_macros::layout_impl;
}

/// The layout type for XLA's text: `layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)})`.
///
/// Takes the text as tokens or as a string literal (for text pasted from
/// dumps: `layout!("f32[3,5]{1,0:T(2,2)}")`), parses and validates it with
/// the same core as the runtime, and expands to the [`Tiled`] type a person
/// would write, leaving out parameters at their default, so that
/// `layout!(f32[3,5]{1,0:T(2,2)})` *is* `Tiled<F32, Shape<3,5>, T<2,2>>`.
///
/// ```
/// use tilelayout::{layout, Layout, Shape, Tiled, F32, T};
/// type A = layout!(f32[3,5]{1,0:T(2,2)});
/// let same: core::marker::PhantomData<Tiled<F32, Shape<3, 5>, T<2, 2>>> = core::marker::PhantomData::<A>;
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

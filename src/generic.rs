//! `GenericArray` storage sized by a layout (feature `generic-array`).
//!
//! Stable Rust cannot write `[T; L::SLOTS]` for a generic `L`. One way
//! around it: [`crate::layout_slots!`] has the proc macro compute the slot
//! count and emit it as a `typenum` type, which sizes a `GenericArray`
//! without any type-level arithmetic (the layout math stays in the core's
//! `const fn`s). [`GenericTiled`] checks that the length matches the layout.
//!
//! ```
//! use tilelayout::generic::GenericTiled;
//! use tilelayout::{layout, layout_slots};
//! type L = layout!(f32[3,5]{1,0:T(2,2)});
//! let mut a = GenericTiled::<L, layout_slots!(f32[3,5]{1,0:T(2,2)})>::default();
//! a.set([2, 3], 7.0);
//! assert_eq!(a.slots()[17], 7.0);
//! assert_eq!(a.get([2, 3]), 7.0);
//! ```

pub use generic_array::{typenum, ArrayLength, GenericArray};

use crate::scalar::dtype::Dtype;
use crate::types::Layout;

type Value<L> = <<L as Layout>::Dtype as Dtype>::Value;

/// An owned array in layout `L`, stored in a `GenericArray` of length `N`.
///
/// # Compile-time errors
/// `N` must equal `L::SLOTS` (checked when built):
/// ```compile_fail,E0080
/// use tilelayout::generic::{typenum::U23, GenericTiled};
/// type L = tilelayout::layout!(f32[3,5]{1,0:T(2,2)}); // 24 slots
/// let a = GenericTiled::<L, U23>::default();
/// ```
pub struct GenericTiled<L: Layout, N: ArrayLength> {
    slots: GenericArray<Value<L>, N>,
}

impl<L: Layout, N: ArrayLength> Default for GenericTiled<L, N> {
    fn default() -> Self {
        const {
            assert!(
                N::USIZE == L::SLOTS,
                "the GenericArray length is not the layout's slot count"
            )
        };
        GenericTiled {
            slots: GenericArray::default(),
        }
    }
}

impl<L: Layout, N: ArrayLength> GenericTiled<L, N> {
    /// The element at logical coordinates `index`.
    #[inline]
    pub fn get<const R: usize>(&self, index: [usize; R]) -> Value<L> {
        self.slots[L::offset(index)]
    }

    /// Sets the element at `index`.
    #[inline]
    pub fn set<const R: usize>(&mut self, index: [usize; R], v: Value<L>) {
        self.slots[L::offset(index)] = v;
    }

    /// The storage, in memory order (padding included).
    pub fn slots(&self) -> &[Value<L>] {
        &self.slots
    }
}

//! Views and arrays for layout *types*: the storage length, the storage
//! width and every index are compile-time constants of the layout.
//!
//! [`TypedView`] and [`TypedViewMut`] borrow a slice; [`TypedArray`] owns
//! a `[Unit; N]` with `N` checked against the layout at compile time (no
//! allocation: it works in `no_std` firmware), and [`crate::layout_array!`]
//! writes `N` for you. Logical-order iteration, padding fill and relayout
//! reuse the runtime machinery through [`TypedView::runtime`].
//!
//! ```
//! use tilelayout::{layout, layout_array, Layout};
//! type L = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
//! let mut a = <layout_array!(bf16[16,256]{1,0:T(8,128)(2,1)})>::default();
//! let one = half::bf16::from_f32(1.0);
//! a.set([3, 200], one);
//! assert_eq!(a.get([3, 200]), one);
//! assert_eq!(a.units()[L::offset([3, 200])], one);
//! assert_eq!(a.units().len(), L::SLOTS);
//! ```

use core::marker::PhantomData;

use super::{CompiledShape, Element as Value, StorageError, TiledView, TiledViewMut};
use crate::scalar::dtype::Dtype;
use crate::types::Layout;

/// The Rust value type of layout `L`'s elements.
pub type ValueOf<L> = <<L as Layout>::Dtype as Dtype>::Value;
/// The storage unit of layout `L` (the value type, or `u8` for sub-byte
/// types).
pub type UnitOf<L> = <ValueOf<L> as Value>::Unit;

/// Storage facts of a layout type, as constants.
pub trait TypedStorage: Layout
where
    ValueOf<Self>: Value,
{
    /// Bits per slot in storage (`E(n)`, else the type's byte width × 8).
    const BITS: u32;
    /// Units of storage: `BYTES` over the unit's size (`SLOTS` when the
    /// unit is the slot; `BYTES` for packed storage and `pred` in wide
    /// slots).
    const UNITS: usize;
    /// Evaluating this checks that the value type supports the storage
    /// width (a compile error naming the width otherwise).
    const STORAGE_OK: ();
}

impl<L: Layout> TypedStorage for L
where
    ValueOf<L>: Value,
{
    const BITS: u32 = L::SHAPE.storage_bits() as u32;
    const UNITS: usize = L::BYTES / core::mem::size_of::<UnitOf<L>>();
    const STORAGE_OK: () = {
        // The rule of `Packing::supports`, which the runtime views apply
        // too (one rule for types, views and relayout).
        let unit = 8 * core::mem::size_of::<UnitOf<L>>() as u32;
        assert!(
            <ValueOf<L> as Value>::PACKING.supports(unit, Self::BITS as u64),
            "the layout's storage width (E) is not one its value type can be stored in"
        );
    };
}

/// Holder of layout `L`'s compiled shape, so that the runtime views of
/// typed storage can borrow it for `'static` (built from `L`'s constants:
/// no work at run time).
struct Compiled<L>(PhantomData<L>);

impl<L: Layout> Compiled<L> {
    const SHAPE: &'static CompiledShape = &CompiledShape::from_parts(L::SHAPE, L::TILING);
}

/// A borrowed view of a buffer as an array in layout `L`.
pub struct TypedView<'a, L: Layout>
where
    ValueOf<L>: Value,
{
    units: &'a [UnitOf<L>],
    _l: PhantomData<L>,
}

/// A mutable view of a buffer as an array in layout `L`.
pub struct TypedViewMut<'a, L: Layout>
where
    ValueOf<L>: Value,
{
    units: &'a mut [UnitOf<L>],
    _l: PhantomData<L>,
}

/// An owned array in layout `L`: `N` units inline, no allocation. `N`
/// must be `L`'s storage length ([`TypedStorage::UNITS`]); a compile error
/// otherwise. [`crate::layout_array!`] computes it.
///
/// # Compile-time errors
/// ```compile_fail,E0080
/// use tilelayout::{layout, storage::TypedArray};
/// let a = TypedArray::<layout!(f32[3,5]{1,0:T(2,2)}), 23>::default(); // needs 24
/// ```
pub struct TypedArray<L: Layout, const N: usize>
where
    ValueOf<L>: Value,
{
    units: [UnitOf<L>; N],
    _l: PhantomData<L>,
}

const fn check_len<L: Layout>(n: usize) -> Result<(), StorageError>
where
    ValueOf<L>: Value,
{
    if n == <L as TypedStorage>::UNITS {
        Ok(())
    } else {
        Err(StorageError::Length {
            expected: <L as TypedStorage>::UNITS as u64,
            found: n,
        })
    }
}

macro_rules! typed_read_api {
    () => {
        /// The element at `index` (logical coordinates, in the order the
        /// dims are written).
        ///
        /// # Panics
        /// If a coordinate is out of bounds (as slice indexing does); see
        /// [`Self::try_get`].
        #[inline]
        pub fn get<const R: usize>(&self, index: [usize; R]) -> ValueOf<L> {
            match L::checked_offset(index) {
                Some(s) => <ValueOf<L>>::load(&self.units, s, <L as TypedStorage>::BITS),
                None => panic!("index out of bounds of the layout"),
            }
        }

        /// The element at `index`, or `None` if a coordinate is out of
        /// bounds.
        #[inline]
        pub fn try_get<const R: usize>(&self, index: [usize; R]) -> Option<ValueOf<L>> {
            L::checked_offset(index)
                .map(|s| <ValueOf<L>>::load(&self.units, s, <L as TypedStorage>::BITS))
        }

        /// The storage, in memory order (padding included).
        pub fn units(&self) -> &[UnitOf<L>] {
            &self.units
        }

        /// The runtime view of the same storage (logical and memory-order
        /// iteration, `get` by `&[u64]`).
        pub fn runtime(&self) -> TiledView<'_, ValueOf<L>> {
            match TiledView::new(Compiled::<L>::SHAPE, &self.units) {
                Ok(v) => v,
                // The length and width were checked against the same layout.
                Err(e) => unreachable!("typed storage disagrees with its layout: {e}"),
            }
        }
    };
}

macro_rules! typed_write_api {
    () => {
        /// Sets the element at `index`, leaving every other slot (and the
        /// other bits of a shared byte) unchanged.
        ///
        /// # Panics
        /// If a coordinate is out of bounds; see [`Self::try_set`].
        #[inline]
        pub fn set<const R: usize>(&mut self, index: [usize; R], v: ValueOf<L>) {
            match L::checked_offset(index) {
                Some(s) => <ValueOf<L>>::store(&mut self.units, s, <L as TypedStorage>::BITS, v),
                None => panic!("index out of bounds of the layout"),
            }
        }

        /// Sets the element at `index`; `false` (and nothing written) if a
        /// coordinate is out of bounds.
        #[inline]
        pub fn try_set<const R: usize>(&mut self, index: [usize; R], v: ValueOf<L>) -> bool {
            match L::checked_offset(index) {
                Some(s) => {
                    <ValueOf<L>>::store(&mut self.units, s, <L as TypedStorage>::BITS, v);
                    true
                }
                None => false,
            }
        }

        /// The storage, mutably.
        pub fn units_mut(&mut self) -> &mut [UnitOf<L>] {
            &mut self.units
        }

        /// The runtime mutable view of the same storage (padding fill,
        /// relayout destinations).
        pub fn runtime_mut(&mut self) -> TiledViewMut<'_, ValueOf<L>> {
            match TiledViewMut::new(Compiled::<L>::SHAPE, &mut self.units) {
                Ok(v) => v,
                Err(e) => unreachable!("typed storage disagrees with its layout: {e}"),
            }
        }

        /// Writes `v` into every padding slot.
        pub fn fill_padding(&mut self, v: ValueOf<L>) {
            self.runtime_mut().fill_padding(v);
        }
    };
}

impl<'a, L: Layout> TypedView<'a, L>
where
    ValueOf<L>: Value,
{
    /// A view of `units`.
    ///
    /// # Errors
    /// [`StorageError::Length`] unless `units` has the layout's storage
    /// length.
    pub fn new(units: &'a [UnitOf<L>]) -> Result<Self, StorageError> {
        let () = <L as TypedStorage>::STORAGE_OK;
        check_len::<L>(units.len())?;
        Ok(TypedView {
            units,
            _l: PhantomData,
        })
    }

    typed_read_api!();
}

impl<'a, L: Layout> TypedViewMut<'a, L>
where
    ValueOf<L>: Value,
{
    /// A mutable view of `units`.
    ///
    /// # Errors
    /// [`StorageError::Length`] unless `units` has the layout's storage
    /// length.
    pub fn new(units: &'a mut [UnitOf<L>]) -> Result<Self, StorageError> {
        let () = <L as TypedStorage>::STORAGE_OK;
        check_len::<L>(units.len())?;
        Ok(TypedViewMut {
            units,
            _l: PhantomData,
        })
    }

    typed_read_api!();
    typed_write_api!();
}

impl<L: Layout, const N: usize> Default for TypedArray<L, N>
where
    ValueOf<L>: Value,
{
    /// An array of zero units (every element and padding slot zero).
    fn default() -> Self {
        const {
            assert!(
                N == <L as TypedStorage>::UNITS,
                "TypedArray<L, N>: N is not the layout's storage length"
            );
        };
        let () = <L as TypedStorage>::STORAGE_OK;
        TypedArray {
            units: [UnitOf::<L>::default(); N],
            _l: PhantomData,
        }
    }
}

impl<L: Layout, const N: usize> TypedArray<L, N>
where
    ValueOf<L>: Value,
{
    /// An array with every element `v` (padding zero).
    pub fn filled(v: ValueOf<L>) -> Self {
        let mut a = Self::default();
        for s in 0..L::SLOTS {
            if L::TILING.coords(s as u64).ok().flatten().is_some() {
                <ValueOf<L>>::store(&mut a.units, s, <L as TypedStorage>::BITS, v);
            }
        }
        a
    }

    /// A borrowed view.
    pub fn view(&self) -> TypedView<'_, L> {
        TypedView {
            units: &self.units,
            _l: PhantomData,
        }
    }

    /// A mutable view.
    pub fn view_mut(&mut self) -> TypedViewMut<'_, L> {
        TypedViewMut {
            units: &mut self.units,
            _l: PhantomData,
        }
    }

    typed_read_api!();
    typed_write_api!();
}

mod relayout {
    use super::*;
    use crate::storage::relayout::flat::{self, Flat, KnownPlan};
    use crate::storage::relayout::Exec;
    use crate::storage::{ArrayLayout, RelayoutPlan, Strided};

    impl<'a, L: Layout> TypedViewMut<'a, L>
    where
        ValueOf<L>: Value,
    {
        /// Fills the view from a row-major buffer of the same dims
        /// (padding is set to zero), with the relayout engine's plan for the
        /// layout's constants.
        ///
        /// The plan is a compile-time constant of the layout type
        /// ([`RelayoutPlan::between`] evaluated by the compiler; it keeps
        /// only what running it needs, a few hundred bytes), so a call
        /// costs only the copy. A layout whose tiling is not affine takes
        /// the element-wise path, planned at run time.
        ///
        /// # Errors
        /// [`StorageError::Length`] if `src` is not `ELEMENTS` units (or the
        /// packed bytes of them).
        pub fn copy_from_row_major(&mut self, src: &[UnitOf<L>]) -> Result<(), StorageError> {
            if flat::run::<FromRows<L>, _>(src, self.units) {
                return Ok(());
            }
            let pad = UnitOf::<L>::default();
            match &Plans::<L>::FROM_ROWS {
                Ok(Some(exec)) => exec.execute_with_padding(src, self.units, pad),
                Ok(None) => Plans::<L>::from_rows()?.execute_with_padding(src, self.units, pad),
                Err(e) => Err(*e),
            }
        }
    }

    impl<'a, L: Layout> TypedView<'a, L>
    where
        ValueOf<L>: Value,
    {
        /// Copies the array into a row-major buffer of the same dims.
        ///
        /// # Errors
        /// [`StorageError::Length`] if `dst` is not the row-major length.
        pub fn copy_to_row_major(&self, dst: &mut [UnitOf<L>]) -> Result<(), StorageError> {
            if flat::run::<ToRows<L>, _>(self.units, dst) {
                return Ok(());
            }
            let pad = UnitOf::<L>::default();
            match &Plans::<L>::TO_ROWS {
                Ok(Some(exec)) => exec.execute_with_padding(self.units, dst, pad),
                Ok(None) => Plans::<L>::to_rows()?.execute_with_padding(self.units, dst, pad),
                Err(e) => Err(*e),
            }
        }
    }

    /// The plans between layout `L` and row-major storage of its dims,
    /// made by the compiler: what running them needs ([`Exec`]), or `None`
    /// for the element-wise path (planned again at run time, so that the
    /// constant stays small).
    struct Plans<L>(PhantomData<L>);

    impl<L: Layout> Plans<L>
    where
        ValueOf<L>: Value,
    {
        const ROWS: Result<ArrayLayout, StorageError> = {
            let mut dims = [0u64; crate::MAX_TYPE_RANK];
            let mut i = 0;
            while i < L::RANK {
                dims[i] = L::DIMS[i] as u64;
                i += 1;
            }
            match Strided::row_major(dims.split_at(L::RANK).0, <L as TypedStorage>::BITS) {
                Ok(s) => Ok(ArrayLayout::Strided(s)),
                Err(e) => Err(e),
            }
        };
        const FROM_ROWS: Result<Option<Exec>, StorageError> = match Self::from_rows() {
            Ok(p) => Ok(p.exec()),
            Err(e) => Err(e),
        };
        const TO_ROWS: Result<Option<Exec>, StorageError> = match Self::to_rows() {
            Ok(p) => Ok(p.exec()),
            Err(e) => Err(e),
        };

        const fn from_rows() -> Result<RelayoutPlan, StorageError> {
            match &Self::ROWS {
                Ok(rows) => RelayoutPlan::between(rows, &ArrayLayout::Tiled(L::SHAPE)),
                Err(e) => Err(*e),
            }
        }

        const fn to_rows() -> Result<RelayoutPlan, StorageError> {
            match &Self::ROWS {
                Ok(rows) => RelayoutPlan::between(&ArrayLayout::Tiled(L::SHAPE), rows),
                Err(e) => Err(*e),
            }
        }
    }

    /// Layout `L`'s plan from row-major storage, as a [`KnownPlan`].
    struct FromRows<L>(PhantomData<L>);
    /// Layout `L`'s plan to row-major storage, as a [`KnownPlan`].
    struct ToRows<L>(PhantomData<L>);

    impl<L: Layout> KnownPlan for FromRows<L>
    where
        ValueOf<L>: Value,
    {
        const FLAT: Option<Flat> = match &Plans::<L>::FROM_ROWS {
            Ok(Some(exec)) => exec.flat(),
            _ => None,
        };
    }

    impl<L: Layout> KnownPlan for ToRows<L>
    where
        ValueOf<L>: Value,
    {
        const FLAT: Option<Flat> = match &Plans::<L>::TO_ROWS {
            Ok(Some(exec)) => exec.flat(),
            _ => None,
        };
    }
}

//! A vector of at most `N` items held in place, for the relayout planner:
//! the plan is built without an allocator (so it works in `no_std`
//! firmware), and a layout whose loops would not fit falls back to the
//! element-wise path instead of failing.

use core::fmt;
use core::ops::{Deref, DerefMut};

/// At most `N` items of `T`, in place.
#[derive(Clone, Copy)]
pub(crate) struct Fixed<T: Copy, const N: usize> {
    len: usize,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> Fixed<T, N> {
    /// No items.
    pub(crate) fn new() -> Self {
        Fixed {
            len: 0,
            items: [T::default(); N],
        }
    }

    /// The items of `s`, or `None` if there are more than `N`.
    pub(crate) fn from_slice(s: &[T]) -> Option<Self> {
        let mut f = Self::new();
        f.extend(s.iter().copied())?;
        Some(f)
    }

    /// Appends `x`; `None` (and no change) when full.
    #[must_use]
    pub(crate) fn push(&mut self, x: T) -> Option<()> {
        *self.items.get_mut(self.len)? = x;
        self.len += 1;
        Some(())
    }

    /// Appends every item; `None` when they do not all fit (the ones that
    /// fit stay).
    #[must_use]
    pub(crate) fn extend(&mut self, xs: impl IntoIterator<Item = T>) -> Option<()> {
        for x in xs {
            self.push(x)?;
        }
        Some(())
    }

    /// The items of `xs`, or `None` if there are more than `N`.
    pub(crate) fn collect(xs: impl IntoIterator<Item = T>) -> Option<Self> {
        let mut f = Self::new();
        f.extend(xs)?;
        Some(f)
    }

    /// Inserts `x` at `i <= len`; `None` (and no change) when full.
    #[must_use]
    pub(crate) fn insert(&mut self, i: usize, x: T) -> Option<()> {
        if self.len == N || i > self.len {
            return None;
        }
        self.items.copy_within(i..self.len, i + 1);
        self.items[i] = x;
        self.len += 1;
        Some(())
    }

    /// Removes and returns the item at `i < len`.
    pub(crate) fn remove(&mut self, i: usize) -> T {
        let x = self[i];
        self.items.copy_within(i + 1..self.len, i);
        self.len -= 1;
        x
    }

    /// Removes and returns the last item.
    pub(crate) fn pop(&mut self) -> Option<T> {
        self.len = self.len.checked_sub(1)?;
        Some(self.items[self.len])
    }

    /// Keeps the first `n` items.
    pub(crate) fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }

    /// No items.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }
}

impl<T: Copy, const N: usize> Deref for Fixed<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<T: Copy, const N: usize> DerefMut for Fixed<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }
}

impl<T: Copy + fmt::Debug, const N: usize> fmt::Debug for Fixed<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Sorts `s` stably by `less` (insertion sort: the planner's lists are
/// short, and `slice::sort_by` needs an allocator).
pub(crate) fn sort_by<T: Copy>(s: &mut [T], mut cmp: impl FnMut(&T, &T) -> core::cmp::Ordering) {
    for i in 1..s.len() {
        let x = s[i];
        let mut j = i;
        while j > 0 && cmp(&s[j - 1], &x) == core::cmp::Ordering::Greater {
            s[j] = s[j - 1];
            j -= 1;
        }
        s[j] = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_inserts_removes_and_refuses_past_capacity() {
        let mut f = Fixed::<u32, 4>::new();
        assert_eq!(f.push(1), Some(()));
        assert_eq!(f.push(3), Some(()));
        assert_eq!(f.insert(1, 2), Some(()));
        assert_eq!(f.insert(0, 0), Some(()));
        assert_eq!(&*f, &[0, 1, 2, 3]);
        assert_eq!(f.push(4), None);
        assert_eq!(f.insert(2, 9), None);
        assert_eq!(&*f, &[0, 1, 2, 3]);
        assert_eq!(f.remove(1), 1);
        assert_eq!(f.pop(), Some(3));
        assert_eq!(&*f, &[0, 2]);
        f.truncate(1);
        assert_eq!(&*f, &[0]);
        assert!(Fixed::<u8, 2>::from_slice(&[1, 2, 3]).is_none());
    }

    #[test]
    fn sort_is_stable_and_matches_the_standard_sort() {
        let xs: [(u8, u8); 12] = core::array::from_fn(|i| (((i * 7) % 5) as u8, i as u8));
        let mut a = xs;
        sort_by(&mut a, |x, y| y.0.cmp(&x.0));
        let mut b = xs;
        b.sort_by_key(|x| core::cmp::Reverse(x.0)); // std's stable sort
        assert_eq!(a, b);
    }
}

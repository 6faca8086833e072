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

impl<T: Copy, const N: usize> Fixed<T, N> {
    /// No items (`z` fills the unused room).
    pub(crate) const fn empty(z: T) -> Self {
        Fixed {
            len: 0,
            items: [z; N],
        }
    }

    /// The items.
    pub(crate) const fn as_slice(&self) -> &[T] {
        self.items.split_at(self.len).0
    }

    /// The items, mutably.
    pub(crate) const fn as_mut_slice(&mut self) -> &mut [T] {
        self.items.split_at_mut(self.len).0
    }

    /// Appends `x`; `false` (and no change) when full.
    #[must_use]
    pub(crate) const fn push(&mut self, x: T) -> bool {
        if self.len == N {
            return false;
        }
        self.items[self.len] = x;
        self.len += 1;
        true
    }

    /// Appends the items of `xs`; `false` when they do not all fit (the
    /// ones that fit stay).
    #[must_use]
    pub(crate) const fn extend_from_slice(&mut self, xs: &[T]) -> bool {
        let mut i = 0;
        while i < xs.len() {
            if !self.push(xs[i]) {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Inserts `x` at `i <= len`; `false` (and no change) when full.
    #[must_use]
    pub(crate) const fn insert(&mut self, i: usize, x: T) -> bool {
        if self.len == N || i > self.len {
            return false;
        }
        let mut j = self.len;
        while j > i {
            self.items[j] = self.items[j - 1];
            j -= 1;
        }
        self.items[i] = x;
        self.len += 1;
        true
    }

    /// Removes and returns the item at `i < len`.
    pub(crate) const fn remove(&mut self, i: usize) -> T {
        let x = self.items[i];
        let mut j = i;
        while j + 1 < self.len {
            self.items[j] = self.items[j + 1];
            j += 1;
        }
        self.len -= 1;
        x
    }

    /// Removes and returns the last item.
    pub(crate) const fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.items[self.len])
    }

    /// Keeps the first `n` items.
    pub(crate) const fn truncate(&mut self, n: usize) {
        if n < self.len {
            self.len = n;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_inserts_removes_and_refuses_past_capacity() {
        let mut f = Fixed::<u32, 4>::empty(0);
        assert!(f.push(1));
        assert!(f.push(3));
        assert!(f.insert(1, 2));
        assert!(f.insert(0, 0));
        assert_eq!(&*f, &[0, 1, 2, 3]);
        assert!(!f.push(4));
        assert!(!f.insert(2, 9));
        assert_eq!(&*f, &[0, 1, 2, 3]);
        assert_eq!(f.remove(1), 1);
        assert_eq!(f.pop(), Some(3));
        assert_eq!(&*f, &[0, 2]);
        f.truncate(1);
        assert_eq!(&*f, &[0]);
        let mut g = Fixed::<u8, 2>::empty(0);
        assert!(!g.extend_from_slice(&[1, 2, 3]));
        assert_eq!(&*g, &[1, 2]);
    }
}

//! A fixed-capacity text buffer usable in `const fn`: the printer and the
//! error formatter write into it, so the same code serves `Display`, the
//! proc macro and compile-time panics in the type layer. The pieces both
//! error types' messages share are written here once.

use crate::error::Span;

/// A byte buffer of capacity `N` holding UTF-8 text, writable in `const fn`.
///
/// Writes past the capacity are dropped and remembered
/// ([`TextBuf::overflowed`]); nothing panics.
///
/// # Examples
/// ```
/// use tilelayout::value::TextBuf;
/// const T: TextBuf<16> = TextBuf::new().str("T(").u64(8).str(")");
/// assert_eq!(T.as_str(), "T(8)");
/// ```
#[derive(Clone, Copy)]
pub struct TextBuf<const N: usize> {
    bytes: [u8; N],
    len: usize,
    overflowed: bool,
}

impl<const N: usize> Default for TextBuf<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> TextBuf<N> {
    /// An empty buffer.
    pub const fn new() -> Self {
        TextBuf {
            bytes: [0; N],
            len: 0,
            overflowed: false,
        }
    }

    /// The text written so far.
    pub const fn as_str(&self) -> &str {
        let (head, _) = self.bytes.split_at(self.len);
        match core::str::from_utf8(head) {
            Ok(s) => s,
            // Only whole `&str`s and ASCII are ever pushed, and an overflow
            // drops whole pushes, so the content is always UTF-8.
            Err(_) => "",
        }
    }

    /// The number of bytes written.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been written.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether some write did not fit (the text is then incomplete).
    pub const fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Appends a string (all of it, or nothing if it does not fit).
    pub const fn push_str(&mut self, s: &str) {
        let b = s.as_bytes();
        if self.len + b.len() > N {
            self.overflowed = true;
            return;
        }
        let mut i = 0;
        while i < b.len() {
            self.bytes[self.len + i] = b[i];
            i += 1;
        }
        self.len += b.len();
    }

    /// Appends one ASCII byte.
    pub const fn push_ascii(&mut self, c: u8) {
        if self.len >= N || !c.is_ascii() {
            self.overflowed = true;
            return;
        }
        self.bytes[self.len] = c;
        self.len += 1;
    }

    /// Appends a decimal integer.
    pub const fn push_u64(&mut self, mut v: u64) {
        let mut digits = [0u8; 20];
        let mut n = 0;
        loop {
            digits[n] = b'0' + (v % 10) as u8;
            n += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        if self.len + n > N {
            self.overflowed = true;
            return;
        }
        while n > 0 {
            n -= 1;
            self.bytes[self.len] = digits[n];
            self.len += 1;
        }
    }

    /// Appends a signed decimal integer.
    pub const fn push_i64(&mut self, v: i64) {
        if v < 0 {
            self.push_ascii(b'-');
        }
        self.push_u64(v.unsigned_abs());
    }

    /// Appends "expected X, found `c`", the syntax message both error
    /// types share; a space is written in words when `space_in_words`,
    /// any other byte that does not print as `other`.
    pub(crate) const fn push_expected_found(
        &mut self,
        expected: &str,
        found: u8,
        space_in_words: bool,
        other: &str,
    ) {
        self.push_str("expected ");
        self.push_str(expected);
        self.push_str(", found ");
        if found.is_ascii_graphic() || (found == b' ' && !space_in_words) {
            self.push_ascii(b'`');
            self.push_ascii(found);
            self.push_ascii(b'`');
        } else if found == b' ' {
            self.push_str("a space");
        } else {
            self.push_str(other);
        }
    }

    /// Appends "unexpected end of input, expected X".
    pub(crate) const fn push_unexpected_end(&mut self, expected: &str) {
        self.push_str("unexpected end of input, expected ");
        self.push_str(expected);
    }

    /// `message` followed by ` at byte N` when `span` has a position: what
    /// both error types' `describe` and `Display` print.
    pub(crate) const fn described<const M: usize>(message: &TextBuf<M>, span: Span) -> Self {
        let mut t = TextBuf::new();
        t.push_str(message.as_str());
        if !span.is_none() {
            t.push_str(" at byte ");
            t.push_u64(span.start as u64);
        }
        t
    }

    /// Builder form of [`TextBuf::push_str`].
    pub const fn str(mut self, s: &str) -> Self {
        self.push_str(s);
        self
    }

    /// Builder form of [`TextBuf::push_u64`].
    pub const fn u64(mut self, v: u64) -> Self {
        self.push_u64(v);
        self
    }
}

impl<const N: usize> core::fmt::Display for TextBuf<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<const N: usize> core::fmt::Debug for TextBuf<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_drops_whole_pushes() {
        let mut t = TextBuf::<4>::new();
        t.push_str("ab");
        t.push_u64(12345);
        assert_eq!(t.as_str(), "ab");
        assert!(t.overflowed());
        t.push_i64(-1);
        assert_eq!(t.as_str(), "ab-1");
    }

    #[test]
    fn extremes() {
        const T: TextBuf<64> = {
            let mut t = TextBuf::new();
            t.push_u64(u64::MAX);
            t.push_ascii(b' ');
            t.push_i64(i64::MIN);
            t
        };
        assert_eq!(T.as_str(), "18446744073709551615 -9223372036854775808");
    }
}

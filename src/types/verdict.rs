//! [`Verdict`]: what the compile-time checks of a layout type found, as a
//! value. The types' constants compute it without panicking, so that the
//! one panic, [`Verdict::check`], can happen in the user's code: in a
//! non-generic `const`, such as the one [`assert_layout!`](crate::assert_layout)
//! or [`assert_cute!`](crate::assert_cute) writes, rustc then reports a
//! single error at the user's line. The XLA layout types
//! ([`Layout::VERDICT`](crate::Layout::VERDICT)) and the CuTe layout types
//! ([`CuteType::VERDICT`](crate::CuteType::VERDICT)) share it.

use crate::value::TextBuf;

/// Capacity of a verdict's message: the type's canonical text (up to
/// 512 bytes) and the rule it breaks.
const CAP: usize = 1024;

/// Whether a layout type passes every compile-time check, and if not, a
/// message naming the type in its own notation and the rule it breaks.
///
/// # Examples
/// ```
/// use tilelayout::{Layout, Dims, Tiled, F32, T};
/// assert!(<Tiled<F32, Dims<3, 5>, T<2, 2>>>::VERDICT.is_ok());
/// let bad = <Tiled<F32, Dims<3, 5>, T<0, 2>>>::VERDICT;
/// assert_eq!(
///     bad.message(),
///     Some("invalid layout type f32[3,5]{1,0:T(0,2)}: tile 0 has a zero dim (dim 0); \
///           tile dims must be positive or `*`"),
/// );
/// ```
#[derive(Clone, Copy)]
pub struct Verdict {
    // Invariant: empty exactly when the type is valid.
    message: TextBuf<CAP>,
}

impl Verdict {
    /// The verdict of a valid type.
    pub const OK: Verdict = Verdict {
        message: TextBuf::new(),
    };

    /// A failed verdict: `parts` concatenated (an empty message is made
    /// non-empty, so that the verdict stays a failure). A message longer
    /// than the capacity keeps its beginning and ends in `…`.
    pub(crate) const fn fail(parts: &[&str]) -> Verdict {
        let mut message = TextBuf::new();
        let mut i = 0;
        while i < parts.len() {
            if !push_clipped(&mut message, parts[i]) {
                break;
            }
            i += 1;
        }
        if message.is_empty() {
            message.push_str("invalid layout type");
        }
        Verdict { message }
    }

    /// Whether every check passed.
    pub const fn is_ok(&self) -> bool {
        self.message.is_empty()
    }

    /// The message of a failed verdict.
    pub const fn message(&self) -> Option<&str> {
        if self.is_ok() {
            None
        } else {
            Some(self.message.as_str())
        }
    }

    /// Fails compilation with the message if the verdict is a failure.
    ///
    /// `#[track_caller]`: called in a non-generic `const` item, the error
    /// is reported there, at the caller's line, and nowhere else.
    ///
    /// ```compile_fail,E0080
    /// use tilelayout::{Layout, Dims, Tiled, F32, T};
    /// // error: invalid layout type f32[3,5]{1,0:T(0,2)}: tile 0 has a zero dim …
    /// const _: () = <Tiled<F32, Dims<3, 5>, T<0, 2>>>::VERDICT.check();
    /// ```
    #[track_caller]
    pub const fn check(self) {
        if !self.is_ok() {
            panic!("{}", self.message.as_str());
        }
    }
}

/// Appends `s`, or as much of it as fits with room for `…` and then `…`;
/// returns whether all of it fit.
const fn push_clipped(t: &mut TextBuf<CAP>, s: &str) -> bool {
    const ELLIPSIS: &str = "…";
    if t.len() + s.len() <= CAP {
        t.push_str(s);
        return true;
    }
    let mut end = CAP.saturating_sub(t.len() + ELLIPSIS.len());
    if end > s.len() {
        end = s.len();
    }
    while end > 0 && !s.is_char_boundary(end) {
        end -= 1;
    }
    t.push_str(s.split_at(end).0);
    t.push_str(ELLIPSIS);
    false
}

impl core::fmt::Debug for Verdict {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.message() {
            None => f.write_str("Verdict::OK"),
            Some(m) => f.debug_tuple("Verdict::Fail").field(&m).finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Verdict;

    #[test]
    fn ok_and_fail() {
        assert!(Verdict::OK.is_ok());
        assert_eq!(Verdict::OK.message(), None);
        let v = Verdict::fail(&["a", "b"]);
        assert!(!v.is_ok());
        assert_eq!(v.message(), Some("ab"));
        assert_eq!(Verdict::fail(&[]).message(), Some("invalid layout type"));
        assert_eq!(std::format!("{v:?}"), "Verdict::Fail(\"ab\")");
        const { Verdict::OK.check() };
    }

    #[test]
    fn a_long_message_keeps_its_beginning() {
        let long = "é".repeat(600); // 1200 bytes, two per char
        let v = Verdict::fail(&["Op<A>: ", &long, " never shown"]);
        let m = v.message().unwrap();
        assert!(m.starts_with("Op<A>: éé"), "{m}");
        assert!(m.ends_with("é…"), "{m}");
        assert!(
            m.len() <= super::CAP && m.len() > super::CAP - 8,
            "{}",
            m.len()
        );
        // a part that fits exactly is kept whole
        let exact = "x".repeat(super::CAP);
        assert_eq!(Verdict::fail(&[&exact]).message(), Some(exact.as_str()));
    }
}

//! Procedural macros for `tilelayout`. Use them through the `tilelayout`
//! crate, where they are documented.
#![forbid(unsafe_code)]

//! The `tilelayout` command (SPEC §6).
#![forbid(unsafe_code)]
fn main() {}

//! Fuzz target `runtime`: shape text through the runtime path (parse,
//! validate, sizes, tiling, offset/coords, print, views, a relayout to
//! row-major); the checks are in `checks/runtime.rs`, which
//! `tests/fuzz_regressions.rs` also runs on the committed corpus.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks/runtime.rs"]
mod check;

fuzz_target!(|data: &[u8]| check::check(data));

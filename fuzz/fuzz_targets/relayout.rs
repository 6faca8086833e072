//! Fuzz target `relayout`: the relayout planner and executor over fuzzed
//! layout pairs; the checks are in `checks/relayout.rs`, which
//! `tests/fuzz_regressions.rs` also runs on the committed corpus.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks/relayout.rs"]
mod check;

fuzz_target!(|data: &[u8]| check::check(data));

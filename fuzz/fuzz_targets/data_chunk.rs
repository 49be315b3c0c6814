//! Self-play data chunks against arbitrary bytes (invariants in `fuzz/checks.rs`).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check_data_chunk(data));

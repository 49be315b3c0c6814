//! Self-play data chunks against arbitrary bytes (invariants in `fuzz/checks_data.rs`).
#![no_main]

#[path = "../checks_data.rs"]
mod checks_data;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks_data::check_data_chunk(data));

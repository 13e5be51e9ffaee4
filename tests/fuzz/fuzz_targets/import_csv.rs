//! The CSV vote import; seeds: tests/fuzz/seeds/import_csv (every format × delimiter).
//! The body is `annosat_fuzz::import_csv` (src/lib.rs), which tests/regressions.rs also runs.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| annosat_fuzz::import_csv(data));

//! The bundled dataset decoder; seeds: tests/fuzz/seeds/bundle_decode.
//! The body is `annosat_fuzz::bundle_decode` (src/lib.rs), which tests/regressions.rs also runs.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| annosat_fuzz::bundle_decode(data));

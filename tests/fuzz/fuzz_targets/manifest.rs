//! The model-export readers; seeds: tests/fuzz/seeds/manifest (cut-down committed exports).
//! The body is `annosat_fuzz::manifest` (src/lib.rs), which tests/regressions.rs also runs.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| annosat_fuzz::manifest(data));

//! What the core's integration tests share: where the datasets are.

use std::path::PathBuf;

/// `ANNOSAT_DATA`, else `../shared/data` beside the checkout, else the download cache.
pub fn data_dir() -> PathBuf {
    if let Ok(d) = std::env::var("ANNOSAT_DATA") {
        return PathBuf::from(d);
    }
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    if shared.exists() {
        return shared;
    }
    let cache =
        PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cache/annosat/data");
    assert!(
        cache.exists(),
        "no datasets found: run scripts/fetch-data.sh (or set ANNOSAT_DATA)"
    );
    cache
}

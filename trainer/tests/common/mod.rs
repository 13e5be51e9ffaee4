//! Helpers shared by the trainer's integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The datasets: `$ANNOSAT_DATA`, else `../shared/data` beside the clone, else the download cache
/// that `scripts/fetch-data.sh` fills.
pub fn data_dir() -> PathBuf {
    if let Ok(d) = std::env::var("ANNOSAT_DATA") {
        return PathBuf::from(d);
    }
    let shared = repo_root().join("../shared/data");
    if shared.join("chaosnli_snli/votes.csv").exists() {
        return shared;
    }
    let cache =
        PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cache/annosat/data");
    assert!(
        cache.join("chaosnli_snli/votes.csv").exists(),
        "no datasets found: run scripts/fetch-data.sh (or set ANNOSAT_DATA)"
    );
    cache
}

/// Runs the `annosat` binary and returns stdout; panics with stderr on failure.
pub fn annosat(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_annosat"))
        .args(args)
        .output()
        .expect("run annosat");
    assert!(
        out.status.success(),
        "annosat {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs the numpy reference script; panics with a hint when numpy/scipy are missing.
pub fn numpy_reference(args: &[&str]) -> String {
    let script = repo_root().join("tests/reference/numpy_reference.py");
    let out = Command::new("python3")
        .arg(script)
        .args(args)
        .output()
        .expect("python3 is needed for the reference tests");
    assert!(
        out.status.success(),
        "numpy reference failed (install numpy and scipy: scripts/setup.sh): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

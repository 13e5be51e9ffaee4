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
    annosat_logged(args).0
}

/// Runs the `annosat` binary and returns stdout and stderr; panics with stderr on failure.
pub fn annosat_logged(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_annosat"))
        .args(args)
        .output()
        .expect("run annosat");
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "annosat {args:?} failed: {log}");
    (String::from_utf8(out.stdout).unwrap(), log)
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

/// ChaosNLI-SNLI's wide votes, each item's counts passed through `f(item index, counts)`, plus
/// `extra` rows, written to a temporary file.
pub fn snli_variant(
    name: &str,
    f: impl Fn(usize, Vec<u32>) -> Vec<u32>,
    extra: &[&str],
) -> std::path::PathBuf {
    let text = std::fs::read_to_string(data_dir().join("chaosnli_snli/votes.csv")).unwrap();
    let mut lines = text.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    for (i, line) in lines.enumerate() {
        let mut cells = line.split(',');
        let id = cells.next().unwrap();
        let counts: Vec<u32> = cells.map(|c| c.parse().unwrap()).collect();
        let c = f(i, counts);
        out += &format!(
            "{id},{}\n",
            c.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
        );
    }
    for row in extra {
        out += &format!("{row}\n");
    }
    let path = std::env::temp_dir().join(format!("annosat-{name}-{}.csv", std::process::id()));
    std::fs::write(&path, out).unwrap();
    path
}

/// `annosat curves --bootstrap 200 --format json` on a file.
pub fn curves_json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&annosat(&[
        "curves",
        "--votes",
        path.to_str().unwrap(),
        "--bootstrap",
        "200",
        "--format",
        "json",
    ]))
    .unwrap()
}

/// The head's hyperparameters as `sweep` flags (`--hidden … --patience`), from an export's `head`
/// object, so a test reruns exactly what was committed.
pub fn head_args(h: &serde_json::Value) -> Vec<String> {
    [
        "hidden",
        "lr",
        "weight_decay",
        "batch",
        "epochs",
        "patience",
    ]
    .iter()
    .flat_map(|k| [format!("--{}", k.replace('_', "-")), h[*k].to_string()])
    .collect()
}

/// Asserts annosat's mean `a` and numpy's `b` (each over its repeats) agree within 4.5 standard
/// errors of the difference of two independent means, plus float slack.
pub fn assert_same_mean(what: &str, (a, r_ours): (f64, f64), (b, r_np): (f64, f64), sd: f64) {
    let tol = 4.5 * sd * (1.0 / r_ours + 1.0 / r_np).sqrt() + 1e-9;
    assert!(
        (a - b).abs() <= tol,
        "{what}: annosat {a} vs numpy {b} (tol {tol})"
    );
}

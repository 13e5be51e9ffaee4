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
    reference("numpy_reference.py", args)
}

/// Runs `tests/reference/SCRIPT` with `args` and returns its output; panics with a hint when a
/// package it needs is missing.
pub fn reference(script: &str, args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg(repo_root().join("tests/reference").join(script))
        .args(args)
        .output()
        .expect("python3 is needed for the reference tests");
    assert!(
        out.status.success(),
        "{script} failed (scripts/setup.sh installs what the references need): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A reference script's JSON output.
pub fn reference_json(script: &str, args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&reference(script, args)).unwrap()
}

/// A dataset's votes.csv: the data folder's, else that of one brought in beside it
/// (../shared/incoming) before it moves there.
pub fn votes_of(name: &str) -> Option<PathBuf> {
    let incoming = repo_root().join("../shared/incoming");
    [data_dir(), incoming]
        .iter()
        .map(|d| d.join(name).join("votes.csv"))
        .find(|p| p.exists())
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
    curves_with(path.to_str().unwrap(), &["--bootstrap", "200"])
}

/// `annosat curves --votes VOTES <rest> --format json`, parsed.
pub fn curves_with(votes: &str, rest: &[&str]) -> serde_json::Value {
    curves_with_cmd("curves", votes, rest)
}

/// `annosat CMD --votes VOTES <rest> --format json`, parsed (`curves`, `ratings`).
pub fn curves_with_cmd(cmd: &str, votes: &str, rest: &[&str]) -> serde_json::Value {
    let args = [&[cmd, "--votes", votes][..], rest, &["--format", "json"]].concat();
    serde_json::from_str(&annosat(&args)).unwrap()
}

/// The sweep tests' short training: 2 model seeds, 3 epochs, patience 3.
pub const QUICK_TRAINING: [&str; 6] = ["--model-seeds", "2", "--epochs", "3", "--patience", "3"];

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

/// Compares annosat's curves (`ours`, `r_ours` repeats) with the numpy reference's (`theirs`,
/// `r_np` repeats) at every N of every metric: undefined where numpy says so, else the means within
/// 4.5 standard errors of the difference of two independent means, plus float slack. The standard
/// deviation is numpy's, or the larger of the two with `larger_sd`. Returns the points compared.
pub fn assert_curves_match(
    ours: &serde_json::Value,
    theirs: &serde_json::Value,
    metrics: &[&str],
    (r_ours, r_np): (f64, f64),
    larger_sd: bool,
) -> usize {
    let mut checked = 0;
    for metric in metrics {
        for p in ours["metrics"][metric].as_array().unwrap() {
            let n = p["n"].as_u64().unwrap().to_string();
            let t = &theirs[metric][&n];
            if t.is_null() {
                assert!(
                    p["mean"].is_null(),
                    "{metric} N={n}: numpy undefined, annosat {}",
                    p["mean"]
                );
                continue;
            }
            let (a, b) = (p["mean"].as_f64().unwrap(), t["mean"].as_f64().unwrap());
            let mut sd = t["sd"].as_f64().unwrap();
            if larger_sd {
                sd = sd.max(p["sd"].as_f64().unwrap_or(0.0));
            }
            let tol = 4.5 * sd * (1.0 / r_ours + 1.0 / r_np).sqrt() + 1e-9;
            assert!(
                (a - b).abs() <= tol,
                "{metric} N={n}: annosat {a} vs numpy {b} (tol {tol})"
            );
            checked += 1;
        }
    }
    checked
}

/// `annosat synth --out OUT --items 60 --votes 10 --dim 4` and `rest`: the small synthetic folder
/// (features of its own, no encoder needed) the sweep tests train on.
pub fn small_synth(out: &std::path::Path, rest: &[&str]) {
    let base = ["synth", "--out", out.to_str().unwrap()];
    let size = ["--items", "60", "--votes", "10", "--dim", "4"];
    annosat(&[&base[..], &size, rest].concat());
}

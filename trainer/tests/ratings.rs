//! `annosat ratings` against an independent numpy/scipy implementation
//! (tests/reference/numpy_ratings.py): the rating curves' means within Monte-Carlo error at every N
//! on POPQUORN (1–5 offensiveness, 5–10 raters per item) and KonIQ-10k (1–5 image quality, 93–157
//! raters per image), and the closed-form RMSE against the subsampled one.

mod common;
use common::*;
use std::path::PathBuf;

const METRICS: [&str; 5] = [
    "mean_error",
    "mean_rmse",
    "reliability",
    "rank_corr",
    "wasserstein",
];

fn numpy_ratings(args: &[&str]) -> serde_json::Value {
    let out = std::process::Command::new("python3")
        .arg(repo_root().join("tests/reference/numpy_ratings.py"))
        .args(args)
        .output()
        .expect("python3 is needed for the reference tests");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A dataset folder's votes: the data folder's, else one brought in beside it (../shared/incoming).
fn votes_of(name: &str) -> Option<PathBuf> {
    let incoming = repo_root().join("../shared/incoming");
    [data_dir(), incoming]
        .iter()
        .map(|d| d.join(name).join("votes.csv"))
        .find(|p| p.exists())
}

/// annosat's means (100 repeats) and numpy's (200) at every N of `grid`, within 4.5 standard
/// errors; the closed-form RMSE within 3 standard errors of annosat's mean squared error.
fn agrees_with_numpy(name: &str, grid: &str) {
    let Some(votes) = votes_of(name) else {
        eprintln!("skipped: no {name} votes");
        return;
    };
    let votes = votes.to_str().unwrap();
    let ours = curves_with_cmd("ratings", votes, &["--n", grid, "--repeats", "100"]);
    let theirs = numpy_ratings(&["curves", votes, "--n", grid, "--repeats", "200"]);
    assert!(theirs["scipy_wasserstein_checked"].as_u64().unwrap() > 0);
    let checked = assert_curves_match(&ours, &theirs, &METRICS, (100.0, 200.0), false);
    let points = grid.split(',').count() * METRICS.len();
    // Reliability is undefined with one rater; everything else is compared.
    assert_eq!(checked, points - 1, "{name}");
    println!("{name}: {checked} points agree with numpy/scipy");
}

#[test]
fn popquorn_rating_curves_agree_with_numpy() {
    agrees_with_numpy("popquorn_offensiveness", "1,2,3,5,8,10");
}

#[test]
fn koniq_rating_curves_agree_with_numpy() {
    agrees_with_numpy("koniq10k", "1,2,5,10,20,50,93");
}

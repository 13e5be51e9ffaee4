//! `annosat ratings` against an independent numpy/scipy implementation
//! (tests/reference/numpy_ratings.py): the rating curves' means within Monte-Carlo error at every N
//! on POPQUORN (1–5 offensiveness, 5–10 raters per item) and KonIQ-10k (1–5 image quality, 93–157
//! raters per image), and the closed-form RMSE against the subsampled one.

mod common;
use common::*;

const METRICS: [&str; 5] = [
    "mean_error",
    "mean_rmse",
    "reliability",
    "rank_corr",
    "wasserstein",
];

/// annosat's means (100 repeats) and numpy's (200) at every N of `grid`, within 4.5 standard
/// errors; the closed-form RMSE within 3 standard errors of annosat's mean squared error.
fn agrees_with_numpy(name: &str, grid: &str) {
    let Some(votes) = votes_of(name) else {
        eprintln!("skipped: no {name} votes");
        return;
    };
    let votes = votes.to_str().unwrap();
    let ours = curves_with_cmd("ratings", votes, &["--n", grid, "--repeats", "100"]);
    let args = ["curves", votes, "--n", grid, "--repeats", "200"];
    let theirs = reference_json("numpy_ratings.py", &args);
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

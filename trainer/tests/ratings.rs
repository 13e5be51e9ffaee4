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
    // kRR at every k with 2k in the grid.
    let krr = assert_curves_match(&ours, &theirs, &["krr"], (100.0, 200.0), false);
    let even = grid
        .split(',')
        .filter(|n| n.parse::<u32>().unwrap() % 2 == 0)
        .count();
    assert_eq!(krr, even, "{name}: kRR");
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

/// POPQUORN's items with exactly 10 ratings (a balanced table, as pingouin needs): the
/// single-rater ICC(1), the Spearman–Brown prediction at 10 and the measured reliability of all
/// 10 ratings equal pingouin's ICC1 and ICC1k to 1e-9.
#[test]
fn icc_and_spearman_brown_equal_pingouin_on_balanced_items() {
    let Some(votes) = votes_of("popquorn_offensiveness") else {
        eprintln!("skipped: no POPQUORN votes");
        return;
    };
    let text = std::fs::read_to_string(votes).unwrap();
    let mut lines = text.lines();
    let mut balanced = format!("{}\n", lines.next().unwrap());
    for line in lines {
        let total: u32 = line
            .split(',')
            .skip(1)
            .map(|c| c.parse::<u32>().unwrap())
            .sum();
        if total == 10 {
            balanced += &format!("{line}\n");
        }
    }
    let path = std::env::temp_dir().join(format!("annosat-pq10-{}.csv", std::process::id()));
    std::fs::write(&path, balanced).unwrap();
    let p = path.to_str().unwrap();
    let ours = curves_with_cmd("ratings", p, &["--n", "10", "--repeats", "1"]);
    let theirs = reference_json("numpy_ratings.py", &["icc", p]);
    std::fs::remove_file(&path).ok();
    let close = |a: &serde_json::Value, b: &serde_json::Value, what: &str| {
        let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
        assert!((a - b).abs() < 1e-9, "{what}: annosat {a}, pingouin {b}");
    };
    close(&ours["icc1"], &theirs["icc1"], "ICC(1)");
    close(
        &ours["spearman_brown"][0],
        &theirs["icc1k"],
        "Spearman–Brown at 10",
    );
    close(
        &ours["metrics"]["reliability"][0]["mean"],
        &theirs["icc1k"],
        "ICC(1,k) of all 10 ratings",
    );
}

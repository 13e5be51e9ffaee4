//! `annosat adaptive` on real data: the CSV's shape, uniform's paired difference with itself, the
//! summary on stderr, and the errors a user can cause.

mod common;
use common::*;
use std::process::Command;

#[test]
fn adaptive_on_snli_prints_every_policy_metric_and_budget() {
    let votes = data_dir().join("chaosnli_snli/votes.csv");
    let votes = votes.to_str().unwrap();
    let (csv, log) =
        annosat_logged(&["adaptive", "--votes", votes, "--n", "5,8", "--repeats", "4"]);
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    // 2 budgets × 3 policies × 4 metrics.
    assert_eq!(rows.len(), 24, "{csv}");
    for r in &rows {
        assert_eq!(r.len(), 9);
        if r[1] == "uniform" {
            assert_eq!(&r[6..], &["0", "0", "0"], "uniform minus itself: {r:?}");
        }
    }
    assert!(log.contains("1514 items with at least 3 votes"), "{log}");
    assert!(
        log.contains("disagreement vs uniform, majority_agreement: better at budgets"),
        "{log}"
    );
}

#[test]
fn adaptive_explains_what_it_cannot_do() {
    let votes = data_dir().join("chaosnli_snli/votes.csv");
    let votes = votes.to_str().unwrap();
    let err = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_annosat"))
            .args(["adaptive", "--votes", votes])
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(err(&["--n", "3"]).contains("is not above n0 = 3"));
    assert!(err(&["--n", "101"]).contains("needs more votes than the 1514 items have"));
    assert!(err(&["--policies", "random"]).contains("unknown policy"));
    assert!(err(&["--n0", "1", "--n", "4"]).contains("needs 2"));
}

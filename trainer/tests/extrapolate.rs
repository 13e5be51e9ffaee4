//! `annosat extrapolate` on real data: the prior against scipy, and the extrapolation against what
//! data with the votes really give (docs/plan.md's validation table comes from the same command,
//! scripts/extrapolation-check.sh).

mod common;
use common::*;

#[test]
fn the_prior_is_scipys_maximum_likelihood() {
    // ChaosNLI-SNLI's original five SNLI votes per item: real sparse data.
    let votes = data_dir().join("chaosnli_snli/votes_old5.csv");
    let votes = votes.to_str().unwrap();
    let ours: serde_json::Value = serde_json::from_str(&annosat(&[
        "extrapolate",
        "--votes",
        votes,
        "--reference-votes",
        "20",
        "--n",
        "5",
        "--repeats",
        "2",
        "--draws",
        "1",
        "--components",
        "1",
        "--bootstrap",
        "0",
        "--format",
        "json",
    ]))
    .unwrap();
    let theirs: serde_json::Value =
        serde_json::from_str(&numpy_reference(&["dirichlet", votes])).unwrap();
    assert_eq!(ours["prior"]["converged"], true);
    let (a, b) = (&ours["prior"]["components"][0]["alpha"], &theirs["alpha"]);
    for k in 0..3 {
        let (x, y) = (a[k].as_f64().unwrap(), b[k].as_f64().unwrap());
        assert!(
            (x / y - 1.0).abs() < 1e-4,
            "alpha[{k}]: annosat {x} vs scipy {y}"
        );
    }
    let (l1, l2) = (
        ours["prior"]["log_likelihood"].as_f64().unwrap(),
        theirs["log_likelihood"].as_f64().unwrap(),
    );
    assert!((l1 - l2).abs() < 1e-6 * l2.abs(), "{l1} vs {l2}");
}

fn snli_votes() -> String {
    let votes = data_dir().join("chaosnli_snli/votes.csv");
    votes.to_str().unwrap().to_string()
}

/// `annosat extrapolate --votes SNLI --reference-votes 100 --check M`.
fn check_snli<'a>(votes: &'a str, m: &'a str) -> [&'a str; 7] {
    [
        "extrapolate",
        "--votes",
        votes,
        "--reference-votes",
        "100",
        "--check",
        m,
    ]
}

/// ChaosNLI-SNLI cut to 10 votes per item and extrapolated back to its 100: KL and JS distance
/// within 15% of the full data's curves at every N checked.
#[test]
fn ten_votes_extrapolate_to_a_hundred_within_15_percent_on_snli() {
    let votes = snli_votes();
    let out = annosat(
        &[
            &check_snli(&votes, "10")[..],
            &["--n", "2,5,10,20,50", "--repeats", "20", "--bootstrap", "0"],
        ]
        .concat(),
    );
    let mut checked = 0;
    for line in out.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (metric, m, n) = (f[0], f[1], f[2]);
        assert_eq!(m, "10");
        if metric == "kl" || metric == "jsd" {
            let e: f64 = f[5].parse().unwrap();
            assert!(e.abs() <= 0.15, "{metric} N={n}: relative error {e}");
            checked += 1;
        }
    }
    assert_eq!(checked, 10, "{out}");
}

#[test]
fn says_what_is_wrong_with_a_check() {
    let votes = snli_votes();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_annosat"))
        .args(check_snli(&votes, "100"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("below --reference-votes"), "{err}");
}

/// The mixture annosat fits to ChaosNLI-αNLI (BIC's choice): its log-likelihood recomputed with
/// scipy's gammaln/logsumexp, and scipy's L-BFGS-B, started there, finds almost nothing more.
#[test]
fn the_mixture_is_a_maximum_scipy_agrees_with() {
    let votes = data_dir().join("chaosnli_alphanli/votes.csv");
    let votes = votes.to_str().unwrap();
    let out = annosat(&[
        "extrapolate",
        "--votes",
        votes,
        "--reference-votes",
        "100",
        "--n",
        "2",
        "--repeats",
        "2",
        "--draws",
        "1",
        "--bootstrap",
        "0",
        "--format",
        "json",
    ]);
    let ours: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(ours["prior"]["components"].as_array().unwrap().len() >= 2);
    let path = std::env::temp_dir().join(format!("annosat-mixture-{}.json", std::process::id()));
    std::fs::write(&path, &out).unwrap();
    let theirs: serde_json::Value = serde_json::from_str(&numpy_reference(&[
        "mixture",
        votes,
        path.to_str().unwrap(),
    ]))
    .unwrap();
    std::fs::remove_file(&path).ok();
    let (l1, l2) = (
        ours["prior"]["log_likelihood"].as_f64().unwrap(),
        theirs["log_likelihood"].as_f64().unwrap(),
    );
    assert!((l1 - l2).abs() < 1e-9 * l2.abs(), "{l1} vs {l2}");
    let gain = theirs["improved"].as_f64().unwrap();
    assert!(gain < 1.0, "scipy raised the log-likelihood by {gain}");
}

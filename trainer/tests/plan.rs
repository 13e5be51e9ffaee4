//! `annosat plan` on ChaosNLI-SNLI's committed head features: the points that fit the budget, a
//! model that beats the constant predictor in KL, and the frontier's shape.

mod common;
use common::*;

/// `annosat plan --format json` with a budget of 1,000 votes on one of ChaosNLI-SNLI's vote files
/// and its committed head features, and `extra` flags: the report and stderr.
fn plan_json(votes: &str, extra: &[&str]) -> (serde_json::Value, String) {
    let votes = data_dir().join("chaosnli_snli").join(votes);
    let features = repo_root().join("public/models/chaosnli_snli/features.safetensors");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_annosat"))
        .args([
            "plan",
            "--votes",
            votes.to_str().unwrap(),
            "--head-features",
        ])
        .arg(features)
        .args(["--budgets", "1000", "--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{log}");
    (serde_json::from_slice(&out.stdout).unwrap(), log)
}

#[test]
fn plan_trains_budget_points_that_beat_the_constant_predictor() {
    let (out, _) = plan_json("votes.csv", &["--n", "1,5,10,2000", "--model-seeds", "2"]);
    // N = 2000 needs more votes than an item has: three (items, N) points × two seeds.
    assert_eq!(out["points"].as_array().unwrap().len(), 3);
    let runs = out["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 6);
    for p in runs {
        assert_eq!(
            p["items"].as_u64().unwrap() * p["n"].as_u64().unwrap(),
            1000
        );
    }
    let constant = out["constant"]["kl"].as_f64().unwrap();
    let best = out["frontier"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["metric"] == "kl")
        .unwrap();
    assert_eq!(best["budget"], 1000);
    // The target side at each N asked for: KL of p_N falls with N; N = 2000, past the 100 votes
    // each item has, makes it extrapolated (to 2000 votes per item).
    let t = out["target"].as_array().unwrap();
    assert_eq!(t.len(), 4);
    assert!(t[0]["kl"].as_f64().unwrap() > t[2]["kl"].as_f64().unwrap());
    assert_eq!(t[3]["extrapolated_to"], 2000);
    assert!(
        best["spread"]["mean"].as_f64().unwrap() < constant,
        "best KL {best} vs the constant predictor's {constant}"
    );
}

/// With 5 votes per item (ChaosNLI-SNLI's original SNLI votes) the model side stops at N = 5; the
/// target side goes on to N = 100, extrapolated (and says so).
#[test]
fn plan_on_five_votes_extrapolates_the_target_side() {
    let (r, log) = plan_json("votes_old5.csv", &["--model-seeds", "1"]);
    let ns: Vec<u64> = r["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[2].as_u64().unwrap())
        .collect();
    assert!(ns.iter().all(|&n| n <= 5), "{ns:?}");
    let t = r["target"].as_array().unwrap();
    let last = t.last().unwrap();
    assert_eq!(last["n"], 100);
    assert_eq!(last["extrapolated_to"], 100);
    assert!(last["kl"].as_f64().unwrap() < t[0]["kl"].as_f64().unwrap());
    assert!(log.contains("extrapolated"));
}

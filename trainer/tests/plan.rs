//! `annosat plan` on ChaosNLI-SNLI's committed head features: the points that fit the budget, a
//! model that beats the constant predictor in KL, and the frontier's shape.

mod common;
use common::*;

#[test]
fn plan_trains_budget_points_that_beat_the_constant_predictor() {
    let votes = data_dir().join("chaosnli_snli/votes.csv");
    let features = repo_root().join("public/models/chaosnli_snli/features.safetensors");
    let out: serde_json::Value = serde_json::from_str(&annosat(&[
        "plan",
        "--votes",
        votes.to_str().unwrap(),
        "--head-features",
        features.to_str().unwrap(),
        "--budgets",
        "1000",
        "--n",
        "1,5,10,2000",
        "--seeds",
        "2",
        "--format",
        "json",
    ]))
    .unwrap();
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
    // The target side at each N of the points: KL of p_N falls with N.
    let t = out["target"].as_array().unwrap();
    assert_eq!(t.len(), 3);
    assert!(t[0]["kl"].as_f64().unwrap() > t[2]["kl"].as_f64().unwrap());
    assert!(
        best["spread"]["mean"].as_f64().unwrap() < constant,
        "best KL {best} vs the constant predictor's {constant}"
    );
}

//! What `annosat curves` and `annosat extrapolate` answer: item intervals in the JSON, the
//! bounded-by-votes mark and the extrapolated headline for data with few votes, ε-points, and the
//! extrapolation check's 90% points.

mod common;
use common::*;
use serde_json::Value;
use std::process::Command;

const METRICS: [&str; 4] = ["jsd", "entropy_corr", "kl", "majority_agreement"];

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&annosat(args)).unwrap()
}

#[test]
fn curves_json_carries_item_intervals_and_tolerances() {
    let votes = data_dir().join("chaosnli_snli/votes.csv");
    let v = votes.to_str().unwrap();
    let out = json(&[
        "curves",
        "--votes",
        v,
        "--bootstrap",
        "200",
        "--format",
        "json",
    ]);
    assert_eq!(out["bootstrap"]["resamples"], 200);
    assert_eq!(out["bootstrap"]["blocks"], false);
    for m in METRICS {
        let s = &out["saturation"][m];
        let (n, lo, hi) = (
            s["n"].as_u64().unwrap(),
            s["items"]["lo"].as_u64().unwrap(),
            s["items"]["hi"].as_u64().unwrap(),
        );
        assert!(lo <= n && n <= hi, "{m}: {n} outside {lo}–{hi}");
        assert_eq!(s["items"]["resamples"], 200);
        // 100 votes per item: the data's own point is the ChaosNLI convention's answer.
        assert_eq!(s["bounded_by_votes"], false, "{m}");
        assert_eq!(out["headline"][m]["extrapolated"], false);
        let p = &out["metrics"][m][9];
        if p["mean"].is_number() {
            let (mean, ilo, ihi) = (
                p["mean"].as_f64().unwrap(),
                p["items_lo"].as_f64().unwrap(),
                p["items_hi"].as_f64().unwrap(),
            );
            assert!(
                ilo <= mean && mean <= ihi,
                "{m} N=10: {mean} outside {ilo}–{ihi}"
            );
        }
        let w = &out["within"][m];
        assert!(w["eps"].is_number() && w["n"].is_number(), "{m}: {w}");
    }
    // --within moves the ε and with it the point; --bootstrap 0 drops the item intervals.
    let tight = json(&[
        "curves",
        "--votes",
        v,
        "--within",
        "kl=0.02",
        "--bootstrap",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(tight["within"]["kl"]["eps"], 0.02);
    assert!(tight["within"]["kl"]["n"].as_u64() > out["within"]["kl"]["n"].as_u64());
    assert!(tight["saturation"]["kl"]["items"].is_null());
    assert!(tight["bootstrap"].is_null());
    // The same numbers as without --within for everything else.
    assert_eq!(tight["saturation"]["kl"]["n"], out["saturation"]["kl"]["n"]);
}

#[test]
fn ten_votes_are_bounded_and_the_headline_is_extrapolated() {
    let votes = data_dir().join("snow2008_rte/votes.csv");
    let v = votes.to_str().unwrap();
    let out = json(&["curves", "--votes", v, "--format", "json"]);
    let mut bounded = 0;
    for m in METRICS {
        let h = &out["headline"][m];
        if out["saturation"][m]["bounded_by_votes"] == true {
            bounded += 1;
            assert_eq!(h["extrapolated"], true, "{m}");
            assert_eq!(h["reference_votes"], 100);
            let s = h["sentence"].as_str().unwrap();
            assert!(s.contains("if every item had 100 votes"), "{s}");
            assert!(s.contains("bounded by your 10 votes"), "{s}");
            let (n, lo, hi) = (
                h["n"].as_u64().unwrap(),
                h["items"]["lo"].as_u64().unwrap(),
                h["items"]["hi"].as_u64().unwrap(),
            );
            assert!(lo <= n && n <= hi && n > 10, "{m}: {n} ({lo}–{hi})");
        }
    }
    assert!(bounded >= 3, "{bounded}");
    // Without the extrapolation the sentence says so in words, and no number past the votes.
    let plain = json(&[
        "curves",
        "--votes",
        v,
        "--no-extrapolate",
        "--bootstrap",
        "0",
        "--format",
        "json",
    ]);
    let s = plain["headline"]["kl"]["sentence"].as_str().unwrap();
    assert!(s.contains("bounded by your 10 votes"), "{s}");
    assert_eq!(plain["headline"]["kl"]["extrapolated"], false);
}

#[test]
fn extrapolate_json_has_item_intervals_and_the_check_has_points() {
    let votes = data_dir().join("chaosnli_snli/votes_old5.csv");
    let v = votes.to_str().unwrap();
    let out = json(&[
        "extrapolate",
        "--votes",
        v,
        "--reference-votes",
        "40",
        "--repeats",
        "8",
        "--draws",
        "2",
        "--bootstrap",
        "20",
        "--format",
        "json",
    ]);
    for m in METRICS {
        assert_eq!(out["saturation"][m]["items"]["resamples"], 20, "{m}");
    }
    let dense = data_dir().join("chaosnli_snli/votes.csv");
    let check = json(&[
        "extrapolate",
        "--votes",
        dense.to_str().unwrap(),
        "--reference-votes",
        "100",
        "--check",
        "10",
        "--check-seeds",
        "2",
        "--repeats",
        "8",
        "--bootstrap",
        "20",
        "--n",
        "5",
        "--format",
        "json",
    ]);
    let points = check["points"].as_array().unwrap();
    assert_eq!(points.len(), 4 * 2);
    for p in points {
        assert!(
            p["actual"].is_number() && p["extrapolated"].is_number(),
            "{p}"
        );
        assert!(p["contained"].is_boolean(), "{p}");
    }
    // The KL point extrapolated from 10 votes is within 2 of the full data's.
    for p in points.iter().filter(|p| p["metric"] == "kl") {
        assert!(p["error"].as_i64().unwrap().abs() <= 2, "{p}");
    }
}

#[test]
fn a_bad_tolerance_is_named() {
    let votes = data_dir().join("snow2008_rte/votes.csv");
    let out = Command::new(env!("CARGO_BIN_EXE_annosat"))
        .args([
            "curves",
            "--votes",
            votes.to_str().unwrap(),
            "--within",
            "kll=0.1",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a metric"), "{err}");
}

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
            assert!(s.contains("extrapolated from your 10 votes to 100"), "{s}");
            // One short sentence, with how often such intervals held the truth.
            assert!(s.split_whitespace().count() <= 30, "{s}");
            assert!(s.contains("held the truth in"), "{s}");
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
        // The product's interval holds the item bootstrap's and its own point.
        let (lo, ilo, e) = (
            p["lo"].as_u64().unwrap(),
            p["items_lo"].as_u64().unwrap(),
            p["extrapolated"].as_u64().unwrap(),
        );
        assert!(lo <= ilo && lo <= e, "{p}");
        if let (Some(hi), Some(ihi)) = (p["hi"].as_u64(), p["items_hi"].as_u64()) {
            assert!(hi >= ihi && hi >= e, "{p}");
        }
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

#[test]
fn one_item_with_ten_times_the_votes_moves_no_answer_past_its_interval() {
    let plain = data_dir().join("chaosnli_snli/votes.csv");
    let before = curves_json(&plain);
    let outlier = snli_variant("outlier", |_, c| c, &["made-up,400,350,250"]);
    let after = curves_json(&outlier);
    assert_eq!(after["metrics"]["kl"].as_array().unwrap().len(), 100);
    for m in METRICS {
        let (b, a) = (&before["saturation"][m], &after["saturation"][m]);
        let n = a["n"].as_u64().expect("reached");
        let (lo, hi) = (
            b["items"]["lo"].as_u64().unwrap(),
            b["items"]["hi"].as_u64().unwrap(),
        );
        assert!(lo <= n && n <= hi, "{m}: {n} outside {lo}–{hi}");
    }
    std::fs::remove_file(outlier).ok();
}

#[test]
fn a_ragged_file_is_read_against_the_count_most_items_reach() {
    // 63–78 votes per item: each item keeps the first `63 + i % 16` of its votes, class by class.
    let ragged = snli_variant(
        "ragged",
        |i, c| {
            let mut keep = 63 + (i % 16) as u32;
            c.into_iter()
                .map(|x| {
                    let k = x.min(keep);
                    keep -= k;
                    k
                })
                .collect()
        },
        &[],
    );
    let out = curves_json(&ragged);
    let grid_end = out["metrics"]["kl"].as_array().unwrap().len() as u64;
    assert!((63..=67).contains(&grid_end), "{grid_end}");
    for m in METRICS {
        let s = &out["saturation"][m];
        assert!(s["items"]["hi"].is_number(), "{m}: {s}");
    }
    std::fs::remove_file(ragged).ok();
}

#[test]
fn two_items_get_no_number_past_their_votes() {
    let path = std::env::temp_dir().join(format!("annosat-two-{}.csv", std::process::id()));
    std::fs::write(&path, "item_id,a,b\ni1,1,1\ni2,2,0\n").unwrap();
    let out = json(&[
        "curves",
        "--votes",
        path.to_str().unwrap(),
        "--format",
        "json",
    ]);
    for m in METRICS {
        let h = &out["headline"][m];
        assert_eq!(h["extrapolated"], false, "{m}");
        let s = h["sentence"].as_str().unwrap();
        if out["saturation"][m]["bounded_by_votes"] == true {
            assert!(s.contains("2 items are too few"), "{s}");
        }
    }
    std::fs::remove_file(path).ok();
}

#[test]
fn crossed_intervals_hold_the_item_intervals_and_need_annotator_ids() {
    let dir = data_dir().join("snow2008_rte");
    let long = dir.join("annotations.csv");
    let run = |how: &str| {
        json(&[
            "curves",
            "--votes",
            long.to_str().unwrap(),
            "--resample",
            how,
            "--no-extrapolate",
            "--format",
            "json",
        ])
    };
    let (items, crossed) = (run("items"), run("crossed"));
    assert_eq!(crossed["bootstrap"]["over"], "items and annotators");
    assert_eq!(items["bootstrap"]["over"], "items");
    // Crossed is the default for a file that says who voted, items for a count file.
    let default = json(&[
        "curves",
        "--votes",
        long.to_str().unwrap(),
        "--no-extrapolate",
        "--format",
        "json",
    ]);
    assert_eq!(default["saturation"], crossed["saturation"]);
    let counts = json(&[
        "curves",
        "--votes",
        dir.join("votes.csv").to_str().unwrap(),
        "--no-extrapolate",
        "--format",
        "json",
    ]);
    assert_eq!(counts["bootstrap"]["over"], "items");
    for m in METRICS {
        let (a, b) = (
            &items["saturation"][m]["items"],
            &crossed["saturation"][m]["items"],
        );
        assert_eq!(
            items["saturation"][m]["n"], crossed["saturation"][m]["n"],
            "{m}"
        );
        assert!(
            b["lo_n"].as_f64() <= a["lo_n"].as_f64(),
            "{m}: {b} inside {a}?"
        );
        assert!(
            b["hi_n"].as_f64() >= a["hi_n"].as_f64(),
            "{m}: {b} inside {a}?"
        );
    }
    // Counts say nothing of who voted.
    let out = Command::new(env!("CARGO_BIN_EXE_annosat"))
        .args(["curves", "--votes", dir.join("votes.csv").to_str().unwrap()])
        .args(["--resample", "crossed"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs to know who gave each vote"));
}

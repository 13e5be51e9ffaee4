//! `annosat agree` and `annosat aggregate` against independent implementations on real datasets:
//! α against the PyPI package `krippendorff` (nominal, ordinal, interval), Dawid–Skene against
//! PyPI's `crowd-kit` item by item.

mod common;
use common::*;
use std::process::Command;

#[test]
fn alpha_of_all_votes_equals_the_krippendorff_package() {
    let script = repo_root().join("tests/reference/krippendorff_reference.py");
    for name in ["chaosnli_snli", "chaosnli_alphanli", "cifar10h"] {
        let votes = data_dir().join(name).join("votes.csv");
        if !votes.exists() {
            continue;
        }
        let votes = votes.to_str().unwrap();
        let ours: serde_json::Value = serde_json::from_str(&annosat(&[
            "agree",
            "--votes",
            votes,
            "--n",
            "2,5",
            "--repeats",
            "3",
            "--format",
            "json",
        ]))
        .unwrap();
        let theirs = python(&script, &[votes, "--level", "nominal"]);
        let (a, b) = (
            ours["full"].as_f64().unwrap(),
            theirs["alpha"].as_f64().unwrap(),
        );
        assert!(
            (a - b).abs() < 1e-9,
            "{name}: annosat {a} vs krippendorff {b}"
        );
        // Subsamples of N votes agree less often by chance alone: α at N=2 is defined and in range.
        let p = &ours["points"][0];
        assert_eq!(p["n"], 2);
        let m = p["mean"].as_f64().unwrap();
        assert!((-1.0..=1.0).contains(&m), "{name}: {m}");
    }
}

/// Runs a reference script; panics with a hint when its packages are missing.
fn python(script: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let out = Command::new("python3")
        .arg(script)
        .args(args)
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{} failed (scripts/setup.sh installs its packages): {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Ordinal and interval α on PopQuorn's 1–5 offensiveness ratings (and ordinal on a 4-class set),
/// all votes and the package's, to 1e-9.
#[test]
fn ordinal_and_interval_alpha_equal_the_krippendorff_package() {
    let script = repo_root().join("tests/reference/krippendorff_reference.py");
    let mut checked = 0;
    for (name, levels) in [
        ("popquorn_offensiveness", &["ordinal", "interval"][..]),
        ("crowdti_dogs", &["ordinal"][..]),
    ] {
        let votes = data_dir().join(name).join("votes.csv");
        if !votes.exists() {
            continue;
        }
        let votes = votes.to_str().unwrap();
        for level in levels {
            let ours: serde_json::Value = serde_json::from_str(&annosat(&[
                "agree",
                "--votes",
                votes,
                "--n",
                "2",
                "--repeats",
                "2",
                "--level",
                level,
                "--format",
                "json",
            ]))
            .unwrap();
            let theirs = python(&script, &[votes, "--level", level]);
            let (a, b) = (
                ours["full"].as_f64().unwrap(),
                theirs["alpha"].as_f64().unwrap(),
            );
            assert!(
                (a - b).abs() < 1e-9,
                "{name} {level}: annosat {a} vs krippendorff {b}"
            );
            assert_eq!(ours["level"], *level);
            checked += 1;
        }
    }
    assert!(checked > 0, "no dataset with ordered classes found");
}

/// Dawid–Skene on all votes, item by item against crowd-kit's DawidSkene (same EM, start, clip and
/// stopping rule): the same number of EM rounds and posteriors within 1e-9.
#[test]
fn dawid_skene_equals_crowd_kit() {
    let script = repo_root().join("tests/reference/crowdkit_reference.py");
    let mut checked = 0;
    for name in ["snow2008_rte", "crowdti_dogs", "sentiment_popularity_amt"] {
        let anns = data_dir().join(name).join("annotations.csv");
        if !anns.exists() {
            continue;
        }
        let anns = anns.to_str().unwrap();
        let (stdout, log) =
            annosat_logged(&["aggregate", "--votes", anns, "--method", "dawid-skene"]);
        let rounds: u64 = log
            .split("Dawid–Skene: ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no EM rounds in {log}"));
        let theirs = python(&script, &[anns]);
        assert_eq!(
            rounds,
            theirs["iterations"].as_u64().unwrap(),
            "{name}: EM rounds"
        );
        let mut rdr = csv::Reader::from_reader(stdout.as_bytes());
        let header: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
        let mut worst = 0.0f64;
        let mut items = 0;
        for row in rdr.records() {
            let row = row.unwrap();
            let theirs_item = &theirs["items"][&row[0]];
            for (j, col) in header.iter().enumerate().skip(2) {
                let class = col.strip_prefix("p_").unwrap();
                let ours: f64 = row[j].parse().unwrap();
                // crowd-kit clips posteriors at 1e-10 and has no column for unused classes.
                let t = theirs_item[class].as_f64().unwrap_or(0.0);
                worst = worst.max((ours - t).abs());
            }
            items += 1;
        }
        assert_eq!(items, theirs["items"].as_object().unwrap().len(), "{name}");
        assert!(worst < 1e-9, "{name}: largest posterior difference {worst}");
        eprintln!("{name}: {items} items, {rounds} EM rounds, largest difference {worst:e}");
        checked += 1;
    }
    assert!(checked > 0, "no dataset with annotator ids found");
}

/// With annotator ids, `agree` gives majority vote's and Dawid–Skene's match with their full-data
/// labels: 1 with every vote, less with one.
#[test]
fn aggregation_curves_reach_one_with_every_vote() {
    let anns = data_dir().join("snow2008_rte/annotations.csv");
    if !anns.exists() {
        return;
    }
    let csv = annosat(&[
        "agree",
        "--votes",
        anns.to_str().unwrap(),
        "--n",
        "1,10",
        "--repeats",
        "5",
    ]);
    let get = |n: &str, m: &str| -> f64 {
        csv.lines()
            .find(|l| l.starts_with(&format!("{n},{m},")))
            .unwrap_or_else(|| panic!("no {n},{m} in {csv}"))
            .split(',')
            .nth(2)
            .unwrap()
            .parse()
            .unwrap()
    };
    for m in ["majority_match", "dawid_skene_match"] {
        assert_eq!(get("10", m), 1.0, "{m}");
        assert!(get("1", m) < 0.95, "{m}");
    }
}

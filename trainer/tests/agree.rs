//! `annosat agree` against the PyPI package `krippendorff` on real datasets' full votes.

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
        let out = Command::new("python3")
            .arg(&script)
            .arg(votes)
            .output()
            .expect("python3");
        assert!(
            out.status.success(),
            "krippendorff reference failed (scripts/setup.sh installs the package): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let theirs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
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

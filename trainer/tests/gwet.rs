//! Gwet's AC1 and AC2 of all the votes (`annosat agree`'s JSON) against the PyPI package irrCAC
//! (tests/reference/irrcac_reference.py), to 1e-9: nominal sets (AC1) and the rating sets, AC2
//! with ordinal, linear and quadratic weights on their 1–5 scales.

mod common;
use common::*;

fn agrees_with_irrcac(name: &str, level: &str) {
    let Some(votes) = votes_of(name) else {
        eprintln!("skipped: no {name} votes");
        return;
    };
    let votes = votes.to_str().unwrap();
    let ours: serde_json::Value = serde_json::from_str(&annosat(&[
        "agree",
        "--votes",
        votes,
        "--level",
        level,
        "--n",
        "2",
        "--repeats",
        "1",
        "--format",
        "json",
    ]))
    .unwrap();
    let scale = if level == "nominal" { "" } else { "--scale" };
    let args: Vec<&str> = [votes, scale]
        .into_iter()
        .filter(|a| !a.is_empty())
        .collect();
    let theirs = reference_json("irrcac_reference.py", &args);
    let gwet = ours["gwet"].as_array().unwrap();
    assert_eq!(gwet.len(), if level == "nominal" { 1 } else { 4 });
    for c in gwet {
        let metric = c["metric"].as_str().unwrap();
        let (a, b) = (
            c["full"].as_f64().unwrap(),
            theirs[metric].as_f64().unwrap(),
        );
        assert!(
            (a - b).abs() < 1e-9,
            "{name} {metric}: annosat {a}, irrCAC {b}"
        );
        println!("{name} {metric}: {a:.6} (irrCAC {b:.6})");
    }
}

#[test]
fn ac1_of_nominal_sets_equals_irrcac() {
    for name in ["chaosnli_snli", "snow2008_rte", "gal_adultcontent2"] {
        agrees_with_irrcac(name, "nominal");
    }
}

#[test]
fn ac1_and_ac2_of_the_rating_sets_equal_irrcac() {
    for name in ["popquorn_offensiveness", "koniq10k"] {
        agrees_with_irrcac(name, "interval");
    }
}

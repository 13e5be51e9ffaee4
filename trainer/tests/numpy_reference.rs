//! The core against an independent numpy/scipy implementation on real ChaosNLI-SNLI data.

mod common;
use common::*;
use std::collections::HashMap;

fn parse_rows(csv: &str) -> HashMap<String, Vec<f64>> {
    let mut r = csv::ReaderBuilder::new().from_reader(csv.as_bytes());
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (
                rec[0].to_string(),
                rec.iter().skip(1).map(|x| x.parse().unwrap()).collect(),
            )
        })
        .collect()
}

#[test]
fn deterministic_metrics_agree_to_1e9() {
    let d = data_dir().join("chaosnli_snli");
    let (new, old) = (d.join("votes.csv"), d.join("votes_old5.csv"));
    let (new, old) = (new.to_str().unwrap(), old.to_str().unwrap());
    let ours = parse_rows(&annosat(&["distance", "--reference", new, "--other", old]));
    let theirs = parse_rows(&numpy_reference(&["distance", new, old]));
    assert_eq!(ours.len(), 1514);
    assert_eq!(ours.len(), theirs.len());
    for (id, a) in &ours {
        let b = &theirs[id];
        for (col, (x, y)) in ["entropy_reference", "entropy_other", "kl", "jsd"]
            .iter()
            .zip(a.iter().zip(b))
        {
            assert!(
                (x - y).abs() <= 1e-9,
                "{id} {col}: annosat {x} vs numpy {y}"
            );
        }
    }
}

#[test]
fn curve_means_agree_within_monte_carlo_error() {
    let votes = data_dir().join("chaosnli_snli/votes.csv");
    let votes = votes.to_str().unwrap();
    let grid = "1,2,3,5,10,20,50,100";
    let (r_ours, r_np) = (100.0f64, 200.0f64);
    let ours = curves_with(votes, &["--n", grid, "--repeats", "100"]);
    let theirs: serde_json::Value = serde_json::from_str(&numpy_reference(&[
        "curves",
        votes,
        "--n",
        grid,
        "--repeats",
        "200",
        "--seed",
        "7",
    ]))
    .unwrap();
    let metrics = ["jsd", "entropy_corr", "kl", "majority_agreement"];
    let checked = assert_curves_match(&ours, &theirs, &metrics, (r_ours, r_np), false);
    assert_eq!(
        checked,
        4 * 8 - 1,
        "entropy_corr at N=1 is undefined, everything else compared"
    );
}

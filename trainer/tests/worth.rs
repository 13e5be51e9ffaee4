//! `annosat worth` as a user runs it: the original SNLI crowd's 5 votes measured in ChaosNLI's
//! annotators, and files that do not fit get messages that say why.

mod common;
use common::data_dir;
use std::path::Path;
use std::process::{Command, Output};

/// `annosat worth` with few resamples (a quick run), JSON out.
fn quick(votes: &Path, source: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_annosat"))
        .args([
            "worth",
            "--votes",
            votes.to_str().unwrap(),
            "--source",
            source.to_str().unwrap(),
        ])
        .args([
            "--bootstrap",
            "20",
            "--split-seeds",
            "1",
            "--repeats",
            "5",
            "--format",
            "json",
        ])
        .output()
        .expect("run annosat")
}

/// The JSON of a quick run that must succeed.
fn quick_json(votes: &Path, source: &Path) -> (serde_json::Value, String) {
    let o = quick(votes, source);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(o.status.success(), "{err}");
    (serde_json::from_slice(&o.stdout).unwrap(), err)
}

#[test]
fn the_original_five_votes_are_measured_per_metric_and_bad_sources_are_refused() {
    let d = data_dir().join("chaosnli_snli");
    let (votes, old5) = (d.join("votes.csv"), d.join("votes_old5.csv"));
    let (j, _) = quick_json(&votes, &old5);
    assert_eq!(j["items"], 1514);
    assert_eq!(j["pool"], 50);
    for m in [
        "jsd",
        "entropy_corr",
        "kl",
        "majority_agreement",
        "squared_error",
    ] {
        let w = &j["worth"][m];
        // Five votes from another crowd: a number of humans between 1 and the pool, or a bound.
        match w["nu"].as_f64() {
            Some(nu) => assert!((0.5..=50.0).contains(&nu), "{m}: {nu}"),
            None => assert!(w["bound"].is_string(), "{m}: {w}"),
        }
    }
    // A judge panel in the release format: two judges answering with the NLI letters on the first
    // 200 items (each judge's vote the item's ChaosNLI majority or its runner-up), one parse failure.
    let panel = std::env::temp_dir().join("annosat-worth-panel");
    let _ = std::fs::remove_dir_all(&panel);
    std::fs::create_dir_all(&panel).unwrap();
    let text = std::fs::read_to_string(&votes).unwrap();
    let rows: Vec<Vec<String>> = text
        .lines()
        .skip(1)
        .take(200)
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    for (judge, rank) in [("judge-a", 0usize), ("judge-b", 1)] {
        let mut lines = String::new();
        for (i, r) in rows.iter().enumerate() {
            let mut c: Vec<(u32, &str)> = r[1..]
                .iter()
                .map(|x| x.parse().unwrap())
                .zip(["e", "n", "c"])
                .collect();
            c.sort_by_key(|x| std::cmp::Reverse(x.0));
            if judge == "judge-b" && i == 0 {
                lines.push_str(&format!(
                    "{{\"uid\": \"{}\", \"label\": null, \"parse_fail\": true}}\n",
                    r[0]
                ));
                continue;
            }
            lines.push_str(&format!(
                "{{\"uid\": \"{}\", \"label\": \"{}\", \"parse_fail\": false}}\n",
                r[0], c[rank].1
            ));
        }
        std::fs::write(panel.join(format!("{judge}.jsonl")), lines).unwrap();
    }
    let (j, err) = quick_json(&votes, &panel);
    assert!(
        err.contains("2 judges, 399 labels, 1 parse failures left out"),
        "{err}"
    );
    assert_eq!(
        (j["items"].as_u64(), j["only_humans"].as_u64()),
        (Some(200), Some(1314))
    );
    // A panel: ν by panel size for j = 1, 2, and each judge's own.
    assert_eq!(j["panel"]["jsd"].as_array().unwrap().len(), 2);
    assert!(j["annotators"]["judge-a"]["jsd"].is_object());
    assert!(err.contains("panel of 2 annotators"), "{err}");

    // An expert's gold label (`item_id,gold`) is one annotator with one vote per item.
    let rte = data_dir().join("snow2008_rte");
    let (j, _) = quick_json(&rte.join("votes.csv"), &rte.join("gold.csv"));
    assert_eq!(
        (j["items"].as_u64(), j["pool"].as_u64()),
        (Some(800), Some(5))
    );

    // Another set of classes: refused with both lists named.
    let tmp = std::env::temp_dir().join("annosat-worth-test");
    std::fs::create_dir_all(&tmp).unwrap();
    let bad = tmp.join("yes_no.csv");
    std::fs::write(&bad, "item_id,yes,no\n2407214681.jpg#0r1n,1,2\n").unwrap();
    let strangers = tmp.join("strangers.csv");
    std::fs::write(
        &strangers,
        "item_id,entailment,neutral,contradiction\nzz,1,2,0\n",
    )
    .unwrap();
    for (file, want) in [
        (&bad, "are not the human file's"),
        (&strangers, "no item id is in both files"),
    ] {
        let o = quick(&votes, file);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(want), "{err}");
    }
}

#[test]
fn a_crowd_with_worker_ids_is_one_source_with_its_workers_spread() {
    // RTE's own crowd (164 workers, each on a few of the 800 items) as the source.
    let dir = data_dir().join("snow2008_rte");
    let out = quick(&dir.join("votes.csv"), &dir.join("annotations.csv"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the source is a crowd of 164 workers"),
        "{err}"
    );
    assert!(!err.contains("panel of"), "{err}");
    assert!(err.len() < 2048, "{} bytes of stderr", err.len());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["panel"].is_null(), "{}", json["panel"]);
    assert_eq!(json["crowd"]["workers"], 164);
}

#[test]
fn annotators_ranks_a_long_files_people_and_refuses_counts() {
    let dir = data_dir().join("snow2008_rte");
    let run = |file: &str| {
        Command::new(env!("CARGO_BIN_EXE_annosat"))
            .args(["annotators", "--votes", dir.join(file).to_str().unwrap()])
            .args(["--bootstrap", "20", "--split-seeds", "1", "--repeats", "5"])
            .output()
            .expect("run annosat")
    };
    let out = run("annotations.csv");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8_lossy(&out.stdout);
    let mut lines = csv.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("id,items,below_one,ds_accuracy,jsd_nu,jsd_lo,jsd_hi"));
    let err = String::from_utf8_lossy(&out.stderr);
    let ranked: usize = err.split_whitespace().next().unwrap().parse().unwrap();
    assert_eq!(lines.count(), ranked, "{err}");
    let counts = run("votes.csv");
    assert!(!counts.status.success());
    assert!(String::from_utf8_lossy(&counts.stderr).contains("has no annotator ids"));
}

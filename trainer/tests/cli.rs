//! The `annosat` binary: output format, bad input, and every bundled vote file.

mod common;
use common::*;
use std::process::Command;

#[test]
fn curves_csv_has_exact_header_and_rows() {
    let votes = data_dir().join("chaosnli_snli/votes.csv");
    let out = annosat(&[
        "curves",
        "--votes",
        votes.to_str().unwrap(),
        "--n",
        "1,10,100",
        "--repeats",
        "5",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "n,metric,mean,lo,hi");
    assert_eq!(lines.len(), 1 + 3 * 4);
    assert_eq!(
        lines[1].split(',').take(2).collect::<Vec<_>>(),
        ["1", "jsd"]
    );
    // entropy_corr is undefined at N=1: empty cells, not 0 or NaN.
    assert_eq!(lines[2], "1,entropy_corr,,,");
    let jsd100: Vec<&str> = lines[9].split(',').collect();
    assert_eq!(jsd100[..3], ["100", "jsd", "0"]);
}

#[test]
fn same_seed_same_output_other_seed_differs() {
    let votes = data_dir().join("chaosnli_snli/votes.csv");
    let v = votes.to_str().unwrap();
    let run = |seed: &str| {
        annosat(&[
            "curves",
            "--votes",
            v,
            "--n",
            "3",
            "--repeats",
            "4",
            "--seed",
            seed,
        ])
    };
    assert_eq!(run("1"), run("1"));
    assert_ne!(run("1"), run("2"));
}

#[test]
fn bad_input_exits_nonzero_with_the_core_message() {
    let dir = std::env::temp_dir().join(format!("annosat-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "item_id,a,b\nx,1,2.5\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_annosat"))
        .args(["curves", "--votes", bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2, column 3") && err.contains("fractional"),
        "{err}"
    );
}

#[test]
fn heldout_runs_and_caps_n() {
    let votes = data_dir().join("chaosnli_snli/votes.csv");
    let out = annosat(&[
        "curves",
        "--votes",
        votes.to_str().unwrap(),
        "--heldout",
        "0.2",
        "--repeats",
        "3",
        "--n",
        "1,80,100",
    ]);
    let ns: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(ns, ["1", "1", "1", "1", "80", "80", "80", "80"]);
}

#[test]
fn heldout_with_annotations_holds_out_whole_annotators() {
    let d = data_dir().join("snow2008_rte");
    let (v, a) = (d.join("votes.csv"), d.join("annotations.csv"));
    let (v, a) = (v.to_str().unwrap(), a.to_str().unwrap());
    let run = |extra: &[&str]| {
        let mut args = vec!["curves", "--votes", v, "--n", "2", "--repeats", "5"];
        args.extend_from_slice(extra);
        annosat(&args)
    };
    let by_vote = run(&["--heldout", "0.2"]);
    let by_annotator = run(&["--annotations", a, "--heldout", "0.2"]);
    assert_ne!(by_vote, by_annotator);
    // Without --heldout the annotator rows change nothing.
    assert_eq!(run(&[]), run(&["--annotations", a]));
}

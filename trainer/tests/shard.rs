//! `annosat sweep --shard I/S` and `annosat merge`: shards run into separate work folders (no
//! shared filesystem) and merged give the exports of a single-process sweep byte for byte; a merge
//! names the shards still missing and refuses shards of another configuration.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("annosat-shard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Two small synthetic datasets (features of their own: no encoder needed).
fn datasets() -> Vec<PathBuf> {
    ["a", "b"]
        .iter()
        .map(|n| {
            let d = tmp(&format!("data-{n}"));
            small_synth(&d, &["--seed", if *n == "a" { "1" } else { "2" }]);
            d
        })
        .collect()
}

/// The sweep's flags (3 split seeds × 2 model seeds = 6 groups per dataset, 12 in all).
fn flags(data: &[PathBuf], work: &Path, out: &Path, hidden: &str) -> Vec<String> {
    let mut v = vec![
        "--out".into(),
        out.display().to_string(),
        "--work".into(),
        work.display().to_string(),
    ];
    for d in data {
        v.push("--data".into());
        v.push(d.display().to_string());
    }
    let arms = ["--n", "1,5,10", "--arms", "hard,soft,constant"];
    for f in [&arms[..], &QUICK_TRAINING, &["--hidden", hidden]].concat() {
        v.push(f.into());
    }
    v
}

fn cli(cmd: &str, args: &[String], extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_annosat"))
        .arg(cmd)
        .args(args)
        .args(extra)
        .output()
        .unwrap()
}

fn ok(o: std::process::Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn exports(out: &Path, data: &[PathBuf]) -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for d in data {
        let name = d.file_name().unwrap();
        for f in [
            "manifest.json",
            "predictions.bin",
            "training.json",
            "features.safetensors",
        ] {
            v.push(std::fs::read(out.join(name).join(f)).unwrap());
        }
    }
    v.push(std::fs::read(out.join("index.json")).unwrap());
    v
}

#[test]
fn four_shards_merged_equal_one_sweep_byte_for_byte() {
    let data = datasets();
    let (w0, o0) = (tmp("w0"), tmp("o0"));
    ok(cli("sweep", &flags(&data, &w0, &o0, "4"), &[]));

    let works: Vec<PathBuf> = (0..4).map(|i| tmp(&format!("w-shard{i}"))).collect();
    let so = tmp("o-shards");
    for (i, w) in works.iter().enumerate() {
        ok(cli(
            "sweep",
            &flags(&data, w, &so, "4"),
            &["--shard", &format!("{i}/4")],
        ));
    }
    assert!(
        std::fs::read_dir(&so).map_or(true, |mut d| d.next().is_none()),
        "a shard exports nothing"
    );
    // Each shard trained its own 3 of the 12 groups.
    for w in &works {
        let n: usize = data
            .iter()
            .map(|d| {
                let ds = w.join(d.file_name().unwrap());
                let hash = std::fs::read_dir(&ds)
                    .unwrap()
                    .next()
                    .unwrap()
                    .unwrap()
                    .path();
                std::fs::read_dir(&hash)
                    .unwrap()
                    .flatten()
                    .filter(|e| e.file_name().to_string_lossy().starts_with("split"))
                    .count()
            })
            .sum();
        assert_eq!(n, 3, "{}", w.display());
    }

    // Merging three of the four: the missing shard is named.
    let (wm, om) = (tmp("w-merge"), tmp("o-merge"));
    let from = |ws: &[PathBuf]| -> Vec<String> {
        std::iter::once("--from".to_string())
            .chain(ws.iter().map(|w| w.display().to_string()))
            .collect()
    };
    let partial = [works[0].clone(), works[1].clone(), works[3].clone()];
    let o = cli(
        "merge",
        &[flags(&data, &wm, &om, "4"), from(&partial)].concat(),
        &[],
    );
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("shard(s) 2 of 4 have not finished"), "{err}");

    // A shard run with other flags is refused, with both configurations' files named.
    let wx = tmp("w-other");
    ok(cli(
        "sweep",
        &flags(&data, &wx, &so, "8"),
        &["--shard", "2/4"],
    ));
    let o = cli(
        "merge",
        &[flags(&data, &wm, &om, "4"), from(std::slice::from_ref(&wx))].concat(),
        &[],
    );
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("for another configuration"), "{err}");

    // On a shared work folder, a shard run with other flags: its groups are never merged, and the
    // merge says where they are.
    let (ws, os) = (tmp("w-shared"), tmp("o-shared"));
    ok(cli(
        "sweep",
        &flags(&data, &ws, &os, "4"),
        &["--shard", "0/2"],
    ));
    ok(cli(
        "sweep",
        &flags(&data, &ws, &os, "8"),
        &["--shard", "1/2"],
    ));
    let o = cli("merge", &flags(&data, &ws, &os, "4"), &[]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("shard(s) 1 of 2") && err.contains("Shards of another configuration"),
        "{err}"
    );

    // All four: the exports of the single-process sweep, byte for byte.
    ok(cli(
        "merge",
        &[flags(&data, &wm, &om, "4"), from(&works)].concat(),
        &[],
    ));
    assert_eq!(exports(&om, &data), exports(&o0, &data));
}

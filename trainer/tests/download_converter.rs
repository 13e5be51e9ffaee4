//! The converter behind the download path (scripts/chaosnli_to_votes.py, used by
//! scripts/fetch-data.sh where ../shared/data is absent) reproduces the shared ChaosNLI vote files
//! from the original jsonl files, so a user elsewhere gets the same data.

mod common;
use annosat_core::{parse_votes, ImportOptions, VoteTable};
use common::*;
use std::process::Command;

fn table(path: &std::path::Path) -> VoteTable {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_votes(&bytes, &ImportOptions::default()).unwrap().0
}

#[test]
fn chaosnli_converter_reproduces_the_vote_files() {
    let data = data_dir();
    let src = std::env::temp_dir().join(format!("annosat-convert-src-{}", std::process::id()));
    let out = std::env::temp_dir().join(format!("annosat-convert-out-{}", std::process::id()));
    std::fs::create_dir_all(&src).unwrap();
    let sets = [
        ("chaosnli_snli", "snli"),
        ("chaosnli_mnli", "mnli_m"),
        ("chaosnli_alphanli", "alphanli"),
    ];
    for (name, sub) in sets {
        let original = data
            .join(name)
            .join("original")
            .join(format!("chaosNLI_{sub}.jsonl"));
        assert!(
            original.exists(),
            "missing {} (the shared datasets keep their originals)",
            original.display()
        );
        std::fs::copy(&original, src.join(format!("chaosNLI_{sub}.jsonl"))).unwrap();
    }
    let status = Command::new("python3")
        .arg(repo_root().join("scripts/chaosnli_to_votes.py"))
        .args([&src, &out])
        .status()
        .expect("python3");
    assert!(status.success());
    for (name, _) in sets {
        for file in ["votes.csv", "votes_old5.csv"] {
            let theirs = data.join(name).join(file);
            if theirs.exists() {
                assert_eq!(
                    table(&out.join(name).join(file)),
                    table(&theirs),
                    "{name}/{file}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&src);
    let _ = std::fs::remove_dir_all(&out);
}

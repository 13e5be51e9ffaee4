//! Every vote file in the shared datasets loads, and annotations.csv reproduces votes.csv.

mod common;
use annosat_core::{parse_votes, ImportOptions, VoteTable};
use common::data_dir;
use std::collections::HashMap;

fn load(path: &std::path::Path) -> VoteTable {
    let bytes = std::fs::read(path).unwrap();
    match parse_votes(&bytes, &ImportOptions::default()) {
        Ok((t, _)) => t,
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

#[test]
fn all_vote_and_annotation_files_load() {
    let mut loaded = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(data_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .collect();
    dirs.sort_by_key(|e| e.path());
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for f in files {
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            if (name.starts_with("votes") && name.ends_with(".csv")) || name == "annotations.csv" {
                let t = load(&f);
                assert!(t.num_items() > 0 && t.num_classes() >= 2, "{}", f.display());
                loaded += 1;
            }
        }
        let (votes, ann) = (
            dir.path().join("votes.csv"),
            dir.path().join("annotations.csv"),
        );
        if votes.exists() && ann.exists() {
            let (w, l) = (load(&votes), load(&ann));
            assert!(!l.annotations().is_empty());
            let attached = w
                .clone()
                .attach_annotations(&l)
                .unwrap_or_else(|e| panic!("{}: {e}", ann.display()));
            assert_eq!(
                attached.annotations().len() as u64,
                (0..w.num_items()).map(|i| w.total(i) as u64).sum::<u64>()
            );
            let index: HashMap<&str, usize> = l
                .item_ids()
                .iter()
                .enumerate()
                .map(|(i, s)| (s.as_str(), i))
                .collect();
            for (i, id) in w.item_ids().iter().enumerate() {
                let j = index[id.as_str()];
                for (k, class) in w.classes().iter().enumerate() {
                    let lk = l.classes().iter().position(|c| c == class).unwrap();
                    assert_eq!(
                        w.counts(i)[k],
                        l.counts(j)[lk],
                        "{} {id} {class}",
                        dir.path().display()
                    );
                }
            }
        }
    }
    assert!(loaded >= 30, "only {loaded} files found");
}

/// The multilabel set (CrowdTruth medical relation extraction: workers tick any number of 14
/// relations) is refused in both its layouts, saying it is multilabel, instead of being misread
/// as single-label votes; a long single-label file with annotator ids reads as what it is.
#[test]
fn multilabel_files_are_named_as_such_and_single_label_long_files_read() {
    let dir = data_dir().join("crowdtruth_medrelex");
    if !dir.is_dir() {
        return; // a data folder without the multilabel set (the download path has 17 others)
    }
    for name in ["labels_long.csv", "ratings_multilabel.csv"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let e = parse_votes(&bytes, &ImportOptions::default()).unwrap_err();
        assert!(
            matches!(e.kind, annosat_core::ImportErrorKind::Multilabel { .. }),
            "{name}: {e}"
        );
        assert!(e.to_string().contains("multilabel"), "{name}: {e}");
    }
    let rte = load(&data_dir().join("snow2008_rte/annotations.csv"));
    assert_eq!((rte.num_items(), rte.num_classes()), (800, 2));
}

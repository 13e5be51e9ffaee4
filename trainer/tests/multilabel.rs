//! Multilabel votes through `annosat curves`: detection of each layout, the two layouts of one
//! dataset giving the same curves, the curves against an independent numpy implementation, and the
//! committed multilabel model export retrained byte for byte from its features.

mod common;
use common::*;
use serde_json::Value;
use std::path::PathBuf;

/// A wide 0/1 multilabel file with a known mix: 500 items with 6–12 annotators, 6 labels, each
/// item with its own tick probabilities (a fixed LCG, so the file is the same everywhere).
fn synthetic_file() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("annosat-ml-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ratings.csv");
    let mut s: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move |bound: u64| {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 33) % bound
    };
    let mut csv = String::from("item_id,annotator_id,a,b,c,d,e,none\n");
    for i in 0..500 {
        let m = 6 + next(7);
        let probs: Vec<u64> = (0..6).map(|_| next(101)).collect();
        for a in 0..m {
            let cells: Vec<String> = probs
                .iter()
                .map(|&p| ((next(100) < p) as u8).to_string())
                .collect();
            csv += &format!("i{i},w{a},{}\n", cells.join(","));
        }
    }
    std::fs::write(&path, csv).unwrap();
    path
}

/// Every multilabel curve metric, as the JSON names them.
const ML_METRICS: [&str; 8] = [
    "kl",
    "jsd",
    "brier",
    "soft_bce",
    "entropy_corr",
    "macro_f1",
    "micro_f1",
    "exact_set",
];

fn curves_json(args: &[&str]) -> Value {
    serde_json::from_str(&annosat(args)).unwrap()
}

#[test]
fn multilabel_curve_means_agree_with_numpy_within_monte_carlo_error() {
    let path = synthetic_file();
    let votes = path.to_str().unwrap();
    let grid = "1,2,3,5,8,12";
    let (r_ours, r_np) = (60.0f64, 60.0f64);
    let ours = curves_with(votes, &["--n", grid, "--repeats", "60", "--bootstrap", "0"]);
    assert_eq!(ours["kind"], "multilabel");
    let args = [
        "curves",
        votes,
        "--n",
        grid,
        "--repeats",
        "60",
        "--seed",
        "7",
    ];
    let theirs = reference_json("numpy_multilabel.py", &args);
    let checked = assert_curves_match(&ours, &theirs, &ML_METRICS, (r_ours, r_np), true);
    assert_eq!(
        checked,
        8 * 6 - 1,
        "entropy_corr at N=1 is undefined, everything else compared"
    );
    // Items with fewer annotators than N sit out.
    let items: Vec<u64> = ours["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(items[0], 500);
    assert!(items[5] < 500 && items[5] > 0, "{items:?}");
}

#[test]
fn each_long_file_is_read_as_what_it_is() {
    let dir = std::env::temp_dir().join(format!("annosat-ml-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let single = dir.join("single.csv");
    let multi = dir.join("multi.csv");
    let mut s = String::from("item_id,annotator_id,label\n");
    let mut m = s.clone();
    for i in 0..40 {
        for a in 0..5 {
            let l = ["joy", "anger", "fear"][(i + a) % 3];
            s += &format!("x{i},w{a},{l}\n");
            m += &format!("x{i},w{a},{l}\n");
            if a % 2 == 0 {
                m += &format!("x{i},w{a},surprise\n");
            }
        }
    }
    std::fs::write(&single, s).unwrap();
    std::fs::write(&multi, m).unwrap();
    let one = curves_json(&[
        "curves",
        "--votes",
        single.to_str().unwrap(),
        "--format",
        "json",
        "--bootstrap",
        "0",
    ]);
    assert!(
        one.get("kind").is_none_or(|k| k != "multilabel"),
        "single-label file read as multilabel"
    );
    assert!(one["metrics"]["majority_agreement"].is_array());
    let many = curves_json(&[
        "curves",
        "--votes",
        multi.to_str().unwrap(),
        "--format",
        "json",
        "--bootstrap",
        "0",
    ]);
    assert_eq!(many["kind"], "multilabel");
    assert_eq!(
        many["labels"],
        serde_json::json!(["anger", "fear", "joy", "surprise"])
    );
    assert_eq!(many["items"][0], 40);
    assert_eq!(
        many["grid"].as_array().unwrap().len(),
        5,
        "5 annotators, not 8 votes"
    );
    // The single-label file read as multilabel on request.
    let forced = curves_json(&[
        "curves",
        "--votes",
        single.to_str().unwrap(),
        "--multilabel",
        "--format",
        "json",
        "--bootstrap",
        "0",
    ]);
    assert_eq!(forced["kind"], "multilabel");
}

#[test]
fn medrelex_wide_and_long_layouts_give_the_same_curves() {
    let d = data_dir().join("crowdtruth_medrelex");
    if !d.join("labels_long.csv").exists() {
        eprintln!(
            "skipped: {} has no crowdtruth_medrelex (scripts/fetch-data.sh builds it)",
            data_dir().display()
        );
        return;
    }
    let run = |file: &str| {
        curves_json(&[
            "curves",
            "--votes",
            d.join(file).to_str().unwrap(),
            "--n",
            "1,3,8,15",
            "--repeats",
            "10",
            "--bootstrap",
            "20",
            "--format",
            "json",
        ])
    };
    let (w, l) = (run("ratings_multilabel.csv"), run("labels_long.csv"));
    assert_eq!(w["items"], l["items"]);
    assert_eq!(w["items"][0], 3397);
    for metric in ML_METRICS {
        for (a, b) in w["metrics"][metric]
            .as_array()
            .unwrap()
            .iter()
            .zip(l["metrics"][metric].as_array().unwrap())
        {
            for key in ["mean", "lo", "hi", "items_lo", "items_hi"] {
                match (a[key].as_f64(), b[key].as_f64()) {
                    (Some(x), Some(y)) => {
                        assert!((x - y).abs() < 1e-12, "{metric} {key}: {x} vs {y}")
                    }
                    (x, y) => assert_eq!(x, y, "{metric} {key}"),
                }
            }
        }
        assert_eq!(
            w["saturation"][metric]["n"], l["saturation"][metric]["n"],
            "{metric}"
        );
    }
}

#[test]
fn the_committed_multilabel_export_regenerates_byte_for_byte() {
    // The whole export (every fold and model seed, then the item resamples) retrained from its
    // committed f16 features with its recorded configuration: training from fixed features is
    // CPU-independent (see committed_exports_regenerate_bit_identically in sweep.rs).
    let d = data_dir().join("crowdtruth_medrelex");
    if !d.join("ratings_multilabel.csv").exists() {
        eprintln!(
            "skipped: {} has no crowdtruth_medrelex",
            data_dir().display()
        );
        return;
    }
    let committed = repo_root().join("public/models/crowdtruth_medrelex");
    let want =
        std::fs::read_to_string(committed.join("multilabel.json")).expect("committed export");
    let e: Value = serde_json::from_str(&want).unwrap();
    let (h, ns) = (&e["head"], &e["evaluation"]["ns"]);
    let ns: Vec<String> = ns
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.to_string())
        .collect();
    let out = std::env::temp_dir().join(format!("annosat-ml-regen-{}", std::process::id()));
    let s = |v: &Value| v.to_string();
    let features = committed.join("features.safetensors");
    let head = head_args(h);
    annosat(
        &[
            "sweep",
            "--data",
            d.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--head-features",
            features.to_str().unwrap(),
            "--pca",
            "256",
            "--n",
            &ns.join(","),
            "--folds",
            &s(&e["folds"]),
            "--model-seeds",
            &s(&e["model_seeds"]),
        ]
        .into_iter()
        .chain(head.iter().map(String::as_str))
        .collect::<Vec<_>>(),
    );
    let got = std::fs::read_to_string(out.join("crowdtruth_medrelex/multilabel.json")).unwrap();
    std::fs::remove_dir_all(&out).ok();
    assert!(
        got == want,
        "the retrained multilabel export differs from the committed one"
    );
}

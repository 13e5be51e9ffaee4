//! `annosat embed` and `annosat sweep` end to end: caching, determinism, resuming, the export format,
//! and the committed exports regenerating bit for bit.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("annosat-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

#[test]
fn embeddings_are_unit_length_meaningful_and_cached() {
    let data = tmp("embed-data");
    std::fs::write(data.join("votes.csv"), "item_id,a,b\nx,1,0\ny,0,1\nz,1,1\n").unwrap();
    std::fs::write(
        data.join("items.jsonl"),
        concat!(
            "{\"item_id\":\"x\",\"text\":\"A man is playing a guitar on stage.\"}\n",
            "{\"item_id\":\"y\",\"text\":\"Someone performs music with a guitar.\"}\n",
            "{\"item_id\":\"z\",\"text\":\"Interest rates rose again this quarter.\"}\n"
        ),
    )
    .unwrap();
    let cache = tmp("embed-cache");
    let args = [
        "embed",
        "--data",
        data.to_str().unwrap(),
        "--cache",
        cache.to_str().unwrap(),
    ];
    let path = PathBuf::from(annosat(&args).trim());
    let bytes = std::fs::read(&path).unwrap();
    let st = safetensors::SafeTensors::deserialize(&bytes).unwrap();
    let t = st.tensor("text").unwrap();
    assert_eq!(t.shape(), [3, 384]);
    let v = f32s(t.data());
    let row = |i: usize| &v[i * 384..(i + 1) * 384];
    let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
    for i in 0..3 {
        assert!(
            (dot(row(i), row(i)) - 1.0).abs() < 1e-4,
            "normalised like sentence-transformers"
        );
    }
    assert!(
        dot(row(0), row(1)) > dot(row(0), row(2)) + 0.2,
        "paraphrases are closer than unrelated text"
    );
    // A second run finds the cache and leaves it alone.
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    assert_eq!(PathBuf::from(annosat(&args).trim()), path);
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        modified
    );
}

/// `annosat sweep --data D --out O --work W` and the rest.
fn sweep_args(data: &Path, out: &Path, work: &Path, rest: &[&str]) -> Vec<String> {
    let path = |p: &Path| p.to_str().unwrap().to_string();
    let head = [
        "sweep".into(),
        "--data".into(),
        path(data),
        "--out".into(),
        path(out),
    ];
    let work = ["--work".into(), path(work)];
    let rest = rest.iter().map(|s| s.to_string());
    head.into_iter().chain(work).chain(rest).collect()
}

fn small_sweep(work: &Path, out: &Path, features: &Path) -> Vec<String> {
    let snli = data_dir().join("chaosnli_snli");
    let features = features.to_str().unwrap();
    let rest = [
        "--features-cache",
        features,
        "--limit",
        "80",
        "--n",
        "1,3,10",
        "--split-seed",
        "42",
        "--pca",
        "32",
        "--hidden",
        "8",
    ];
    sweep_args(&snli, out, work, &[&rest[..], &QUICK_TRAINING].concat())
}

fn run(args: &[String]) {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    annosat(&a);
}

fn export_bytes(out: &Path) -> Vec<Vec<u8>> {
    [
        "manifest.json",
        "predictions.bin",
        "training.json",
        "features.safetensors",
    ]
    .iter()
    .map(|f| std::fs::read(out.join("chaosnli_snli").join(f)).unwrap())
    .collect()
}

#[test]
fn sweep_exports_every_arm_and_reruns_and_resumes_bit_identically() {
    let features = tmp("sweep-features");
    let (w1, o1) = (tmp("sweep-w1"), tmp("sweep-o1"));
    run(&small_sweep(&w1, &o1, &features));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(o1.join("chaosnli_snli/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["schema"], "annosat-models/1");
    let runs = manifest["runs"].as_array().unwrap();
    assert_eq!(
        runs.len(),
        15 * 3 * 2,
        "15 arms (incl. controls and baselines) x 3 N x 2 model seeds"
    );
    let test_items = manifest["splits"][0]["test_items"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(test_items, 8);
    let pred = std::fs::read(o1.join("chaosnli_snli/predictions.bin")).unwrap();
    assert_eq!(pred.len(), runs.len() * test_items * 3 * 2);
    for row in pred.chunks_exact(6) {
        let s: u32 = row
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]) as u32)
            .sum();
        assert!(
            (65533..=65537).contains(&s),
            "a row of probabilities sums to 1: {s}"
        );
    }
    for r in runs {
        let m = &r["metrics"];
        assert!(m["kl"].as_f64().unwrap() >= 0.0 && m["accuracy"].as_f64().unwrap() <= 1.0);
        assert_eq!(r["temperature"].is_number(), r["arm"] == "temp_hard");
        assert_eq!(r["neighbours"].is_number(), r["arm"] == "knn");
        assert!(
            r["validation"]["kl"].is_number(),
            "validation metrics recorded"
        );
    }
    let index = std::fs::read_to_string(o1.join("index.json")).unwrap();
    assert!(index.contains("chaosnli_snli/manifest.json"));

    // Same command, fresh work dir: identical bytes.
    let (w2, o2) = (tmp("sweep-w2"), tmp("sweep-o2"));
    run(&small_sweep(&w2, &o2, &features));
    assert_eq!(export_bytes(&o1), export_bytes(&o2));

    // A run that died after one group: the finished group is reused untouched, the other redone.
    let config_dir = std::fs::read_dir(w2.join("chaosnli_snli"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let kept = config_dir.join("split42-seed0.json");
    std::fs::remove_file(config_dir.join("split42-seed1.json")).unwrap();
    std::fs::remove_dir_all(&o2).unwrap();
    let before = std::fs::metadata(&kept).unwrap().modified().unwrap();
    run(&small_sweep(&w2, &o2, &features));
    assert_eq!(
        std::fs::metadata(&kept).unwrap().modified().unwrap(),
        before,
        "finished group skipped"
    );
    assert_eq!(
        export_bytes(&o1),
        export_bytes(&o2),
        "resumed sweep equals an uninterrupted one"
    );
}

#[test]
fn committed_exports_regenerate_bit_identically() {
    // Spot check: re-train one (fold, model seed) group of the committed ChaosNLI-SNLI sweep with
    // its recorded configuration, from its committed head features, and compare every arm's metrics
    // and predictions byte for byte. Training from fixed features is CPU-independent (no gemm
    // reduction over more than 512 terms, so no cache-dependent blocking; the FMA kernel on AVX2 and
    // AVX-512 alike); the encoder run that made the features is not, which is why they are committed.
    // The group is trained as shard 0 of the folds (fold 0, model seed 0) and read from the work folder.
    let committed = repo_root().join("public/models/chaosnli_snli");
    let manifest: serde_json::Value = serde_json::from_slice(
        &std::fs::read(committed.join("manifest.json")).expect("committed exports"),
    )
    .unwrap();
    let c = &manifest["config"];
    let h = &c["head"];
    let folds = c["folds"]
        .as_u64()
        .expect("the committed exports are k-fold");
    let join = |v: &serde_json::Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.to_string().trim_matches('"').to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let (work, out) = (tmp("regen-w"), tmp("regen-o"));
    let snli = data_dir().join("chaosnli_snli");
    let head_features = committed.join("features.safetensors");
    let rest = [
        "--n",
        &join(&c["ns"]),
        "--arms",
        &join(&c["arms"]),
        "--folds",
        &folds.to_string(),
        "--model-seeds",
        "1",
        "--shard",
        &format!("0/{folds}"),
        "--pca",
        &c["pca"].to_string(),
        "--head-features",
        head_features.to_str().unwrap(),
    ];
    let head = head_args(h);
    let rest: Vec<&str> = rest
        .into_iter()
        .chain(head.iter().map(String::as_str))
        .collect();
    run(&sweep_args(&snli, &out, &work, &rest));
    let dir = std::fs::read_dir(work.join("chaosnli_snli"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .expect("the work folder of the configuration");
    let group: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("split0-seed0.json")).unwrap()).unwrap();
    let fresh_cfg: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("config.json")).unwrap()).unwrap();
    assert_eq!(
        fresh_cfg["features"], c["features"],
        "the same head features"
    );
    let old_pred = std::fs::read(committed.join("predictions.bin")).unwrap();
    let per_run = manifest["splits"][0]["test_items"]
        .as_array()
        .unwrap()
        .len()
        * manifest["classes"].as_array().unwrap().len();
    let mut checked = 0;
    for r in group["runs"].as_array().unwrap() {
        let old = manifest["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["arm"] == r["arm"] && o["n"] == r["n"] && o["split"] == 0 && o["seed"] == 0)
            .expect("the committed sweep has this run");
        assert_eq!(old["metrics"], r["metrics"], "{} N={}", r["arm"], r["n"]);
        let a = old["offset"].as_u64().unwrap() as usize * 2;
        let fresh: Vec<u8> = r["probs"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|p| (p.as_u64().unwrap() as u16).to_le_bytes())
            .collect();
        assert_eq!(
            old_pred[a..a + per_run * 2],
            fresh[..],
            "{} N={}",
            r["arm"],
            r["n"]
        );
        checked += 1;
    }
    assert!(checked >= 100, "{checked}");
    // sls and multipass keep a model only once every one of the N votes has been delivered.
    for r in manifest["runs"].as_array().unwrap() {
        if r["arm"] == "sls" || r["arm"] == "multipass" {
            assert_eq!(r["votes_used"], r["n"], "{} N={}", r["arm"], r["n"]);
        }
    }
    let at100 = manifest["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| (r["arm"] == "sls" || r["arm"] == "multipass") && r["n"] == 100)
        .count() as u64;
    assert_eq!(
        at100,
        2 * folds * c["seeds"].as_u64().unwrap(),
        "sls and multipass at N=100, one run per fold and model seed, all with 100 votes"
    );
    // Every arm carries its verdicts, computed from these files (annosat verdicts --check).
    let arms = c["arms"].as_array().unwrap().len();
    let verdicts = manifest["verdicts"].as_array().unwrap();
    assert_eq!(verdicts.len(), arms, "one verdict set per arm");
    annosat(&[
        "verdicts",
        "--export",
        committed.to_str().unwrap(),
        "--votes",
        snli.join("votes.csv").to_str().unwrap(),
        "--verify",
    ]);
}

#[test]
fn k_fold_sweeps_score_every_item_and_synthetic_folders_bring_their_features() {
    let dir = tmp("synth-data");
    small_synth(&dir, &["--feature-noise", "0"]);
    for f in [
        "votes.csv",
        "annotations.csv",
        "truth.csv",
        "features.safetensors",
        "SOURCE.md",
    ] {
        assert!(dir.join(f).exists(), "{f}");
    }
    let (work, out) = (tmp("synth-w"), tmp("synth-o"));
    let (ns, folds) = (["--n", "1,10"], ["--folds", "3", "--model-seeds", "1"]);
    let head = ["--epochs", "4", "--patience", "4", "--hidden", "4"];
    let arms = ["--arms", "hard,soft,sls,constant,knn"];
    run(&sweep_args(
        &dir,
        &out,
        &work,
        &[&ns[..], &arms, &folds, &head].concat(),
    ));
    let name = dir.file_name().unwrap().to_str().unwrap();
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join(name).join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(m["config"]["folds"], 3);
    assert_eq!(
        m["config"]["pca"], 0,
        "4-wide generated features used as they are"
    );
    let mut tested: Vec<String> = m["splits"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| {
            s["test_items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i.to_string())
        })
        .collect();
    tested.sort();
    let n = tested.len();
    tested.dedup();
    assert_eq!(
        (n, tested.len()),
        (60, 60),
        "every item tested exactly once"
    );
    let pooled = m["pooled"].as_array().unwrap();
    assert_eq!(pooled.len(), 5 * 2, "5 arms x 2 N x 1 seed");
    for p in pooled {
        assert_eq!(p["items"], 60);
    }
    let soft = pooled
        .iter()
        .find(|p| p["arm"] == "soft" && p["n"] == 10)
        .unwrap();
    let (lo, hi) = (
        soft["entropy_corr_ci"][0].as_f64().unwrap(),
        soft["entropy_corr_ci"][1].as_f64().unwrap(),
    );
    let r = soft["metrics"]["entropy_corr"].as_f64().unwrap();
    assert!(lo < r && r < hi, "{lo} < {r} < {hi}");

    // Only the baselines: no head to train, and still an export with verdicts.
    let (work2, out2) = (tmp("synth-w2"), tmp("synth-o2"));
    let arms = ["--arms", "constant,knn"];
    run(&sweep_args(
        &dir,
        &out2,
        &work2,
        &[&ns[..], &arms, &folds].concat(),
    ));
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out2.join(name).join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(m["pooled"].as_array().unwrap().len(), 2 * 2);
    assert_eq!(m["verdicts"].as_array().unwrap().len(), 2);
}

#[test]
fn repro_table_covers_every_exported_set_from_the_committed_exports() {
    let models = tmp("repro");
    copy_manifests(&repo_root().join("public/models"), &models);
    let table = annosat(&["repro", "--models", models.to_str().unwrap()]);
    assert!(table.contains("| source | claim | published |"), "{table}");
    let repro: serde_json::Value =
        serde_json::from_slice(&std::fs::read(models.join("reproduction.json")).unwrap()).unwrap();
    let datasets = repro["datasets"].as_array().unwrap();
    assert_eq!(
        datasets.len(),
        4,
        "three ChaosNLI sets and the pooled one: {datasets:?}"
    );
    assert_eq!(
        repro["control_datasets"].as_array().unwrap().len(),
        5,
        "two linear and three twins controls"
    );
    assert!(
        repro["ours_model"].as_str().unwrap().contains("MiniLM"),
        "the model is named honestly"
    );
    let rows = repro["rows"].as_array().unwrap();
    let kl10 = &rows
        .iter()
        .find(|r| r["claim"].as_str().unwrap().starts_with("KL: share"))
        .unwrap()["ours"]["chaosnli_snli"];
    let verdict = &repro["models"]["chaosnli_snli"]["soft"]["kl"]["verdict"];
    if verdict == "saturates" {
        assert!(
            kl10.as_str().unwrap().ends_with(')'),
            "share with its KL values: {kl10}"
        );
    } else {
        assert!(
            !kl10.as_str().unwrap().contains('%'),
            "no share of a change within noise: {kl10}"
        );
    }
}

#[test]
fn committed_reproduction_and_docs_section_are_what_repro_generates() {
    // Every sentence and number in docs/models.md's generated section comes from `annosat repro` on
    // the committed exports: rerun it on a copy of them and of that page, and compare.
    let committed = repo_root().join("public/models");
    let before = std::fs::read(committed.join("reproduction.json")).unwrap();
    let readme = tmp("readme").join("models.md");
    std::fs::copy(repo_root().join("docs/models.md"), &readme).unwrap();
    let models = tmp("repro-all");
    copy_manifests(&committed, &models);
    annosat(&[
        "repro",
        "--models",
        models.to_str().unwrap(),
        "--readme",
        readme.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(models.join("reproduction.json")).unwrap(),
        before,
        "the committed reproduction.json is what annosat repro writes"
    );
    assert_eq!(
        std::fs::read_to_string(&readme).unwrap(),
        std::fs::read_to_string(repo_root().join("docs/models.md")).unwrap(),
        "docs/models.md's generated section is what annosat repro writes: run scripts/sweep-all.sh's last step"
    );
}

/// Copies index.json and every manifest (the only files `repro` reads) from `from` to `to`.
fn copy_manifests(from: &Path, to: &Path) {
    std::fs::copy(from.join("index.json"), to.join("index.json")).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if !e.path().is_dir() {
            continue;
        }
        for sub in ["", "heldout"] {
            let m = e.path().join(sub).join("manifest.json");
            if m.exists() {
                let dest = to.join(e.file_name()).join(sub);
                std::fs::create_dir_all(&dest).unwrap();
                std::fs::copy(&m, dest.join("manifest.json")).unwrap();
            }
        }
    }
}

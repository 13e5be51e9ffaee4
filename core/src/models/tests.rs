use super::*;

fn manifest(runs: Vec<(&str, u32, u64, u64, f64, f64)>) -> Manifest {
    // (arm, n, split, seed, kl, entropy_corr)
    let runs = runs
        .into_iter()
        .map(|(arm, n, split, seed, kl, ec)| Run {
            arm: arm.into(),
            n,
            split,
            seed,
            best_epoch: 0,
            votes_used: n,
            temperature: None,
            neighbours: None,
            metrics: RunMetrics {
                kl,
                jsd: 0.0,
                entropy_corr: Some(ec),
                brier: 0.0,
                rel: 0.0,
                res: 0.0,
                unc: 0.0,
                residual: 0.0,
                ece: 0.0,
                dist_ece: 0.0,
                accuracy: 0.0,
            },
            validation: None,
            offset: 0,
        })
        .collect();
    Manifest {
        schema: "annosat-models/1".into(),
        dataset: "toy".into(),
        classes: vec!["a".into(), "b".into()],
        encoder: "e".into(),
        features: "f".into(),
        reference: "all votes".into(),
        config: None,
        command: String::new(),
        splits: vec![],
        predictions: Predictions::u16(),
        runs,
        pooled: Vec::new(),
        verdicts: Vec::new(),
        source_only_entropy_corr: None,
        versus: Vec::new(),
    }
}

#[test]
fn curves_average_over_units_and_keep_the_range() {
    let m = manifest(vec![
        ("soft", 1, 42, 0, 1.0, 0.1),
        ("soft", 1, 42, 1, 0.8, 0.3),
        ("soft", 10, 42, 0, 0.5, 0.5),
        ("soft", 10, 42, 1, 0.3, 0.7),
    ]);
    let c = m.curve("soft", ModelMetric::Kl);
    assert_eq!(c.len(), 2);
    assert!((c[0].mean - 0.9).abs() < 1e-12 && c[0].min == 0.8 && c[0].max == 1.0);
    assert_eq!(c[1].runs, 2);
    assert_eq!(m.ns(), vec![1, 10]);
    assert_eq!(m.units(), vec![(42, 0), (42, 1)]);
}

#[test]
fn captured_point_is_where_the_share_first_reaches_x_as_on_the_target_side() {
    let pts: Vec<ArmPoint> = [
        (1, 1.0),
        (2, 0.5),
        (5, 0.12),
        (10, 0.2),
        (20, 0.1),
        (50, 0.0),
    ]
    .iter()
    .map(|&(n, v)| ArmPoint {
        n,
        mean: v,
        min: v,
        max: v,
        runs: 1,
    })
    .collect();
    // Shares: 0, .5, .88, .8, .9, 1 -> 0.85 is first reached at N = 5 (the target side's
    // definition, even though N = 10 dips back below it).
    assert_eq!(captured_at(&pts, 0.85), Some(5));
    assert_eq!(captured_at(&pts, 0.5), Some(2));
    let flat = vec![
        ArmPoint {
            n: 1,
            mean: 0.3,
            min: 0.3,
            max: 0.3,
            runs: 1
        };
        2
    ];
    assert_eq!(captured_at(&flat, 0.9), None);
}

#[test]
fn paired_counts_respect_the_metric_direction() {
    let mut runs = Vec::new();
    for seed in 0..6 {
        runs.push(("soft", 100, 42, seed, 0.3, 0.6));
        runs.push(("ls0.1", 100, 42, seed, 0.4 + 0.01 * seed as f64, 0.45));
    }
    let m = manifest(runs);
    let kl = paired(&m, "soft", "ls0.1", 100, ModelMetric::Kl).unwrap();
    assert_eq!((kl.wins, kl.losses, kl.ties), (6, 0, 0));
    assert!((kl.p_sign - 2.0 / 64.0).abs() < 1e-12, "{}", kl.p_sign);
    let p = kl.p_t.unwrap();
    assert!(
        p > 0.0 && p < 1e-4,
        "t = -16.4 on 5 df: p ≈ 1.5e-5, got {p}"
    );
    let ec = paired(&m, "soft", "ls0.1", 100, ModelMetric::EntropyCorr).unwrap();
    assert_eq!(ec.wins, 6, "higher entropy correlation wins");
    assert_eq!(ec.p_t, None, "constant differences have no t statistic");
    let rev = paired(&m, "ls0.1", "soft", 100, ModelMetric::Kl).unwrap();
    assert_eq!((rev.wins, rev.losses), (0, 6));
    assert!(paired(&m, "soft", "hard", 100, ModelMetric::Kl).is_none());
}

#[test]
fn max_abs_diff_finds_the_metric_that_moved_most() {
    let m = manifest(vec![("soft", 10, 42, 0, 0.3, 0.2)]);
    let a = m.runs[0].metrics;
    assert_eq!(a.max_abs_diff(&a), (0.0, "kl"));
    let mut b = a;
    b.kl += 1e-5;
    b.ece += 3e-5;
    let (d, name) = a.max_abs_diff(&b);
    assert_eq!(name, "ece");
    assert!((d - 3e-5).abs() < 1e-12);
    b.entropy_corr = None;
    assert_eq!(a.max_abs_diff(&b), (f64::INFINITY, "entropy_corr"));
}

#[test]
fn committed_manifests_carry_their_sweep_configuration() {
    // The app's model worker retrains runs with the manifest's own settings.
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../public/models/chaosnli_snli");
    let m = Manifest::parse(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let cfg = m.config.expect("config");
    assert_eq!(cfg.dataset, "chaosnli_snli");
    assert_eq!(cfg.folds, Some(10), "every committed export is 10-fold");
    assert_eq!(cfg.splits, (0..10).collect::<Vec<u64>>());
    assert_eq!(cfg.head.hidden, 64);
    assert!(!m.verdicts.is_empty(), "and carries its verdicts");
}

#[test]
fn labels_name_the_bins_the_metrics_use() {
    use crate::metrics::calibration::{ECE_BINS, MURPHY_BINS};
    assert!(ModelMetric::Ece
        .label()
        .contains(&format!("({ECE_BINS} bins)")));
    assert!(ModelMetric::DistEce
        .label()
        .contains(&format!("({ECE_BINS} bins)")));
    let _ = MURPHY_BINS; // Murphy's labels name no bin count; docs/exports.md does (10 per class).
}

#[test]
fn every_arm_has_a_description() {
    for arm in [
        "hard",
        "ls0.05",
        "ls0.1",
        "ls0.2",
        "ls0.3",
        "ls0.5",
        "soft",
        "dirichlet",
        "sls",
        "multipass",
        "temp_hard",
    ] {
        assert!(!arm_description(arm).contains("does not know"), "{arm}");
    }
    assert!(arm_description("ls0.2").contains("0.2"));
}

#[test]
fn committed_files_round_trip_through_their_types() {
    // One type per format: reading and writing a committed file gives its bytes back.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../public/models");
    let m = std::fs::read(dir.join("chaosnli_snli/manifest.json")).unwrap();
    let parsed: Manifest = serde_json::from_slice(&m).unwrap();
    let back = serde_json::to_vec(&parsed).unwrap();
    if back != m {
        let at = back
            .iter()
            .zip(&m)
            .position(|(a, b)| a != b)
            .unwrap_or(back.len().min(m.len()));
        panic!(
            "manifest.json differs at byte {at}: ours {:?} vs file {:?}",
            String::from_utf8_lossy(&back[at.saturating_sub(60)..(at + 60).min(back.len())]),
            String::from_utf8_lossy(&m[at.saturating_sub(60)..(at + 60).min(m.len())])
        );
    }
    let i = std::fs::read(dir.join("index.json")).unwrap();
    let parsed: ExportsIndex = serde_json::from_slice(&i).unwrap();
    assert_eq!(serde_json::to_vec_pretty(&parsed).unwrap(), i, "index.json");
    let r = std::fs::read(dir.join("reproduction.json")).unwrap();
    let parsed: Repro = serde_json::from_slice(&r).unwrap();
    assert_eq!(
        serde_json::to_vec_pretty(&parsed).unwrap(),
        r,
        "reproduction.json"
    );
    let t = std::fs::read(dir.join("chaosnli_snli/training.json")).unwrap();
    let parsed: Vec<TrainingEntry> = serde_json::from_slice(&t).unwrap();
    assert_eq!(serde_json::to_vec(&parsed).unwrap(), t, "training.json");
}

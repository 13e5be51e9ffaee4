//! A trained set of groups as an export's manifest and predictions.bin bytes: runs in order with
//! their offsets, the splits' test items, a k-fold set's all-items runs, and the verdicts computed
//! from those same bytes (`annosat_core::models::verdict`, through `blocks_of_export`, so a reader
//! of the files recomputes them exactly). One implementation for `annosat sweep`'s export and the
//! app's model worker (own data, synthetic control).

use crate::{Dataset, GroupResult};
use annosat_core::models::verdict::{self, VerdictConfig};
use annosat_core::models::{
    blocks_of_export, Manifest, PooledRun, Predictions, Run, Split, SweepConfig, MANIFEST_SCHEMA,
};
use anyhow::Result;
use std::collections::HashMap;

/// The manifest and predictions.bin of `groups` (all of one dataset), scored against `reference`
/// (its description). `config` and `command` are the sweep's, when there is one.
pub fn build(
    prep: &Dataset,
    groups: &[GroupResult],
    reference: &str,
    config: Option<SweepConfig>,
    command: String,
) -> Result<(Manifest, Vec<u8>)> {
    let mut pred = Vec::new();
    let mut runs = Vec::new();
    let mut splits: Vec<Split> = Vec::new();
    for g in groups {
        if !splits.iter().any(|s| s.seed == g.split) {
            splits.push(Split {
                seed: g.split,
                test_items: g
                    .test_items
                    .iter()
                    .map(|&i| prep.item_ids[i].clone())
                    .collect(),
            });
        }
        for r in &g.runs {
            runs.push(Run {
                arm: r.arm.clone(),
                n: r.n,
                split: g.split,
                seed: g.seed,
                best_epoch: r.best_epoch,
                votes_used: r.votes_used,
                temperature: r.temperature,
                neighbours: r.neighbours,
                metrics: r.metrics,
                validation: Some((&r.validation).into()),
                offset: pred.len() / 2,
            });
            pred.extend(r.probs.iter().flat_map(|p| p.to_le_bytes()));
        }
    }
    let pooled = if prep.folds.is_some() {
        pooled(prep, groups)
    } else {
        Vec::new()
    };
    let mut manifest = Manifest {
        schema: MANIFEST_SCHEMA.into(),
        dataset: prep.name.clone(),
        classes: prep.classes.clone(),
        encoder: prep.head.encoder.clone(),
        features: prep.head.layout.clone(),
        reference: reference.into(),
        config,
        command,
        splits,
        predictions: Predictions::u16(),
        runs,
        pooled,
        verdicts: Vec::new(),
        source_only_entropy_corr: None,
        versus: Vec::new(),
    };
    let probs: Vec<u16> = pred
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    let e = evaluate(&manifest, &probs, prep)?;
    (manifest.verdicts, manifest.versus) = (e.verdicts, e.versus);
    manifest.source_only_entropy_corr = source_only_corr(prep);
    Ok((manifest, pred))
}

/// A k-fold sweep's metrics over all items: per (arm, N, model seed), the folds' test predictions
/// (decoded from the stored u16, so anyone can recompute them from predictions.bin) joined.
fn pooled(prep: &Dataset, groups: &[GroupResult]) -> Vec<PooledRun> {
    let k = prep.classes.len();
    let mut seeds: Vec<u64> = groups.iter().map(|g| g.seed).collect();
    seeds.sort_unstable();
    seeds.dedup();
    let mut out = Vec::new();
    let Some(first) = groups.first() else {
        return out;
    };
    for (r, run) in first.runs.iter().enumerate() {
        for &seed in &seeds {
            let (mut pred, mut human) = (Vec::new(), Vec::new());
            for g in groups.iter().filter(|g| g.seed == seed) {
                let this = &g.runs[r];
                debug_assert_eq!((this.arm.as_str(), this.n), (run.arm.as_str(), run.n));
                pred.extend(this.probs.iter().map(|&p| p as f64 / 65535.0));
                for &i in &g.test_items {
                    human.extend_from_slice(&prep.reference[i * k..(i + 1) * k]);
                }
            }
            let metrics = crate::eval::metrics(&pred, &human, k);
            let items = human.len() / k;
            out.push(PooledRun {
                arm: run.arm.clone(),
                n: run.n,
                seed,
                items,
                entropy_corr_ci: metrics
                    .entropy_corr
                    .and_then(|r| annosat_core::metrics::pearson_ci95(r, items)),
                metrics,
            });
        }
    }
    out
}

/// The verdicts of every arm over the export's own files (`verdict_blocks`: what a reader of the
/// export recomputes them from); for a pooled export also within each source.
fn evaluate(m: &Manifest, probs: &[u16], prep: &Dataset) -> Result<verdict::Evaluation> {
    let k = prep.classes.len();
    let index: HashMap<&str, usize> = prep
        .item_ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let human = |id: &str| {
        let i = *index.get(id)?;
        Some(prep.reference[i * k..(i + 1) * k].to_vec())
    };
    let cfg = VerdictConfig::default();
    let blocks = blocks_of_export(m, probs, &human, &|_| true).map_err(anyhow::Error::msg)?;
    let mut out = verdict::evaluate(&blocks, k, &cfg);
    for source in sources(prep) {
        let prefix = format!("{source}/");
        let blocks = blocks_of_export(m, probs, &human, &|id| id.starts_with(&prefix))
            .map_err(anyhow::Error::msg)?;
        let e = verdict::evaluate(&blocks, k, &cfg);
        out.verdicts.extend(e.verdicts.into_iter().map(|mut v| {
            v.source = Some(source.clone());
            v
        }));
        out.versus.extend(e.versus.into_iter().map(|mut v| {
            v.source = Some(source.clone());
            v
        }));
    }
    Ok(out)
}

/// A pooled dataset's sources (`annosat pool` prefixes every id with `<dataset>/`); none otherwise.
fn sources(prep: &Dataset) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for id in &prep.item_ids {
        let Some((s, _)) = id.split_once('/') else {
            return Vec::new();
        };
        if !v.iter().any(|x| x == s) {
            v.push(s.to_string());
        }
    }
    if v.len() < 2 {
        return Vec::new();
    }
    v
}

/// The entropy correlation, over all items, of a predictor that knows only each item's source
/// (it predicts the source's mean human distribution): how much of a pooled r the mix of sources
/// alone gives. `None` unless the dataset is pooled.
fn source_only_corr(prep: &Dataset) -> Option<f64> {
    let k = prep.classes.len();
    let srcs = sources(prep);
    if srcs.is_empty() {
        return None;
    }
    let src_of = |id: &str| {
        srcs.iter()
            .position(|s| id.split_once('/').is_some_and(|(p, _)| p == s))
    };
    let mut mean = vec![vec![0.0; k]; srcs.len()];
    let mut count = vec![0usize; srcs.len()];
    for (i, id) in prep.item_ids.iter().enumerate() {
        let s = src_of(id)?;
        count[s] += 1;
        for (m, &r) in mean[s].iter_mut().zip(&prep.reference[i * k..(i + 1) * k]) {
            *m += r;
        }
    }
    let pred: Vec<f64> = prep
        .item_ids
        .iter()
        .flat_map(|id| {
            let s = src_of(id).unwrap_or(0);
            let c = count[s] as f64;
            mean[s].iter().map(move |&x| x / c).collect::<Vec<_>>()
        })
        .collect();
    annosat_core::metrics::entropy_corr(&pred, &prep.reference, k)
}

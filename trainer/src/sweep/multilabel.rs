//! `annosat sweep` on a multilabel dataset folder (`ratings_multilabel.csv` or `labels_long.csv`,
//! no `votes.csv`): sigmoid heads per arm × N on frozen MiniLM features, k-fold (every item tested
//! once), scored against each item's full-vote label shares, and exported as `multilabel.json`
//! (curves with item intervals, verdicts, soft against hard) beside the f16 `features.safetensors`.

use super::{compute_head_features, load_features, Args};
use crate::util::{atomic_write, dataset_name, progress};
use annosat_core::models::verdict::{DEFAULT_RESAMPLES, VERDICT_X};
use annosat_core::models::HeadConfig;
use annosat_core::multilabel::export::{MlArmInfo, MlExport, FILE};
use annosat_core::multilabel::models::{evaluate, MlBlock, MlRun};
use annosat_core::multilabel::MultilabelTable;
use annosat_heads::multilabel::{heads, train_fold, MlArm};
use anyhow::{bail, Context, Result};
use std::path::Path;

/// Folds when `--folds` is not given: every item is tested once, by a model that never saw it.
const DEFAULT_FOLDS: u64 = 5;

/// The baseline every arm is compared with: each label's mean N-vote share over the training items.
const CONSTANT: &str = "constant";

pub fn run(a: &Args, data: &Path, file: &Path, head: &HeadConfig) -> Result<()> {
    let table = crate::util::load_multilabel(file)?;
    let name = dataset_name(data);
    let arms: Vec<MlArm> = if a.arms.is_empty() {
        MlArm::ALL.to_vec()
    } else {
        a.arms
            .iter()
            .map(|s| {
                MlArm::parse(s).with_context(|| {
                    let names: Vec<&str> = MlArm::ALL.iter().map(|a| a.name()).collect();
                    format!(
                        "unknown multilabel arm {s:?}; multilabel arms are {}",
                        names.join(", ")
                    )
                })
            })
            .collect::<Result<_>>()?
    };
    if a.limit.is_some() || a.heldout.is_some() || a.truth || a.shard.is_some() {
        bail!("--limit, --heldout, --truth and --shard are not supported for multilabel votes");
    }
    let max_n = table.min_votes();
    let mut ns: Vec<u32> =
        a.ns.iter()
            .copied()
            .filter(|&n| n >= 1 && n <= max_n)
            .collect();
    if !ns.contains(&max_n) {
        ns.push(max_n);
    }
    let folds = a.folds.unwrap_or(DEFAULT_FOLDS);
    let features = match &a.head_features {
        Some(f) => load_features(f)?,
        None => compute_head_features(a, data)?,
    };
    if features.item_ids.as_slice() != table.item_ids() {
        bail!(
            "{}: the features' items do not match {}'s ({} vs {} items)",
            data.display(),
            file.display(),
            features.item_ids.len(),
            table.n_items()
        );
    }
    let hs = heads(&arms, &ns);
    eprintln!(
        "note: multilabel votes: {} items, {} labels, {} heads per group, {folds} folds × {} model seeds",
        table.n_items(),
        table.n_labels(),
        hs.len(),
        a.seeds
    );
    let nl = table.n_labels();
    let n_items = table.n_items();
    // preds[seed][head]: items × labels in table order; constant[seed][n] likewise.
    let mut preds = vec![vec![vec![0f32; n_items * nl]; hs.len()]; a.seeds as usize];
    let mut constant = vec![vec![vec![0f32; n_items * nl]; ns.len()]; a.seeds as usize];
    let mut strata = vec![0u32; n_items];
    let mut epochs = vec![0f64; hs.len()];
    let pb = progress(folds * a.seeds * head.epochs as u64, &name);
    for fold in 0..folds {
        for seed in 0..a.seeds {
            let t0 = std::time::Instant::now();
            let f = train_fold(
                &table,
                &features.values,
                features.width,
                &hs,
                fold,
                folds,
                seed,
                head,
                |_| pb.inc(1),
            )?;
            pb.set_position(pb.position().next_multiple_of(head.epochs as u64));
            for (t, &item) in f.test_items.iter().enumerate() {
                strata[item] = fold as u32;
                for (j, p) in f.test_probs.iter().enumerate() {
                    preds[seed as usize][j][item * nl..][..nl].copy_from_slice(&p[t * nl..][..nl]);
                }
                for (g, c) in f.constant.iter().enumerate() {
                    constant[seed as usize][g][item * nl..][..nl].copy_from_slice(c);
                }
            }
            for (e, &b) in epochs.iter_mut().zip(&f.best_epochs) {
                *e += b as f64 / (folds * a.seeds) as f64;
            }
            tracing::info!(
                "{name} fold {fold} seed {seed}: {:.2} s",
                t0.elapsed().as_secs_f64()
            );
        }
    }
    pb.finish_and_clear();
    let export = assemble(
        &table, &name, &features, folds, a.seeds, head, &arms, &ns, preds, constant, strata,
        &epochs,
    );
    let dir = a.out.join(&name);
    std::fs::create_dir_all(&dir)?;
    atomic_write(
        &dir.join(annosat_heads::features::FILE),
        &features.to_bytes()?,
    )?;
    atomic_write(&dir.join(FILE), export.to_json().as_bytes())?;
    for s in export.sentences() {
        eprintln!("{s}");
    }
    println!("{}", dir.join(FILE).display());
    Ok(())
}

#[allow(clippy::too_many_arguments)] // the sweep's design and everything it trained
fn assemble(
    table: &MultilabelTable,
    name: &str,
    features: &annosat_heads::HeadFeatures,
    folds: u64,
    seeds: u64,
    head: &HeadConfig,
    arms: &[MlArm],
    ns: &[u32],
    preds: Vec<Vec<Vec<f32>>>,
    constant: Vec<Vec<Vec<f32>>>,
    strata: Vec<u32>,
    epochs: &[f64],
) -> MlExport {
    let nl = table.n_labels();
    let hs = heads(arms, ns);
    let mut runs = Vec::new();
    for (seed, (p, c)) in preds.into_iter().zip(constant).enumerate() {
        for ((arm, n), pred) in hs.iter().zip(p) {
            runs.push(MlRun {
                arm: arm.name().into(),
                seed: seed as u64,
                n: *n,
                pred,
            });
        }
        for (&n, pred) in ns.iter().zip(c) {
            runs.push(MlRun {
                arm: CONSTANT.into(),
                seed: seed as u64,
                n,
                pred,
            });
        }
    }
    let human: Vec<f64> = (0..table.n_items()).flat_map(|i| table.shares(i)).collect();
    let block = MlBlock {
        labels: nl,
        human,
        strata,
        runs,
    };
    let mut pairs: Vec<(String, String)> = arms
        .iter()
        .filter(|&&a| a != MlArm::Soft)
        .map(|a| ("soft".to_string(), a.name().to_string()))
        .filter(|_| arms.contains(&MlArm::Soft))
        .collect();
    pairs.extend(
        arms.iter()
            .map(|a| (a.name().to_string(), CONSTANT.to_string())),
    );
    let evaluation = evaluate(&block, DEFAULT_RESAMPLES, 0, VERDICT_X, &pairs);
    let mut infos: Vec<MlArmInfo> = arms
        .iter()
        .map(|a| MlArmInfo {
            name: a.name().into(),
            description: a.description().into(),
        })
        .collect();
    infos.push(MlArmInfo {
        name: CONSTANT.into(),
        description: "each label's mean N-vote share over the training items, for every item"
            .into(),
    });
    MlExport {
        dataset: name.into(),
        encoder: features.encoder.clone(),
        layout: features.layout.clone(),
        features: features.hash(),
        items: table.n_items(),
        labels: table.labels().to_vec(),
        votes_per_item: table.max_votes(),
        folds,
        model_seeds: seeds,
        head: head.clone(),
        arms: infos,
        best_epochs: epochs.chunks(ns.len()).map(<[f64]>::to_vec).collect(),
        evaluation,
    }
}

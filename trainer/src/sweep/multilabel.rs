//! `annosat sweep` on a multilabel dataset folder (`ratings_multilabel.csv` or `labels_long.csv`,
//! no `votes.csv`): sigmoid heads per arm × N on frozen MiniLM features, k-fold (every item tested
//! once), scored against each item's full-vote label shares, and exported as `multilabel.json`
//! (curves with item intervals, verdicts, soft against hard) beside the f16 `features.safetensors`.

use super::{compute_head_features, load_features, Args};
use crate::util::{atomic_write, dataset_name, progress};
use annosat_core::models::HeadConfig;
use annosat_core::multilabel::export::FILE;
use annosat_heads::ml_sweep::{MlCollect, MlDesign, DEFAULT_FOLDS};
use annosat_heads::multilabel::{train_fold, MlArm};
use anyhow::{bail, Context, Result};
use std::path::Path;

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
    let ns = MlDesign::ns_for(&table, &a.ns);
    let design = MlDesign {
        arms,
        ns,
        folds: a.folds.unwrap_or(DEFAULT_FOLDS),
        seeds: a.seeds,
    };
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
    let hs = design.heads();
    eprintln!(
        "note: multilabel votes: {} items, {} labels, {} heads per group, {} folds × {} model seeds",
        table.n_items(),
        table.n_labels(),
        hs.len(),
        design.folds,
        design.seeds
    );
    let mut collect = MlCollect::new(&design, &table);
    let pb = progress(design.folds * design.seeds * head.epochs as u64, &name);
    for (fold, seed) in design.groups() {
        let t0 = std::time::Instant::now();
        let f = train_fold(
            &table,
            &features.values,
            features.width,
            &hs,
            fold,
            design.folds,
            seed,
            head,
            |_| pb.inc(1),
        )?;
        pb.set_position(pb.position().next_multiple_of(head.epochs as u64));
        collect.add(fold, seed, &f);
        tracing::info!(
            "{name} fold {fold} seed {seed}: {:.2} s",
            t0.elapsed().as_secs_f64()
        );
    }
    pb.finish_and_clear();
    let export = collect.export(&table, &name, &features, head);
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

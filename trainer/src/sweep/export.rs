//! The files the app reads (schema: docs/exports.md). Written atomically, deterministically (same
//! groups ⇒ same bytes), and small: predictions as u16, curves rounded.

use super::SweepConfig;
use crate::util::atomic_write;
use annosat_core::models::{ExportEntry, ExportsIndex, TrainingEntry, MANIFEST_SCHEMA};
use annosat_heads::manifest::build;
use annosat_heads::{features, Dataset, GroupResult};
use anyhow::Result;
use std::path::{Path, PathBuf};

fn round5(x: f32) -> f64 {
    let v = x as f64;
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let mag = libm::pow(10.0, 4.0 - libm::floor(libm::log10(v.abs())));
    libm::round(v * mag) / mag
}

/// Writes `<out>/<dataset>[/heldout]/{manifest.json, predictions.bin, training.json,
/// features.safetensors}` and refreshes
/// `<out>/index.json`. Returns the dataset's export folder.
pub fn write(
    out: &Path,
    prep: &Dataset,
    cfg: &SweepConfig,
    groups: &[GroupResult],
) -> Result<PathBuf> {
    let dir = if cfg.heldout {
        out.join(&prep.name).join("heldout")
    } else {
        out.join(&prep.name)
    };
    let reference = if cfg.heldout {
        "held-out 20% of each item's votes"
    } else if cfg.truth {
        "the true distributions (truth.csv)"
    } else {
        "all votes"
    };
    let (manifest, pred) = build(
        prep,
        groups,
        reference,
        Some(cfg.clone()),
        command_line(cfg),
    )?;
    let training: Vec<TrainingEntry> = groups
        .iter()
        .flat_map(|g| {
            g.runs.iter().map(|r| TrainingEntry {
                arm: r.arm.clone(),
                n: r.n,
                split: g.split,
                seed: g.seed,
                train_loss: r.train_loss.iter().map(|&x| round5(x)).collect(),
                val_loss: r.val_loss.iter().map(|&x| round5(x)).collect(),
            })
        })
        .collect();
    atomic_write(&dir.join(features::FILE), &prep.head.to_bytes()?)?;
    atomic_write(&dir.join("predictions.bin"), &pred)?;
    atomic_write(&dir.join("training.json"), &serde_json::to_vec(&training)?)?;
    atomic_write(&dir.join("manifest.json"), &serde_json::to_vec(&manifest)?)?;
    write_index(out)?;
    Ok(dir)
}

fn command_line(cfg: &SweepConfig) -> String {
    let mut c = format!(
        "annosat sweep --data <data>/{} --out public/models --hidden {} --lr {} --weight-decay {} --batch {} --epochs {} --patience {} --seeds {}",
        cfg.dataset, cfg.head.hidden, cfg.head.lr, cfg.head.weight_decay, cfg.head.batch, cfg.head.epochs, cfg.head.patience, cfg.seeds
    );
    if cfg.heldout {
        c.push_str(" --heldout");
    }
    if cfg.truth {
        c.push_str(" --truth");
    }
    if let Some(k) = cfg.folds {
        c.push_str(&format!(" --folds {k}"));
    }
    if let Some(f) = &cfg.feature_set {
        c.push_str(&format!(" --features {f}"));
    }
    c
}

/// `<out>/index.json`: every exported dataset (and held-out variant), so the app knows what exists.
pub(crate) fn write_index(out: &Path) -> Result<()> {
    let mut entries = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(out)?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        for (variant, rel) in [
            ("all", name.clone()),
            ("heldout", format!("{name}/heldout")),
        ] {
            if out.join(&rel).join("manifest.json").exists() {
                entries.push(ExportEntry {
                    dataset: name.clone(),
                    path: format!("{rel}/manifest.json"),
                    reference: variant.into(),
                });
            }
        }
    }
    let body = serde_json::to_vec_pretty(&ExportsIndex {
        exports: entries,
        schema: MANIFEST_SCHEMA.into(),
    })?;
    atomic_write(&out.join("index.json"), &body)
}

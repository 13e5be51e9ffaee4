//! The files the app reads (schema: docs/exports.md). Written atomically, deterministically (same
//! groups ⇒ same bytes), and small: predictions as u16, curves rounded.

use super::SweepConfig;
use crate::util::atomic_write;
use annosat_heads::eval::Metrics;
use annosat_heads::{features, Dataset, GroupResult};
use anyhow::Result;
use serde::Serialize;
use std::path::{Path, PathBuf};

pub const SCHEMA: &str = "annosat-models/1";

#[derive(Serialize)]
struct Manifest<'a> {
    schema: &'static str,
    dataset: &'a str,
    classes: &'a [String],
    encoder: &'a str,
    features: &'a str,
    /// "all votes" or "held-out 20% of each item's votes".
    reference: &'static str,
    config: &'a SweepConfig,
    /// How to regenerate these files.
    command: String,
    splits: Vec<SplitInfo<'a>>,
    predictions: PredInfo,
    runs: Vec<RunEntry<'a>>,
}

#[derive(Serialize)]
struct SplitInfo<'a> {
    seed: u64,
    test_items: Vec<&'a str>,
}

#[derive(Serialize)]
struct PredInfo {
    file: &'static str,
    dtype: &'static str,
    layout: &'static str,
}

#[derive(Serialize)]
struct RunEntry<'a> {
    arm: &'a str,
    n: u32,
    split: u64,
    seed: u64,
    best_epoch: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f64>,
    metrics: &'a Metrics,
    /// Index of this run's first value in predictions.bin (in u16 values, not bytes).
    offset: usize,
}

#[derive(Serialize)]
struct TrainingEntry<'a> {
    arm: &'a str,
    n: u32,
    split: u64,
    seed: u64,
    train_loss: Vec<f64>,
    val_loss: Vec<f64>,
}

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
    let mut pred = Vec::new();
    let mut runs = Vec::new();
    let mut training = Vec::new();
    let mut splits: Vec<SplitInfo> = Vec::new();
    for g in groups {
        if !splits.iter().any(|s| s.seed == g.split) {
            splits.push(SplitInfo {
                seed: g.split,
                test_items: g
                    .test_items
                    .iter()
                    .map(|&i| prep.item_ids[i].as_str())
                    .collect(),
            });
        }
        for r in &g.runs {
            runs.push(RunEntry {
                arm: &r.arm,
                n: r.n,
                split: g.split,
                seed: g.seed,
                best_epoch: r.best_epoch,
                temperature: r.temperature,
                metrics: &r.metrics,
                offset: pred.len() / 2,
            });
            pred.extend(r.probs.iter().flat_map(|p| p.to_le_bytes()));
            training.push(TrainingEntry {
                arm: &r.arm,
                n: r.n,
                split: g.split,
                seed: g.seed,
                train_loss: r.train_loss.iter().map(|&x| round5(x)).collect(),
                val_loss: r.val_loss.iter().map(|&x| round5(x)).collect(),
            });
        }
    }
    let command = command_line(cfg);
    let manifest = Manifest {
        schema: SCHEMA,
        dataset: &prep.name,
        classes: &prep.classes,
        encoder: &prep.head.encoder,
        features: &prep.head.layout,
        reference: if cfg.heldout {
            "held-out 20% of each item's votes"
        } else {
            "all votes"
        },
        config: cfg,
        command,
        splits,
        predictions: PredInfo {
            file: "predictions.bin",
            dtype: "u16 little-endian, probability = value / 65535",
            layout: "runs in manifest order; per run, the split's test items in order × classes",
        },
        runs,
    };
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
    c
}

/// `<out>/index.json`: every exported dataset (and held-out variant), so the app knows what exists.
fn write_index(out: &Path) -> Result<()> {
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
                entries.push(serde_json::json!({"dataset": name, "reference": variant, "path": format!("{rel}/manifest.json")}));
            }
        }
    }
    let body =
        serde_json::to_vec_pretty(&serde_json::json!({ "schema": SCHEMA, "exports": entries }))?;
    atomic_write(&out.join("index.json"), &body)
}

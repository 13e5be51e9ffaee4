//! Model-side results: the trainer's exported sweeps (docs/exports.md), aggregated into metric-vs-N
//! curves per arm, "x% of the improvement by N" points, and paired comparisons between arms.
//!
//! The trainer writes the manifests; the app and `annosat repro` read them through this module, so
//! the numbers on the page and in the reproduction table come from one implementation.

pub mod budget;
mod compare;
mod config;
mod files;
mod run_metrics;
#[cfg(test)]
mod tests;
pub mod verdict;
mod verdict_blocks;

pub use compare::{paired, Paired};
pub use config::{fnv1a_hex, HeadConfig, SweepConfig, METRICS_VERSION, N_GRID};
pub use files::{
    arm_description, ExportEntry, ExportsIndex, Predictions, Repro, ReproRow, TrainingEntry,
    MANIFEST_SCHEMA, REPRO_SCHEMA,
};
pub use run_metrics::{RunMetrics, ValidationMetrics};
pub use verdict::{ArmVerdicts, MetricVerdict, Verdict};
pub use verdict_blocks::blocks_of_export;

use serde::{Deserialize, Serialize};

/// Share of each item's votes held out as the reference when a sweep evaluates against held-out
/// votes (`annosat sweep --heldout`, and the app's held-out setting); split seed 0.
pub const HELDOUT_FRACTION: f64 = 0.2;

/// The reference distributions an export was scored against, by item id: all votes, or the
/// held-out 20% (`Manifest::config.heldout`).
pub fn reference_of(
    table: &crate::VoteTable,
    heldout: bool,
) -> std::collections::HashMap<String, Vec<f64>> {
    let t = if heldout {
        crate::sample::split_heldout(table, HELDOUT_FRACTION, 0).b
    } else {
        table.clone()
    };
    (0..t.num_items())
        .map(|i| (t.item_ids()[i].clone(), t.distribution(i)))
        .collect()
}

/// A sweep's `manifest.json`, as `annosat sweep` writes it and every reader reads it (field order
/// is the file's byte order).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    pub schema: String,
    pub dataset: String,
    pub classes: Vec<String>,
    pub encoder: String,
    pub features: String,
    pub reference: String,
    /// The sweep's settings (absent in exports older than the app's in-tab training).
    #[serde(default)]
    pub config: Option<SweepConfig>,
    pub command: String,
    pub splits: Vec<Split>,
    #[serde(default)]
    pub predictions: Predictions,
    pub runs: Vec<Run>,
    /// k-fold sweeps only: per arm, N and model seed, the metrics over every item (each tested in
    /// its fold), with the entropy correlation's 95% interval.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pooled: Vec<PooledRun>,
    /// Per arm (and, for a pooled export, per source too): does each metric change with N
    /// (`verdict::verdicts`, over the test items and splits). Absent in older exports.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verdicts: Vec<ArmVerdicts>,
    /// Pooled exports only: the entropy correlation over all items of a predictor that knows only
    /// each item's source — the part of a pooled r the mix of sources gives by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_only_entropy_corr: Option<f64>,
    /// Every arm against the constant and kNN baselines at N_max, paired over the same resamples
    /// as the verdicts (and within each source of a pooled export).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub versus: Vec<verdict::Versus>,
}

/// One arm at one N for one model seed of a k-fold sweep, scored over all items at once: the folds'
/// test predictions (as stored, u16) joined. With 3,113 items the entropy correlation's interval is
/// about ±0.035 instead of ±0.16 on one 152-item test split.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PooledRun {
    pub arm: String,
    pub n: u32,
    pub seed: u64,
    pub items: usize,
    pub metrics: RunMetrics,
    /// Fisher-z 95% interval of `metrics.entropy_corr` (`metrics::pearson_ci95`).
    pub entropy_corr_ci: Option<(f64, f64)>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Split {
    pub seed: u64,
    pub test_items: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Run {
    pub arm: String,
    pub n: u32,
    pub split: u64,
    pub seed: u64,
    pub best_epoch: usize,
    /// Distinct votes per item the run's targets used up to its best epoch: N for every arm but
    /// `deterministic` (its first visit's votes). sls and multipass keep a best epoch only once all
    /// N votes have been delivered (`annosat_heads::arms`), which this records.
    #[serde(default)]
    pub votes_used: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Neighbourhood size chosen on validation (the `knn` baseline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbours: Option<u32>,
    pub metrics: RunMetrics,
    /// The metrics on the validation items against their p_N (the run's N votes): choices between
    /// arms are made on these, never on the test metrics.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<ValidationMetrics>,
    /// Index of this run's first value in predictions.bin (in u16 values, not bytes).
    pub offset: usize,
}

/// The model-side metrics the app plots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelMetric {
    Kl,
    EntropyCorr,
    Brier,
    Rel,
    Res,
    Unc,
    Residual,
    Ece,
    DistEce,
    Accuracy,
}

impl ModelMetric {
    pub const ALL: [ModelMetric; 10] = [
        ModelMetric::Kl,
        ModelMetric::EntropyCorr,
        ModelMetric::Brier,
        ModelMetric::Rel,
        ModelMetric::Res,
        ModelMetric::Unc,
        ModelMetric::Residual,
        ModelMetric::Ece,
        ModelMetric::DistEce,
        ModelMetric::Accuracy,
    ];

    pub fn key(self) -> &'static str {
        match self {
            ModelMetric::Kl => "kl",
            ModelMetric::EntropyCorr => "entropy_corr",
            ModelMetric::Brier => "brier",
            ModelMetric::Rel => "rel",
            ModelMetric::Res => "res",
            ModelMetric::Unc => "unc",
            ModelMetric::Residual => "residual",
            ModelMetric::Ece => "ece",
            ModelMetric::DistEce => "dist_ece",
            ModelMetric::Accuracy => "accuracy",
        }
    }

    pub fn parse(s: &str) -> Option<ModelMetric> {
        ModelMetric::ALL.into_iter().find(|m| m.key() == s)
    }

    /// Axis label with units.
    pub fn label(self) -> &'static str {
        match self {
            ModelMetric::Kl => "KL(human ‖ model), nats",
            ModelMetric::EntropyCorr => "entropy correlation (Pearson r)",
            ModelMetric::Brier => "Brier score (soft targets)",
            ModelMetric::Rel => "Murphy REL (lower is better)",
            ModelMetric::Res => "Murphy RES (higher is better)",
            ModelMetric::Unc => "Murphy UNC = Σ Var(y_k) (data only)",
            ModelMetric::Residual => "Brier − (REL − RES + UNC): within-bin terms",
            ModelMetric::Ece => "ECE vs majority (15 bins)",
            ModelMetric::DistEce => "Dist-ECE (15 bins)",
            ModelMetric::Accuracy => "accuracy vs human majority",
        }
    }

    /// Whether arms are compared on it (UNC is the data's, the residual a check on the identity).
    pub fn compared(self) -> bool {
        !matches!(self, ModelMetric::Unc | ModelMetric::Residual)
    }

    pub fn higher_is_better(self) -> bool {
        matches!(
            self,
            ModelMetric::EntropyCorr | ModelMetric::Res | ModelMetric::Accuracy
        )
    }

    pub fn of(self, m: &RunMetrics) -> Option<f64> {
        let v = match self {
            ModelMetric::Kl => m.kl,
            ModelMetric::EntropyCorr => return m.entropy_corr,
            ModelMetric::Brier => m.brier,
            ModelMetric::Rel => m.rel,
            ModelMetric::Res => m.res,
            ModelMetric::Unc => m.unc,
            ModelMetric::Residual => m.residual,
            ModelMetric::Ece => m.ece,
            ModelMetric::DistEce => m.dist_ece,
            ModelMetric::Accuracy => m.accuracy,
        };
        v.is_finite().then_some(v)
    }
}

/// One N of an arm's curve: mean over runs (model seeds × split seeds) and their range.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ArmPoint {
    pub n: u32,
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    pub runs: usize,
}

impl Manifest {
    /// The pooled (all-items) runs of a k-fold sweep for `arm` at `n`, one per model seed.
    pub fn pooled_at(&self, arm: &str, n: u32) -> Vec<&PooledRun> {
        self.pooled
            .iter()
            .filter(|p| p.arm == arm && p.n == n)
            .collect()
    }

    pub fn parse(json: &str) -> Result<Manifest, String> {
        let m: Manifest =
            serde_json::from_str(json).map_err(|e| format!("not a model manifest: {e}"))?;
        if !m.schema.starts_with("annosat-models/") {
            return Err(format!("unknown schema {:?}", m.schema));
        }
        Ok(m)
    }

    /// Arms in the order the trainer wrote them.
    pub fn arms(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for r in &self.runs {
            if !v.contains(&r.arm) {
                v.push(r.arm.clone());
            }
        }
        v
    }

    /// The N grid, ascending.
    pub fn ns(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.runs.iter().map(|r| r.n).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// (split, seed) pairs, each one paired unit of comparison.
    pub fn units(&self) -> Vec<(u64, u64)> {
        let mut v: Vec<(u64, u64)> = self.runs.iter().map(|r| (r.split, r.seed)).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The verdicts of `arm` over all items (`source: None`) or within one source.
    pub fn verdict(&self, arm: &str, source: Option<&str>) -> Option<&ArmVerdicts> {
        self.verdicts
            .iter()
            .find(|v| v.arm == arm && v.source.as_deref() == source)
    }

    /// Metric value of one run, if present and defined.
    pub fn value(&self, arm: &str, n: u32, unit: (u64, u64), metric: ModelMetric) -> Option<f64> {
        self.runs
            .iter()
            .find(|r| r.arm == arm && r.n == n && (r.split, r.seed) == unit)
            .and_then(|r| metric.of(&r.metrics))
    }

    /// Mean and range over runs at every N for one arm and metric. A k-fold export's runs are its
    /// all-items runs (one per model seed: every fold's test items scored together), so its
    /// curve is the metric over all items, as its verdicts judge it.
    pub fn curve(&self, arm: &str, metric: ModelMetric) -> Vec<ArmPoint> {
        self.ns()
            .into_iter()
            .filter_map(|n| {
                let vals: Vec<f64> = if self.pooled.is_empty() {
                    self.runs
                        .iter()
                        .filter(|r| r.arm == arm && r.n == n)
                        .filter_map(|r| metric.of(&r.metrics))
                        .collect()
                } else {
                    self.pooled_at(arm, n)
                        .into_iter()
                        .filter_map(|r| metric.of(&r.metrics))
                        .collect()
                };
                (!vals.is_empty()).then(|| ArmPoint {
                    n,
                    mean: vals.iter().sum::<f64>() / vals.len() as f64,
                    min: vals.iter().cloned().fold(f64::INFINITY, f64::min),
                    max: vals.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
                    runs: vals.len(),
                })
            })
            .collect()
    }
}

/// Share of the first-to-last improvement captured at each point of a mean curve, by the project's
/// one definition (`curves::saturation::improvement_fractions`). `None` when the curve does not move.
pub fn captured_share(points: &[ArmPoint]) -> Option<Vec<f64>> {
    let means: Vec<Option<f64>> = points.iter().map(|p| Some(p.mean)).collect();
    crate::curves::saturation::improvement_fractions(&means, false)
        .into_iter()
        .collect()
}

/// "x% captured by N" on the model side: the first grid N whose mean reaches `x` of the N₁ → N_max
/// improvement — the same definition as the target side's saturation point
/// (`curves::saturation::first_reaching`).
pub fn captured_at(points: &[ArmPoint], x: f64) -> Option<u32> {
    let share: Vec<Option<f64>> = captured_share(points)?.into_iter().map(Some).collect();
    let grid: Vec<u32> = points.iter().map(|p| p.n).collect();
    crate::curves::saturation::first_reaching(&grid, &share, x)
}

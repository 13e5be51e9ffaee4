//! What the product shows of multilabel curves — the CLI's JSON and the app's Target room — built
//! by one function, so both show the same numbers and the same sentences.

use super::curves::{MlConfig, MlCurves, MlPoint};
use super::metric::MlMetric;
use super::saturation::MlSaturation;
use super::table::MultilabelTable;
use serde::{Deserialize, Serialize};

/// A curve point with the item bootstrap's band at it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ReportPoint {
    #[serde(flatten)]
    pub point: MlPoint,
    pub items_lo: Option<f64>,
    pub items_hi: Option<f64>,
}

/// One metric: its curve, its saturation point and the point in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricReport {
    pub metric: MlMetric,
    pub points: Vec<ReportPoint>,
    pub saturation: MlSaturation,
    pub sentence: String,
}

/// One label: how common it is, and its own JS-distance and F1 curves and saturation point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LabelReport {
    pub label: String,
    /// Mean over items of the label's share.
    pub mean_share: f64,
    /// Items whose full votes give the label by majority (share ≥ ½).
    pub majority_items: usize,
    pub jsd: Vec<MlPoint>,
    pub f1: Vec<MlPoint>,
    pub saturation: MlSaturation,
    pub sentence: String,
}

/// The item bootstrap's settings, as done.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BootInfo {
    pub resamples: u32,
    pub blocks: bool,
    pub units: u32,
}

/// Everything shown of one multilabel computation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MlReport {
    pub labels: Vec<String>,
    pub grid: Vec<u32>,
    pub repeats: u32,
    pub seed: u64,
    /// The share of the improvement the saturation points are for.
    pub target: f64,
    /// Items with at least N annotators, per grid N.
    pub items: Vec<u32>,
    pub bootstrap: Option<BootInfo>,
    pub metrics: Vec<MetricReport>,
    pub per_label: Vec<LabelReport>,
}

impl MlReport {
    /// The report of `curves` (computed on `table` with `cfg`) for the target share `x`.
    pub fn of(table: &MultilabelTable, curves: &MlCurves, cfg: &MlConfig, x: f64) -> MlReport {
        let last = curves.grid.last().copied().unwrap_or(0);
        let metrics = MlMetric::ALL
            .iter()
            .map(|&m| {
                let points = curves
                    .points(m)
                    .into_iter()
                    .enumerate()
                    .map(|(g, point)| {
                        let (items_lo, items_hi) =
                            curves.bands.as_ref().map_or((None, None), |b| b.band(m, g));
                        ReportPoint {
                            point,
                            items_lo,
                            items_hi,
                        }
                    })
                    .collect();
                let saturation = curves.saturation(m, x);
                MetricReport {
                    metric: m,
                    points,
                    sentence: saturation.sentence(m.name(), last),
                    saturation,
                }
            })
            .collect();
        let shares: Vec<Vec<f64>> = (0..table.n_items()).map(|i| table.shares(i)).collect();
        let per_label = table
            .labels()
            .iter()
            .enumerate()
            .map(|(l, name)| {
                let saturation = curves.label_saturation(l, x);
                LabelReport {
                    label: name.clone(),
                    mean_share: shares.iter().map(|s| s[l]).sum::<f64>()
                        / table.n_items().max(1) as f64,
                    majority_items: shares.iter().filter(|s| s[l] >= 0.5).count(),
                    jsd: curves.label_jsd(l),
                    f1: curves.label_f1(l),
                    sentence: saturation.sentence(&format!("{name} (JS distance)"), last),
                    saturation,
                }
            })
            .collect();
        MlReport {
            labels: table.labels().to_vec(),
            grid: curves.grid.clone(),
            repeats: curves.repeats,
            seed: cfg.seed,
            target: x,
            items: curves.items.clone(),
            bootstrap: curves.bands.as_ref().map(|b| BootInfo {
                resamples: b.resamples,
                blocks: b.blocks,
                units: b.units,
            }),
            metrics,
            per_label,
        }
    }

    /// The report of one metric.
    pub fn metric(&self, m: MlMetric) -> &MetricReport {
        &self.metrics[m.index()]
    }
}

//! The model-side metrics of one run, and the one function that computes them from a run's test
//! predictions (the sweep, the app's model worker, the k-fold all-items runs and the verdicts'
//! resamples all call it or its parts).

use crate::metrics::{self, calibration};
use serde::{Deserialize, Serialize};

/// The model-side metrics of one run (test items against the reference). KL is KL(human ‖ model)
/// in nats (model clipped at 1e-15, as ChaosNLI's evaluation); JSD is the Jensen–Shannon distance;
/// entropy_corr is Pearson's r between the model's and the humans' per-item entropies (`None` when a
/// side has constant entropy); Brier uses soft (human) targets, rel/res/unc/residual are its Murphy
/// decomposition; ECE is against the human majority, Dist-ECE against the human share. Written by
/// the trainer, read by the app and `annosat repro`: field order is the export's byte order.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct RunMetrics {
    pub kl: f64,
    pub jsd: f64,
    pub entropy_corr: Option<f64>,
    pub brier: f64,
    pub rel: f64,
    pub res: f64,
    pub unc: f64,
    pub residual: f64,
    pub ece: f64,
    pub dist_ece: f64,
    pub accuracy: f64,
}

impl RunMetrics {
    /// Every metric as (name, value), in field order; `None` where undefined.
    pub fn fields(&self) -> [(&'static str, Option<f64>); 11] {
        [
            ("kl", Some(self.kl)),
            ("jsd", Some(self.jsd)),
            ("entropy_corr", self.entropy_corr),
            ("brier", Some(self.brier)),
            ("rel", Some(self.rel)),
            ("res", Some(self.res)),
            ("unc", Some(self.unc)),
            ("residual", Some(self.residual)),
            ("ece", Some(self.ece)),
            ("dist_ece", Some(self.dist_ece)),
            ("accuracy", Some(self.accuracy)),
        ]
    }

    /// The largest absolute difference over all metrics, and which metric it is; a metric defined
    /// on one side only counts as infinitely different. Compares a run retrained elsewhere (the
    /// app's model worker) with the exported one.
    pub fn max_abs_diff(&self, other: &RunMetrics) -> (f64, &'static str) {
        self.fields()
            .into_iter()
            .zip(other.fields())
            .map(|((name, a), (_, b))| {
                let d = match (a, b) {
                    (Some(x), Some(y)) => (x - y).abs(),
                    (None, None) => 0.0,
                    _ => f64::INFINITY,
                };
                (d, name)
            })
            .fold((0.0, "kl"), |best, d| if d.0 > best.0 { d } else { best })
    }
}

/// The metrics choices are made on, for the validation items against their p_N: KL (the head's
/// training objective, up to a constant) and entropy correlation (what the study is about). Only
/// these two are exported, to keep the exports inside their size budget.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct ValidationMetrics {
    pub kl: f64,
    pub entropy_corr: Option<f64>,
}

impl From<&RunMetrics> for ValidationMetrics {
    fn from(m: &RunMetrics) -> Self {
        ValidationMetrics {
            kl: m.kl,
            entropy_corr: m.entropy_corr,
        }
    }
}

impl RunMetrics {
    /// Every metric of predictions `pred` against human distributions `human` (both items × k).
    pub fn of(pred: &[f64], human: &[f64], k: usize) -> RunMetrics {
        let n = pred.len() / k;
        let rows = || pred.chunks_exact(k).zip(human.chunks_exact(k));
        let kl = rows().map(|(q, p)| metrics::kl(p, q)).sum::<f64>() / n as f64;
        let jsd = rows().map(|(q, p)| metrics::js_distance(p, q)).sum::<f64>() / n as f64;
        let m = calibration::murphy(pred, human, k, calibration::MURPHY_BINS);
        RunMetrics {
            kl,
            jsd,
            entropy_corr: metrics::entropy_corr(pred, human, k),
            brier: m.brier,
            rel: m.rel,
            res: m.res,
            unc: m.unc,
            residual: m.residual,
            ece: calibration::ece(pred, human, k, calibration::ECE_BINS),
            dist_ece: calibration::dist_ece(pred, human, k, calibration::ECE_BINS),
            accuracy: calibration::accuracy(pred, human, k),
        }
    }
}

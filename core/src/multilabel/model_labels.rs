//! The model side per label: which labels a head learns better with more annotators, and which
//! stop improving late. For every arm, label and N, the label's SoftBCE (against its full-vote
//! share) and its F1 at ½ (against the full-vote majority), with the same item resamples within
//! folds as [`super::models::evaluate`] — the same draws, so the bands are comparable — and the same
//! verdict rule, so a label whose curve is within noise says "no detectable change with N".

use super::model_resamples::{bands, finite, verdict_of, weights};
use super::models::{bernoulli_entropy, MlBlock, EPS};
use crate::models::verdict::MetricVerdict;
use serde::{Deserialize, Serialize};

/// A per-label metric of the model side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MlLabelMetric {
    /// Mean over items of `−[p log q + (1 − p) log(1 − q)]` for this label.
    SoftBce,
    /// F1 of the label predicted at q ≥ ½ against its full-vote majority; undefined where no
    /// item has the label by majority and none is predicted.
    F1,
}

impl MlLabelMetric {
    pub const ALL: [MlLabelMetric; 2] = [MlLabelMetric::SoftBce, MlLabelMetric::F1];

    pub fn name(self) -> &'static str {
        match self {
            MlLabelMetric::SoftBce => "soft_bce",
            MlLabelMetric::F1 => "f1",
        }
    }

    pub fn higher_is_better(self) -> bool {
        self == MlLabelMetric::F1
    }
}

/// One arm's curve of one label's metric over N, with its band and verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MlLabelCurve {
    pub arm: String,
    /// The label's index in the table's labels.
    pub label: usize,
    pub metric: MlLabelMetric,
    pub mean: Vec<Option<f64>>,
    pub lo: Vec<Option<f64>>,
    pub hi: Vec<Option<f64>>,
    pub verdict: MetricVerdict,
}

/// Per-label curves of `arms` (all of the block's when empty), from the resamples `evaluate`
/// draws for the same `seed`.
pub fn label_curves(
    block: &MlBlock,
    resamples: usize,
    seed: u64,
    x: f64,
    arms: &[String],
) -> Vec<MlLabelCurve> {
    let nl = block.labels;
    let mut ns: Vec<u32> = block.runs.iter().map(|r| r.n).collect();
    ns.sort_unstable();
    ns.dedup();
    if ns.is_empty() || nl == 0 {
        return Vec::new();
    }
    let mut names: Vec<String> = Vec::new();
    for r in &block.runs {
        if !names.contains(&r.arm) && (arms.is_empty() || arms.contains(&r.arm)) {
            names.push(r.arm.clone());
        }
    }
    let truth: Vec<bool> = block.human.iter().map(|&p| p >= 0.5).collect();
    // Per run: each (item, label)'s cross-entropy and whether the head predicts it.
    let runs: Vec<(usize, usize, Vec<f64>, Vec<bool>)> = block
        .runs
        .iter()
        .filter_map(|r| {
            let a = names.iter().position(|x| *x == r.arm)?;
            let g = ns.iter().position(|&n| n == r.n)?;
            let (bce, on) = r
                .pred
                .iter()
                .zip(&block.human)
                .map(|(&q, &p)| {
                    let q = q as f64;
                    let qc = q.clamp(EPS, 1.0 - EPS);
                    let b = -(p * libm::log(qc) + (1.0 - p) * libm::log(1.0 - qc));
                    (b, q >= 0.5)
                })
                .unzip();
            Some((a, g, bce, on))
        })
        .collect();
    let (na, nn, nm) = (names.len(), ns.len(), MlLabelMetric::ALL.len());
    let slot = |a: usize, l: usize, m: usize| ((a * nl + l) * nm + m) * nn;
    // values[b][slot(arm, label, metric) + n]: the mean over the arm's model seeds.
    let mut values = vec![vec![f64::NAN; na * nl * nm * nn]; resamples + 1];
    for (b, vals) in values.iter_mut().enumerate() {
        let w = weights(&block.strata, seed, b as u64);
        let sw: f64 = w.iter().map(|&v| v as f64).sum();
        let mut sums = vec![(0.0, 0u32); vals.len()];
        for (a, g, bce, on) in &runs {
            let mut bsum = vec![0.0; nl];
            let mut conf = vec![(0u64, 0u64, 0u64); nl];
            for (i, &wi) in w.iter().enumerate().filter(|(_, &wi)| wi > 0) {
                for l in 0..nl {
                    let k = i * nl + l;
                    bsum[l] += wi as f64 * bce[k];
                    let c = &mut conf[l];
                    match (on[k], truth[k]) {
                        (true, true) => c.0 += wi as u64,
                        (true, false) => c.1 += wi as u64,
                        (false, true) => c.2 += wi as u64,
                        _ => {}
                    }
                }
            }
            for l in 0..nl {
                let (tp, fp, fn_) = conf[l];
                let f1 = match 2 * tp + fp + fn_ {
                    0 => f64::NAN,
                    d => 2.0 * tp as f64 / d as f64,
                };
                for (m, v) in [bsum[l] / sw, f1].into_iter().enumerate() {
                    let s = &mut sums[slot(*a, l, m) + g];
                    s.0 += v;
                    s.1 += 1;
                }
            }
        }
        for (v, (s, c)) in vals.iter_mut().zip(sums) {
            if c > 0 {
                *v = s / c as f64;
            }
        }
    }
    let mut out = Vec::new();
    for (a, arm) in names.iter().enumerate() {
        for l in 0..nl {
            for (m, metric) in MlLabelMetric::ALL.into_iter().enumerate() {
                let all: Vec<Vec<Option<f64>>> = values
                    .iter()
                    .map(|v| {
                        v[slot(a, l, m)..][..nn]
                            .iter()
                            .map(|&x| finite(x))
                            .collect()
                    })
                    .collect();
                let verdict = verdict_of(&ns, &all, metric.higher_is_better(), x);
                let (lo, hi) = bands(&all);
                out.push(MlLabelCurve {
                    arm: arm.clone(),
                    label: l,
                    metric,
                    mean: all[0].clone(),
                    lo,
                    hi,
                    verdict,
                });
            }
        }
    }
    out
}

/// The lowest SoftBCE a label allows: its mean full-vote Bernoulli entropy (a head predicting every
/// share exactly), so a per-label SoftBCE is read against what is reachable.
pub fn label_floor(block: &MlBlock, label: usize) -> f64 {
    let nl = block.labels.max(1);
    let h: Vec<f64> = block
        .human
        .iter()
        .skip(label)
        .step_by(nl)
        .map(|&p| bernoulli_entropy(p))
        .collect();
    h.iter().sum::<f64>() / h.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::verdict::Verdict;
    use crate::multilabel::models::MlRun;

    /// 300 items × 2 labels: arm "learns" predicts label 0's share with noise shrinking as 1/N and
    /// label 1 at 0.5 whatever N; arm "exact" predicts both shares.
    #[test]
    fn a_label_that_improves_is_told_from_one_that_does_not() {
        let (items, nl) = (300usize, 2usize);
        let mut rng = crate::sample::stream(3, 1, 0, 0);
        let human: Vec<f64> = (0..items * nl)
            .map(|_| crate::sample::below(&mut rng, 11) as f64 / 10.0)
            .collect();
        let strata: Vec<u32> = (0..items as u32).map(|i| i % 5).collect();
        let mut runs = Vec::new();
        for n in [1u32, 2, 5, 10] {
            let pred = human
                .chunks(nl)
                .enumerate()
                .flat_map(|(i, h)| {
                    let noise = if i % 2 == 0 { 0.4 } else { -0.4 } / n as f64;
                    [(h[0] + noise).clamp(0.01, 0.99) as f32, 0.5]
                })
                .collect();
            runs.push(MlRun {
                arm: "learns".into(),
                seed: 0,
                n,
                pred,
            });
            runs.push(MlRun {
                arm: "exact".into(),
                seed: 0,
                n,
                pred: human.iter().map(|&p| p as f32).collect(),
            });
        }
        let block = MlBlock {
            labels: nl,
            human,
            strata,
            runs,
        };
        let curves = label_curves(&block, 100, 0, 0.9, &[]);
        assert_eq!(curves.len(), 2 * nl * MlLabelMetric::ALL.len());
        let get = |arm: &str, l: usize, m: MlLabelMetric| {
            curves
                .iter()
                .find(|c| c.arm == arm && c.label == l && c.metric == m)
                .unwrap()
        };
        let c = get("learns", 0, MlLabelMetric::SoftBce);
        assert!(c.mean[0] > c.mean[3], "{:?}", c.mean);
        assert_eq!(c.verdict.verdict, Verdict::Saturates);
        assert_eq!(
            get("learns", 1, MlLabelMetric::SoftBce).verdict.verdict,
            Verdict::NoDetectableChange
        );
        // Exact shares reach the floor, the label's mean entropy, and their F1 is 1.
        for l in 0..nl {
            let e = get("exact", l, MlLabelMetric::SoftBce);
            // Within the clamping at shares of 0 and 1 (entropy clamps p, the loss clamps q).
            assert!((e.mean[0].unwrap() - label_floor(&block, l)).abs() < 1e-5);
            assert_eq!(get("exact", l, MlLabelMetric::F1).mean[3], Some(1.0));
            for (lo, hi) in e.lo.iter().zip(&e.hi) {
                assert!(lo.unwrap() <= hi.unwrap());
            }
        }
    }
}

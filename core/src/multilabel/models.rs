//! The model side of multilabel votes: sigmoid heads' predictions scored against the full-vote label
//! shares, a curve over N per arm and metric with item intervals, a verdict per curve (does the
//! metric change with N at all), and arms compared pairwise at every N (soft against hard, every
//! arm against the constant baseline).
//!
//! The test items are resampled with replacement inside their stratum (a k-fold sweep's fold), the
//! same draws for every arm and N, so differences between arms are paired. Every resample recomputes
//! each metric from the resampled items; a verdict is [`judge`]'s rule, the single-label model
//! side's, so "no detectable change with N" and "bounded by your 15 votes" mean the same here.

use super::item_stats::macro_micro;
use super::model_resamples::{bands, finite, quantiles, verdict_of, weights};
use crate::models::verdict::MetricVerdict;
use serde::{Deserialize, Serialize};

/// Probabilities are clamped to `[EPS, 1 − EPS]` before a logarithm (a head saturating at 0 or 1
/// would otherwise make SoftBCE infinite on one item).
pub(super) const EPS: f64 = 1e-6;

/// What a multilabel head's predictions are scored by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MlModelMetric {
    /// Mean over items and labels of `−[p log q + (1 − p) log(1 − q)]`, p the full-vote share.
    SoftBce,
    /// Macro-F1 of the labels predicted at q ≥ ½ against the full-vote majority labels.
    MacroF1,
    /// Micro-F1 of the same.
    MicroF1,
    /// Pearson correlation over items of the label-set entropy Σ_l H(q_l) with the human one.
    EntropyCorr,
}

impl MlModelMetric {
    pub const ALL: [MlModelMetric; 4] = [
        MlModelMetric::SoftBce,
        MlModelMetric::MacroF1,
        MlModelMetric::MicroF1,
        MlModelMetric::EntropyCorr,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MlModelMetric::SoftBce => "soft_bce",
            MlModelMetric::MacroF1 => "macro_f1",
            MlModelMetric::MicroF1 => "micro_f1",
            MlModelMetric::EntropyCorr => "entropy_corr",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            MlModelMetric::SoftBce => "SoftBCE against the full-vote shares (lower is better)",
            MlModelMetric::MacroF1 => "Macro-F1 at ½ (higher is better)",
            MlModelMetric::MicroF1 => "Micro-F1 at ½ (higher is better)",
            MlModelMetric::EntropyCorr => "Label-set entropy correlation (higher is better)",
        }
    }

    pub fn higher_is_better(self) -> bool {
        self != MlModelMetric::SoftBce
    }
}

/// One trained run's predictions for every test item (items × labels, the block's item order).
pub struct MlRun {
    pub arm: String,
    pub seed: u64,
    pub n: u32,
    pub pred: Vec<f32>,
}

/// The test items: their full-vote shares (items × labels), strata, and every run's predictions.
pub struct MlBlock {
    pub labels: usize,
    pub human: Vec<f64>,
    pub strata: Vec<u32>,
    pub runs: Vec<MlRun>,
}

/// One arm's curve for one metric: the mean over model seeds at each N, its 95% interval over the
/// item resamples, and the verdict on its N₁ → N_max change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MlArmCurve {
    pub arm: String,
    pub metric: MlModelMetric,
    pub mean: Vec<Option<f64>>,
    pub lo: Vec<Option<f64>>,
    pub hi: Vec<Option<f64>>,
    pub verdict: MetricVerdict,
}

/// `arm` against `against` at one N: the paired difference of their means (arm − against) with its
/// 95% interval, and "<arm> better", "<against> better" or "no detectable difference".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MlVersus {
    pub arm: String,
    pub against: String,
    pub n: u32,
    pub metric: MlModelMetric,
    pub diff: Option<f64>,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    pub outcome: String,
}

/// Everything [`evaluate`] judges.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MlModelEvaluation {
    pub ns: Vec<u32>,
    pub arms: Vec<String>,
    pub resamples: usize,
    pub curves: Vec<MlArmCurve>,
    pub versus: Vec<MlVersus>,
}

impl MlModelEvaluation {
    pub fn curve(&self, arm: &str, metric: MlModelMetric) -> Option<&MlArmCurve> {
        self.curves
            .iter()
            .find(|c| c.arm == arm && c.metric == metric)
    }
}

/// Per-item values of one run that no resample changes.
struct Prepared {
    bce: Vec<f64>,
    bits: Vec<u64>,
    entropy: Vec<f64>,
}

pub(super) fn bernoulli_entropy(q: f64) -> f64 {
    let q = q.clamp(EPS, 1.0 - EPS);
    -(q * libm::log(q) + (1.0 - q) * libm::log(1.0 - q))
}

fn prepare(pred: impl Iterator<Item = f64> + Clone, human: &[f64]) -> (f64, u64, f64) {
    let (mut bce, mut bits, mut h) = (0.0, 0u64, 0.0);
    for (l, (q, &p)) in pred.zip(human).enumerate() {
        let qc = q.clamp(EPS, 1.0 - EPS);
        bce -= p * libm::log(qc) + (1.0 - p) * libm::log(1.0 - qc);
        if q >= 0.5 {
            bits |= 1 << l;
        }
        h += bernoulli_entropy(q);
    }
    (bce / human.len().max(1) as f64, bits, h)
}

/// The metrics of one run over items weighted by `w` (a resample's draw counts).
fn metrics_of(p: &Prepared, truth: &[u64], hh: &[f64], w: &[u32], labels: usize) -> [f64; 4] {
    let mut conf = vec![(0u64, 0u64, 0u64); labels];
    let (mut sw, mut bce) = (0.0, 0.0);
    let (mut sx, mut sy, mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (i, &wi) in w.iter().enumerate().filter(|(_, &wi)| wi > 0) {
        let wf = wi as f64;
        sw += wf;
        bce += wf * p.bce[i];
        let (x, y) = (p.entropy[i], hh[i]);
        sx += wf * x;
        sy += wf * y;
        sxx += wf * x * x;
        syy += wf * y * y;
        sxy += wf * x * y;
        let (pr, t) = (p.bits[i], truth[i]);
        for (bitset, slot) in [(pr & t, 0), (pr & !t, 1), (!pr & t, 2)] {
            let mut b = bitset & super::table::label_mask(labels);
            while b != 0 {
                let c = &mut conf[b.trailing_zeros() as usize];
                match slot {
                    0 => c.0 += wi as u64,
                    1 => c.1 += wi as u64,
                    _ => c.2 += wi as u64,
                }
                b &= b - 1;
            }
        }
    }
    let (macro_f1, micro_f1) = macro_micro(conf.into_iter());
    let vx = sxx - sx * sx / sw;
    let vy = syy - sy * sy / sw;
    let corr = if vx > 0.0 && vy > 0.0 {
        (sxy - sx * sy / sw) / (vx * vy).sqrt()
    } else {
        f64::NAN
    };
    [bce / sw, macro_f1, micro_f1, corr]
}

/// Curves, verdicts (x: the share of the change a saturation point is for) and the comparisons
/// `pairs` (arm, against) at every N, from `resamples` item resamples seeded by `seed`.
pub fn evaluate(
    block: &MlBlock,
    resamples: usize,
    seed: u64,
    x: f64,
    pairs: &[(String, String)],
) -> MlModelEvaluation {
    let nl = block.labels;
    let n_items = block.strata.len();
    let mut arms: Vec<String> = Vec::new();
    let mut ns: Vec<u32> = Vec::new();
    for r in &block.runs {
        if !arms.contains(&r.arm) {
            arms.push(r.arm.clone());
        }
        ns.push(r.n);
    }
    ns.sort_unstable();
    ns.dedup();
    let human: Vec<&[f64]> = block.human.chunks_exact(nl).collect();
    let truth: Vec<u64> = human
        .iter()
        .map(|h| (0..nl).filter(|&l| h[l] >= 0.5).fold(0, |a, l| a | 1 << l))
        .collect();
    let hh: Vec<f64> = human
        .iter()
        .map(|h| h.iter().map(|&p| bernoulli_entropy(p)).sum())
        .collect();
    let prepared: Vec<Prepared> = block
        .runs
        .iter()
        .map(|r| {
            let mut p = Prepared {
                bce: Vec::with_capacity(n_items),
                bits: Vec::with_capacity(n_items),
                entropy: Vec::with_capacity(n_items),
            };
            for (q, h) in r.pred.chunks_exact(nl).zip(&human) {
                let (b, bits, e) = prepare(q.iter().map(|&v| v as f64), h);
                p.bce.push(b);
                p.bits.push(bits);
                p.entropy.push(e);
            }
            p
        })
        .collect();
    if ns.is_empty() {
        return MlModelEvaluation::default();
    }
    let (na, nn, nm) = (arms.len(), ns.len(), MlModelMetric::ALL.len());
    // values[b][(arm * nm + metric) * nn + n] = mean over the arm's model seeds (NaN: undefined).
    let mut values = vec![vec![f64::NAN; na * nm * nn]; resamples + 1];
    for (b, vals) in values.iter_mut().enumerate() {
        let w = weights(&block.strata, seed, b as u64);
        let mut sums = vec![(0.0, 0u32); na * nm * nn];
        for (r, p) in block.runs.iter().zip(&prepared) {
            let a = arms.iter().position(|x| *x == r.arm).unwrap_or(0);
            let g = ns.iter().position(|&n| n == r.n).unwrap_or(0);
            for (m, v) in metrics_of(p, &truth, &hh, &w, nl).into_iter().enumerate() {
                let s = &mut sums[(a * nm + m) * nn + g];
                s.0 += v;
                s.1 += 1;
            }
        }
        for (slot, (s, c)) in vals.iter_mut().zip(sums) {
            if c > 0 {
                *slot = s / c as f64;
            }
        }
    }
    let curve_of = |b: usize, a: usize, m: usize| -> Vec<Option<f64>> {
        values[b][(a * nm + m) * nn..][..nn]
            .iter()
            .map(|&v| finite(v))
            .collect()
    };
    let mut curves = Vec::new();
    for (a, arm) in arms.iter().enumerate() {
        for (m, metric) in MlModelMetric::ALL.into_iter().enumerate() {
            let all: Vec<Vec<Option<f64>>> = (0..=resamples).map(|b| curve_of(b, a, m)).collect();
            let verdict = verdict_of(&ns, &all, metric.higher_is_better(), x);
            let (lo, hi) = bands(&all);
            curves.push(MlArmCurve {
                arm: arm.clone(),
                metric,
                mean: all[0].clone(),
                lo,
                hi,
                verdict,
            });
        }
    }
    let mut versus = Vec::new();
    for (arm, against) in pairs {
        let (Some(a), Some(c)) = (
            arms.iter().position(|x| x == arm),
            arms.iter().position(|x| x == against),
        ) else {
            continue;
        };
        for (m, metric) in MlModelMetric::ALL.into_iter().enumerate() {
            for (g, &n) in ns.iter().enumerate() {
                let d = |b: usize| {
                    let at = |i: usize| values[b][(i * nm + m) * nn + g];
                    finite(at(a) - at(c))
                };
                let (lo, hi) = quantiles((1..=resamples).filter_map(d).collect());
                let better = |v: f64| {
                    if metric.higher_is_better() {
                        v > 0.0
                    } else {
                        v < 0.0
                    }
                };
                let outcome = match (lo, hi) {
                    (Some(l), Some(h)) if better(l) && better(h) => format!("{arm} better"),
                    (Some(l), Some(h)) if !better(l) && !better(h) && l != 0.0 && h != 0.0 => {
                        format!("{against} better")
                    }
                    _ => "no detectable difference".to_string(),
                };
                versus.push(MlVersus {
                    arm: arm.clone(),
                    against: against.clone(),
                    n,
                    metric,
                    diff: d(0),
                    lo,
                    hi,
                    outcome,
                });
            }
        }
    }
    MlModelEvaluation {
        ns,
        arms,
        resamples,
        curves,
        versus,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::verdict::Verdict;
    use crate::sample;

    /// 400 items × 3 labels with known shares; arm "exact" predicts them, arm "noisy" predicts them
    /// with noise shrinking as 1/N, arm "flat" predicts the same at every N.
    fn block() -> MlBlock {
        let (items, nl) = (400usize, 3usize);
        let mut rng = sample::stream(7, 1, 0, 0);
        let human: Vec<f64> = (0..items * nl)
            .map(|_| sample::below(&mut rng, 16) as f64 / 15.0)
            .collect();
        let mut runs = Vec::new();
        for n in [1u32, 2, 4, 8, 15] {
            for seed in 0..2u64 {
                let noisy: Vec<f32> = human
                    .iter()
                    .map(|&p| {
                        let e = (sample::below(&mut rng, 1000) as f64 / 1000.0 - 0.5) / n as f64;
                        (p + e).clamp(0.01, 0.99) as f32
                    })
                    .collect();
                runs.push(MlRun {
                    arm: "noisy".into(),
                    seed,
                    n,
                    pred: noisy,
                });
                runs.push(MlRun {
                    arm: "exact".into(),
                    seed,
                    n,
                    pred: human.iter().map(|&p| p as f32).collect(),
                });
                runs.push(MlRun {
                    arm: "flat".into(),
                    seed,
                    n,
                    pred: human.iter().map(|&p| (0.5 * p + 0.25) as f32).collect(),
                });
            }
        }
        MlBlock {
            labels: nl,
            human,
            strata: (0..items as u32).map(|i| i % 5).collect(),
            runs,
        }
    }

    #[test]
    fn known_predictions_score_as_they_must_and_verdicts_follow_the_change() {
        let b = block();
        let pairs = vec![("exact".to_string(), "noisy".to_string())];
        let e = evaluate(&b, 100, 3, 0.9, &pairs);
        let exact = |m| e.curve("exact", m).unwrap();
        // Predicting the shares: F1 and the entropy correlation are 1, SoftBCE is the mean entropy.
        for m in [MlModelMetric::MacroF1, MlModelMetric::MicroF1] {
            assert!(exact(m)
                .mean
                .iter()
                .all(|v| (v.unwrap() - 1.0).abs() < 1e-12));
        }
        assert!((exact(MlModelMetric::EntropyCorr).mean[0].unwrap() - 1.0).abs() < 1e-9);
        let h: f64 =
            b.human.iter().map(|&p| bernoulli_entropy(p)).sum::<f64>() / b.human.len() as f64;
        assert!((exact(MlModelMetric::SoftBce).mean[0].unwrap() - h).abs() < 1e-5);
        // The same predictions at every N: no detectable change; shrinking noise: SoftBCE saturates.
        let flat = e.curve("flat", MlModelMetric::SoftBce).unwrap();
        assert_eq!(flat.verdict.verdict, Verdict::NoDetectableChange);
        let noisy = e.curve("noisy", MlModelMetric::SoftBce).unwrap();
        assert_eq!(noisy.verdict.verdict, Verdict::Saturates);
        assert!(noisy.lo[0].unwrap() <= noisy.mean[0].unwrap());
        assert!(noisy.mean[0].unwrap() <= noisy.hi[0].unwrap());
        // Exact beats noisy at N = 1 on SoftBCE, by a paired interval excluding 0.
        let v = e
            .versus
            .iter()
            .find(|v| v.n == 1 && v.metric == MlModelMetric::SoftBce)
            .unwrap();
        assert_eq!(v.outcome, "exact better");
        assert!(v.hi.unwrap() < 0.0);
        // Reruns are identical (seeded resamples).
        assert_eq!(evaluate(&b, 100, 3, 0.9, &pairs), e);
    }
}

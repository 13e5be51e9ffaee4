//! Verdicts on the model side: does a metric change with N at all, in which direction, and — only
//! where it improves — by which N it has captured x% of the change, each with an interval over the
//! test items and the splits.
//!
//! A mean curve over a handful of runs always has a "90% point", even where N changes nothing: the
//! share of a change within noise is noise. So every model-side headline goes through [`verdicts`]:
//! the N₁ → N_max change with a paired bootstrap interval (the same item draws at every N, so the
//! arms' shared noise cancels), and a [`Verdict`]: `saturates` when the interval excludes 0 in the
//! improving direction (then the x-point with its own interval), `worsens` when it excludes 0 the
//! other way, `no detectable change` otherwise. Shares are never shown for the latter two.
//!
//! The resampling follows the design: a [`Block`] is one split seed's test items (resampled as a
//! whole: which split one happens to draw is part of the uncertainty), and within a block items are
//! drawn with replacement inside their stratum (a k-fold sweep is one block whose strata are its
//! folds, so every resample still tests every fold). Each resample recomputes every metric from the
//! resampled items with the same functions as the exported metrics ([`RunMetrics::of`]'s parts),
//! and averages over the block's model seeds as the curves do.
//!
//! With few votes per item (a curve that ends below 100) a `saturates` verdict's point may be
//! forced by where the votes run out; it is then marked `bounded_by` and shown in words.

use super::{ModelMetric, RunMetrics};
use crate::answer::HEADLINE_REFERENCE_VOTES;
use crate::curves::saturation::{bounded_by_votes, crossing, grid_at_or_past};
use crate::metrics::{self, calibration};
use crate::sample;
use serde::{Deserialize, Serialize};

const PURPOSE_VERDICT: u64 = 0xB_10;

/// The share of the change the stored verdicts' saturation points are for (`n90`).
pub const VERDICT_X: f64 = 0.9;

/// Resamples when nobody says otherwise (the CLI's `--bootstrap` default, as the target side).
pub const DEFAULT_RESAMPLES: usize = 200;

/// What the data say about a metric's change from the first to the last N.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The change's 95% interval excludes 0 in the improving direction.
    Saturates,
    /// The interval contains 0: no detectable change with N.
    NoDetectableChange,
    /// The interval excludes 0 in the worsening direction.
    Worsens,
    /// The metric is undefined at the first or last N (e.g. constant predictions' entropy
    /// correlation).
    Undefined,
}

impl Verdict {
    /// The serialised name (`saturates`, `no_detectable_change`, `worsens`, `undefined`).
    pub fn key(self) -> &'static str {
        match self {
            Verdict::Saturates => "saturates",
            Verdict::NoDetectableChange => "no_detectable_change",
            Verdict::Worsens => "worsens",
            Verdict::Undefined => "undefined",
        }
    }

    /// The words the product shows instead of a number where there is no saturation point.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Saturates => "saturates",
            Verdict::NoDetectableChange => "no detectable change with N",
            Verdict::Worsens => "worsens with N",
            Verdict::Undefined => "undefined",
        }
    }
}

/// One arm × metric: the verdict and its numbers (the reproduction JSON's
/// `models.<export>.<arm>.<metric>`). `n90*` are present only for `saturates`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MetricVerdict {
    pub verdict: Verdict,
    /// Mean at N_max minus mean at the first N (raw units; negative is better for KL).
    pub change: Option<f64>,
    /// 2.5th and 97.5th percentiles of the change over the resamples.
    pub change_lo: Option<f64>,
    pub change_hi: Option<f64>,
    /// The first grid N capturing x of the change on the mean curve, and its 95% interval over the
    /// resamples (grid N at or past each resample's continuous crossing).
    pub n90: Option<u32>,
    pub n90_lo: Option<u32>,
    pub n90_hi: Option<u32>,
    /// The mean at N_max and its 95% interval over the same resamples.
    pub last: Option<f64>,
    pub last_lo: Option<f64>,
    pub last_hi: Option<f64>,
    /// Set (to the curve's last N) when a `saturates` verdict's 90% point is **bounded by the
    /// votes**: the curve ends at N_max < 100 and the point lies past its first fifth, so it is
    /// forced by where the votes run out rather than shown by the data (the target side's rule,
    /// `curves::bounded_by_votes`). The change is real; the point is not an answer, and the product
    /// says "bounded by your M votes" instead of printing it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounded_by: Option<u32>,
}

impl MetricVerdict {
    /// Half the change interval's width: about the smallest change these items could detect.
    pub fn half_width(&self) -> Option<f64> {
        Some((self.change_hi? - self.change_lo?) / 2.0)
    }

    /// The change with its interval, "+0.001 [-0.025, +0.028]" (3 decimals), or "undefined".
    pub fn change_text(&self) -> String {
        interval_text(self.change, self.change_lo, self.change_hi, true)
    }

    /// The value at N_max with its interval, "0.197 [0.150, 0.240]", or "undefined".
    pub fn last_text(&self) -> String {
        interval_text(self.last, self.last_lo, self.last_hi, false)
    }

    /// Whether there is a 90% point to show: `saturates`, and not bounded by the votes.
    pub fn has_point(&self) -> bool {
        self.verdict == Verdict::Saturates && self.bounded_by.is_none()
    }

    /// "saturates by N=20 [10, 50]", else the verdict's words: a table cell or a sentence's head.
    pub fn headline(&self) -> String {
        match self.verdict {
            Verdict::Saturates if self.bounded_by.is_none() => {
                format!("saturates by {}", self.short())
            }
            _ => self.short(),
        }
    }

    /// "N=10 [7, 20]" for a saturating metric; "improves with N; its 90% point is bounded by your
    /// 5 votes" where that point is forced by the votes; else the verdict's words.
    pub fn short(&self) -> String {
        if let (Verdict::Saturates, Some(m)) = (self.verdict, self.bounded_by) {
            return format!("improves with N; its 90% point is bounded by your {m} votes");
        }
        match (self.verdict, self.n90) {
            (Verdict::Saturates, Some(n)) => match (self.n90_lo, self.n90_hi) {
                (Some(lo), Some(hi)) => format!("N={n} [{lo}, {hi}]"),
                _ => format!("N={n}"),
            },
            (v, _) => v.words().into(),
        }
    }
}

fn interval_text(v: Option<f64>, lo: Option<f64>, hi: Option<f64>, signed: bool) -> String {
    let f = |x: f64| {
        if signed {
            format!("{x:+.3}")
        } else {
            format!("{x:.3}")
        }
    };
    match (v, lo, hi) {
        (Some(v), Some(l), Some(h)) => format!("{} [{}, {}]", f(v), f(l), f(h)),
        (Some(v), _, _) => f(v),
        _ => "undefined".into(),
    }
}

/// What the product says for one arm and metric at share `x`: the grid N where the mean curve first
/// captures `x` of the change (`at_x`) only where the verdict is `saturates` — with the verdict's
/// interval when `x` is the share the verdicts were computed at (`verdict_x`) — else the verdict's
/// words. `None` (an export without verdicts) says so rather than printing a point.
pub fn caption(v: Option<&MetricVerdict>, at_x: Option<u32>, x: f64, verdict_x: f64) -> String {
    match v {
        None => "no verdict in this export".into(),
        Some(v) if v.verdict != Verdict::Saturates => v.verdict.words().into(),
        Some(v) if (x - verdict_x).abs() < 1e-9 || v.bounded_by.is_some() => v.short(),
        Some(_) => match at_x {
            Some(n) => format!("N={n}"),
            None => "never".into(),
        },
    }
}

/// An arm's verdicts, one per compared metric (the manifest's `verdicts`, the own-data result's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmVerdicts {
    pub arm: String,
    /// Set when the items were one source of a pooled export (its dataset name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub metrics: Vec<(ModelMetric, MetricVerdict)>,
}

impl ArmVerdicts {
    pub fn get(&self, m: ModelMetric) -> Option<&MetricVerdict> {
        self.metrics.iter().find(|(k, _)| *k == m).map(|(_, v)| v)
    }
}

/// One run's test predictions (items × K, the block's items in order), for one arm, model seed and N.
pub struct RunPredictions {
    pub arm: String,
    pub seed: u64,
    pub n: u32,
    pub pred: Vec<f64>,
}

/// Test items resampled as a whole: one split seed's, or all items of a k-fold sweep.
pub struct Block {
    /// The items' human reference distributions, items × K.
    pub human: Vec<f64>,
    /// Stratum of each item (its fold; all 0 for a random split): items are drawn within it.
    pub strata: Vec<u32>,
    pub runs: Vec<RunPredictions>,
}

#[derive(Debug, Clone, Copy)]
pub struct VerdictConfig {
    /// Share of the change that defines the saturation point (0.9 ⇒ `n90`).
    pub x: f64,
    pub resamples: usize,
    pub seed: u64,
}

impl Default for VerdictConfig {
    fn default() -> Self {
        VerdictConfig {
            x: VERDICT_X,
            resamples: DEFAULT_RESAMPLES,
            seed: 0,
        }
    }
}

/// The metrics verdicts are given for: those arms are compared on.
pub fn verdict_metrics() -> Vec<ModelMetric> {
    ModelMetric::ALL
        .into_iter()
        .filter(|m| m.compared())
        .collect()
}

/// Per-item values that do not depend on the resample, computed once per run.
struct Prepared {
    kl: Vec<f64>,
    h_pred: Vec<f64>,
}

/// An arm against a baseline at one N: the paired difference of their means (arm − baseline, raw
/// units) with its 95% interval over the same resamples, and whether the interval excludes 0 in the
/// arm's favour (`better`), against it (`worse`) or neither.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Versus {
    pub arm: String,
    pub baseline: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub n: u32,
    pub metric: ModelMetric,
    pub diff: Option<f64>,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    /// "better", "worse" or "no detectable difference".
    pub outcome: String,
}

/// The baselines every arm is compared with at N_max.
pub const BASELINES: [&str; 2] = ["constant", "knn"];

/// Everything [`evaluate`] judges over one set of blocks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Evaluation {
    pub verdicts: Vec<ArmVerdicts>,
    pub versus: Vec<Versus>,
}

/// Every arm's verdicts over `blocks` (arms in first-seen order). `k` is the number of classes.
pub fn verdicts(blocks: &[Block], k: usize, cfg: &VerdictConfig) -> Vec<ArmVerdicts> {
    evaluate(blocks, k, cfg).verdicts
}

/// Verdicts, and every arm against each baseline at N_max, from the same resamples (so the
/// comparisons are paired: the same items for both arms).
pub fn evaluate(blocks: &[Block], k: usize, cfg: &VerdictConfig) -> Evaluation {
    let metrics = verdict_metrics();
    let mut arms: Vec<String> = Vec::new();
    let mut ns: Vec<u32> = Vec::new();
    for r in blocks.iter().flat_map(|b| &b.runs) {
        if !arms.contains(&r.arm) {
            arms.push(r.arm.clone());
        }
        ns.push(r.n);
    }
    ns.sort_unstable();
    ns.dedup();
    if arms.is_empty() || ns.len() < 2 {
        return Evaluation::default();
    }
    let h_human: Vec<Vec<f64>> = blocks
        .iter()
        .map(|b| b.human.chunks_exact(k).map(metrics::entropy).collect())
        .collect();
    let prepared: Vec<Vec<Prepared>> = blocks
        .iter()
        .map(|b| {
            b.runs
                .iter()
                .map(|r| Prepared {
                    kl: r
                        .pred
                        .chunks_exact(k)
                        .zip(b.human.chunks_exact(k))
                        .map(|(q, p)| metrics::kl(p, q))
                        .collect(),
                    h_pred: r.pred.chunks_exact(k).map(metrics::entropy).collect(),
                })
                .collect()
        })
        .collect();
    // curves[resample (0 = the data as they are)][arm][metric][n] = mean over runs.
    let mut curves: Vec<Vec<Vec<Vec<Option<f64>>>>> = Vec::with_capacity(cfg.resamples + 1);
    let mut gathered = Gathered::default();
    for b in 0..=cfg.resamples {
        let draw = if b == 0 {
            identity(blocks)
        } else {
            resample(blocks, cfg.seed, b as u64)
        };
        // sums[arm][metric][n] = (sum, count)
        let mut sums = vec![vec![vec![(0.0, 0usize); ns.len()]; metrics.len()]; arms.len()];
        for (bi, idx) in &draw {
            let block = &blocks[*bi];
            gathered.human(&block.human, idx, k);
            let hh: Vec<f64> = idx.iter().map(|&i| h_human[*bi][i]).collect();
            for (ri, run) in block.runs.iter().enumerate() {
                let (Some(a), Some(ni)) = (
                    arms.iter().position(|x| *x == run.arm),
                    ns.iter().position(|&n| n == run.n),
                ) else {
                    continue;
                };
                let m = gathered.metrics(&run.pred, &prepared[*bi][ri], &hh, idx, k);
                for (mi, metric) in metrics.iter().enumerate() {
                    if let Some(v) = metric.of(&m) {
                        let s = &mut sums[a][mi][ni];
                        s.0 += v;
                        s.1 += 1;
                    }
                }
            }
        }
        curves.push(
            sums.iter()
                .map(|per_metric| {
                    per_metric
                        .iter()
                        .map(|per_n| {
                            per_n
                                .iter()
                                .map(|&(s, c)| (c > 0).then(|| s / c as f64))
                                .collect()
                        })
                        .collect()
                })
                .collect(),
        );
    }
    let verdicts = arms
        .iter()
        .enumerate()
        .map(|(a, arm)| ArmVerdicts {
            arm: arm.clone(),
            source: None,
            metrics: metrics
                .iter()
                .enumerate()
                .map(|(mi, &metric)| {
                    let per: Vec<&[Option<f64>]> =
                        curves.iter().map(|c| c[a][mi].as_slice()).collect();
                    let mut v = judge(&ns, &per, metric.higher_is_better(), cfg.x);
                    let end = ns[ns.len() - 1];
                    if v.verdict == Verdict::Saturates
                        && bounded_by_votes(v.n90, end, HEADLINE_REFERENCE_VOTES)
                    {
                        v.bounded_by = Some(end);
                    }
                    (metric, v)
                })
                .collect(),
        })
        .collect();
    let last = ns.len() - 1;
    let mut versus = Vec::new();
    for base in BASELINES {
        let Some(bi) = arms.iter().position(|a| a == base) else {
            continue;
        };
        for (a, arm) in arms.iter().enumerate().filter(|(a, _)| *a != bi) {
            for (mi, &metric) in metrics.iter().enumerate() {
                let d = |b: usize| Some(curves[b][a][mi][last]? - curves[b][bi][mi][last]?);
                let mut v: Vec<f64> = (1..=cfg.resamples).filter_map(d).collect();
                v.sort_by(f64::total_cmp);
                let (lo, hi) = if v.is_empty() {
                    (None, None)
                } else {
                    (
                        Some(crate::curves::quantile(&v, 0.025)),
                        Some(crate::curves::quantile(&v, 0.975)),
                    )
                };
                let better = |x: f64| {
                    if metric.higher_is_better() {
                        x > 0.0
                    } else {
                        x < 0.0
                    }
                };
                let worse = |x: f64| {
                    if metric.higher_is_better() {
                        x < 0.0
                    } else {
                        x > 0.0
                    }
                };
                let outcome = match (lo, hi) {
                    (Some(l), Some(h)) if better(l) && better(h) => "better",
                    (Some(l), Some(h)) if worse(l) && worse(h) => "worse",
                    _ => "no detectable difference",
                };
                versus.push(Versus {
                    arm: arm.clone(),
                    baseline: base.into(),
                    source: None,
                    n: ns[last],
                    metric,
                    diff: d(0),
                    lo,
                    hi,
                    outcome: outcome.into(),
                });
            }
        }
    }
    Evaluation { verdicts, versus }
}

/// The verdict from the curve as measured (`curves[0]`) and its resamples (`curves[1..]`).
/// Public so the rule is tested on curves with a known answer.
pub fn judge(
    ns: &[u32],
    curves: &[&[Option<f64>]],
    higher_is_better: bool,
    x: f64,
) -> MetricVerdict {
    let change = |c: &[Option<f64>]| Some(c.last().copied()?? - c.first().copied()??);
    let undefined = MetricVerdict {
        verdict: Verdict::Undefined,
        change: None,
        change_lo: None,
        change_hi: None,
        n90: None,
        n90_lo: None,
        n90_hi: None,
        last: None,
        last_lo: None,
        last_hi: None,
        bounded_by: None,
    };
    let (last, last_lo, last_hi) = level(curves, curves[0].len() - 1);
    let undefined = MetricVerdict {
        last,
        last_lo,
        last_hi,
        ..undefined
    };
    let Some(point) = change(curves[0]) else {
        return undefined;
    };
    let mut ch: Vec<f64> = curves[1..].iter().filter_map(|c| change(c)).collect();
    if ch.is_empty() {
        return MetricVerdict {
            change: Some(point),
            ..undefined
        };
    }
    ch.sort_by(f64::total_cmp);
    let (lo, hi) = (
        crate::curves::quantile(&ch, 0.025),
        crate::curves::quantile(&ch, 0.975),
    );
    let better = |d: f64| if higher_is_better { d > 0.0 } else { d < 0.0 };
    let verdict = if better(lo) && better(hi) {
        Verdict::Saturates
    } else if !better(lo) && !better(hi) && lo != 0.0 && hi != 0.0 {
        Verdict::Worsens
    } else {
        Verdict::NoDetectableChange
    };
    let mut out = MetricVerdict {
        verdict,
        change: Some(point),
        change_lo: Some(lo),
        change_hi: Some(hi),
        ..undefined
    };
    if verdict == Verdict::Saturates {
        let rising = higher_is_better;
        let cross = |c: &[Option<f64>]| {
            let (first, last) = (c.first().copied()??, c.last().copied()??);
            // A resample whose change points the other way has no x-point: count it at N_max,
            // the conservative end (under `saturates` fewer than 2.5% of resamples do).
            if !better(last - first) {
                return Some(*ns.last()? as f64);
            }
            crossing(ns, c, first + x * (last - first), rising)
        };
        out.n90 = cross(curves[0]).and_then(|c| grid_at_or_past(ns, c));
        let mut cs: Vec<f64> = curves[1..].iter().filter_map(|c| cross(c)).collect();
        if !cs.is_empty() {
            cs.sort_by(f64::total_cmp);
            out.n90_lo = grid_at_or_past(ns, crate::curves::quantile(&cs, 0.025));
            out.n90_hi = grid_at_or_past(ns, crate::curves::quantile(&cs, 0.975));
        }
    }
    out
}

/// A curve's value at grid index `i` as measured, and its 2.5th–97.5th percentiles over resamples.
fn level(curves: &[&[Option<f64>]], i: usize) -> (Option<f64>, Option<f64>, Option<f64>) {
    let point = curves[0].get(i).copied().flatten();
    let mut v: Vec<f64> = curves[1..]
        .iter()
        .filter_map(|c| c.get(i).copied().flatten())
        .collect();
    if v.is_empty() {
        return (point, None, None);
    }
    v.sort_by(f64::total_cmp);
    (
        point,
        Some(crate::curves::quantile(&v, 0.025)),
        Some(crate::curves::quantile(&v, 0.975)),
    )
}

/// Every block once, every item once: the data as they are.
fn identity(blocks: &[Block]) -> Vec<(usize, Vec<usize>)> {
    blocks
        .iter()
        .enumerate()
        .map(|(bi, b)| (bi, (0..b.strata.len()).collect()))
        .collect()
}

/// Resample `b`: as many blocks as there are, drawn with replacement, and within each drawn block
/// its items drawn with replacement inside their strata. Seeded per resample, so the draws do not
/// depend on the thread or the machine.
fn resample(blocks: &[Block], seed: u64, b: u64) -> Vec<(usize, Vec<usize>)> {
    let mut rng = sample::stream(seed, PURPOSE_VERDICT, b, 0);
    let nb = blocks.len() as u32;
    (0..nb)
        .map(|_| {
            let bi = if nb == 1 {
                0
            } else {
                sample::below(&mut rng, nb) as usize
            };
            let strata = &blocks[bi].strata;
            let mut groups: Vec<(u32, Vec<usize>)> = Vec::new();
            for (i, &s) in strata.iter().enumerate() {
                match groups.iter_mut().find(|g| g.0 == s) {
                    Some(g) => g.1.push(i),
                    None => groups.push((s, vec![i])),
                }
            }
            let mut idx = Vec::with_capacity(strata.len());
            for (_, items) in &groups {
                for _ in 0..items.len() {
                    idx.push(items[sample::below(&mut rng, items.len() as u32) as usize]);
                }
            }
            (bi, idx)
        })
        .collect()
}

/// Buffers reused across runs: a resample's rows gathered in order.
#[derive(Default)]
struct Gathered {
    human: Vec<f64>,
    pred: Vec<f64>,
    hp: Vec<f64>,
}

impl Gathered {
    fn human(&mut self, human: &[f64], idx: &[usize], k: usize) {
        self.human.clear();
        for &i in idx {
            self.human.extend_from_slice(&human[i * k..(i + 1) * k]);
        }
    }

    /// The run's metrics on the gathered items, by the exported metrics' own functions.
    fn metrics(
        &mut self,
        pred: &[f64],
        prep: &Prepared,
        hh: &[f64],
        idx: &[usize],
        k: usize,
    ) -> RunMetrics {
        self.pred.clear();
        self.hp.clear();
        for &i in idx {
            self.pred.extend_from_slice(&pred[i * k..(i + 1) * k]);
            self.hp.push(prep.h_pred[i]);
        }
        let n = idx.len() as f64;
        let m = calibration::murphy(&self.pred, &self.human, k, calibration::MURPHY_BINS);
        RunMetrics {
            kl: idx.iter().map(|&i| prep.kl[i]).sum::<f64>() / n,
            jsd: f64::NAN,
            entropy_corr: metrics::pearson(&self.hp, hh),
            brier: m.brier,
            rel: m.rel,
            res: m.res,
            unc: m.unc,
            residual: m.residual,
            ece: calibration::ece(&self.pred, &self.human, k, calibration::ECE_BINS),
            dist_ece: calibration::dist_ece(&self.pred, &self.human, k, calibration::ECE_BINS),
            accuracy: calibration::accuracy(&self.pred, &self.human, k),
        }
    }
}

#[cfg(test)]
#[path = "verdict_tests.rs"]
mod tests;

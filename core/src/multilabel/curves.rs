//! Multilabel target-side curves: how close N annotators' per-label shares come to all of them.
//!
//! For each item with M annotators and each repeat, the annotators are put in a seeded random
//! order (a partial Fisher–Yates on the item's own stream), and the first N of that order are the
//! N-annotator sample for every grid N: samples are nested, without replacement, and an item's
//! draws do not depend on which other items or N were computed (as the single-label curves).
//! Items with fewer than N annotators sit out at that N ([`MlCurves::items`]).
//!
//! Every share is a ratio of integers (c of N, C of M), so every logarithm here is the log of an
//! integer; they come from one table, which keeps the hot loop cheap and native and wasm32 equal.

use super::bands::{Cells, MlBands};
use super::item_stats::{f1, macro_micro, pearson_from, ItemAt};
use super::metric::MlMetric;
use super::table::{add_one, label_mask, MultilabelTable};
use crate::sample;
use serde::{Deserialize, Serialize};

/// The stream tag of the multilabel subsamples.
const PURPOSE_MULTILABEL: u64 = 0x3_1A;
/// Per (grid N, repeat) float sums: kl, jsd, brier, soft_bce, exact, Σx, Σx², Σx·y_c.
const SUMS: usize = 8;

/// What to compute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MlConfig {
    /// Annotator budgets N; those above every item's annotators are dropped.
    pub grid: Vec<u32>,
    /// Random subsamples per item and N.
    pub repeats: u32,
    pub seed: u64,
    /// Item-bootstrap resamples (0: none).
    pub bootstrap: u32,
}

/// A curve's value at one N: the mean over repeats and the 2.5–97.5th percentiles.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MlPoint {
    pub n: u32,
    pub items: u32,
    pub mean: Option<f64>,
    pub sd: Option<f64>,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
}

/// The curves of every [`MlMetric`], and per label its JS distance and F1.
#[derive(Debug, Clone, PartialEq)]
pub struct MlCurves {
    pub labels: Vec<String>,
    pub grid: Vec<u32>,
    pub repeats: u32,
    /// Items with at least N annotators, per grid N.
    pub items: Vec<u32>,
    /// `[metric][g][r]`, NaN where undefined.
    values: Vec<f64>,
    /// `[label][g][r]`: the label's Bernoulli JS distance, mean over items.
    label_jsd: Vec<f64>,
    /// `[label][g][r]`: the label's F1 at ½ (NaN where the full votes never give the label).
    label_f1: Vec<f64>,
    /// The item bootstrap, when asked for.
    pub bands: Option<MlBands>,
}

/// Logs of integers `0..len` (ln 0 is never read), past the table computed.
pub(super) struct LnInt(Vec<f64>);

impl LnInt {
    fn new(max: u64) -> Self {
        let len = (max as usize + 1).min(1 << 22);
        LnInt((0..len).map(|k| libm::log(k as f64)).collect())
    }
    #[inline]
    fn at(&self, k: u64) -> f64 {
        self.0
            .get(k as usize)
            .copied()
            .unwrap_or_else(|| libm::log(k as f64))
    }
}

/// The metrics of `c` ticks out of `n` against `full` out of `m`, per label into `label_jsd`.
fn item_at(full: &[u32], m: u32, c: &[u32], n: u32, ln: &LnInt, label_jsd: &mut [f64]) -> ItemAt {
    let l = full.len() as f64;
    let (mf, nf) = (m as f64, n as f64);
    let (m64, n64) = (m as u64, n as u64);
    let (ln_m, ln_n, ln_2n2, ln_2mn) = (
        ln.at(m64),
        ln.at(n64),
        ln.at(2 * n64 + 2),
        ln.at(2 * m64 * n64),
    );
    let mut out = ItemAt::default();
    for (j, (&cc, &ci)) in full.iter().zip(c).enumerate() {
        let (cc64, ci64) = (cc as u64, ci as u64);
        let (p, q) = (cc as f64 / mf, ci as f64 / nf);
        // ln p, ln(1 − p), ln q, ln(1 − q) where the share is positive.
        let lp = (cc > 0).then(|| ln.at(cc64) - ln_m);
        let lp1 = (cc < m).then(|| ln.at(m64 - cc64) - ln_m);
        let lq = (ci > 0).then(|| ln.at(ci64) - ln_n);
        let lq1 = (ci < n).then(|| ln.at(n64 - ci64) - ln_n);
        // Smoothed q̃ = (2c + 1)/(2N + 2).
        let lqt = ln.at(2 * ci64 + 1) - ln_2n2;
        let lqt1 = ln.at(2 * (n64 - ci64) + 1) - ln_2n2;
        let mut kl = 0.0;
        if let Some(lp) = lp {
            kl += p * (lp - lqt);
        }
        if let Some(lp1) = lp1 {
            kl += (1.0 - p) * (lp1 - lqt1);
        }
        out.kl += kl;
        out.soft_bce -= p * lqt + (1.0 - p) * lqt1;
        // m = (p + q)/2 = (C·N + c·M)/(2MN), 1 − m likewise.
        let a = cc64 * n64 + ci64 * m64;
        let b = (m64 - cc64) * n64 + (n64 - ci64) * m64;
        let lm = (a > 0).then(|| ln.at(a) - ln_2mn);
        let lm1 = (b > 0).then(|| ln.at(b) - ln_2mn);
        let mut js = 0.0;
        if let (Some(lp), Some(lm)) = (lp, lm) {
            js += p * (lp - lm);
        }
        if let (Some(lp1), Some(lm1)) = (lp1, lm1) {
            js += (1.0 - p) * (lp1 - lm1);
        }
        if let (Some(lq), Some(lm)) = (lq, lm) {
            js += q * (lq - lm);
        }
        if let (Some(lq1), Some(lm1)) = (lq1, lm1) {
            js += (1.0 - q) * (lq1 - lm1);
        }
        // q = p exactly (as rationals) is distance 0: the logs' rounding (~1e-16) must not
        // become a distance of 1e-8 through the square root.
        let d = if ci64 * m64 == cc64 * n64 {
            0.0
        } else {
            libm::sqrt((0.5 * js).max(0.0))
        };
        label_jsd[j] = d;
        out.jsd += d;
        out.brier += (q - p) * (q - p);
        out.x -= lq.map_or(0.0, |lq| q * lq) + lq1.map_or(0.0, |lq1| (1.0 - q) * lq1);
        if 2 * ci >= n {
            out.pred |= 1 << j;
        }
    }
    out.kl /= l;
    out.jsd /= l;
    out.brier /= l;
    out.soft_bce /= l;
    out
}

/// Σ_l H(p_l) of full counts out of m.
fn set_entropy(full: &[u32], m: u32) -> f64 {
    full.iter()
        .map(|&c| {
            let p = c as f64 / m as f64;
            -(crate::logtable::xlnx(p) + crate::logtable::xlnx(1.0 - p))
        })
        .sum()
}

/// Computes the curves (and the item bootstrap when `cfg.bootstrap > 0`).
pub fn compute(table: &MultilabelTable, cfg: &MlConfig) -> Result<MlCurves, String> {
    let max_votes = table.max_votes();
    let mut grid: Vec<u32> = cfg
        .grid
        .iter()
        .copied()
        .filter(|&n| n >= 1 && n <= max_votes)
        .collect();
    grid.sort_unstable();
    grid.dedup();
    if grid.is_empty() {
        return Err(format!(
            "no N in the grid is between 1 and {max_votes}, the most annotators an item has"
        ));
    }
    if cfg.repeats == 0 {
        return Err("repeats must be at least 1".into());
    }
    let (ng, nr, nl) = (grid.len(), cfg.repeats as usize, table.n_labels());
    let ln = LnInt::new(2 * max_votes as u64 * grid[ng - 1] as u64 + 2);
    let full: Vec<Vec<u32>> = (0..table.n_items()).map(|i| table.counts(i)).collect();
    let y: Vec<f64> = (0..table.n_items())
        .map(|i| set_entropy(&full[i], table.votes(i)))
        .collect();
    let truth: Vec<u64> = (0..table.n_items())
        .map(|i| {
            let m = table.votes(i);
            full[i]
                .iter()
                .enumerate()
                .filter(|(_, &c)| 2 * c >= m)
                .fold(0u64, |acc, (j, _)| acc | 1 << j)
        })
        .collect();
    // Items per N, and the mean and spread of y over them (y is centred per N).
    let mut items = vec![0u32; ng];
    let mut ybar = vec![0.0; ng];
    for (i, &yi) in y.iter().enumerate() {
        for g in (0..ng).filter(|&g| grid[g] <= table.votes(i)) {
            items[g] += 1;
            ybar[g] += yi;
        }
    }
    for g in 0..ng {
        ybar[g] /= items[g].max(1) as f64;
    }
    let mut syy = vec![0.0; ng];
    for (i, &yi) in y.iter().enumerate() {
        for g in (0..ng).filter(|&g| grid[g] <= table.votes(i)) {
            syy[g] += (yi - ybar[g]).powi(2);
        }
    }
    let mut sums = vec![0.0f64; ng * nr * SUMS];
    let mut confusion = vec![0u64; ng * nr * nl * 3];
    let mut ljsd = vec![0.0f64; ng * nr * nl];
    let mut cells = (cfg.bootstrap > 0).then(|| Cells::new(table, ng, nl, cfg.seed));
    let mut order: Vec<u32> = Vec::new();
    let mut c = vec![0u32; nl];
    let mut per_label = vec![0.0f64; nl];
    let mask = label_mask(nl);
    for i in 0..table.n_items() {
        let m = table.votes(i);
        let ratings = table.ratings(i);
        let Some(top) = (0..ng).rev().find(|&g| grid[g] <= m) else {
            continue;
        };
        for r in 0..nr {
            order.clear();
            order.extend(0..m);
            let mut rng = sample::stream(cfg.seed, PURPOSE_MULTILABEL, i as u64, r as u64);
            sample::partial_shuffle(&mut order, grid[top] as usize, &mut rng);
            c.fill(0);
            let mut drawn = 0usize;
            for g in 0..=top {
                let n = grid[g];
                for &k in &order[drawn..n as usize] {
                    add_one(ratings[k as usize], &mut c);
                }
                drawn = n as usize;
                let at = item_at(&full[i], m, &c, n, &ln, &mut per_label);
                let yc = y[i] - ybar[g];
                let s = &mut sums[(g * nr + r) * SUMS..][..SUMS];
                let exact = (at.pred == truth[i]) as u8 as f64;
                for (slot, v) in s.iter_mut().zip(at.sums(exact, yc)) {
                    *slot += v;
                }
                let (tp, fp, fn_) = (
                    at.pred & truth[i],
                    at.pred & !truth[i] & mask,
                    !at.pred & truth[i],
                );
                let conf = &mut confusion[(g * nr + r) * nl * 3..][..nl * 3];
                for (bits, o) in [(tp, 0), (fp, 1), (fn_, 2)] {
                    let mut b = bits;
                    while b != 0 {
                        conf[b.trailing_zeros() as usize * 3 + o] += 1;
                        b &= b - 1;
                    }
                }
                for (acc, v) in ljsd[(g * nr + r) * nl..][..nl].iter_mut().zip(&per_label) {
                    *acc += v;
                }
                if let Some(cells) = cells.as_mut() {
                    cells.add(i, g, &at, exact, yc, &per_label, (tp, fp, fn_));
                }
            }
        }
    }
    let mut values = vec![f64::NAN; MlMetric::ALL.len() * ng * nr];
    let mut label_jsd = vec![f64::NAN; nl * ng * nr];
    let mut label_f1 = vec![f64::NAN; nl * ng * nr];
    for g in 0..ng {
        let n = items[g] as f64;
        for r in 0..nr {
            let s = &sums[(g * nr + r) * SUMS..][..SUMS];
            let conf = &confusion[(g * nr + r) * nl * 3..][..nl * 3];
            let (macro_f1, micro_f1) =
                macro_micro((0..nl).map(|l| (conf[l * 3], conf[l * 3 + 1], conf[l * 3 + 2])));
            let v = [
                s[0] / n,
                s[1] / n,
                s[2] / n,
                s[3] / n,
                pearson_from(n, s[5], s[6], s[7], syy[g]),
                macro_f1,
                micro_f1,
                s[4] / n,
            ];
            for (metric, v) in MlMetric::ALL.iter().zip(v) {
                values[(metric.index() * ng + g) * nr + r] = v;
            }
            for l in 0..nl {
                label_jsd[(l * ng + g) * nr + r] = ljsd[(g * nr + r) * nl + l] / n;
                let (tp, fp, fn_) = (conf[l * 3], conf[l * 3 + 1], conf[l * 3 + 2]);
                if tp + fn_ > 0 {
                    label_f1[(l * ng + g) * nr + r] = f1(tp, fp, fn_).unwrap_or(0.0);
                }
            }
        }
    }
    let bands = cells.map(|cells| cells.resample(&grid, cfg.bootstrap));
    Ok(MlCurves {
        labels: table.labels().to_vec(),
        grid,
        repeats: cfg.repeats,
        items,
        values,
        label_jsd,
        label_f1,
        bands,
    })
}

impl MlCurves {
    /// Repeat r's value of `metric` at grid index g (`None`: undefined).
    pub fn value(&self, metric: MlMetric, g: usize, r: usize) -> Option<f64> {
        let v = self.values[(metric.index() * self.grid.len() + g) * self.repeats as usize + r];
        (!v.is_nan()).then_some(v)
    }

    /// Repeat r's curve of `metric`.
    pub fn repeat_curve(&self, metric: MlMetric, r: usize) -> Vec<Option<f64>> {
        (0..self.grid.len())
            .map(|g| self.value(metric, g, r))
            .collect()
    }

    /// The mean curve with its repeat intervals.
    pub fn points(&self, metric: MlMetric) -> Vec<MlPoint> {
        let nr = self.repeats as usize;
        let start = metric.index() * self.grid.len() * nr;
        self.points_of(&self.values[start..start + self.grid.len() * nr])
    }

    /// Label l's JS-distance curve (mean over items) with its repeat intervals.
    pub fn label_jsd(&self, l: usize) -> Vec<MlPoint> {
        let len = self.grid.len() * self.repeats as usize;
        self.points_of(&self.label_jsd[l * len..(l + 1) * len])
    }

    /// Label l's F1 curve (undefined where the full votes never give the label to any item).
    pub fn label_f1(&self, l: usize) -> Vec<MlPoint> {
        let len = self.grid.len() * self.repeats as usize;
        self.points_of(&self.label_f1[l * len..(l + 1) * len])
    }

    /// Repeat r's curve of label l's JS distance.
    pub(super) fn label_repeat_curve(&self, l: usize, r: usize) -> Vec<Option<f64>> {
        let (ng, nr) = (self.grid.len(), self.repeats as usize);
        (0..ng)
            .map(|g| Some(self.label_jsd[(l * ng + g) * nr + r]).filter(|v| !v.is_nan()))
            .collect()
    }

    fn points_of(&self, v: &[f64]) -> Vec<MlPoint> {
        let nr = self.repeats as usize;
        self.grid
            .iter()
            .enumerate()
            .map(|(g, &n)| {
                let mut xs: Vec<f64> = v[g * nr..(g + 1) * nr]
                    .iter()
                    .copied()
                    .filter(|x| !x.is_nan())
                    .collect();
                xs.sort_by(f64::total_cmp);
                let mean = (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64);
                let sd = mean.filter(|_| xs.len() > 1).map(|m| {
                    libm::sqrt(
                        xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64,
                    )
                });
                let q = |p| (!xs.is_empty()).then(|| crate::curves::quantile(&xs, p));
                MlPoint {
                    n,
                    items: self.items[g],
                    mean,
                    sd,
                    lo: q(0.025),
                    hi: q(0.975),
                }
            })
            .collect()
    }
}

//! `worth`'s intervals over annotators as well as items, for human files that say who voted.
//!
//! The same replacement jackknife as the curves' (`curves::crossed`): each group of human
//! annotators in turn has its votes replaced by other votes of the same items, and as many votes
//! chosen at random are replaced for the null control; ν is measured on every such table (the
//! point alone: one reference split, no bootstrap — the split's own noise is in both runs and
//! cancels in the difference), and the annotators' share of its variance — on the log scale, as
//! ν is a count whose spread grows with it — widens the item interval:
//! ln lo' = ln ν − √((ln ν − ln lo)² + 1.96²·V), and the same above. An end outside the human
//! curve (below its first N, above the pool) stays outside.
//!
//! At most [`GROUPS`] groups: each costs two measurements of the human side, and the jackknife
//! variance settles with far fewer groups than the curves' 50 (their points are read to a
//! fraction of a vote).

use super::MetricWorth;
use crate::curves::crossed::{raw_share, LeftOut};

/// Most annotator groups left out in turn.
pub const GROUPS: usize = 20;

/// ln ν per metric (NaN where ν is not defined: left out of the jackknife).
pub(super) fn log_nus(metrics: &[MetricWorth]) -> Vec<f64> {
    metrics
        .iter()
        .map(|m| m.nu.filter(|&v| v > 0.0).map_or(f64::NAN, f64::ln))
        .collect()
}

/// Per metric, the raw annotators' share of ln ν's variance read off `runs` (one [`log_nus`]
/// per left-out table): may be below 0, see [`raw_share`].
pub(super) fn shares(runs: &LeftOut<Vec<f64>>) -> Vec<f64> {
    let n = runs.by_group.first().map_or(0, Vec::len);
    (0..n)
        .map(|j| {
            let pick = |v: &[Vec<f64>]| -> Vec<f64> { v.iter().map(|r| r[j]).collect() };
            raw_share(&pick(&runs.by_group), &pick(&runs.null))
        })
        .collect()
}

/// Widens `metrics`' intervals by the shares `var` (per metric, cut at 0).
pub(super) fn widen(metrics: &mut [MetricWorth], var: &[f64]) {
    for (m, &v) in metrics.iter_mut().zip(var) {
        widen_one(m, v.max(0.0));
    }
}

/// One metric's interval widened by a variance `var` of ln ν.
fn widen_one(m: &mut MetricWorth, var: f64) {
    let Some(nu) = m.nu.filter(|&v| v > 0.0) else {
        return;
    };
    if var <= 0.0 {
        return;
    }
    let add = 1.96 * 1.96 * var;
    let c = nu.ln();
    m.lo =
        m.lo.filter(|&l| l > 0.0)
            .map(|l| (c - ((c - l.ln()).max(0.0).powi(2) + add).sqrt()).exp());
    m.hi =
        m.hi.map(|h| (c + ((h.ln() - c).max(0.0).powi(2) + add).sqrt()).exp());
    // A lower end that falls below the curve's first N is "below the curve" (None), as an item
    // interval's is.
    if m.lo.is_some_and(|l| l < m.floor as f64) {
        m.lo = None;
    }
    // And an upper end past the pool is "above it".
    if let (Some(h), Some(last)) = (m.hi, m.human.last().map(|h| h.0)) {
        if h > last as f64 {
            m.hi = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worth::WorthMetric;

    #[test]
    fn widening_is_on_the_log_scale_and_keeps_ends_outside_the_curve_outside() {
        let mut m = MetricWorth {
            metric: WorthMetric::Jsd,
            nu: Some(4.0),
            lo: Some(2.0),
            hi: Some(8.0),
            bound: None,
            source: Some(0.2),
            human: (1..=10).map(|n| (n, Some(1.0 / n as f64))).collect(),
            floor: 1,
        };
        widen_one(&mut m, 0.0);
        assert_eq!((m.lo, m.hi), (Some(2.0), Some(8.0)));
        let ln2 = 2f64.ln();
        // Var = ln2²/1.96²: each half grows from ln 2 to √2·ln 2.
        widen_one(&mut m, ln2 * ln2 / (1.96 * 1.96));
        let lo = (4f64.ln() - 2f64.sqrt() * ln2).exp();
        assert!((m.lo.unwrap() - lo).abs() < 1e-12);
        assert_eq!(m.hi, None, "past the pool of 10");
    }
}

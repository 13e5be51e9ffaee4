//! Paired comparisons of two arms over the same (split seed, model seed) units.
//!
//! Two arms at one (split, seed) share the item split, initialisation, minibatch order and vote
//! subsample, so their difference is a paired observation. We report win/loss counts, the exact
//! two-sided sign test, and the paired t-test (statrs' Student's t).

use super::{Manifest, ModelMetric};
use serde::Serialize;
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, StudentsT};

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Paired {
    /// Units where `a` is better than `b` (by the metric's direction), worse, or equal.
    pub wins: usize,
    pub losses: usize,
    pub ties: usize,
    /// Mean of a − b.
    pub mean_diff: f64,
    /// Exact two-sided sign test over wins vs losses (ties dropped).
    pub p_sign: f64,
    /// Two-sided paired t-test on a − b; `None` with fewer than 2 units or zero variance.
    pub p_t: Option<f64>,
}

pub fn paired(m: &Manifest, a: &str, b: &str, n: u32, metric: ModelMetric) -> Option<Paired> {
    let diffs: Vec<f64> = m
        .units()
        .into_iter()
        .filter_map(|u| Some(m.value(a, n, u, metric)? - m.value(b, n, u, metric)?))
        .collect();
    if diffs.is_empty() {
        return None;
    }
    let better = |d: f64| {
        if metric.higher_is_better() {
            d > 0.0
        } else {
            d < 0.0
        }
    };
    let wins = diffs.iter().filter(|&&d| d != 0.0 && better(d)).count();
    let ties = diffs.iter().filter(|&&d| d == 0.0).count();
    let losses = diffs.len() - wins - ties;
    let k = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / k;
    Some(Paired {
        wins,
        losses,
        ties,
        mean_diff: mean,
        p_sign: sign_test(wins as u64, losses as u64),
        p_t: t_test(&diffs, mean),
    })
}

fn sign_test(w: u64, l: u64) -> f64 {
    let n = w + l;
    if n == 0 {
        return 1.0;
    }
    let bin = Binomial::new(0.5, n).expect("valid binomial");
    (2.0 * bin.cdf(w.min(l))).min(1.0)
}

fn t_test(d: &[f64], mean: f64) -> Option<f64> {
    let n = d.len();
    if n < 2 {
        return None;
    }
    let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    // Identical differences leave only rounding noise in the variance: no t statistic.
    if var <= mean * mean * 1e-20 {
        return None;
    }
    let t = mean / (var / n as f64).sqrt();
    let dist = StudentsT::new(0.0, 1.0, (n - 1) as f64).ok()?;
    Some(2.0 * (1.0 - dist.cdf(t.abs())))
}

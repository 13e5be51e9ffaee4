//! "x% of the improvement by N": where a curve saturates. **One definition for the whole project**:
//! the target side (here), the model side (`models::captured_at`) and the reproduction table all
//! call [`improvement_fractions`] and [`first_reaching`].
//!
//! The improvement fraction at N is (m(N) − m(N₁)) / (m(N_max) − m(N₁)) over the grid's first and
//! last N of the *mean* curve, which works for metrics that fall (jsd, kl) and rise (agreement,
//! correlation) alike. `entropy_corr` is undefined at N = 1 (all subsampled entropies are 0); a
//! ranking that carries no information correlates 0, so 0 is its baseline there. "x% captured by N"
//! is the first grid N whose fraction reaches x; on the target side its 95% interval comes from
//! doing the same on each repeat's own curve.

use super::{Curves, Metric};
use serde::{Deserialize, Serialize};

/// The smallest N capturing a fraction x of the improvement, with a 95% interval over repeats.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Saturation {
    pub x: f64,
    pub n: Option<u32>,
    pub lo: Option<u32>,
    pub hi: Option<u32>,
}

fn fractions(values: &[Option<f64>], metric: Metric) -> Vec<Option<f64>> {
    improvement_fractions(values, metric == Metric::EntropyCorr)
}

/// The share of the first → last improvement at each point; an undefined first value counts as
/// 0 when `zero_if_undefined` (a correlation), else nothing is defined. All `None` when the curve
/// does not move.
pub fn improvement_fractions(values: &[Option<f64>], zero_if_undefined: bool) -> Vec<Option<f64>> {
    let base = match values.first().copied().flatten() {
        Some(b) => Some(b),
        None if zero_if_undefined => Some(0.0),
        None => None,
    };
    let end = values.last().copied().flatten();
    match (base, end) {
        (Some(b), Some(e)) if (e - b).abs() > 1e-15 => values
            .iter()
            .map(|v| v.map(|v| (v - b) / (e - b)))
            .collect(),
        _ => vec![None; values.len()],
    }
}

/// The first grid N whose improvement fraction reaches `x` (1e-12 tolerance).
pub fn first_reaching(grid: &[u32], fr: &[Option<f64>], x: f64) -> Option<u32> {
    fr.iter()
        .zip(grid)
        .find(|(f, _)| f.is_some_and(|f| f >= x - 1e-12))
        .map(|(_, &n)| n)
}

impl Curves {
    /// Fraction of the first-N → last-N improvement captured at each grid N, from the mean curve.
    pub fn improvement_fraction(&self, metric: Metric) -> Vec<Option<f64>> {
        let means: Vec<Option<f64>> = self.points(metric).iter().map(|p| p.mean).collect();
        fractions(&means, metric)
    }

    /// Smallest grid N capturing at least `x` (e.g. 0.9) of the improvement, with its 95% interval.
    pub fn saturation(&self, metric: Metric, x: f64) -> Saturation {
        let n = first_reaching(&self.grid, &self.improvement_fraction(metric), x);
        let mut per_repeat: Vec<u32> = (0..self.repeats as usize)
            .filter_map(|r| {
                let v: Vec<Option<f64>> = (0..self.grid.len())
                    .map(|g| self.value(metric, g, r))
                    .collect();
                first_reaching(&self.grid, &fractions(&v, metric), x)
            })
            .collect();
        per_repeat.sort_unstable();
        let (lo, hi) = if per_repeat.is_empty() {
            (None, None)
        } else {
            let last = (per_repeat.len() - 1) as f64;
            (
                Some(per_repeat[(0.025 * last).floor() as usize]),
                Some(per_repeat[(0.975 * last).ceil() as usize]),
            )
        };
        Saturation { x, n, lo, hi }
    }
}

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

pub(crate) fn fractions(values: &[Option<f64>], metric: Metric) -> Vec<Option<f64>> {
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

/// Where a curve crosses `level` (upwards when `rising`, else downwards), linearly interpolated
/// between the grid points around its first crossing: the continuous N behind [`first_reaching`]
/// (whose N is the first grid N at or past this crossing). Item intervals are percentiles of it,
/// and their grid N are it rounded up to the grid: rounding keeps the order, so a point whose
/// crossing the continuous interval covers has its grid N inside the grid interval.
pub fn crossing(grid: &[u32], values: &[Option<f64>], level: f64, rising: bool) -> Option<f64> {
    crossing_in(grid, values, level, rising, (|n| n, |n| n))
}

/// A scale of N for [`crossing_in`]: the map from N to it and the map back.
pub type Scale = (fn(f64) -> f64, fn(f64) -> f64);

/// [`crossing`] interpolated linearly in another scale of N: `(to, from)` map N to it and back
/// (worth's ν interpolates in 1/N, where the squared error's curve is a straight line).
pub fn crossing_in(
    grid: &[u32],
    values: &[Option<f64>],
    level: f64,
    rising: bool,
    (to, from): Scale,
) -> Option<f64> {
    let past = |v: f64| {
        if rising {
            v >= level - 1e-12
        } else {
            v <= level + 1e-12
        }
    };
    let mut prev: Option<(u32, f64)> = None;
    for (v, &n) in values.iter().zip(grid) {
        let Some(v) = *v else {
            prev = None;
            continue;
        };
        if past(v) {
            return Some(match prev {
                Some((n0, v0)) if v != v0 => {
                    let (u0, u1) = (to(n0 as f64), to(n as f64));
                    from(u0 + (level - v0) / (v - v0) * (u1 - u0))
                }
                _ => n as f64,
            });
        }
        prev = Some((n, v));
    }
    None
}

/// The first grid N at or past a continuous crossing.
pub fn grid_at_or_past(grid: &[u32], c: f64) -> Option<u32> {
    grid.iter().copied().find(|&n| n as f64 >= c - 1e-9)
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

/// Whether a within-data saturation point is **bounded by the votes**: forced by how many votes
/// the items have rather than shown by the data.
///
/// Against the items' own M votes every curve reaches its end at N = M by construction. For the
/// squared distance the whole curve is known in closed form, E‖p_N − p_M‖² = v (1/N − 1/M)·M/(M−1)
/// with v = 1 − ‖p‖², so its x-point against M votes understates the point against the true
/// distributions by a factor ≈ 1 / (1 − N_x/M): once the point lies past the first fifth of the
/// votes (N_x > M/5) it would move by more than a quarter with unlimited votes, and the data
/// cannot show where the metric saturates. The other metrics follow the same sampling-noise shape
/// at large N (they are smooth functions of p_N − p), so one rule serves all. Data with at least
/// `reference_votes` votes (100, the ChaosNLI convention) are never bounded: their own curve is
/// the convention's answer. A point that is never reached is bounded too.
pub fn bounded_by_votes(point: Option<u32>, votes: u32, reference_votes: u32) -> bool {
    votes < reference_votes && point.is_none_or(|n| 5 * n as u64 > votes as u64)
}

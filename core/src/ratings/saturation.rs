//! Where a rating curve saturates: the first N that captures x% of its improvement from N = 1 to
//! the curve's end, with its 95% interval over items (from the item bootstrap's resampled curves)
//! and the bounded-by-votes rule of the nominal curves (`curves::saturation`, one definition):
//! against the items' own ratings a point past a fifth of them is forced by their count, and is
//! said so rather than read.

use super::curves::RatingCurves;
use super::metric::RatingMetric;
use crate::answer::HEADLINE_REFERENCE_VOTES;
use crate::curves::saturation::{bounded_by_votes, first_reaching, improvement_fractions};
use serde::{Deserialize, Serialize};

/// One metric's x% point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingSaturation {
    pub metric: RatingMetric,
    pub x: f64,
    /// The first grid N capturing x% of the improvement (`None`: never on this grid).
    pub n: Option<u32>,
    /// Its 95% interval over items (`None` where the metric has no item bootstrap).
    pub lo: Option<u32>,
    pub hi: Option<u32>,
    pub bounded_by_votes: bool,
    pub sentence: String,
}

/// The x% point of `m` on `c` (x in (0, 1]).
pub fn saturation(c: &RatingCurves, m: RatingMetric, x: f64) -> RatingSaturation {
    // Reliability is undefined at N = 1 (one rater has no spread): its base is 0, as for the
    // nominal entropy correlation.
    let zero = m == RatingMetric::Reliability;
    let point =
        |values: &[Option<f64>]| first_reaching(&c.grid, &improvement_fractions(values, zero), x);
    let means: Vec<Option<f64>> = (0..c.grid.len()).map(|g| c.point(m, g).mean).collect();
    let n = point(&means);
    let mut ns: Vec<u32> = (0..c.resamples)
        .filter_map(|b| {
            let v: Vec<Option<f64>> = (0..c.grid.len()).map(|g| c.resampled(m, g, b)).collect();
            v.iter()
                .any(Option::is_some)
                .then(|| point(&v).unwrap_or(u32::MAX))
        })
        .collect();
    ns.sort_unstable();
    let q = |p: f64| {
        (!ns.is_empty())
            .then(|| ns[((ns.len() - 1) as f64 * p).round() as usize])
            .filter(|&n| n != u32::MAX)
    };
    let (lo, hi) = (q(0.025), q(0.975));
    let votes = c.grid.last().copied().unwrap_or(0);
    let bounded = bounded_by_votes(n, votes, HEADLINE_REFERENCE_VOTES);
    let pct = (x * 100.0).round();
    let ci = match (lo, hi) {
        (Some(a), Some(b)) if a == b => format!(" (95% interval over items {a})"),
        (Some(a), Some(b)) => format!(" (95% interval over items {a}–{b})"),
        (Some(a), None) => {
            format!(" (95% interval over items from {a}; past the grid in some resamples)")
        }
        _ => String::new(),
    };
    let sentence = match n {
        Some(n) if bounded => format!(
            "{}: {pct}% of the improvement by N = {n}{ci}, bounded by the {votes} ratings the curves reach: past a fifth of them a point is forced by the count (the headline above answers beyond it).",
            m.name()
        ),
        Some(n) => format!("{}: {pct}% of the improvement by N = {n}{ci}.", m.name()),
        None => format!(
            "{}: no detectable change with N on this grid (up to {votes} ratings).",
            m.name()
        ),
    };
    RatingSaturation {
        metric: m,
        x,
        n,
        lo,
        hi,
        bounded_by_votes: bounded,
        sentence,
    }
}

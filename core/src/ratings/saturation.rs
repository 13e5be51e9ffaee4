//! Where a rating curve saturates: the first N that captures x% of its improvement from N = 1 to
//! the curve's end, with its 95% interval over items (from the item bootstrap's resampled curves)
//! and the bounded-by-votes rule of the nominal curves (`curves::saturation`, one definition):
//! against the items' own ratings a point past a fifth of them is forced by their count, and is
//! said so rather than read.

use super::curves::RatingCurves;
use super::metric::RatingMetric;
use crate::answer::HEADLINE_REFERENCE_VOTES;
use crate::curves::saturation::{
    bounded_by_votes, crossing, first_reaching, grid_at_or_past, improvement_fractions,
};
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

/// The 95% interval over items of a point `point` reads off a curve: its N in every item
/// resample (`None` where `m` has no item bootstrap).
fn over_items(
    c: &RatingCurves,
    m: RatingMetric,
    point: &dyn Fn(&[Option<f64>]) -> Option<u32>,
) -> (Option<u32>, Option<u32>) {
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
    (q(0.025), q(0.975))
}

/// " (95% interval over items 21–25)", or nothing without one.
fn interval(lo: Option<u32>, hi: Option<u32>) -> String {
    match (lo, hi) {
        (Some(a), Some(b)) if a == b => format!(" (95% interval over items {a})"),
        (Some(a), Some(b)) => format!(" (95% interval over items {a}–{b})"),
        (Some(a), None) => {
            format!(" (95% interval over items from {a}; past the grid in some resamples)")
        }
        _ => String::new(),
    }
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
    let (lo, hi) = over_items(c, m, &point);
    let votes = c.grid.last().copied().unwrap_or(0);
    let bounded = bounded_by_votes(n, votes, HEADLINE_REFERENCE_VOTES);
    let pct = (x * 100.0).round();
    let ci = interval(lo, hi);
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

/// The first grid N whose mean curve of `m` is within `level` (at most it for the errors and
/// distances, at least it for reliability and rank correlation), with its 95% interval over items
/// and the bounded-by-votes rule — the rating twin of `curves --within`. The scale-point metrics
/// (mean error, RMSE, Wasserstein) take the headline's precision, the others its reliability.
pub fn within(c: &RatingCurves, m: RatingMetric, level: f64) -> RatingSaturation {
    let rising = !m.lower_is_better();
    let point = |values: &[Option<f64>]| {
        crossing(&c.grid, values, level, rising).and_then(|x| grid_at_or_past(&c.grid, x))
    };
    let means: Vec<Option<f64>> = (0..c.grid.len()).map(|g| c.point(m, g).mean).collect();
    let n = point(&means);
    let (lo, hi) = over_items(c, m, &point);
    let votes = c.grid.last().copied().unwrap_or(0);
    let bounded = bounded_by_votes(n, votes, HEADLINE_REFERENCE_VOTES);
    let what = if rising {
        format!("{} at least {level}", m.name())
    } else {
        format!("{} within {level}", m.name())
    };
    let sentence = match n {
        Some(n) if bounded => format!(
            "{what} by N = {n}{}, bounded by the {votes} ratings the curves reach.",
            interval(lo, hi)
        ),
        Some(n) => format!("{what} by N = {n}{}.", interval(lo, hi)),
        None => format!("{what}: not reached up to N = {votes}."),
    };
    RatingSaturation {
        metric: m,
        x: level,
        n,
        lo,
        hi,
        bounded_by_votes: bounded,
        sentence,
    }
}

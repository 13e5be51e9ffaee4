//! Multilabel saturation points: "x of the improvement by N", with the repeats' and the items'
//! intervals and the few-votes rule, by the definitions the single-label curves use
//! ([`crate::curves::saturation`]).

use super::curves::MlCurves;
use super::metric::MlMetric;
use crate::answer::HEADLINE_REFERENCE_VOTES;
use crate::curves::bootstrap::ItemInterval;
use crate::curves::saturation::{bounded_by_votes, first_reaching, improvement_fractions};
use serde::{Deserialize, Serialize};

/// The smallest grid N capturing a share x of a curve's improvement.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MlSaturation {
    pub x: f64,
    /// From the mean curve (`None`: never reached within the grid).
    pub n: Option<u32>,
    /// 2.5–97.5th percentile over repeats' own curves (these items, other annotators).
    pub lo: Option<u32>,
    pub hi: Option<u32>,
    /// Over item resamples (other items from the same population), when bootstrapped.
    pub items: Option<ItemInterval>,
    /// The point is forced by how many votes the items have, not shown by the data
    /// ([`bounded_by_votes`] against [`MlCurves::typical_votes`]).
    pub bounded_by_votes: bool,
    pub votes: u32,
    /// Whether the mean curve moves at all between the grid's first and last N.
    pub moves: bool,
}

/// "4–6" for an interval of grid N (an end past the grid is "past N = last").
fn range(lo: Option<u32>, hi: Option<u32>, last: u32) -> String {
    let end = |n: Option<u32>| n.map_or(format!("past {last}"), |n| n.to_string());
    if lo == hi {
        end(lo)
    } else {
        format!("{}–{}", end(lo), end(hi))
    }
}

impl MlSaturation {
    /// The answer in words, for the CLI and the app alike: a number only where the data can
    /// give one.
    pub fn sentence(&self, name: &str, last_n: u32) -> String {
        let pct = (self.x * 100.0).round();
        if !self.moves {
            return format!("{name}: no detectable change with N (the mean curve is flat from the first N to the last).");
        }
        let items = self
            .items
            .map(|iv| format!("95% interval over items {}", range(iv.lo, iv.hi, last_n)));
        let repeats = format!("over repeats {}", range(self.lo, self.hi, last_n));
        let iv = items.map_or(repeats.clone(), |i| format!("{i}; {repeats}"));
        match (self.n, self.bounded_by_votes) {
            (None, _) => format!(
                "{name}: {pct}% of the improvement is not reached within N = {last_n}."
            ),
            (Some(n), false) => format!(
                "{name}: {n} annotators per item capture {pct}% of the improvement ({iv})."
            ),
            (Some(n), true) => format!(
                "{name}: bounded by your {} votes per item — its {pct}% point (N = {n}; {iv}) is forced by the vote count, not shown by the data.",
                self.votes
            ),
        }
    }
}

impl MlCurves {
    /// The largest grid N that at least half of the items reach: the vote count the few-votes
    /// rule judges a point against (as the single-label answer does).
    pub fn typical_votes(&self) -> u32 {
        let half = self.items.first().copied().unwrap_or(0).div_ceil(2);
        self.grid
            .iter()
            .zip(&self.items)
            .rev()
            .find(|(_, &i)| i >= half)
            .map_or(0, |(&n, _)| n)
    }

    /// "x of the improvement by N" for `metric`.
    pub fn saturation(&self, metric: MlMetric, x: f64) -> MlSaturation {
        let means: Vec<Option<f64>> = self.points(metric).iter().map(|p| p.mean).collect();
        let repeats = (0..self.repeats as usize).map(|r| self.repeat_curve(metric, r));
        let items = self.bands.as_ref().map(|b| b.saturation(metric, x));
        self.point(&means, repeats, metric.zero_if_undefined(), x, items)
    }

    /// "x of the improvement by N" for label l's JS distance: which labels saturate late.
    pub fn label_saturation(&self, l: usize, x: f64) -> MlSaturation {
        let means: Vec<Option<f64>> = self.label_jsd(l).iter().map(|p| p.mean).collect();
        let repeats = (0..self.repeats as usize).map(|r| self.label_repeat_curve(l, r));
        let items = self.bands.as_ref().map(|b| b.label_saturation(l, x));
        self.point(&means, repeats, false, x, items)
    }

    fn point(
        &self,
        means: &[Option<f64>],
        repeats: impl Iterator<Item = Vec<Option<f64>>>,
        zero_if_undefined: bool,
        x: f64,
        items: Option<ItemInterval>,
    ) -> MlSaturation {
        let n = first_reaching(
            &self.grid,
            &improvement_fractions(means, zero_if_undefined),
            x,
        );
        let mut per: Vec<u32> = repeats
            .filter_map(|c| {
                first_reaching(&self.grid, &improvement_fractions(&c, zero_if_undefined), x)
            })
            .collect();
        per.sort_unstable();
        let (lo, hi) = if per.is_empty() {
            (None, None)
        } else {
            let last = (per.len() - 1) as f64;
            (
                Some(per[(0.025 * last).floor() as usize]),
                Some(per[(0.975 * last).ceil() as usize]),
            )
        };
        let votes = self.typical_votes();
        let moves = improvement_fractions(means, zero_if_undefined)
            .iter()
            .any(Option::is_some);
        MlSaturation {
            moves,
            x,
            n,
            lo,
            hi,
            items,
            bounded_by_votes: bounded_by_votes(n, votes, HEADLINE_REFERENCE_VOTES),
            votes,
        }
    }
}

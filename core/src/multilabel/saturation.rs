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
        MlSaturation {
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

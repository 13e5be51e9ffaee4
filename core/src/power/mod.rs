//! Can a human evaluation tell two models apart? Power and significance of "B differs from A on
//! metric m" over the evaluation's design — items I × votes per item N — by simulation from the
//! file's own items and votes (docs/compare.md).
//!
//! The file stands for the population: an evaluation of I items draws them from the file's items
//! with replacement (past the file's count every extra item is a repeat, and the output says so),
//! and each item's N votes from its own votes without replacement, or, past them, from its
//! posterior under the extrapolation's prior ([`pool`]). Each model's score on an item is measured
//! against that item's N-vote distribution p_N, the way an evaluation with N annotators would
//! measure it; the two models' scores on the same item are paired ([`simulate`]).
//!
//! - [`predictions`]: the models' prediction files (or an export's arm), matched to the votes.
//! - [`pool`]: per N, every item's B − A per metric over several vote draws.
//! - [`simulate`]: the simulated evaluations and their tests.
//! - [`cells`]: the reference direction, one N's column of simulated cells, the file's own test.
//! - [`budgets`]: the best split along each fixed budget, the budget with the power asked for.
//! - [`report`]: the types, the joined report and its CSV.
//! - [`run`]: the whole comparison in one call (the CLI's and the app's worker's).
//! - [`words`]: the sentences.

pub mod budgets;
pub mod cells;
pub mod pool;
pub mod predictions;
pub mod report;
pub mod run;
pub mod simulate;
#[cfg(test)]
mod tests;
pub mod words;

pub use cells::{column, observed, reference};
pub use pool::{Input, Pool};
pub use predictions::{Paired, Predictions};
pub use report::{Budget, Cell, Column, Observed, PowerConfig, PowerReport, Reach, Reference};
pub use run::compare;

use serde::{Deserialize, Serialize};

/// What the two models are compared on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PowerMetric {
    /// Agreement of the model's arg-max with the N-vote majority (ties: the curves' credit).
    Accuracy,
    /// KL(p_N ‖ q), q clipped at 1e-15 as the model-side metrics do.
    Kl,
    /// Jensen–Shannon distance.
    Js,
    /// Total variation, ½ Σ |p_N − q|.
    Tv,
    /// Wasserstein-1 on the rating scale.
    Wasserstein,
    /// |mean rating of q − mean of the N ratings|.
    Mae,
    /// Pearson r of H(p_N) with the model's entropy over the items.
    EntropyCorr,
    /// Per item +1 where B is closer to p_N than A (JS distance), −1 where farther, 0 on ties:
    /// the mean is B's share of wins minus A's.
    Wins,
}

impl PowerMetric {
    pub const ALL: [PowerMetric; 8] = [
        PowerMetric::Accuracy,
        PowerMetric::Kl,
        PowerMetric::Js,
        PowerMetric::Tv,
        PowerMetric::Wasserstein,
        PowerMetric::Mae,
        PowerMetric::EntropyCorr,
        PowerMetric::Wins,
    ];

    pub fn key(self) -> &'static str {
        match self {
            PowerMetric::Accuracy => "accuracy",
            PowerMetric::Kl => "kl",
            PowerMetric::Js => "js",
            PowerMetric::Tv => "tv",
            PowerMetric::Wasserstein => "wasserstein",
            PowerMetric::Mae => "mae",
            PowerMetric::EntropyCorr => "entropy_corr",
            PowerMetric::Wins => "wins",
        }
    }

    pub fn parse(s: &str) -> Option<PowerMetric> {
        PowerMetric::ALL.into_iter().find(|m| m.key() == s)
    }

    pub fn label(self) -> &'static str {
        match self {
            PowerMetric::Accuracy => "accuracy",
            PowerMetric::Kl => "KL",
            PowerMetric::Js => "JS distance",
            PowerMetric::Tv => "total variation",
            PowerMetric::Wasserstein => "Wasserstein",
            PowerMetric::Mae => "mean rating error",
            PowerMetric::EntropyCorr => "entropy correlation",
            PowerMetric::Wins => "wins",
        }
    }

    pub fn higher_is_better(self) -> bool {
        matches!(
            self,
            PowerMetric::Accuracy | PowerMetric::EntropyCorr | PowerMetric::Wins
        )
    }

    /// Only on a rating scale.
    pub fn needs_scale(self) -> bool {
        matches!(self, PowerMetric::Wasserstein | PowerMetric::Mae)
    }
}

/// The metrics of one comparison: the per-item ones (stored per pool row, in this order), then
/// the entropy correlation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slots {
    scale: bool,
}

impl Slots {
    pub fn new(scale: bool) -> Self {
        Slots { scale }
    }

    /// The per-item metrics, in pool order.
    pub fn metrics(&self) -> Vec<PowerMetric> {
        PowerMetric::ALL
            .into_iter()
            .filter(|m| *m != PowerMetric::EntropyCorr && (self.scale || !m.needs_scale()))
            .collect()
    }

    pub fn len(&self) -> usize {
        if self.scale {
            7
        } else {
            5
        }
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// Every metric of the comparison, in output order.
    pub fn all(&self) -> Vec<PowerMetric> {
        PowerMetric::ALL
            .into_iter()
            .filter(|m| self.scale || !m.needs_scale())
            .collect()
    }
}

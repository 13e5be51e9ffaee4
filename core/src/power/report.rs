//! The comparison's answer: per metric, what the file itself says (B − A on its items and all
//! their votes, with an item-bootstrap interval and the paired test's p), the power grid over
//! (items, votes per item), the split with the most power along each fixed budget, and the
//! smallest budget with the target power. Computed by N columns ([`super::cells::column`], the app's
//! workers' unit) and joined ([`PowerReport::new`], in [`super::budgets`]); the CLI and the app print its CSV and sentences.

use super::PowerMetric;
use serde::{Deserialize, Serialize};

/// What is simulated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PowerConfig {
    /// Items per evaluation (the grid's rows).
    pub items: Vec<u32>,
    /// Votes per item (the grid's columns).
    pub n: Vec<u32>,
    /// Simulated evaluations per cell.
    pub resamples: u32,
    /// Vote draws per item in each N's pool.
    pub draws: u32,
    pub alpha: f64,
    /// Power wanted for the budget answer.
    pub power: f64,
    /// Effects to detect, in each metric's units, as an improvement of B over A.
    pub effects: Vec<(PowerMetric, f64)>,
    pub seed: u64,
}

/// The grid's rows when none are given.
pub const DEFAULT_ITEMS: [u32; 10] = [25, 50, 100, 150, 200, 300, 500, 750, 1000, 1500];
/// The grid's columns when none are given.
pub const DEFAULT_N: [u32; 10] = [1, 2, 3, 5, 7, 10, 15, 20, 30, 50];

impl PowerConfig {
    /// Why these settings cannot be simulated, in the user's words.
    pub fn check(&self) -> Result<(), String> {
        if self.items.windows(2).any(|w| w[0] >= w[1]) || self.n.windows(2).any(|w| w[0] >= w[1]) {
            return Err("item counts and N must be given in increasing order, each once".into());
        }
        if self.items.is_empty() || self.n.is_empty() {
            return Err("give at least one item count and one N".into());
        }
        if self.items.iter().any(|&i| i < 5) {
            return Err("an evaluation needs at least 5 items (the entropy correlation's test has I − 3 degrees of freedom)".into());
        }
        if self.n.contains(&0) {
            return Err("N must be at least 1".into());
        }
        let within = |x: f64| x > 0.0 && x < 1.0;
        if !within(self.alpha) || !within(self.power) {
            return Err("α and the power must lie between 0 and 1".into());
        }
        if self.resamples < 10 {
            return Err("give at least 10 simulated evaluations per cell".into());
        }
        Ok(())
    }
}

impl Default for PowerConfig {
    fn default() -> Self {
        PowerConfig {
            items: DEFAULT_ITEMS.to_vec(),
            n: DEFAULT_N.to_vec(),
            resamples: 1000,
            draws: 32,
            alpha: 0.05,
            power: 0.8,
            effects: Vec::new(),
            seed: 0,
        }
    }
}

/// One metric at one (I, N).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub metric: PowerMetric,
    pub items: u32,
    pub n: u32,
    /// The mean difference B − A over the simulated evaluations, and their 2.5% and 97.5% points.
    #[serde(with = "crate::curves::nan_as_null::scalar")]
    pub diff: f64,
    #[serde(with = "crate::curves::nan_as_null::scalar")]
    pub diff_lo: f64,
    #[serde(with = "crate::curves::nan_as_null::scalar")]
    pub diff_hi: f64,
    /// The median evaluation's p (the paired bootstrap test's).
    #[serde(with = "crate::curves::nan_as_null::scalar")]
    pub p_median: f64,
    /// Share of evaluations with p < α in the direction of the file's own difference (all votes).
    pub power: f64,
    /// Share with p < α in the other direction: at small N a distribution metric can measure
    /// something else than at many votes, and an evaluation there "finds" the opposite.
    pub wrong_sign: f64,
    /// The same for the effect asked for (each evaluation's difference moved to it).
    pub power_effect: Option<f64>,
}

/// One N's cells, with what its pool expects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Column {
    pub n: u32,
    /// Some item has fewer votes than N: its votes came from the extrapolation.
    pub extrapolated: bool,
    pub cells: Vec<Cell>,
    /// Along each fixed budget of [`super::budgets::budget_lines`] that this N can split within the grid's item
    /// range: (budget, the cell at items = budget / N), simulated as the grid's cells are.
    pub along: Vec<(u64, Cell)>,
}

/// What the file says on its own items with all their votes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observed {
    pub metric: PowerMetric,
    pub items: u32,
    #[serde(with = "crate::curves::nan_as_null::scalar")]
    pub diff: f64,
    /// Item-bootstrap 95% interval of the difference (NaN where the metric is undefined).
    #[serde(with = "crate::curves::nan_as_null::scalar")]
    pub lo: f64,
    #[serde(with = "crate::curves::nan_as_null::scalar")]
    pub hi: f64,
    #[serde(with = "crate::curves::nan_as_null::scalar")]
    pub p: f64,
}

/// Along a fixed number of votes, the split with the most power.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    pub metric: PowerMetric,
    pub votes: u64,
    pub items: u32,
    pub n: u32,
    pub power: f64,
}

/// The smallest budget with the target power, or `None` within the grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reach {
    pub metric: PowerMetric,
    pub found: Option<Budget>,
}

/// The difference a rejection must agree with in direction — what the comparison would show with
/// all the votes there could be: the file's own difference with all its votes where every item
/// has at least the grid's largest N, else the expected difference at that N (drawn past the
/// items' votes from the extrapolation's posterior). A few votes can point the other way: for
/// total variation one vote per item measures another thing than many do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// `None`: every item's own votes; else the N it was taken at.
    pub n: Option<u32>,
    pub diffs: Vec<(PowerMetric, f64)>,
}

/// Everything the CLI prints and the app shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PowerReport {
    pub config: PowerConfig,
    /// The direction power counts.
    pub reference: Reference,
    /// Items in the file (both models predict them).
    pub file_items: u32,
    /// The fewest votes an item has.
    pub file_votes: u32,
    pub observed: Vec<Observed>,
    pub columns: Vec<Column>,
    pub budgets: Vec<Budget>,
    pub reach: Vec<Reach>,
}

impl PowerReport {
    /// The grid and the cells along the budget lines as CSV, one row per (metric, items, votes).
    pub fn to_csv(&self) -> String {
        let mut s = String::from(
            "metric,items,votes,budget,past_file,diff,diff_lo,diff_hi,p_median,power,wrong_sign,effect,power_effect\n",
        );
        for c in &self.columns {
            let mut rows: Vec<&Cell> = c.cells.iter().collect();
            for (_, x) in &c.along {
                if !rows
                    .iter()
                    .any(|y| y.metric == x.metric && y.items == x.items)
                {
                    rows.push(x);
                }
            }
            rows.sort_by_key(|x| (x.items, self.metrics().iter().position(|m| *m == x.metric)));
            for x in rows {
                let past = match (x.items > self.file_items, c.extrapolated) {
                    (true, true) => "items+votes",
                    (true, false) => "items",
                    (false, true) => "votes",
                    (false, false) => "",
                };
                let effect = self
                    .config
                    .effects
                    .iter()
                    .find(|(m, _)| *m == x.metric)
                    .map(|e| format!("{}", e.1))
                    .unwrap_or_default();
                s.push_str(&format!(
                    "{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                    x.metric.key(),
                    x.items,
                    x.n,
                    x.items as u64 * x.n as u64,
                    past,
                    num(x.diff),
                    num(x.diff_lo),
                    num(x.diff_hi),
                    num(x.p_median),
                    num(x.power),
                    num(x.wrong_sign),
                    effect,
                    x.power_effect.map(num).unwrap_or_default()
                ));
            }
        }
        s
    }

    /// The metrics compared, in output order.
    pub fn metrics(&self) -> Vec<PowerMetric> {
        self.observed.iter().map(|o| o.metric).collect()
    }

    /// The cells of one metric.
    pub fn cells(&self, m: PowerMetric) -> impl Iterator<Item = &Cell> {
        self.columns
            .iter()
            .flat_map(|c| c.cells.iter())
            .filter(move |c| c.metric == m)
    }
}

/// Six significant digits, the CSV's numbers (NaN as empty).
fn num(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else {
        format!("{}", (x * 1e6).round() / 1e6)
    }
}

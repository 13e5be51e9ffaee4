//! The comparison's answer: per metric, what the file itself says (B − A on its items and all
//! their votes, with an item-bootstrap interval and the paired test's p), the power grid over
//! (items, votes per item), the split with the most power along each fixed budget, and the
//! smallest budget with the target power. Computed by N columns ([`column`], the app's workers'
//! unit) and joined ([`PowerReport::new`]); the CLI and the app print its CSV and sentences.

use super::pool::{Input, Pool};
use super::simulate::{evaluations, whole, Sims};
use super::PowerMetric;
use crate::extrapolate::Prior;
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
    pub diff: f64,
    pub diff_lo: f64,
    pub diff_hi: f64,
    /// The median evaluation's p (the paired bootstrap test's).
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
    /// Along each fixed budget of [`budget_lines`] that this N can split within the grid's item
    /// range: (budget, the cell at items = budget / N), simulated as the grid's cells are.
    pub along: Vec<(u64, Cell)>,
}

/// What the file says on its own items with all their votes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observed {
    pub metric: PowerMetric,
    pub items: u32,
    pub diff: f64,
    /// Item-bootstrap 95% interval of the difference.
    pub lo: f64,
    pub hi: f64,
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

/// The [`Reference`] of a comparison.
pub fn reference(
    inp: Input,
    cfg: &PowerConfig,
    priors: Option<&[Prior]>,
) -> Result<Reference, String> {
    let top = cfg.n.iter().max().copied().unwrap_or(1);
    let fewest = (0..inp.table.num_items())
        .map(|i| inp.table.total(i))
        .min()
        .unwrap_or(0);
    let (n, pool) = if fewest >= top {
        (None, Pool::build(inp, None, 1, cfg.seed, None)?)
    } else {
        (
            Some(top),
            Pool::build(inp, Some(top), cfg.draws, cfg.seed, priors)?,
        )
    };
    Ok(Reference {
        n,
        diffs: whole(&pool),
    })
}

/// One N's column: its pool, then `resamples` evaluations per row of the grid and along each
/// budget line; `reference` from [`reference`].
pub fn column(
    inp: Input,
    cfg: &PowerConfig,
    (n, reference): (u32, &Reference),
    priors: Option<&[Prior]>,
    progress: &mut impl FnMut(usize),
) -> Result<Column, String> {
    let pool = Pool::build(inp, Some(n), cfg.draws, cfg.seed, priors)?;
    let expected = whole(&pool);
    let truth = &reference.diffs;
    let mut cells = Vec::new();
    for (r, &items) in cfg.items.iter().enumerate() {
        let sims = evaluations(&pool, items, cfg.resamples, cfg.seed);
        for ((s, &(_, mu)), &(_, file)) in sims.iter().zip(&expected).zip(truth) {
            cells.push(cell(s, (items, n), (mu, sign_of(file)), cfg));
        }
        progress(r + 1);
    }
    let (lo, hi) = (cfg.items[0], cfg.items[cfg.items.len() - 1]);
    let mut along = Vec::new();
    for votes in budget_lines(cfg) {
        let items = (votes as f64 / n as f64).round() as u32;
        if items < lo || items > hi {
            continue;
        }
        let sims = evaluations(&pool, items, cfg.resamples, cfg.seed);
        for ((s, &(_, mu)), &(_, file)) in sims.iter().zip(&expected).zip(truth) {
            along.push((votes, cell(s, (items, n), (mu, sign_of(file)), cfg)));
        }
    }
    Ok(Column {
        n,
        extrapolated: pool.extrapolated,
        cells,
        along,
    })
}

/// One cell from its evaluations: `mu` the pool's expected difference at this N, `truth` the sign
/// of the [`Reference`] difference, the direction a rejection must take to count as power (the other
/// direction counts as `wrong_sign`). The test: |d| beyond the (1 − α) point of |d − mu| over the
/// evaluations — the spread of an evaluation's difference around what it estimates.
fn cell(s: &Sims, (items, n): (u32, u32), (mu, truth): (f64, f64), cfg: &PowerConfig) -> Cell {
    let null = null_of(&s.diff, mu);
    let crit = quantile(&null, 1.0 - cfg.alpha);
    let r = s.diff.len().max(1) as f64;
    let share = |d: &mut dyn Iterator<Item = f64>, sign: f64| {
        d.filter(|&d| d.abs() > crit && (sign == 0.0 || d.signum() == sign))
            .count() as f64
            / r
    };
    let power = share(&mut s.diff.iter().copied(), truth);
    let wrong_sign = if truth == 0.0 {
        0.0
    } else {
        share(&mut s.diff.iter().copied(), -truth)
    };
    let power_effect = cfg
        .effects
        .iter()
        .find(|(m, _)| *m == s.metric)
        .map(|&(m, eps)| {
            let target = if m.higher_is_better() { eps } else { -eps };
            share(
                &mut s.diff.iter().map(|&d| d - mu + target),
                sign_of(target),
            )
        });
    let mut abs: Vec<f64> = s.diff.iter().map(|d| d.abs()).collect();
    abs.sort_by(f64::total_cmp);
    let mut d = s.diff.clone();
    d.sort_by(f64::total_cmp);
    Cell {
        metric: s.metric,
        items,
        n,
        diff: s.diff.iter().sum::<f64>() / r,
        diff_lo: quantile(&d, 0.025),
        diff_hi: quantile(&d, 0.975),
        p_median: p_of(&null, quantile(&abs, 0.5)),
        power,
        wrong_sign,
        power_effect,
    }
}

/// The test's null: each evaluation's |d − center|, sorted (NaN, a correlation of a constant, last).
fn null_of(diff: &[f64], center: f64) -> Vec<f64> {
    let mut v: Vec<f64> = diff.iter().map(|&d| (d - center).abs()).collect();
    v.sort_by(f64::total_cmp);
    v
}

/// The bootstrap p of |d| against the sorted null: (1 + null values at least as large) / (R + 1).
fn p_of(null: &[f64], d: f64) -> f64 {
    if d.is_nan() {
        return f64::NAN;
    }
    let above = null.len() - null.partition_point(|&x| x < d.abs());
    (1 + above) as f64 / (null.len() + 1) as f64
}

fn sign_of(x: f64) -> f64 {
    if x == 0.0 || x.is_nan() {
        0.0
    } else {
        x.signum()
    }
}

/// The q-quantile of sorted values (linear between order statistics).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let h = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// What the file says on its own items and all their votes: the difference, its item-bootstrap
/// interval and the paired bootstrap test's p.
pub fn observed(inp: Input, cfg: &PowerConfig) -> Result<Vec<Observed>, String> {
    let pool = Pool::build(inp, None, 1, cfg.seed, None)?;
    let items = pool.items as u32;
    let sims = evaluations(&pool, items, cfg.resamples, cfg.seed);
    Ok(whole(&pool)
        .into_iter()
        .zip(sims)
        .map(|((metric, diff), s)| {
            let null = null_of(&s.diff, diff);
            let mut d = s.diff;
            d.sort_by(f64::total_cmp);
            Observed {
                metric,
                items,
                diff,
                lo: quantile(&d, 0.025),
                hi: quantile(&d, 0.975),
                p: p_of(&null, diff),
            }
        })
        .collect())
}

impl PowerReport {
    /// The report of `columns` (any order) for the file `inp`.
    pub fn new(
        inp: Input,
        cfg: &PowerConfig,
        (observed, reference): (Vec<Observed>, Reference),
        mut columns: Vec<Column>,
    ) -> PowerReport {
        columns.sort_by_key(|c| c.n);
        let t = inp.table;
        let metrics: Vec<PowerMetric> = observed.iter().map(|o| o.metric).collect();
        let mut budgets = Vec::new();
        let mut reach = Vec::new();
        for &m in &metrics {
            for votes in budget_lines(cfg) {
                if let Some(b) = best_split(&columns, m, votes) {
                    budgets.push(b);
                }
            }
            reach.push(Reach {
                metric: m,
                found: reach_power(&columns, m, cfg.power),
            });
        }
        PowerReport {
            config: cfg.clone(),
            reference,
            file_items: t.num_items() as u32,
            file_votes: (0..t.num_items()).map(|i| t.total(i)).min().unwrap_or(0),
            observed,
            columns,
            budgets,
            reach,
        }
    }

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

/// The fixed budgets the grid spans (1, 2, 5 × 10^k votes, within its corners).
pub fn budget_lines(cfg: &PowerConfig) -> Vec<u64> {
    let lo = cfg.items.iter().min().copied().unwrap_or(1) as u64
        * cfg.n.iter().min().copied().unwrap_or(1) as u64;
    let hi = cfg.items.iter().max().copied().unwrap_or(1) as u64
        * cfg.n.iter().max().copied().unwrap_or(1) as u64;
    let mut out = Vec::new();
    let mut p = 1u64;
    while p <= hi {
        for m in [1, 2, 5] {
            let v = p * m;
            if v >= lo && v <= hi {
                out.push(v);
            }
        }
        p *= 10;
    }
    out
}

/// Power at `items` in one N's column, linear in log items between its rows (`None` outside).
pub fn power_at(col: &Column, m: PowerMetric, items: f64) -> Option<f64> {
    let pts: Vec<(f64, f64)> = col
        .cells
        .iter()
        .filter(|c| c.metric == m)
        .map(|c| (c.items as f64, c.power))
        .collect();
    let first = pts.first()?;
    if items < first.0 || items > pts.last()?.0 {
        return None;
    }
    for w in pts.windows(2) {
        if items <= w[1].0 {
            let f = (items.ln() - w[0].0.ln()) / (w[1].0.ln() - w[0].0.ln()).max(1e-12);
            return Some(w[0].1 + f * (w[1].1 - w[0].1));
        }
    }
    Some(first.1)
}

/// The split of `votes` with the most power, among the grid's N (items within its rows), from the
/// cells simulated along that budget; ties go to fewer votes per item.
pub fn best_split(columns: &[Column], m: PowerMetric, votes: u64) -> Option<Budget> {
    columns
        .iter()
        .flat_map(|c| c.along.iter())
        .filter(|(v, c)| *v == votes && c.metric == m)
        .map(|(v, c)| Budget {
            metric: m,
            votes: *v,
            items: c.items,
            n: c.n,
            power: c.power,
        })
        .max_by(|a, b| a.power.total_cmp(&b.power).then(b.n.cmp(&a.n)))
}

/// The fewest votes with `target` power: per N the items where the power first reaches it
/// (linear in log items between rows), the cheapest of those.
pub fn reach_power(columns: &[Column], m: PowerMetric, target: f64) -> Option<Budget> {
    columns
        .iter()
        .filter_map(|c| {
            let pts: Vec<(f64, f64)> = c
                .cells
                .iter()
                .filter(|x| x.metric == m)
                .map(|x| (x.items as f64, x.power))
                .collect();
            if pts.first()?.1 >= target {
                let i = pts[0].0;
                return Some((i, c.n, pts[0].1));
            }
            pts.windows(2).find(|w| w[1].1 >= target).map(|w| {
                let f = (target - w[0].1) / (w[1].1 - w[0].1);
                let i = (w[0].0.ln() + f * (w[1].0.ln() - w[0].0.ln())).exp().ceil();
                (i, c.n, target)
            })
        })
        .map(|(i, n, p)| Budget {
            metric: m,
            votes: i as u64 * n as u64,
            items: i as u32,
            n,
            power: p,
        })
        .min_by(|a, b| a.votes.cmp(&b.votes).then(a.n.cmp(&b.n)))
}

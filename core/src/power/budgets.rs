//! The budget answers read from the columns: the fixed budgets the grid spans, the most powerful
//! split along each, and the smallest budget with the power asked for.

use super::pool::Input;
use super::report::{Budget, Column, Observed, PowerConfig, PowerReport, Reach, Reference};
use super::PowerMetric;

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
    let pts = items_power(col, m);
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
            let pts = items_power(c, m);
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
}

/// One metric's (items, power) down a column, in the column's item order.
fn items_power(col: &Column, m: PowerMetric) -> Vec<(f64, f64)> {
    col.cells
        .iter()
        .filter(|c| c.metric == m)
        .map(|c| (c.items as f64, c.power))
        .collect()
}

//! The budget planner's results (`annosat plan`, the Plan room): with a fixed number of votes,
//! heads trained on more items × fewer votes or fewer × more. The types and what the user reads —
//! each point's mean and range over seeds, the best point per budget and metric (the frontier),
//! one sentence per budget, the CSV — live here, free of candle, so the CLI and the page share
//! them; the training is `annosat_heads::budget`.

use super::RunMetrics as Metrics;
use serde::{Deserialize, Serialize};

/// One trained point.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct BudgetPoint {
    pub budget: u64,
    pub items: usize,
    pub n: u32,
    pub split_seed: u64,
    pub model_seed: u64,
    pub best_epoch: usize,
    pub metrics: Metrics,
}

/// The (budget, items, n) points of `budgets` × `ns` that fit: at least `min_items` and at most
/// the training split's items, N from 1 to `votes` (the fewest votes an item has: every item of a
/// point then has its N votes, so a point's budget is what it spends). Budgets and N are taken
/// once each, in increasing order.
pub fn grid(
    budgets: &[u64],
    ns: &[u32],
    train_items: usize,
    votes: u32,
    min_items: usize,
) -> Vec<(u64, usize, u32)> {
    let sorted = |v: &[u64]| {
        let mut v = v.to_vec();
        v.sort_unstable();
        v.dedup();
        v
    };
    let ns: Vec<u64> = sorted(&ns.iter().map(|&n| n as u64).collect::<Vec<_>>());
    let mut out = Vec::new();
    for b in sorted(budgets) {
        for &n in ns.iter().filter(|&&n| n >= 1 && n <= votes as u64) {
            let i = (b / n) as usize;
            if i >= min_items && i <= train_items {
                out.push((b, i, n as u32));
            }
        }
    }
    out
}

/// What to plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BudgetConfig {
    /// Total votes; empty: 1, 3 and 10 times the training items.
    pub budgets: Vec<u64>,
    pub ns: Vec<u32>,
    /// Model seeds 0..seeds per point.
    pub seeds: u64,
    pub split_seed: u64,
    pub min_items: usize,
}

impl Default for BudgetConfig {
    /// `annosat plan`'s defaults.
    fn default() -> Self {
        BudgetConfig {
            budgets: Vec::new(),
            ns: vec![1, 2, 3, 5, 10, 20, 50, 100],
            seeds: 5,
            split_seed: 42,
            min_items: 20,
        }
    }
}

/// The metrics the planner reports, and whether lower is better.
pub const METRICS: [(&str, bool); 4] = [
    ("kl", true),
    ("jsd", true),
    ("entropy_corr", false),
    ("accuracy", false),
];

fn value(m: &Metrics, metric: &str) -> f64 {
    match metric {
        "kl" => m.kl,
        "jsd" => m.jsd,
        "entropy_corr" => m.entropy_corr.unwrap_or(f64::NAN),
        _ => m.accuracy,
    }
}

/// A point's metric over seeds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
}

/// The best point of one budget for one metric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Best {
    pub budget: u64,
    pub metric: String,
    pub items: usize,
    pub n: u32,
    pub spread: Spread,
    /// Other points of the budget whose mean lies within the best's range, as "I × N".
    pub within_range: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BudgetReport {
    pub config: BudgetConfig,
    pub train_items: usize,
    /// Every (budget, items, N) trained.
    pub points: Vec<(u64, usize, u32)>,
    /// Every seed's run of every point.
    pub runs: Vec<BudgetPoint>,
    pub constant: Metrics,
    pub frontier: Vec<Best>,
    /// The target side at each N of the points: the labels themselves (p_N against all of an
    /// item's votes, `annosat curves`' KL and entropy correlation, mean over repeats), no model.
    #[serde(default)]
    pub target: Vec<TargetSide>,
}

/// The target-side curves at one N.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetSide {
    pub n: u32,
    pub kl: Option<f64>,
    pub entropy_corr: Option<f64>,
    /// When N goes past the votes the items have, the target side is extrapolated
    /// (`annosat extrapolate --reference-votes` the largest N): M' here.
    #[serde(default)]
    pub extrapolated_to: Option<u32>,
}

impl BudgetReport {
    /// A point's metric over seeds (NaN where every seed's is undefined).
    pub fn spread(&self, (b, i, n): (u64, usize, u32), metric: &str) -> Spread {
        let v: Vec<f64> = self
            .runs
            .iter()
            .filter(|p| p.budget == b && p.items == i && p.n == n)
            .map(|p| value(&p.metrics, metric))
            .filter(|x| !x.is_nan())
            .collect();
        Spread {
            mean: v.iter().sum::<f64>() / v.len() as f64,
            lo: v.iter().copied().fold(f64::INFINITY, f64::min),
            hi: v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }

    /// The best point of each budget for each metric.
    pub fn best_points(&self) -> Vec<Best> {
        let mut out = Vec::new();
        for &b in &self.config.budgets {
            let here: Vec<(u64, usize, u32)> =
                self.points.iter().copied().filter(|p| p.0 == b).collect();
            for (metric, lower) in METRICS {
                let scored: Vec<((u64, usize, u32), Spread)> = here
                    .iter()
                    .map(|&p| (p, self.spread(p, metric)))
                    .filter(|(_, s)| s.mean.is_finite())
                    .collect();
                let best = scored.iter().min_by(|x, y| {
                    let (a, b) = (x.1.mean, y.1.mean);
                    if lower {
                        a.total_cmp(&b)
                    } else {
                        b.total_cmp(&a)
                    }
                });
                if let Some(&((_, items, n), s)) = best {
                    let within_range = scored
                        .iter()
                        .filter(|(p, x)| p.2 != n && (s.lo..=s.hi).contains(&x.mean))
                        .map(|(p, _)| format!("{} × {}", p.1, p.2))
                        .collect();
                    out.push(Best {
                        budget: b,
                        metric: metric.to_string(),
                        items,
                        n,
                        spread: s,
                        within_range,
                    });
                }
            }
        }
        out
    }

    /// Budgets no point fits.
    pub fn skipped(&self) -> Vec<u64> {
        let b = &self.config.budgets;
        b.iter()
            .copied()
            .filter(|x| !self.points.iter().any(|p| p.0 == *x))
            .collect()
    }

    /// One sentence on the target side: how the labels themselves improve with N (per item, more
    /// annotators always help; the trade-off between items and annotators is the model's).
    pub fn target_sentence(&self) -> Option<String> {
        let first = self.target.iter().find(|t| t.kl.is_some())?;
        let last = self.target.iter().rev().find(|t| t.kl.is_some())?;
        // Entropy correlation is undefined at N = 1 (every p_1 has entropy 0).
        let ec = self
            .target
            .iter()
            .find(|t| t.entropy_corr.is_some())
            .map_or(String::new(), |t| {
                format!(
                    ", entropy correlation rises from {:.3} at N = {} to {:.3}",
                    t.entropy_corr.unwrap_or(f64::NAN),
                    t.n,
                    last.entropy_corr.unwrap_or(f64::NAN)
                )
            });
        let against = match first.extrapolated_to {
            Some(m) => format!("p_{m} (extrapolated: what {m} votes per item would give, from a Dirichlet prior fitted to the items — check its fit with `annosat extrapolate`)"),
            None => "all of an item's votes".into(),
        };
        Some(format!(
            "Target side (the labels alone, no model): KL of p_N to {against} falls from {:.4} at N = {} to {:.4} at N = {}{ec}: per item, more annotators always help; the trade-off between items and annotators is the model's.",
            first.kl.unwrap_or(f64::NAN),
            first.n,
            last.kl.unwrap_or(f64::NAN),
            last.n
        ))
    }

    /// `budget,items,n,metric,mean,lo,hi` (lo/hi: lowest and highest over seeds).
    pub fn to_csv(&self) -> String {
        let mut s = String::from("budget,items,n,metric,mean,lo,hi\n");
        for &(b, i, n) in &self.points {
            for (metric, _) in METRICS {
                let x = self.spread((b, i, n), metric);
                s += &format!("{b},{i},{n},{metric},{},{},{}\n", x.mean, x.lo, x.hi);
            }
        }
        s
    }

    /// One sentence per budget: the point that minimises KL and the one that maximises the
    /// entropy correlation, their ranges over seeds, the points the seeds cannot tell apart from
    /// them, and the constant predictor's KL.
    pub fn sentences(&self) -> Vec<String> {
        let plural = |n: u32| if n == 1 { "annotator" } else { "annotators" };
        let ties = |f: &Best| {
            if f.within_range.is_empty() {
                String::new()
            } else {
                format!("; within that range: {}", f.within_range.join(", "))
            }
        };
        let mut out = Vec::new();
        for &b in &self.config.budgets {
            let find = |m: &str| {
                self.frontier
                    .iter()
                    .find(|f| f.budget == b && f.metric == m)
            };
            let (Some(kl), Some(ec)) = (find("kl"), find("entropy_corr")) else {
                continue;
            };
            let (k, e) = (kl.spread, ec.spread);
            out.push(format!(
                "With {b} votes, {} items × {} {} minimises KL ({:.4}; seeds {:.4}–{:.4}{}; constant predictor {:.4}); for ranking items by ambiguity (entropy correlation), {} × {} ({:.3}; seeds {:.3}–{:.3}{}).",
                kl.items, kl.n, plural(kl.n), k.mean, k.lo, k.hi, ties(kl), self.constant.kl,
                ec.items, ec.n, e.mean, e.lo, e.hi, ties(ec)
            ));
        }
        out
    }
}

//! Adaptive allocation (`annosat adaptive`): collect votes in rounds and give each round's votes
//! to the items that need them most, against spreading them evenly at the same total budget.
//!
//! The simulation uses what people actually said: each item's real votes are put in a seeded
//! random order per repeat, and "one more vote for item i" is the next vote in that order (without
//! replacement), so an item never gets more votes than it has. Every item starts with its first
//! `n0` votes; then each round gives one more vote to `batch` items chosen by the policy, until the
//! total reaches each budget (in votes per item on average), where the four target-side metrics
//! compare every item's votes so far with all its votes (as `annosat curves` does at N: KL with
//! add-1/K smoothing, JS distance, majority agreement, entropy correlation over items).
//!
//! Policies ([`Policy`]): uniform (the items with fewest votes so far: at every budget each item has
//! the same count — the ordinary N-vote subsample when every item has at least that many votes;
//! an item that runs out keeps all of its votes and the others share the rest), disagreement (the items whose votes so far
//! have the largest entropy), and entropy variance (the items whose entropy is most uncertain:
//! Var[H(θ)] under the posterior Dirichlet(α + c_i), α fitted to the first `n0` votes by maximum
//! marginal likelihood, [`crate::extrapolate::fit`]). Ties go to fewer votes, then to a seeded
//! order. All policies of a repeat start from the same votes, so their differences are paired.

pub mod entropy_posterior;
mod report;

use crate::curves::{CurvePoint, Metric};
use crate::extrapolate::{fit, Components};
use crate::metrics::{self, calibration, corr};
use crate::sample;
use crate::votes::VoteTable;

const PURPOSE_ORDER: u64 = 0x0AD1;
const PURPOSE_TIES: u64 = 0x0AD2;

/// Who gets the next votes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Policy {
    Uniform,
    Disagreement,
    EntropyVariance,
}

impl Policy {
    pub const ALL: [Policy; 3] = [
        Policy::Uniform,
        Policy::Disagreement,
        Policy::EntropyVariance,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Policy::Uniform => "uniform",
            Policy::Disagreement => "disagreement",
            Policy::EntropyVariance => "entropy_variance",
        }
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AdaptiveConfig {
    /// Votes every item starts with.
    pub n0: u32,
    /// Average votes per item at which the metrics are measured (each > n0).
    pub budgets: Vec<u32>,
    /// Items given one more vote per round.
    pub batch: u32,
    pub policies: Vec<Policy>,
    pub repeats: u32,
    pub seed: u64,
}

impl AdaptiveConfig {
    /// The CLI's and the Plan room's defaults for `table`: budgets n0+1 up to 2·n0+10 votes per
    /// item (or as far as the items' votes go), a tenth of the items per round, every policy,
    /// 20 simulations.
    pub fn defaults(table: &VoteTable, n0: u32, seed: u64) -> AdaptiveConfig {
        let totals: Vec<u64> = (0..table.num_items())
            .map(|i| table.total(i) as u64)
            .filter(|&t| t >= n0 as u64)
            .collect();
        let most = (totals.iter().sum::<u64>() / (totals.len() as u64).max(1)) as u32;
        AdaptiveConfig {
            n0,
            budgets: (n0 + 1..=(2 * n0 + 10).min(most)).collect(),
            batch: (totals.len() as u32 / 10).max(1),
            policies: Policy::ALL.to_vec(),
            repeats: 20,
            seed,
        }
    }
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum AdaptiveError {
    #[error("n0 must be at least 1 (entropy variance needs 2: its prior is fitted to the first n0 votes)")]
    BadStart,
    #[error("no item has {0} votes to start from")]
    NoItems(u32),
    #[error("budget {0} votes per item is not above n0 = {1}")]
    BudgetTooSmall(u32, u32),
    #[error("budget {0} votes per item needs more votes than the {1} items have")]
    BudgetTooLarge(u32, u32),
    #[error("batch and repeats must be at least 1")]
    Zero,
    #[error("uniform must be the first policy: the others are compared with it")]
    UniformFirst,
    #[error("no budget to simulate: the items have no more than n0 = {0} votes on average")]
    NoBudgets(u32),
    #[error("entropy variance's prior: {0}")]
    Prior(String),
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AdaptiveResult {
    pub config: AdaptiveConfig,
    /// Items in the simulation (those with at least n0 votes).
    pub items: u32,
    /// `values[((p * 4 + metric) * budgets + b) * repeats + r]`, NaN where undefined.
    values: Vec<f64>,
}

impl AdaptiveResult {
    fn at(&self, p: usize, m: Metric, b: usize) -> &[f64] {
        let (nb, nr) = (self.config.budgets.len(), self.config.repeats as usize);
        let start = ((p * 4 + m.index()) * nb + b) * nr;
        &self.values[start..start + nr]
    }

    /// Policy `p`'s metric at budget `b` over repeats (its `n` is the budget).
    pub fn point(&self, p: usize, m: Metric, b: usize) -> CurvePoint {
        let v = self.at(p, m, b).iter().copied().filter(|x| !x.is_nan());
        CurvePoint::of_repeats(self.config.budgets[b], v.collect())
    }

    /// Policy `p` minus policy `q`, repeat by repeat (paired: same starting votes and orders).
    pub fn difference(&self, p: usize, q: usize, m: Metric, b: usize) -> CurvePoint {
        let d = self
            .at(p, m, b)
            .iter()
            .zip(self.at(q, m, b))
            .map(|(x, y)| x - y)
            .filter(|x| !x.is_nan());
        CurvePoint::of_repeats(self.config.budgets[b], d.collect())
    }
}

/// Runs the simulation; `progress(done, total)` after each (policy, repeat).
pub fn simulate(
    table: &VoteTable,
    cfg: &AdaptiveConfig,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<AdaptiveResult, AdaptiveError> {
    if cfg.n0 == 0 || (cfg.n0 < 2 && cfg.policies.contains(&Policy::EntropyVariance)) {
        return Err(AdaptiveError::BadStart);
    }
    if cfg.batch == 0 || cfg.repeats == 0 {
        return Err(AdaptiveError::Zero);
    }
    if cfg.policies.first() != Some(&Policy::Uniform) {
        return Err(AdaptiveError::UniformFirst);
    }
    let k = table.num_classes();
    let items: Vec<usize> = (0..table.num_items())
        .filter(|&i| table.total(i) >= cfg.n0)
        .collect();
    if items.is_empty() {
        return Err(AdaptiveError::NoItems(cfg.n0));
    }
    if cfg.budgets.is_empty() {
        return Err(AdaptiveError::NoBudgets(cfg.n0));
    }
    let available: u64 = items.iter().map(|&i| table.total(i) as u64).sum();
    for &b in &cfg.budgets {
        if b <= cfg.n0 {
            return Err(AdaptiveError::BudgetTooSmall(b, cfg.n0));
        }
        if b as u64 * items.len() as u64 > available {
            return Err(AdaptiveError::BudgetTooLarge(b, items.len() as u32));
        }
    }
    let mut budgets = cfg.budgets.clone();
    budgets.sort_unstable();
    budgets.dedup();
    let cfg = AdaptiveConfig {
        budgets,
        ..cfg.clone()
    };
    let full: Vec<Vec<f64>> = items
        .iter()
        .map(|&i| metrics::normalize(table.counts(i)).expect("votes"))
        .collect();
    let h_full: Vec<f64> = full.iter().map(|p| metrics::entropy(p)).collect();
    let (np, nb, nr) = (cfg.policies.len(), cfg.budgets.len(), cfg.repeats as usize);
    let mut values = vec![f64::NAN; np * 4 * nb * nr];
    let total = (np * nr) as u64;
    for r in 0..nr {
        let orders: Vec<Vec<u16>> = items
            .iter()
            .map(|&i| {
                let mut v = Vec::new();
                sample::expand(table.counts(i), &mut v);
                let mut rng = sample::stream(cfg.seed, PURPOSE_ORDER, i as u64, r as u64);
                let n = v.len();
                sample::partial_shuffle(&mut v, n, &mut rng);
                v
            })
            .collect();
        let start = counts_after(&orders, cfg.n0, k);
        let prior = if cfg.policies.contains(&Policy::EntropyVariance) {
            let t = VoteTable::new(
                table.classes().to_vec(),
                (0..items.len()).map(|j| j.to_string()).collect(),
                start.concat(),
            );
            let p = fit(&t, Components::Fixed(1), cfg.seed)
                .map_err(|e| AdaptiveError::Prior(e.to_string()))?;
            Some(p.components[0].alpha.clone())
        } else {
            None
        };
        let ties: Vec<u64> = (0..items.len())
            .map(|j| {
                let mut rng = sample::stream(cfg.seed, PURPOSE_TIES, j as u64, r as u64);
                rand_chacha::rand_core::RngCore::next_u64(&mut rng)
            })
            .collect();
        for (pi, &policy) in cfg.policies.iter().enumerate() {
            let mut sim = Sim {
                orders: &orders,
                counts: start.clone(),
                needs: Vec::new(),
                policy,
                alpha: prior.as_deref(),
                ties: &ties,
            };
            sim.needs = (0..items.len()).map(|j| sim.need(j)).collect();
            let mut spent = cfg.n0 as u64 * items.len() as u64;
            for (b, &budget) in cfg.budgets.iter().enumerate() {
                let target = budget as u64 * items.len() as u64;
                while spent < target {
                    let n = (cfg.batch as u64).min(target - spent) as usize;
                    spent += sim.round(n) as u64;
                }
                let m = measure(&sim.counts, &full, &h_full);
                for (mi, v) in m.iter().enumerate() {
                    values[((pi * 4 + mi) * nb + b) * nr + r] = *v;
                }
            }
            progress((r * np + pi + 1) as u64, total);
        }
    }
    Ok(AdaptiveResult {
        config: cfg,
        items: items.len() as u32,
        values,
    })
}

/// Each item's class counts of its first `n` votes in `orders`.
fn counts_after(orders: &[Vec<u16>], n: u32, k: usize) -> Vec<Vec<u32>> {
    orders
        .iter()
        .map(|o| {
            let mut c = vec![0u32; k];
            for &v in &o[..n as usize] {
                c[v as usize] += 1;
            }
            c
        })
        .collect()
}

/// One policy's run: the items' counts so far and their needs (recomputed only for the items a
/// round gives a vote: a need depends on the item's own votes alone).
struct Sim<'a> {
    orders: &'a [Vec<u16>],
    counts: Vec<Vec<u32>>,
    needs: Vec<f64>,
    policy: Policy,
    alpha: Option<&'a [f64]>,
    ties: &'a [u64],
}

impl Sim<'_> {
    /// Gives one more vote to each of the `n` neediest items that have votes left; returns the
    /// votes given (fewer when fewer items have votes left).
    fn round(&mut self, n: usize) -> usize {
        let mut ranked: Vec<(f64, u32, u64, usize)> = (0..self.counts.len())
            .filter_map(|j| {
                let used: u32 = self.counts[j].iter().sum();
                (used < self.orders[j].len() as u32).then(|| (self.needs[j], used, self.ties[j], j))
            })
            .collect();
        let n = n.min(ranked.len());
        if n == 0 {
            return 0;
        }
        // Most need first; then fewer votes; then the seeded order.
        let order = |a: &(f64, u32, u64, usize), b: &(f64, u32, u64, usize)| {
            b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
        };
        if n < ranked.len() {
            ranked.select_nth_unstable_by(n - 1, order);
        }
        for &(_, used, _, j) in &ranked[..n] {
            let v = self.orders[j][used as usize];
            self.counts[j][v as usize] += 1;
            self.needs[j] = self.need(j);
        }
        n
    }

    /// How much item j needs a vote under the policy (larger: sooner).
    fn need(&self, j: usize) -> f64 {
        let c = &self.counts[j];
        match self.policy {
            // Fewest votes first: the tie rule does it.
            Policy::Uniform => 0.0,
            Policy::Disagreement => metrics::entropy(&metrics::normalize(c).expect("n0 ≥ 1")),
            Policy::EntropyVariance => {
                let alpha = self.alpha.expect("a prior");
                let a: Vec<f64> = alpha.iter().zip(c).map(|(a, &x)| a + x as f64).collect();
                entropy_posterior::dirichlet_entropy_moments(&a).1
            }
        }
    }
}

/// The four metrics of the counts so far against all votes, in [`Metric::ALL`]'s order.
fn measure(counts: &[Vec<u32>], full: &[Vec<f64>], h_full: &[f64]) -> [f64; 4] {
    let k = full[0].len();
    let alpha = 1.0 / k as f64;
    let n = counts.len() as f64;
    let (mut jsd, mut kl, mut maj) = (0.0, 0.0, 0.0);
    let mut h = Vec::with_capacity(counts.len());
    for (c, f) in counts.iter().zip(full) {
        let p = metrics::normalize(c).expect("votes");
        jsd += metrics::js_distance(&p, f) / n;
        kl += metrics::kl(f, &metrics::smoothed(c, alpha)) / n;
        maj += calibration::majority_agreement(&p, f) / n;
        h.push(metrics::entropy(&p));
    }
    let ec = corr::pearson(&h, h_full).unwrap_or(f64::NAN);
    let mut out = [0.0; 4];
    for m in Metric::ALL {
        out[m.index()] = match m {
            Metric::Jsd => jsd,
            Metric::EntropyCorr => ec,
            Metric::Kl => kl,
            Metric::MajorityAgreement => maj,
        };
    }
    out
}

#[cfg(test)]
mod tests;

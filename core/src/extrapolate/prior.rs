//! The prior over the items' true label distributions — one Dirichlet, or a mixture of a few —
//! fitted by empirical Bayes.
//!
//! Model: item i's true distribution θ_i ~ Dirichlet(α), and its n_i votes are a multinomial draw
//! from θ_i, so its counts follow the Dirichlet-multinomial (Pólya) distribution with parameter α.
//! α is the maximum of the marginal likelihood over all items,
//!
//!   ℓ(α) = Σ_i [ ln Γ(α₀) − ln Γ(n_i + α₀) + Σ_k ( ln Γ(c_ik + α_k) − ln Γ(α_k) ) ],  α₀ = Σ_k α_k
//!
//! (without the multinomial coefficients, which do not depend on α), found with Minka's fixed-point
//! iteration for the Pólya distribution ("Estimating a Dirichlet distribution", 2000, eq. 55):
//!
//!   α_k ← α_k · Σ_i [ψ(c_ik + α_k) − ψ(α_k)] / Σ_i [ψ(n_i + α₀) − ψ(α₀)],
//!
//! which increases ℓ at every step. Items with the same counts are one term with a weight, so an
//! upload of a million items with five votes each costs a few hundred terms per iteration, and
//! ψ(c + α) − ψ(α) and ln Γ(c + α) − ln Γ(α) for integer counts c are running sums of 1/(α + j)
//! and ln(α + j) (`rising`), no special function per item. All of its math is `libm`'s, so the
//! CLI and the app fit the same prior bit for bit (statrs' special functions call the platform's
//! `ln`/`exp`; with them a mixture's EM drifted apart between native and wasm). At most
//! [`MAX_FIT_ITEMS`] items, a seeded sample, are fitted on.
//!
//! One Dirichlet cannot describe every set: where items are either clear or split (a bimodal
//! spread of agreement) it smooths the two into one hump. A mixture of C Dirichlets, π_c and α_c,
//! is fitted by EM over the same count patterns (E: each pattern's responsibilities from its
//! Dirichlet-multinomial likelihood under each component; M: the weights, and a few weighted Minka
//! steps per component), from several seeded k-means++ starts, keeping the best likelihood; C is
//! chosen by BIC, −2ℓ + (C·K + C − 1)·ln(items), over 1…4 unless the user fixes it.

use crate::sample;
use crate::votes::VoteTable;
use libm::{exp, lgamma as ln_gamma, log};
use std::collections::HashMap;

/// One Dirichlet of the prior and its share of the items.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Component {
    pub weight: f64,
    /// The concentration of each class (same order as the table's classes).
    pub alpha: Vec<f64>,
}

impl Component {
    /// α₀ = Σ α_k: how alike this component's items are (large: all near its mean).
    pub fn precision(&self) -> f64 {
        self.alpha.iter().sum()
    }

    /// The component's mean distribution, α / α₀.
    pub fn mean(&self) -> Vec<f64> {
        let s = self.precision();
        self.alpha.iter().map(|a| a / s).collect()
    }
}

/// A fitted prior and how the fit went.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Prior {
    pub components: Vec<Component>,
    /// ℓ at the fit (without the multinomial coefficients).
    pub log_likelihood: f64,
    /// −2ℓ + (parameters)·ln(items).
    pub bic: f64,
    pub iterations: u32,
    /// False when the iteration limit was reached first (e.g. the data say almost nothing about
    /// how dispersed the items are, or voters always agree and α keeps shrinking toward 0).
    pub converged: bool,
    /// Items the prior was fitted on (those with at least one vote; a seeded sample of
    /// [`MAX_FIT_ITEMS`] when there are more).
    pub items: u32,
    /// BIC of every number of components tried, when it was chosen by BIC.
    pub tried: Vec<(usize, f64)>,
}

/// How many Dirichlets the prior has.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Components {
    Fixed(usize),
    /// The BIC's choice among 1..=max.
    Auto {
        max: usize,
    },
}

/// Why no prior could be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FitError {
    #[error("no item has two or more votes, so the data say nothing about how items differ; extrapolation needs items with at least 2 votes")]
    TooFewVotes,
    #[error("class {0:?} has no vote in any item; drop it from the file first")]
    EmptyClass(String),
    #[error("a prior needs 1 to 8 components (got {0})")]
    BadComponents(usize),
}

const MAX_ITERATIONS: u32 = 100_000;
const TOLERANCE: f64 = 1e-10;
const EM_ITERATIONS: u32 = 5_000;
/// Minka steps per M-step: the α of a component moves slowly with one (measured: EM stopped 10.8
/// log-likelihood units short of the maximum on ChaosNLI-αNLI after 2,000 iterations).
const MINKA_STEPS_PER_EM: u32 = 10;
const EM_TOLERANCE: f64 = 1e-8;
/// A refit's stop: the item bootstrap's refits (one per resample) start at the full data's fit
/// and need to move as far as a resample moves it, which is O(√items) log-likelihood units; a
/// relative 1e-6 (0.05 units on 50,000) stops well inside that, in a fraction of the steps.
const REFIT_TOLERANCE: f64 = 1e-6;
const EM_STARTS: u64 = 4;
const PURPOSE_EM: u64 = 0xE_3;

/// Distinct count vectors and how many items have each, in a fixed order.
struct Patterns {
    counts: Vec<Vec<u32>>,
    totals: Vec<u32>,
    weights: Vec<f64>,
    /// The largest count of one class, and the most votes of one item.
    max_count: u32,
    max_total: u32,
}

/// `out[c] = Σ_{j<c} f(a + j)` for c = 0..=upto: with f = 1/x, ψ(a + c) − ψ(a); with f = ln,
/// ln Γ(a + c) − ln Γ(a) — exactly what integer counts need, from one pass of cheap terms
/// instead of a special function per item (Minka's trick for count data; the EM over thousands
/// of distinct count vectors was dominated by digamma and ln Γ).
fn rising(a: f64, upto: u32, f: impl Fn(f64) -> f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(upto as usize + 1);
    let mut acc = 0.0;
    out.push(acc);
    for j in 0..upto {
        acc += f(a + j as f64);
        out.push(acc);
    }
    out
}

/// ln of the Dirichlet-multinomial probability of count vectors under one α, by table.
struct DmTable {
    per_class: Vec<Vec<f64>>,
    total: Vec<f64>,
}

impl DmTable {
    fn new(alpha: &[f64], p: &Patterns) -> Self {
        let a0: f64 = alpha.iter().sum();
        DmTable {
            per_class: alpha.iter().map(|&a| rising(a, p.max_count, log)).collect(),
            total: rising(a0, p.max_total, log),
        }
    }

    fn log_prob(&self, c: &[u32], n: u32) -> f64 {
        let per: f64 = c
            .iter()
            .zip(&self.per_class)
            .map(|(&ck, t)| t[ck as usize])
            .sum();
        per - self.total[n as usize]
    }
}

/// Items the prior is fitted on at most: a seeded sample of them when there are more. The prior has
/// at most 4·(K + 1) parameters, which a few thousand items pin down; a mixture's EM over every
/// distinct count vector of 100,000 ragged items took minutes (3.6 min for one CLI run here).
pub const MAX_FIT_ITEMS: usize = 5_000;
const PURPOSE_FIT_SAMPLE: u64 = 0xE_5;

/// The items the prior is fitted on (and the fit check looks at): those with votes, or a seeded
/// sample of [`MAX_FIT_ITEMS`] of them.
pub fn fit_rows(table: &VoteTable, seed: u64) -> Vec<u32> {
    let mut rows: Vec<u32> = (0..table.num_items() as u32)
        .filter(|&i| table.total(i as usize) > 0)
        .collect();
    if rows.len() > MAX_FIT_ITEMS {
        let mut rng = sample::stream(seed, PURPOSE_FIT_SAMPLE, 0, 0);
        sample::partial_shuffle(&mut rows, MAX_FIT_ITEMS, &mut rng);
        rows.truncate(MAX_FIT_ITEMS);
    }
    rows
}

fn patterns(table: &VoteTable, seed: u64) -> Patterns {
    let rows = fit_rows(table, seed);
    let mut seen: HashMap<&[u32], f64> = HashMap::new();
    for &i in &rows {
        *seen.entry(table.counts(i as usize)).or_default() += 1.0;
    }
    let mut v: Vec<(Vec<u32>, f64)> = seen.into_iter().map(|(c, w)| (c.to_vec(), w)).collect();
    // A fixed order: the sums below must not depend on the hash map's.
    v.sort_by(|a, b| a.0.cmp(&b.0));
    Patterns {
        totals: v.iter().map(|(c, _)| c.iter().sum()).collect(),
        weights: v.iter().map(|(_, w)| *w).collect(),
        max_count: v
            .iter()
            .flat_map(|(c, _)| c.iter().copied())
            .max()
            .unwrap_or(0),
        max_total: v
            .iter()
            .map(|(c, _)| c.iter().sum::<u32>())
            .max()
            .unwrap_or(0),
        counts: v.into_iter().map(|(c, _)| c).collect(),
    }
}

/// ln of the Dirichlet-multinomial probability of `c` (without the multinomial coefficient).
pub(crate) fn dm_log(c: &[u32], alpha: &[f64]) -> f64 {
    let a0: f64 = alpha.iter().sum();
    let n: u32 = c.iter().sum();
    let per_class: f64 = c
        .iter()
        .zip(alpha)
        .map(|(&ck, &ak)| ln_gamma(ck as f64 + ak) - ln_gamma(ak))
        .sum();
    ln_gamma(a0) - ln_gamma(n as f64 + a0) + per_class
}

/// One weighted Minka fixed-point step for `alpha`; returns the largest relative change.
fn minka_step(p: &Patterns, w: &[f64], alpha: &mut [f64]) -> f64 {
    let k = alpha.len();
    let a0: f64 = alpha.iter().sum();
    // ψ(c + α) − ψ(α) for every count c, per class, and ψ(n + α₀) − ψ(α₀).
    let dpsi: Vec<Vec<f64>> = alpha
        .iter()
        .map(|&a| rising(a, p.max_count, |x| 1.0 / x))
        .collect();
    let dpsi0 = rising(a0, p.max_total, |x| 1.0 / x);
    let (mut num, mut den) = (vec![0.0f64; k], 0.0);
    for ((c, &n), &w) in p.counts.iter().zip(&p.totals).zip(w) {
        if w == 0.0 {
            continue;
        }
        den += w * dpsi0[n as usize];
        for kk in 0..k {
            num[kk] += w * dpsi[kk][c[kk] as usize];
        }
    }
    let mut change = 0.0f64;
    if den > 0.0 {
        for kk in 0..k {
            let next = alpha[kk] * num[kk] / den;
            // A class a component never sees would go to 0, where digamma is undefined.
            let next = next.max(1e-12);
            change = change.max(((next - alpha[kk]) / alpha[kk]).abs());
            alpha[kk] = next;
        }
    }
    change
}

fn bic(ll: f64, c: usize, k: usize, items: f64) -> f64 {
    -2.0 * ll + (c * k + c - 1) as f64 * log(items)
}

/// What the whole table (not only the fitted sample) must have: an item with two votes, and a
/// vote for every class. A class the sample happens to miss is harmless (its α stays tiny).
fn check(table: &VoteTable) -> Result<(), FitError> {
    if !(0..table.num_items()).any(|i| table.total(i) >= 2) {
        return Err(FitError::TooFewVotes);
    }
    for kk in 0..table.num_classes() {
        if (0..table.num_items()).all(|i| table.counts(i)[kk] == 0) {
            return Err(FitError::EmptyClass(table.classes()[kk].clone()));
        }
    }
    Ok(())
}

/// The pooled class shares with precision 1: the start of every fit (any positive start converges).
fn pooled_start(p: &Patterns, w: &[f64], k: usize) -> Vec<f64> {
    let mut totals = vec![1e-9f64; k];
    for (c, &w) in p.counts.iter().zip(w) {
        for (t, &ck) in totals.iter_mut().zip(c) {
            *t += w * ck as f64;
        }
    }
    let all: f64 = totals.iter().sum();
    totals.iter().map(|t| t / all).collect()
}

fn fit_one(p: &Patterns, k: usize) -> Prior {
    let mut alpha = pooled_start(p, &p.weights, k);
    let (mut iterations, mut converged) = (0, false);
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        if minka_step(p, &p.weights, &mut alpha) < TOLERANCE {
            converged = true;
            break;
        }
    }
    let table = DmTable::new(&alpha, p);
    let ll: f64 = p
        .counts
        .iter()
        .zip(&p.totals)
        .zip(&p.weights)
        .map(|((c, &n), w)| w * table.log_prob(c, n))
        .sum();
    let items: f64 = p.weights.iter().sum();
    Prior {
        components: vec![Component { weight: 1.0, alpha }],
        log_likelihood: ll,
        bic: bic(ll, 1, k, items),
        iterations,
        converged,
        items: items as u32,
        tried: Vec::new(),
    }
}

/// Starting responsibilities for EM: a weighted k-means++ clustering of the items' vote shares
/// (seeded), 0.9 to each pattern's cluster. Random soft starts left every component alike, and EM
/// never separates identical components.
fn kmeans_start(p: &Patterns, c: usize, seed: u64, start: u64) -> Vec<f64> {
    let np = p.counts.len();
    let x: Vec<Vec<f64>> = p
        .counts
        .iter()
        .zip(&p.totals)
        .map(|(cnt, &n)| cnt.iter().map(|&v| v as f64 / n as f64).collect())
        .collect();
    let d2 = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(u, v)| (u - v) * (u - v)).sum::<f64>();
    let mut rng = sample::stream(seed, PURPOSE_EM, start, 0);
    let mut draw = |w: &[f64]| -> usize {
        let total: f64 = w.iter().sum();
        let u = rand::Rng::random::<f64>(&mut rng) * total;
        let mut acc = 0.0;
        for (i, &wi) in w.iter().enumerate() {
            acc += wi;
            if u < acc {
                return i;
            }
        }
        w.len() - 1
    };
    let mut centers: Vec<Vec<f64>> = vec![x[draw(&p.weights)].clone()];
    while centers.len() < c {
        let w: Vec<f64> = (0..np)
            .map(|i| {
                let near = centers
                    .iter()
                    .map(|m| d2(&x[i], m))
                    .fold(f64::INFINITY, f64::min);
                p.weights[i] * near
            })
            .collect();
        let i = if w.iter().sum::<f64>() > 0.0 {
            draw(&w)
        } else {
            draw(&p.weights)
        };
        centers.push(x[i].clone());
    }
    let nearest = |xi: &[f64], centers: &[Vec<f64>]| -> usize {
        (0..centers.len())
            .min_by(|&a, &b| d2(xi, &centers[a]).total_cmp(&d2(xi, &centers[b])))
            .expect("c ≥ 1")
    };
    for _ in 0..20 {
        let k = x[0].len();
        let (mut sum, mut wsum) = (vec![vec![0.0; k]; c], vec![0.0; c]);
        for (xi, &w) in x.iter().zip(&p.weights) {
            let j = nearest(xi, &centers);
            wsum[j] += w;
            for (s, v) in sum[j].iter_mut().zip(xi) {
                *s += w * v;
            }
        }
        for j in 0..c {
            if wsum[j] > 0.0 {
                centers[j] = sum[j].iter().map(|s| s / wsum[j]).collect();
            }
        }
    }
    let mut resp = vec![0.1 / (c - 1) as f64; np * c];
    for i in 0..np {
        resp[i * c + nearest(&x[i], &centers)] = 0.9;
    }
    resp
}

/// EM for a mixture of `c` Dirichlets from one seeded start.
fn fit_mixture_from(p: &Patterns, k: usize, c: usize, seed: u64, start: u64) -> Prior {
    let np = p.counts.len();
    let resp = kmeans_start(p, c, seed, start);
    let comps: Vec<Component> = (0..c)
        .map(|j| {
            let w: Vec<f64> = (0..np).map(|i| p.weights[i] * resp[i * c + j]).collect();
            Component {
                weight: 1.0 / c as f64,
                alpha: pooled_start(p, &w, k),
            }
        })
        .collect();
    em(p, k, comps, resp, EM_TOLERANCE)
}

/// EM from components `comps` and responsibilities `resp` (patterns × components) until the
/// likelihood settles.
fn em(
    p: &Patterns,
    k: usize,
    mut comps: Vec<Component>,
    mut resp: Vec<f64>,
    tolerance: f64,
) -> Prior {
    let (np, c) = (p.counts.len(), comps.len());
    let items: f64 = p.weights.iter().sum();
    let (mut ll, mut iterations, mut converged) = (f64::NEG_INFINITY, 0, false);
    let mut wj = vec![0.0f64; np];
    let mut logs = vec![0.0f64; c];
    while iterations < EM_ITERATIONS {
        iterations += 1;
        // M: weights, then one Minka step per component with its responsibilities.
        for (j, comp) in comps.iter_mut().enumerate() {
            for i in 0..np {
                wj[i] = p.weights[i] * resp[i * c + j];
            }
            comp.weight = wj.iter().sum::<f64>() / items;
            for _ in 0..MINKA_STEPS_PER_EM {
                minka_step(p, &wj, &mut comp.alpha);
            }
        }
        // E: responsibilities and the likelihood.
        let tables: Vec<DmTable> = comps.iter().map(|c| DmTable::new(&c.alpha, p)).collect();
        let mut next = 0.0;
        for i in 0..np {
            for (j, comp) in comps.iter().enumerate() {
                logs[j] = log(comp.weight) + tables[j].log_prob(&p.counts[i], p.totals[i]);
            }
            let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let s: f64 = logs.iter().map(|l| exp(l - top)).sum();
            for j in 0..c {
                resp[i * c + j] = exp(logs[j] - top) / s;
            }
            next += p.weights[i] * (top + log(s));
        }
        let done = (next - ll).abs() <= tolerance * next.abs();
        ll = next;
        if done {
            converged = true;
            break;
        }
    }
    // Components in a fixed order (by their mean's first class, then precision) so equal fits
    // from different starts read the same.
    comps.sort_by(|a, b| {
        b.mean()[0]
            .total_cmp(&a.mean()[0])
            .then(a.precision().total_cmp(&b.precision()))
    });
    Prior {
        components: comps,
        log_likelihood: ll,
        bic: bic(ll, c, k, items),
        iterations,
        converged,
        items: items as u32,
        tried: Vec::new(),
    }
}

fn fit_mixture(p: &Patterns, k: usize, c: usize, seed: u64) -> Prior {
    if c == 1 {
        return fit_one(p, k);
    }
    (0..EM_STARTS)
        .map(|s| fit_mixture_from(p, k, c, seed, s))
        .max_by(|a, b| a.log_likelihood.total_cmp(&b.log_likelihood))
        .expect("at least one start")
}

/// The maximum-marginal-likelihood prior of the table's items: `components` Dirichlets, or the
/// BIC's choice. `seed` keys the EM's random starts.
pub fn fit(table: &VoteTable, components: Components, seed: u64) -> Result<Prior, FitError> {
    let k = table.num_classes();
    check(table)?;
    let p = patterns(table, seed);
    match components {
        Components::Fixed(c) if (1..=8).contains(&c) => Ok(fit_mixture(&p, k, c, seed)),
        Components::Fixed(c) => Err(FitError::BadComponents(c)),
        Components::Auto { max } if (1..=8).contains(&max) => {
            let fits: Vec<Prior> = (1..=max).map(|c| fit_mixture(&p, k, c, seed)).collect();
            let tried: Vec<(usize, f64)> =
                fits.iter().map(|f| (f.components.len(), f.bic)).collect();
            let mut best = fits
                .into_iter()
                .min_by(|a, b| a.bic.total_cmp(&b.bic))
                .expect("at least one fit");
            best.tried = tried;
            Ok(best)
        }
        Components::Auto { max } => Err(FitError::BadComponents(max)),
    }
}

/// The same model refitted to another table (an item resample), started from `start`: one EM
/// run from `start`'s components (one Dirichlet: its fixed point, as [`fit`]), which converges in
/// a few steps when the tables are alike — the extrapolation's item bootstrap refits the prior on
/// every resample this way.
pub fn refit(table: &VoteTable, start: &Prior, seed: u64) -> Result<Prior, FitError> {
    let k = table.num_classes();
    check(table)?;
    let p = patterns(table, seed);
    if start.components.len() == 1 {
        return Ok(fit_one(&p, k));
    }
    let c = start.components.len();
    let mut resp = vec![0.0f64; p.counts.len() * c];
    for (i, r) in resp.chunks_mut(c).enumerate() {
        r.copy_from_slice(&start.responsibilities(&p.counts[i]));
    }
    Ok(em(&p, k, start.components.clone(), resp, REFIT_TOLERANCE))
}

impl Prior {
    /// The classes it is a prior over.
    pub fn classes(&self) -> usize {
        self.components.first().map_or(0, |c| c.alpha.len())
    }

    /// The posterior probability of each component for an item with counts `c`.
    pub fn responsibilities(&self, c: &[u32]) -> Vec<f64> {
        let logs: Vec<f64> = self
            .components
            .iter()
            .map(|comp| log(comp.weight) + dm_log(c, &comp.alpha))
            .collect();
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = logs.iter().map(|l| exp(l - top)).collect();
        let s: f64 = e.iter().sum();
        e.iter().map(|x| x / s).collect()
    }

    /// A readable line: "Dirichlet α = (…)" or "mixture of C Dirichlets: w × α = (…); …".
    pub fn describe(&self, classes: &[String]) -> String {
        let show = |v: &[f64]| {
            v.iter()
                .map(|x| format!("{x:.3}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let what = if self.components.len() == 1 {
            format!("one Dirichlet, α = ({})", show(&self.components[0].alpha))
        } else {
            let parts: Vec<String> = self
                .components
                .iter()
                .map(|c| format!("{:.0}% with α = ({})", 100.0 * c.weight, show(&c.alpha)))
                .collect();
            format!(
                "a mixture of {} Dirichlets: {}",
                self.components.len(),
                parts.join("; ")
            )
        };
        let chosen = if self.tried.is_empty() {
            String::new()
        } else {
            let t: Vec<String> = self
                .tried
                .iter()
                .map(|(c, b)| format!("{c}: {b:.1}"))
                .collect();
            format!("; chosen by BIC among {}", t.join(", "))
        };
        format!(
            "{what} over ({}), fitted to {} items by maximum marginal likelihood ({} iterations{}){chosen}",
            classes.join(", "),
            self.items,
            self.iterations,
            if self.converged { "" } else { ", NOT converged" },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample;
    use rand_distr::{Distribution, Gamma};

    use crate::extrapolate::test_table as table;

    /// Data drawn from a known prior give it back (2,000 items × 10 votes, α = (0.6, 1.2, 2.4)).
    #[test]
    fn recovers_the_prior_that_generated_the_data() {
        let truth = [0.6, 1.2, 2.4];
        let gammas: Vec<Gamma<f64>> = truth.iter().map(|&a| Gamma::new(a, 1.0).unwrap()).collect();
        let mut counts = Vec::new();
        for i in 0..2000u64 {
            let mut rng = sample::stream(7, 1, i, 0);
            let g: Vec<f64> = gammas.iter().map(|d| d.sample(&mut rng)).collect();
            let s: f64 = g.iter().sum();
            let mut c = [0u32; 3];
            for _ in 0..10 {
                let u: f64 = rand::Rng::random(&mut rng);
                let (mut acc, mut v) = (0.0, 2);
                for (j, x) in g.iter().enumerate() {
                    acc += x / s;
                    if u < acc {
                        v = j;
                        break;
                    }
                }
                c[v] += 1;
            }
            counts.extend(c);
        }
        let f = fit(&table(counts, 3), Components::Fixed(1), 1).unwrap();
        assert!(f.converged);
        for (a, t) in f.components[0].alpha.iter().zip(truth) {
            assert!(
                (a / t - 1.0).abs() < 0.12,
                "{:?} vs {truth:?}",
                f.components
            );
        }
    }

    /// At the fit, ℓ is higher than at nearby points, and the fixed point holds.
    #[test]
    fn the_fit_is_a_maximum() {
        let counts = vec![
            5, 0, 0, 3, 2, 0, 1, 1, 3, 0, 4, 1, 2, 2, 1, 0, 0, 5, 4, 1, 0, 1, 0, 0,
        ];
        let t = table(counts, 3);
        let f = fit(&t, Components::Fixed(1), 1).unwrap();
        let p = patterns(&t, 1);
        let ll = |a: &[f64]| -> f64 {
            p.counts
                .iter()
                .zip(&p.weights)
                .map(|(c, w)| w * dm_log(c, a))
                .sum()
        };
        for kk in 0..3 {
            for step in [1.01, 0.99] {
                let mut a = f.components[0].alpha.clone();
                a[kk] *= step;
                assert!(ll(&a) < f.log_likelihood);
            }
        }
        assert_eq!(f.items, 8);
    }

    #[test]
    fn says_why_it_cannot_fit() {
        assert_eq!(
            fit(&table(vec![1, 0, 0, 1, 1, 0], 2), Components::Fixed(1), 1).unwrap_err(),
            FitError::TooFewVotes
        );
        assert_eq!(
            fit(&table(vec![2, 0, 3, 0], 2), Components::Fixed(1), 1).unwrap_err(),
            FitError::EmptyClass("c1".into())
        );
    }

    /// Half the items clear (10:0 or 0:10 in equal shares) and half split about evenly: BIC
    /// prefers a mixture to one Dirichlet, and the mixture's likelihood is higher.
    #[test]
    fn a_bimodal_set_gets_a_mixture() {
        let mut counts = Vec::new();
        for i in 0..600u32 {
            counts.extend(match i % 4 {
                0 => [10, 0],
                1 => [0, 10],
                2 => [5 + i % 2, 5 - i % 2],
                _ => [4 + i % 3, 6 - i % 3],
            });
        }
        let t = table(counts, 2);
        let one = fit(&t, Components::Fixed(1), 1).unwrap();
        let auto = fit(&t, Components::Auto { max: 4 }, 1).unwrap();
        assert!(auto.components.len() >= 2, "{auto:?}");
        assert!(auto.log_likelihood > one.log_likelihood + 100.0);
        assert_eq!(auto.tried.len(), 4);
        let w: f64 = auto.components.iter().map(|c| c.weight).sum();
        assert!((w - 1.0).abs() < 1e-9);
        // A split item belongs to the contested component, a clear one elsewhere.
        let split = auto.responsibilities(&[5, 5]);
        let clear = auto.responsibilities(&[10, 0]);
        let j = split
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .unwrap()
            .0;
        assert!(split[j] > 0.9 && clear[j] < 0.1, "{split:?} {clear:?}");
    }

    /// The rising sums against statrs' special functions (an independent implementation):
    /// ψ(a + c) − ψ(a) and ln Γ(a + c) − ln Γ(a), from tiny shapes to large counts; and ln Γ on
    /// libm (what `dm_log` uses) against statrs'.
    #[test]
    fn rising_sums_agree_with_statrs() {
        use statrs::function::gamma::{digamma, ln_gamma as lg};
        for &a in &[1e-6, 1e-3, 0.1, 0.5, 1.0, 2.5, 10.0, 101.3, 5841.2] {
            let (psi, lng) = (rising(a, 300, |x| 1.0 / x), rising(a, 300, log));
            for c in [0usize, 1, 2, 7, 50, 300] {
                let want = digamma(a + c as f64) - digamma(a);
                assert!(
                    (psi[c] - want).abs() <= 1e-10 * want.abs().max(1.0),
                    "ψ a={a} c={c}"
                );
                let want = lg(a + c as f64) - lg(a);
                assert!(
                    (lng[c] - want).abs() <= 1e-10 * want.abs().max(1.0),
                    "ln Γ a={a} c={c}"
                );
            }
            assert!((ln_gamma(a) - lg(a)).abs() <= 1e-12 * lg(a).abs().max(1.0));
        }
    }
}

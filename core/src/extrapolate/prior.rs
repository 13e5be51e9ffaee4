//! One Dirichlet prior over the items' true label distributions, fitted by empirical Bayes.
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
//! upload of a million items with five votes each costs a few hundred terms per iteration.
//! tests/reference/numpy_reference.py fits the same likelihood with scipy's L-BFGS-B, independently.

use crate::votes::VoteTable;
use statrs::function::gamma::{digamma, ln_gamma};
use std::collections::HashMap;

/// A fitted prior and how the fit went.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DirichletFit {
    /// The concentration of each class (same order as the table's classes).
    pub alpha: Vec<f64>,
    /// ℓ(α) at the fit (without the multinomial coefficients).
    pub log_likelihood: f64,
    pub iterations: u32,
    /// False when the iteration limit was reached first (the data say almost nothing about how
    /// dispersed the items are, e.g. nearly every item has one vote; α₀ then keeps growing).
    pub converged: bool,
    /// Items that took part (those with at least one vote).
    pub items: u32,
}

impl DirichletFit {
    /// α₀ = Σ α_k: how alike the items are (large: every item near the mean distribution).
    pub fn precision(&self) -> f64 {
        self.alpha.iter().sum()
    }

    /// The prior's mean distribution, α / α₀.
    pub fn mean(&self) -> Vec<f64> {
        let s = self.precision();
        self.alpha.iter().map(|a| a / s).collect()
    }
}

/// Why no prior could be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FitError {
    #[error("no item has two or more votes, so the data say nothing about how items differ; extrapolation needs items with at least 2 votes")]
    TooFewVotes,
    #[error("class {0:?} has no vote in any item; drop it from the file first")]
    EmptyClass(String),
}

const MAX_ITERATIONS: u32 = 100_000;
const TOLERANCE: f64 = 1e-10;

/// Distinct count vectors and how many items have each.
fn patterns(table: &VoteTable) -> Vec<(Vec<u32>, f64)> {
    let mut seen: HashMap<&[u32], f64> = HashMap::new();
    for i in 0..table.num_items() {
        if table.total(i) > 0 {
            *seen.entry(table.counts(i)).or_default() += 1.0;
        }
    }
    let mut out: Vec<(Vec<u32>, f64)> = seen.into_iter().map(|(c, w)| (c.to_vec(), w)).collect();
    // A fixed order: the sums below must not depend on the hash map's.
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// ℓ(α) of weighted count patterns.
fn log_likelihood(pats: &[(Vec<u32>, f64)], alpha: &[f64]) -> f64 {
    let a0: f64 = alpha.iter().sum();
    let lg_a: Vec<f64> = alpha.iter().map(|&a| ln_gamma(a)).collect();
    let lg_a0 = ln_gamma(a0);
    pats.iter()
        .map(|(c, w)| {
            let n: u32 = c.iter().sum();
            let per_class: f64 = c
                .iter()
                .zip(alpha)
                .zip(&lg_a)
                .map(|((&ck, &ak), &lg)| ln_gamma(ck as f64 + ak) - lg)
                .sum();
            w * (lg_a0 - ln_gamma(n as f64 + a0) + per_class)
        })
        .sum()
}

/// The maximum-marginal-likelihood Dirichlet prior of the table's items.
pub fn fit(table: &VoteTable) -> Result<DirichletFit, FitError> {
    let k = table.num_classes();
    let pats = patterns(table);
    if !pats.iter().any(|(c, _)| c.iter().sum::<u32>() >= 2) {
        return Err(FitError::TooFewVotes);
    }
    let mut totals = vec![0.0f64; k];
    for (c, w) in &pats {
        for (t, &ck) in totals.iter_mut().zip(c) {
            *t += w * ck as f64;
        }
    }
    if let Some(j) = totals.iter().position(|&t| t == 0.0) {
        return Err(FitError::EmptyClass(table.classes()[j].clone()));
    }
    // Start at the pooled class shares with precision 1 (any positive start converges).
    let all: f64 = totals.iter().sum();
    let mut alpha: Vec<f64> = totals.iter().map(|t| t / all).collect();
    let (mut iterations, mut converged) = (0, false);
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        let a0: f64 = alpha.iter().sum();
        let psi_a0 = digamma(a0);
        let psi_a: Vec<f64> = alpha.iter().map(|&a| digamma(a)).collect();
        let mut num = vec![0.0f64; k];
        let mut den = 0.0;
        for (c, w) in &pats {
            let n: u32 = c.iter().sum();
            den += w * (digamma(n as f64 + a0) - psi_a0);
            for kk in 0..k {
                num[kk] += w * (digamma(c[kk] as f64 + alpha[kk]) - psi_a[kk]);
            }
        }
        let mut change = 0.0f64;
        for kk in 0..k {
            let next = alpha[kk] * num[kk] / den;
            change = change.max(((next - alpha[kk]) / alpha[kk]).abs());
            alpha[kk] = next;
        }
        if change < TOLERANCE {
            converged = true;
            break;
        }
    }
    Ok(DirichletFit {
        log_likelihood: log_likelihood(&pats, &alpha),
        alpha,
        iterations,
        converged,
        items: pats.iter().map(|(_, w)| *w as u32).sum(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample;
    use rand_distr::{Distribution, Gamma};

    fn table(counts: Vec<u32>, k: usize) -> VoteTable {
        let n = counts.len() / k;
        VoteTable::new(
            (0..k).map(|c| format!("c{c}")).collect(),
            (0..n).map(|i| format!("i{i}")).collect(),
            counts,
        )
    }

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
        let f = fit(&table(counts, 3)).unwrap();
        assert!(f.converged);
        for (a, t) in f.alpha.iter().zip(truth) {
            assert!((a / t - 1.0).abs() < 0.12, "{:?} vs {truth:?}", f.alpha);
        }
    }

    /// At the fit, ℓ is higher than at nearby points, and the fixed point holds.
    #[test]
    fn the_fit_is_a_maximum() {
        let counts = vec![5, 0, 0, 3, 2, 0, 1, 1, 3, 0, 4, 1, 2, 2, 1, 0, 0, 5, 4, 1, 0, 1, 0, 0];
        let t = table(counts, 3);
        let f = fit(&t).unwrap();
        let pats = patterns(&t);
        for kk in 0..3 {
            for step in [1.01, 0.99] {
                let mut a = f.alpha.clone();
                a[kk] *= step;
                assert!(log_likelihood(&pats, &a) < f.log_likelihood);
            }
        }
        assert_eq!(f.items, 8);
    }

    #[test]
    fn says_why_it_cannot_fit() {
        assert_eq!(
            fit(&table(vec![1, 0, 0, 1, 1, 0], 2)).unwrap_err(),
            FitError::TooFewVotes
        );
        assert_eq!(
            fit(&table(vec![2, 0, 3, 0], 2)).unwrap_err(),
            FitError::EmptyClass("c1".into())
        );
    }
}

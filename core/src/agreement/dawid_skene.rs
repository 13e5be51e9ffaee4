//! Dawid–Skene aggregation: each annotator has a confusion matrix (the probability of each label
//! given the item's true class), the classes a prior; EM alternates the items' posteriors over
//! their true class (E-step) with the maximum-likelihood prior and confusion matrices (M-step).
//! (Dawid & Skene 1979, "Maximum likelihood estimation of observer error-rates using the EM
//! algorithm".)
//!
//! The EM is the one PyPI's `crowd-kit` runs (its `DawidSkene`, version 1.4.2), step for step, so
//! the two can be compared item by item (trainer/tests/agree.rs, tests/reference/
//! crowdkit_reference.py):
//! - start: each item's posterior is its vote fractions (majority vote's soft labels);
//! - M-step: the class prior is the mean posterior; annotator w's confusion entry (label l, true
//!   class c) is Σ over w's votes of label l of the item's posterior for c, clipped below at 1e-10
//!   and normalised over the labels w gave. No other prior: the estimates are maximum likelihood;
//!   the clip only keeps logarithms finite;
//! - E-step: log₂ posterior = log₂ max(prior_c, 1e-10) + Σ over the item's votes of log₂ confusion,
//!   shifted by the item's largest value before exponentiating (no underflow on many votes);
//! - convergence: after each round the evidence lower bound per vote (crowd-kit's: the prior's log
//!   counted once per vote) is compared with the last; EM stops when it rose by less than `tol`
//!   (1e-5), or after `max_iter` (100) rounds — [`DsFit::converged`] says which.
//!
//! Classes no vote uses are left out of the EM (posterior 0), as crowd-kit's label columns are.

use crate::votes::Annotation;
// libm, not the platform's: the CLI and the app (wasm) must fit the same bits.
use libm::{exp2, log, log2};

const EPS: f64 = 1e-10;

/// When EM stops.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DsConfig {
    pub max_iter: u32,
    pub tol: f64,
}

impl Default for DsConfig {
    fn default() -> Self {
        DsConfig {
            max_iter: 100,
            tol: 1e-5,
        }
    }
}

/// A fitted model.
#[derive(Debug, Clone, PartialEq)]
pub struct DsFit {
    pub k: usize,
    /// `posteriors[i * k + c]`: item i's probability of true class c.
    pub posteriors: Vec<f64>,
    /// The class prior.
    pub prior: Vec<f64>,
    /// EM rounds run.
    pub iterations: u32,
    /// Stopped on `tol`, not on `max_iter`.
    pub converged: bool,
    /// The last evidence lower bound, per vote.
    pub elbo: f64,
}

impl DsFit {
    pub fn posterior(&self, i: usize) -> &[f64] {
        &self.posteriors[i * self.k..(i + 1) * self.k]
    }
}

/// Soft majority vote: each item's vote fractions (`counts` rows of k).
pub fn majority_vote(counts: &[u32], k: usize) -> Vec<f64> {
    counts
        .chunks(k)
        .flat_map(|row| {
            let n: u32 = row.iter().sum();
            row.iter().map(move |&c| c as f64 / n.max(1) as f64)
        })
        .collect()
}

/// Dawid–Skene on `votes` over items `0..n_items` (each with at least one vote; panics otherwise)
/// and annotators `0..n_annotators`, `k` classes.
pub fn dawid_skene(
    votes: &[Annotation],
    n_items: usize,
    n_annotators: usize,
    k: usize,
    cfg: &DsConfig,
) -> DsFit {
    // The classes some vote uses, and each class's index among them.
    let mut used = vec![false; k];
    for v in votes {
        used[v.label as usize] = true;
    }
    let active: Vec<usize> = (0..k).filter(|&c| used[c]).collect();
    let ka = active.len();
    let mut slot = vec![usize::MAX; k];
    for (j, &c) in active.iter().enumerate() {
        slot[c] = j;
    }
    let em = Em {
        votes: votes
            .iter()
            .map(|v| {
                (
                    v.item as usize,
                    v.annotator as usize,
                    slot[v.label as usize],
                )
            })
            .collect(),
        n_items,
        n_annotators,
        ka,
    };
    let mut counts = vec![0u32; n_items * ka];
    for &(i, _, l) in &em.votes {
        counts[i * ka + l] += 1;
    }
    assert!(
        counts.chunks(ka.max(1)).all(|r| r.iter().any(|&c| c > 0)),
        "every item needs a vote"
    );
    let mut post = majority_vote(&counts, ka);
    let mut prior = em.prior(&post);
    let mut conf = em.m_step(&post);
    let (mut last, mut elbo) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let (mut iterations, mut converged) = (0, false);
    for _ in 0..cfg.max_iter {
        iterations += 1;
        post = em.e_step(&prior, &conf);
        prior = em.prior(&post);
        conf = em.m_step(&post);
        elbo = em.elbo(&mut post, &prior, &conf);
        if elbo - last < cfg.tol {
            converged = true;
            break;
        }
        last = elbo;
    }
    let mut posteriors = vec![0.0; n_items * k];
    let mut full_prior = vec![0.0; k];
    for i in 0..n_items {
        for (j, &c) in active.iter().enumerate() {
            posteriors[i * k + c] = post[i * ka + j];
        }
    }
    for (j, &c) in active.iter().enumerate() {
        full_prior[c] = prior[j];
    }
    DsFit {
        k,
        posteriors,
        prior: full_prior,
        iterations,
        converged,
        elbo,
    }
}

/// The votes as (item, annotator, used-class index), and the sizes.
struct Em {
    votes: Vec<(usize, usize, usize)>,
    n_items: usize,
    n_annotators: usize,
    ka: usize,
}

impl Em {
    fn prior(&self, post: &[f64]) -> Vec<f64> {
        let mut p = vec![0.0; self.ka];
        for row in post.chunks(self.ka) {
            for (a, b) in p.iter_mut().zip(row) {
                *a += b;
            }
        }
        p.iter().map(|x| x / self.n_items as f64).collect()
    }

    /// Confusion matrices, `conf[(w * ka + l) * ka + c]` = P(label l | true class c, annotator w);
    /// 0 for labels w never gave (never looked up).
    fn m_step(&self, post: &[f64]) -> Vec<f64> {
        let ka = self.ka;
        let mut conf = vec![0.0; self.n_annotators * ka * ka];
        let mut given = vec![false; self.n_annotators * ka];
        for &(i, w, l) in &self.votes {
            given[w * ka + l] = true;
            let row = &mut conf[(w * ka + l) * ka..(w * ka + l + 1) * ka];
            for (x, p) in row.iter_mut().zip(&post[i * ka..(i + 1) * ka]) {
                *x += p;
            }
        }
        for w in 0..self.n_annotators {
            let mut total = vec![0.0; ka];
            for l in 0..ka {
                if given[w * ka + l] {
                    for c in 0..ka {
                        let x = &mut conf[(w * ka + l) * ka + c];
                        *x = x.max(EPS);
                        total[c] += *x;
                    }
                }
            }
            for l in 0..ka {
                if given[w * ka + l] {
                    for c in 0..ka {
                        conf[(w * ka + l) * ka + c] /= total[c];
                    }
                }
            }
        }
        conf
    }

    fn e_step(&self, prior: &[f64], conf: &[f64]) -> Vec<f64> {
        let ka = self.ka;
        let log_prior: Vec<f64> = prior.iter().map(|&p| log2(p.max(EPS))).collect();
        let mut ll: Vec<f64> = (0..self.n_items).flat_map(|_| log_prior.clone()).collect();
        // Annotators' log confusion, for the (w, l) rows that votes use.
        for &(i, w, l) in &self.votes {
            let row = &conf[(w * ka + l) * ka..(w * ka + l + 1) * ka];
            for (x, &e) in ll[i * ka..(i + 1) * ka].iter_mut().zip(row) {
                *x += log2(e);
            }
        }
        for row in ll.chunks_mut(ka) {
            let m = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            for x in row.iter_mut() {
                *x = exp2(*x - m);
            }
            let s: f64 = row.iter().sum();
            for x in row.iter_mut() {
                *x /= s;
            }
        }
        ll
    }

    /// crowd-kit's evidence lower bound per vote; clips `post` below at 1e-10 as it does.
    fn elbo(&self, post: &mut [f64], prior: &[f64], conf: &[f64]) -> f64 {
        let ka = self.ka;
        let log_prior: Vec<f64> = prior.iter().map(|&p| log(p.max(EPS))).collect();
        let mut joint = 0.0;
        for &(i, w, l) in &self.votes {
            for c in 0..ka {
                joint += post[i * ka + c] * (log(conf[(w * ka + l) * ka + c]) + log_prior[c]);
            }
        }
        let mut entropy = 0.0;
        for p in post.iter_mut() {
            *p = p.max(EPS);
            entropy -= *p * log(*p);
        }
        (joint + entropy) / self.votes.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vote(item: u32, annotator: u32, label: u16) -> Annotation {
        Annotation {
            item,
            annotator,
            label,
        }
    }

    /// Two reliable annotators outvote three who always say class 0: majority vote follows the
    /// three, Dawid–Skene learns their labels carry no information and follows the two.
    #[test]
    fn reliable_annotators_outweigh_a_constant_majority() {
        let mut votes = Vec::new();
        for i in 0..40u32 {
            let truth = (i % 2) as u16;
            votes.push(vote(i, 0, truth));
            votes.push(vote(i, 1, truth));
            for w in 2..5 {
                votes.push(vote(i, w, 0));
            }
        }
        let fit = dawid_skene(&votes, 40, 5, 3, &DsConfig::default());
        assert!(fit.converged, "{fit:?}");
        for i in 0..40 {
            let p = fit.posterior(i);
            assert_eq!(p[2], 0.0, "an unused class stays out");
            // Majority vote says class 0 on every item; Dawid–Skene follows the two.
            assert!(p[i % 2] > 0.8, "item {i}: {p:?}");
        }
        // The prior is the mean posterior (the M-step).
        let mean0 = (0..40).map(|i| fit.posterior(i)[0]).sum::<f64>() / 40.0;
        assert!(
            (fit.prior[0] - mean0).abs() < 1e-3,
            "{:?} vs {mean0}",
            fit.prior
        );
    }

    #[test]
    fn max_iter_bounds_the_rounds() {
        let votes: Vec<_> = (0..10u32)
            .flat_map(|i| [vote(i, 0, (i % 2) as u16), vote(i, 1, ((i / 3) % 2) as u16)])
            .collect();
        let cfg = DsConfig {
            max_iter: 2,
            tol: f64::NEG_INFINITY,
        };
        let fit = dawid_skene(&votes, 10, 2, 2, &cfg);
        assert_eq!(fit.iterations, 2);
        assert!(!fit.converged);
        for i in 0..10 {
            assert!((fit.posterior(i).iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }
}

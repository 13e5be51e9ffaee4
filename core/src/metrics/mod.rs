//! Metrics between probability distributions, natural log throughout.
//!
//! Conventions follow the ChaosNLI evaluation code (Nie et al. 2020): KL is KL(human ‖ model) in
//! nats with the model side clipped at 1e-15; "JSD" is the Jensen–Shannon *distance* (the square
//! root of the divergence, natural log, so at most sqrt(ln 2)).

pub mod calibration;
pub mod corr;

pub use calibration::{
    accuracy, brier, dist_ece, ece, majority, majority_agreement, murphy, Murphy,
};
pub use corr::{entropy_corr, pearson, pearson_ci95, spearman};

use crate::logtable::{ln, xlnx};

/// Clip applied to the second argument of [`kl`], as in the ChaosNLI evaluation code.
pub const KL_CLIP: f64 = 1e-15;

/// Shannon entropy in nats: −Σ p ln p (0 ln 0 = 0).
pub fn entropy(p: &[f64]) -> f64 {
    -p.iter().map(|&x| xlnx(x)).sum::<f64>()
}

/// KL(p ‖ q) = Σ p ln(p / max(q, 1e-15)), in nats. Terms with p = 0 contribute 0.
pub fn kl(p: &[f64], q: &[f64]) -> f64 {
    p.iter()
        .zip(q)
        .filter(|(&pi, _)| pi > 0.0)
        .map(|(&pi, &qi)| pi * (ln(pi) - ln(qi.max(KL_CLIP))))
        .sum()
}

/// Jensen–Shannon divergence in nats: ½ KL(p ‖ m) + ½ KL(q ‖ m), m = (p + q)/2.
pub fn js_divergence(p: &[f64], q: &[f64]) -> f64 {
    let mut d = 0.0;
    for (&a, &b) in p.iter().zip(q) {
        let m = 0.5 * (a + b);
        if a > 0.0 {
            d += 0.5 * a * (ln(a) - ln(m));
        }
        if b > 0.0 {
            d += 0.5 * b * (ln(b) - ln(m));
        }
    }
    d.max(0.0)
}

/// Jensen–Shannon distance: sqrt of [`js_divergence`] (what ChaosNLI reports as "JSD").
pub fn js_distance(p: &[f64], q: &[f64]) -> f64 {
    libm::sqrt(js_divergence(p, q))
}

/// `counts / total`, or `None` when there are no votes.
pub fn normalize(counts: &[u32]) -> Option<Vec<f64>> {
    let t: u64 = counts.iter().map(|&c| c as u64).sum();
    (t > 0).then(|| counts.iter().map(|&c| c as f64 / t as f64).collect())
}

/// Add-α smoothing of counts: (c_k + α) / (N + Kα). Used for KL(p_full ‖ p̃_N) so that a class
/// the N votes missed does not make the divergence infinite.
pub fn smoothed(counts: &[u32], alpha: f64) -> Vec<f64> {
    let n: f64 = counts.iter().map(|&c| c as f64).sum();
    let denom = n + alpha * counts.len() as f64;
    counts.iter().map(|&c| (c as f64 + alpha) / denom).collect()
}

#[cfg(test)]
mod tests;

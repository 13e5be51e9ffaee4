//! Correlations over items, and entropy correlation (Kohli 2026): does a model (or a small-N
//! target) rank items by ambiguity the way the full human distribution does?
//!
//! A correlation is undefined when either side has zero variance (at N = 1 every subsampled
//! entropy is 0); that is `None`, never 0 or NaN.

use super::entropy;

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// Pearson's r, or `None` when n < 2 or either side is constant.
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    assert_eq!(x.len(), y.len(), "pearson: lengths differ");
    if x.len() < 2 || is_constant(x) || is_constant(y) {
        return None;
    }
    let (mx, my) = (mean(x), mean(y));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (&a, &b) in x.iter().zip(y) {
        let (da, db) = (a - mx, b - my);
        sxy += da * db;
        sxx += da * da;
        syy += db * db;
    }
    Some((sxy / libm::sqrt(sxx * syy)).clamp(-1.0, 1.0))
}

fn is_constant(x: &[f64]) -> bool {
    x.iter().all(|&v| v == x[0])
}

/// Ranks 1..=n with ties given their average rank.
pub fn ranks(x: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..x.len()).collect();
    idx.sort_unstable_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut r = vec![0.0; x.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && x[idx[j + 1]] == x[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &t in &idx[i..=j] {
            r[t] = avg;
        }
        i = j + 1;
    }
    r
}

/// Spearman's ρ: Pearson on average ranks.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    pearson(&ranks(x), &ranks(y))
}

/// The 95% confidence interval of Pearson's r from `n` pairs by Fisher's z transform,
/// tanh(atanh r ± 1.96/√(n − 3)) — what `scipy.stats.pearsonr(x, y).confidence_interval()` returns
/// (the tests compare). `None` for n ≤ 3 or |r| = 1.
pub fn pearson_ci95(r: f64, n: usize) -> Option<(f64, f64)> {
    use statrs::distribution::{ContinuousCDF, Normal};
    if n <= 3 || r.is_nan() || r.abs() >= 1.0 {
        return None;
    }
    let z = Normal::new(0.0, 1.0).ok()?.inverse_cdf(0.975);
    let (c, se) = (libm::atanh(r), 1.0 / libm::sqrt((n - 3) as f64));
    Some((libm::tanh(c - z * se), libm::tanh(c + z * se)))
}

/// Entropy correlation: Pearson over items between H(predicted) and H(human). Both arguments are
/// row-major `items × k` distributions.
pub fn entropy_corr(pred: &[f64], human: &[f64], k: usize) -> Option<f64> {
    let hp: Vec<f64> = pred.chunks_exact(k).map(entropy).collect();
    let hh: Vec<f64> = human.chunks_exact(k).map(entropy).collect();
    pearson(&hp, &hh)
}

#[cfg(test)]
mod ci_tests {
    use super::*;

    #[test]
    fn fisher_interval_matches_scipy() {
        // scipy 1.x: pearsonr(x, y).confidence_interval() for r = 0.3, n = 152 and r = -0.05,
        // n = 3113 (scipy's interval depends only on r and n): (0.147861, 0.438269), (-0.084982, -0.014895).
        let (lo, hi) = pearson_ci95(0.3, 152).unwrap();
        assert!(
            (lo - 0.147_861).abs() < 1e-6 && (hi - 0.438_269).abs() < 1e-6,
            "{lo} {hi}"
        );
        let (lo, hi) = pearson_ci95(-0.05, 3113).unwrap();
        assert!(
            (lo + 0.084_982).abs() < 1e-6 && (hi + 0.014_895).abs() < 1e-6,
            "{lo} {hi}"
        );
        assert!(pearson_ci95(1.0, 10).is_none() && pearson_ci95(0.2, 3).is_none());
    }
}

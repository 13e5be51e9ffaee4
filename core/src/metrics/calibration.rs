//! Calibration and accuracy of predicted distributions against human ones.
//!
//! Soft targets: Brier is Σ_k (p_k − y_k)² summed over classes and averaged over items, with y the
//! human distribution (not a one-hot label). Ties in a majority are resolved by *credit*: an item
//! scores |A ∩ B| / |A|, the chance that a uniformly random pick from the predicted arg-max set A
//! lands in the human majority set B. So a tie never silently favours the lowest class index.

/// Bins per class for Murphy's decomposition of the Brier score, as the model side reports it.
pub const MURPHY_BINS: usize = 10;
/// Bins for ECE and Dist-ECE, the literature's default.
pub const ECE_BINS: usize = 15;

/// Arg-max set as a bit mask (at most 64 classes).
pub fn argmax_mask(p: &[f64]) -> u64 {
    let best = p.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    p.iter()
        .enumerate()
        .filter(|(_, &v)| v == best)
        .fold(0u64, |m, (k, _)| m | (1 << k))
}

/// The first arg-max (lowest class index among ties): the predicted class for Dist-ECE.
pub fn majority(p: &[f64]) -> usize {
    let m = argmax_mask(p);
    m.trailing_zeros() as usize
}

/// Credit in [0, 1] that p's arg-max agrees with q's majority (see the module doc on ties).
pub fn majority_agreement(p: &[f64], q: &[f64]) -> f64 {
    let (a, b) = (argmax_mask(p), argmax_mask(q));
    (a & b).count_ones() as f64 / a.count_ones() as f64
}

/// Accuracy against the full-vote majority (mean tie credit over items).
pub fn accuracy(pred: &[f64], human: &[f64], k: usize) -> f64 {
    let rows = pred.chunks_exact(k).zip(human.chunks_exact(k));
    let n = pred.len() / k;
    rows.map(|(p, q)| majority_agreement(p, q)).sum::<f64>() / n as f64
}

/// Multiclass Brier score with soft targets: mean over items of Σ_k (p_k − y_k)².
pub fn brier(pred: &[f64], human: &[f64], k: usize) -> f64 {
    let n = pred.len() / k;
    pred.iter()
        .zip(human)
        .map(|(p, y)| (p - y) * (p - y))
        .sum::<f64>()
        / n as f64
}

/// Murphy's decomposition of the Brier score with soft (human) targets, summed over classes:
/// Brier = REL − RES + UNC + residual.
///
/// Per class k, items are binned by p_k into `bins` equal-width bins; with ȳ_b the mean human
/// probability and p̄_b the mean forecast in bin b, and ȳ the overall mean:
/// REL = Σ_b n_b/n (p̄_b − ȳ_b)², RES = Σ_b n_b/n (ȳ_b − ȳ)², and UNC = Var(y_k), the variance of the
/// human probabilities over items (for 0/1 targets it is ȳ(1 − ȳ), Murphy's original term).
/// Why this UNC: within a bin, mean (p − y)² = (p̄_b − ȳ_b)² + Var_b(p) + Var_b(y) − 2 Cov_b(p, y),
/// and by the law of total variance Σ_b n_b/n Var_b(y) = Var(y) − RES; so the identity closes with
/// residual = Σ_b n_b/n [Var_b(p) − 2 Cov_b(p, y)], the within-bin terms, which vanish when each bin
/// holds one forecast value. (With UNC = ȳ(1 − ȳ) and soft targets the residual also carried
/// −mean y(1 − y), about −0.35 on ChaosNLI, larger than the Brier score itself.) The residual is
/// reported, never folded in: `residual = brier − (rel − res + unc)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Murphy {
    pub rel: f64,
    pub res: f64,
    pub unc: f64,
    pub brier: f64,
    pub residual: f64,
}

pub fn murphy(pred: &[f64], human: &[f64], k: usize, bins: usize) -> Murphy {
    let n = pred.len() / k;
    let (mut rel, mut res, mut unc) = (0.0, 0.0, 0.0);
    for c in 0..k {
        let mut cnt = vec![0usize; bins];
        let mut sp = vec![0.0; bins];
        let mut sy = vec![0.0; bins];
        let mut ybar = 0.0;
        for i in 0..n {
            let (p, y) = (pred[i * k + c], human[i * k + c]);
            let b = bin_of(p, bins);
            cnt[b] += 1;
            sp[b] += p;
            sy[b] += y;
            ybar += y;
        }
        ybar /= n as f64;
        // Two-pass variance (mean of squared deviations), not E[y²] − ȳ²: no cancellation.
        unc += (0..n)
            .map(|i| {
                let d = human[i * k + c] - ybar;
                d * d
            })
            .sum::<f64>()
            / n as f64;
        for b in 0..bins {
            if cnt[b] == 0 {
                continue;
            }
            let w = cnt[b] as f64 / n as f64;
            let (pb, yb) = (sp[b] / cnt[b] as f64, sy[b] / cnt[b] as f64);
            rel += w * (pb - yb) * (pb - yb);
            res += w * (yb - ybar) * (yb - ybar);
        }
    }
    let b = brier(pred, human, k);
    Murphy {
        rel,
        res,
        unc,
        brier: b,
        residual: b - (rel - res + unc),
    }
}

fn bin_of(x: f64, bins: usize) -> usize {
    ((x * bins as f64) as usize).min(bins - 1)
}

/// Expected calibration error against the human majority label, `bins` equal-width confidence bins
/// (15 in the literature): Σ_b n_b/n |acc_b − conf_b|, conf = max_k p_k, correctness as tie credit.
/// It penalises honest uncertainty on ambiguous items; see [`dist_ece`].
pub fn ece(pred: &[f64], human: &[f64], k: usize, bins: usize) -> f64 {
    binned_gap(pred, human, k, bins, majority_agreement)
}

/// Dist-ECE: like ECE, but per confidence bin compares the mean confidence with the mean *human
/// probability of the predicted class* (first arg-max): Σ_b n_b/n |mean conf − mean y\[pred\]|.
/// A model that says 0.6 where 60% of annotators agree is calibrated under this measure.
pub fn dist_ece(pred: &[f64], human: &[f64], k: usize, bins: usize) -> f64 {
    binned_gap(pred, human, k, bins, |p, q| q[majority(p)])
}

fn binned_gap(
    pred: &[f64],
    human: &[f64],
    k: usize,
    bins: usize,
    target: impl Fn(&[f64], &[f64]) -> f64,
) -> f64 {
    let n = pred.len() / k;
    let mut cnt = vec![0usize; bins];
    let mut sc = vec![0.0; bins];
    let mut st = vec![0.0; bins];
    for (p, q) in pred.chunks_exact(k).zip(human.chunks_exact(k)) {
        let conf = p.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let b = bin_of(conf, bins);
        cnt[b] += 1;
        sc[b] += conf;
        st[b] += target(p, q);
    }
    (0..bins)
        .filter(|&b| cnt[b] > 0)
        .map(|b| (sc[b] - st[b]).abs() / n as f64)
        .sum()
}

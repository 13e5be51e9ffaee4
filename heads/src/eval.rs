//! Test-set metrics of a head's predicted distributions against human distributions, and the
//! temperature fit of the `temp_hard` arm. All metric definitions are the core's (one implementation
//! for the app, the CLI and the trainer).

pub use annosat_core::metrics::calibration::{ECE_BINS, MURPHY_BINS};

/// The model-side metrics of one run: the exports' type, defined once in the core that reads them.
pub use annosat_core::models::RunMetrics as Metrics;

/// Every metric of a run's test predictions (the core's one implementation).
pub fn metrics(pred: &[f64], human: &[f64], k: usize) -> Metrics {
    Metrics::of(pred, human, k)
}

/// Row-wise softmax of `logits / t`, in f64.
pub fn softmax(logits: &[f32], k: usize, t: f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(logits.len());
    for row in logits.chunks_exact(k) {
        let mx = row.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b)) as f64;
        let e: Vec<f64> = row
            .iter()
            .map(|&z| libm::exp((z as f64 - mx) / t))
            .collect();
        let s: f64 = e.iter().sum();
        out.extend(e.iter().map(|x| x / s));
    }
    out
}

fn cross_entropy(logits: &[f32], targets: &[f32], k: usize, t: f64) -> f64 {
    let p = softmax(logits, k, t);
    let n = logits.len() / k;
    -p.iter()
        .zip(targets)
        .map(|(&q, &y)| y as f64 * libm::log(q.max(1e-15)))
        .sum::<f64>()
        / n as f64
}

/// The temperature minimising cross-entropy to `targets` (the validation items' p_N): a log-spaced
/// scan of T in [0.05, 20] then golden-section refinement. Deterministic.
pub fn fit_temperature(logits: &[f32], targets: &[f32], k: usize) -> f64 {
    let f = |lt: f64| cross_entropy(logits, targets, k, libm::exp(lt));
    let (lo, hi, steps) = (libm::log(0.05), libm::log(20.0), 120);
    let step = (hi - lo) / steps as f64;
    let best = (0..=steps)
        .map(|i| lo + i as f64 * step)
        .min_by(|a, b| f(*a).total_cmp(&f(*b)))
        .expect("non-empty scan");
    let (mut a, mut b) = (best - step, best + step);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    libm::exp((a + b) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_predictions_score_perfectly() {
        let human = [0.7, 0.2, 0.1, 0.1, 0.1, 0.8, 0.34, 0.33, 0.33];
        let m = metrics(&human, &human, 3);
        assert!(m.kl.abs() < 1e-12 && m.jsd.abs() < 1e-6);
        assert!((m.entropy_corr.unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(m.accuracy, 1.0);
        assert!(m.dist_ece < 1e-12);
    }

    #[test]
    fn temperature_recovers_a_known_scale() {
        // Targets are softmax(z / 2.5); the fit must find T ≈ 2.5.
        let logits: Vec<f32> = (0..60)
            .map(|i| ((i * 37 % 17) as f32 - 8.0) / 2.0)
            .collect();
        let t: Vec<f32> = softmax(&logits, 3, 2.5).iter().map(|&x| x as f32).collect();
        let fit = fit_temperature(&logits, &t, 3);
        assert!((fit - 2.5).abs() < 0.01, "{fit}");
    }
}

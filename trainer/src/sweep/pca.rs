//! PCA whitening of head features before the sweep.
//!
//! The pair features are 4 × 384 = 1,536 wide, and the first layer of ~130 stacked heads dominated
//! the sweep's time (its optimiser state alone was 43 MB per step). Projecting onto the top
//! principal components (unit variance each) keeps almost all of the variance at a sixth of the
//! width. The projection is fitted on every item's *features* — inputs only, never labels — so no
//! target information leaks; it is deterministic (nalgebra's symmetric eigensolver).

use nalgebra::{DMatrix, SymmetricEigen};

/// Projects row-major `(n, d)` features onto their top `k` principal components (each scaled to unit
/// variance if `whiten`). Returns the new features and the share of variance kept.
pub fn project(x: &[f32], n: usize, d: usize, k: usize, whiten: bool) -> (Vec<f32>, f64) {
    let k = k.min(d);
    let mut mean = vec![0f64; d];
    for row in x.chunks_exact(d) {
        for (m, &v) in mean.iter_mut().zip(row) {
            *m += v as f64;
        }
    }
    mean.iter_mut().for_each(|m| *m /= n as f64);
    let centred = DMatrix::from_fn(n, d, |i, j| x[i * d + j] as f64 - mean[j]);
    let cov = (centred.transpose() * &centred) / (n.saturating_sub(1).max(1)) as f64;
    let eig = SymmetricEigen::new(cov);
    let mut order: Vec<usize> = (0..d).collect();
    order.sort_by(|&a, &b| eig.eigenvalues[b].total_cmp(&eig.eigenvalues[a]));
    let total: f64 = eig.eigenvalues.iter().map(|v| v.max(0.0)).sum();
    let kept: f64 = order[..k]
        .iter()
        .map(|&c| eig.eigenvalues[c].max(0.0))
        .sum();
    let mut out = vec![0f32; n * k];
    for (jj, &c) in order[..k].iter().enumerate() {
        let vec = eig.eigenvectors.column(c);
        // Fix each component's sign (the solver's is arbitrary): largest |loading| positive.
        let (mut big, mut sign) = (0.0f64, 1.0f64);
        for &v in vec.iter() {
            if v.abs() > big {
                big = v.abs();
                sign = v.signum();
            }
        }
        let scale = if whiten {
            sign / eig.eigenvalues[c].max(1e-12).sqrt()
        } else {
            sign
        };
        let proj = &centred * vec;
        for i in 0..n {
            out[i * k + jj] = (proj[i] * scale) as f32;
        }
    }
    (out, if total > 0.0 { kept / total } else { 1.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitened_components_are_uncorrelated_with_unit_variance() {
        // 3-d data that really lives on a 2-d plane.
        let n = 200;
        let x: Vec<f32> = (0..n)
            .flat_map(|i| {
                let (a, b) = ((i as f32 * 0.37).sin() * 3.0, (i as f32 * 0.11).cos());
                [a + b, a - b, 2.0 * a]
            })
            .collect();
        let (w, kept) = project(&x, n, 3, 2, true);
        assert!(kept > 0.999, "{kept}");
        let col = |j: usize| -> Vec<f64> { (0..n).map(|i| w[i * 2 + j] as f64).collect() };
        let (c0, c1) = (col(0), col(1));
        let var = |c: &[f64]| c.iter().map(|v| v * v).sum::<f64>() / (n - 1) as f64;
        let cov: f64 = c0.iter().zip(&c1).map(|(a, b)| a * b).sum::<f64>() / (n - 1) as f64;
        assert!((var(&c0) - 1.0).abs() < 1e-3 && (var(&c1) - 1.0).abs() < 1e-3);
        assert!(cov.abs() < 1e-3);
    }
}

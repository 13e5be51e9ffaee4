//! What the reproduction table and the README's findings compute from a manifest: means over runs,
//! the label-smoothing arm chosen on validation, shares of the improvement (the project's one
//! definition, `annosat_core::models::captured_share`), and intervals for correlations.

use annosat_core::metrics::pearson_ci95;
use annosat_core::models::{captured_at, captured_share, Manifest, ModelMetric as M};

/// Mean over runs (model seeds × splits) of `arm` at `n`.
pub fn mean(m: &Manifest, arm: &str, n: u32, k: M) -> Option<f64> {
    m.curve(arm, k)
        .into_iter()
        .find(|p| p.n == n)
        .map(|p| p.mean)
}

/// Mean over runs of a validation metric (validation items against their p_N; KL and entropy
/// correlation are exported).
pub fn val_mean(m: &Manifest, arm: &str, n: u32, k: M) -> Option<f64> {
    let v: Vec<f64> = m
        .runs
        .iter()
        .filter(|r| r.arm == arm && r.n == n)
        .filter_map(|r| {
            let v = r.validation.as_ref()?;
            match k {
                M::Kl => Some(v.kl),
                M::EntropyCorr => v.entropy_corr,
                _ => None,
            }
        })
        .collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// Mean JS distance of `arm` at `n` (JSD is exported but not a plotted metric).
pub fn mean_jsd(m: &Manifest, arm: &str, n: u32) -> Option<f64> {
    let v: Vec<f64> = m
        .runs
        .iter()
        .filter(|r| r.arm == arm && r.n == n)
        .map(|r| r.metrics.jsd)
        .collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

pub fn nmax(m: &Manifest) -> u32 {
    m.ns().last().copied().unwrap_or(1)
}

/// The label-smoothing arm with the best *validation* mean of `k` at `n` (never the test metric).
pub fn best_ls(m: &Manifest, n: u32, k: M) -> Option<String> {
    m.arms()
        .into_iter()
        .filter(|a| a.starts_with("ls"))
        .filter_map(|a| val_mean(m, &a, n, k).map(|v| (a, v)))
        .max_by(|x, y| {
            let o = x.1.total_cmp(&y.1);
            if k.higher_is_better() {
                o
            } else {
                o.reverse()
            }
        })
        .map(|(a, _)| a)
}

/// Share of the N₁ → N_max improvement of the mean curve captured at `n`.
pub fn share_at(m: &Manifest, arm: &str, n: u32, k: M) -> Option<f64> {
    let c = m.curve(arm, k);
    let s = captured_share(&c)?;
    c.iter().zip(s).find(|(p, _)| p.n == n).map(|(_, s)| s)
}

/// First grid N capturing `x` of the improvement (one definition with the target side).
pub fn captured(m: &Manifest, arm: &str, k: M, x: f64) -> Option<u32> {
    captured_at(&m.curve(arm, k), x)
}

/// Test items of one run (the first split's).
pub fn test_items(m: &Manifest) -> usize {
    m.splits.first().map(|s| s.test_items.len()).unwrap_or(0)
}

/// A mean entropy correlation with the 95% interval of one run's r on its test items, e.g.
/// `0.028 [−0.13, 0.19]`; for a k-fold export, the all-items r (mean over model seeds) and its
/// interval over all items.
pub fn corr_with_ci(m: &Manifest, arm: &str, n: u32) -> String {
    let pooled = m.pooled_at(arm, n);
    let (r, items) = if pooled.is_empty() {
        match mean(m, arm, n, M::EntropyCorr) {
            Some(r) => (r, test_items(m)),
            None => return "–".into(),
        }
    } else {
        let v: Vec<f64> = pooled
            .iter()
            .filter_map(|p| p.metrics.entropy_corr)
            .collect();
        if v.is_empty() {
            return "–".into();
        }
        (v.iter().sum::<f64>() / v.len() as f64, pooled[0].items)
    };
    match pearson_ci95(r, items) {
        Some((lo, hi)) => format!("{r:.3} [{lo:.3}, {hi:.3}]"),
        None => format!("{r:.3}"),
    }
}

/// Whether |r| is below its standard error on `items` items (1/√(items − 3) on Fisher's scale).
pub fn within_noise(r: f64, items: usize) -> bool {
    items <= 3 || r.abs() < 1.0 / ((items - 3) as f64).sqrt()
}

pub fn f3(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.3}")).unwrap_or_else(|| "–".into())
}

pub fn pct(v: f64) -> String {
    format!("{:.0}%", v * 100.0)
}

pub fn range(v: &[f64], f: impl Fn(f64) -> String) -> String {
    if v.is_empty() {
        return "–".into();
    }
    let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if (hi - lo).abs() < 1e-12 {
        f(lo)
    } else {
        format!("{} to {}", f(lo), f(hi))
    }
}

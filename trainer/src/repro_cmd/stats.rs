//! What the reproduction table and the findings (docs/models.md) compute from a manifest: means
//! over runs, the label-smoothing arm chosen on validation, shares of the improvement (the
//! project's one definition, `annosat_core::models::captured_share`), and intervals for
//! correlations.

use annosat_core::models::verdict::Versus;
use annosat_core::models::{captured_share, Manifest, MetricVerdict, ModelMetric as M, Verdict};

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

/// The verdict of `arm` on `k` over all items (`source: None`) or within one source.
pub fn verdict_of<'a>(
    m: &'a Manifest,
    arm: &str,
    k: M,
    source: Option<&str>,
) -> Option<&'a MetricVerdict> {
    m.verdict(arm, source)?.get(k)
}

/// What the verdict says, with the change: "saturates by N=20 [10, 50] (change −0.027 [−0.038,
/// −0.016])", "no detectable change with N (change +0.001 [−0.025, 0.028])".
pub fn verdict_cell(m: &Manifest, arm: &str, k: M, source: Option<&str>) -> String {
    match verdict_of(m, arm, k, source) {
        Some(v) if v.verdict == Verdict::Undefined => "undefined".into(),
        Some(v) => format!("{} (change {})", v.headline(), v.change_text()),
        None => "–".into(),
    }
}

/// The value at N_max with its interval over test items and splits (the verdicts' resamples):
/// "0.282 [0.241, 0.318]".
pub fn level_cell(m: &Manifest, arm: &str, k: M, source: Option<&str>) -> String {
    match verdict_of(m, arm, k, source) {
        Some(v) => v.last_text(),
        None => "–".into(),
    }
}

/// `arm` against a baseline at N_max, paired over the verdicts' resamples.
pub fn versus_of<'a>(
    m: &'a Manifest,
    arm: &str,
    baseline: &str,
    k: M,
    source: Option<&str>,
) -> Option<&'a Versus> {
    m.versus.iter().find(|v| {
        v.arm == arm && v.baseline == baseline && v.metric == k && v.source.as_deref() == source
    })
}

/// "−0.052 [−0.060, −0.044], better": arm − baseline with its interval and outcome.
pub fn versus_cell(v: &Versus) -> String {
    match (v.diff, v.lo, v.hi) {
        (Some(d), Some(l), Some(h)) => format!("{d:+.3} [{l:+.3}, {h:+.3}], {}", v.outcome),
        _ => "undefined".into(),
    }
}

/// The sources of a pooled export's verdicts, in order.
pub fn sources(m: &Manifest) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for s in m.verdicts.iter().filter_map(|x| x.source.clone()) {
        if !v.contains(&s) {
            v.push(s);
        }
    }
    v
}

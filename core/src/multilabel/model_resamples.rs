//! The item resamples the multilabel model side is judged over (curves, per-label curves): draw
//! counts within each stratum (a k-fold sweep's fold), the 95% bands they give, and the verdict on
//! a curve's change with the single-label model side's rule. Shared by `models` and
//! `model_labels`, so both resample the same items the same way.

use crate::answer::HEADLINE_REFERENCE_VOTES;
use crate::curves::saturation::bounded_by_votes;
use crate::models::verdict::{judge, MetricVerdict, Verdict};
use crate::sample;

const PURPOSE_ML_MODEL_VERDICT: u64 = 0xB40;

/// Draw counts of resample `b`: within each stratum, as many items as it has, with replacement.
pub(super) fn weights(strata: &[u32], seed: u64, b: u64) -> Vec<u32> {
    let mut w = vec![0u32; strata.len()];
    if b == 0 {
        w.fill(1);
        return w;
    }
    let mut rng = sample::stream(seed, PURPOSE_ML_MODEL_VERDICT, b, 0);
    let mut groups: Vec<(u32, Vec<u32>)> = Vec::new();
    for (i, &s) in strata.iter().enumerate() {
        match groups.iter_mut().find(|g| g.0 == s) {
            Some(g) => g.1.push(i as u32),
            None => groups.push((s, vec![i as u32])),
        }
    }
    for (_, items) in &groups {
        for _ in 0..items.len() {
            w[items[sample::below(&mut rng, items.len() as u32) as usize] as usize] += 1;
        }
    }
    w
}

pub(super) fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

pub(super) fn quantiles(mut v: Vec<f64>) -> (Option<f64>, Option<f64>) {
    if v.is_empty() {
        return (None, None);
    }
    v.sort_by(f64::total_cmp);
    (
        Some(crate::curves::quantile(&v, 0.025)),
        Some(crate::curves::quantile(&v, 0.975)),
    )
}

/// The verdict on a curve's N₁ → N_max change from its values on the full sample (`all[0]`) and
/// every resample, with the single-label model side's few-votes rule: a point forced by the vote
/// count is said in words ("bounded by your 15 votes"), not printed.
pub(super) fn verdict_of(
    ns: &[u32],
    all: &[Vec<Option<f64>>],
    higher_is_better: bool,
    x: f64,
) -> MetricVerdict {
    let refs: Vec<&[Option<f64>]> = all.iter().map(Vec::as_slice).collect();
    let mut verdict = judge(ns, &refs, higher_is_better, x);
    let end = ns[ns.len() - 1];
    if verdict.verdict == Verdict::Saturates
        && bounded_by_votes(verdict.n90, end, HEADLINE_REFERENCE_VOTES)
    {
        verdict.bounded_by = Some(end);
    }
    verdict
}

/// The 95% band at each N over the resamples (`all[1..]`).
pub(super) fn bands(all: &[Vec<Option<f64>>]) -> (Vec<Option<f64>>, Vec<Option<f64>>) {
    let nn = all.first().map_or(0, Vec::len);
    (0..nn)
        .map(|g| quantiles(all[1..].iter().filter_map(|c| c[g]).collect()))
        .unzip()
}

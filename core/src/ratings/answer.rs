//! The rating headline, in the terms rating users plan with: how many raters per item make the
//! mean rating precise to ±ε points, and how many make the N-rater mean reliable at ρ*.
//!
//! Both follow from each item's ratings in closed form, for any N — beyond the ratings a file has
//! too, so a file with 5 ratings per item gets an answer, not a point bounded by its votes:
//! - **precision**: the N-rater mean's error against the mean of all the raters there could be,
//!   E(m_N − μ)² = σ²/N, so RMSE_N = √(mean of σ²ᵢ / N) ≤ ε from N = mean σ² / ε², with σ²ᵢ
//!   estimated without bias by each item's sample variance (items with 2 ratings or more);
//! - **reliability**: the Spearman–Brown prediction from the single-rater ICC(1),
//!   N·ρ/(1 + (N − 1)·ρ) ≥ ρ* from N = ρ*(1 − ρ)/(ρ(1 − ρ*)) (the classical D-study).
//!
//! The interval is over items: the same sums over B multinomial resamples of the items
//! (`curves::bootstrap`'s weights), each giving its own N. A known-truth test
//! (`core/tests/rating_answers.rs`) checks that it holds the population's N.

use super::scale::Scale;
use crate::curves::bootstrap::unit_weights;
use crate::votes::VoteTable;
use serde::{Deserialize, Serialize};

/// What a rating answer is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingGoal {
    /// The mean rating within ±ε points (RMSE).
    Precision,
    /// The N-rater mean's reliability at least ρ*.
    Reliability,
}

/// One headline: the raters per item it takes (continuous, and as a whole number), its 95%
/// interval over items, and the sentence that says it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingAnswer {
    pub goal: RatingGoal,
    /// ε in scale points, or ρ*.
    pub target: f64,
    /// The N before rounding up; `None` where no number of raters reaches the target.
    pub exact: Option<f64>,
    pub n: Option<u32>,
    pub lo: Option<u32>,
    pub hi: Option<u32>,
    /// What the N comes from: the mean item variance (precision) or ICC(1) (reliability).
    pub basis: Option<f64>,
    pub sentence: String,
}

/// Per-item sums every resample reweights.
struct ItemSums {
    m: f64,
    sum: f64,
    sum_sq_mean: f64,
    within: f64,
}

fn item_sums(table: &VoteTable, scale: &Scale) -> Vec<ItemSums> {
    (0..table.num_items())
        .filter(|&i| table.total(i) > 0)
        .map(|i| {
            let c = table.counts(i);
            let m = table.total(i) as f64;
            let s: f64 = c
                .iter()
                .zip(&scale.values)
                .map(|(&k, v)| k as f64 * v)
                .sum();
            let q: f64 = c
                .iter()
                .zip(&scale.values)
                .map(|(&k, v)| k as f64 * v * v)
                .sum();
            ItemSums {
                m,
                sum: s,
                sum_sq_mean: s * s / m,
                within: (q - s * s / m).max(0.0),
            }
        })
        .collect()
}

/// Mean item variance (unbiased, items with ≥ 2 ratings) and ICC(1) of items weighted by `w`.
fn basis(items: &[ItemSums], w: &[u32]) -> (Option<f64>, Option<f64>) {
    let (mut var_sum, mut var_n) = (0.0, 0.0);
    let (mut n, mut total, mut sum, mut ssq_mean, mut m2, mut within) =
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for (it, &wi) in items.iter().zip(w) {
        if wi == 0 {
            continue;
        }
        let wf = wi as f64;
        if it.m >= 2.0 {
            var_sum += wf * it.within / (it.m - 1.0);
            var_n += wf;
        }
        n += wf;
        total += wf * it.m;
        sum += wf * it.sum;
        ssq_mean += wf * it.sum_sq_mean;
        m2 += wf * it.m * it.m;
        within += wf * it.within;
    }
    let var = (var_n > 0.0).then(|| var_sum / var_n);
    let icc = (n >= 2.0 && total > n).then(|| {
        let between = ssq_mean - sum * sum / total;
        let msb = between / (n - 1.0);
        let msw = within / (total - n);
        let k0 = (total - m2 / total) / (n - 1.0);
        (msb - msw) / (msb + (k0 - 1.0) * msw)
    });
    (var, icc.filter(|v| v.is_finite()))
}

/// The single-rater ICC(1) of all the ratings (`curves::icc1`), from the same sums the
/// resamples reweight.
pub(super) fn single_rater_icc(table: &VoteTable, scale: &Scale) -> Option<f64> {
    let items = item_sums(table, scale);
    basis(&items, &vec![1; items.len()]).1
}

/// The raters per item a goal takes, before rounding up.
fn raters(goal: RatingGoal, target: f64, basis: Option<f64>) -> Option<f64> {
    let b = basis?;
    match goal {
        RatingGoal::Precision => Some((b / (target * target)).max(1.0)),
        RatingGoal::Reliability if b <= 0.0 => None,
        RatingGoal::Reliability => Some((target * (1.0 - b) / (b * (1.0 - target))).max(1.0)),
    }
}

fn whole(x: f64) -> u32 {
    (x - 1e-9).ceil().max(1.0) as u32
}

/// The two headlines of `table`'s ratings on `scale`: the mean within ±`within` points, the
/// N-rater mean reliable at `reliability`, each with its interval over `resamples` item resamples
/// (seeded by `seed`; 0: no interval).
pub fn answers(
    table: &VoteTable,
    scale: &Scale,
    within: f64,
    reliability: f64,
    resamples: u32,
    seed: u64,
) -> Vec<RatingAnswer> {
    let items = item_sums(table, scale);
    let most = (0..table.num_items())
        .map(|i| table.total(i))
        .max()
        .unwrap_or(0);
    let ones = vec![1u32; items.len()];
    let (var, icc) = basis(&items, &ones);
    let mut draws: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut never = [0u32; 2];
    let mut w = vec![0u32; items.len()];
    for b in 0..resamples {
        unit_weights(seed, b, &mut w);
        let (v, r) = basis(&items, &w);
        for (k, (goal, target, x)) in [
            (RatingGoal::Precision, within, v),
            (RatingGoal::Reliability, reliability, r),
        ]
        .into_iter()
        .enumerate()
        {
            match raters(goal, target, x) {
                Some(n) => draws[k].push(n),
                None => never[k] += 1,
            }
        }
    }
    let goals = [
        (RatingGoal::Precision, within, var),
        (RatingGoal::Reliability, reliability, icc),
    ];
    goals
        .into_iter()
        .zip(draws.iter_mut().zip(never))
        .map(|((goal, target, b), (d, never))| {
            let exact = raters(goal, target, b);
            d.sort_by(f64::total_cmp);
            // A resample in which the target is never reached puts the interval's top at "never".
            let (lo, hi) = if d.is_empty() || resamples == 0 {
                (None, None)
            } else {
                let q = |p: f64| {
                    let all = d.len() + never as usize;
                    let idx = ((all as f64 - 1.0) * p).round() as usize;
                    d.get(idx).map(|&x| whole(x))
                };
                (q(0.025), q(0.975))
            };
            let n = exact.map(whole);
            RatingAnswer {
                goal,
                target,
                exact,
                n,
                lo,
                hi,
                basis: b,
                sentence: sentence(goal, target, n, (lo, hi), b, (resamples, most)),
            }
        })
        .collect()
}

fn interval(n: u32, (lo, hi): (Option<u32>, Option<u32>), resamples: u32) -> String {
    match (lo, hi) {
        _ if resamples == 0 => "no interval asked for".into(),
        (Some(lo), Some(hi)) if lo == hi && lo == n => format!("95% interval over items: {n}"),
        (Some(lo), Some(hi)) => format!("95% interval over items {lo}–{hi}"),
        (Some(lo), None) => format!("95% interval over items from {lo}; some resamples never"),
        _ => "the interval over items reaches no number of raters".into(),
    }
}

/// The answer's sentence, with "Extrapolated" past the ratings there are.
fn sentence(
    goal: RatingGoal,
    target: f64,
    n: Option<u32>,
    ci: (Option<u32>, Option<u32>),
    basis: Option<f64>,
    (resamples, most): (u32, u32),
) -> String {
    let said = said_for(goal, target, n, ci, basis, resamples);
    match n {
        // Past the ratings there are, the N comes from the closed form, not from a curve.
        Some(n) if n > most => format!(
            "{} Extrapolated: no item has more than {most} ratings.",
            said
        ),
        _ => said,
    }
}

fn said_for(
    goal: RatingGoal,
    target: f64,
    n: Option<u32>,
    ci: (Option<u32>, Option<u32>),
    basis: Option<f64>,
    resamples: u32,
) -> String {
    match (goal, n) {
        (RatingGoal::Precision, Some(n)) => format!(
            "To know each item's mean rating within ±{target} points (RMSE against all the raters there could be): about {n} raters per item ({}; mean item variance {:.3}).",
            interval(n, ci, resamples),
            basis.unwrap_or(f64::NAN)
        ),
        (RatingGoal::Reliability, Some(n)) => format!(
            "For the N-rater mean to reach reliability {target} (Spearman–Brown from the single-rater ICC {:.3}): about {n} raters per item ({}).",
            basis.unwrap_or(f64::NAN),
            interval(n, ci, resamples)
        ),
        (RatingGoal::Precision, None) => {
            "No item has two ratings: the spread of an item's ratings, and so the raters a precise mean takes, cannot be estimated.".into()
        }
        (RatingGoal::Reliability, None) => match basis {
            Some(r) => format!(
                "No number of raters makes the mean reliable at {target}: the single-rater ICC is {r:.3} (the items differ no more than their raters do)."
            ),
            None => "Reliability cannot be estimated: it needs two items and an item with two ratings.".into(),
        },
    }
}

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

/// What every rating answer reads from the items: the mean item variance and the single-rater
/// ICC(1) of all the items and of each item resample, and the most ratings any item has. Kept
/// with the report, so the page answers any precision, reliability or budget the user types
/// without the table ([`RatingBasis::answer`], [`RatingBasis::budget`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingBasis {
    /// (mean item variance, ICC(1)) of all the items.
    pub all: (Option<f64>, Option<f64>),
    /// The same of each item resample.
    pub resamples: Vec<(Option<f64>, Option<f64>)>,
    pub most: u32,
    /// Items with ratings (what the intervals resample).
    #[serde(default)]
    pub items: usize,
}

impl RatingBasis {
    /// The basis of `table`'s ratings on `scale` with `resamples` item resamples (seeded by
    /// `seed`; 0: no interval).
    pub fn of(table: &VoteTable, scale: &Scale, resamples: u32, seed: u64) -> RatingBasis {
        let items = item_sums(table, scale);
        let most = (0..table.num_items())
            .map(|i| table.total(i))
            .max()
            .unwrap_or(0);
        let all = basis(&items, &vec![1u32; items.len()]);
        let mut w = vec![0u32; items.len()];
        let resamples = (0..resamples)
            .map(|b| {
                unit_weights(seed, b, &mut w);
                basis(&items, &w)
            })
            .collect();
        RatingBasis {
            all,
            resamples,
            most,
            items: items.len(),
        }
    }

    fn pick(goal: RatingGoal, b: (Option<f64>, Option<f64>)) -> Option<f64> {
        match goal {
            RatingGoal::Precision => b.0,
            RatingGoal::Reliability => b.1,
        }
    }

    /// The raters per item `goal` at `target` takes, with its interval over the resamples.
    pub fn answer(&self, goal: RatingGoal, target: f64) -> RatingAnswer {
        let b = Self::pick(goal, self.all);
        let exact = raters(goal, target, b);
        let mut d: Vec<f64> = Vec::with_capacity(self.resamples.len());
        let mut never = 0usize;
        for &r in &self.resamples {
            match raters(goal, target, Self::pick(goal, r)) {
                Some(n) => d.push(n),
                None => never += 1,
            }
        }
        d.sort_by(f64::total_cmp);
        let resamples = self.resamples.len() as u32;
        // A resample in which the target is never reached puts the interval's top at "never".
        let (lo, hi) = if d.is_empty() {
            (None, None)
        } else {
            let q = |p: f64| {
                let all = d.len() + never;
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
            sentence: sentence(goal, target, n, (lo, hi), b, (resamples, self.most))
                + &pilot(n, (lo, hi), self.items),
        }
    }

    /// What `ratings` ratings spread evenly over `items` items give: each item's mean to within
    /// an RMSE of √(σ²/N) and a reliability of Spearman–Brown at N = ratings/items, each with its
    /// 95% interval over the resamples ([`RatingBudget`]).
    pub fn budget(&self, items: u64, ratings: u64) -> RatingBudget {
        let n = if items == 0 {
            0.0
        } else {
            ratings as f64 / items as f64
        };
        let rmse = |b: (Option<f64>, Option<f64>)| b.0.filter(|_| n > 0.0).map(|v| (v / n).sqrt());
        let rel = |b: (Option<f64>, Option<f64>)| {
            b.1.filter(|_| n > 0.0)
                .map(|r| n * r / (1.0 + (n - 1.0) * r))
        };
        let ci = |f: &dyn Fn((Option<f64>, Option<f64>)) -> Option<f64>| {
            let mut v: Vec<f64> = self.resamples.iter().filter_map(|&b| f(b)).collect();
            v.sort_by(f64::total_cmp);
            (!v.is_empty()).then(|| {
                (
                    crate::curves::quantile(&v, 0.025),
                    crate::curves::quantile(&v, 0.975),
                )
            })
        };
        let (rmse_ci, rel_ci) = (ci(&rmse), ci(&rel));
        let sentence = budget_sentence(
            items,
            ratings,
            n,
            (rmse(self.all), rmse_ci),
            (rel(self.all), rel_ci),
            self.most,
        );
        RatingBudget {
            items,
            ratings,
            per_item: n,
            rmse: rmse(self.all),
            rmse_ci,
            reliability: rel(self.all),
            reliability_ci: rel_ci,
            sentence,
        }
    }
}

/// What a budget of ratings buys, in the scale's terms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingBudget {
    pub items: u64,
    pub ratings: u64,
    /// Ratings per item (the budget over the items).
    pub per_item: f64,
    /// The RMSE of each item's mean against all the raters there could be, and its interval.
    pub rmse: Option<f64>,
    pub rmse_ci: Option<(f64, f64)>,
    /// The reliability of the per-item mean (Spearman–Brown), and its interval.
    pub reliability: Option<f64>,
    pub reliability_ci: Option<(f64, f64)>,
    pub sentence: String,
}

fn budget_sentence(
    items: u64,
    ratings: u64,
    n: f64,
    (rmse, rmse_ci): (Option<f64>, Option<(f64, f64)>),
    (rel, rel_ci): (Option<f64>, Option<(f64, f64)>),
    most: u32,
) -> String {
    if items == 0 || ratings < items {
        return format!("{ratings} ratings cannot give each of {items} items one rating.");
    }
    let ci = |c: Option<(f64, f64)>| {
        c.map(|(a, b)| format!(" (95% interval over items {a:.3}–{b:.3})"))
            .unwrap_or_default()
    };
    let mut s = format!("{ratings} ratings over {items} items, {n:.1} per item: ");
    match rmse {
        Some(e) => {
            s += &format!(
                "each item's mean within ±{e:.3} points (RMSE){}",
                ci(rmse_ci)
            )
        }
        None => s += "the precision of a mean cannot be estimated (no item has two ratings)",
    }
    match rel {
        Some(r) => s += &format!(", reliability {r:.3}{}.", ci(rel_ci)),
        None => s += "; reliability cannot be estimated.",
    }
    if n > most as f64 {
        s += &format!(" Extrapolated: no item has more than {most} ratings.");
    }
    s
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
    let b = RatingBasis::of(table, scale, resamples, seed);
    vec![
        b.answer(RatingGoal::Precision, within),
        b.answer(RatingGoal::Reliability, reliability),
    ]
}

/// Widest interval, relative to its N, that the answer gives without a pilot line (±10%).
const NARROW: f64 = 0.10;

/// Where the interval over items is wider than ±10% of N, the items that would narrow it to
/// that: the interval's half-width shrinks like 1/√items (the answer's basis is a mean over
/// items), so I·(h/0.10)² items in all, h the half-width over N. Empty otherwise.
fn pilot(n: Option<u32>, (lo, hi): (Option<u32>, Option<u32>), items: usize) -> String {
    let (Some(n), Some(lo), Some(hi)) = (n, lo, hi) else {
        return String::new();
    };
    let h = (hi - lo) as f64 / 2.0 / n as f64;
    if h <= NARROW || items == 0 {
        return String::new();
    }
    let need = (items as f64 * (h / NARROW).powi(2)).ceil() as u64;
    format!(
        " A pilot that rates about {} more items (two ratings or more each, {need} in all) would narrow the interval to about ±10%.",
        need.saturating_sub(items as u64)
    )
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

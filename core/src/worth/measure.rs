//! A source's level against each split's reference, and ν where the human curve reaches it: for
//! the data and for every item resample, with the same item weights as the human curve's.

use super::human::{mean_var, HumanSplit};
use super::{Bound, MetricWorth, WorthMetric};
use crate::metrics::{entropy, js_distance, kl, majority_agreement, normalize, smoothed};

/// One item's terms against the reference R.
struct ItemTerms {
    jsd: f64,
    kl: f64,
    maj: f64,
    h_s: f64,
    h_r: f64,
    sq: f64,
    j: f64,
    /// On a scale: the source's and the reference's mean rating (NaN without one).
    s_mean: f64,
    r_mean: f64,
}

/// Per split: the used items' terms for a source whose counts are `counts(item)` (`None`: the
/// source has no vote on that item, which then weighs nothing on the source's side).
fn terms(sp: &HumanSplit, counts: &dyn Fn(usize) -> Option<Vec<u32>>) -> Vec<Option<ItemTerms>> {
    sp.item
        .iter()
        .zip(&sp.q)
        .zip(&sp.h_r)
        .enumerate()
        .map(|(k, ((&i, q), &h_r))| {
            let c = counts(i)?;
            let p = normalize(&c)?;
            let s_mean = sp
                .values
                .as_ref()
                .and_then(|v| mean_var(&c, v))
                .map_or(f64::NAN, |(m, _)| m);
            Some(ItemTerms {
                s_mean,
                r_mean: sp.r_mean.get(k).copied().unwrap_or(f64::NAN),
                jsd: js_distance(&p, q),
                kl: kl(q, &smoothed(&c, sp.alpha)),
                maj: majority_agreement(&p, q),
                h_s: entropy(&p),
                h_r,
                sq: p.iter().zip(q).map(|(x, y)| (x - y).powi(2)).sum(),
                j: 1.0 - q.iter().map(|x| x * x).sum::<f64>(),
            })
        })
        .collect()
}

/// The source's level over the items, each weighted `w` (1s: the data; a resample's weights).
fn level(items: &[Option<ItemTerms>], w: Option<&[u32]>, m: WorthMetric) -> Option<f64> {
    let weight = |i: usize| w.map_or(1.0, |w| w[i] as f64);
    let tot: f64 = (0..items.len())
        .filter(|&i| items[i].is_some())
        .map(weight)
        .sum();
    if tot == 0.0 {
        return None;
    }
    let mean = |f: &dyn Fn(&ItemTerms) -> f64| {
        items
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.as_ref().map(|t| weight(i) * f(t)))
            .sum::<f64>()
            / tot
    };
    match m {
        WorthMetric::Jsd => Some(mean(&|t| t.jsd)),
        WorthMetric::Kl => Some(mean(&|t| t.kl)),
        WorthMetric::MajorityAgreement => Some(mean(&|t| t.maj)),
        WorthMetric::SquaredError => Some(mean(&|t| t.sq)),
        WorthMetric::MeanRatingSe => {
            Some(mean(&|t| (t.s_mean - t.r_mean).powi(2))).filter(|v| v.is_finite())
        }
        // A weighted Pearson over items (weights = resample multiplicities).
        WorthMetric::EntropyCorr => pearson(&mean, &|t| t.h_s, &|t| t.h_r),
        WorthMetric::MeanRatingCorr => pearson(&mean, &|t| t.s_mean, &|t| t.r_mean),
    }
}

type Field<'a> = &'a dyn Fn(&ItemTerms) -> f64;

/// Pearson's r of two item terms under the weighted mean `mean`.
fn pearson(mean: &dyn Fn(Field) -> f64, x: Field, y: Field) -> Option<f64> {
    let (mx, my) = (mean(x), mean(y));
    let sxy = mean(&|t| (x(t) - mx) * (y(t) - my));
    let sxx = mean(&|t| (x(t) - mx).powi(2));
    let syy = mean(&|t| (y(t) - my).powi(2));
    (sxx > 1e-12 && syy > 1e-12).then(|| (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// ν where the human curve reaches `level`, or which side of the curve the level lies on.
pub(super) fn locate(
    grid: &[u32],
    human: &[Option<f64>],
    level: f64,
    metric: WorthMetric,
) -> (Option<f64>, Option<Bound>) {
    let rising = !metric.lower_is_better();
    // The curve's first defined point (entropy correlation is undefined at N=1: one vote has no
    // entropy): a level worse than it lies below the curve.
    let first = human.iter().flatten().next().copied();
    let worse_than_first = first.is_some_and(|v| if rising { level < v } else { level > v });
    if worse_than_first {
        return (None, Some(Bound::Below));
    }
    match crossing(grid, human, level, rising) {
        Some(n) => (Some(n), None),
        None => (None, Some(Bound::Above)),
    }
}

/// Where the curve first reaches `level`, interpolated linearly in 1/N between the grid points
/// around it: the squared error's expected curve is exactly affine in 1/N (B + V (M/N − 1)/(M − 1)),
/// so there ν equals its closed form; the other metrics fall off roughly like it.
fn crossing(grid: &[u32], values: &[Option<f64>], level: f64, rising: bool) -> Option<f64> {
    crate::curves::saturation::crossing_in(grid, values, level, rising, (|n| 1.0 / n, |u| 1.0 / u))
}

/// A ν, or a bound as −∞ / +∞ (so bounded resamples or subsets sort to their end); NaN where the
/// metric is undefined.
pub(super) fn as_number((nu, bound): (Option<f64>, Option<Bound>)) -> f64 {
    match (nu, bound) {
        (Some(n), _) => n,
        (None, Some(Bound::Below)) => f64::NEG_INFINITY,
        (None, Some(Bound::Above)) => f64::INFINITY,
        (None, None) => f64::NAN,
    }
}

/// The 2.5th and 97.5th percentiles of sorted νs; `None` for an end that lies past the curve.
pub(super) fn ends(sorted: &[f64]) -> (Option<f64>, Option<f64>) {
    let pct = |q: f64| {
        (!sorted.is_empty())
            .then(|| crate::curves::quantile(sorted, q))
            .filter(|v| v.is_finite())
    };
    (pct(0.025), pct(0.975))
}

fn mean_of(v: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let d: Vec<f64> = v.flatten().collect();
    (!d.is_empty()).then(|| d.iter().sum::<f64>() / d.len() as f64)
}

/// What one source is worth, per metric; with `resampled` false the intervals are skipped (a
/// panel's subsets, whose spread over subsets is their interval).
pub(super) struct Measured {
    pub metrics: Vec<MetricWorth>,
    pub j_over_e: Option<f64>,
    pub closed_form_nu: Option<f64>,
}

pub(super) fn measure(
    splits: &[HumanSplit],
    counts: &dyn Fn(usize) -> Option<Vec<u32>>,
    resampled: bool,
) -> Measured {
    let per: Vec<Vec<Option<ItemTerms>>> = splits.iter().map(|sp| terms(sp, counts)).collect();
    let grid = &splits[0].grid;
    let metrics = splits[0]
        .metrics
        .iter()
        .enumerate()
        .map(|(mi, &metric)| {
            // The splits' mean curve, on the first split's grid.
            let human: Vec<Option<f64>> = (0..grid.len())
                .map(|g| {
                    mean_of(
                        splits
                            .iter()
                            .map(|sp| sp.human[mi].get(g).copied().flatten()),
                    )
                })
                .collect();
            let lvl = mean_of(per.iter().map(|t| level(t, None, metric)));
            let (nu, bound) = match lvl {
                Some(l) => locate(grid, &human, l, metric),
                None => (None, None),
            };
            let mut nus: Vec<f64> = Vec::new();
            if resampled {
                for (sp, t) in splits.iter().zip(&per) {
                    for (hb, w) in sp.human_boot.iter().zip(&sp.weights) {
                        if let Some(l) = level(t, Some(w), metric) {
                            nus.push(as_number(locate(&sp.grid, &hb[mi], l, metric)));
                        }
                    }
                }
            }
            nus.sort_by(f64::total_cmp);
            let (lo, hi) = ends(&nus);
            MetricWorth {
                metric,
                nu,
                lo,
                hi,
                bound,
                source: lvl,
                floor: grid
                    .iter()
                    .zip(&human)
                    .find(|(_, v)| v.is_some())
                    .map_or(1, |(&n, _)| n),
                human: grid.iter().copied().zip(human).collect(),
            }
        })
        .collect();
    let j_over_e = mean_of(per.iter().map(|t| {
        let used: Vec<&ItemTerms> = t.iter().flatten().collect();
        let n = used.len() as f64;
        let e = used.iter().map(|t| t.sq).sum::<f64>() / n;
        let j = used.iter().map(|t| t.j).sum::<f64>() / n;
        (e > 0.0).then(|| j / e)
    }));
    // ν = M / (1 + (E − B)(M − 1)/V) where every item's pool has M votes.
    let closed = splits
        .iter()
        .zip(&per)
        .map(|(sp, t)| {
            let m = sp.same_pool?;
            let used: Vec<&ItemTerms> = t.iter().flatten().collect();
            let e = used.iter().map(|t| t.sq).sum::<f64>() / used.len() as f64;
            let nu = m / (1.0 + (e - sp.bias) * (m - 1.0) / sp.var);
            (nu.is_finite() && (1.0..=m).contains(&nu)).then_some(nu)
        })
        .collect::<Option<Vec<f64>>>();
    Measured {
        metrics,
        j_over_e,
        closed_form_nu: closed.map(|v| v.iter().sum::<f64>() / v.len() as f64),
    }
}

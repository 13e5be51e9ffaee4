//! The human side, computed once and shared by every source measured against it (a panel's
//! subsets, each of its annotators): per R/P split seed, the reference, the human curve per
//! metric and every item resample's curve with its item weights.

use super::{WorthConfig, WorthError, WorthMetric};
use crate::curves::bootstrap::item_weights;
use crate::curves::{self, CurveConfig, Metric, Reference};
use crate::metrics::entropy;
use crate::sample::split_heldout;
use crate::votes::VoteTable;

/// One R/P split: what a source's level is computed against.
pub(super) struct HumanSplit {
    pub grid: Vec<u32>,
    /// Per used item: its index in the matched items, reference distribution and entropy.
    pub item: Vec<usize>,
    pub q: Vec<Vec<f64>>,
    pub h_r: Vec<f64>,
    /// The KL smoothing the curves used.
    pub alpha: f64,
    /// `[metric][g]`, and per resample b: `[b][metric][g]` with the items' weights `weights[b]`.
    pub human: Vec<Vec<Option<f64>>>,
    pub human_boot: Vec<Vec<Vec<Option<f64>>>>,
    pub weights: Vec<Vec<u32>>,
    /// The squared error's closed form: pool size M if every item's is the same, mean bias
    /// ‖p_P − p_R‖² and mean variance term 1 − ‖p_P‖².
    pub same_pool: Option<f64>,
    pub bias: f64,
    pub var: f64,
    /// Items the split left out (fewer than 2 human votes, or no vote on one side).
    pub left_out: Vec<String>,
    /// The metrics measured, in the order of `human`'s rows ([`WorthConfig::metrics`]).
    pub metrics: Vec<WorthMetric>,
    /// On a scale: each class's value, and each used item's reference mean rating.
    pub values: Option<Vec<f64>>,
    pub r_mean: Vec<f64>,
}

/// An item's ratings on the scale `values`: their mean and variance (divided by the count).
pub(super) fn mean_var(c: &[u32], values: &[f64]) -> Option<(f64, f64)> {
    let m: f64 = c.iter().map(|&x| x as f64).sum();
    if m == 0.0 {
        return None;
    }
    let mean = c
        .iter()
        .zip(values)
        .map(|(&x, v)| x as f64 * v)
        .sum::<f64>()
        / m;
    let var = c
        .iter()
        .zip(values)
        .map(|(&x, v)| x as f64 * (v - mean).powi(2))
        .sum::<f64>()
        / m;
    Some((mean, var))
}

/// The rating metrics' human curves in closed form, per grid N over the items with at least N
/// pool ratings, each item weighted `w`. With N of an item's M pool ratings drawn without
/// replacement (mean m_N, pool mean m_P, variance σ²_P, reference mean r):
/// - E(m_N − r)² = (m_P − r)² + σ²_P/N · (M − N)/(M − 1);
/// - Pearson's r over items of m_N with r: the sampling noise is independent of r, so the
///   covariance is that of m_P and the variance of m_N is var(m_P) + the mean noise term
///   (the attenuation of a correlation by measurement error; exact as the items grow).
struct RatingItems {
    pool_mean: Vec<f64>,
    pool_var: Vec<f64>,
    r_mean: Vec<f64>,
    m: Vec<f64>,
}

impl RatingItems {
    fn curve(&self, grid: &[u32], metric: WorthMetric, w: &[u32]) -> Vec<Option<f64>> {
        grid.iter()
            .map(|&n| {
                let nf = n as f64;
                let (mut tot, mut se, mut noise) = (0.0, 0.0, 0.0);
                let (mut sp, mut sr, mut spp, mut srr, mut spr) = (0.0, 0.0, 0.0, 0.0, 0.0);
                for (i, &wi) in w.iter().enumerate().take(self.m.len()) {
                    if wi == 0 || nf > self.m[i] {
                        continue;
                    }
                    let wf = wi as f64;
                    let fpc = if self.m[i] > 1.0 {
                        (self.m[i] - nf) / (self.m[i] - 1.0)
                    } else {
                        0.0
                    };
                    let (p, r) = (self.pool_mean[i], self.r_mean[i]);
                    let e = self.pool_var[i] / nf * fpc;
                    tot += wf;
                    se += wf * ((p - r).powi(2) + e);
                    noise += wf * e;
                    sp += wf * p;
                    sr += wf * r;
                    spp += wf * p * p;
                    srr += wf * r * r;
                    spr += wf * p * r;
                }
                if tot == 0.0 {
                    return None;
                }
                match metric {
                    WorthMetric::MeanRatingSe => Some(se / tot),
                    _ => {
                        let (mp, mr) = (sp / tot, sr / tot);
                        let cov = spr / tot - mp * mr;
                        let vp = spp / tot - mp * mp + noise / tot;
                        let vr = srr / tot - mr * mr;
                        (vp > 1e-12 && vr > 1e-12)
                            .then(|| (cov / (vp * vr).sqrt()).clamp(-1.0, 1.0))
                    }
                }
            })
            .collect()
    }
}

/// The human side of a measurement: `h` holds the matched items (ids in the source's order).
pub(super) fn prepare(
    h: &VoteTable,
    cfg: &WorthConfig,
    progress: &mut dyn FnMut(f64),
) -> Result<Vec<HumanSplit>, WorthError> {
    (0..cfg.splits)
        .map(|k| {
            let s = one_split(h, cfg, cfg.seed + k as u64);
            progress((k + 1) as f64 / cfg.splits as f64);
            s
        })
        .collect()
}

fn one_split(h: &VoteTable, cfg: &WorthConfig, seed: u64) -> Result<HumanSplit, WorthError> {
    let split = split_heldout(h, cfg.reference_share, seed);
    let (pool, reference) = (&split.a, &split.b);
    if pool.max_total() < 2 {
        return Err(WorthError::ShortPool);
    }
    // The curves draw the same split from the same seed (`Reference::HeldOut`).
    let c = curves::compute(
        h,
        &CurveConfig {
            grid: Vec::new(),
            repeats: cfg.repeats,
            seed,
            alpha: cfg.alpha,
            reference: Reference::HeldOut {
                fraction: cfg.reference_share,
            },
            bootstrap: cfg.bootstrap,
        },
    )?;
    let (grid, ng) = (c.grid.clone(), c.grid.len());
    let at = super::rows_by_id(h.item_ids());
    // The curves' used items: reference total > 0 (which a split guarantees), in pool order.
    let rows: Vec<usize> = (0..pool.num_items())
        .filter(|&i| reference.total(i) > 0)
        .collect();
    let q: Vec<Vec<f64>> = rows.iter().map(|&i| reference.distribution(i)).collect();
    let pp: Vec<Vec<f64>> = rows.iter().map(|&i| pool.distribution(i)).collect();
    let mp: Vec<f64> = rows.iter().map(|&i| pool.total(i) as f64).collect();
    let sq = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>();
    let bias: Vec<f64> = pp.iter().zip(&q).map(|(p, q)| sq(p, q)).collect();
    let var: Vec<f64> = pp
        .iter()
        .map(|p| 1.0 - p.iter().map(|x| x * x).sum::<f64>())
        .collect();
    // E‖p_N − p_R‖² per item, weighted over the items with at least N pool votes.
    let human_sq = |w: &[u32]| -> Vec<Option<f64>> {
        grid.iter()
            .map(|&n| {
                let (mut sum, mut tot) = (0.0, 0.0);
                for i in 0..rows.len() {
                    if w[i] > 0 && n as f64 <= mp[i] {
                        let fpc = if mp[i] > 1.0 {
                            (mp[i] - n as f64) / (mp[i] - 1.0)
                        } else {
                            0.0
                        };
                        sum += w[i] as f64 * (bias[i] + var[i] / n as f64 * fpc);
                        tot += w[i] as f64;
                    }
                }
                (tot > 0.0).then(|| sum / tot)
            })
            .collect()
    };
    let values = cfg.scale.as_ref().map(|s| s.values.clone());
    let rating = values.as_ref().map(|v| {
        let of = |t: &VoteTable, i: usize| mean_var(t.counts(i), v).unwrap_or((f64::NAN, 0.0));
        RatingItems {
            pool_mean: rows.iter().map(|&i| of(pool, i).0).collect(),
            pool_var: rows.iter().map(|&i| of(pool, i).1).collect(),
            r_mean: rows.iter().map(|&i| of(reference, i).0).collect(),
            m: mp.clone(),
        }
    });
    let metrics = cfg.metrics();
    let curve_of = |m: WorthMetric, target: &dyn Fn(Metric) -> Vec<Option<f64>>, w: &[u32]| match (
        m.target(),
        &rating,
    ) {
        (Some(t), _) => target(t),
        (None, Some(r)) if m != WorthMetric::SquaredError => r.curve(&grid, m, w),
        _ => human_sq(w),
    };
    let ones = vec![1u32; rows.len()];
    let data = |t: Metric| c.points(t).iter().map(|p| p.mean).collect::<Vec<_>>();
    let human = metrics.iter().map(|&m| curve_of(m, &data, &ones)).collect();
    let (mut human_boot, mut weights) = (Vec::new(), Vec::new());
    if let Some(bands) = c.item_bands() {
        for b in 0..bands.resamples {
            let w = item_weights(&rows, ng, seed, b);
            let target = |t: Metric| {
                (0..ng)
                    .map(|g| {
                        Some(bands.means[t.index()][b as usize * ng + g]).filter(|x| x.is_finite())
                    })
                    .collect::<Vec<_>>()
            };
            human_boot.push(metrics.iter().map(|&m| curve_of(m, &target, &w)).collect());
            weights.push(w);
        }
    }
    let n = rows.len() as f64;
    let same_pool = mp.iter().all(|&m| m == mp[0]).then_some(mp[0]);
    Ok(HumanSplit {
        grid,
        item: rows
            .iter()
            .map(|&i| at[pool.item_ids()[i].as_str()])
            .collect(),
        h_r: q.iter().map(|q| entropy(q)).collect(),
        q,
        alpha: c.alpha,
        human,
        human_boot,
        weights,
        same_pool,
        bias: bias.iter().sum::<f64>() / n,
        var: var.iter().sum::<f64>() / n,
        left_out: split.excluded,
        r_mean: rating.as_ref().map_or_else(Vec::new, |r| r.r_mean.clone()),
        metrics,
        values,
    })
}

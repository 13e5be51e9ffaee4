//! Rating curves: how well N raters' ratings of an item stand for all of its raters', in the
//! scale's own terms, as N grows.
//!
//! Each item's ratings are drawn by the curves' own subsampler ([`CurveDraws`], every N a prefix
//! of one draw sequence per item and repeat), so a rating curve's N-vote samples are exactly the
//! ones the nominal curves score. At every grid N and repeat, over the items with at least N
//! ratings:
//! - **mean error**: the mean of |m_N − m| (m_N the mean of the N ratings, m of all), in scale
//!   units; **mean RMSE**: √(mean of (m_N − m)²). Its expectation has a closed form under sampling
//!   without replacement, E(m_N − m)² = σ²/N · (M − N)/(M − 1) (σ² the item's M ratings' variance,
//!   divided by M): [`RatingCurves::expected_mse`];
//! - **reliability**: ICC(1,k) of the N-rater means, k = N, from the one-way ANOVA of the N-vote
//!   samples, (MSB − MSW)/MSB, beside the Spearman–Brown prediction k·ρ/(1 + (k − 1)·ρ) from the
//!   single-rater ICC(1) of all the ratings ([`RatingCurves::spearman_brown`]);
//! - **rank correlation**: Spearman's ρ between the items' N-rater means and their all-rater means;
//! - **Wasserstein**: the Wasserstein-1 distance on the scale between the N ratings' shares and
//!   all ratings' shares, Σ |F_N − F| · gap over the scale's steps (F the cumulative shares).

use super::bands::{BandSums, K};
use super::metric::RatingMetric;
use super::ranks::{key_ranks, steps};
use super::scale::Scale;
use crate::curves::cap::reference_votes;
use crate::curves::{grid_of, quantile, CurveConfig, CurveError, Reference};
use crate::metrics::corr::{pearson, ranks};
use crate::sample::{class_at, CurveDraws};
use crate::votes::VoteTable;
use serde::{Deserialize, Serialize};

/// One metric at one N: the mean over repeats, the 2.5–97.5% range of the repeats and their
/// standard deviation (`None` where no repeat is defined).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    pub n: u32,
    pub mean: Option<f64>,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    pub sd: Option<f64>,
    /// Items with at least N ratings (the ones scored).
    pub items: usize,
}

/// Every rating metric at every grid N, each repeat's value kept (the points and any later
/// resampling read them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingCurves {
    pub scale: Scale,
    pub grid: Vec<u32>,
    pub repeats: u32,
    /// The first repeat computed here: a part of the repeats (the app splits them over its
    /// workers) starts past 0, and [`RatingCurves::merge`] puts the parts back in order.
    #[serde(default)]
    pub first_repeat: u32,
    pub seed: u64,
    /// `values[m][g][r]`: metric `m` (in [`RatingMetric::ALL`] order) at grid N `g`, repeat `r`.
    pub values: Vec<Vec<Vec<Option<f64>>>>,
    /// Items with at least N ratings, per grid N.
    pub items: Vec<usize>,
    /// The closed-form expectation of the mean squared error of the N-rater means, per grid N.
    pub expected_mse: Vec<f64>,
    /// The single-rater ICC(1) of all the ratings (one-way, unbalanced: k₀ raters per item).
    pub icc1: Option<f64>,
    /// k-rater reliability: at each even grid N = 2k, the first k of an item's N drawn ratings
    /// and the next k are two disjoint groups of raters, and `krr[j][r]` is Pearson's r over the
    /// items between the two groups' mean ratings (k = `krr_k[j]`) — the reliability of a k-rater
    /// mean measured by split halves (Wong, Paritosh & Aroyo 2021's kRR, with Pearson's r as the
    /// two aggregates' agreement), beside the Spearman–Brown prediction at k.
    #[serde(default)]
    pub krr_k: Vec<u32>,
    #[serde(default)]
    pub krr: Vec<Vec<Option<f64>>>,
    /// The item bootstrap's sums (`bands.rs`): `[b][g][k]` over this computation's repeats, for
    /// `resamples` resamples (0: none asked for).
    #[serde(default)]
    pub boot: Vec<f64>,
    #[serde(default)]
    pub resamples: u32,
}

impl RatingCurves {
    pub fn point(&self, m: RatingMetric, g: usize) -> RatingPoint {
        summary(&self.values[m as usize][g], self.grid[g], self.items[g])
    }

    /// The 95% interval over items of metric `m` at grid point `g` (the rank correlation, not a
    /// sum over items, has none; nor has a computation without resamples).
    pub fn item_band(&self, m: RatingMetric, g: usize) -> Option<(f64, f64)> {
        let mut v: Vec<f64> = (0..self.resamples)
            .filter_map(|b| self.resampled(m, g, b))
            .collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        Some((quantile(&v, 0.025), quantile(&v, 0.975)))
    }

    /// Metric `m` at grid point `g` in item resample `b` (its repeats' sums reweighted).
    pub fn resampled(&self, m: RatingMetric, g: usize, b: u32) -> Option<f64> {
        if b >= self.resamples || m == RatingMetric::RankCorr {
            return None;
        }
        let o = (b as usize * self.grid.len() + g) * K;
        let t = &self.boot[o..o + K];
        let (c, r) = (t[0], self.repeats as f64);
        if c == 0.0 {
            return None;
        }
        match m {
            RatingMetric::MeanError => Some(t[1] / c),
            RatingMetric::MeanRmse => Some((t[2] / c).sqrt()),
            RatingMetric::Wasserstein => Some(t[3] / c),
            _ => {
                // The repeats' mean sums: one repeat's ANOVA, as the curve's points.
                let sums = Sums {
                    m: t[4] / r,
                    mm: t[5] / r,
                    within: t[6] / r,
                    ..Sums::default()
                };
                icc_k(self.grid[g] as f64, c / r, &sums)
            }
        }
    }

    /// kRR at each k (`n` is k; `items` those with at least 2k ratings).
    pub fn krr_points(&self) -> Vec<RatingPoint> {
        self.krr_k
            .iter()
            .zip(&self.krr)
            .map(|(&k, v)| {
                let g = self.grid.iter().position(|&n| n == 2 * k).unwrap_or(0);
                summary(v, k, self.items[g])
            })
            .collect()
    }

    pub fn points(&self, m: RatingMetric) -> Vec<RatingPoint> {
        (0..self.grid.len()).map(|g| self.point(m, g)).collect()
    }

    /// `n,metric,mean,lo,hi` as the nominal curves print it (the CLI's csv and the app's export).
    pub fn to_csv(&self) -> String {
        let names = RatingMetric::ALL.map(RatingMetric::name);
        crate::curves::export::points_csv(self.grid.len(), &names, |g, m| {
            let p = self.point(RatingMetric::ALL[m], g);
            (p.n, p.mean, p.lo, p.hi)
        })
    }

    /// The parts of one computation (each a range of its repeats, as [`compute_part`] gives them)
    /// as one: the repeats in order, as if computed at once.
    pub fn merge(mut parts: Vec<RatingCurves>) -> Result<RatingCurves, String> {
        parts.sort_by_key(|p| p.first_repeat);
        let mut it = parts.into_iter();
        let mut all = it.next().ok_or("nothing to merge")?;
        for p in it {
            let fits = p.first_repeat == all.first_repeat + all.repeats
                && p.grid == all.grid
                && p.items == all.items
                && p.scale == all.scale
                && p.seed == all.seed;
            if !fits {
                return Err("rating curve parts do not fit together".into());
            }
            for (mine, theirs) in all.krr.iter_mut().zip(p.krr) {
                mine.extend(theirs);
            }
            for (mine, theirs) in all.values.iter_mut().zip(p.values) {
                for (a, b) in mine.iter_mut().zip(theirs) {
                    a.extend(b);
                }
            }
            if p.resamples != all.resamples || p.boot.len() != all.boot.len() {
                return Err("rating curve parts do not fit together".into());
            }
            for (a, b) in all.boot.iter_mut().zip(&p.boot) {
                *a += b;
            }
            all.repeats += p.repeats;
        }
        Ok(all)
    }

    /// The Spearman–Brown prediction of the N-rater mean's reliability from the single-rater ICC.
    pub fn spearman_brown(&self, n: u32) -> Option<f64> {
        let r = self.icc1?;
        let k = n as f64;
        Some(k * r / (1.0 + (k - 1.0) * r))
    }
}

/// One point from the repeats' values `v` (`None`s skipped).
fn summary(v: &[Option<f64>], n: u32, items: usize) -> RatingPoint {
    let mut v: Vec<f64> = v.iter().flatten().copied().collect();
    if v.is_empty() {
        let none = None;
        let (mean, lo, hi, sd) = (none, none, none, none);
        return RatingPoint {
            n,
            mean,
            lo,
            hi,
            sd,
            items,
        };
    }
    v.sort_by(f64::total_cmp);
    let k = v.len() as f64;
    let mean = v.iter().sum::<f64>() / k;
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0).max(1.0);
    RatingPoint {
        n,
        mean: Some(mean),
        lo: Some(quantile(&v, 0.025)),
        hi: Some(quantile(&v, 0.975)),
        sd: Some(var.sqrt()),
        items,
    }
}

/// Per item, what every repeat needs: its counts, total, mean and cumulative shares.
struct ItemFacts {
    row: usize,
    total: u32,
    mean: f64,
    /// Cumulative share of all its ratings at each scale step (ascending classes, all but the last).
    cum: Vec<f64>,
    /// Population variance of its ratings (divided by the count).
    var: f64,
}

/// Per grid N, one repeat's sums over items.
#[derive(Clone, Default)]
struct Sums {
    abs: f64,
    sq: f64,
    w1: f64,
    m: f64,
    mm: f64,
    within: f64,
    means: Vec<f64>,
    /// Each item's sum of steps (see [`steps`]), where the scale has them.
    keys: Vec<u32>,
}

/// The rating curves of `table` on `scale` with `cfg`'s grid, repeats and seed (against all the
/// ratings: a held-out reference is refused). `progress` hears the share done after each repeat.
///
/// Without a grid, N runs up to the count [`REACH`](crate::curves::cap::REACH) of the items
/// reach ([`reference_votes`]), where the nominal curves' table is cut: past it a point rests on
/// the few items with the most ratings. Every item keeps all its ratings as the reference.
pub fn compute(
    table: &VoteTable,
    scale: &Scale,
    cfg: &CurveConfig,
    progress: &mut dyn FnMut(f64),
) -> Result<RatingCurves, CurveError> {
    compute_part(table, scale, cfg, 0..cfg.repeats, progress)
}

/// [`compute`] for the repeats in `part` only (the app's workers each take a part;
/// [`RatingCurves::merge`] joins them): repeat r draws what it draws in a whole computation.
pub fn compute_part(
    table: &VoteTable,
    scale: &Scale,
    cfg: &CurveConfig,
    part: std::ops::Range<u32>,
    progress: &mut dyn FnMut(f64),
) -> Result<RatingCurves, CurveError> {
    if cfg.repeats == 0 || part.is_empty() {
        return Err(CurveError::NoRepeats);
    }
    if cfg.reference != Reference::Full {
        return Err(CurveError::RatingsHeldOut);
    }
    let k = table.num_classes();
    assert_eq!(scale.values.len(), k, "one scale value per class");
    let asc = scale.ascending();
    let gaps: Vec<f64> = asc
        .windows(2)
        .map(|w| scale.values[w[1]] - scale.values[w[0]])
        .collect();
    let max_votes = (0..table.num_items())
        .map(|i| table.total(i))
        .max()
        .unwrap_or(0);
    let top = if cfg.grid.is_empty() {
        reference_votes(table)
    } else {
        max_votes
    };
    let grid = grid_of(&cfg.grid, top)?;
    let facts: Vec<ItemFacts> = (0..table.num_items())
        .filter(|&i| table.total(i) > 0)
        .map(|i| item_facts(table, i, scale, &asc))
        .collect();
    let items: Vec<usize> = grid
        .iter()
        .map(|&n| facts.iter().filter(|f| f.total >= n).count())
        .collect();
    let expected_mse = grid
        .iter()
        .map(|&n| {
            let (sum, count) = facts
                .iter()
                .filter(|f| f.total >= n)
                .map(|f| {
                    let (nn, mm) = (n as f64, f.total as f64);
                    if f.total <= 1 {
                        0.0
                    } else {
                        f.var / nn * (mm - nn) / (mm - 1.0)
                    }
                })
                .fold((0.0, 0usize), |(s, c), x| (s + x, c + 1));
            if count == 0 {
                f64::NAN
            } else {
                sum / count as f64
            }
        })
        .collect();
    let mut values = vec![vec![Vec::with_capacity(part.len()); grid.len()]; 5];
    // The all-rating means' ranks at each N (the items scored there are the same in every
    // repeat), so a repeat ranks only its own N-rater means.
    let truth_ranks: Vec<Vec<f64>> = grid
        .iter()
        .map(|&n| {
            let t: Vec<f64> = facts
                .iter()
                .filter(|f| f.total >= n)
                .map(|f| f.mean)
                .collect();
            ranks(&t)
        })
        .collect();
    let mut left = vec![0u32; k];
    let mut drawn = vec![0u32; k];
    let steps = steps(scale);
    let rows: Vec<usize> = facts.iter().map(|f| f.row).collect();
    let mut bands = (cfg.bootstrap > 0).then(|| BandSums::new(&rows, grid.len(), cfg.seed));
    // `drawn` counts by position on the scale, lowest first (the cumulative shares' order).
    let mut pos = vec![0usize; k];
    for (p, &c) in asc.iter().enumerate() {
        pos[c] = p;
    }
    let mut ranker = Vec::new();
    let (first, count) = (part.start, part.len());
    // kRR at each even grid N = 2k: per repeat, Σa, Σb, Σa², Σb², Σab and the count.
    let krr_at: Vec<Option<usize>> = {
        let mut j = 0;
        grid.iter()
            .map(|&n| {
                (n % 2 == 0).then(|| {
                    j += 1;
                    j - 1
                })
            })
            .collect()
    };
    let krr_k: Vec<u32> = grid
        .iter()
        .filter(|&&n| n % 2 == 0)
        .map(|&n| n / 2)
        .collect();
    let mut krr = vec![Vec::with_capacity(part.len()); krr_k.len()];
    let mut prefix = vec![0.0f64; grid.last().map_or(0, |&n| n as usize) + 1];
    for r in part {
        let mut sums = vec![Sums::default(); grid.len()];
        let mut halves = vec![[0.0f64; 6]; krr_k.len()];
        for (fi, f) in facts.iter().enumerate() {
            left.copy_from_slice(table.counts(f.row));
            drawn.fill(0);
            let mut draws = CurveDraws::new(cfg.seed, f.row, r);
            let (mut s, mut q, mut taken, mut key) = (0.0f64, 0.0f64, 0u32, 0u32);
            for (g, &n) in grid.iter().enumerate() {
                if n > f.total {
                    break;
                }
                while taken < n {
                    let c = class_at(&left, draws.below(f.total - taken));
                    left[c] -= 1;
                    drawn[pos[c]] += 1;
                    let v = scale.values[c];
                    s += v;
                    q += v * v;
                    if let Some(st) = &steps {
                        key += st[c];
                    }
                    taken += 1;
                    prefix[taken as usize] = s;
                }
                let nn = n as f64;
                let m = s / nn;
                let e = m - f.mean;
                // Σ |F_N − F| · gap over the scale's steps, from the lowest class up, in counts
                // (|N·F_N − N·F|), divided by N once.
                let mut w1 = 0.0;
                let mut cum = 0u32;
                for j in 0..k - 1 {
                    cum += drawn[j];
                    w1 += (cum as f64 - nn * f.cum[j]).abs() * gaps[j];
                }
                let w1 = w1 / nn;
                let t = &mut sums[g];
                t.abs += e.abs();
                t.sq += e * e;
                t.w1 += w1;
                t.m += m;
                t.mm += m * m;
                let within = (q - s * s / nn).max(0.0);
                t.within += within;
                if let Some(b) = bands.as_mut() {
                    b.add(g, fi, [1.0, e.abs(), e * e, w1, m, m * m, within]);
                }
                if let Some(j) = krr_at[g] {
                    let a = prefix[n as usize / 2];
                    let b = s - a;
                    let h = &mut halves[j];
                    for (x, v) in h.iter_mut().zip([a, b, a * a, b * b, a * b, 1.0]) {
                        *x += v;
                    }
                }
                if steps.is_some() {
                    t.keys.push(key);
                } else {
                    t.means.push(m);
                }
            }
        }
        for (g, t) in sums.iter().enumerate() {
            let (n, count) = (grid[g] as f64, (t.means.len() + t.keys.len()) as f64);
            let defined = count > 0.0;
            let val = [
                defined.then(|| t.abs / count),
                defined.then(|| (t.sq / count).sqrt()),
                icc_k(n, count, t),
                match &steps {
                    Some(st) => {
                        let top = st.iter().max().map_or(0, |&k| k as usize) * grid[g] as usize;
                        pearson(&key_ranks(&t.keys, top, &mut ranker), &truth_ranks[g])
                    }
                    None => pearson(&ranks(&t.means), &truth_ranks[g]),
                },
                defined.then(|| t.w1 / count),
            ];
            for (m, v) in val.into_iter().enumerate() {
                values[m][g].push(v);
            }
        }
        for (j, h) in halves.iter().enumerate() {
            krr[j].push(pearson_of_sums(h));
        }
        progress((r + 1 - first) as f64 / count as f64);
    }
    Ok(RatingCurves {
        scale: scale.clone(),
        grid,
        repeats: count as u32,
        first_repeat: first,
        seed: cfg.seed,
        values,
        items,
        expected_mse,
        icc1: icc1(table, scale),
        krr_k,
        krr,
        boot: bands.map_or_else(Vec::new, |b| b.resampled(cfg.seed, cfg.bootstrap)),
        resamples: cfg.bootstrap,
    })
}

fn item_facts(table: &VoteTable, i: usize, scale: &Scale, asc: &[usize]) -> ItemFacts {
    let c = table.counts(i);
    let total = table.total(i);
    let m = total as f64;
    let mean = c
        .iter()
        .zip(&scale.values)
        .map(|(&n, v)| n as f64 * v)
        .sum::<f64>()
        / m;
    let var = c
        .iter()
        .zip(&scale.values)
        .map(|(&n, v)| n as f64 * (v - mean).powi(2))
        .sum::<f64>()
        / m;
    let mut cum = 0.0;
    let cum = asc[..asc.len() - 1]
        .iter()
        .map(|&k| {
            cum += c[k] as f64;
            cum / m
        })
        .collect();
    ItemFacts {
        row: i,
        total,
        mean,
        cum,
        var,
    }
}

/// Pearson's r from [Σa, Σb, Σa², Σb², Σab, count]; undefined for fewer than 3 items or no spread.
fn pearson_of_sums(&[a, b, aa, bb, ab, c]: &[f64; 6]) -> Option<f64> {
    if c < 3.0 {
        return None;
    }
    let sab = ab - a * b / c;
    let (saa, sbb) = (aa - a * a / c, bb - b * b / c);
    (saa > 1e-12 && sbb > 1e-12).then(|| (sab / (saa * sbb).sqrt()).clamp(-1.0, 1.0))
}

/// ICC(1,k) of `count` items' k = `n`-rater means: (MSB − MSW)/MSB from the one-way ANOVA;
/// undefined for one rater (no within-item variance) or one item.
fn icc_k(n: f64, count: f64, t: &Sums) -> Option<f64> {
    if n < 2.0 || count < 2.0 {
        return None;
    }
    let grand = t.m / count;
    let msb = n * (t.mm - count * grand * grand) / (count - 1.0);
    let msw = t.within / (count * (n - 1.0));
    (msb > 0.0).then(|| (msb - msw) / msb)
}

/// The single-rater ICC(1) of all the ratings, one-way and unbalanced: (MSB − MSW)/(MSB + (k₀ −
/// 1)·MSW) with k₀ = (N − Σ Mᵢ²/N)/(n − 1) raters per item (k₀ = k when every item has k).
pub fn icc1(table: &VoteTable, scale: &Scale) -> Option<f64> {
    super::answer::single_rater_icc(table, scale)
}

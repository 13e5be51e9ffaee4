//! Intervals over items: how much a curve, a saturation point or an ε-point would move if the
//! same study had drawn other items from the same population.
//!
//! The repeats' intervals (`CurvePoint::lo/hi`) say how much one collection of N annotators
//! varies *for these very items*. A user's question is about their item population, so every
//! headline also gets an **item bootstrap**: B resamples of the items with replacement (seeded;
//! resample b uses the same weights for every N and every metric, so resampled curves stay
//! paired), each giving a whole mean curve, from which the saturation point, the ε-point and the
//! curve band are read the same way as from the data's own mean curve.
//!
//! Cheap by construction: the engine adds every item's per-N values, summed over the repeats it
//! computes, into one cell per (unit, N) — jsd, kl, majority agreement and the entropy
//! correlation's x, x², x·y — so a resample is a weighted sum of cells and nothing is drawn
//! again. Entropy correlation is recomputed per resample from its weighted sums (a weighted
//! Pearson over items of the repeat-averaged moments), not averaged.
//!
//! **Exact for any split of the repeats.** Cells hold fixed-point integers (`scale` = a power of
//! two chosen so no sum can overflow), and a part's resampled sums are integers too, so parts
//! computed by different threads or browser workers add up to the same bits in any order: the
//! CLI and the app print the same intervals.
//!
//! **Large files.** When items × N would exceed [`MAX_CELLS`] cells, items are dealt at random
//! (seeded) into that many blocks and blocks are resampled instead of items (a block bootstrap:
//! with a random partition, a block's sum has the variance of its items', so the interval is for
//! the same population). [`BootSums::blocks`] says which was done, and the CLI and app say so.

use super::saturation::{crossing, grid_at_or_past};
use super::{fractions, Metric};
use crate::sample;
use serde::{Deserialize, Serialize};

/// Resamples when a caller asks for the default.
pub const DEFAULT_RESAMPLES: u32 = 200;
/// Most (unit, N) cells kept per computation (6 integers each: 29 MB at the cap).
pub const MAX_CELLS: usize = 600_000;
/// Fewest units a block bootstrap uses, whatever the grid.
const MIN_UNITS: usize = 200;
/// Per cell: jsd, kl, majority agreement, x, x², x·y (x: H(p_N), y: centred H(p_ref)).
pub(super) const STATS: usize = 6;

const PURPOSE_RESAMPLE: u64 = 0xB_00;
const PURPOSE_BLOCKS: u64 = 0xB_01;

/// Each used item's unit (items themselves, or random blocks past [`MAX_CELLS`]), the number of
/// units and whether they are blocks: `rows` are the used items' table rows, `ng` the grid's size.
fn unit_assignment(rows: &[usize], ng: usize, seed: u64) -> (Vec<u32>, usize, bool) {
    let cap = (MAX_CELLS / ng.max(1)).max(MIN_UNITS);
    units_of(rows, cap, (seed, PURPOSE_BLOCKS))
}

/// Each row's unit among at most `cap`: the rows themselves, or — with more rows — random blocks
/// (row r's block drawn from the stream (seed, purpose, r)); with the number of units and whether
/// they are blocks. The one rule of every item bootstrap (nominal, multilabel, rating curves).
pub(crate) fn units_of(
    rows: &[usize],
    cap: usize,
    (seed, purpose): (u64, u64),
) -> (Vec<u32>, usize, bool) {
    let n = rows.len();
    let blocks = n > cap;
    let count = if blocks { cap } else { n };
    let unit_of = if blocks {
        rows.iter()
            .map(|&r| {
                let mut rng = sample::stream(seed, purpose, r as u64, 0);
                sample::below(&mut rng, count as u32)
            })
            .collect()
    } else {
        (0..n as u32).collect()
    };
    (unit_of, count, blocks)
}

/// Resample b's multinomial weights over `w.len()` units (seeded by (seed, b) only).
pub(crate) fn unit_weights(seed: u64, b: u32, w: &mut [u32]) {
    w.fill(0);
    let count = w.len() as u32;
    let mut rng = sample::stream(seed, PURPOSE_RESAMPLE, b as u64, 0);
    for _ in 0..count {
        w[sample::below(&mut rng, count) as usize] += 1;
    }
}

/// Resample b's weight of every used item — its unit's weight — exactly as the curves' bootstrap
/// with this seed and grid size draws it: what another quantity over the same items (a second vote
/// source scored against the same reference) uses to stay paired with the resampled curves.
pub(crate) fn item_weights(rows: &[usize], ng: usize, seed: u64, b: u32) -> Vec<u32> {
    let (unit_of, count, _) = unit_assignment(rows, ng, seed);
    let mut w = vec![0u32; count];
    unit_weights(seed, b, &mut w);
    unit_of.iter().map(|&u| w[u as usize]).collect()
}

/// Which unit each used item belongs to, the fixed-point scale, and the units' item-side sums.
pub(super) struct Units {
    pub(super) unit_of: Vec<u32>,
    pub(super) count: usize,
    pub(super) blocks: bool,
    pub(super) scale: f64,
    pub(super) resamples: u32,
    pub(super) seed: u64,
    /// Per (unit, g): items, Σ y, Σ y² (the same in every part).
    ys: Vec<[f64; 3]>,
}

impl Units {
    /// `rows[i]`, `lens[i]`, `ys[i]`: each used item's table row, votes to draw from and centred
    /// reference entropy; `vmax` bounds |value| of every statistic; `repeats` is the whole
    /// computation's.
    pub(super) fn new(
        rows: &[usize],
        lens: &[usize],
        y: &[f64],
        grid: &[u32],
        (resamples, seed, repeats, vmax): (u32, u64, u32, f64),
    ) -> Units {
        let ng = grid.len().max(1);
        let (unit_of, count, blocks) = unit_assignment(rows, ng, seed);
        let mut size = vec![0u64; count];
        for &u in &unit_of {
            size[u as usize] += 1;
        }
        let largest = size.iter().copied().max().unwrap_or(1).max(1);
        // A resample's sum is at most (units × largest unit) items × repeats × vmax × scale.
        let bound = vmax * repeats.max(1) as f64 * (count as f64 * largest as f64).max(1.0);
        // At most 2^-40 resolution; coarser (even above 1) only as far as no sum can overflow.
        let bits = (61.0 - libm::log2(bound).ceil()).min(40.0);
        let scale = libm::exp2(bits);
        let mut ys = vec![[0.0; 3]; count * ng];
        for (i, &u) in unit_of.iter().enumerate() {
            for (g, &nn) in grid.iter().enumerate() {
                if nn as usize <= lens[i] {
                    let c = &mut ys[u as usize * ng + g];
                    c[0] += 1.0;
                    c[1] += y[i];
                    c[2] += y[i] * y[i];
                }
            }
        }
        Units {
            unit_of,
            count,
            blocks,
            scale,
            resamples,
            seed,
            ys,
        }
    }

    /// Resample b's multinomial weights over the units (seeded by (seed, b) only).
    fn weights(&self, b: u32, w: &mut [u32]) {
        unit_weights(self.seed, b, w);
    }

    /// This part's cells (units × ng × STATS) turned into every resample's weighted sums;
    /// `progress(done, total)` after each resample.
    pub(super) fn resample(
        &self,
        cells: &[i64],
        ng: usize,
        progress: &mut impl FnMut(usize, usize),
    ) -> BootSums {
        let nb = self.resamples as usize;
        let mut sums = vec![0i64; nb * ng * STATS];
        let mut ys = vec![0.0f64; nb * ng * 3];
        let mut w = vec![0u32; self.count];
        for b in 0..nb {
            self.weights(b as u32, &mut w);
            let s = &mut sums[b * ng * STATS..(b + 1) * ng * STATS];
            let t = &mut ys[b * ng * 3..(b + 1) * ng * 3];
            for (u, &wu) in w.iter().enumerate() {
                if wu == 0 {
                    continue;
                }
                let c = &cells[u * ng * STATS..(u + 1) * ng * STATS];
                for (a, &v) in s.iter_mut().zip(c) {
                    *a += wu as i64 * v;
                }
                let yu = &self.ys[u * ng..(u + 1) * ng];
                for (a, v) in t.chunks_exact_mut(3).zip(yu) {
                    for j in 0..3 {
                        a[j] += wu as f64 * v[j];
                    }
                }
            }
            progress(b + 1, nb);
        }
        BootSums {
            resamples: self.resamples,
            units: self.count as u32,
            blocks: self.blocks,
            scale: self.scale,
            sums,
            ys,
        }
    }
}

/// One part's resampled sums (a computation over some of the repeats); parts add up exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootSums {
    pub resamples: u32,
    /// Items, or blocks of items when `blocks`.
    pub units: u32,
    pub blocks: bool,
    /// Fixed-point scale of `sums`.
    pub scale: f64,
    /// `[b][g][stat]`: Σ over units of weight × (Σ over the part's repeats and the unit's items).
    pub sums: Vec<i64>,
    /// `[b][g][3]`: Σ weight × items, Σ weight × y, Σ weight × y² (equal in every part).
    pub ys: Vec<f64>,
}

impl BootSums {
    /// Adds another part's sums (same resamples and units).
    pub(super) fn add(&mut self, o: &BootSums) -> Result<(), String> {
        if (o.resamples, o.units, o.blocks, o.scale)
            != (self.resamples, self.units, self.blocks, self.scale)
            || o.sums.len() != self.sums.len()
            || o.ys != self.ys
        {
            return Err("bootstrap parts do not fit together".into());
        }
        for (a, b) in self.sums.iter_mut().zip(&o.sums) {
            *a += b;
        }
        Ok(())
    }

    /// Every resample's mean curves, for `repeats` repeats in all.
    pub(super) fn bands(&self, grid: &[u32], repeats: u32) -> ItemBands {
        let (nb, ng) = (self.resamples as usize, grid.len());
        let mut means: [Vec<f64>; 4] = std::array::from_fn(|_| vec![f64::NAN; nb * ng]);
        let per = self.scale * repeats as f64;
        for b in 0..nb {
            for g in 0..ng {
                let s = &self.sums[(b * ng + g) * STATS..(b * ng + g + 1) * STATS];
                let y = &self.ys[(b * ng + g) * 3..(b * ng + g + 1) * 3];
                let ni = y[0];
                if ni < 1.0 {
                    continue;
                }
                let idx = b * ng + g;
                let v = |j: usize| s[j] as f64 / per;
                means[Metric::Jsd.index()][idx] = v(0) / ni;
                means[Metric::Kl.index()][idx] = v(1) / ni;
                means[Metric::MajorityAgreement.index()][idx] = v(2) / ni;
                let (sx, sxx, sxy, sy, syy) = (v(3), v(4), v(5), y[1], y[2]);
                let vx = sxx - sx * sx / ni;
                let vy = syy - sy * sy / ni;
                if ni >= 2.0 && vx > 1e-9 * sxx.abs().max(1e-300) && vy > 1e-12 * syy {
                    let cov = sxy - sx * sy / ni;
                    means[Metric::EntropyCorr.index()][idx] =
                        (cov / libm::sqrt(vx * vy)).clamp(-1.0, 1.0);
                }
            }
        }
        ItemBands {
            grid: grid.to_vec(),
            resamples: self.resamples,
            blocks: self.blocks,
            units: self.units,
            means,
        }
    }
}

/// Every item resample's mean curves: `means[metric][b * grid.len() + g]` (NaN: undefined).
/// Made by the curves' item bootstrap and by the extrapolation's (which refits the prior per
/// resample); read the same way by both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemBands {
    pub grid: Vec<u32>,
    pub resamples: u32,
    pub blocks: bool,
    pub units: u32,
    #[serde(with = "super::nan_as_null")]
    pub means: [Vec<f64>; 4],
}

/// An interval over item resamples for a point read off each resample's curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ItemInterval {
    /// The grid N at or past `lo_n` and `hi_n`; `None` past the grid's last N.
    pub lo: Option<u32>,
    pub hi: Option<u32>,
    pub resamples: u32,
    /// Resamples whose curve never reaches the point within the grid.
    pub not_reached: u32,
    /// 2.5th and 97.5th percentiles of the resamples' continuous crossings
    /// ([`super::saturation::crossing`]); `None` where that share never reach it.
    pub lo_n: Option<f64>,
    pub hi_n: Option<f64>,
}

/// A closed interval over 200 resamples, for tests that build answers by hand.
#[cfg(test)]
pub(crate) fn closed(lo: u32, hi: u32) -> ItemInterval {
    ItemInterval {
        lo: Some(lo),
        hi: Some(hi),
        resamples: 200,
        not_reached: 0,
        lo_n: Some(lo as f64),
        hi_n: Some(hi as f64),
    }
}

impl ItemBands {
    /// From whole curves computed per resample (`curves[b][metric][g]`).
    pub fn from_resample_curves(grid: Vec<u32>, curves: &[[Vec<Option<f64>>; 4]]) -> ItemBands {
        let ng = grid.len();
        let mut means: [Vec<f64>; 4] =
            std::array::from_fn(|_| Vec::with_capacity(curves.len() * ng));
        for c in curves {
            for m in 0..4 {
                debug_assert_eq!(c[m].len(), ng);
                means[m].extend(c[m].iter().map(|v| v.unwrap_or(f64::NAN)));
            }
        }
        ItemBands {
            grid,
            resamples: curves.len() as u32,
            blocks: false,
            units: 0,
            means,
        }
    }

    /// Resample b's mean curve of `metric`.
    pub fn curve(&self, metric: Metric, b: usize) -> Vec<Option<f64>> {
        let ng = self.grid.len();
        self.means[metric.index()][b * ng..(b + 1) * ng]
            .iter()
            .map(|&v| (!v.is_nan()).then_some(v))
            .collect()
    }

    fn at(&self, metric: Metric, g: usize) -> Vec<f64> {
        let ng = self.grid.len();
        let mut v: Vec<f64> = (0..self.resamples as usize)
            .map(|b| self.means[metric.index()][b * ng + g])
            .filter(|v| !v.is_nan())
            .collect();
        v.sort_by(f64::total_cmp);
        v
    }

    /// The 2.5th–97.5th percentile band of the mean curve at grid index `g`.
    pub fn band(&self, metric: Metric, g: usize) -> (Option<f64>, Option<f64>) {
        let v = self.at(metric, g);
        if v.is_empty() {
            return (None, None);
        }
        (
            Some(super::quantile(&v, 0.025)),
            Some(super::quantile(&v, 0.975)),
        )
    }

    /// Standard deviation of the mean curve over resamples (the bootstrap standard error).
    pub fn se(&self, metric: Metric, g: usize) -> Option<f64> {
        let v = self.at(metric, g);
        (v.len() > 1).then(|| {
            let m = v.iter().sum::<f64>() / v.len() as f64;
            libm::sqrt(v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() - 1) as f64)
        })
    }

    fn interval(&self, points: Vec<Option<f64>>) -> ItemInterval {
        item_interval(&self.grid, points)
    }

    /// The item interval of "x of the improvement by N" (the same rule as the mean curve's).
    pub fn saturation(&self, metric: Metric, x: f64) -> ItemInterval {
        let pts = (0..self.resamples as usize)
            .map(|b| {
                crossing(
                    &self.grid,
                    &fractions(&self.curve(metric, b), metric),
                    x,
                    true,
                )
            })
            .collect();
        self.interval(pts)
    }

    /// The item interval of the smallest N within `eps` ([`first_within`]).
    pub fn within(&self, metric: Metric, eps: f64) -> ItemInterval {
        let pts = (0..self.resamples as usize)
            .map(|b| {
                crossing(
                    &self.grid,
                    &self.curve(metric, b),
                    eps,
                    !metric.lower_is_better(),
                )
            })
            .collect();
        self.interval(pts)
    }
}

/// The 95% interval of points read off resample curves (continuous crossings; `None`: never
/// reached, which sorts past the grid), with its grid N: shared by every bootstrap that reads
/// saturation points (the single-label curves, the extrapolation, the multilabel curves).
pub fn item_interval(grid: &[u32], mut points: Vec<Option<f64>>) -> ItemInterval {
    // Not reached sorts last (beyond the grid).
    points.sort_by(|a, b| {
        a.unwrap_or(f64::INFINITY)
            .total_cmp(&b.unwrap_or(f64::INFINITY))
    });
    let not_reached = points.iter().filter(|p| p.is_none()).count() as u32;
    if points.is_empty() {
        return ItemInterval {
            lo: None,
            hi: None,
            resamples: 0,
            not_reached: 0,
            lo_n: None,
            hi_n: None,
        };
    }
    let last = (points.len() - 1) as f64;
    let (lo_n, hi_n) = (
        points[(0.025 * last).floor() as usize],
        points[(0.975 * last).ceil() as usize],
    );
    let on_grid = |c: Option<f64>| c.and_then(|c| grid_at_or_past(grid, c));
    ItemInterval {
        lo: on_grid(lo_n),
        hi: on_grid(hi_n),
        resamples: points.len() as u32,
        not_reached,
        lo_n,
        hi_n,
    }
}

/// The smallest grid N whose value is within `eps` of the reference: at most `eps` for a distance
/// (jsd, kl), at least `eps` as a level for agreement and correlation.
pub fn first_within(grid: &[u32], values: &[Option<f64>], metric: Metric, eps: f64) -> Option<u32> {
    values
        .iter()
        .zip(grid)
        .find(|(v, _)| {
            v.is_some_and(|v| {
                if metric.lower_is_better() {
                    v <= eps
                } else {
                    v >= eps
                }
            })
        })
        .map(|(_, &n)| n)
}

/// The default tolerance per metric: KL 0.05 nats, JS distance 0.1, entropy correlation 0.9 and
/// majority agreement 0.95 as levels.
pub fn default_eps(metric: Metric) -> f64 {
    match metric {
        Metric::Kl => 0.05,
        Metric::Jsd => 0.1,
        Metric::EntropyCorr => 0.9,
        Metric::MajorityAgreement => 0.95,
    }
}

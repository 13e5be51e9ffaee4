//! The multilabel item bootstrap: how much the curves and their saturation points would move with
//! other items from the same population.
//!
//! As in the single-label bootstrap ([`crate::curves::bootstrap`]), every item's values are summed
//! over the repeats into one cell per (unit, N) while the curves are computed, and a resample is a
//! weighted sum of cells: nothing is drawn again, and resample b uses the same unit weights for
//! every N, metric and label, so resampled curves stay paired. The additive metrics (kl, jsd,
//! brier, soft_bce, exact_set, per-label jsd) are weighted means; F1 is recomputed from the
//! weighted true/false positive and negative counts and the entropy correlation from weighted
//! moments, pooled over the repeats (a repeat's sample and the others' differ by sampling noise
//! only, so pooling changes the statistic by far less than the interval's width).
//!
//! Files whose cells would pass [`MAX_CELL_BYTES`] are dealt at random (seeded) into blocks, and
//! blocks are resampled instead of items; [`MlBands::blocks`] says so.

use super::item_stats::{macro_micro, pearson_from, ItemAt};
use super::metric::MlMetric;
use super::table::MultilabelTable;
use crate::curves::bootstrap::{item_interval, ItemInterval};
use crate::curves::saturation::{crossing, improvement_fractions};
use crate::sample;
use serde::{Deserialize, Serialize};

/// Most bytes the cells take (the app's worker holds them next to the table).
pub const MAX_CELL_BYTES: usize = 96 << 20;
/// Fewest units a block bootstrap uses.
const MIN_UNITS: usize = 200;
/// Float stats per cell before the per-label JS distances: kl, jsd, brier, soft_bce, exact, x, x²,
/// x·y_c, y_c, y_c².
const FLOATS: usize = 10;
const PURPOSE_RESAMPLE: u64 = 0xB31;
const PURPOSE_BLOCKS: u64 = 0xB32;

/// Per (unit, N) sums over items and repeats.
pub(super) struct Cells {
    unit_of: Vec<u32>,
    units: usize,
    blocks: bool,
    ng: usize,
    nl: usize,
    seed: u64,
    /// `[unit][g][FLOATS + nl]`.
    f: Vec<f64>,
    /// `[unit][g][1 + 3 nl]`: item-repeats, then tp, fp, fn per label.
    u: Vec<u32>,
}

impl Cells {
    pub(super) fn new(table: &MultilabelTable, ng: usize, nl: usize, seed: u64) -> Self {
        let per_unit = ng * ((FLOATS + nl) * 8 + (1 + 3 * nl) * 4);
        let cap = (MAX_CELL_BYTES / per_unit).max(MIN_UNITS);
        let rows: Vec<usize> = (0..table.n_items()).collect();
        let (unit_of, units, blocks) =
            crate::curves::bootstrap::units_of(&rows, cap, (seed, PURPOSE_BLOCKS));
        Cells {
            unit_of,
            units,
            blocks,
            ng,
            nl,
            seed,
            f: vec![0.0; units * ng * (FLOATS + nl)],
            u: vec![0; units * ng * (1 + 3 * nl)],
        }
    }

    /// Adds item i's values at grid index g for one repeat.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn add(
        &mut self,
        i: usize,
        g: usize,
        at: &ItemAt,
        exact: f64,
        yc: f64,
        per_label: &[f64],
        (tp, fp, fn_): (u64, u64, u64),
    ) {
        let cell = self.unit_of[i] as usize * self.ng + g;
        let nf = FLOATS + self.nl;
        let f = &mut self.f[cell * nf..(cell + 1) * nf];
        let stats = at.sums(exact, yc).into_iter().chain([yc, yc * yc]);
        for (slot, v) in f.iter_mut().zip(stats.chain(per_label.iter().copied())) {
            *slot += v;
        }
        let nu = 1 + 3 * self.nl;
        let u = &mut self.u[cell * nu..(cell + 1) * nu];
        u[0] += 1;
        for (bits, o) in [(tp, 1), (fp, 2), (fn_, 3)] {
            let mut b = bits;
            while b != 0 {
                u[b.trailing_zeros() as usize * 3 + o] += 1;
                b &= b - 1;
            }
        }
    }

    /// The resampled curves.
    pub(super) fn resample(&self, grid: &[u32], resamples: u32) -> MlBands {
        let (ng, nl) = (self.ng, self.nl);
        let (nf, nu) = (FLOATS + nl, 1 + 3 * nl);
        let nm = MlMetric::ALL.len();
        let mut curves = vec![f64::NAN; resamples as usize * nm * ng];
        let mut label = vec![f64::NAN; resamples as usize * nl * ng];
        let mut w = vec![0u32; self.units];
        let mut fs = vec![0.0f64; ng * nf];
        let mut us = vec![0u64; ng * nu];
        for b in 0..resamples as usize {
            w.fill(0);
            let mut rng = sample::stream(self.seed, PURPOSE_RESAMPLE, b as u64, 0);
            for _ in 0..self.units {
                w[sample::below(&mut rng, self.units as u32) as usize] += 1;
            }
            fs.fill(0.0);
            us.fill(0);
            for (unit, &wu) in w.iter().enumerate().filter(|(_, &wu)| wu > 0) {
                let base = unit * ng;
                for g in 0..ng {
                    let (wf, wi) = (wu as f64, wu as u64);
                    let src = &self.f[(base + g) * nf..(base + g + 1) * nf];
                    for (d, s) in fs[g * nf..(g + 1) * nf].iter_mut().zip(src) {
                        *d += wf * s;
                    }
                    let src = &self.u[(base + g) * nu..(base + g + 1) * nu];
                    for (d, &s) in us[g * nu..(g + 1) * nu].iter_mut().zip(src) {
                        *d += wi * s as u64;
                    }
                }
            }
            for g in 0..ng {
                let f = &fs[g * nf..(g + 1) * nf];
                let u = &us[g * nu..(g + 1) * nu];
                let n = u[0] as f64;
                if n == 0.0 {
                    continue;
                }
                // Weighted Pearson over (item, repeat) pairs, y_c not centred in the resample.
                let (mx, my) = (f[5] / n, f[8] / n);
                let sxy = f[7] - n * mx * my;
                let syy = f[9] - n * my * my;
                let (macro_f1, micro_f1) =
                    macro_micro((0..nl).map(|l| (u[1 + l * 3], u[2 + l * 3], u[3 + l * 3])));
                let v = [
                    f[0] / n,
                    f[1] / n,
                    f[2] / n,
                    f[3] / n,
                    pearson_from(n, f[5], f[6], sxy, syy),
                    macro_f1,
                    micro_f1,
                    f[4] / n,
                ];
                for (m, v) in MlMetric::ALL.iter().zip(v) {
                    curves[(b * nm + m.index()) * ng + g] = v;
                }
                for l in 0..nl {
                    label[(b * nl + l) * ng + g] = f[FLOATS + l] / n;
                }
            }
        }
        MlBands {
            grid: grid.to_vec(),
            resamples,
            blocks: self.blocks,
            units: self.units as u32,
            labels: nl as u32,
            curves,
            label,
        }
    }
}

/// The curves of every item resample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MlBands {
    pub grid: Vec<u32>,
    pub resamples: u32,
    /// Whether blocks of items were resampled (a large file) rather than items.
    pub blocks: bool,
    pub units: u32,
    labels: u32,
    /// `[b][metric][g]`, NaN where undefined.
    #[serde(skip)]
    curves: Vec<f64>,
    /// `[b][label][g]`: per-label JS distance.
    #[serde(skip)]
    label: Vec<f64>,
}

impl MlBands {
    fn slice(v: &[f64], row: usize, ng: usize) -> Vec<Option<f64>> {
        v[row * ng..(row + 1) * ng]
            .iter()
            .map(|&x| (!x.is_nan()).then_some(x))
            .collect()
    }

    /// Resample b's curve of `metric`.
    pub fn curve(&self, metric: MlMetric, b: usize) -> Vec<Option<f64>> {
        let nm = MlMetric::ALL.len();
        Self::slice(&self.curves, b * nm + metric.index(), self.grid.len())
    }

    /// The 2.5–97.5th percentile band of `metric` at grid index g over resamples.
    pub fn band(&self, metric: MlMetric, g: usize) -> (Option<f64>, Option<f64>) {
        let mut v: Vec<f64> = (0..self.resamples as usize)
            .filter_map(|b| self.curve(metric, b)[g])
            .collect();
        if v.is_empty() {
            return (None, None);
        }
        v.sort_by(f64::total_cmp);
        (
            Some(crate::curves::quantile(&v, 0.025)),
            Some(crate::curves::quantile(&v, 0.975)),
        )
    }

    /// The item interval of "x of the improvement by N" for `metric`.
    pub fn saturation(&self, metric: MlMetric, x: f64) -> ItemInterval {
        self.interval(
            (0..self.resamples as usize).map(|b| self.curve(metric, b)),
            metric.zero_if_undefined(),
            x,
        )
    }

    /// The item interval of "x of the improvement by N" for label l's JS distance.
    pub fn label_saturation(&self, l: usize, x: f64) -> ItemInterval {
        let ng = self.grid.len();
        let nl = self.labels as usize;
        self.interval(
            (0..self.resamples as usize).map(|b| Self::slice(&self.label, b * nl + l, ng)),
            false,
            x,
        )
    }

    fn interval(
        &self,
        curves: impl Iterator<Item = Vec<Option<f64>>>,
        zero_if_undefined: bool,
        x: f64,
    ) -> ItemInterval {
        let pts = curves
            .map(|c| {
                crossing(
                    &self.grid,
                    &improvement_fractions(&c, zero_if_undefined),
                    x,
                    true,
                )
            })
            .collect();
        item_interval(&self.grid, pts)
    }
}

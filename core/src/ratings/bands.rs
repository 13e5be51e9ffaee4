//! The rating curves' item bootstrap: how much a point would move for another set of items from
//! the same population. Each item's contributions at each N (its |m_N − m|, (m_N − m)², its
//! Wasserstein distance and the ANOVA sums of its N-rater mean), summed over the repeats, are
//! reweighted by B multinomial resamples of the items — random blocks of items past [`UNITS`], as
//! the nominal curves' bootstrap does past its cells — with `curves::bootstrap`'s weights, seeded
//! by the curves' seed only, so every part of the repeats draws the same resamples and the parts'
//! sums add ([`RatingCurves::merge`](super::RatingCurves::merge)). The rank correlation is not a
//! sum over items: its band stays over the repeats.

use crate::curves::bootstrap::{unit_weights, units_of};

/// Most units the items are resampled in (past it, random blocks of items).
const UNITS: usize = 1000;
const PURPOSE_RATING_BLOCKS: u64 = 0xB_2A;
/// The sums kept per (N, unit): items, Σ|e|, Σe², ΣW₁, Σm, Σm², Σ within-item squares.
pub(super) const K: usize = 7;

/// One part's sums per (N, unit), over its repeats.
pub(super) struct BandSums {
    unit_of: Vec<u32>,
    units: usize,
    acc: Vec<f64>,
}

impl BandSums {
    /// For items at table rows `rows` (the curves' item order) over `ng` grid points.
    pub(super) fn new(rows: &[usize], ng: usize, seed: u64) -> BandSums {
        let (unit_of, units, _) = units_of(rows, UNITS, (seed, PURPOSE_RATING_BLOCKS));
        BandSums {
            unit_of,
            units,
            acc: vec![0.0; ng * units * K],
        }
    }

    /// Item `i`'s (its index among the rows) contributions at grid point `g`.
    pub(super) fn add(&mut self, g: usize, i: usize, v: [f64; K]) {
        let at = (g * self.units + self.unit_of[i] as usize) * K;
        for (a, x) in self.acc[at..at + K].iter_mut().zip(v) {
            *a += x;
        }
    }

    /// Each resample's sums per grid point, `[b][g][k]`, for `resamples` resamples seeded by
    /// `seed`.
    pub(super) fn resampled(&self, seed: u64, resamples: u32) -> Vec<f64> {
        let ng = self.acc.len() / (self.units * K).max(1);
        let mut out = vec![0.0; resamples as usize * ng * K];
        let mut w = vec![0u32; self.units];
        for b in 0..resamples as usize {
            unit_weights(seed, b as u32, &mut w);
            for g in 0..ng {
                let o = (b * ng + g) * K;
                for (u, &wu) in w.iter().enumerate() {
                    if wu == 0 {
                        continue;
                    }
                    let a = (g * self.units + u) * K;
                    for k in 0..K {
                        out[o + k] += wu as f64 * self.acc[a + k];
                    }
                }
            }
        }
        out
    }
}

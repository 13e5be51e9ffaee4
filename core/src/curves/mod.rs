//! Target-side saturation curves: how close does a label distribution built from N annotators get
//! to the full (or a held-out) human distribution, as N grows?
//!
//! For each N in a grid and each of R seeded repeats, every item's votes are subsampled to N
//! (without replacement) giving p_N, and four metrics are averaged over items:
//! - `jsd`: Jensen–Shannon distance between p_N and p_ref;
//! - `entropy_corr`: Pearson over items of H(p_N) vs H(p_ref) (undefined at N = 1);
//! - `kl`: KL(p_ref ‖ p̃_N), p̃_N add-α smoothed (α = 1/K by default);
//! - `majority_agreement`: tie credit that p_N's majority is p_ref's (see [`crate::metrics::calibration`]).
//!
//! Each metric gets a mean and a 95% interval (2.5th–97.5th percentile over repeats), and
//! [`Curves::saturation`] finds the smallest N that captures x% of the N=1 → N=max improvement.
//!
//! **Items with fewer than N votes** are left out at that N (never padded or reused): the curve at N
//! describes the items that can have N annotators, and [`Curves::items`] reports how many did.
//!
//! Speed (see `engine`): one sequence of draws per item and repeat gives every N as a prefix, the
//! metric sums are updated incrementally, all logs are integer table look-ups, and four repeats run
//! side by side.

pub mod bootstrap;
pub mod cap;
pub mod crossed;
mod engine;
pub(crate) mod export;
mod items;
pub mod saturation;

pub use bootstrap::{default_eps, first_within, BootSums, ItemBands, ItemInterval};
pub use items::{item_draws, ItemDraw};
pub(crate) use saturation::fractions;
pub use saturation::{bounded_by_votes, Saturation};

use crate::sample::{split_heldout, HeldOutSplit};
use crate::votes::VoteTable;
use serde::{Deserialize, Serialize};

/// The four target-side metrics, in output order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    Jsd,
    EntropyCorr,
    Kl,
    MajorityAgreement,
}

impl Metric {
    pub const ALL: [Metric; 4] = [
        Metric::Jsd,
        Metric::EntropyCorr,
        Metric::Kl,
        Metric::MajorityAgreement,
    ];

    /// The name used in the CLI, CSV/JSON output and the app.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Jsd => "jsd",
            Metric::EntropyCorr => "entropy_corr",
            Metric::Kl => "kl",
            Metric::MajorityAgreement => "majority_agreement",
        }
    }

    pub fn from_name(s: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == s)
    }

    /// Whether smaller values are better (distances) or larger (agreement, correlation).
    pub fn lower_is_better(self) -> bool {
        matches!(self, Metric::Jsd | Metric::Kl)
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// What p_N is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Reference {
    /// All of the item's votes (p_full); subsampling draws from the same votes.
    Full,
    /// Disjoint annotators: a seeded `fraction` of each item's votes (set B) is the reference and
    /// p_N is drawn from the rest (set A), so evaluation is not circular.
    HeldOut { fraction: f64 },
}

/// Settings of one curve computation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CurveConfig {
    /// N values; empty means 1..=max votes. Sorted and de-duplicated before use; values above the
    /// largest number of votes an item has to draw from are dropped (callers compare with
    /// [`Curves::grid`] to tell the user).
    pub grid: Vec<u32>,
    pub repeats: u32,
    pub seed: u64,
    /// Add-α smoothing for `kl`; `None` means 1/K.
    pub alpha: Option<f64>,
    pub reference: Reference,
    /// Item-bootstrap resamples (0: none); see [`bootstrap`].
    #[serde(default)]
    pub bootstrap: u32,
}

impl Default for CurveConfig {
    fn default() -> Self {
        CurveConfig {
            grid: Vec::new(),
            repeats: 50,
            seed: 42,
            alpha: None,
            reference: Reference::Full,
            bootstrap: 0,
        }
    }
}

/// Why a configuration cannot be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CurveError {
    #[error("repeats must be at least 1")]
    NoRepeats,
    #[error("alpha must be a positive finite number (got {0}); it keeps KL finite when N votes miss a class")]
    BadAlpha(f64),
    #[error("the held-out fraction must be strictly between 0 and 1 (got {0})")]
    BadFraction(f64),
    #[error("N must be at least 1")]
    ZeroN,
    #[error("no item has enough votes for any requested N (largest vote count {max_votes})")]
    NothingToCompute { max_votes: u32 },
    #[error("every item has at most one vote to subsample from (after any held-out split), so N = 1 is all there is and nothing can saturate; the curves need items with at least 2 votes (more votes per item give longer curves)")]
    OneVoteEach,
    #[error("rating curves are computed against all the ratings: a held-out reference is not offered for them")]
    RatingsHeldOut,
}

/// One metric at one N: mean and 95% interval over repeats.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub n: u32,
    /// `None` when undefined in every repeat (e.g. `entropy_corr` at N = 1) or no item has N votes.
    pub mean: Option<f64>,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    /// Standard deviation over the defined repeats (sample, n − 1); `None` with fewer than 2.
    pub sd: Option<f64>,
}

impl CurvePoint {
    /// The summary of one N's defined per-repeat values: mean, 2.5th–97.5th percentiles, sample
    /// standard deviation (shared by the curves and the agreement curve).
    pub(crate) fn of_repeats(n: u32, mut v: Vec<f64>) -> CurvePoint {
        if v.is_empty() {
            return CurvePoint {
                n,
                mean: None,
                lo: None,
                hi: None,
                sd: None,
            };
        }
        v.sort_by(f64::total_cmp);
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let sd = (v.len() > 1).then(|| {
            let ss: f64 = v.iter().map(|x| (x - mean) * (x - mean)).sum();
            libm::sqrt(ss / (v.len() - 1) as f64)
        });
        CurvePoint {
            n,
            mean: Some(mean),
            lo: Some(quantile(&v, 0.025)),
            hi: Some(quantile(&v, 0.975)),
            sd,
        }
    }
}

/// The result: per metric, per grid N, per repeat values, plus summaries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Curves {
    pub grid: Vec<u32>,
    /// Number of repeats held here, and the index of the first (0 unless this is a part).
    pub repeats: u32,
    #[serde(default)]
    pub first_repeat: u32,
    /// Items used at each grid N (those with at least N votes to draw from).
    pub items: Vec<u32>,
    /// Items left out of every N because a held-out split needs at least 2 votes.
    pub heldout_excluded: u32,
    pub alpha: f64,
    /// `values[metric][g * repeats + r]`; NaN marks an undefined value (null in JSON).
    #[serde(with = "nan_as_null")]
    values: [Vec<f64>; 4],
    /// The item bootstrap's resampled sums over this result's repeats, when asked for.
    #[serde(default)]
    pub boot: Option<BootSums>,
}

/// JSON has no NaN: undefined values travel as `null` and come back as NaN.
pub(crate) mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &[Vec<f64>; 4], s: S) -> Result<S::Ok, S::Error> {
        let o: Vec<Vec<Option<f64>>> = v
            .iter()
            .map(|m| m.iter().map(|x| (!x.is_nan()).then_some(*x)).collect())
            .collect();
        o.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[Vec<f64>; 4], D::Error> {
        let o: Vec<Vec<Option<f64>>> = Vec::deserialize(d)?;
        let v: Vec<Vec<f64>> = o
            .into_iter()
            .map(|m| m.into_iter().map(|x| x.unwrap_or(f64::NAN)).collect())
            .collect();
        v.try_into()
            .map_err(|_| serde::de::Error::custom("expected 4 metrics"))
    }

    /// One value: NaN as `null` and back.
    pub mod scalar {
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
            (!v.is_nan()).then_some(*v).serialize(s)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
            Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
        }
    }
}

impl Curves {
    /// A result computed outside the engine (the extrapolation against true distributions), in
    /// the same layout: `values[metric][g * repeats + r]`, NaN where undefined.
    pub(crate) fn from_parts(
        grid: Vec<u32>,
        range: std::ops::Range<u32>,
        items: Vec<u32>,
        alpha: f64,
        values: [Vec<f64>; 4],
    ) -> Curves {
        debug_assert!(values.iter().all(|v| v.len() == grid.len() * range.len()));
        Curves {
            grid,
            repeats: range.len() as u32,
            first_repeat: range.start,
            items,
            heldout_excluded: 0,
            alpha,
            values,
            boot: None,
        }
    }

    /// Raw per-repeat value (None if undefined).
    pub fn value(&self, metric: Metric, g: usize, r: usize) -> Option<f64> {
        let v = self.values[metric.index()][g * self.repeats as usize + r];
        (!v.is_nan()).then_some(v)
    }

    fn repeat_values(&self, metric: Metric, g: usize) -> Vec<f64> {
        let r = self.repeats as usize;
        self.values[metric.index()][g * r..(g + 1) * r]
            .iter()
            .copied()
            .filter(|v| !v.is_nan())
            .collect()
    }

    /// Mean and 95% interval of `metric` at grid index `g`.
    pub fn point_at(&self, metric: Metric, g: usize) -> CurvePoint {
        CurvePoint::of_repeats(self.grid[g], self.repeat_values(metric, g))
    }

    /// Joins parts computed by [`compute_repeats`] over contiguous ranges into one result.
    pub fn merge(mut parts: Vec<Curves>) -> Result<Curves, String> {
        parts.sort_by_key(|p| p.first_repeat);
        let first = parts.first().ok_or("nothing to merge")?;
        let mut next = first.first_repeat;
        for p in &parts {
            if p.first_repeat != next || p.grid != first.grid || p.items != first.items {
                return Err("parts do not fit together".into());
            }
            next += p.repeats;
        }
        let ng = first.grid.len();
        let mut boot = first.boot.clone();
        for p in &parts[1..] {
            match (&mut boot, &p.boot) {
                (Some(b), Some(o)) => b.add(o)?,
                (None, None) => {}
                _ => return Err("parts do not fit together".into()),
            }
        }
        let values = std::array::from_fn(|m| {
            let mut v = Vec::with_capacity(ng * (next - first.first_repeat) as usize);
            for g in 0..ng {
                for p in &parts {
                    let r = p.repeats as usize;
                    v.extend_from_slice(&p.values[m][g * r..(g + 1) * r]);
                }
            }
            v
        });
        Ok(Curves {
            repeats: next - first.first_repeat,
            values,
            boot,
            ..parts[0].clone()
        })
    }

    /// Every item resample's mean curves (`None` without a bootstrap).
    pub fn item_bands(&self) -> Option<ItemBands> {
        self.boot
            .as_ref()
            .map(|b| b.bands(&self.grid, self.repeats))
    }

    /// The point at annotator budget `n`, if `n` is on the grid.
    pub fn point(&self, metric: Metric, n: u32) -> Option<CurvePoint> {
        self.grid
            .iter()
            .position(|&x| x == n)
            .map(|g| self.point_at(metric, g))
    }

    /// All points of one metric, in grid order.
    pub fn points(&self, metric: Metric) -> Vec<CurvePoint> {
        (0..self.grid.len())
            .map(|g| self.point_at(metric, g))
            .collect()
    }
}

/// Linear-interpolated quantile of sorted data (type 7, as numpy's default).
pub(crate) fn quantile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// The held-out split a configuration asks for (`None`: compare with the full table).
pub(crate) fn split_for(
    table: &VoteTable,
    cfg: &CurveConfig,
) -> Result<Option<HeldOutSplit>, CurveError> {
    match cfg.reference {
        Reference::Full => Ok(None),
        Reference::HeldOut { fraction } if fraction > 0.0 && fraction < 1.0 => {
            Ok(Some(split_heldout(table, fraction, cfg.seed)))
        }
        Reference::HeldOut { fraction } => Err(CurveError::BadFraction(fraction)),
    }
}

/// Computes the curves. The reference is the full table or a held-out split of it.
/// The N a curve is computed at: `requested` (empty: every N from 1 to `max_votes`), sorted, each
/// once, those above `max_votes` left out (callers compare to say so); refused with an N of 0 or
/// none left.
pub(crate) fn grid_of(requested: &[u32], max_votes: u32) -> Result<Vec<u32>, CurveError> {
    let mut grid: Vec<u32> = if requested.is_empty() {
        (1..=max_votes).collect()
    } else {
        requested.to_vec()
    };
    grid.sort_unstable();
    grid.dedup();
    if grid.first() == Some(&0) {
        return Err(CurveError::ZeroN);
    }
    grid.retain(|&n| n <= max_votes);
    if grid.is_empty() {
        return Err(CurveError::NothingToCompute { max_votes });
    }
    Ok(grid)
}

pub fn compute(table: &VoteTable, cfg: &CurveConfig) -> Result<Curves, CurveError> {
    compute_with_progress(table, cfg, &mut |_, _| {})
}

/// [`compute`], calling `progress(done, total)` after each repeat (the app's progress bar).
///
/// `progress` is a generic parameter, not `&mut dyn FnMut`, on purpose: in the browser an indirect
/// call in the loop's caller let the optimising compiler speculate on its target and deoptimise
/// when the app's callback differed from the warm-up's, and the curve loop then ran unoptimised for
/// tens of seconds on big uploads (13 s vs 27–40 s on 1 M items; tests/browser/bench-scale.mjs).
pub fn compute_with_progress(
    table: &VoteTable,
    cfg: &CurveConfig,
    progress: &mut impl FnMut(usize, usize),
) -> Result<Curves, CurveError> {
    compute_repeats(table, cfg, 0..cfg.repeats, progress)
}

/// Only the repeats in `range` (of `cfg.repeats`): parts computed separately (the app splits them
/// over several workers) and joined with [`Curves::merge`] equal [`compute`] exactly.
pub fn compute_repeats(
    table: &VoteTable,
    cfg: &CurveConfig,
    range: std::ops::Range<u32>,
    progress: &mut impl FnMut(usize, usize),
) -> Result<Curves, CurveError> {
    Prepared::new(table, cfg)?.repeats(range, progress)
}

/// Everything [`compute`] needs before the first repeat — the checks, the held-out split, the grid,
/// the engine's tables and per-item constants — done once, so that threads computing different
/// repeats share it ([`Prepared::repeats`] takes `&self`; the CLI's threads do this).
pub struct Prepared<'a> {
    table: &'a VoteTable,
    repeats: u32,
    seed: u64,
    alpha: f64,
    split: Option<HeldOutSplit>,
    grid: Vec<u32>,
    engine: engine::Prep,
}

impl<'a> Prepared<'a> {
    pub fn new(table: &'a VoteTable, cfg: &CurveConfig) -> Result<Self, CurveError> {
        if cfg.repeats == 0 {
            return Err(CurveError::NoRepeats);
        }
        let k = table.num_classes();
        let alpha = cfg.alpha.unwrap_or(1.0 / k as f64);
        if !(alpha.is_finite() && alpha > 0.0) {
            return Err(CurveError::BadAlpha(alpha));
        }
        let split = split_for(table, cfg)?;
        let (pool, reference) = match &split {
            None => (table, table),
            Some(s) => (&s.a, &s.b),
        };
        let max_votes = pool.max_total();
        // Said before any work: a million single-vote items would otherwise compute for seconds to
        // show one point.
        if max_votes < 2 {
            return Err(CurveError::OneVoteEach);
        }
        let grid = grid_of(&cfg.grid, max_votes)?;
        let boot = (cfg.bootstrap > 0).then_some((cfg.bootstrap, cfg.seed, cfg.repeats));
        let engine = engine::Prep::new(pool, reference, &grid, alpha, boot);
        Ok(Prepared {
            table,
            repeats: cfg.repeats,
            seed: cfg.seed,
            alpha,
            split,
            grid,
            engine,
        })
    }

    /// The repeats in `range` (of the config's repeats), as [`compute_repeats`] computes them.
    pub fn repeats(
        &self,
        range: std::ops::Range<u32>,
        progress: &mut impl FnMut(usize, usize),
    ) -> Result<Curves, CurveError> {
        self.repeats_reporting_resamples(range, progress, &mut |_, _| {})
    }

    /// [`Prepared::repeats`], with `resampled(done, total)` after each of the item bootstrap's
    /// resamples as well (the app's "intervals" progress).
    pub fn repeats_reporting_resamples(
        &self,
        range: std::ops::Range<u32>,
        progress: &mut impl FnMut(usize, usize),
        resampled: &mut impl FnMut(usize, usize),
    ) -> Result<Curves, CurveError> {
        if range.is_empty() || range.end > self.repeats {
            return Err(CurveError::NoRepeats);
        }
        let (pool, reference, heldout_excluded) = match &self.split {
            None => (self.table, self.table, 0),
            Some(s) => (&s.a, &s.b, s.excluded.len() as u32),
        };
        let (values, cells) = self
            .engine
            .run(pool, reference, range.clone(), self.seed, progress);
        let boot = self.engine.resample(&cells, resampled);
        Ok(Curves {
            grid: self.grid.clone(),
            repeats: range.len() as u32,
            first_repeat: range.start,
            items: self.engine.items.clone(),
            heldout_excluded,
            alpha: self.alpha,
            values,
            boot,
        })
    }
}

#[cfg(test)]
mod tests;

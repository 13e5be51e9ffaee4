//! Curves beyond the votes you have: the target-side curves a table *would* give if every item had
//! `reference_votes` votes, estimated from fewer.
//!
//! With M votes per item, [`crate::curves`] compares p_N with p_M, so every curve reaches its end at
//! N = M by construction: five votes per item say nothing about N = 20. Here a prior over
//! the items' true distributions — one Dirichlet, or a mixture where items come in kinds — is
//! fitted to the items at once ([`prior::fit`], empirical Bayes; a seeded sample of 5,000 when
//! there are more), and each item's posterior, Dirichlet(α + c_i) of its component, supplies
//! plausible true distributions θ_i. One
//! *posterior draw* is a whole table: θ_i for every item, then `reference_votes` votes per item from
//! θ_i (a multinomial draw). The ordinary curves of that table — N votes without replacement, compared
//! with its own p_M' — are what `annosat curves` would print on real data with M' votes per item,
//! so the two are directly comparable. `draws` posterior tables share the repeats (repeat r belongs
//! to draw r·draws/repeats), so the intervals hold both how uncertain the items' true distributions
//! are and how much N annotators vary.
//!
//! What it assumes, and what [`check::fit_check`] shows the user: that the fitted prior describes
//! how items differ. [`check`] also measures how far the extrapolation can be trusted on data that have
//! more votes than the user's: subsample them, extrapolate, compare with what they really give.

pub mod bootstrap;
mod calibration;
pub mod check;
pub mod identification;
mod margin;
pub mod prior;
pub mod truth;

pub use prior::{fit, Component, Components, FitError, Prior};

use crate::curves::{self, CurveConfig, CurveError, Curves, ItemBands, Reference};
use crate::sample;
use crate::votes::VoteTable;
use rand_distr::{Binomial, Distribution, Gamma};

/// Streams of the posterior draws (per item and draw).
const PURPOSE_POSTERIOR: u64 = 0xE_0;

/// What p_N is compared with.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ReferenceVotes {
    /// p_M' of M' votes per item, drawn from the item's true distribution: what `curves` would
    /// print on real data with M' votes per item.
    Votes(u32),
    /// The items' true distributions themselves (`--reference-votes inf`); N votes drawn with
    /// replacement. Default grid 1..=100.
    Truth,
}

/// The grid of the truth mode when none is given.
pub const TRUTH_GRID_MAX: u32 = 100;
/// Largest N the truth mode draws (it draws every vote up to the largest N for every item).
pub const TRUTH_N_MAX: u32 = 10_000;

/// Settings of one extrapolation (the app sends them to its worker as JSON).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExtrapolateConfig {
    /// M', the vote count per item the curves are for, or the true distributions.
    pub reference_votes: ReferenceVotes,
    /// Grid, repeats, seed and KL smoothing, as for [`curves::compute`] (the reference must be
    /// [`Reference::Full`]: the posterior tables' own votes).
    pub curves: CurveConfig,
    /// Posterior tables the repeats are spread over (at most `repeats`).
    pub draws: u32,
    /// One Dirichlet, a mixture of a fixed number, or the BIC's choice.
    pub components: Components,
}

/// Why an extrapolation cannot be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExtrapolateError {
    #[error(transparent)]
    Fit(#[from] FitError),
    #[error(transparent)]
    Curves(#[from] CurveError),
    #[error("--reference-votes must be at least 2 (got {0})")]
    ReferenceVotes(u32),
    #[error(
        "posterior draws must be between 1 and the number of repeats ({repeats}); got {draws}"
    )]
    Draws { draws: u32, repeats: u32 },
    #[error("extrapolated curves compare with the posterior tables' own votes; a held-out reference does not apply")]
    HeldOut,
    #[error("the check compares with real votes, so it needs a finite --reference-votes")]
    CheckNeedsVotes,
    #[error("no item has {0} votes, so there is nothing to check the extrapolation against; use a --reference-votes that some items reach")]
    NoDenseItems(u32),
    #[error("with --reference-votes inf, N can be at most {max} (got {n})")]
    TruthTooLarge { n: u32, max: u32 },
}

/// The fitted prior, how well it fits, and the extrapolated curves.
#[derive(Debug, Clone)]
pub struct Extrapolation {
    pub fit: Prior,
    pub check: check::FitCheck,
    pub curves: Curves,
    /// The item bootstrap (the prior refitted on each resample) when `curves.bootstrap` > 0.
    pub bands: Option<ItemBands>,
}

/// θ ~ Dirichlet(`shapes`) into `out`, also for tiny shapes: a Gamma(a) draw is Gamma(a + 1)·U^(1/a)
/// (Marsaglia and Tsang), taken in logs and normalised from the largest, so shapes like 1e-6 —
/// a prior fitted to items whose voters always agree — give one class ≈ 1 instead of every
/// Gamma draw underflowing to 0.
pub(crate) fn dirichlet_draw(shapes: &[f64], rng: &mut rand_chacha::ChaCha8Rng, out: &mut [f64]) {
    for (o, &a) in out.iter_mut().zip(shapes) {
        let g = Gamma::new(a + 1.0, 1.0)
            .expect("positive shape")
            .sample(rng);
        let u: f64 = rand::Rng::random(rng);
        // ln(1 − u): u may be 0, never 1.
        *o = libm::log(g) + libm::log1p(-u) / a;
    }
    let top = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for o in out.iter_mut() {
        *o = libm::exp(*o - top);
        sum += *o;
    }
    for o in out.iter_mut() {
        *o /= sum;
    }
}

/// `votes` votes from θ (a multinomial draw, as binomials of what is left, class by class), into
/// `out`.
pub(crate) fn multinomial_draw(
    theta: &[f64],
    votes: u32,
    rng: &mut rand_chacha::ChaCha8Rng,
    out: &mut [u32],
) {
    let mut mass = 1.0f64;
    let mut left = votes as u64;
    for (kk, &t) in theta.iter().enumerate() {
        let c = if kk + 1 == theta.len() || left == 0 {
            left
        } else {
            let p = (t / mass).clamp(0.0, 1.0);
            Binomial::new(left, p).expect("p in [0, 1]").sample(rng)
        };
        out[kk] = c as u32;
        left -= c;
        mass = (mass - t).max(0.0);
    }
}

/// An index drawn with the given probabilities (one uniform draw; one component: no draw).
pub(crate) fn pick(probs: &[f64], rng: &mut rand_chacha::ChaCha8Rng) -> usize {
    if probs.len() == 1 {
        return 0;
    }
    let u: f64 = rand::Rng::random(rng);
    let mut acc = 0.0;
    for (j, &p) in probs.iter().enumerate() {
        acc += p;
        if u < acc {
            return j;
        }
    }
    probs.len() - 1
}

/// One posterior table: for every item, a component c with its posterior probability, then
/// θ_i ~ Dirichlet(α_c + c_i), then `votes` votes from θ_i. Deterministic in (seed, item, draw),
/// so the CLI and the app get the same table.
pub fn posterior_table(
    table: &VoteTable,
    fit: &Prior,
    votes: u32,
    seed: u64,
    draw: u32,
) -> VoteTable {
    let k = table.num_classes();
    let mut counts = Vec::with_capacity(table.num_items() * k);
    let (mut theta, mut shapes, mut c) = (vec![0.0f64; k], vec![0.0f64; k], vec![0u32; k]);
    for i in 0..table.num_items() {
        let mut rng = sample::stream(seed, PURPOSE_POSTERIOR, i as u64, draw as u64);
        let comp = pick(&fit.responsibilities(table.counts(i)), &mut rng);
        let alpha = &fit.components[comp].alpha;
        for (s, (&a, &n)) in shapes.iter_mut().zip(alpha.iter().zip(table.counts(i))) {
            *s = a + n as f64;
        }
        dirichlet_draw(&shapes, &mut rng, &mut theta);
        multinomial_draw(&theta, votes, &mut rng, &mut c);
        counts.extend_from_slice(&c);
    }
    VoteTable::new(table.classes().to_vec(), table.item_ids().to_vec(), counts)
}

/// Fits the prior and computes the extrapolated curves; `progress(done, total)` counts repeats.
pub fn extrapolate(
    table: &VoteTable,
    cfg: &ExtrapolateConfig,
    progress: &mut impl FnMut(usize, usize),
) -> Result<Extrapolation, ExtrapolateError> {
    extrapolate_from(table, cfg, None, progress)
}

/// [`extrapolate`] with the prior refitted from `start` (EM from it, its number of Dirichlets)
/// instead of a fresh fit and BIC search: for many small tables drawn from one file (the
/// simulated pilots of [`crate::pilot`]), whose prior is the file's, re-estimated.
pub fn extrapolate_from(
    table: &VoteTable,
    cfg: &ExtrapolateConfig,
    start: Option<&Prior>,
    progress: &mut impl FnMut(usize, usize),
) -> Result<Extrapolation, ExtrapolateError> {
    if let ReferenceVotes::Votes(m) = cfg.reference_votes {
        if m < 2 {
            return Err(ExtrapolateError::ReferenceVotes(m));
        }
    }
    if cfg.curves.reference != Reference::Full {
        return Err(ExtrapolateError::HeldOut);
    }
    let repeats = cfg.curves.repeats;
    if repeats == 0 {
        return Err(CurveError::NoRepeats.into());
    }
    if cfg.draws == 0 || cfg.draws > repeats {
        return Err(ExtrapolateError::Draws {
            draws: cfg.draws,
            repeats,
        });
    }
    let fit = match start {
        Some(p) => prior::refit(table, p, cfg.curves.seed)?,
        None => prior::fit(table, cfg.components, cfg.curves.seed)?,
    };
    let check = check::fit_check(table, &fit, cfg.curves.seed);
    let resamples = cfg.curves.bootstrap;
    let total = repeats as usize + resamples as usize * bootstrap::REPEATS_PER_RESAMPLE as usize;
    let mut parts = Vec::with_capacity(cfg.draws as usize);
    for s in 0..cfg.draws {
        let cut = |s: u32| (s as u64 * repeats as u64 / cfg.draws as u64) as u32;
        let range = cut(s)..cut(s + 1);
        let start = range.start as usize;
        parts.push(draw_part(table, &fit, cfg, s, range, &mut |done| {
            progress(start + done, total)
        })?);
    }
    let curves = Curves::merge(parts).expect("parts over contiguous repeats of one grid");
    let bands = if resamples > 0 {
        Some(bootstrap::item_bands(table, cfg, &fit, &mut |done| {
            progress(repeats as usize + done, total)
        })?)
    } else {
        None
    };
    Ok(Extrapolation {
        fit,
        check,
        curves,
        bands,
    })
}

/// The repeats `range` of posterior draw `draw` (a table drawn from `fit`), as curves; the
/// extrapolation's own bootstrap is never passed on to them (see [`bootstrap`]).
pub(crate) fn draw_part(
    table: &VoteTable,
    fit: &Prior,
    cfg: &ExtrapolateConfig,
    draw: u32,
    range: std::ops::Range<u32>,
    progress: &mut impl FnMut(usize),
) -> Result<Curves, ExtrapolateError> {
    let k = table.num_classes();
    let curve_cfg = CurveConfig {
        bootstrap: 0,
        ..cfg.curves.clone()
    };
    Ok(match cfg.reference_votes {
        ReferenceVotes::Votes(m) => {
            let syn = posterior_table(table, fit, m, cfg.curves.seed, draw);
            curves::compute_repeats(&syn, &curve_cfg, range, &mut |done, _| progress(done))?
        }
        ReferenceVotes::Truth => {
            let mut grid = if cfg.curves.grid.is_empty() {
                (1..=TRUTH_GRID_MAX).collect()
            } else {
                cfg.curves.grid.clone()
            };
            grid.sort_unstable();
            grid.dedup();
            if grid.first() == Some(&0) {
                return Err(CurveError::ZeroN.into());
            }
            if let Some(&n) = grid.last().filter(|&&n| n > TRUTH_N_MAX) {
                return Err(ExtrapolateError::TruthTooLarge {
                    n,
                    max: TRUTH_N_MAX,
                });
            }
            let alpha = cfg.curves.alpha.unwrap_or(1.0 / k as f64);
            if !(alpha.is_finite() && alpha > 0.0) {
                return Err(CurveError::BadAlpha(alpha).into());
            }
            truth::curves_against_truth(
                table,
                fit,
                (&grid, alpha),
                (cfg.curves.seed, draw),
                range,
                progress,
            )
        }
    })
}

/// A table of `k` classes from row-major counts (items i0, i1, …; classes c0, c1, …), for tests.
#[cfg(test)]
pub(crate) fn test_table(counts: Vec<u32>, k: usize) -> VoteTable {
    let n = counts.len() / k;
    VoteTable::new(
        (0..k).map(|c| format!("c{c}")).collect(),
        (0..n).map(|i| format!("i{i}")).collect(),
        counts,
    )
}

#[cfg(test)]
mod tests;

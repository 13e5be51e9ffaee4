//! How far an extrapolation can be trusted: a goodness-of-fit table the user can read, and the
//! validation on data that really have more votes.

use super::{extrapolate, ExtrapolateConfig, ExtrapolateError, Prior};
use crate::curves::{self, Metric};
use crate::sample;
use crate::votes::VoteTable;

const PURPOSE_FIT_CHECK: u64 = 0xE_1;
const PURPOSE_SPARSE: u64 = 0xE_2;

/// Simulated vote vectors per item for the expected column.
const SIMULATIONS: u32 = 20;

/// Bins of an item's agreement: the share of its votes that went to its top class.
pub const AGREEMENT_BINS: [(&str, f64); 4] = [
    ("all votes agree", 1.0),
    ("top class 80–99%", 0.8),
    ("top class 60–79%", 0.6),
    ("top class under 60%", 0.0),
];

/// Share of items (with 2 or more votes) per agreement bin: in the data, and expected under the
/// fitted prior for the same vote counts. One Dirichlet fits when the columns are close; where it
/// does not (e.g. a mix of clear and contested items), the table shows which way it errs.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FitCheck {
    pub bins: Vec<AgreementBin>,
    /// Half the sum of |observed − expected| over the bins (0: identical, 1: disjoint).
    pub total_variation: f64,
    pub items: u32,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AgreementBin {
    pub label: String,
    pub observed: f64,
    pub expected: f64,
}

fn bin_of(counts: &[u32]) -> usize {
    let n: u32 = counts.iter().sum();
    let top = *counts.iter().max().unwrap_or(&0);
    // top/n ≥ edge, compared in integers so 4/5 lands in 80% exactly.
    AGREEMENT_BINS
        .iter()
        .position(|&(_, edge)| top as f64 >= edge * n as f64 - 1e-9)
        .unwrap_or(AGREEMENT_BINS.len() - 1)
}

/// `n` votes from the fitted model (a component by its weight, θ ~ Dirichlet(α_c), then a
/// multinomial draw).
fn simulate(fit: &Prior, n: u32, rng: &mut rand_chacha::ChaCha8Rng, out: &mut [u32]) {
    let weights: Vec<f64> = fit.components.iter().map(|c| c.weight).collect();
    let alpha = &fit.components[super::pick(&weights, rng)].alpha;
    let mut theta = vec![0.0; alpha.len()];
    super::dirichlet_draw(alpha, rng, &mut theta);
    super::multinomial_draw(&theta, n, rng, out);
}

/// The agreement table of `table` against `fit`, over the items the prior was fitted on
/// ([`super::prior::fit_rows`]: all, or a seeded sample of 5,000).
pub fn fit_check(table: &VoteTable, fit: &Prior, seed: u64) -> FitCheck {
    let nb = AGREEMENT_BINS.len();
    let (mut observed, mut expected) = (vec![0.0f64; nb], vec![0.0f64; nb]);
    let mut sim = vec![0u32; table.num_classes()];
    let mut items = 0u32;
    for i in super::prior::fit_rows(table, seed) {
        let i = i as usize;
        let n = table.total(i);
        if n < 2 {
            continue;
        }
        items += 1;
        observed[bin_of(table.counts(i))] += 1.0;
        let mut rng = sample::stream(seed, PURPOSE_FIT_CHECK, i as u64, 0);
        for _ in 0..SIMULATIONS {
            simulate(fit, n, &mut rng, &mut sim);
            expected[bin_of(&sim)] += 1.0 / SIMULATIONS as f64;
        }
    }
    let scale = 1.0 / items.max(1) as f64;
    let bins: Vec<AgreementBin> = AGREEMENT_BINS
        .iter()
        .enumerate()
        .map(|(b, (label, _))| AgreementBin {
            label: label.to_string(),
            observed: observed[b] * scale,
            expected: expected[b] * scale,
        })
        .collect();
    let total_variation = 0.5
        * bins
            .iter()
            .map(|b| (b.observed - b.expected).abs())
            .sum::<f64>();
    FitCheck {
        bins,
        total_variation,
        items,
    }
}

/// One comparison of the validation: a metric at N, from data with `reference_votes` votes per
/// item (`actual`) and extrapolated from `m` of them (`extrapolated`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TrustRow {
    pub metric: Metric,
    pub m: u32,
    pub seed: u64,
    pub n: u32,
    pub actual: Option<f64>,
    pub extrapolated: Option<f64>,
    /// (extrapolated − actual) / |actual|; `None` where either is undefined or `actual` is 0.
    pub relative_error: Option<f64>,
}

/// One row of the point validation: a metric's x-point from data with M' votes per item
/// (`actual`) and extrapolated from `m` of them, with the extrapolation's interval over items
/// (prior refitted per resample) and whether it contains `actual`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PointRow {
    pub metric: Metric,
    pub m: u32,
    pub seed: u64,
    pub actual: Option<u32>,
    pub extrapolated: Option<u32>,
    /// The product's interval: over items and the refitted prior, joined with the
    /// identification margin for `m` votes ([`super::identification::widen`]).
    pub lo: Option<u32>,
    pub hi: Option<u32>,
    /// The interval over items and the refitted prior alone (what the margin is calibrated on).
    pub items_lo: Option<u32>,
    pub items_hi: Option<u32>,
    /// extrapolated − actual.
    pub error: Option<i64>,
    pub contained: Option<bool>,
}

/// Both validations: the curve means ([`TrustRow`]) and the x-points ([`PointRow`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TrustCheck {
    pub rows: Vec<TrustRow>,
    pub points: Vec<PointRow>,
}

/// Validation on data that have the votes: the items with at least `cfg.reference_votes` votes,
/// each cut to exactly that many (a seeded subsample), give the actual curves; each item cut
/// further to `m` votes (for each `m` in `ms`) is extrapolated back to `reference_votes`, and every
/// metric's mean is compared at every grid N below `reference_votes` (at N = M' both sides compare
/// p_M' with itself).
///
/// The x-points (`x`, e.g. 0.9) are compared too: the actual one on the full grid 1..=M', the
/// extrapolated one with its item interval when `cfg.curves.bootstrap` > 0. The cut is seeded by
/// `cfg.curves.seed`, so several seeds give several validations.
pub fn trust_check(
    table: &VoteTable,
    cfg: &ExtrapolateConfig,
    ms: &[u32],
    x: f64,
    progress: &mut impl FnMut(usize, usize),
) -> Result<TrustCheck, ExtrapolateError> {
    let super::ReferenceVotes::Votes(r) = cfg.reference_votes else {
        return Err(ExtrapolateError::CheckNeedsVotes);
    };
    let k = table.num_classes();
    let seed = cfg.curves.seed;
    let cut = |from: &VoteTable, votes: u32, purpose_repeat: u64| -> VoteTable {
        let (mut ids, mut counts) = (Vec::new(), Vec::new());
        for i in 0..from.num_items() {
            let mut rng = sample::stream(seed, PURPOSE_SPARSE, i as u64, purpose_repeat);
            if let Some(c) = sample::subsample_counts(from.counts(i), votes, &mut rng) {
                ids.push(from.item_ids()[i].clone());
                counts.extend(c);
            }
        }
        debug_assert_eq!(counts.len(), ids.len() * k);
        VoteTable::new(from.classes().to_vec(), ids, counts)
    };
    let dense = cut(table, r, 0);
    if dense.num_items() == 0 {
        return Err(ExtrapolateError::NoDenseItems(r));
    }
    let plain = curves::CurveConfig {
        bootstrap: 0,
        ..cfg.curves.clone()
    };
    let actual = curves::compute(&dense, &plain)?;
    // The x-points on every N, extrapolated and actual alike.
    let full_grid = curves::CurveConfig {
        grid: Vec::new(),
        ..cfg.curves.clone()
    };
    let actual_points = curves::compute(
        &dense,
        &curves::CurveConfig {
            bootstrap: 0,
            ..full_grid.clone()
        },
    )?;
    let xcfg = ExtrapolateConfig {
        curves: full_grid,
        ..cfg.clone()
    };
    let per = cfg.curves.repeats as usize
        + (cfg.curves.bootstrap * super::bootstrap::REPEATS_PER_RESAMPLE) as usize;
    let total = ms.len() * per;
    let mut rows = Vec::new();
    let mut points = Vec::new();
    for (j, &m) in ms.iter().enumerate() {
        let sparse = cut(&dense, m, 1 + m as u64);
        let ext = extrapolate(&sparse, &xcfg, &mut |done, _| {
            progress(j * per + done, total)
        })?;
        for metric in Metric::ALL {
            let a = actual_points.saturation(metric, x).n;
            let e = ext.curves.saturation(metric, x).n;
            let raw = ext.bands.as_ref().map(|b| b.saturation(metric, x));
            let iv = raw.map(|iv| match super::identification::margin(metric, m) {
                Some(margin) => super::identification::widen(iv, e, margin, r),
                None => iv,
            });
            let (lo, hi) = iv.map_or((None, None), |iv| (iv.lo, iv.hi));
            let (items_lo, items_hi) = raw.map_or((None, None), |iv| (iv.lo, iv.hi));
            points.push(PointRow {
                metric,
                m,
                seed,
                actual: a,
                extrapolated: e,
                lo,
                hi,
                items_lo,
                items_hi,
                error: a.zip(e).map(|(a, e)| e as i64 - a as i64),
                contained: a.zip(iv).map(|(a, iv)| {
                    iv.lo.is_some_and(|lo| lo <= a) && iv.hi.is_none_or(|hi| a <= hi)
                }),
            });
        }
        for metric in Metric::ALL {
            for (g, &n) in actual.grid.iter().enumerate() {
                if n >= r {
                    continue;
                }
                let a = actual.point_at(metric, g).mean;
                let e = ext.curves.point(metric, n).and_then(|p| p.mean);
                let relative_error = match (a, e) {
                    (Some(a), Some(e)) if a != 0.0 => Some((e - a) / a.abs()),
                    _ => None,
                };
                rows.push(TrustRow {
                    metric,
                    m,
                    seed,
                    n,
                    actual: a,
                    extrapolated: e,
                    relative_error,
                });
            }
        }
    }
    Ok(TrustCheck { rows, points })
}

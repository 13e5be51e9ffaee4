//! Rating curves beyond the ratings a file has: each posterior table of the nominal extrapolation
//! (`extrapolate::posterior_table`: the fitted prior over the items' rating distributions, which
//! lives on the ordinal simplex like any other, a θᵢ per item from its posterior and M' ratings
//! from θᵢ) gets the rating curves the file would give with M' ratings per item. The repeats are
//! spread over the posterior tables as the nominal extrapolation spreads them, so the band holds
//! both the items' uncertain distributions and how N raters vary; which items were rated is not in
//! it (the closed-form headline's interval is over items). `core/tests/rating_answers.rs` checks it
//! on KonIQ-10k cut to 5 ratings against the curves of all the ratings.

use super::curves::{compute_part, RatingCurves};
use super::scale::Scale;
use crate::curves::{CurveConfig, CurveError};
use crate::extrapolate::{posterior_table, Prior};
use crate::votes::VoteTable;

/// The rating curves of `table` extrapolated to `votes` ratings per item with the fitted `prior`,
/// `cfg`'s grid (default 1..=`votes`), repeats and seed over `draws` posterior tables. The single-
/// rater ICC and the closed-form RMSE are the posterior tables' mean.
pub fn extrapolated(
    table: &VoteTable,
    scale: &Scale,
    prior: &Prior,
    (votes, draws): (u32, u32),
    cfg: &CurveConfig,
) -> Result<RatingCurves, CurveError> {
    let draws = draws.clamp(1, cfg.repeats.max(1));
    // No item bootstrap of posterior tables: the band is over repeats and draws (module docs).
    let cfg = &CurveConfig {
        bootstrap: 0,
        ..cfg.clone()
    };
    let cut = |s: u32| (s as u64 * cfg.repeats as u64 / draws as u64) as u32;
    let mut parts = Vec::with_capacity(draws as usize);
    for s in 0..draws {
        let syn = posterior_table(table, prior, votes, cfg.seed, s);
        parts.push(compute_part(
            &syn,
            scale,
            cfg,
            cut(s)..cut(s + 1),
            &mut |_| {},
        )?);
    }
    let n = parts.len() as f64;
    let icc1 = parts
        .iter()
        .map(|p| p.icc1)
        .sum::<Option<f64>>()
        .map(|s| s / n);
    let mut mse = vec![0.0; parts[0].expected_mse.len()];
    for p in &parts {
        for (a, b) in mse.iter_mut().zip(&p.expected_mse) {
            *a += b / n;
        }
    }
    let mut c = RatingCurves::merge(parts).expect("parts over contiguous repeats of one grid");
    c.icc1 = icc1;
    c.expected_mse = mse;
    Ok(c)
}

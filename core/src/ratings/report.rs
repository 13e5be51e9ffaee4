//! What the app shows of a rating file, and what its workers send: the rating curves and the
//! rating headline, computed by the same core functions the CLI's `annosat ratings` calls.

use super::answer::{RatingAnswer, RatingBasis, RatingGoal};
use super::curves::{compute_part, RatingCurves};
use super::scale::Scale;
use crate::curves::{CurveConfig, CurveError};
use crate::votes::VoteTable;
use serde::{Deserialize, Serialize};

/// The headline's precision, in scale points, where the user sets none (`--precision`).
pub const DEFAULT_PRECISION: f64 = 0.1;
/// The headline's reliability, where the user sets none (`--reliability`).
pub const DEFAULT_RELIABILITY: f64 = 0.9;

/// The rating curves of a file and its two headlines (precision, reliability).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingReport {
    pub curves: RatingCurves,
    /// Empty in every part of a split computation but the first (the headline reads all the
    /// ratings once, not per repeat).
    pub answers: Vec<RatingAnswer>,
    /// What the headline reads from the items, for other targets and budgets (the same part).
    #[serde(default)]
    pub basis: Option<RatingBasis>,
}

impl RatingReport {
    /// The report for the repeats in `part` of `cfg` (all of them: `0..cfg.repeats`); the part
    /// that starts at repeat 0 carries the headline, with `cfg.bootstrap` item resamples.
    pub fn of(
        table: &VoteTable,
        scale: &Scale,
        cfg: &CurveConfig,
        part: std::ops::Range<u32>,
        progress: &mut dyn FnMut(f64),
    ) -> Result<RatingReport, CurveError> {
        let first = part.start == 0;
        let curves = compute_part(table, scale, cfg, part, progress)?;
        let basis = first.then(|| RatingBasis::of(table, scale, cfg.bootstrap, cfg.seed));
        let answers = basis.as_ref().map_or_else(Vec::new, |b| {
            vec![
                b.answer(RatingGoal::Precision, DEFAULT_PRECISION),
                b.answer(RatingGoal::Reliability, DEFAULT_RELIABILITY),
            ]
        });
        Ok(RatingReport {
            curves,
            answers,
            basis,
        })
    }

    /// The parts of a split computation as one report.
    pub fn merge(parts: Vec<RatingReport>) -> Result<RatingReport, String> {
        let (mut answers, mut basis) = (Vec::new(), None);
        let mut curves = Vec::with_capacity(parts.len());
        for p in parts {
            if basis.is_none() {
                (answers, basis) = (p.answers, p.basis);
            }
            curves.push(p.curves);
        }
        Ok(RatingReport {
            curves: RatingCurves::merge(curves)?,
            answers,
            basis,
        })
    }
}

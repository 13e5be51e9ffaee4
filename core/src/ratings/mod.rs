//! Ratings: vote files whose classes are a scale (1–5 stars, 1–7 Likert). Their users plan with
//! how precisely N raters' mean rating estimates the item's, how reliable the N-rater mean is,
//! and whether N raters rank the items as the whole crowd does — answered here on the curves'
//! own subsampler, beside the nominal metrics.

pub mod answer;
mod bands;
pub mod curves;
pub mod extrapolated;
pub mod metric;
mod ranks;
pub mod report;
pub mod saturation;
pub mod scale;

pub use answer::{answers, RatingAnswer, RatingBasis, RatingBudget, RatingGoal};
pub use curves::{compute, compute_part, RatingCurves, RatingPoint};
pub use extrapolated::extrapolated;
pub use metric::RatingMetric;
pub use report::{RatingReport, DEFAULT_PRECISION, DEFAULT_RELIABILITY};
pub use saturation::{saturation, within, RatingSaturation};
pub use scale::{Scale, ScaleKind};

#[cfg(test)]
mod tests;

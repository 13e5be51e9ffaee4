//! Multilabel votes: each annotator may tick any number of labels of an item.
//!
//! Targets are soft **per-label vote shares** (the share of an item's annotators who ticked each
//! label); the question is the same as for single-label votes: how close do N annotators' shares
//! come to all of them, per metric, and where does each metric saturate?
//!
//! - [`table`]: the [`MultilabelTable`] (ratings as label bitsets).
//! - [`metric`]: the metrics ([`MlMetric`]): per-label Bernoulli KL, JS distance, Brier, SoftBCE,
//!   label-set entropy correlation, macro-/micro-F1 at ½, exact-set agreement.
//! - [`curves`]: seeded nested subsamples of N annotators and the metric curves ([`MlCurves`]).
//! - [`bands`]: the item bootstrap of those curves.
//! - [`report`]: everything the CLI's JSON and the app show, from one function ([`MlReport::of`]).
//! - [`bundle`]: the app's compact multilabel dataset file.
//! - [`export`]: the multilabel model export ([`export::MlExport`], `multilabel.json`).
//! - [`models`]: sigmoid heads' predictions scored, with curves per arm, verdicts and paired
//!   comparisons over item resamples.
//! - [`saturation`]: "x of the improvement by N" with repeat and item intervals and the
//!   few-votes rule.
//!
//! Import lives with the other formats, in [`crate::import::multilabel`].

pub mod bands;
pub mod bundle;
pub mod curves;
pub mod export;
mod item_stats;
pub mod metric;
pub mod model_labels;
mod model_resamples;
pub mod models;
pub mod report;
pub mod saturation;
pub mod table;

pub use curves::{compute, MlConfig, MlCurves, MlPoint};
pub use metric::MlMetric;
pub use report::MlReport;
pub use saturation::MlSaturation;
pub use table::{MultilabelTable, MAX_LABELS};

#[cfg(test)]
mod tests;

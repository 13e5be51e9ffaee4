//! annosat core: everything that turns vote counts into numbers.
//!
//! This crate is the one place where a formula lives. It is pure (no file or network I/O, no web APIs,
//! no candle) so that it compiles natively for the `annosat` CLI / trainer and for `wasm32` for the
//! explorer app, and both get bit-identical answers for the same input and seed.
//!
//! - [`votes`]: the [`VoteTable`] (items × classes of integer counts, optional per-annotator rows).
//! - [`import`]: CSV import (wide counts or long `item_id,annotator_id,label`), errors as values.
//! - [`sample`]: seeded, portable subsampling without replacement and held-out annotator splits.
//! - [`metrics`]: distribution metrics (entropy, KL, JS distance), correlations, calibration.
//! - [`curves`]: target-side saturation curves and "x% of the improvement by N" points.
//! - [`agreement`]: Krippendorff's α (nominal, ordinal, interval) and Dawid–Skene / majority-vote
//!   aggregation, on all votes and on N-vote subsamples.
//! - [`extrapolate`]: the curves beyond the votes there are, from a Dirichlet prior fitted to the
//!   items (empirical Bayes), with a fit check and a validation on data that have the votes.
//! - [`pilot`]: what would narrow a wide extrapolated answer (more votes on a few items, simulated),
//!   and the answer from such a part of a file.
//! - [`adaptive`]: simulated vote collection in rounds, adaptive policies against uniform at equal
//!   budget, on the items' real votes.
//! - [`power`]: can a human evaluation tell two models apart — power and significance over items
//!   × votes per item, per metric, simulated from the file's items and votes.
//! - [`models`]: the trainer's exported sweeps as model-side curves and paired arm comparisons.
//! - [`synth`]: seeded synthetic data with known true distributions (the control for the model side).
//! - [`multilabel`]: multilabel votes (annotators tick any number of labels): per-label shares,
//!   their metrics, curves and saturation points.
//! - [`summary`], [`bundle`]: dataset statistics and the compact file format the app fetches.
//!
//! Not here: reading files (callers pass bytes), plotting, training.

pub mod adaptive;
pub mod agreement;
pub mod answer;
pub mod bundle;
pub mod curves;
pub mod extrapolate;
pub mod import;
pub mod logtable;
pub mod metrics;
pub mod models;
pub mod multilabel;
pub mod pilot;
pub mod power;
pub mod ratings;
pub mod sample;
pub mod summary;
pub mod synth;
pub mod votes;
pub mod worth;

pub use curves::{CurveConfig, CurvePoint, Curves, Metric, Reference};
pub use import::{
    parse_votes, parse_votes_from, parse_votes_with_progress, ImportError, ImportErrorKind,
    ImportOptions, ImportReport,
};
pub use votes::{Annotation, VoteTable};

//! Agreement and aggregation as N grows (`annosat agree`, `annosat aggregate`).
//!
//! - [`alpha`]: Krippendorff's α of the votes (nominal, ordinal or interval), on all of them and on
//!   N-vote subsamples, from the items' class counts alone.
//! - [`dawid_skene`]: the Dawid–Skene model (annotator confusion matrices by EM) and majority
//!   vote, each item's aggregate label from its votes.
//! - [`aggregation`]: how often the aggregate label from N votes per item matches the one from all
//!   votes, for majority vote and Dawid–Skene, over seeded subsamples.

pub mod aggregation;
pub mod alpha;
pub mod dawid_skene;

pub use aggregation::{aggregation_curve, AggregationCurve, AggregationMethod};
pub use alpha::{alpha_curve, krippendorff_alpha, AlphaCurve, Level};
pub use dawid_skene::{dawid_skene, majority_vote, DsConfig, DsFit};

/// Labels as sets of tied classes, and the credit of a label from N votes against the label from
/// all votes: the project's one tie rule (`metrics::calibration`).
pub use crate::metrics::calibration::{argmax_mask, majority_agreement};

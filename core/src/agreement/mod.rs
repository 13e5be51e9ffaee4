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

/// How well the label from N votes, `at_n`, matches the label from all votes, `full`, both given
/// as sets of tied classes: the probability that breaking `at_n`'s tie uniformly at random picks a
/// class of `full`, |at_n ∩ full| / |at_n| (1 or 0 without ties). A tie in all votes means those
/// votes cannot choose between its classes, so any of them matches; no class order breaks a tie.
pub fn tie_match(at_n: u64, full: u64) -> f64 {
    let n = at_n.count_ones();
    if n == 0 {
        return 0.0;
    }
    (at_n & full).count_ones() as f64 / n as f64
}

/// The classes holding the largest value of `v`, as a bit mask (v has at most 64 entries).
pub fn argmax_set(v: &[f64]) -> u64 {
    let mut best = f64::NEG_INFINITY;
    let mut set = 0u64;
    for (c, &x) in v.iter().enumerate() {
        if x > best {
            best = x;
            set = 1 << c;
        } else if x == best {
            set |= 1 << c;
        }
    }
    set
}

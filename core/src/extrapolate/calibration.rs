//! Written by `scripts/extrapolation-check.sh --calibrate` from its run; do not edit by hand.
//! The identification margins ([`super::identification`]) per metric and vote count.

use super::margin::Margin;
use crate::curves::Metric;

/// The most classes a calibration set had: data with more get no extrapolated number.
pub const MAX_CLASSES: usize = 10;

#[rustfmt::skip]
pub const CALIBRATION: &[Margin] = &[
    Margin { metric: Metric::Jsd, votes: 3, lo: 0.9720, hi: 1.3116, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::EntropyCorr, votes: 3, lo: 0.5765, hi: 3.2626, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::Kl, votes: 3, lo: 0.8672, hi: 1.2287, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::MajorityAgreement, votes: 3, lo: 0.3086, hi: 2.5251, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::Jsd, votes: 5, lo: 0.9346, hi: 1.3047, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::EntropyCorr, votes: 5, lo: 0.5399, hi: 2.9915, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::Kl, votes: 5, lo: 0.8961, hi: 1.1451, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::MajorityAgreement, votes: 5, lo: 0.3458, hi: 2.2652, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::Jsd, votes: 10, lo: 0.9700, hi: 1.1676, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::EntropyCorr, votes: 10, lo: 0.6541, hi: 2.0262, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::Kl, votes: 10, lo: 0.8901, hi: 1.1303, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::MajorityAgreement, votes: 10, lo: 0.4788, hi: 1.9998, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::Jsd, votes: 20, lo: 0.9810, hi: 1.1220, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::EntropyCorr, votes: 20, lo: 0.7531, hi: 1.6477, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::Kl, votes: 20, lo: 0.9120, hi: 1.0847, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::MajorityAgreement, votes: 20, lo: 0.6922, hi: 1.4955, checks: 30, sets: 6, held_out_checks: 25, held_out_covered: 25 },
    Margin { metric: Metric::Jsd, votes: 40, lo: 0.9787, hi: 1.0969, checks: 25, sets: 5, held_out_checks: 20, held_out_covered: 20 },
    Margin { metric: Metric::EntropyCorr, votes: 40, lo: 0.8298, hi: 1.4251, checks: 25, sets: 5, held_out_checks: 20, held_out_covered: 20 },
    Margin { metric: Metric::Kl, votes: 40, lo: 0.9323, hi: 1.0525, checks: 25, sets: 5, held_out_checks: 20, held_out_covered: 20 },
    Margin { metric: Metric::MajorityAgreement, votes: 40, lo: 0.7196, hi: 1.3816, checks: 25, sets: 5, held_out_checks: 20, held_out_covered: 20 },
];

//! What M votes per item cannot pin down, carried into the extrapolated point's interval.
//!
//! M votes per item determine only the first M moments of the items' label distributions; what
//! N > M annotators would show depends on more (how much small-probability mass the items carry,
//! which no prior can read from 3–5 votes). The item bootstrap ([`super::bootstrap`]) holds which
//! items were drawn and the prior refitted to them, not this: on data whose full votes are known,
//! its intervals missed the real 90% point one-signedly (entropy correlation and JS distance too
//! low, majority agreement too high with many classes).
//!
//! So the interval is widened by the **identification margin** of the metric at the data's vote
//! count: how far, as a ratio, the real point lay from the extrapolated one on sets with known
//! answers, cut to M votes and extrapolated back ([`super::check::trust_check`], run by
//! `scripts/extrapolation-check.sh --calibrate`, which writes [`CALIBRATION`]). The margin is a
//! prediction interval for a new set, not the range of the sets seen: per set the mean log ratio,
//! then mean ± t(0.975, sets − 1) · √((1 + 1/sets)·between² + within²), a random-effects reading
//! in which the user's file is one more set like them. The product's interval is the union of the
//! bootstrap interval and point × margin, so it always contains its point. docs/intervals.md
//! shows the table, the alternatives measured and the coverage with each set left out of the
//! calibration.

use super::calibration::CALIBRATION;
pub use super::calibration::MAX_CLASSES;
pub use super::margin::Margin;
use crate::curves::{ItemInterval, Metric};

/// Fewer votes per item than this: no extrapolated number (nothing was calibrated below it).
pub const MIN_VOTES: u32 = 3;
/// Fewer items than this: no extrapolated number. The prior is fitted to the items; with a
/// handful of them its fit (and every resample's refit) is not a description of a population.
pub const MIN_ITEMS: usize = 30;

/// The margin for data with `votes` votes per item (the typical item's, for ragged data): the
/// row of the largest calibrated vote count at or below it (the margin shrinks as M grows, so
/// this errs wide). `None` below [`MIN_VOTES`].
pub fn margin(metric: Metric, votes: u32) -> Option<&'static Margin> {
    CALIBRATION
        .iter()
        .filter(|r| r.metric == metric && r.votes <= votes && votes >= MIN_VOTES)
        .max_by_key(|r| r.votes)
}

/// The product's interval: `iv` (over items and the refitted prior) joined with `point` × the
/// margin, in grid N (rounded outwards). An end past the curves' last N (`grid_end`), or one
/// whose resamples did not reach it, is open ("more than `grid_end`").
pub fn widen(iv: ItemInterval, point: Option<u32>, m: &Margin, grid_end: u32) -> ItemInterval {
    let Some(p) = point else {
        return iv;
    };
    let down = (p as f64 * m.lo).floor().max(1.0) as u32;
    let up = (p as f64 * m.hi).ceil() as u32;
    let open = up > grid_end;
    ItemInterval {
        lo: Some(iv.lo.map_or(down, |lo| lo.min(down)).min(p)),
        hi: iv.hi.filter(|_| !open).map(|hi| hi.max(up).max(p)),
        lo_n: Some(iv.lo_n.map_or(down as f64, |lo| lo.min(down as f64))),
        hi_n: iv.hi_n.filter(|_| !open).map(|hi| hi.max(up as f64)),
        ..iv
    }
}

/// Whether an interval is too wide to read as "about N": wider than ±25% of its point.
pub fn is_wide(point: u32, iv: &ItemInterval) -> bool {
    let p = point as f64;
    iv.lo.is_none_or(|lo| (lo as f64) < 0.75 * p) || iv.hi.is_none_or(|hi| (hi as f64) > 1.25 * p)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::curves::bootstrap::closed as iv;

    fn m(lo: f64, hi: f64) -> Margin {
        Margin {
            metric: Metric::Jsd,
            votes: 5,
            lo,
            hi,
            checks: 30,
            sets: 6,
            held_out_checks: 30,
            held_out_covered: 28,
        }
    }

    #[test]
    fn the_interval_joins_the_margin_and_always_holds_its_point() {
        let w = widen(iv(50, 57), Some(55), &m(0.9, 1.2), 100);
        assert_eq!((w.lo, w.hi), (Some(49), Some(66)));
        // A point outside its bootstrap interval (a refit that lands elsewhere) is pulled in.
        let w = widen(iv(30, 33), Some(29), &m(1.0, 1.0), 100);
        assert_eq!((w.lo, w.hi), (Some(29), Some(33)));
        // Not reached stays open.
        let open = ItemInterval {
            hi: None,
            hi_n: None,
            ..iv(40, 0)
        };
        assert_eq!(widen(open, Some(45), &m(0.8, 1.3), 100).hi, None);
        assert_eq!(widen(iv(70, 80), Some(78), &m(0.5, 3.0), 100).hi, None);
        assert!(is_wide(20, &iv(14, 22)));
        assert!(!is_wide(20, &iv(16, 24)));
    }

    #[test]
    fn margins_exist_from_three_votes_and_err_wide_between_rows() {
        for metric in Metric::ALL {
            assert!(margin(metric, 2).is_none());
            let three = margin(metric, 3).expect("calibrated at 3 votes");
            assert!(three.lo <= 1.0 && three.hi >= 1.0, "{three:?}");
            // 7 votes take the 5-vote row; 500 the largest calibrated one.
            assert_eq!(margin(metric, 7).map(|r| r.votes), Some(5));
            let top = CALIBRATION.iter().map(|r| r.votes).max();
            assert_eq!(margin(metric, 500).map(|r| r.votes), top);
        }
    }
}

//! Ranking a repeat's N-rater means fast: on a scale whose values lie on a grid of whole steps,
//! the means are ranked by counting their sums of steps instead of sorting them (the rating
//! curves' rank correlation; the same ranks bit for bit, `ratings/tests.rs`).

use super::scale::Scale;
#[cfg(doc)]
use crate::metrics::corr::ranks;

/// Most steps a scale may have for [`steps`] (a 0–100 slider in whole points has 100).
const MAX_STEPS: f64 = 1000.0;

/// Each class's whole number of steps above the lowest value, where every value is lowest + d·k
/// (d the smallest gap, k whole, up to [`MAX_STEPS`]): then N ratings' sum is lowest·N + d·(their
/// steps' sum), so a repeat ranks its items' N-rater means by counting the sums of steps
/// ([`key_ranks`]) instead of sorting the means — the same ranks, since the mean grows with the
/// sum. `None` for values off any such grid (then the means are sorted).
pub(super) fn steps(scale: &Scale) -> Option<Vec<u32>> {
    let asc = scale.ascending();
    let low = scale.values[asc[0]];
    let d = asc
        .windows(2)
        .map(|w| scale.values[w[1]] - scale.values[w[0]])
        .fold(f64::INFINITY, f64::min);
    if !(d > 0.0 && d.is_finite()) {
        return None;
    }
    scale
        .values
        .iter()
        .map(|&v| {
            let k = (v - low) / d;
            let whole = k.round();
            ((k - whole).abs() < 1e-9 && whole <= MAX_STEPS).then_some(whole as u32)
        })
        .collect()
}

/// Average ranks (1-based, ties given their mean rank, as [`ranks`]) of whole-number keys in
/// 0..=`top`, by counting; `count` is reused between calls.
pub(super) fn key_ranks(keys: &[u32], top: usize, count: &mut Vec<f64>) -> Vec<f64> {
    count.clear();
    count.resize(top + 1, 0.0);
    for &k in keys {
        count[k as usize] += 1.0;
    }
    // count[k] becomes the average rank of key k: the keys below it, then the middle of its own.
    let mut below = 0.0;
    for c in count.iter_mut() {
        let here = *c;
        *c = below + (here + 1.0) / 2.0;
        below += here;
    }
    keys.iter().map(|&k| count[k as usize]).collect()
}

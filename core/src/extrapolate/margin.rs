//! One row of the identification margins' table ([`super::calibration`], generated): a leaf, so the
//! table and the code that reads it ([`super::identification`]) do not import each other.

use crate::curves::Metric;
use serde::{Deserialize, Serialize};

/// One row of the calibration: the margin of `metric` for data with `votes` votes per item, and
/// how often the product's interval held the real point on the calibration sets.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Margin {
    pub metric: Metric,
    pub votes: u32,
    /// The real point over the extrapolated one: the prediction interval's ends (lo ≤ 1 ≤ hi).
    pub lo: f64,
    pub hi: f64,
    /// Checks (sets × cuts) the margin was measured on, and the sets.
    pub checks: u32,
    pub sets: u32,
    /// Checks with a number when their set is left out of the margin (a set with more classes
    /// than every other gets none, as the product gives none past [`super::identification::MAX_CLASSES`]), and of
    /// those, the ones whose interval held the real point: the coverage on data the margin was
    /// not tuned to.
    #[serde(default)]
    pub held_out_checks: u32,
    pub held_out_covered: u32,
}

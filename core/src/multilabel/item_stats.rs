//! The per-item values and the F1 and Pearson arithmetic that the multilabel curves and their item
//! bootstrap both use: a leaf, so `curves.rs` and `bands.rs` do not import each other for it.

/// One item at one N: its metric values and its thresholded sets.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct ItemAt {
    pub kl: f64,
    pub jsd: f64,
    pub brier: f64,
    pub soft_bce: f64,
    /// Σ_l H(q_l).
    pub x: f64,
    /// Labels with q ≥ ½.
    pub pred: u64,
}

impl ItemAt {
    /// The sums the curves add per item, in their slot order: KL, JS distance, Brier, soft BCE,
    /// exact match (`exact`), then x, x² and x·y (`yc`: the item's centred entropy of all votes)
    /// for the entropy correlation.
    pub(super) fn sums(&self, exact: f64, yc: f64) -> [f64; 8] {
        [
            self.kl,
            self.jsd,
            self.brier,
            self.soft_bce,
            exact,
            self.x,
            self.x * self.x,
            self.x * yc,
        ]
    }
}

/// F1 = 2TP / (2TP + FP + FN), undefined with no positives on either side.
pub(super) fn f1(tp: u64, fp: u64, fn_: u64) -> Option<f64> {
    let d = 2 * tp + fp + fn_;
    (d > 0).then(|| 2.0 * tp as f64 / d as f64)
}

/// Macro- and micro-F1 from per-label (tp, fp, fn); macro over labels with tp + fn > 0.
pub(super) fn macro_micro(counts: impl Iterator<Item = (u64, u64, u64)>) -> (f64, f64) {
    let (mut sum, mut k) = (0.0, 0u32);
    let (mut tp, mut fp, mut fn_) = (0u64, 0u64, 0u64);
    for (a, b, c) in counts {
        if a + c > 0 {
            sum += f1(a, b, c).unwrap_or(0.0);
            k += 1;
        }
        tp += a;
        fp += b;
        fn_ += c;
    }
    (
        if k > 0 { sum / k as f64 } else { f64::NAN },
        f1(tp, fp, fn_).unwrap_or(f64::NAN),
    )
}

/// Pearson from Σx, Σx², Σx·y_c (y centred, Σy_c² = `syy`) over `n` pairs; NaN when a side is
/// constant.
pub(super) fn pearson_from(n: f64, sx: f64, sxx: f64, sxy: f64, syy: f64) -> f64 {
    let vx = sxx - sx * sx / n;
    if n < 2.0 || vx <= 1e-12 * sxx.max(1e-300) || syy <= 0.0 {
        return f64::NAN;
    }
    (sxy / libm::sqrt(vx * syy)).clamp(-1.0, 1.0)
}

//! The multilabel metrics, each between an item's per-label shares from N annotators (q) and from
//! all of its annotators (p). "Per label" means a Bernoulli distribution per label (ticked or
//! not); natural log throughout, as in [`crate::metrics`].

use serde::{Deserialize, Serialize};

/// One multilabel target-side metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MlMetric {
    /// Mean over labels of the Bernoulli KL(p ‖ q̃), q̃ = (c + ½)/(N + 1) (add-½ smoothing, so a
    /// label no subsampled annotator ticked stays finite; the single-label add-1/K with K = 2).
    Kl,
    /// Mean over labels of the Bernoulli Jensen–Shannon distance between p and q.
    Jsd,
    /// Mean over labels of (q − p)².
    Brier,
    /// Mean over labels of the Bernoulli cross-entropy −[p ln q̃ + (1 − p) ln(1 − q̃)] (SoftBCE of
    /// the N-vote shares as a prediction of the full shares): KL plus the items' own entropy.
    SoftBce,
    /// Pearson correlation over items of the label-set entropy Σ_l H(q_l) with Σ_l H(p_l): do N
    /// annotators rank items by ambiguity as all of them do? Undefined at N = 1.
    EntropyCorr,
    /// Macro-F1 of the thresholded labels (q ≥ ½) against the full-vote thresholded labels (p ≥ ½),
    /// averaged over the labels that the full votes give at least one item.
    MacroF1,
    /// Micro-F1 of the same: true and false positives and negatives pooled over labels.
    MicroF1,
    /// Share of items whose thresholded label set equals the full-vote thresholded set.
    ExactSet,
}

impl MlMetric {
    pub const ALL: [MlMetric; 8] = [
        MlMetric::Kl,
        MlMetric::Jsd,
        MlMetric::Brier,
        MlMetric::SoftBce,
        MlMetric::EntropyCorr,
        MlMetric::MacroF1,
        MlMetric::MicroF1,
        MlMetric::ExactSet,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MlMetric::Kl => "kl",
            MlMetric::Jsd => "jsd",
            MlMetric::Brier => "brier",
            MlMetric::SoftBce => "soft_bce",
            MlMetric::EntropyCorr => "entropy_corr",
            MlMetric::MacroF1 => "macro_f1",
            MlMetric::MicroF1 => "micro_f1",
            MlMetric::ExactSet => "exact_set",
        }
    }

    /// What a reader sees on a panel.
    pub fn title(self) -> &'static str {
        match self {
            MlMetric::Kl => "Per-label KL (lower is better)",
            MlMetric::Jsd => "Per-label JS distance (lower is better)",
            MlMetric::Brier => "Per-label Brier (lower is better)",
            MlMetric::SoftBce => "SoftBCE (lower is better)",
            MlMetric::EntropyCorr => "Label-set entropy correlation (higher is better)",
            MlMetric::MacroF1 => "Macro-F1 at ½ (higher is better)",
            MlMetric::MicroF1 => "Micro-F1 at ½ (higher is better)",
            MlMetric::ExactSet => "Exact label-set agreement (higher is better)",
        }
    }

    pub fn from_name(s: &str) -> Option<MlMetric> {
        MlMetric::ALL.into_iter().find(|m| m.name() == s)
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// Distances and losses fall with N; agreement and correlation rise.
    pub fn lower_is_better(self) -> bool {
        matches!(
            self,
            MlMetric::Kl | MlMetric::Jsd | MlMetric::Brier | MlMetric::SoftBce
        )
    }

    /// Whether an undefined first value counts as 0 in the improvement fraction (a correlation:
    /// a ranking with no information correlates 0).
    pub fn zero_if_undefined(self) -> bool {
        self == MlMetric::EntropyCorr
    }
}

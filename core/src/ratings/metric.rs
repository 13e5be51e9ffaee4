//! What a rating curve measures, as the CLI, its CSV and JSON and the app name it.

use serde::{Deserialize, Serialize};

/// What a rating curve measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingMetric {
    MeanError,
    MeanRmse,
    Reliability,
    RankCorr,
    Wasserstein,
}

impl RatingMetric {
    pub const ALL: [RatingMetric; 5] = [
        RatingMetric::MeanError,
        RatingMetric::MeanRmse,
        RatingMetric::Reliability,
        RatingMetric::RankCorr,
        RatingMetric::Wasserstein,
    ];

    /// The metrics with a panel in the app and a saturation and within point in the CLI (the
    /// RMSE's are the mean error's).
    pub const SHOWN: [RatingMetric; 4] = [
        RatingMetric::MeanError,
        RatingMetric::Reliability,
        RatingMetric::RankCorr,
        RatingMetric::Wasserstein,
    ];

    /// The level a `within` point is read at: the headline's precision for the metrics in scale
    /// points, its reliability for the others.
    pub fn level(self, precision: f64, reliability: f64) -> f64 {
        if self.lower_is_better() {
            precision
        } else {
            reliability
        }
    }

    /// The name in the CLI's CSV and JSON and in the app.
    pub fn name(self) -> &'static str {
        match self {
            RatingMetric::MeanError => "mean_error",
            RatingMetric::MeanRmse => "mean_rmse",
            RatingMetric::Reliability => "reliability",
            RatingMetric::RankCorr => "rank_corr",
            RatingMetric::Wasserstein => "wasserstein",
        }
    }

    pub fn from_name(s: &str) -> Option<RatingMetric> {
        RatingMetric::ALL.into_iter().find(|m| m.name() == s)
    }

    pub fn title(self) -> &'static str {
        match self {
            RatingMetric::MeanError => "mean-rating error (scale points)",
            RatingMetric::MeanRmse => "mean-rating RMSE (scale points)",
            RatingMetric::Reliability => "reliability of the N-rater mean (ICC(1,k))",
            RatingMetric::RankCorr => "ranking items by their mean (Spearman)",
            RatingMetric::Wasserstein => "Wasserstein-1 to all ratings (scale points)",
        }
    }

    /// Errors and distances fall with N; reliability and correlation rise.
    pub fn lower_is_better(self) -> bool {
        matches!(
            self,
            RatingMetric::MeanError | RatingMetric::MeanRmse | RatingMetric::Wasserstein
        )
    }
}

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

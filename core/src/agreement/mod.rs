//! Agreement and aggregation as N grows (`annosat agree`, `annosat aggregate`).
//!
//! - [`alpha`]: Krippendorff's α of the votes (nominal, ordinal or interval), on all of them and on
//!   N-vote subsamples, from the items' class counts alone.
//! - [`dawid_skene`]: the Dawid–Skene model (annotator confusion matrices by EM) and majority
//!   vote, each item's aggregate label from its votes.
//! - [`aggregation`]: how often the aggregate label from N votes per item matches the one from all
//!   votes, for majority vote and Dawid–Skene, over seeded subsamples.

use crate::curves::CurvePoint;
use crate::votes::VoteTable;

pub mod aggregation;
pub mod alpha;
pub mod dawid_skene;

pub use aggregation::{aggregation_curve, AggregationCurve, AggregationMethod};
pub use alpha::{alpha_curve, krippendorff_alpha, AlphaCurve, Level};
pub use dawid_skene::{dawid_skene, majority_vote, DsConfig, DsFit};

/// Labels as sets of tied classes, and the credit of a label from N votes against the label from
/// all votes: the project's one tie rule (`metrics::calibration`).
pub use crate::metrics::calibration::{argmax_mask, majority_agreement};

/// What `annosat agree` computes and the Plan room shows: α, majority vote and Dawid–Skene vs N.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AgreeConfig {
    pub level: Level,
    /// N values; empty: 1..=most votes an item has (α from 2).
    pub grid: Vec<u32>,
    pub repeats: u32,
    pub seed: u64,
    /// Dawid–Skene's EM (it runs when the votes have annotator ids).
    pub ds: DsConfig,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Agreement {
    pub alpha: AlphaCurve,
    pub aggregation: AggregationCurve,
}

/// Both curves of `table`; `progress(done, total)` as the aggregation runs (α is quick).
pub fn agreement(
    table: &VoteTable,
    cfg: &AgreeConfig,
    progress: &mut dyn FnMut(u64, u64),
) -> Agreement {
    Agreement {
        alpha: alpha_curve(table, &cfg.level, &cfg.grid, cfg.repeats, cfg.seed),
        aggregation: aggregation_curve(
            table,
            &cfg.grid,
            cfg.repeats,
            cfg.seed,
            Some(&cfg.ds),
            progress,
        ),
    }
}

impl Agreement {
    /// Rows in N order, then α, majority vote, Dawid–Skene: (N, metric name, point).
    pub fn rows(&self) -> Vec<(u32, &'static str, CurvePoint)> {
        let (a, g) = (&self.alpha, &self.aggregation);
        let mut rows = Vec::new();
        for (gi, &n) in g.grid.iter().enumerate() {
            if let Some(ga) = a.grid.iter().position(|&x| x == n) {
                rows.push((n, "krippendorff_alpha", a.point_at(ga)));
            }
            for (m, method) in g.methods.iter().enumerate() {
                rows.push((n, method.metric_name(), g.point_at(m, gi)));
            }
        }
        rows
    }

    /// `n,metric,mean,lo,hi` (undefined values empty), as `annosat agree` prints it.
    pub fn to_csv(&self) -> String {
        let f = |x: Option<f64>| x.map_or(String::new(), |v| v.to_string());
        let mut s = String::from("n,metric,mean,lo,hi\n");
        for (n, m, p) in self.rows() {
            s += &format!("{n},{m},{},{},{}\n", f(p.mean), f(p.lo), f(p.hi));
        }
        s
    }
}

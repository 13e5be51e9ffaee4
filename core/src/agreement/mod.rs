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
pub mod gwet;

pub use aggregation::{aggregation_curve, AggregationCurve, AggregationMethod};
pub use alpha::{
    alpha_curve, coefficient_curves, krippendorff_alpha, AlphaCurve, CoefCurve, Level,
};
pub use dawid_skene::{dawid_skene, majority_vote, DsConfig, DsFit};
pub use gwet::{gwet_ac, Weights};

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
    /// Gwet's AC1, and for classes on a scale (an ordinal or interval level) AC2 with ordinal,
    /// linear and quadratic weights, on α's subsamples.
    #[serde(default)]
    pub gwet: Vec<CoefCurve<Weights>>,
    pub aggregation: AggregationCurve,
}

/// Both curves of `table`; `progress(done, total)` as the aggregation runs (α is quick).
pub fn agreement(
    table: &VoteTable,
    cfg: &AgreeConfig,
    progress: &mut dyn FnMut(u64, u64),
) -> Agreement {
    let k = table.num_classes();
    let level = &cfg.level;
    let alpha = |c: &[u32]| krippendorff_alpha(c, k, level);
    let values = level.scale_values();
    let weights: Vec<(Weights, Vec<f64>)> = std::iter::once(Weights::Identity)
        .chain(values.iter().flat_map(|_| Weights::SCALE))
        .map(|w| {
            let at = values
                .clone()
                .unwrap_or_else(|| (0..k).map(|c| c as f64).collect());
            (w, w.matrix(&at))
        })
        .collect();
    let acs: Vec<_> = weights
        .iter()
        .map(|(_, m)| move |c: &[u32]| gwet_ac(c, k, m))
        .collect();
    let mut coefs: Vec<(Option<Weights>, alpha::Coefficient)> = vec![(None, &alpha)];
    for ((w, _), ac) in weights.iter().zip(&acs) {
        coefs.push((Some(*w), ac));
    }
    let mut curves = coefficient_curves(table, &coefs, &cfg.grid, cfg.repeats, cfg.seed);
    let gwet = curves
        .split_off(1)
        .into_iter()
        .map(|c| CoefCurve::retag(c, |w| w.expect("a weight")))
        .collect();
    let alpha = CoefCurve::retag(curves.remove(0), |_| level.clone());
    Agreement {
        alpha,
        gwet,
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
                for c in &self.gwet {
                    rows.push((n, c.kind.metric_name(), c.point_at(ga)));
                }
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

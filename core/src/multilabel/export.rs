//! A multilabel model export (`multilabel.json`): what `annosat sweep` trained on multilabel votes,
//! and its evaluation — curves per arm and metric with item intervals, verdicts, comparisons — so
//! the app draws it and the docs quote it without recomputing anything.

use super::model_labels::MlLabelCurve;
use super::models::{MlModelEvaluation, MlModelMetric};
use crate::models::HeadConfig;
use serde::{Deserialize, Serialize};

/// The name of the baseline arm every arm is compared with (each label's mean training share).
pub const CONSTANT_ARM: &str = "constant";

/// The arms the per-label curves are computed for.
pub const PER_LABEL_ARMS: [&str; 3] = ["soft", "hard", CONSTANT_ARM];

/// The export's file name beside its `features.safetensors`.
pub const FILE: &str = "multilabel.json";

/// One arm's name and what it trains on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MlArmInfo {
    pub name: String,
    pub description: String,
}

/// Field order is the file's byte order (the committed export regenerates bit for bit).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MlExport {
    pub dataset: String,
    pub encoder: String,
    pub layout: String,
    /// FNV-1a of the f16 head features trained on.
    pub features: String,
    pub items: usize,
    pub labels: Vec<String>,
    /// The most annotators of an item: the reference is every item's full label shares.
    pub votes_per_item: u32,
    pub folds: u64,
    pub model_seeds: u64,
    pub head: HeadConfig,
    pub arms: Vec<MlArmInfo>,
    /// Mean best epoch per arm and N (`arms` × `evaluation.ns`), over folds and model seeds.
    pub best_epochs: Vec<Vec<f64>>,
    pub evaluation: MlModelEvaluation,
    /// Per label, for soft, hard and the constant: SoftBCE and F1 over N with bands and verdicts
    /// (which labels a head learns with more annotators).
    #[serde(default)]
    pub per_label: Vec<MlLabelCurve>,
    /// Per label, the lowest SoftBCE reachable: its mean full-vote Bernoulli entropy.
    #[serde(default)]
    pub label_floors: Vec<f64>,
}

impl MlExport {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("an export serialises") + "\n"
    }

    pub fn from_json(s: &str) -> Result<MlExport, String> {
        serde_json::from_str(s).map_err(|e| format!("not a multilabel export: {e}"))
    }

    /// The sentences the app and the docs show, generated from the numbers: per metric, each arm's
    /// verdict on N, then soft against hard at the largest N.
    pub fn sentences(&self) -> Vec<String> {
        let e = &self.evaluation;
        let Some(&last) = e.ns.last() else {
            return vec!["This export has no budgets.".into()];
        };
        let mut out = Vec::new();
        for metric in MlModelMetric::ALL {
            let mut parts = Vec::new();
            for arm in &e.arms {
                if let Some(c) = e.curve(arm, metric) {
                    parts.push(format!(
                        "{arm} {} (at N = {last}: {})",
                        c.verdict.headline(),
                        c.verdict.last_text()
                    ));
                }
            }
            let mut s = format!("{}: {}.", metric.name(), parts.join("; "));
            if let Some(v) = e.versus.iter().find(|v| {
                v.arm == "soft" && v.against == "hard" && v.n == last && v.metric == metric
            }) {
                let num = |x: Option<f64>| x.map_or("undefined".into(), |x| format!("{x:+.3}"));
                s.push_str(&format!(
                    " Soft − hard at N = {last}: {} [{}, {}], {}.",
                    num(v.diff),
                    num(v.lo),
                    num(v.hi),
                    v.outcome
                ));
            }
            s.push_str(&self.against_constant(metric, last));
            out.push(s);
        }
        out
    }

    /// " Against the constant baseline at N = 15: soft, multipass better; hard worse." — which
    /// arms beat a predictor that ignores the texts (intervals excluding 0), before any arm is
    /// said to have learned something.
    fn against_constant(&self, metric: MlModelMetric, last: u32) -> String {
        let (mut better, mut same, mut worse) = (Vec::new(), Vec::new(), Vec::new());
        for v in self
            .evaluation
            .versus
            .iter()
            .filter(|v| v.against == CONSTANT_ARM && v.n == last && v.metric == metric)
        {
            if v.outcome == format!("{} better", v.arm) {
                better.push(v.arm.as_str());
            } else if v.outcome == format!("{CONSTANT_ARM} better") {
                worse.push(v.arm.as_str());
            } else {
                same.push(v.arm.as_str());
            }
        }
        if better.is_empty() && same.is_empty() && worse.is_empty() {
            return String::new();
        }
        let mut parts = Vec::new();
        if better.is_empty() {
            parts.push("no arm is better".to_string());
        } else {
            parts.push(format!("{} better", better.join(", ")));
        }
        if !same.is_empty() {
            parts.push(format!("{} no detectable difference", same.join(", ")));
        }
        if !worse.is_empty() {
            parts.push(format!("{} worse", worse.join(", ")));
        }
        format!(
            " Against the constant baseline at N = {last}: {}.",
            parts.join("; ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_export_reads_and_writes_back_byte_for_byte() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../public/models/crowdtruth_medrelex")
            .join(FILE);
        let text = std::fs::read_to_string(path).expect("the committed multilabel export");
        let e = MlExport::from_json(&text).unwrap();
        assert_eq!(e.to_json(), text);
        let sentences = e.sentences();
        assert_eq!(sentences.len(), MlModelMetric::ALL.len());
        // The committed run: on SoftBCE at N = 15 soft, smoothed and multipass beat the constant
        // (docs/multilabel.md's generated block says the same from the same numbers).
        let bce = &sentences[0];
        assert!(
            bce.contains("Against the constant baseline at N = 15: "),
            "{bce}"
        );
        for arm in ["soft", "smoothed", "multipass"] {
            let v = e.evaluation.versus.iter().find(|v| {
                v.arm == arm
                    && v.against == CONSTANT_ARM
                    && v.n == 15
                    && v.metric == MlModelMetric::SoftBce
            });
            assert_eq!(
                v.map(|v| v.outcome.as_str()),
                Some(format!("{arm} better").as_str())
            );
        }
        assert!(bce.contains("soft, smoothed, multipass better"), "{bce}");
        assert!(MlExport::from_json("{}")
            .unwrap_err()
            .starts_with("not a multilabel export"));
    }
}

//! A multilabel model export (`multilabel.json`): what `annosat sweep` trained on multilabel votes,
//! and its evaluation — curves per arm and metric with item intervals, verdicts, comparisons — so
//! the app draws it and the docs quote it without recomputing anything.

use super::models::{MlModelEvaluation, MlModelMetric};
use crate::models::HeadConfig;
use serde::{Deserialize, Serialize};

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
            out.push(s);
        }
        out
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
        assert_eq!(e.sentences().len(), MlModelMetric::ALL.len());
        assert!(MlExport::from_json("{}")
            .unwrap_err()
            .starts_with("not a multilabel export"));
    }
}

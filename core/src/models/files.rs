//! The export files' types, one per format (docs/exports.md), written by `annosat sweep` /
//! `annosat repro` and read by the app and the CLI through these same types. Field order is the
//! files' byte order: never reorder (the committed exports regenerate byte for byte).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `manifest.json`'s schema tag.
pub const MANIFEST_SCHEMA: &str = "annosat-models/1";
/// `reproduction.json`'s schema tag.
pub const REPRO_SCHEMA: &str = "annosat-repro/1";

/// How `predictions.bin` is encoded (the manifest's `predictions`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Predictions {
    pub file: String,
    pub dtype: String,
    pub layout: String,
}

impl Predictions {
    /// The one encoding the sweep writes.
    pub fn u16() -> Self {
        Predictions {
            file: "predictions.bin".into(),
            dtype: "u16 little-endian, probability = value / 65535".into(),
            layout: "runs in manifest order; per run, the split's test items in order × classes"
                .into(),
        }
    }
}

impl Default for Predictions {
    fn default() -> Self {
        Predictions::u16()
    }
}

/// One entry of `training.json`: a run's mean cross-entropy per epoch (5 significant digits).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingEntry {
    pub arm: String,
    pub n: u32,
    pub split: u64,
    pub seed: u64,
    pub train_loss: Vec<f64>,
    pub val_loss: Vec<f64>,
}

/// `models/index.json`: what has been exported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportsIndex {
    pub exports: Vec<ExportEntry>,
    pub schema: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportEntry {
    pub dataset: String,
    /// The manifest's path, relative to the index.
    pub path: String,
    /// `all` or `heldout`.
    pub reference: String,
}

/// `models/reproduction.json` (`annosat repro`): published numbers beside ours.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Repro {
    pub schema: String,
    pub ours_model: String,
    pub command: String,
    pub datasets: Vec<String>,
    pub rows: Vec<ReproRow>,
    /// Sentences about these numbers, generated from them (docs/models.md quotes them verbatim).
    #[serde(default)]
    pub findings: Vec<String>,
    /// The synthetic control (`annosat synth` data, known truth): one column per feature-noise level.
    #[serde(default)]
    pub control_datasets: Vec<String>,
    #[serde(default)]
    pub controls: Vec<ReproRow>,
    /// What each control dataset is (its generator's settings and reference), by name.
    #[serde(default)]
    pub control_notes: Vec<(String, String)>,
    /// Every export's verdicts: `models.<export>.<arm>.<metric>`, the export named by its dataset,
    /// `<dataset>/heldout`, or `<dataset>/<source>` within one source of a pooled export.
    #[serde(default)]
    pub models: BTreeMap<String, BTreeMap<String, BTreeMap<String, super::MetricVerdict>>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReproRow {
    pub source: String,
    pub claim: String,
    pub published: String,
    pub published_model: String,
    /// Per dataset, our value as shown.
    pub ours: BTreeMap<String, String>,
    #[serde(default)]
    pub note: String,
}

/// What each training arm's targets are, by arm name (label smoothing's ε is in the name): for
/// `annosat sweep --help` and the app's arm toggles.
pub fn arm_description(arm: &str) -> String {
    match arm {
        "hard" => "one-hot majority of the N votes (ties broken by a seeded draw)".into(),
        "soft" => "the N votes' distribution p_N".into(),
        "dirichlet" => "p_N smoothed with 1/K pseudo-votes per class: (c + 1/K) / (N + 1)".into(),
        "sls" => "stochastic label sampling: the N votes dealt over 4 epochs in a fresh random order each cycle, each epoch's target the share of its votes (one vote per epoch when N ≤ 4)".into(),
        "multipass" => "the N votes dealt over 4 epochs in a fixed order, cycled (vote epoch mod N when N ≤ 4); kept only once every vote was delivered".into(),
        "deterministic" => "control: multipass without cycling, its first epoch's votes every epoch (1 vote when N ≤ 4, N/4 above)".into(),
        "shuffled_sls" => "control: sls fed another training item's votes, breaking the item–distribution match".into(),
        "constant" => "baseline, no head: the training items' mean p_N for every item".into(),
        "knn" => "baseline, no head: mean p_N of the k nearest training items in feature space (k chosen on validation), shrunk towards the constant by one pseudo-item".into(),
        "temp_hard" => "the hard model with one temperature fitted on the validation items' p_N (post hoc; not trained apart)".into(),
        a => match a.strip_prefix("ls").and_then(|e| e.parse::<f64>().ok()) {
            Some(e) => format!("label smoothing ε = {e}: (1 − ε) · one-hot majority + ε / K"),
            None => "an arm this version does not know".into(),
        },
    }
}

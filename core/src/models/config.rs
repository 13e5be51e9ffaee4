//! A sweep's configuration, as the manifest records it: written by `annosat sweep`, read by the
//! app's model worker (which retrains runs of an export in the tab with the same settings) and by
//! anything that checks what an export was trained with. Plain data, so it lives in the core.

use serde::{Deserialize, Serialize};

/// The N grid of the study (`annosat sweep`'s default; capped at the data's votes per item).
pub const N_GRID: [u32; 11] = [1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 100];

/// The head and its optimiser (one setting for every arm; see docs/models.md's grid note).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HeadConfig {
    pub hidden: usize,
    pub lr: f64,
    pub weight_decay: f64,
    pub batch: usize,
    /// Most epochs a group trains.
    pub epochs: usize,
    /// A group stops when no head's validation loss improved for this many epochs.
    pub patience: usize,
}

impl Default for HeadConfig {
    /// `annosat sweep`'s defaults.
    fn default() -> Self {
        HeadConfig {
            hidden: 64,
            lr: 1e-3,
            weight_decay: 1e-2,
            batch: 64,
            epochs: 60,
            patience: 8,
        }
    }
}

/// Everything that determines a sweep group's result; its hash names the trainer's work folder.
/// Field order is the JSON's byte order, hence the hash: never reorder.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SweepConfig {
    pub dataset: String,
    pub encoder: String,
    pub layout: String,
    pub ns: Vec<u32>,
    pub arms: Vec<String>,
    pub splits: Vec<u64>,
    pub seeds: u64,
    pub heldout: bool,
    pub head: HeadConfig,
    pub pca: usize,
    pub limit: Option<usize>,
    /// Hash of the head features trained on (FNV-1a of their f16 bytes).
    pub features: String,
    /// Version of the metric definitions ([`METRICS_VERSION`]); part of the hash, so finished
    /// groups computed with older definitions are trained again, not reused.
    #[serde(default)]
    pub metrics: u32,
    /// k-fold cross-validation (`--folds`): the split seeds are the fold indices 0..k and every
    /// item is tested once per model seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folds: Option<u64>,
    /// `--features`: head features other than the default pair embeddings (blocks joined with +).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature_set: Option<String>,
    /// `--truth`: test items scored against the folder's `truth.csv` (synthetic data's true
    /// distributions) instead of their votes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truth: bool,
}

/// Version of the metric and arm definitions. 2: Murphy's UNC is Σ_k Var(y_k) (was
/// Σ_k ȳ_k(1 − ȳ_k), which left −mean y(1 − y) in the residual with soft targets). 3: sls and
/// multipass deal all N votes over 4 epochs (were one vote per epoch, so early stopping cut them at
/// 5–13 votes); the deterministic and shuffled_sls controls and the constant and knn baselines.
/// 4: knn standardises each feature block and may take k ∈ {1, 2, 3} neighbours (was 5 at least,
/// on the raw concatenation).
pub const METRICS_VERSION: u32 = 4;

impl SweepConfig {
    /// FNV-1a of the JSON form: stable across runs and platforms (std's hasher is not).
    pub fn hash(&self) -> String {
        fnv1a_hex(
            serde_json::to_string(self)
                .expect("serialisable")
                .as_bytes(),
        )
    }
}

/// FNV-1a (64-bit) of `bytes` as 16 hex digits: names configurations and feature sets. Stable across
/// runs, platforms and Rust versions, which std's hasher is not.
pub fn fnv1a_hex(bytes: &[u8]) -> String {
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // From the FNV reference (draft-eastlake-fnv): "" and "a".
        assert_eq!(fnv1a_hex(b""), "cbf29ce484222325");
        assert_eq!(fnv1a_hex(b"a"), "af63dc4c8601ec8c");
    }
}

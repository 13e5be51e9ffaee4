//! annosat-heads: the model side's training, one implementation for the native trainer
//! (`annosat sweep`, `annosat finetune`) and the app's model worker (wasm32).
//!
//! - [`split`]: the item split of a split seed, and the seeds' names and stream keys;
//! - [`arms`]: an arm's training targets from an item's N subsampled votes;
//! - [`mlp`]: ~110 MLP heads trained as one batched candle model, with a fused AdamW (threaded
//!   natively, serial in wasm32) and early stopping;
//! - [`eval`]: metrics of predictions through annosat-core, and the temperature fit;
//! - [`group`]: one (split seed, model seed) group — every arm × N — from a [`Dataset`];
//! - [`features`]: the f16 head features a group trains on, as exported beside the sweep.

pub mod arms;
pub mod eval;
pub mod features;
pub mod group;
pub mod mlp;
pub mod split;

pub use features::HeadFeatures;
pub use group::{train_group, Dataset, GroupResult, RunResult};

/// FNV-1a (64-bit) of `bytes` as 16 hex digits: names configurations and feature sets. Stable across
/// runs, platforms and Rust versions, which std's hasher is not.
pub fn fnv1a_hex(bytes: &[u8]) -> String {
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    format!("{h:016x}")
}

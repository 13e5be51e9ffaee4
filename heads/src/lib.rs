//! annosat-heads: the model side's training, one implementation for the native trainer
//! (`annosat sweep`, `annosat finetune`) and the app's model worker (wasm32).
//!
//! - [`split`]: the item split of a split seed, and the seeds' names and stream keys;
//! - [`arms`]: an arm's training targets from an item's N subsampled votes;
//! - [`baselines`]: the constant and nearest-neighbour predictors every arm is compared with;
//! - [`mlp`]: ~130 MLP heads trained as one batched model, with early stopping;
//! - [`multilabel`]: sigmoid heads on N annotators' label sets (soft, hard, smoothed, multipass);
//! - [`ml_sweep`]: a multilabel sweep's design and its groups assembled into an export;
//! - [`first_layer`], [`second_layer`]: the heads' stacked layers, forward and backward outside
//!   candle's autograd (candle's own GEMM calls, [`matmul`], into reused buffers, bit for bit);
//! - `shard`: one core's contiguous range of a group's heads, stepped on its own thread;
//! - [`adamw`]: candle-nn's AdamW fused and in place (threaded natively, serial in wasm32);
//! - [`eval`]: metrics of predictions through annosat-core, and the temperature fit;
//! - [`group`]: one (split seed, model seed) group — every arm × N — from a [`Dataset`];
//! - [`features`]: the f16 head features a group trains on, as exported beside the sweep;
//! - [`manifest`]: trained groups as an export's manifest (with verdicts) and predictions.bin.

pub mod adamw;
pub mod arms;
pub mod baselines;
pub mod budget;
pub mod dataset;
pub mod eval;
pub mod features;
pub mod first_layer;
pub mod group;
pub mod loss;
pub mod manifest;
pub mod matmul;
pub mod ml_sweep;
pub mod mlp;
pub mod multilabel;
pub mod second_layer;
mod shard;
pub mod split;

pub use features::HeadFeatures;
pub use group::{train_group, Dataset, GroupResult, RunResult};

/// FNV-1a, defined once in the core (it also names sweep configurations).
pub use annosat_core::models::fnv1a_hex;

//! The messages between the coordinator and its pool workers: a task ([`Part`]) and what a worker
//! says back ([`Reply`]), as postcard bytes (exact floats, NaN included).

use annosat_core::models::HeadConfig;
use annosat_heads::multilabel::MlFold;
use annosat_heads::GroupResult;
use serde::{Deserialize, Serialize};

/// One task for a pool worker.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Part {
    /// Embed one batch of texts with the encoder at `encoder_url`.
    Embed {
        encoder_url: String,
        texts: Vec<String>,
    },
    /// Train one group (split seed, or fold when `folds` is set) of every arm × N. The message
    /// carries the dataset's bundle and the head features as its third and fourth elements.
    Train {
        name: String,
        folds: Option<u64>,
        split: u64,
        ns: Vec<u32>,
        head: HeadConfig,
        arms: Vec<String>,
        model_seed: u64,
    },
    /// Train one multilabel (fold, model seed) group of every arm × N. The message carries the
    /// multilabel bundle and the head features as its third and fourth elements.
    TrainMl {
        fold: u64,
        folds: u64,
        model_seed: u64,
        ns: Vec<u32>,
        head: HeadConfig,
        arms: Vec<String>,
    },
}

/// What a pool worker says back: progress, then its task's result or a failure.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Reply {
    /// An epoch of the group it trains.
    Epoch {
        epoch: usize,
        train_loss: f32,
    },
    Embedded {
        dim: usize,
        values: Vec<f32>,
        /// The worker's wasm memory now (what one worker holds).
        memory: usize,
    },
    Trained {
        /// Epochs the group ran, and the group with only the asked-for arms' runs.
        epochs: usize,
        group: GroupResult,
        memory: usize,
    },
    MlTrained {
        epochs: usize,
        fold: MlFold,
        memory: usize,
    },
    Failed(String),
}

impl Reply {
    pub(crate) fn is_result(&self) -> bool {
        matches!(
            self,
            Reply::Embedded { .. } | Reply::Trained { .. } | Reply::MlTrained { .. }
        )
    }
}

pub(crate) fn encode<T: Serialize>(v: &T) -> js_sys::Uint8Array {
    js_sys::Uint8Array::from(postcard::to_allocvec(v).unwrap_or_default().as_slice())
}

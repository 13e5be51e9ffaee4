//! Messages between the page and the model worker. A request is a JS array `[json, bundle,
//! features]`: the request as JSON and, for `Train`, the dataset's bundle (`annosat bundle`) and
//! head features (`features.safetensors` of an export) as bytes. Responses are JSON strings.

use annosat_core::models::{HeadConfig, RunMetrics};
use serde::{Deserialize, Serialize};

/// What to train: the arms × N of one (split seed, model seed) group, as `annosat sweep` would.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainJob {
    pub dataset: String,
    /// Targets from 80% of each item's votes, scored against the other 20% (the sweep's `--heldout`).
    pub heldout: bool,
    /// Arm names (`temp_hard` trains `hard` too: it is hard with a fitted temperature).
    pub arms: Vec<String>,
    pub ns: Vec<u32>,
    /// The split seed, or for a k-fold export (`folds`) the fold index.
    pub split_seed: u64,
    pub model_seed: u64,
    /// The export's k-fold cross-validation (`SweepConfig::folds`), so a fold's items are split
    /// as the sweep split them.
    #[serde(default)]
    pub folds: Option<u64>,
    pub head: HeadConfig,
    /// Train exactly this many epochs instead of stopping early. A sweep group stops when none of
    /// its ~110 heads improved for `patience` epochs; training a few of its heads alone would stop
    /// sooner, so retraining runs of an export uses the group's length (from training.json). Each
    /// head still keeps its best validation epoch, so its result is the one the sweep exported.
    pub fixed_epochs: Option<usize>,
}

/// The user's own data: embed the items' texts with the app's encoder, then train heads on the
/// embeddings for every N of the grid the data allows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OwnJob {
    /// The upload's file name (for messages).
    pub votes_name: String,
    /// The texts file's name, when one is attached (`items.jsonl`, or CSV `item_id,text`).
    pub texts_name: Option<String>,
    pub arms: Vec<String>,
    pub split_seed: u64,
    pub model_seed: u64,
    pub head: HeadConfig,
    /// Where the encoder's files are (`encoder/`, relative to the page).
    pub encoder_url: String,
    /// The Plan room: run the budget planner on the embeddings instead of the N grid (answered
    /// with `Budgeted`).
    #[serde(default)]
    pub plan: Option<annosat_core::models::budget::BudgetConfig>,
    /// Model workers embedding and training (the page's pool size; see `pool/`).
    #[serde(default = "one")]
    pub workers: usize,
}

fn one() -> usize {
    1
}

/// A synthetic dataset (`annosat_core::synth`, regenerated here from its settings: the page and
/// the worker get the same data) trained over the N grid its votes allow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SynthJob {
    pub config: annosat_core::synth::SynthConfig,
    pub arms: Vec<String>,
    pub split_seed: u64,
    pub model_seed: u64,
    pub head: HeadConfig,
    /// Model workers training the folds.
    #[serde(default = "one")]
    pub workers: usize,
}

/// The budget planner (`annosat plan`) on a bundled dataset's exported head features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BudgetJob {
    pub dataset: String,
    pub config: annosat_core::models::budget::BudgetConfig,
}

/// Most model workers one job uses, whatever the machine says (the page's pool size is also
/// capped by its memory: [`WORKER_MEMORY_MB`] per worker).
pub const MAX_WORKERS: usize = 8;

/// About what one model worker holds (MiB): its wasm memory after embedding 1,000 tweets and
/// training their heads, as the pool's workers report it (`OwnSummary::worker_memory`,
/// `tests/browser/bench-pool.mjs`: 706 MiB). The page keeps the pool's total within half of
/// the device memory the browser reports.
pub const WORKER_MEMORY_MB: usize = 710;

/// Most texts embedded in a tab (about 2 minutes at the measured speed); beyond it, the CLI.
pub const MAX_TEXTS: usize = 20_000;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum TrainRequest {
    Train {
        id: u64,
        job: TrainJob,
    },
    /// Message: `[json, votes File, texts File or undefined]`.
    Own {
        id: u64,
        job: OwnJob,
    },
    /// Multilabel votes (either layout) with texts: embedded, then sigmoid heads per arm × N
    /// trained k-fold as `annosat sweep` trains them (`ml_own.rs`). Message: `[json, votes File,
    /// texts File or undefined]`, like `Own` (`arms` are multilabel arms; empty: all). Answered
    /// with `Stage` progress and `MlTrained`.
    Multilabel {
        id: u64,
        job: OwnJob,
    },
    /// Message: `[json]`. Answered with `Stage` progress and `OwnTrained` (no embeddings).
    Synth {
        id: u64,
        job: SynthJob,
    },
    /// Message: `[json, bundle, features]`, like `Train`. Answered with `Stage` progress (stage
    /// "train") and `Budgeted`.
    Budget {
        id: u64,
        job: BudgetJob,
    },
}

/// What the own-data job did, beside its runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OwnSummary {
    pub classes: Vec<String>,
    pub items: usize,
    /// Items in the test split the metrics are computed on.
    pub test_items: usize,
    /// k-fold (every item tested once) when set, else one seeded split.
    #[serde(default)]
    pub folds: Option<u64>,
    pub texts: usize,
    pub layout: String,
    pub encoder: String,
    pub ns: Vec<u32>,
    pub notes: Vec<String>,
    pub download_ms: f64,
    pub embed_ms: f64,
    pub train_ms: f64,
    /// Whether the encoder came from the browser's cache (no download).
    pub cached: bool,
    /// Model workers that embedded and trained, and the largest wasm memory one of them held
    /// (bytes).
    #[serde(default)]
    pub workers: usize,
    #[serde(default)]
    pub worker_memory: usize,
}

/// One trained arm at one N.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainedRun {
    pub arm: String,
    pub n: u32,
    pub best_epoch: usize,
    /// Distinct votes per item used up to the best epoch (see `annosat_core::models::Run`).
    #[serde(default)]
    pub votes_used: u32,
    pub temperature: Option<f64>,
    #[serde(default)]
    pub neighbours: Option<u32>,
    pub metrics: RunMetrics,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum TrainResponse {
    /// The worker's wasm is up; messages sent before this would be lost.
    Ready,
    /// After preparing the data (`epoch` = None) and after every epoch.
    Progress {
        id: u64,
        epoch: Option<usize>,
        /// Most epochs this job can run (fewer when it stops early).
        epochs: usize,
        heads: usize,
        train_loss: f32,
        val_loss: f32,
        elapsed_ms: f64,
    },
    /// One progress bar for the own-data job: `stage` is download, embed or train; `done` in 0..=1
    /// over the whole job; `detail` says where it is.
    Stage {
        id: u64,
        stage: String,
        done: f64,
        detail: String,
        elapsed_ms: f64,
    },
    /// The own-data job's result; the message's second element holds its embeddings (the
    /// safetensors format of `annosat embed`'s cache) for the user to download.
    OwnTrained {
        id: u64,
        summary: OwnSummary,
        /// The runs as an export's manifest (splits or folds, all-items runs, verdicts).
        manifest: Box<annosat_core::models::Manifest>,
        epochs_run: usize,
        heads: usize,
    },
    /// The multilabel job's result: the export `annosat sweep` writes (`multilabel.json`); the
    /// message's second element holds its head features (`features.safetensors`, f16), so the CLI
    /// retrains the same heads (`annosat sweep --head-features`).
    MlTrained {
        id: u64,
        summary: OwnSummary,
        export: Box<annosat_core::multilabel::export::MlExport>,
    },
    Trained {
        id: u64,
        job: TrainJob,
        runs: Vec<TrainedRun>,
        /// Epochs actually run and heads trained together.
        epochs_run: usize,
        heads: usize,
        ms: f64,
    },
    /// The budget planner's report (the CLI's `annosat plan --format json`).
    Budgeted {
        id: u64,
        report: annosat_core::models::budget::BudgetReport,
        ms: f64,
    },
    Error {
        id: u64,
        message: String,
    },
}

impl TrainJob {
    /// Epochs this job runs at most.
    pub fn max_epochs(&self) -> usize {
        self.fixed_epochs.unwrap_or(self.head.epochs)
    }
}

/// Time left, extrapolated from the epochs so far; an upper bound when the job may stop early.
pub fn eta_ms(epochs_done: usize, max_epochs: usize, elapsed_ms: f64) -> Option<f64> {
    (epochs_done > 0)
        .then(|| elapsed_ms / epochs_done as f64 * max_epochs.saturating_sub(epochs_done) as f64)
}

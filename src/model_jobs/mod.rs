//! The page's model-worker jobs, one module for every room that trains: retraining an export's
//! runs (Models room, Train here), embedding and training the user's own upload (Models room), the
//! page's synthetic data, and the budget planner (Plan room). It holds the worker's handle
//! (`handle.rs`), the jobs' phase with progress and cancel, and their results; each job carries
//! its own [`JobKey`], so an answer is filed under the data it was computed for and each room shows
//! only its own job's phase.

mod handle;
mod start;

pub use start::{start, start_budget, start_ml_own, start_own, start_synth};

use annosat_core::models::{Manifest, ModelMetric};
use annosat_model_worker::protocol::{eta_ms, OwnSummary, TrainJob, TrainResponse, TrainedRun};
use leptos::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// What a job is and for which data.
#[derive(Clone, Debug, PartialEq)]
pub enum JobKey {
    /// Train here: runs of the export whose manifest is at this path.
    Retrain { export: String },
    /// Models on your data: the upload's texts embedded, heads trained.
    Own,
    /// The page's synthetic dataset.
    Synth,
    /// The Plan room's budget planner, on the data `St::data_key` names.
    Budget { data: String },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    Idle,
    /// Fetching the dataset, head features and the group's length, or starting the worker.
    Fetching,
    Running {
        epoch: Option<usize>,
        epochs: usize,
        heads: usize,
        train_loss: f32,
        elapsed_ms: f64,
    },
    /// The own-data job: one bar over download, embedding and training.
    Stage {
        stage: String,
        done: f64,
        detail: String,
    },
    Failed(String),
    Cancelled,
}

impl Phase {
    /// Whether a job is in flight (buttons that start one are disabled).
    pub fn busy(&self) -> bool {
        matches!(
            self,
            Phase::Fetching | Phase::Running { .. } | Phase::Stage { .. }
        )
    }
}

/// The own-data job's result: runs, what was done, and the embeddings (safetensors bytes).
#[derive(Clone, Debug)]
pub struct OwnResult {
    pub summary: OwnSummary,
    /// The runs as an export's manifest (built in the worker by the sweep's code, with verdicts).
    pub manifest: Arc<Manifest>,
    pub heads: usize,
    pub embeddings: Vec<u8>,
}

/// The multilabel own-data job's result: the export `annosat sweep` would write on the same head
/// features, and those features (`features.safetensors` bytes).
#[derive(Clone, Debug)]
pub struct MlOwnResult {
    pub summary: OwnSummary,
    pub export: Arc<annosat_core::multilabel::export::MlExport>,
    pub features: Vec<u8>,
}

/// A finished job, and the export it retrains.
#[derive(Clone, Debug, PartialEq)]
pub struct Trained {
    pub export: String,
    pub job: TrainJob,
    pub runs: Vec<TrainedRun>,
    pub epochs_run: usize,
    pub heads: usize,
    pub ms: f64,
}

/// The Plan room's budget planner, finished: its report, time and dataset.
#[derive(Clone, Debug)]
pub struct BudgetDone {
    pub dataset: String,
    pub report: annosat_core::models::budget::BudgetReport,
    pub ms: f64,
}

/// Epochs each (split seed, model seed) group of one export ran.
pub(super) type GroupLengths = HashMap<(u64, u64), usize>;

#[derive(Clone, Copy)]
pub struct ModelJobs {
    pub split: RwSignal<u64>,
    pub seed: RwSignal<u64>,
    pub phase: RwSignal<Phase>,
    pub done: RwSignal<Option<Arc<Trained>>>,
    pub own: RwSignal<Option<Arc<OwnResult>>>,
    pub ml: RwSignal<Option<Arc<MlOwnResult>>>,
    /// The budget planner's last report (the Plan room runs it in this worker).
    pub budget: RwSignal<Option<Arc<BudgetDone>>>,
    /// What the job in flight (or the last one) is, and for which data: its answers are filed
    /// under it, and the room it belongs to shows its phase.
    pub key: RwSignal<Option<JobKey>>,
    /// The id of the job whose answers count (older ones are dropped).
    pub(crate) current: StoredValue<u64>,
    /// Epochs each (export, split seed, model seed) group ran, from training.json.
    pub(super) lengths: StoredValue<HashMap<String, GroupLengths>>,
}

impl ModelJobs {
    pub fn new() -> Self {
        ModelJobs {
            split: RwSignal::new(42),
            seed: RwSignal::new(0),
            phase: RwSignal::new(Phase::Idle),
            done: RwSignal::new(None),
            own: RwSignal::new(None),
            ml: RwSignal::new(None),
            budget: RwSignal::new(None),
            key: RwSignal::new(None),
            current: StoredValue::new(0),
            lengths: StoredValue::new(HashMap::new()),
        }
    }

    /// Whether the job in flight (or last started) is the Plan room's budget planner.
    pub fn is_budget(&self) -> bool {
        self.key.with(|k| matches!(k, Some(JobKey::Budget { .. })))
    }

    /// Starts a job's bookkeeping: older answers are dropped from now on.
    pub(super) fn begin(&self, key: JobKey) -> u64 {
        let id = crate::bridge::next_id();
        self.current.set_value(id);
        self.key.set(Some(key));
        self.phase.set(Phase::Fetching);
        id
    }

    /// The points trained here for one metric, for the export at `path`: (arm, N, value).
    pub fn points(&self, path: &str, metric: ModelMetric) -> Vec<(String, u32, f64)> {
        self.done.with(|d| match d {
            Some(t) if t.export == path => t
                .runs
                .iter()
                .filter_map(|r| metric.of(&r.metrics).map(|v| (r.arm.clone(), r.n, v)))
                .collect(),
            _ => Vec::new(),
        })
    }
}

impl Default for ModelJobs {
    fn default() -> Self {
        Self::new()
    }
}

/// One answer of the model worker (`bytes`: what came beside the JSON, if anything).
pub(super) fn receive(ts: ModelJobs, r: TrainResponse, bytes: Option<Vec<u8>>) {
    let current = ts.current.get_value();
    match r {
        TrainResponse::OwnTrained {
            id,
            summary,
            manifest,
            heads,
            ..
        } if id == current => {
            ts.own.set(Some(Arc::new(OwnResult {
                summary,
                manifest: Arc::new(*manifest),
                heads,
                embeddings: bytes.unwrap_or_default(),
            })));
            ts.phase.set(Phase::Idle);
        }
        TrainResponse::MlTrained {
            id,
            summary,
            export,
        } if id == current => {
            ts.ml.set(Some(Arc::new(MlOwnResult {
                summary,
                export: Arc::new(*export),
                features: bytes.unwrap_or_default(),
            })));
            ts.phase.set(Phase::Idle);
        }
        TrainResponse::Ready => handle::ready(),
        TrainResponse::Progress {
            id,
            epoch,
            epochs,
            heads,
            train_loss,
            elapsed_ms,
            ..
        } if id == current => ts.phase.set(Phase::Running {
            epoch,
            epochs,
            heads,
            train_loss,
            elapsed_ms,
        }),
        TrainResponse::Trained {
            id,
            job,
            runs,
            epochs_run,
            heads,
            ms,
        } if id == current => {
            let export = match ts.key.get_untracked() {
                Some(JobKey::Retrain { export }) => export,
                _ => String::new(),
            };
            ts.done.set(Some(Arc::new(Trained {
                export,
                job,
                runs,
                epochs_run,
                heads,
                ms,
            })));
            ts.phase.set(Phase::Idle);
        }
        TrainResponse::Stage {
            id,
            stage,
            done,
            detail,
            ..
        } if id == current => ts.phase.set(Phase::Stage {
            stage,
            done,
            detail,
        }),
        TrainResponse::Budgeted { id, report, ms } if id == current => {
            let dataset = match ts.key.get_untracked() {
                Some(JobKey::Budget { data }) => data,
                _ => String::new(),
            };
            ts.budget.set(Some(Arc::new(BudgetDone {
                dataset,
                report,
                ms,
            })));
            ts.phase.set(Phase::Idle);
        }
        TrainResponse::Error { id, message } if id == current || id == 0 => {
            ts.phase.set(Phase::Failed(message))
        }
        _ => {}
    }
}

pub fn user_cancel(ts: ModelJobs) {
    handle::cancel();
    ts.current.set_value(crate::bridge::next_id());
    ts.phase.set(Phase::Cancelled);
}

/// "epoch 12 of at most 31 · 110 heads · train loss 0.812 · about 3 s left".
pub fn progress_text(p: &Phase) -> Option<(f64, String)> {
    match *p {
        Phase::Fetching => Some((0.0, "starting the model worker…".into())),
        Phase::Stage {
            ref detail, done, ..
        } => Some((done, detail.clone())),
        Phase::Running {
            epoch,
            epochs,
            heads,
            train_loss,
            elapsed_ms,
        } => {
            let done = epoch.map_or(0, |e| e + 1);
            let eta = eta_ms(done, epochs, elapsed_ms)
                .map(|ms| format!(" · about {:.0} s left", (ms / 1000.0).ceil()))
                .unwrap_or_default();
            let loss = epoch
                .map(|_| format!(" · mean train loss {train_loss:.4}"))
                .unwrap_or_default();
            Some((
                done as f64 / epochs.max(1) as f64,
                format!("epoch {done} of {epochs} · {heads} heads{loss}{eta}"),
            ))
        }
        _ => None,
    }
}

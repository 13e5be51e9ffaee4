//! Training in the tab: the models room's "train here" card. The model worker (crate
//! `annosat-model-worker`, a wasm binary of its own, fetched the first time the user trains) runs
//! annosat-heads — the native sweep's code — on the export's own head features, so a run trained
//! here can be set beside the one the sweep exported for the same (split seed, model seed, arm, N).

use super::model_worker::{cancel, post};
use crate::state::St;
use annosat_core::models::{Manifest, ModelMetric};
use annosat_model_worker::protocol::{
    eta_ms, OwnJob, OwnSummary, TrainJob, TrainRequest, TrainResponse, TrainedRun,
};
use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

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
type GroupLengths = HashMap<(u64, u64), usize>;

#[derive(Clone, Copy)]
pub struct TrainSt {
    pub split: RwSignal<u64>,
    pub seed: RwSignal<u64>,
    pub phase: RwSignal<Phase>,
    pub done: RwSignal<Option<Arc<Trained>>>,
    pub own: RwSignal<Option<Arc<OwnResult>>>,
    /// The budget planner's last report (the Plan room runs it in this worker).
    pub budget: RwSignal<Option<Arc<BudgetDone>>>,
    /// Which room's job is in flight: the phase is shown there.
    pub for_plan: RwSignal<bool>,
    /// The id of the job whose answers count (older ones are dropped).
    pub(crate) current: StoredValue<u64>,
    /// Epochs each (export, split seed, model seed) group ran, from training.json.
    lengths: StoredValue<HashMap<String, GroupLengths>>,
}

impl TrainSt {
    pub fn new() -> Self {
        TrainSt {
            split: RwSignal::new(42),
            seed: RwSignal::new(0),
            phase: RwSignal::new(Phase::Idle),
            done: RwSignal::new(None),
            own: RwSignal::new(None),
            budget: RwSignal::new(None),
            for_plan: RwSignal::new(false),
            current: StoredValue::new(0),
            lengths: StoredValue::new(HashMap::new()),
        }
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

impl Default for TrainSt {
    fn default() -> Self {
        Self::new()
    }
}

/// One answer of the model worker (`bytes`: what came beside the JSON, if anything).
pub(super) fn receive(ts: TrainSt, r: TrainResponse, bytes: Option<Vec<u8>>) {
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
        TrainResponse::Ready => super::model_worker::ready(),
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
            let export = EXPORT.with(|e| e.borrow().clone());
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
            let dataset = EXPORT.with(|e| e.borrow().clone());
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

thread_local! {
    /// The export the job in flight retrains (the budget planner: its dataset).
    pub(crate) static EXPORT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The folder of an export's manifest path (`chaosnli_snli/heldout/manifest.json` → `…/heldout/`).
fn folder(path: &str) -> &str {
    &path[..path.rfind('/').map(|i| i + 1).unwrap_or(0)]
}

/// Epochs each group of an export ran: the longest loss curve of its runs in training.json (the
/// baselines train nothing and have none).
async fn group_lengths(path: &str) -> Result<GroupLengths, String> {
    let url = format!("models/{}training.json", folder(path));
    let bytes = crate::data::fetch_bytes(&url).await?;
    let list: Vec<annosat_core::models::TrainingEntry> =
        serde_json::from_slice(&bytes).map_err(|e| format!("{url}: {e}"))?;
    let mut lengths = GroupLengths::new();
    for e in list {
        let l = lengths.entry((e.split, e.seed)).or_insert(0);
        *l = (*l).max(e.train_loss.len());
    }
    Ok(lengths)
}

/// Trains `arms` at `ns` for the chosen split and model seed, with the export's settings and its
/// group's length, on the export's head features and the bundled votes.
pub fn start(st: St, ts: TrainSt, path: String, m: Arc<Manifest>, arms: Vec<String>, ns: Vec<u32>) {
    let Some(cfg) = m.config.clone() else {
        ts.phase.set(Phase::Failed(
            "this export has no configuration (re-export it with a current annosat sweep)".into(),
        ));
        return;
    };
    let Some(entry) = st.entry(&m.dataset) else {
        ts.phase
            .set(Phase::Failed(format!("no bundled dataset {}", m.dataset)));
        return;
    };
    cancel();
    let id = crate::bridge::next_id();
    ts.current.set_value(id);
    ts.for_plan.set(false);
    ts.phase.set(Phase::Fetching);
    let (split_seed, model_seed) = (ts.split.get_untracked(), ts.seed.get_untracked());
    leptos::task::spawn_local(async move {
        let run = async {
            if ts.lengths.with_value(|l| !l.contains_key(&path)) {
                let l = group_lengths(&path).await?;
                ts.lengths.update_value(|m| {
                    m.insert(path.clone(), l);
                });
            }
            let fixed = ts.lengths.with_value(|l| {
                l.get(&path)
                    .and_then(|g| g.get(&(split_seed, model_seed)).copied())
            });
            let job = TrainJob {
                dataset: m.dataset.clone(),
                heldout: cfg.heldout,
                arms,
                ns,
                split_seed,
                model_seed,
                folds: cfg.folds,
                head: cfg.head.clone(),
                fixed_epochs: fixed,
            };
            let bundle = crate::data::fetch_bytes(&format!("data/{}", entry.file)).await?;
            let features =
                crate::data::fetch_bytes(&format!("models/{}features.safetensors", folder(&path)))
                    .await?;
            let req = TrainRequest::Train { id, job };
            let msg = js_sys::Array::of3(
                &JsValue::from_str(&serde_json::to_string(&req).map_err(|e| e.to_string())?),
                &js_sys::Uint8Array::from(bundle.as_slice()),
                &js_sys::Uint8Array::from(features.as_slice()),
            );
            Ok::<_, String>(msg)
        };
        let r = run.await;
        if ts.current.get_value() != id {
            return; // cancelled or replaced while fetching
        }
        match r.and_then(|msg| {
            EXPORT.with(|e| *e.borrow_mut() = path.clone());
            post(ts, msg)
        }) {
            Ok(()) => {}
            Err(e) => ts.phase.set(Phase::Failed(e)),
        }
    });
}

/// Embeds the uploaded file's texts (from its text columns, or from `texts`, a second `File`) and
/// trains the `arms` over the N grid, in the model worker — or, with `plan`, runs the budget
/// planner on the embeddings (the Plan room).
pub fn start_own(
    st: St,
    ts: TrainSt,
    arms: Vec<String>,
    texts: Option<web_sys::File>,
    plan: Option<annosat_core::models::budget::BudgetConfig>,
) {
    let Some(votes) = crate::bridge::current_upload() else {
        ts.phase.set(Phase::Failed(
            "no uploaded file: drop a votes CSV on the page first".into(),
        ));
        return;
    };
    cancel();
    let id = crate::bridge::next_id();
    ts.current.set_value(id);
    if plan.is_none() {
        ts.own.set(None);
    }
    ts.for_plan.set(plan.is_some());
    EXPORT.with(|e| {
        *e.borrow_mut() = untrack(|| crate::rooms::plan::budget_key(st));
    });
    ts.phase.set(Phase::Fetching);
    // Absolute: the worker runs from a blob: URL, against which relative URLs do not resolve.
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    let base = &base[..base.rfind('/').map(|i| i + 1).unwrap_or(base.len())];
    let job = OwnJob {
        votes_name: st
            .upload_name
            .get_untracked()
            .unwrap_or_else(|| "your file".into()),
        texts_name: texts.as_ref().map(|f| f.name()),
        arms,
        split_seed: 42,
        model_seed: 0,
        head: Default::default(),
        encoder_url: format!("{base}encoder/"),
        plan,
    };
    let req = TrainRequest::Own { id, job };
    let msg = js_sys::Array::of3(
        &JsValue::from_str(&serde_json::to_string(&req).unwrap_or_default()),
        &votes,
        &texts.map(JsValue::from).unwrap_or(JsValue::UNDEFINED),
    );
    if let Err(e) = post(ts, msg) {
        ts.phase.set(Phase::Failed(e));
    }
}

/// Trains the checked arms on the page's synthetic dataset (the worker regenerates it from the
/// same settings), over the N grid its votes allow; the result arrives as for own data.
pub fn start_synth(st: St, ts: TrainSt, arms: Vec<String>) {
    cancel();
    let id = crate::bridge::next_id();
    ts.current.set_value(id);
    ts.own.set(None);
    ts.for_plan.set(false);
    ts.phase.set(Phase::Fetching);
    let req = TrainRequest::Synth {
        id,
        job: annosat_model_worker::protocol::SynthJob {
            config: st.synth.get_untracked(),
            arms,
            split_seed: 42,
            model_seed: 0,
            head: Default::default(),
        },
    };
    let msg = js_sys::Array::of1(&JsValue::from_str(
        &serde_json::to_string(&req).unwrap_or_default(),
    ));
    if let Err(e) = post(ts, msg) {
        ts.phase.set(Phase::Failed(e));
    }
}

pub fn user_cancel(ts: TrainSt) {
    cancel();
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

/// The job's state under a card: one progress bar with its line, the error, or "cancelled".
/// Element ids are `<prefix>-progress`, `<prefix>-status` and `<prefix>-error`.
#[component]
pub fn PhaseLine(prefix: &'static str) -> impl IntoView {
    let ts = expect_context::<TrainSt>();
    move || {
        // The Plan room's budget planner shows its own progress there.
        if ts.for_plan.get() {
            return ().into_any();
        }
        let p = ts.phase.get();
        match (&p, progress_text(&p)) {
            (_, Some((done, text))) => view! {
                <div class="train-progress">
                    <progress id=format!("{prefix}-progress") max="1" value=done.to_string()></progress>
                    <span id=format!("{prefix}-status")>{text}</span>
                </div>
            }
            .into_any(),
            (Phase::Failed(e), _) => {
                view! { <p class="error" id=format!("{prefix}-error")>{e.clone()}</p> }.into_any()
            }
            (Phase::Cancelled, _) => {
                view! { <p class="status" id=format!("{prefix}-status")>"cancelled"</p> }.into_any()
            }
            _ => ().into_any(),
        }
    }
}

//! Training in the tab: the models room's "train here" card. The model worker (crate
//! `annosat-model-worker`, a wasm binary of its own, fetched the first time the user trains) runs
//! annosat-heads — the native sweep's code — on the export's own head features, so a run trained
//! here can be set beside the one the sweep exported for the same (split seed, model seed, arm, N).

use crate::state::St;
use annosat_core::models::{Manifest, ModelMetric};
use annosat_model_worker::protocol::{eta_ms, TrainJob, TrainRequest, TrainResponse, TrainedRun};
use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

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
    Failed(String),
    Cancelled,
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

/// Epochs each (split seed, model seed) group of one export ran.
type GroupLengths = HashMap<(u64, u64), usize>;

#[derive(Clone, Copy)]
pub struct TrainSt {
    pub split: RwSignal<u64>,
    pub seed: RwSignal<u64>,
    pub phase: RwSignal<Phase>,
    pub done: RwSignal<Option<Arc<Trained>>>,
    /// The id of the job whose answers count (older ones are dropped).
    current: StoredValue<u64>,
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

struct Handle {
    worker: Worker,
    ready: bool,
    queue: Vec<js_sys::Array>,
    _onmessage: Closure<dyn Fn(MessageEvent)>,
    _onerror: Closure<dyn Fn(web_sys::Event)>,
}

thread_local! {
    static WORKER: RefCell<Option<Handle>> = const { RefCell::new(None) };
}

fn spawn(ts: TrainSt) -> Result<Handle, String> {
    let worker = crate::bridge::spawn("annosat-model-worker")
        .map_err(|e| format!("cannot start the model worker: {e:?}"))?;
    let onmessage = Closure::<dyn Fn(MessageEvent)>::new(move |ev: MessageEvent| {
        let resp = ev
            .data()
            .as_string()
            .and_then(|j| serde_json::from_str::<TrainResponse>(&j).ok());
        if let Some(r) = resp {
            receive(ts, r);
        }
    });
    // A worker whose wasm fails to load or traps says so here, not by silence.
    let onerror = Closure::<dyn Fn(web_sys::Event)>::new(move |ev: web_sys::Event| {
        let msg = js_sys::Reflect::get(&ev, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_else(|| "unknown error".into());
        cancel();
        ts.phase
            .set(Phase::Failed(format!("the model worker stopped: {msg}")));
    });
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    Ok(Handle {
        worker,
        ready: false,
        queue: Vec::new(),
        _onmessage: onmessage,
        _onerror: onerror,
    })
}

fn receive(ts: TrainSt, r: TrainResponse) {
    let current = ts.current.get_value();
    match r {
        TrainResponse::Ready => WORKER.with(|w| {
            if let Some(h) = w.borrow_mut().as_mut() {
                h.ready = true;
                for m in h.queue.drain(..) {
                    let _ = h.worker.post_message(&m);
                }
            }
        }),
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
        TrainResponse::Error { id, message } if id == current || id == 0 => {
            ts.phase.set(Phase::Failed(message))
        }
        _ => {}
    }
}

thread_local! {
    /// The export the job in flight retrains.
    static EXPORT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Stops the job in flight: a wasm call cannot be interrupted, so the worker is terminated (the
/// next job starts a fresh one; its wasm comes from the browser's cache).
pub fn cancel() {
    if let Some(h) = WORKER.with(|w| w.borrow_mut().take()) {
        h.worker.terminate();
    }
}

fn post(ts: TrainSt, msg: js_sys::Array) -> Result<(), String> {
    let fresh = WORKER.with(|w| w.borrow().is_none());
    if fresh {
        let h = spawn(ts)?;
        WORKER.with(|w| *w.borrow_mut() = Some(h));
    }
    WORKER.with(|w| {
        if let Some(h) = w.borrow_mut().as_mut() {
            if h.ready {
                let _ = h.worker.post_message(&msg);
            } else {
                h.queue.push(msg);
            }
        }
    });
    Ok(())
}

/// The folder of an export's manifest path (`chaosnli_snli/heldout/manifest.json` → `…/heldout/`).
fn folder(path: &str) -> &str {
    &path[..path.rfind('/').map(|i| i + 1).unwrap_or(0)]
}

/// Epochs each group of an export ran (the length of its loss curves in training.json).
async fn group_lengths(path: &str) -> Result<GroupLengths, String> {
    #[derive(serde::Deserialize)]
    struct Entry {
        split: u64,
        seed: u64,
        train_loss: Vec<f64>,
    }
    let url = format!("models/{}training.json", folder(path));
    let bytes = crate::data::fetch_bytes(&url).await?;
    let list: Vec<Entry> = serde_json::from_slice(&bytes).map_err(|e| format!("{url}: {e}"))?;
    Ok(list
        .into_iter()
        .map(|e| ((e.split, e.seed), e.train_loss.len()))
        .collect())
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

pub fn user_cancel(ts: TrainSt) {
    cancel();
    ts.current.set_value(crate::bridge::next_id());
    ts.phase.set(Phase::Cancelled);
}

/// "epoch 12 of at most 31 · 110 heads · train loss 0.812 · about 3 s left".
pub fn progress_text(p: &Phase) -> Option<(f64, String)> {
    match *p {
        Phase::Fetching => Some((
            0.0,
            "fetching the head features and starting the model worker…".into(),
        )),
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

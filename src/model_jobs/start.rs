//! Starting each model-worker job: what it fetches (the bundle, an export's head features and its
//! groups' lengths) and the message it posts.

use super::{handle, GroupLengths, JobKey, ModelJobs, Phase};
use crate::state::St;
use annosat_core::models::budget::BudgetConfig;
use annosat_core::models::Manifest;
use annosat_model_worker::protocol::{
    BudgetJob, OwnJob, TrainJob, TrainRequest, MAX_WORKERS, WORKER_MEMORY_MB,
};
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// Model workers one job uses: `model_workers=K` from the URL, else one per core the browser
/// reports, at most [`MAX_WORKERS`] and within half the device memory it reports
/// (`navigator.deviceMemory`, in GB) at [`WORKER_MEMORY_MB`] per worker.
pub fn pool_size(st: St) -> usize {
    let chosen = st.model_workers.get_untracked();
    if chosen > 0 {
        return chosen.min(MAX_WORKERS);
    }
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
        return 1;
    };
    let cores = nav.hardware_concurrency().max(1.0) as usize;
    let memory = js_sys::Reflect::get(&nav, &"deviceMemory".into())
        .ok()
        .and_then(|v| v.as_f64())
        .map_or(MAX_WORKERS, |gb| {
            ((gb * 1024.0 / 2.0) as usize / WORKER_MEMORY_MB).max(1)
        });
    cores.min(memory).clamp(1, MAX_WORKERS)
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
pub fn start(
    st: St,
    ts: ModelJobs,
    path: String,
    m: Arc<Manifest>,
    arms: Vec<String>,
    ns: Vec<u32>,
) {
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
    handle::cancel();
    let id = ts.begin(JobKey::Retrain {
        export: path.clone(),
    });
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
        match r.and_then(|msg| handle::post(ts, msg)) {
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
    ts: ModelJobs,
    arms: Vec<String>,
    texts: Option<web_sys::File>,
    plan: Option<BudgetConfig>,
) {
    own_job(st, ts, arms, texts, plan, false)
}

/// Embeds the multilabel upload's texts and trains sigmoid heads per arm × N on them, k-fold, as
/// `annosat sweep` does (the result arrives as [`super::MlOwnResult`]).
pub fn start_ml_own(st: St, ts: ModelJobs, texts: Option<web_sys::File>) {
    own_job(st, ts, Vec::new(), texts, None, true)
}

fn own_job(
    st: St,
    ts: ModelJobs,
    arms: Vec<String>,
    texts: Option<web_sys::File>,
    plan: Option<BudgetConfig>,
    multilabel: bool,
) {
    let Some(votes) = crate::bridge::current_upload() else {
        ts.phase.set(Phase::Failed(
            "no uploaded file: drop a votes CSV on the page first".into(),
        ));
        return;
    };
    handle::cancel();
    let key = match plan {
        Some(_) => JobKey::Budget {
            data: untrack(|| st.data_key()),
        },
        None => {
            ts.own.set(None);
            ts.ml.set(None);
            JobKey::Own
        }
    };
    let id = ts.begin(key);
    // Absolute: the worker runs from a blob: URL, against which relative URLs do not resolve.
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    let base = &base[..base.rfind('/').map(|i| i + 1).unwrap_or(base.len())];
    let job = OwnJob {
        votes_name: st
            .upload
            .name
            .get_untracked()
            .unwrap_or_else(|| "your file".into()),
        texts_name: texts.as_ref().map(|f| f.name()),
        arms,
        split_seed: 42,
        model_seed: 0,
        head: Default::default(),
        encoder_url: format!("{base}encoder/"),
        plan,
        workers: pool_size(st),
    };
    let req = if multilabel {
        TrainRequest::Multilabel { id, job }
    } else {
        TrainRequest::Own { id, job }
    };
    let msg = js_sys::Array::of3(
        &JsValue::from_str(&serde_json::to_string(&req).unwrap_or_default()),
        &votes,
        &texts.map(JsValue::from).unwrap_or(JsValue::UNDEFINED),
    );
    if let Err(e) = handle::post(ts, msg) {
        ts.phase.set(Phase::Failed(e));
    }
}

/// Trains the checked arms on the page's synthetic dataset (the worker regenerates it from the
/// same settings), over the N grid its votes allow; the result arrives as for own data.
pub fn start_synth(st: St, ts: ModelJobs, arms: Vec<String>) {
    handle::cancel();
    ts.own.set(None);
    let id = ts.begin(JobKey::Synth);
    let req = TrainRequest::Synth {
        id,
        job: annosat_model_worker::protocol::SynthJob {
            config: st.synth.get_untracked(),
            arms,
            split_seed: 42,
            model_seed: 0,
            head: Default::default(),
            workers: pool_size(st),
        },
    };
    let msg = js_sys::Array::of1(&JsValue::from_str(
        &serde_json::to_string(&req).unwrap_or_default(),
    ));
    if let Err(e) = handle::post(ts, msg) {
        ts.phase.set(Phase::Failed(e));
    }
}

/// The Plan room's budget planner with `annosat plan`'s defaults on a bundled `dataset`, whose
/// export is `path`: heads on the export's head features, in the model worker.
pub fn start_budget(st: St, ts: ModelJobs, dataset: String, path: String) {
    let Some(entry) = st.entry(&dataset) else {
        ts.phase
            .set(Phase::Failed(format!("no bundled dataset {dataset}")));
        return;
    };
    handle::cancel();
    let id = ts.begin(JobKey::Budget {
        data: dataset.clone(),
    });
    let folder = folder(&path).to_string();
    leptos::task::spawn_local(async move {
        let run = async {
            let bundle = crate::data::fetch_bytes(&format!("data/{}", entry.file)).await?;
            let features =
                crate::data::fetch_bytes(&format!("models/{folder}features.safetensors")).await?;
            let job = BudgetJob {
                dataset,
                config: BudgetConfig::default(),
            };
            let req = TrainRequest::Budget { id, job };
            Ok::<_, String>(js_sys::Array::of3(
                &JsValue::from_str(&serde_json::to_string(&req).map_err(|e| e.to_string())?),
                &js_sys::Uint8Array::from(bundle.as_slice()),
                &js_sys::Uint8Array::from(features.as_slice()),
            ))
        };
        let r = run.await;
        if ts.current.get_value() != id {
            return; // stopped or replaced while fetching
        }
        if let Err(e) = r.and_then(|msg| handle::post(ts, msg)) {
            ts.phase.set(Phase::Failed(e));
        }
    });
}

//! The worker side: decodes the dataset and head features it is sent, trains the job's heads with
//! annosat-heads (the native sweep's code, serial AdamW in wasm32) and reports every epoch. One job
//! at a time; the page cancels by terminating the worker (a wasm call cannot be interrupted).

use crate::protocol::{BudgetJob, TrainJob, TrainRequest, TrainResponse};
use crate::reply::{arms_for, bytes, now_ms, post, requested, scope};
use annosat_core::bundle;
use annosat_heads::{train_group, Dataset, HeadFeatures};
use anyhow::{anyhow, bail, Context, Result};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::MessageEvent;

fn train(id: u64, job: TrainJob, bundle_bytes: &[u8], features: &[u8]) -> Result<TrainResponse> {
    let t0 = now_ms();
    let table = bundle::decode(bundle_bytes)
        .map_err(|e| anyhow!("the dataset: {e}"))?
        .table;
    let head = HeadFeatures::from_bytes(features).context("the head features")?;
    let mut data = Dataset::new(job.dataset.clone(), &table, head, job.heldout)?;
    data.folds = job.folds;
    let arms = arms_for(&job.arms)?;
    let max_n = (0..data.pool.num_items())
        .map(|i| data.pool.total(i))
        .min()
        .unwrap_or(0);
    if let Some(&n) = job.ns.iter().find(|&&n| n < 1 || n > max_n) {
        bail!("N = {n} is outside 1..={max_n} (the fewest votes an item has to train on)");
    }
    let mut hc = job.head.clone();
    if let Some(e) = job.fixed_epochs {
        (hc.epochs, hc.patience) = (e, e);
    }
    let heads = arms.iter().filter(|a| a.trained()).count() * job.ns.len();
    let progress = |epoch: Option<usize>, train_loss: f32, val_loss: f32| {
        post(&TrainResponse::Progress {
            id,
            epoch,
            epochs: hc.epochs,
            heads,
            train_loss,
            val_loss,
            elapsed_ms: now_ms() - t0,
        })
    };
    progress(None, f32::NAN, f32::NAN);
    let mut epochs_run = 0;
    let result = train_group(
        &data,
        &job.ns,
        &hc,
        &arms,
        job.split_seed,
        job.model_seed,
        |e| {
            epochs_run = e.epoch + 1;
            progress(Some(e.epoch), e.train_loss, e.val_loss);
        },
    )?;
    let runs = requested(result.runs, &job.arms);
    Ok(TrainResponse::Trained {
        id,
        job,
        runs,
        epochs_run,
        heads,
        ms: now_ms() - t0,
    })
}

/// The budget planner on a bundled dataset and its exported head features.
fn budget(id: u64, job: BudgetJob, bundle_bytes: &[u8], features: &[u8]) -> Result<TrainResponse> {
    let t0 = now_ms();
    let table = bundle::decode(bundle_bytes)
        .map_err(|e| anyhow!("the dataset: {e}"))?
        .table;
    let head = HeadFeatures::from_bytes(features).context("the head features")?;
    let data = Dataset::new(job.dataset.clone(), &table, head, false)?;
    let report = annosat_heads::budget::plan(&data, &job.config, &mut |d, n| {
        post(&TrainResponse::Stage {
            id,
            stage: "train".into(),
            done: d as f64 / n.max(1) as f64,
            detail: format!("{d} of {n} trainings"),
            elapsed_ms: now_ms() - t0,
        })
    })?;
    Ok(TrainResponse::Budgeted {
        id,
        report,
        ms: now_ms() - t0,
    })
}

fn handle(data: js_sys::Array) -> TrainResponse {
    let json = data.get(0).as_string().unwrap_or_default();
    if json == crate::pool::TAG {
        // A part from the worker that started this one as part of its pool: answered by it.
        crate::pool::serve(data);
        return TrainResponse::Ready;
    }
    let req = match serde_json::from_str::<TrainRequest>(&json) {
        Ok(r) => r,
        Err(e) => {
            return TrainResponse::Error {
                id: 0,
                message: format!("bad request: {e}"),
            }
        }
    };
    match req {
        TrainRequest::Train { id, job } => {
            let run = || -> Result<TrainResponse> {
                let b = bytes(data.get(1), "dataset")?;
                let f = bytes(data.get(2), "head features")?;
                train(id, job, &b, &f)
            };
            run().unwrap_or_else(|e| TrainResponse::Error {
                id,
                message: format!("{e:#}"),
            })
        }
        TrainRequest::Budget { id, job } => {
            let run = || -> Result<TrainResponse> {
                let b = bytes(data.get(1), "dataset")?;
                let f = bytes(data.get(2), "head features")?;
                budget(id, job, &b, &f)
            };
            run().unwrap_or_else(|e| TrainResponse::Error {
                id,
                message: format!("{e:#}"),
            })
        }
        TrainRequest::Synth { id, job } => {
            wasm_bindgen_futures::spawn_local(async move {
                let r = crate::synth::run(id, job)
                    .await
                    .unwrap_or_else(|e| TrainResponse::Error {
                        id,
                        message: format!("{e:#}"),
                    });
                post(&r);
            });
            // Answered by the job itself.
            TrainResponse::Ready
        }
        TrainRequest::Own { id, job } => own_job(id, job, &data, false),
        TrainRequest::Multilabel { id, job } => own_job(id, job, &data, true),
    }
}

/// The own-data jobs (`[json, votes File, texts File or undefined]`), single-label or multilabel:
/// run by the job itself, which answers when done.
fn own_job(
    id: u64,
    job: crate::protocol::OwnJob,
    data: &js_sys::Array,
    multilabel: bool,
) -> TrainResponse {
    let votes = bytes(data.get(1), "votes file");
    let texts = match data.get(2) {
        v if v.is_undefined() || v.is_null() => Ok(None),
        v => bytes(v, "texts file").map(Some),
    };
    wasm_bindgen_futures::spawn_local(async move {
        let r = match (votes, texts) {
            (Ok(v), Ok(t)) if multilabel => crate::ml_own::run(id, job, v, t).await,
            (Ok(v), Ok(t)) => crate::own::run(id, job, v, t).await,
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        if let Err(e) = r {
            post(&TrainResponse::Error {
                id,
                message: format!("{e:#}"),
            });
        }
    });
    TrainResponse::Ready
}

/// Entry point of the worker binary.
pub fn start() {
    let onmessage = Closure::<dyn Fn(MessageEvent)>::new(|ev: MessageEvent| {
        match handle(js_sys::Array::from(&ev.data())) {
            TrainResponse::Ready => {}
            r => post(&r),
        }
    });
    scope().set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    post(&TrainResponse::Ready);
}

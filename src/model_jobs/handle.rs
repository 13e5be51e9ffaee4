//! The page's handle on the model worker (crate `annosat-model-worker`): started on the first job,
//! messages queued until its wasm is up, answers handed to [`super::receive`], and cancel by
//! terminating it (a wasm call cannot be interrupted; the next job starts a fresh one, its wasm from
//! the browser's cache). A worker that fails to load or traps is reported, never silent.

use super::{receive, ModelJobs, Phase};
use crate::worker_slot::WorkerSlot;
use annosat_model_worker::protocol::TrainResponse;
use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::JsCast;
use web_sys::MessageEvent;

thread_local! {
    static WORKER: RefCell<Option<WorkerSlot>> = const { RefCell::new(None) };
}

/// Where the model worker is served: beside the page (a built site), or where the page's
/// `<meta name="annosat-model-worker">` says (`scripts/serve.sh` builds it after the page).
fn served_from() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("meta[name=annosat-model-worker]")
                .ok()
                .flatten()
        })
        .and_then(|m| m.get_attribute("content"))
        .unwrap_or_default()
}

fn spawn(ts: ModelJobs) -> Result<WorkerSlot, String> {
    let from = served_from();
    let on_message = move |ev: MessageEvent| {
        let data = ev.data();
        let (json, bytes) = if js_sys::Array::is_array(&data) {
            let a = js_sys::Array::from(&data);
            (a.get(0).as_string(), Some(a.get(1)))
        } else {
            (data.as_string(), None)
        };
        if let Some(r) = json.and_then(|j| serde_json::from_str::<TrainResponse>(&j).ok()) {
            let bytes = bytes
                .and_then(|b| b.dyn_into::<js_sys::Uint8Array>().ok())
                .map(|b| b.to_vec());
            receive(ts, r, bytes);
        }
    };
    let later = !from.is_empty();
    let on_error = move |msg: String| {
        cancel();
        let hint = if later {
            " (scripts/serve.sh builds the model worker after the page; if its terminal has not \
             said \"model worker ready\" yet, try again when it has)"
        } else {
            ""
        };
        ts.phase.set(Phase::Failed(format!(
            "the model worker stopped: {msg}{hint}"
        )));
    };
    WorkerSlot::start(&format!("{from}annosat-model-worker"), on_message, on_error)
        .map_err(|e| format!("cannot start the model worker: {e:?}"))
}

/// Stops the job in flight: a wasm call cannot be interrupted, so the worker is terminated (the
/// next job starts a fresh one; its wasm comes from the browser's cache).
pub fn cancel() {
    if let Some(h) = WORKER.with(|w| w.borrow_mut().take()) {
        h.terminate();
    }
}

pub fn post(ts: ModelJobs, msg: js_sys::Array) -> Result<(), String> {
    if WORKER.with(|w| w.borrow().is_none()) {
        let h = spawn(ts)?;
        WORKER.with(|w| *w.borrow_mut() = Some(h));
    }
    WORKER.with(|w| {
        if let Some(h) = w.borrow_mut().as_mut() {
            h.post(msg);
        }
    });
    Ok(())
}

/// The worker's wasm is up: send what was queued.
pub(super) fn ready() {
    WORKER.with(|w| {
        if let Some(h) = w.borrow_mut().as_mut() {
            h.set_ready();
        }
    });
}

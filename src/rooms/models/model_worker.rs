//! The page's handle on the model worker (crate `annosat-model-worker`): started on the first job,
//! messages queued until its wasm is up, answers handed to [`receive`], and cancel by terminating
//! it (a wasm call cannot be interrupted; the next job starts a fresh one, its wasm from the
//! browser's cache). A worker that fails to load or traps is reported, never silent.

use super::train::{receive, Phase, TrainSt};
use annosat_model_worker::protocol::TrainResponse;
use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

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
    });
    // A worker whose wasm fails to load or traps says so here, not by silence.
    let onerror = Closure::<dyn Fn(web_sys::Event)>::new(move |ev: web_sys::Event| {
        ev.prevent_default();
        let msg = crate::bridge::error_text(&ev);
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

/// Stops the job in flight: a wasm call cannot be interrupted, so the worker is terminated (the
/// next job starts a fresh one; its wasm comes from the browser's cache).
pub fn cancel() {
    if let Some(h) = WORKER.with(|w| w.borrow_mut().take()) {
        h.worker.terminate();
    }
}

pub fn post(ts: TrainSt, msg: js_sys::Array) -> Result<(), String> {
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

/// The worker's wasm is up: send what was queued.
pub(super) fn ready() {
    WORKER.with(|w| {
        if let Some(h) = w.borrow_mut().as_mut() {
            h.ready = true;
            for m in h.queue.drain(..) {
                let _ = h.worker.post_message(&m);
            }
        }
    });
}

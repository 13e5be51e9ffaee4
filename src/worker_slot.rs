//! One handle on a web worker, the same for the curve workers (`bridge.rs`) and the model worker
//! (`model_jobs`): started from its Trunk-built glue and wasm, messages queued until the worker
//! says it is ready, its error events turned into a report instead of silence.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

pub struct WorkerSlot {
    worker: Worker,
    ready: bool,
    queue: Vec<js_sys::Array>,
    _onmessage: Closure<dyn Fn(MessageEvent)>,
    _onerror: Closure<dyn Fn(web_sys::Event)>,
}

impl WorkerSlot {
    /// Starts the worker binary `name`; `on_message` gets its messages, `on_error` what its error
    /// event says (a trap — out of memory is `unreachable` in wasm — or a script or wasm that failed
    /// to load; without it the page would wait forever).
    pub fn start(
        name: &str,
        on_message: impl Fn(MessageEvent) + 'static,
        on_error: impl Fn(String) + 'static,
    ) -> Result<WorkerSlot, JsValue> {
        let worker = spawn(name)?;
        let onmessage = Closure::<dyn Fn(MessageEvent)>::new(on_message);
        let onerror = Closure::<dyn Fn(web_sys::Event)>::new(move |ev: web_sys::Event| {
            ev.prevent_default();
            on_error(error_text(&ev));
        });
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        worker.set_onmessageerror(Some(onerror.as_ref().unchecked_ref()));
        Ok(WorkerSlot {
            worker,
            ready: false,
            queue: Vec::new(),
            _onmessage: onmessage,
            _onerror: onerror,
        })
    }

    /// Sends `msg` now if the worker is up, else when it is.
    pub fn post(&mut self, msg: js_sys::Array) {
        if self.ready {
            let _ = self.worker.post_message(&msg);
        } else {
            self.queue.push(msg);
        }
    }

    /// The worker's wasm is up: send what was queued.
    pub fn set_ready(&mut self) {
        self.ready = true;
        for m in self.queue.drain(..) {
            let _ = self.worker.post_message(&m);
        }
    }

    /// A wasm call cannot be interrupted: stopping a job means ending its worker.
    pub fn terminate(&self) {
        self.worker.terminate();
    }
}

/// Starts the worker binary `name` (built by Trunk with wasm-bindgen's no-modules target: load its
/// glue, then its wasm). Its files are fetched only now, so a worker the page never starts costs
/// the first page nothing.
fn spawn(name: &str) -> Result<Worker, JsValue> {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    let base = &base[..base.rfind('/').map(|i| i + 1).unwrap_or(base.len())];
    // A wasm that fails to load rejects a promise, which a worker would swallow; rethrown from a
    // timer it becomes the worker's error event, which the page reports. `annosatScript` tells
    // the worker where it came from (the model worker starts its pool from it).
    let script = format!(
        "self.annosatScript = ['{base}{name}.js', '{base}{name}_bg.wasm']; importScripts('{base}{name}.js'); wasm_bindgen('{base}{name}_bg.wasm').catch(e => setTimeout(() => {{ throw e; }}));"
    );
    let parts = js_sys::Array::of1(&JsValue::from_str(&script));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("text/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    Worker::new(&url)
}

/// What an error event says: the message of an `ErrorEvent`, else of the event's error value.
fn error_text(ev: &web_sys::Event) -> String {
    let get = |v: &JsValue, k: &str| js_sys::Reflect::get(v, &k.into()).ok();
    get(ev, "message")
        .and_then(|m| m.as_string())
        .filter(|m| !m.is_empty())
        .or_else(|| get(ev, "error").map(|e| format!("{e:?}")))
        .unwrap_or_else(|| "its script or wasm failed to load".into())
}

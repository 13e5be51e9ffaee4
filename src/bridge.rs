//! The page's handle on the worker: spawns it, queues requests until it is ready, and cancels a
//! stale computation by terminating the worker and starting a fresh one (a wasm worker cannot be
//! interrupted mid-call). The last dataset that loaded is replayed into a fresh worker.

use annosat_app::protocol::{Format, Request, Response};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

type Handler = Rc<dyn Fn(Response)>;

struct Bridge {
    worker: Worker,
    ready: bool,
    /// Requests sent and not yet answered.
    outstanding: usize,
    queue: Vec<js_sys::Array>,
    /// The load the worker's table came from (replayed into a fresh worker), and a pending one.
    /// The payload is the bytes of a bundled dataset or the user's `File` itself: a `File` crosses
    /// to the worker without a copy, and the worker reads it, so big uploads never load the page.
    good: Option<(u64, Format, JsValue)>,
    pending: Option<(u64, Format, JsValue)>,
    handler: Handler,
    _onmessage: Closure<dyn Fn(MessageEvent)>,
}

thread_local! {
    static BRIDGE: RefCell<Option<Bridge>> = const { RefCell::new(None) };
    static NEXT_ID: Cell<u64> = const { Cell::new(1) };
}

pub fn next_id() -> u64 {
    NEXT_ID.with(|c| {
        let id = c.get();
        c.set(id + 1);
        id
    })
}

fn spawn_worker() -> Result<Worker, JsValue> {
    // Trunk builds the worker with wasm-bindgen's no-modules target: load its glue, then its wasm.
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    let base = &base[..base.rfind('/').map(|i| i + 1).unwrap_or(base.len())];
    let script = format!(
        "importScripts('{base}annosat-worker.js'); wasm_bindgen('{base}annosat-worker_bg.wasm');"
    );
    let parts = js_sys::Array::of1(&JsValue::from_str(&script));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("text/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    Worker::new(&url)
}

fn install(handler: Handler) -> Result<(), JsValue> {
    let worker = spawn_worker()?;
    let onmessage = Closure::<dyn Fn(MessageEvent)>::new(on_message);
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    let old = BRIDGE.with(|b| b.borrow_mut().take());
    let (good, pending) = match &old {
        Some(o) => {
            o.worker.terminate();
            (o.good.clone(), o.pending.clone())
        }
        None => (None, None),
    };
    BRIDGE.with(|b| {
        *b.borrow_mut() = Some(Bridge {
            worker,
            ready: false,
            outstanding: 0,
            queue: Vec::new(),
            good,
            pending,
            handler,
            _onmessage: onmessage,
        })
    });
    Ok(())
}

/// Starts the worker; `handler` gets every response.
pub fn init(handler: impl Fn(Response) + 'static) -> Result<(), JsValue> {
    install(Rc::new(handler))
}

fn on_message(ev: MessageEvent) {
    let Some(json) = ev.data().as_string() else {
        return;
    };
    let resp: Response = match serde_json::from_str(&json) {
        Ok(r) => r,
        Err(e) => Response::Error {
            id: 0,
            message: format!("bad message from worker: {e}"),
        },
    };
    let handler = BRIDGE.with(|b| {
        let mut b = b.borrow_mut();
        let b = b.as_mut()?;
        match &resp {
            Response::Ready => {
                b.ready = true;
                for msg in b.queue.drain(..) {
                    let _ = b.worker.post_message(&msg);
                }
            }
            Response::Progress { .. } => {}
            Response::Loaded { id, .. } => {
                b.outstanding = b.outstanding.saturating_sub(1);
                if b.pending.as_ref().is_some_and(|p| p.0 == *id) {
                    b.good = b.pending.take();
                }
            }
            _ => b.outstanding = b.outstanding.saturating_sub(1),
        }
        Some(b.handler.clone())
    });
    if let Some(h) = handler {
        h(resp);
    }
}

fn post(req: &Request, payload: Option<&JsValue>) {
    let msg = js_sys::Array::of1(&JsValue::from_str(
        &serde_json::to_string(req).unwrap_or_default(),
    ));
    if let Some(p) = payload {
        msg.push(p);
    }
    BRIDGE.with(|b| {
        if let Some(b) = b.borrow_mut().as_mut() {
            b.outstanding += 1;
            if b.ready {
                let _ = b.worker.post_message(&msg);
            } else {
                b.queue.push(msg);
            }
        }
    });
}

fn busy() -> bool {
    BRIDGE.with(|b| b.borrow().as_ref().is_some_and(|b| b.outstanding > 0))
}

/// Replaces whatever the worker is doing with a fresh worker; with `replay`, the dataset being
/// loaded (or else the last good one) is loaded into it again.
fn restart(replay: bool) {
    let Some(handler) = BRIDGE.with(|b| b.borrow().as_ref().map(|b| b.handler.clone())) else {
        return;
    };
    if install(handler).is_ok() && replay {
        let src = BRIDGE.with(|b| {
            b.borrow()
                .as_ref()
                .and_then(|b| b.pending.clone().or_else(|| b.good.clone()))
        });
        if let Some((id, format, bytes)) = src {
            post(&Request::Load { id, format }, Some(&bytes));
        }
    }
}

/// Loads a dataset (cancelling any work in progress). Returns the request id.
pub fn load(format: Format, payload: JsValue) -> u64 {
    if busy() {
        restart(false);
    }
    let id = next_id();
    BRIDGE.with(|b| {
        if let Some(b) = b.borrow_mut().as_mut() {
            b.pending = Some((id, format, payload.clone()));
        }
    });
    post(&Request::Load { id, format }, Some(&payload));
    id
}

/// Puts the last good dataset back after a failed load (the failed parse left the worker's table
/// alone, but a restart may have dropped it).
pub fn reload_good() {
    let good = BRIDGE.with(|b| b.borrow().as_ref().and_then(|b| b.good.clone()));
    if let Some((id, format, bytes)) = good {
        post(&Request::Load { id, format }, Some(&bytes));
    }
}

/// Computes curves; a computation still running is cancelled first.
pub fn compute(req: impl FnOnce(u64) -> Request) -> u64 {
    let id = next_id();
    let r = req(id);
    if busy() && matches!(r, Request::Compute { .. }) {
        restart(true);
    }
    post(&r, None);
    id
}

/// Queues a cheap request (per-item draws) without cancelling anything.
pub fn ask(req: impl FnOnce(u64) -> Request) -> u64 {
    let id = next_id();
    post(&req(id), None);
    id
}

//! The page's handle on its workers: a small pool (one per core, at most four), each holding the
//! current dataset. A computation is split by repeats over the pool and the parts are merged
//! (`Curves::merge`; repeat r always uses random stream r, so the result equals one worker's).
//! Requests are queued until a worker is ready; a stale computation is cancelled by terminating
//! the pool and starting afresh (a wasm worker cannot be interrupted mid-call), replaying the data.

use annosat_app::protocol::{Format, Request, Response};
use annosat_core::curves::Curves;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

type Handler = Rc<dyn Fn(Response)>;
/// A load: its id, format and payload (bundle bytes, or the user's `File`, which crosses to a
/// worker without a copy and is read there, so big uploads never load the page).
type Source = (u64, Format, JsValue);

struct Slot {
    worker: Worker,
    ready: bool,
    /// Requests sent and not yet answered.
    outstanding: usize,
    queue: Vec<js_sys::Array>,
    _onmessage: Closure<dyn Fn(MessageEvent)>,
}

/// Parts of one split computation.
struct Split {
    expected: usize,
    parts: Vec<Curves>,
    done: Vec<f64>,
    ms: f64,
}

struct Pool {
    slots: Vec<Slot>,
    good: Option<Source>,
    pending: Option<Source>,
    /// Workers that answered each load so far (a load is answered once all have it).
    loaded: HashMap<u64, usize>,
    failed: Vec<u64>,
    splits: HashMap<u64, Split>,
    handler: Handler,
}

thread_local! {
    static POOL: RefCell<Option<Pool>> = const { RefCell::new(None) };
    static NEXT_ID: Cell<u64> = const { Cell::new(1) };
}

pub fn next_id() -> u64 {
    NEXT_ID.with(|c| {
        let id = c.get();
        c.set(id + 1);
        id
    })
}

fn pool_size() -> usize {
    let cores = web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(1.0);
    (cores as usize).clamp(1, 4)
}

/// Starts the worker binary `name` (built by Trunk with wasm-bindgen's no-modules target: load its
/// glue, then its wasm). Its files are fetched only now, so a worker the page never starts costs
/// the first page nothing.
pub fn spawn(name: &str) -> Result<Worker, JsValue> {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    let base = &base[..base.rfind('/').map(|i| i + 1).unwrap_or(base.len())];
    let script = format!("importScripts('{base}{name}.js'); wasm_bindgen('{base}{name}_bg.wasm');");
    let parts = js_sys::Array::of1(&JsValue::from_str(&script));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("text/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    Worker::new(&url)
}

fn spawn_worker(index: usize) -> Result<Slot, JsValue> {
    let worker = spawn("annosat-worker")?;
    let onmessage =
        Closure::<dyn Fn(MessageEvent)>::new(move |ev: MessageEvent| on_message(index, ev));
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    Ok(Slot {
        worker,
        ready: false,
        outstanding: 0,
        queue: Vec::new(),
        _onmessage: onmessage,
    })
}

fn install(handler: Handler) -> Result<(), JsValue> {
    let old = POOL.with(|p| p.borrow_mut().take());
    let (good, pending) = match &old {
        Some(o) => {
            o.slots.iter().for_each(|s| s.worker.terminate());
            (o.good.clone(), o.pending.clone())
        }
        None => (None, None),
    };
    let slots = (0..pool_size())
        .map(spawn_worker)
        .collect::<Result<Vec<_>, _>>()?;
    let pool = Pool {
        slots,
        good,
        pending,
        loaded: HashMap::new(),
        failed: Vec::new(),
        splits: HashMap::new(),
        handler,
    };
    POOL.with(|p| *p.borrow_mut() = Some(pool));
    Ok(())
}

/// Starts the workers; `handler` gets every response (split computations arrive merged).
pub fn init(handler: impl Fn(Response) + 'static) -> Result<(), JsValue> {
    install(Rc::new(handler))
}

/// Bookkeeping for one message; returns what the page should see, if anything yet.
fn receive(p: &mut Pool, index: usize, resp: Response) -> Option<Response> {
    let slot = p.slots.get_mut(index)?;
    match resp {
        Response::Ready => {
            slot.ready = true;
            for msg in slot.queue.drain(..) {
                let _ = slot.worker.post_message(&msg);
            }
            None
        }
        Response::Progress { id, stage, done } => match p.splits.get_mut(&id) {
            Some(s) => {
                if let Some(d) = s.done.get_mut(index) {
                    *d = done;
                }
                let mean = s.done.iter().sum::<f64>() / s.done.len() as f64;
                Some(Response::Progress {
                    id,
                    stage,
                    done: mean,
                })
            }
            None => Some(Response::Progress { id, stage, done }),
        },
        Response::Loaded { id, summary, notes } => {
            slot.outstanding = slot.outstanding.saturating_sub(1);
            let n = p.loaded.entry(id).or_insert(0);
            *n += 1;
            if *n < p.slots.len() {
                return None;
            }
            if p.pending.as_ref().is_some_and(|s| s.0 == id) {
                p.good = p.pending.take();
            }
            Some(Response::Loaded { id, summary, notes })
        }
        Response::Curves { id, curves, ms } => {
            slot.outstanding = slot.outstanding.saturating_sub(1);
            let Some(s) = p.splits.get_mut(&id) else {
                return Some(Response::Curves { id, curves, ms });
            };
            s.parts.push(curves);
            s.ms = s.ms.max(ms);
            if s.parts.len() < s.expected {
                return None;
            }
            let s = p.splits.remove(&id)?;
            Some(match Curves::merge(s.parts) {
                Ok(curves) => Response::Curves {
                    id,
                    curves,
                    ms: s.ms,
                },
                Err(message) => Response::Error { id, message },
            })
        }
        Response::Error { id, message } => {
            slot.outstanding = slot.outstanding.saturating_sub(1);
            // Every worker fails a bad load the same way: say it once.
            if p.failed.contains(&id) {
                return None;
            }
            p.failed.push(id);
            p.splits.remove(&id);
            Some(Response::Error { id, message })
        }
        other => {
            slot.outstanding = slot.outstanding.saturating_sub(1);
            Some(other)
        }
    }
}

fn on_message(index: usize, ev: MessageEvent) {
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
    let out = POOL.with(|p| {
        let mut p = p.borrow_mut();
        let p = p.as_mut()?;
        receive(p, index, resp).map(|r| (p.handler.clone(), r))
    });
    if let Some((handler, r)) = out {
        handler(r);
    }
}

fn message(req: &Request, payload: Option<&JsValue>) -> js_sys::Array {
    let msg = js_sys::Array::of1(&JsValue::from_str(
        &serde_json::to_string(req).unwrap_or_default(),
    ));
    if let Some(p) = payload {
        msg.push(p);
    }
    msg
}

fn post_to(index: usize, msg: js_sys::Array) {
    POOL.with(|p| {
        if let Some(slot) = p.borrow_mut().as_mut().and_then(|p| p.slots.get_mut(index)) {
            slot.outstanding += 1;
            if slot.ready {
                let _ = slot.worker.post_message(&msg);
            } else {
                slot.queue.push(msg);
            }
        }
    });
}

/// How many workers share a computation.
pub fn size() -> usize {
    POOL.with(|p| p.borrow().as_ref().map(|p| p.slots.len()).unwrap_or(0))
}

fn post_load(src: &Source) {
    let req = Request::Load {
        id: src.0,
        format: src.1,
    };
    for i in 0..size() {
        post_to(i, message(&req, Some(&src.2)));
    }
}

fn busy() -> bool {
    POOL.with(|p| {
        p.borrow()
            .as_ref()
            .is_some_and(|p| p.slots.iter().any(|s| s.outstanding > 0))
    })
}

/// Replaces whatever the workers are doing with fresh ones; with `replay`, the dataset being
/// loaded (or else the last good one) is loaded into them again.
fn restart(replay: bool) {
    let Some(handler) = POOL.with(|p| p.borrow().as_ref().map(|p| p.handler.clone())) else {
        return;
    };
    if install(handler).is_ok() && replay {
        let src = POOL.with(|p| {
            p.borrow()
                .as_ref()
                .and_then(|p| p.pending.clone().or_else(|| p.good.clone()))
        });
        if let Some(src) = src {
            post_load(&src);
        }
    }
}

/// Loads a dataset into every worker (cancelling any work in progress). Returns the request id.
pub fn load(format: Format, payload: JsValue) -> u64 {
    if busy() {
        restart(false);
    }
    let id = next_id();
    let src = (id, format, payload);
    POOL.with(|p| {
        if let Some(p) = p.borrow_mut().as_mut() {
            p.pending = Some(src.clone());
        }
    });
    post_load(&src);
    id
}

/// Puts the last good dataset back after a failed load (the failed parse left the workers' table
/// alone, but a restart may have dropped it).
pub fn reload_good() {
    if let Some(src) = POOL.with(|p| p.borrow().as_ref().and_then(|p| p.good.clone())) {
        post_load(&src);
    }
}

/// Computes curves split over the pool; a computation still running is cancelled first.
pub fn compute(config: annosat_core::curves::CurveConfig) -> u64 {
    if busy() {
        restart(true);
    }
    let id = next_id();
    let n = size().min(config.repeats as usize).max(1);
    let r = config.repeats as usize;
    POOL.with(|p| {
        if let Some(p) = p.borrow_mut().as_mut() {
            p.splits.insert(
                id,
                Split {
                    expected: n,
                    parts: Vec::new(),
                    done: vec![0.0; n],
                    ms: 0.0,
                },
            );
        }
    });
    for i in 0..n {
        let part = Some(((i * r / n) as u32, ((i + 1) * r / n) as u32));
        post_to(
            i,
            message(
                &Request::Compute {
                    id,
                    config: config.clone(),
                    part,
                },
                None,
            ),
        );
    }
    id
}

/// Queues a cheap request (per-item draws) on the first worker without cancelling anything.
pub fn ask(req: impl FnOnce(u64) -> Request) -> u64 {
    let id = next_id();
    post_to(0, message(&req(id), None));
    id
}

/// The user's uploaded file, when the current dataset is an upload (its `File`, for the model
/// worker to read).
pub fn current_upload() -> Option<JsValue> {
    POOL.with(|p| {
        p.borrow()
            .as_ref()
            .and_then(|p| p.good.clone())
            .filter(|s| s.1 == Format::Csv)
            .map(|s| s.2)
    })
}

//! The page's handle on its workers: a small pool (one per core, at most four), each holding the
//! current dataset. A computation is split by repeats over the pool and the parts are merged
//! (`Curves::merge`; repeat r always uses random stream r, so the result equals one worker's).
//!
//! This file only moves messages: which request is fresh, how parts merge, what a failed load or a
//! dead worker means is decided by [`Requests`] (src/requests.rs, tested natively), and the page
//! gets only its [`Answer`]s. Requests wait in a queue until a worker is ready; a stale computation
//! is cancelled by terminating the pool and starting afresh (a wasm worker cannot be interrupted
//! mid-call), replaying the data. A worker that traps (out of memory, say) or fails to load is
//! reported and replaced, with the last good dataset loaded back.

use crate::worker_slot::WorkerSlot;
use annosat_app::protocol::{Format, Request, Response};
use annosat_app::requests::{Action, Answer, JobEvent, Load, Requests};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::MessageEvent;

type Handler = Rc<dyn Fn(Answer)>;

struct Pool {
    slots: Vec<WorkerSlot>,
    /// Bumped at every restart: events from terminated workers are ignored.
    generation: u32,
    reqs: Requests<JsValue>,
    handler: Handler,
}

thread_local! {
    static POOL: RefCell<Option<Pool>> = const { RefCell::new(None) };
    /// Ids for requests made before the pool exists or to other workers (the model worker).
    static SPARE_ID: Cell<u64> = const { Cell::new(1 << 40) };
}

/// A fresh request id (the model worker's jobs use these too).
pub fn next_id() -> u64 {
    with_pool(|p| p.reqs.next_id()).unwrap_or_else(|| {
        SPARE_ID.with(|c| {
            c.set(c.get() + 1);
            c.get()
        })
    })
}

fn with_pool<R>(f: impl FnOnce(&mut Pool) -> R) -> Option<R> {
    POOL.with(|p| p.borrow_mut().as_mut().map(f))
}

fn pool_size() -> usize {
    let cores = web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(1.0);
    (cores as usize).clamp(1, 4)
}

fn spawn_slot(index: usize, generation: u32) -> Result<WorkerSlot, JsValue> {
    WorkerSlot::start(
        "annosat-worker",
        move |ev| on_message(generation, index, ev),
        move |detail| on_died(generation, detail),
    )
}

/// Replaces the pool's workers with fresh ones (the old ones are terminated).
fn respawn(p: &mut Pool) -> Result<(), JsValue> {
    p.slots.iter().for_each(WorkerSlot::terminate);
    p.generation += 1;
    let g = p.generation;
    p.slots = (0..p.reqs.workers())
        .map(|i| spawn_slot(i, g))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(())
}

/// Starts the workers; `handler` gets every fresh answer (split computations arrive merged).
pub fn init(handler: impl Fn(Answer) + 'static) -> Result<(), JsValue> {
    let mut pool = Pool {
        slots: Vec::new(),
        generation: 0,
        reqs: Requests::new(pool_size()),
        handler: Rc::new(handler),
    };
    respawn(&mut pool)?;
    POOL.with(|p| *p.borrow_mut() = Some(pool));
    Ok(())
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

fn post_to(p: &mut Pool, index: usize, msg: js_sys::Array) {
    if let Some(slot) = p.slots.get_mut(index) {
        slot.post(msg);
    }
}

fn post_load(p: &mut Pool, l: &Load<JsValue>) {
    let req = Request::Load {
        id: l.id,
        format: l.format,
    };
    for i in 0..p.slots.len() {
        post_to(p, i, message(&req, Some(&l.payload)));
    }
}

/// Tells each room whose job a restart of the workers took with it (after the current borrow
/// of the pool ends).
fn tell_lost(p: &mut Pool) {
    for kind in p.reqs.take_lost() {
        let handler = p.handler.clone();
        wasm_bindgen_futures::spawn_local(async move {
            handler(Answer::Job {
                kind,
                event: JobEvent::Stopped,
            });
        });
    }
}

/// Carries out what the bookkeeping asked for.
fn act(p: &mut Pool, action: Action<JsValue>) {
    match action {
        Action::None => {}
        Action::Reload(l) => {
            p.reqs.reload(&l);
            post_load(p, &l);
        }
        Action::Respawn(restore) => {
            if let Err(e) = respawn(p) {
                let message = format!("cannot start the worker again: {e:?}; reload the page");
                let handler = p.handler.clone();
                // Said after this borrow ends.
                wasm_bindgen_futures::spawn_local(
                    async move { handler(Answer::Failed { message }) },
                );
                return;
            }
            p.reqs.restarted();
            if let Some(l) = restore {
                p.reqs.reload(&l);
                post_load(p, &l);
            }
            tell_lost(p);
        }
    }
}

fn on_message(generation: u32, index: usize, ev: MessageEvent) {
    let Some(json) = ev.data().as_string() else {
        return;
    };
    let resp: Response = match serde_json::from_str(&json) {
        Ok(r) => r,
        // Answered to the request it was for (`{"Done": {"id": 7, …}}`), so its job ends.
        Err(e) => Response::Error {
            id: serde_json::from_str::<serde_json::Value>(&json)
                .ok()
                .and_then(|v| v.as_object()?.values().next()?.get("id")?.as_u64())
                .unwrap_or(0),
            message: format!("bad message from worker: {e}"),
        },
    };
    let out = with_pool(|p| {
        if p.generation != generation {
            return None;
        }
        if matches!(resp, Response::Ready) {
            if let Some(slot) = p.slots.get_mut(index) {
                slot.set_ready();
            }
        }
        let (answer, action) = p.reqs.receive(index, resp);
        act(p, action);
        answer.map(|a| (p.handler.clone(), a))
    })
    .flatten();
    if let Some((handler, a)) = out {
        handler(a);
    }
}

fn on_died(generation: u32, detail: String) {
    let out = with_pool(|p| {
        if p.generation != generation {
            return None;
        }
        let (answer, action) = p.reqs.worker_died(&detail);
        act(p, action);
        Some((p.handler.clone(), answer))
    })
    .flatten();
    if let Some((handler, a)) = out {
        handler(a);
    }
}

/// How many workers share a computation.
pub fn size() -> usize {
    with_pool(|p| p.slots.len()).unwrap_or(0)
}

/// Loads a dataset into every worker (cancelling any work in progress); `upload` marks a user's
/// file (a failure is then shown beside the upload and the last good dataset stays).
pub fn load(format: Format, payload: JsValue, upload: bool) {
    with_pool(|p| {
        if p.reqs.busy() {
            if respawn(p).is_err() {
                return;
            }
            p.reqs.restarted();
            tell_lost(p);
        }
        let l = p.reqs.load(format, payload, upload);
        post_load(p, &l);
    });
}

/// Target-side work is replacing what the workers do: if they are busy, fresh workers, with the
/// dataset being loaded (or else the last good one) loaded back into them.
fn replace_if_busy(p: &mut Pool) {
    if p.reqs.busy() && respawn(p).is_ok() {
        if let Some(l) = p.reqs.restarted() {
            p.reqs.reload(&l);
            post_load(p, &l);
        }
        tell_lost(p);
    }
}

/// Computes curves split over the pool; a computation still running is cancelled first.
/// With a `scale`, each part's rating curves follow its mean curves.
pub fn compute(
    config: annosat_core::curves::CurveConfig,
    scale: Option<annosat_core::ratings::Scale>,
) {
    with_pool(|p| {
        replace_if_busy(p);
        let (id, parts) = p.reqs.compute(config.repeats);
        for (i, part) in parts.into_iter().enumerate() {
            let req = Request::Compute {
                id,
                config: config.clone(),
                part: Some(part),
                scale: scale.clone(),
            };
            post_to(p, i, message(&req, None));
        }
    });
}

/// Asks the first worker for the multilabel curves of the current (multilabel) dataset; like a
/// computation, it replaces whatever the workers were doing.
pub fn multilabel(config: annosat_core::multilabel::MlConfig, target: f64) {
    with_pool(|p| {
        replace_if_busy(p);
        let id = p.reqs.multilabel();
        post_to(
            p,
            0,
            message(&Request::Multilabel { id, config, target }, None),
        );
    });
}

/// Asks the first worker for per-item draws at N, without cancelling anything.
pub fn items(config: annosat_core::curves::CurveConfig, n: u32) {
    with_pool(|p| {
        let id = p.reqs.items();
        post_to(p, 0, message(&Request::Items { id, config, n }, None));
    });
}

/// Asks the first worker for a job on the current dataset (`protocol::Job`), without cancelling
/// anything; a newer job of the same kind makes an older one's answer stale.
pub fn job(job: annosat_app::protocol::Job) {
    with_pool(|p| {
        let id = p.reqs.job(job.kind());
        post_to(p, 0, message(&Request::Job { id, job }, None));
    });
}

/// Stops whatever the workers are doing (the user's Stop button): fresh workers, the last good
/// dataset loaded back quietly.
pub fn cancel() {
    with_pool(|p| {
        let action = p.reqs.cancel();
        act(p, action);
    });
}

/// The user's uploaded file, when the current dataset is an upload (its `File`, for the model
/// worker to read).
pub fn current_upload() -> Option<JsValue> {
    with_pool(|p| {
        p.reqs
            .good()
            .filter(|l| l.format == Format::Csv)
            .map(|l| l.payload.clone())
    })
    .flatten()
}

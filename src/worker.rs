//! The worker side: owns the current vote table, parses uploads and computes curves, so the page's
//! main thread never runs anything heavy. It answers one request at a time; the page cancels a
//! stale computation by terminating the worker and starting a fresh one.

use crate::protocol::{Format, Request, Response};
use annosat_core::curves::{compute_with_progress, item_draws};
use annosat_core::summary::Summary;
use annosat_core::{bundle, parse_votes_with_progress, ImportOptions, VoteTable};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

thread_local! {
    static TABLE: RefCell<Option<VoteTable>> = const { RefCell::new(None) };
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(r: &Response) {
    let json = serde_json::to_string(r).unwrap_or_else(|e| format!("{{\"Error\":{{\"id\":0,\"message\":\"{e}\"}}}}"));
    let _ = scope().post_message(&JsValue::from_str(&json));
}

fn now_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Throttled progress: at most ~50 messages per task.
fn progress(id: u64, stage: &'static str) -> impl FnMut(f64) {
    let mut last = -1.0;
    move |done: f64| {
        if done - last >= 0.02 || done >= 1.0 {
            last = done;
            post(&Response::Progress { id, stage: stage.into(), done });
        }
    }
}

fn handle(req: Request, bytes: Option<Vec<u8>>) -> Response {
    match req {
        Request::Load { id, format } => {
            let bytes = bytes.unwrap_or_default();
            let mut notes = Vec::new();
            let parsed = match format {
                Format::Bundle => bundle::decode(&bytes).map(|b| b.table),
                Format::Csv => {
                    let opts = ImportOptions { skip_zero_vote_items: true };
                    let mut p = progress(id, "parse");
                    parse_votes_with_progress(&bytes, &opts, &mut p).map_err(|e| e.to_string()).map(|(t, report)| {
                        if !report.skipped_zero_vote.is_empty() {
                            notes.push(format!("{} item(s) with zero votes were skipped", report.skipped_zero_vote.len()));
                        }
                        t
                    })
                }
            };
            match parsed {
                Ok(t) => {
                    let summary = Summary::of(&t);
                    TABLE.with(|c| *c.borrow_mut() = Some(t));
                    Response::Loaded { id, summary, notes }
                }
                // The previous table stays: a bad upload leaves the app as it was.
                Err(message) => Response::Error { id, message },
            }
        }
        Request::Compute { id, config } => TABLE.with(|c| match c.borrow().as_ref() {
            None => Response::Error { id, message: "no dataset loaded".into() },
            Some(t) => {
                let t0 = now_ms();
                let mut p = progress(id, "compute");
                match compute_with_progress(t, &config, &mut |d, n| p(d as f64 / n as f64)) {
                    Ok(curves) => Response::Curves { id, curves, ms: now_ms() - t0 },
                    Err(e) => Response::Error { id, message: e.to_string() },
                }
            }
        }),
        Request::Items { id, config, n } => TABLE.with(|c| match c.borrow().as_ref() {
            None => Response::Error { id, message: "no dataset loaded".into() },
            Some(t) => match item_draws(t, &config, n, 0) {
                Ok(rows) => Response::Items { id, n, rows },
                Err(e) => Response::Error { id, message: e.to_string() },
            },
        }),
    }
}

/// Entry point of the worker binary.
pub fn start() {
    let onmessage = Closure::<dyn Fn(MessageEvent)>::new(|ev: MessageEvent| {
        let data = js_sys::Array::from(&ev.data());
        let json = data.get(0).as_string().unwrap_or_default();
        let bytes = data.get(1).dyn_into::<js_sys::Uint8Array>().ok().map(|a| a.to_vec());
        let resp = match serde_json::from_str::<Request>(&json) {
            Ok(req) => handle(req, bytes),
            Err(e) => Response::Error { id: 0, message: format!("bad request: {e}") },
        };
        post(&resp);
    });
    scope().set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    post(&Response::Ready);
}

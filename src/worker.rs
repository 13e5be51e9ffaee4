//! The worker side: owns the current vote table, parses uploads and computes curves, so the page's
//! main thread never runs anything heavy. It answers one request at a time; the page cancels a
//! stale computation by terminating the worker and starting a fresh one.

use crate::protocol::{Format, Request, Response, MOVERS, SCATTER_POINTS};
use annosat_core::curves::{compute_repeats, item_draws};
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
    let json = serde_json::to_string(r)
        .unwrap_or_else(|e| format!("{{\"Error\":{{\"id\":0,\"message\":\"{e}\"}}}}"));
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
            post(&Response::Progress {
                id,
                stage: stage.into(),
                done,
            });
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
                    let opts = ImportOptions {
                        skip_zero_vote_items: true,
                    };
                    let mut p = progress(id, "parse");
                    parse_votes_with_progress(&bytes, &opts, &mut p)
                        .map_err(|e| e.to_string())
                        .map(|(t, report)| {
                            if !report.skipped_zero_vote.is_empty() {
                                notes.push(format!(
                                    "{} item(s) with zero votes were skipped",
                                    report.skipped_zero_vote.len()
                                ));
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
        Request::Compute { id, config, part } => TABLE.with(|c| match c.borrow().as_ref() {
            None => Response::Error {
                id,
                message: "no dataset loaded".into(),
            },
            Some(t) => {
                let t0 = now_ms();
                let mut p = progress(id, "compute");
                let range = part.map(|(a, b)| a..b).unwrap_or(0..config.repeats);
                match compute_repeats(t, &config, range, &mut |d, n| p(d as f64 / n as f64)) {
                    Ok(curves) => Response::Curves {
                        id,
                        curves,
                        ms: now_ms() - t0,
                    },
                    Err(e) => Response::Error {
                        id,
                        message: e.to_string(),
                    },
                }
            }
        }),
        Request::Items { id, config, n } => TABLE.with(|c| match c.borrow().as_ref() {
            None => Response::Error {
                id,
                message: "no dataset loaded".into(),
            },
            Some(t) => match item_draws(t, &config, n, 0) {
                Ok(mut rows) => {
                    let total = rows.len();
                    let step = total.div_ceil(SCATTER_POINTS).max(1);
                    let points = rows
                        .iter()
                        .step_by(step)
                        .map(|r| (r.h_ref, r.h_n))
                        .collect();
                    rows.sort_by(|a, b| {
                        (b.h_n - b.h_ref).abs().total_cmp(&(a.h_n - a.h_ref).abs())
                    });
                    rows.truncate(MOVERS);
                    Response::Items {
                        id,
                        n,
                        movers: rows,
                        points,
                        total,
                    }
                }
                Err(e) => Response::Error {
                    id,
                    message: e.to_string(),
                },
            },
        }),
    }
}

/// The bytes that came with a request: a `Uint8Array` (bundled data) or a `File`, read here with
/// the synchronous reader that workers have.
fn payload_bytes(v: JsValue) -> Result<Option<Vec<u8>>, String> {
    if v.is_undefined() {
        return Ok(None);
    }
    if let Ok(a) = v.clone().dyn_into::<js_sys::Uint8Array>() {
        return Ok(Some(a.to_vec()));
    }
    let blob: web_sys::Blob = v.dyn_into().map_err(|_| "unexpected payload".to_string())?;
    let reader =
        web_sys::FileReaderSync::new().map_err(|e| format!("cannot read the file: {e:?}"))?;
    let buf = reader
        .read_as_array_buffer(&blob)
        .map_err(|e| format!("cannot read the file: {e:?}"))?;
    Ok(Some(js_sys::Uint8Array::new(&buf).to_vec()))
}

/// Runs the curve loop briefly on made-up counts so the browser's optimising compiler picks it up
/// before real data arrives (wasm code starts in a baseline tier and is swapped for optimised code
/// only between calls; measured here, the first real computation took about twice as long without).
fn warm_up() {
    let (items, k) = (40usize, 3usize);
    let counts: Vec<u32> = (0..items * k)
        .map(|j| ((j * 7919) % 37) as u32 + 1)
        .collect();
    let ids = (0..items).map(|i| i.to_string()).collect();
    let t = VoteTable::new(vec!["a".into(), "b".into(), "c".into()], ids, counts);
    let cfg = annosat_core::CurveConfig {
        repeats: 400,
        ..Default::default()
    };
    let _ = annosat_core::curves::compute(&t, &cfg);
}

/// Entry point of the worker binary.
pub fn start() {
    warm_up();
    let onmessage = Closure::<dyn Fn(MessageEvent)>::new(|ev: MessageEvent| {
        let data = js_sys::Array::from(&ev.data());
        let json = data.get(0).as_string().unwrap_or_default();
        let resp = match (
            serde_json::from_str::<Request>(&json),
            payload_bytes(data.get(1)),
        ) {
            (Ok(req), Ok(bytes)) => handle(req, bytes),
            (Ok(req), Err(message)) => Response::Error {
                id: req.id(),
                message,
            },
            (Err(e), _) => Response::Error {
                id: 0,
                message: format!("bad request: {e}"),
            },
        };
        post(&resp);
    });
    scope().set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    post(&Response::Ready);
}

//! The worker side: owns the current vote table, parses uploads and computes curves, so the page's
//! main thread never runs anything heavy. It answers one request at a time; the page cancels a
//! stale computation by terminating the worker and starting a fresh one.

use crate::blob_reader::{blob_reader, Payload};
use crate::limits;
use crate::protocol::{Format, Request, Response, MOVERS, SCATTER_POINTS};
use annosat_core::curves::{item_draws, Prepared};
use annosat_core::multilabel::MultilabelTable;
use annosat_core::summary::Summary;
use annosat_core::{
    bundle, parse_votes_from, ImportError, ImportErrorKind, ImportOptions, VoteTable,
};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

thread_local! {
    static TABLE: RefCell<Option<VoteTable>> = const { RefCell::new(None) };
    /// `TABLE` with ragged items cut to the count most items reach (and to the app's N axis),
    /// where that cut anything: what the curves and extrapolations read (`curves::cap`).
    static CAPPED: RefCell<Option<VoteTable>> = const { RefCell::new(None) };
    /// The current table when it is multilabel (then `TABLE` is empty, and the other way round).
    static ML_TABLE: RefCell<Option<MultilabelTable>> = const { RefCell::new(None) };
}

/// A loaded table of either kind.
enum Loaded {
    Single(VoteTable),
    Multi(MultilabelTable),
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

/// Throttled progress: at most ~50 messages per task, and none in its first 200 ms — a short task
/// (all of a bundled dataset's curves take tens of milliseconds) would only make the page re-render
/// its status line while the workers share the CPU with it.
fn progress(id: u64, stage: &'static str) -> impl FnMut(f64) {
    let mut last = -1.0;
    let start = now_ms();
    move |done: f64| {
        if (done - last >= 0.02 || done >= 1.0) && now_ms() - start >= 200.0 {
            last = done;
            post(&Response::Progress {
                id,
                stage: stage.into(),
                done,
            });
        }
    }
}

/// Reads a user's CSV within the app's limits ([`limits`]); notes say what was skipped. A file the
/// single-label reader finds multilabel (or with empty labels, which a multilabel long file has
/// for ratings that ticked nothing) is read again as multilabel votes.
fn read_upload(id: u64, payload: Payload, notes: &mut Vec<String>) -> Result<Loaded, String> {
    let opts = ImportOptions {
        skip_zero_vote_items: true,
        max_items: Some(limits::MAX_ITEMS),
    };
    let mut p = progress(id, "parse");
    let parsed = match &payload {
        Payload::Bytes(b) => parse_votes_from(b.as_slice(), b.len(), &opts, &mut p),
        Payload::File(blob) => {
            let len = blob.size() as usize;
            parse_votes_from(blob_reader(blob.clone())?, len, &opts, &mut p)
        }
    };
    let (t, report) = match parsed {
        Ok(ok) => ok,
        Err(
            e @ ImportError {
                kind: ImportErrorKind::Multilabel { .. } | ImportErrorKind::EmptyLabel,
                ..
            },
        ) => {
            let detected = matches!(e.kind, ImportErrorKind::Multilabel { .. });
            let ml = match payload {
                Payload::Bytes(b) => annosat_core::import::multilabel::parse_multilabel_from(
                    b.as_slice(),
                    opts.max_items,
                ),
                Payload::File(blob) => annosat_core::import::multilabel::parse_multilabel_from(
                    blob_reader(blob)?,
                    opts.max_items,
                ),
            };
            return match ml {
                Ok((t, _)) if detected || t.has_several_labels_in_a_rating() => {
                    notes.push(format!(
                        "multilabel votes: {} labels, each annotator may tick several; the Target room shows their multilabel curves",
                        t.n_labels()
                    ));
                    Ok(Loaded::Multi(t))
                }
                Ok(_) => Err(e.to_string()),
                Err(m) if detected => Err(m.to_string()),
                Err(_) => Err(e.to_string()),
            };
        }
        Err(e) => return Err(e.to_string()),
    };
    if !report.skipped_zero_vote.is_empty() {
        notes.push(format!(
            "{} item(s) with zero votes were skipped",
            report.skipped_zero_vote.len()
        ));
    }
    Ok(Loaded::Single(t))
}

fn handle(req: Request, payload: Option<Payload>) -> Response {
    match req {
        Request::Load { id, format } => {
            let mut notes = Vec::new();
            let parsed = match (format, payload) {
                (Format::Bundle, Some(Payload::Bytes(b)))
                    if annosat_core::multilabel::bundle::is_multilabel(&b) =>
                {
                    annosat_core::multilabel::bundle::decode(&b).map(|b| Loaded::Multi(b.table))
                }
                (Format::Bundle, Some(Payload::Bytes(b))) => {
                    bundle::decode(&b).map(|b| Loaded::Single(b.table))
                }
                (Format::Csv, Some(p)) => read_upload(id, p, &mut notes),
                _ => Err("nothing to load came with the request".into()),
            }
            .and_then(|t| {
                let s = match &t {
                    Loaded::Single(t) => Summary::of(t),
                    Loaded::Multi(t) => Summary::of_multilabel(t),
                };
                limits::check_table(&s).map(|_| (s, t))
            });
            match parsed {
                Ok((summary, t)) => {
                    let (single, multi) = match t {
                        Loaded::Single(t) => (Some(t), None),
                        Loaded::Multi(t) => (None, Some(t)),
                    };
                    let capped = single.as_ref().and_then(|t| {
                        annosat_core::curves::cap::cap_votes(t, Some(limits::MAX_VOTES_PER_ITEM))
                    });
                    if let Some((_, cap)) = &capped {
                        notes.push(cap.note());
                    }
                    CAPPED.with(|c| *c.borrow_mut() = capped.map(|(t, _)| t));
                    TABLE.with(|c| *c.borrow_mut() = single);
                    ML_TABLE.with(|c| *c.borrow_mut() = multi);
                    Response::Loaded { id, summary, notes }
                }
                // The previous table stays: a bad upload leaves the app as it was.
                Err(message) => Response::Error { id, message },
            }
        }
        Request::Compute {
            id,
            config,
            part,
            scale,
        } => {
            let full = config.reference == annosat_core::curves::Reference::Full;
            with_curve_table(id, full, |t| {
                let t0 = now_ms();
                let range = part.map(|(a, b)| a..b).unwrap_or(0..config.repeats);
                match compute_in_two_passes(id, t, &config, range, scale.as_ref(), t0) {
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
            })
        }
        Request::Job { id, job } => with_table(id, |file| {
            let t0 = now_ms();
            let mut p = progress(id, "job");
            let done = CAPPED.with(|c| {
                let capped = c.borrow();
                crate::worker_jobs::run(job, file, capped.as_ref().unwrap_or(file), &mut |d| p(d))
            });
            match done {
                Ok(outcome) => Response::Done {
                    id,
                    outcome,
                    ms: now_ms() - t0,
                },
                Err(message) => Response::Error { id, message },
            }
        }),
        Request::Multilabel { id, config, target } => ML_TABLE.with(|c| {
            let Some(t) = c.borrow().as_ref().cloned() else {
                return Response::Error {
                    id,
                    message: "no multilabel dataset loaded".into(),
                };
            };
            let t0 = now_ms();
            match annosat_core::multilabel::compute(&t, &config) {
                Ok(curves) => Response::MlReport {
                    id,
                    report: Box::new(annosat_core::multilabel::MlReport::of(
                        &t, &curves, &config, target,
                    )),
                    ms: now_ms() - t0,
                },
                Err(message) => Response::Error { id, message },
            }
        }),
        Request::Items { id, config, n } => {
            let full = config.reference == annosat_core::curves::Reference::Full;
            with_curve_table(id, full, |t| match item_draws(t, &config, n, 0) {
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
            })
        }
    }
}

/// The mean curves first, sent as soon as they are drawn (a pass without the item bootstrap: its
/// fixed-point cells cost the draws about half again, measured on ChaosNLI-SNLI by
/// `scripts/bench.sh`), then the same draws again with the bootstrap's cells and its resamples,
/// reported as the "intervals" stage (draws to 80%, resamples the rest). The two passes draw the
/// same votes, so the means of both are the same bits (`requests/tests.rs`). On a scale
/// (`scale`), the rating curves of the same repeats come
/// between the two passes, on the file's own ratings (the "ratings" stage).
fn compute_in_two_passes(
    id: u64,
    t: &VoteTable,
    config: &annosat_core::curves::CurveConfig,
    range: std::ops::Range<u32>,
    scale: Option<&annosat_core::ratings::Scale>,
    t0: f64,
) -> Result<annosat_core::curves::Curves, annosat_core::curves::CurveError> {
    let mut p = progress(id, "compute");
    let means = annosat_core::curves::CurveConfig {
        bootstrap: 0,
        ..config.clone()
    };
    let curves =
        Prepared::new(t, &means)?.repeats(range.clone(), &mut |d, n| p(d as f64 / n as f64))?;
    post(&Response::MeanCurves {
        id,
        curves: curves.clone(),
        ms: now_ms() - t0,
    });
    if let Some(scale) = scale {
        let mut p = progress(id, "ratings");
        let report = TABLE.with(|c| {
            let table = c.borrow();
            let all = table.as_ref().unwrap_or(t);
            annosat_core::ratings::RatingReport::of(all, scale, config, range.clone(), &mut |d| {
                p(d)
            })
        })?;
        post(&Response::Ratings {
            id,
            report: Box::new(report),
            ms: now_ms() - t0,
        });
    }
    if config.bootstrap == 0 {
        return Ok(curves);
    }
    let mut r = progress(id, "intervals");
    let mut r2 = progress(id, "intervals");
    Prepared::new(t, config)?.repeats_reporting_resamples(
        range,
        &mut |d, n| r(0.8 * d as f64 / n as f64),
        &mut |d, n| r2(0.8 + 0.2 * d as f64 / n as f64),
    )
}

/// Runs `f` on the table the curves read where `full` (against all votes): the capped one. A
/// held-out split splits the whole table, by annotator where it can.
fn with_curve_table(id: u64, full: bool, f: impl FnOnce(&VoteTable) -> Response) -> Response {
    CAPPED.with(|c| match c.borrow().as_ref().filter(|_| full) {
        Some(t) => f(t),
        None => with_table(id, f),
    })
}

/// Runs `f` on the worker's current table, or answers that no dataset is loaded.
fn with_table(id: u64, f: impl FnOnce(&VoteTable) -> Response) -> Response {
    TABLE.with(|c| match c.borrow().as_ref() {
        None if ML_TABLE.with(|m| m.borrow().is_some()) => Response::Error {
            id,
            message: "these are multilabel votes: the Target room shows their curves; this part of the app reads single-label votes (one label per annotator and item)".into(),
        },
        None => Response::Error {
            id,
            message: "no dataset loaded".into(),
        },
        Some(t) => f(t),
    })
}

/// What came with a request: a `Uint8Array` (bundled data, small) or a `File` (streamed by
/// [`BlobReader`]).
fn payload(v: JsValue) -> Result<Option<Payload>, String> {
    if v.is_undefined() {
        return Ok(None);
    }
    if let Ok(a) = v.clone().dyn_into::<js_sys::Uint8Array>() {
        return Ok(Some(Payload::Bytes(a.to_vec())));
    }
    let blob: web_sys::Blob = v.dyn_into().map_err(|_| "unexpected payload".to_string())?;
    Ok(Some(Payload::File(blob)))
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
        let resp = match (serde_json::from_str::<Request>(&json), payload(data.get(1))) {
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
    // `annosat_memory()`: this worker's wasm memory in bytes, for the soak benchmark
    // (scripts/soak.sh samples it every minute).
    let memory = Closure::<dyn Fn() -> f64>::new(|| {
        wasm_bindgen::memory()
            .unchecked_into::<js_sys::WebAssembly::Memory>()
            .buffer()
            .unchecked_into::<js_sys::ArrayBuffer>()
            .byte_length() as f64
    });
    let _ = js_sys::Reflect::set(&js_sys::global(), &"annosat_memory".into(), memory.as_ref());
    memory.forget();
    post(&Response::Ready);
}

//! How the worker talks back and reads what it is sent — posting replies (with bytes beside them),
//! its clock, a request's bytes, the arms a job names and the runs it reports. A leaf every job
//! module uses, so the dispatcher (`worker.rs`) is not also the library its jobs import.

use crate::protocol::{TrainResponse, TrainedRun};
use annosat_heads::arms::Arm;
use anyhow::{anyhow, Result};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::DedicatedWorkerGlobalScope;

pub(crate) fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

pub(crate) fn post(r: &TrainResponse) {
    let json = serde_json::to_string(r).unwrap_or_else(|e| {
        format!("{{\"Error\":{{\"id\":0,\"message\":\"cannot encode a reply: {e}\"}}}}")
    });
    let _ = scope().post_message(&JsValue::from_str(&json));
}

pub(crate) fn now_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// A response with bytes beside it: `[json, Uint8Array]`.
pub(crate) fn post_with_bytes(r: &TrainResponse, bytes: &[u8]) {
    let json = serde_json::to_string(r).unwrap_or_default();
    let msg = js_sys::Array::of2(&JsValue::from_str(&json), &js_sys::Uint8Array::from(bytes));
    let _ = scope().post_message(&msg);
}

/// The bytes a request carries: a `Uint8Array`, or a `File` (an upload crosses to the worker
/// without a copy and is read here with the synchronous reader workers have).
pub(crate) fn bytes(v: JsValue, what: &str) -> Result<Vec<u8>> {
    if let Some(a) = v.dyn_ref::<js_sys::Uint8Array>() {
        return Ok(a.to_vec());
    }
    let blob: web_sys::Blob = v
        .dyn_into()
        .map_err(|_| anyhow!("the request carries no {what}"))?;
    let reader =
        web_sys::FileReaderSync::new().map_err(|e| anyhow!("cannot read {what}: {e:?}"))?;
    let buf = reader
        .read_as_array_buffer(&blob)
        .map_err(|e| anyhow!("cannot read {what}: {e:?}"))?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

/// The arms to train for `names`: temp_hard needs the hard head (it is hard with a temperature).
pub(crate) fn arms_for(names: &[String]) -> Result<Vec<Arm>> {
    let mut arms = names
        .iter()
        .map(|s| Arm::parse(s).ok_or_else(|| anyhow!("unknown arm {s:?}")))
        .collect::<Result<Vec<_>>>()?;
    if arms.contains(&Arm::TempHard) && !arms.contains(&Arm::Hard) {
        arms.insert(0, Arm::Hard);
    }
    Ok(arms)
}

/// The runs the user asked for (not the hard head trained only for temp_hard), as the page sees them.
pub(crate) fn requested(runs: Vec<annosat_heads::RunResult>, names: &[String]) -> Vec<TrainedRun> {
    runs.into_iter()
        .filter(|r| names.contains(&r.arm))
        .map(|r| TrainedRun {
            arm: r.arm,
            n: r.n,
            best_epoch: r.best_epoch,
            votes_used: r.votes_used,
            temperature: r.temperature,
            neighbours: r.neighbours,
            metrics: r.metrics,
        })
        .collect()
}

/// " · about 12 s left" from the share done and the time so far.
pub(crate) fn eta(done: f64, elapsed_ms: f64) -> String {
    eta_as(done, elapsed_ms, "about")
}

/// `bound`: "about", or "at most" where the stage may end early (training stops early).
pub(crate) fn eta_as(done: f64, elapsed_ms: f64, bound: &str) -> String {
    if done <= 0.0 {
        return String::new();
    }
    let left = elapsed_ms / done * (1.0 - done) / 1000.0;
    format!(" · {bound} {left:.0} s left")
}

/// The job's one progress bar: each stage posts where it is, with the time since the job began.
#[derive(Clone, Copy)]
pub(crate) struct Bar {
    pub(crate) id: u64,
    pub(crate) t0: f64,
}

impl Bar {
    pub(crate) fn stage(&self, stage: &str, done: f64, detail: String) {
        post(&TrainResponse::Stage {
            id: self.id,
            stage: stage.into(),
            done,
            detail,
            elapsed_ms: now_ms() - self.t0,
        })
    }
}
